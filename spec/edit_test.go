package spec

import "testing"

func TestSetSourceSchema(t *testing.T) {
	in := `# yaml-language-server: $schema=pipegen.schema.json
pipeline: p   # the name

sources:
  # landing files
  raw:
    files: {path: landing, format: csv}
    csv: {delimiter: ";"}

  other:
    files: {path: other, format: json}
    schema: >-
      old STRING,
      older INT
    # kept
datasets: {}
`
	out, err := SetSourceSchema([]byte(in), "raw", "a BIGINT,\nb STRING", "inferred by pipegen infer from 1 csv file")
	if err != nil {
		t.Fatal(err)
	}
	want := `# yaml-language-server: $schema=pipegen.schema.json
pipeline: p   # the name

sources:
  # landing files
  raw:
    files: {path: landing, format: csv}
    csv: {delimiter: ";"}
    # inferred by pipegen infer from 1 csv file
    schema: >-
      a BIGINT,
      b STRING

  other:
    files: {path: other, format: json}
    schema: >-
      old STRING,
      older INT
    # kept
datasets: {}
`
	if string(out) != want {
		t.Fatalf("added:\n%s\nwant:\n%s", out, want)
	}
	// Replacing twice gives the same text: the old schema and the comment
	// infer wrote above it go.
	out2, err := SetSourceSchema(out, "raw", "a BIGINT,\nb STRING", "inferred by pipegen infer from 1 csv file")
	if err != nil || string(out2) != want {
		t.Fatalf("replaced (err %v):\n%s", err, out2)
	}
	out3, err := SetSourceSchema([]byte(in), "other", "x DATE", "inferred")
	if err != nil {
		t.Fatal(err)
	}
	want3 := in[:len(in)-len("    schema: >-\n      old STRING,\n      older INT\n    # kept\ndatasets: {}\n")] +
		"    # inferred\n    schema: >-\n      x DATE\n    # kept\ndatasets: {}\n"
	if string(out3) != want3 {
		t.Fatalf("replaced:\n%s\nwant:\n%s", out3, want3)
	}
	if _, err := SetSourceSchema([]byte(in), "nosuch", "x INT", "c"); err == nil {
		t.Error("no error for a missing source")
	}
	if _, err := SetSourceSchema([]byte("sources:\n  raw: {files: {path: x, format: json}}\n"), "raw", "x INT", "c"); err == nil {
		t.Error("no error for a flow-style source")
	}
}

func TestSetSourceSchemaCRLF(t *testing.T) {
	in := "pipeline: p\r\nsources:\r\n  raw:\r\n    files: {path: l, format: json}\r\n"
	out, err := SetSourceSchema([]byte(in), "raw", "a INT", "c")
	if err != nil {
		t.Fatal(err)
	}
	if want := in + "    # c\r\n    schema: >-\r\n      a INT\r\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
