package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// loadYAML reads a test document as JSON values.
func loadYAML(t *testing.T, path string) (any, string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	// Round-trip through JSON so numbers are json.Number, as the loader
	// gives them.
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := unmarshalJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	return doc, string(src)
}

func unmarshalJSON(b []byte) (any, error) {
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

func TestAccept(t *testing.T) {
	files, _ := filepath.Glob("testdata/accept/*.yaml")
	if len(files) == 0 {
		t.Fatal("no accept cases")
	}
	for _, f := range files {
		doc, _ := loadYAML(t, f)
		vs, err := Validate(doc, MainFile)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			t.Errorf("%s: unexpected violation at %q: %s", f, v.Path, v.Message)
		}
	}
}

// TestReject checks that each document in testdata/reject produces the
// violation its `# want:` line gives (a `# library` line validates it as a
// library file).
func TestReject(t *testing.T) {
	files, _ := filepath.Glob("testdata/reject/*.yaml")
	if len(files) < 10 {
		t.Fatalf("found %d reject cases", len(files))
	}
	for _, f := range files {
		doc, src := loadYAML(t, f)
		kind := MainFile
		if strings.Contains(src, "# library\n") {
			kind = LibraryFile
		}
		_, want, ok := strings.Cut(src, "# want: ")
		if !ok {
			t.Fatalf("%s: no # want: line", f)
		}
		want, _, _ = strings.Cut(want, "\n")
		vs, err := Validate(doc, kind)
		if err != nil {
			t.Fatal(err)
		}
		var msgs []string
		found := false
		for _, v := range vs {
			msgs = append(msgs, v.Message)
			found = found || v.Message == want
		}
		if !found {
			t.Errorf("%s: want violation %q, got %q", f, want, msgs)
		}
		if len(vs) != 1 {
			t.Errorf("%s: want exactly one violation, got %q", f, msgs)
		}
	}
}

func TestUnknownKeyCarriesAllowedKeys(t *testing.T) {
	doc := map[string]any{"pipeline": "p", "datasets": map[string]any{"d": map[string]any{"kind": "materialized_view", "qurey": "x"}}}
	vs, err := Validate(doc, MainFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Key != "qurey" || strings.Join(vs[0].Path, "/") != "datasets/d" {
		t.Fatalf("got %+v", vs)
	}
	if !strings.Contains(strings.Join(vs[0].Allowed, " "), "query") {
		t.Errorf("allowed keys %q lack query", vs[0].Allowed)
	}
}

func TestDocumentIsDraft202012(t *testing.T) {
	doc, err := Document()
	if err != nil {
		t.Fatal(err)
	}
	if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" || doc["$id"] != URL {
		t.Errorf("$schema %v, $id %v", doc["$schema"], doc["$id"])
	}
}

// TestEveryPropertyDescribed keeps editor hover and docs/spec.md complete:
// every property of every object in the schema has a description.
func TestEveryPropertyDescribed(t *testing.T) {
	doc, err := Document()
	if err != nil {
		t.Fatal(err)
	}
	defs := doc["$defs"].(map[string]any)
	var walk func(path string, s map[string]any)
	walk = func(path string, s map[string]any) {
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			ps := p.(map[string]any)
			desc, _ := ps["description"].(string)
			if desc == "" {
				if ref, ok := ps["$ref"].(string); ok {
					desc, _ = defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)["description"].(string)
				}
			}
			if desc == "" {
				t.Errorf("%s.%s has no description", path, name)
			}
		}
	}
	walk("root", doc)
	for name, d := range defs {
		walk(name, d.(map[string]any))
	}
}
