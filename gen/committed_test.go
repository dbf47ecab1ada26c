package gen_test

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/gen"
	"github.com/pipegen/pipegen/gen/gentest"
	prt "github.com/pipegen/pipegen/runtime"
	"github.com/pipegen/pipegen/spec"
	"github.com/pipegen/pipegen/templates"
)

var update = flag.Bool("update", false, "rewrite the committed generated code of examples/*/generated* and templates/generated/*")

// committedProgram is a spec whose generated program is committed in the
// repository, so that a generator change shows in review as a diff of Go.
// The files are named NAME.go.golden: as .go files they would be compiled
// by go build ./... and counted as repeated code by every scan for
// duplicates (generated code repeats by design). TestGoldenCasesBuildAndRun
// compiles and runs the examples' programs, cmd/pipegen's init_*.txtar
// scripts the templates'.
type committedProgram struct {
	dir  string // the folder the spec is loaded from (its relative paths anchor there)
	spec string // the spec's file name, as `pipegen build` is given it from dir
	src  []byte // the spec's text; nil to read it from dir/spec
	out  string // the folder that holds the committed files
}

// committedPrograms lists every example spec (examples/<name>/<spec>.yaml,
// its program under examples/<name>/generated, or generated_<spec> for a
// second spec) and every template of pipegen init, instantiated as init
// does for a folder named after the template (templates/generated/<name>).
func committedPrograms(t *testing.T) []committedProgram {
	t.Helper()
	root, err := filepath.Abs(gentest.RepoRoot())
	if err != nil {
		t.Fatal(err)
	}
	specs, err := filepath.Glob(filepath.Join(root, "examples", "*", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var out []committedProgram
	for _, path := range specs {
		dir, base := filepath.Split(path)
		folder := "generated"
		if name := strings.TrimSuffix(base, ".yaml"); name != "pipeline" {
			folder += "_" + name
		}
		out = append(out, committedProgram{dir: dir, spec: base, out: filepath.Join(dir, folder)})
	}
	for _, name := range templates.Names() {
		tfs, _ := templates.FS(name)
		data, err := fs.ReadFile(tfs, "pipeline.yaml")
		if err != nil {
			t.Fatal(err)
		}
		// As `pipegen init NAME` writes it (cmd/pipegen/init.go).
		pipeline := strings.ReplaceAll(name, "-", "_")
		data = bytes.ReplaceAll(data, []byte(templates.Placeholder), []byte(pipeline))
		out = append(out, committedProgram{dir: filepath.Join(root, "templates", name), spec: "pipeline.yaml", src: data, out: filepath.Join(root, "templates", "generated", pipeline)})
	}
	// The walk must find something: four example specs and three templates.
	if len(out) < 7 {
		t.Fatalf("found %d specs with committed programs, want at least 7", len(out))
	}
	return out
}

// TestCommittedGeneratedCode regenerates the program of every example and
// template, exactly as `pipegen build --emit` run from the spec's folder
// writes it (this pipegen's version in the header), and fails when it
// differs from the committed files. Run with -update (make generated) to
// rewrite them after a generator change, and review the diff.
func TestCommittedGeneratedCode(t *testing.T) {
	for _, c := range committedPrograms(t) {
		rel, _ := filepath.Rel(gentest.RepoRoot(), c.out)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			t.Chdir(c.dir)
			var p *spec.Pipeline
			var diags spec.Diagnostics
			if c.src != nil {
				p, diags = spec.LoadBytes(c.spec, c.src)
			} else {
				p, diags = spec.Load(c.spec)
			}
			if p == nil || diags.HasErrors() {
				t.Fatalf("%s does not check: %v", filepath.Join(c.dir, c.spec), diags)
			}
			files, err := gen.Generate(p, gen.Options{Version: prt.Version})
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				writeCommitted(t, c.out, files)
				return
			}
			compareCommitted(t, c.out, files)
		})
	}
}

// compareCommitted fails for every golden file of dir (NAME.go.golden for
// the generated NAME.go) that is missing, differs from the generated file,
// or is not generated at all.
func compareCommitted(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	have, err := filepath.Glob(filepath.Join(dir, "*.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range have {
		if _, ok := files[strings.TrimSuffix(filepath.Base(path), ".golden")]; !ok {
			t.Errorf("%s is committed but no longer generated: run go test ./gen -run TestCommittedGeneratedCode -update (make generated)", path)
		}
	}
	for _, name := range sortedNames(files) {
		path := filepath.Join(dir, name+".golden")
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v: run go test ./gen -run TestCommittedGeneratedCode -update (make generated) and commit the result", err)
			continue
		}
		if !bytes.Equal(got, files[name]) {
			t.Errorf("%s differs from what the generator writes now (first difference at line %d): run go test ./gen -run TestCommittedGeneratedCode -update (make generated) and review the diff", path, firstDiffLine(got, files[name]))
		}
	}
}

// writeCommitted replaces the golden files of dir by files.
func writeCommitted(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	old, err := filepath.Glob(filepath.Join(dir, "*.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range old {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name+".golden"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// firstDiffLine returns the 1-based number of the first line where a and b
// differ.
func firstDiffLine(a, b []byte) int {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return i + 1
		}
	}
	return min(len(al), len(bl)) + 1
}
