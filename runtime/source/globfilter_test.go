package source

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

func TestGlobFilterListing(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.csv", "SOURCE.md", "sub/b.csv", "sub/c.json", "sub/deep/d.CSV"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{"*.csv", []string{"a.csv", "b.csv"}},
		{"*.parquet", nil},
		{"*.{csv,json}", []string{"a.csv", "b.csv", "c.json"}},
		{"*.{csv,CSV}", []string{"a.csv", "b.csv", "d.CSV"}},
		{"sub*", nil}, // folders are not matched, only file names
	} {
		g, err := CompileGlobFilter(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		l, err := ListNames(dir)
		if err != nil {
			t.Fatal(err)
		}
		l.Filter(g)
		var got []string
		for _, e := range l.Entries {
			got = append(got, filepath.Base(e.LocalPath()))
		}
		sort.Strings(got)
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.pattern, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: got %v, want %v", tc.pattern, got, tc.want)
			}
		}
	}
}

func TestGlobFilterBad(t *testing.T) {
	for _, p := range []string{"[a", "*.{csv", "a}", "x\\"} {
		if _, err := CompileGlobFilter(p); err == nil {
			t.Errorf("%q: no error", p)
		}
	}
}
