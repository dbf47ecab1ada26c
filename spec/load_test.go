package spec

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// diagStrings renders diagnostics without hints or codes hidden.
func diagStrings(ds Diagnostics) string {
	var b bytes.Buffer
	ds.Write(&b, TextOutput, "")
	return b.String()
}

func TestLoadRejectsMalformedYAML(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"empty", "", "x.yaml:1:1: the file is empty"},
		{"comment only", "# nothing\n", "x.yaml:1:1: the file is empty"},
		{"syntax", "pipeline: p\n  bad: [\n", "x.yaml:"},
		{"duplicate key", "pipeline: p\npipeline: q\n", `x.yaml:2:1: duplicate key "pipeline" (first defined at line 1)`},
		{"not a mapping", "- a\n- b\n", `x.yaml:1:1: the document must be an object, got a list`},
		{"complex key", "pipeline: p\n? [a]\n: b\n", "x.yaml:2:3: mapping keys must be plain strings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, diags := LoadBytes("x.yaml", []byte(tc.src))
			if p != nil || !diags.HasErrors() {
				t.Fatalf("accepted: %v", diags)
			}
			if got := diagStrings(diags); !strings.Contains(got, tc.want) {
				t.Errorf("got\n%s\nwant it to contain %q", got, tc.want)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, diags := Load(filepath.Join(t.TempDir(), "nope.yaml"))
	if got := diagStrings(diags); !strings.Contains(got, "cannot read") || !strings.Contains(got, "no such file") {
		t.Errorf("got %q", got)
	}
}

func TestLoadLibraryThatMatchesNothing(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "spec.yaml")
	os.WriteFile(main, []byte("pipeline: p\nlibraries: [lib/*.yaml, missing.yaml]\n"), 0o644)
	_, diags := Load(main)
	got := diagStrings(diags)
	for _, want := range []string{`spec.yaml:2:13: library "lib/*.yaml" matches no file`, `spec.yaml:2:25: library "missing.yaml" matches no file`} {
		if !strings.Contains(got, want) {
			t.Errorf("got\n%s\nwant %q", got, want)
		}
	}
}

// TestLibraryDiagnosticsNameTheirFile checks that a schema violation in a
// library file is reported in that file, with the library schema (a
// library cannot set pipeline-level keys).
func TestLibraryDiagnosticsNameTheirFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "spec.yaml"), []byte("pipeline: p\nlibraries: [more.yaml]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "more.yaml"), []byte("catalog: x\ndatasets:\n  a: {kind: materialized_view, qurey: SELECT 1}\n"), 0o644)
	_, diags := Load(filepath.Join(dir, "spec.yaml"))
	got := diagStrings(diags)
	for _, want := range []string{
		filepath.Join(dir, "more.yaml") + `:1:1: unknown key "catalog" at the top level`,
		filepath.Join(dir, "more.yaml") + `:3:32: unknown key "qurey" in "datasets.a" (did you mean "query"?) [SCHEMA]`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("got\n%s\nwant %q", got, want)
		}
	}
}

func TestAliasesAreFollowed(t *testing.T) {
	src := "pipeline: p\nsources:\n  a: &src {files: {path: x, format: json}, schema: 'x INT'}\n  b: *src\n"
	ast, diags := LoadASTBytes("x.yaml", []byte(src))
	if ast == nil {
		t.Fatalf("rejected: %s", diagStrings(diags))
	}
	if len(ast.Sources) != 2 || ast.Sources[1].Files == nil || ast.Sources[1].Files.Path.Value != "x" {
		t.Errorf("alias not followed: %+v", ast.Sources)
	}
}

func TestDiagnosticsSortAndFormats(t *testing.T) {
	ds := Diagnostics{
		{Pos: Pos{"b.yaml", 1, 1}, Message: "third"},
		{Pos: Pos{"a.yaml", 10, 2}, Message: "second", Hint: `did you mean "x"?`, Code: "C"},
		{Pos: Pos{"a.yaml", 2, 9}, Message: "first", Severity: Warning},
		{Pos: Pos{"a.yaml", 2, 9}, Message: "first", Severity: Warning},
	}
	ds.Sort()
	if len(ds) != 3 {
		t.Fatalf("duplicates kept: %v", ds)
	}
	var text, gh, js bytes.Buffer
	ds.Write(&text, TextOutput, "")
	want := "a.yaml:2:9: warning: first\na.yaml:10:2: second (did you mean \"x\"?) [C]\nb.yaml:1:1: third\n"
	if text.String() != want {
		t.Errorf("text:\n%s\nwant\n%s", text.String(), want)
	}
	ds.Write(&gh, GitHubOutput, "")
	if !strings.HasPrefix(gh.String(), "::warning file=a.yaml,line=2,col=9::first\n::error file=a.yaml,line=10,col=2::second") {
		t.Errorf("github: %s", gh.String())
	}
	ds.Write(&js, JSONOutput, "")
	if !strings.Contains(js.String(), `"file": "a.yaml",`) || !strings.Contains(js.String(), `"hint": "did you mean \"x\"?"`) {
		t.Errorf("json: %s", js.String())
	}
	if ds.HasErrors() != true || (Diagnostics{{Severity: Note}}).HasErrors() {
		t.Error("HasErrors")
	}
}

