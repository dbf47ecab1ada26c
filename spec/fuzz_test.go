package spec

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the whole front end (load, schema,
// resolve, check): it must never panic, and a spec without errors must come
// with a pipeline. Seeds are every spec in testdata.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/spec.yaml")
	seeds = append(seeds, "testdata/scalars.yaml")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("pipeline: p\nsources: &a {x: *a}\n"))
	f.Add([]byte("pipeline: p\ndatasets:\n  a: {kind: materialized_view, query: \"SELECT ${\"}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, diags := LoadBytes("fuzz.yaml", src)
		if p == nil && !diags.HasErrors() {
			t.Fatalf("no pipeline and no error for %q", src)
		}
		for _, d := range diags {
			if d.File == "" || d.Message == "" {
				t.Fatalf("diagnostic without file or message: %+v", d)
			}
		}
	})
}

// FuzzPosAt maps every offset of arbitrary scalars (any style YAML can
// parse) back to the file: it must never panic and must stay inside the
// file.
func FuzzPosAt(f *testing.F) {
	for _, s := range []string{"q: a b\n  c", "q: 'a''b\n\n c'", "q: \"a\\tb\\\n  c\\u00e9\"", "q: |2-\n   x\n  y\n", "q: >+\n a\n\n  b\n", "q: !!str &x y"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		l := &loader{readFile: func(string) ([]byte, error) { return src, nil }}
		file := l.parseFile("f.yaml", false)
		if file == nil {
			return
		}
		s := file.str(mapValue(file.root, "q"))
		if !s.Set() {
			return
		}
		for off := -1; off <= len(s.Value)+1; off++ {
			p := s.PosAt(off)
			if p.Line < 1 || p.Line > len(file.lines)+1 || p.Col < 1 {
				t.Fatalf("offset %d of %q maps to %s outside the file", off, s.Value, p)
			}
		}
	})
}
