package gen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/pipegen/pipegen/spec"
)

// repoRoot returns the root of the pipegen module, from this file.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// generate loads a spec held in memory and generates its program.
func generate(t testing.TB, path string, src []byte) (*spec.Pipeline, map[string][]byte) {
	t.Helper()
	p, diags := spec.LoadBytes(path, src)
	if diags.HasErrors() {
		var b bytes.Buffer
		diags.Write(&b, spec.TextOutput, "")
		t.Fatalf("%s does not check:\n%s", path, b.String())
	}
	files, err := Generate(p, Options{Version: "test"})
	if err != nil {
		t.Fatalf("generate %s: %v", path, err)
	}
	return p, files
}

// buildProgram writes files as a module that uses this checkout of pipegen
// and builds it (offline, from the module cache); it returns the binary.
func buildProgram(t testing.TB, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := repoRoot()
	mod := "module pipegen.test/program\n\ngo 1.26\n\nrequire github.com/pipegen/pipegen v0.0.0\n\nreplace github.com/pipegen/pipegen => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "program")
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "CGO_ENABLED=0")
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-o", bin, "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("go %v: %v\n%s", args, err, out.String())
		}
	}
	return bin
}

// loadSpec loads a spec held in memory; diags is the text of its errors.
func loadSpec(src string) (*spec.Pipeline, string) {
	p, diags := spec.LoadBytes("spec.yaml", []byte(src))
	if !diags.HasErrors() {
		return p, ""
	}
	var b bytes.Buffer
	diags.Write(&b, spec.TextOutput, "")
	return nil, b.String()
}