func TestRelativePaths(t *testing.T) {
	ds := Diagnostics{{Pos: Pos{"/work/x/spec.yaml", 1, 2}, Message: "m"}, {Pos: Pos{"/elsewhere/s.yaml", 1, 2}, Message: "m"}}
	var b bytes.Buffer
	ds.Write(&b, TextOutput, "/work")
	if got := b.String(); got != "x/spec.yaml:1:2: m\n/elsewhere/s.yaml:1:2: m\n" {
		t.Errorf("got %q", got)
	}
}

func TestSuggest(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"ordrs", []string{"orders", "customers"}, "orders"},
		{"Orders", []string{"orders"}, "orders"},
		{"x", []string{"orders"}, ""},
		{"amout", []string{"amount", "mount"}, "amount"},
		{"abc", nil, ""},
	} {
		if got := Suggest(tc.name, tc.cands); got != tc.want {
			t.Errorf("Suggest(%q, %q) = %q, want %q", tc.name, tc.cands, got, tc.want)
		}
	}
}

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"orders_bronze": "OrdersBronze", "order_id": "OrderID", "_rescued_data": "RescuedData",
		"2fa": "X2fa", "": "X", "userId": "UserId", "__START_AT": "STARTAT", "ünïcode": "Ünïcode", "日本": "X日本",
		"type": "Type", "a-b c": "ABC",
	} {
		if got := GoName(in); got != want {
			t.Errorf("GoName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := GoFieldNames([]types.Field{{Name: "a_b"}, {Name: "aB"}, {Name: "A_B"}}); strings.Join(got, ",") != "AB,AB2,AB3" {
		t.Errorf("GoFieldNames = %q", got)
	}
}

// TestYAMLSyntaxErrorLines checks that a YAML syntax error is reported on
// the line of the mistake: yaml.v3 names the line of the node it was
// parsing (one early, and not at all on the first line) instead of the
// offending token's. Each case has its mistake on the line marked <-, put
// there by hand.
func TestYAMLSyntaxErrorLines(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"flow mapping on one line",
			"pipeline: p\ndatasets:\n  t:\n    expectations:\n      - {name: a, expr: \"x > 0\", on_violation: drop}\n      - {name: b, expr: \"x > 0\" y, on_violation: drop}\n",
			`x.yaml:6:7: invalid YAML: did not find expected ',' or '}' (a value inside {...}`},
		{"param inside a flow mapping",
			"pipeline: p\ndatasets:\n  t:\n    expectations:\n      - {name: a, expr: x > 0, on_violation: drop}\n      - {name: b, expr: x >= ${min}, on_violation: drop}\n",
			`x.yaml:6:31: invalid YAML: did not find expected ',' or '}'`},
		{"missing comma in a flow sequence over lines",
			"pipeline: p\ndatasets:\n  t:\n    expectations: [\n      {name: a, expr: x, on_violation: drop},\n      {name: b, expr: x, on_violation: drop}\n      {name: c, expr: x, on_violation: drop}\n    ]\n",
			`x.yaml:7:7: invalid YAML: did not find expected ',' or ']' (inside the [...] starting at line 4: write "," between its entries and "]" at its end`},
		{"missing comma in a flow mapping over lines",
			"pipeline: p\nsources:\n  raw:\n    files: {\n      path: landing,\n      format: json\n      max_files_per_trigger: 2\n    }\n",
			`x.yaml:7:7: invalid YAML: did not find expected ',' or '}' (inside the {...} starting at line 4`},
		{"flow mapping not closed before the next key",
			"pipeline: p\nsources: {raw: {files: {path: l, format: json}, schema: id INT}\ndatasets: {}\n",
			`x.yaml:3:1: invalid YAML: did not find expected ',' or '}' (inside the {...} starting at line 2`},
		{"flow mapping not closed at the end",
			"pipeline: p\ndatasets:\n  t:\n    expectations:\n      - {name: b, expr: x, on_violation: drop\n",
			`x.yaml:5:9: invalid YAML: did not find expected ',' or '}' (the {...} starting here is not closed: end it with "}")`},
		{"key indented less than its siblings",
			"pipeline: p\nsources:\n  raw:\n    files: {path: l, format: json}\n    schema: id INT\n   query: x\n",
			`x.yaml:6:4: invalid YAML: did not find expected key (inside the mapping starting at line 3: its keys must line up at one indentation)`},
		{"key indented less on the first level",
			"pipeline: p\ndatasets:\n  a:\n kind: x\n",
			`x.yaml:4:2: invalid YAML: did not find expected key`},
		{"list item indented less",
			"pipeline: p\ndatasets:\n  t:\n    expectations:\n      - name: a\n        expr: x\n      - name: b\n       expr: y\n",
			`x.yaml:8:8: invalid YAML: did not find expected '-' indicator (inside the list starting at line 5`},
		{"mistake on the first line",
			"pipeline: {a: 1 b: 2}\n",
			`x.yaml:1:1: invalid YAML: did not find expected ',' or '}'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := LoadBytes("x.yaml", []byte(tc.src))
			if got := diagStrings(diags); !strings.Contains(got, tc.want) {
				t.Errorf("got\n%s\nwant it to contain %q", got, tc.want)
			}
		})
	}
}
