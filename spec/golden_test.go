package spec

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/<case>/")

// TestGolden runs every case folder testdata/<case>/ holding a spec.yaml.
// The spec's first line `# want: CODE...` lists the codes of the errors it
// must produce (`ok` for none; `*` matches any code), independently of the
// golden files: want.diag holds the exact diagnostics and, for a valid
// spec, want.explain its explanation. -update rewrites the golden files.
func TestGolden(t *testing.T) {
	var dirs []string
	filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "spec.yaml" {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if len(dirs) < 30 {
		t.Fatalf("found %d golden cases, want at least 30", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			path := filepath.Join(dir, "spec.yaml")
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p, diags := Load(path)
			checkWantCodes(t, string(src), diags)
			if p == nil && !diags.HasErrors() {
				t.Fatal("no pipeline and no error")
			}
			var diagText bytes.Buffer
			diags.Write(&diagText, TextOutput, "")
			golden(t, filepath.Join(dir, "want.diag"), diagText.String())
			var explain bytes.Buffer
			if p != nil {
				p.Explain(&explain)
			}
			golden(t, filepath.Join(dir, "want.explain"), explain.String())
		})
	}
}

// checkWantCodes compares the error codes with the spec's `# want:` line.
func checkWantCodes(t *testing.T, src string, diags Diagnostics) {
	t.Helper()
	first, _, _ := strings.Cut(src, "\n")
	want, ok := strings.CutPrefix(first, "# want:")
	if !ok {
		t.Fatal("spec.yaml must start with `# want: CODE...` or `# want: ok`")
	}
	var wantCodes []string
	anyCodes := 0
	for _, c := range strings.Fields(want) {
		switch c {
		case "ok":
		case "*":
			anyCodes++
		default:
			wantCodes = append(wantCodes, c)
		}
	}
	var got []string
	for _, d := range diags {
		if d.Severity == Error {
			got = append(got, d.Code)
		}
	}
	sort.Strings(got)
	sort.Strings(wantCodes)
	// Every wanted code must be there; `*` entries stand for the rest.
	rest := append([]string(nil), got...)
	for _, w := range wantCodes {
		i := sort.SearchStrings(rest, w)
		if i >= len(rest) || rest[i] != w {
			t.Errorf("want an error %s; got codes %q:\n%s", w, got, diagLines(diags))
			return
		}
		rest = append(rest[:i], rest[i+1:]...)
	}
	if len(rest) != anyCodes {
		t.Errorf("got %d errors besides the wanted codes %q, want %d:\n%s", len(rest), wantCodes, anyCodes, diagLines(diags))
	}
}

func diagLines(ds Diagnostics) string {
	var b bytes.Buffer
	ds.Write(&b, TextOutput, "")
	return b.String()
}

// golden compares got with the file at path (absent means empty), or
// rewrites it with -update (removing it when got is empty).
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if got == "" {
			os.Remove(path)
			return
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test ./spec -run TestGolden -update to accept):\n--- got\n%s--- want\n%s", path, got, want)
	}
}
