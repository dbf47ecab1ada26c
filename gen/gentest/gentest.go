// Package gentest builds the programs that package gen generates, for the
// tests that run them (gen's own tests and the differential SQL corpus of
// gen/difftest). It is imported by tests only.
package gentest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// RepoRoot returns the root of this pipegen checkout.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// GoMod returns the go.mod of a module named name that requires pipegen,
// replaced by the checkout at root, and every module pipegen's own go.mod
// requires, at its versions, as `pipegen build` writes the generated
// module (cmd/pipegen/module.go). Listing them all keeps the build to the
// go.mod files pipegen's own build loaded: with pipegen alone required, go
// (-mod=mod) would add its dependencies as direct requirements and then
// want their requirements' go.mod files too, which a module cache warmed
// only by building pipegen lacks (GOPROXY=off fails on them).
func GoMod(t testing.TB, name, root string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\ngo 1.26\n\nrequire (\n\tgithub.com/pipegen/pipegen v0.0.0\n", name)
	for _, r := range f.Require {
		fmt.Fprintf(&b, "\t%s %s // indirect\n", r.Mod.Path, r.Mod.Version)
	}
	fmt.Fprintf(&b, ")\n\nreplace github.com/pipegen/pipegen => %s\n", root)
	return []byte(b.String())
}

// Build builds the generated files (file name → contents) into a program
// against this checkout's runtime — a module that replaces pipegen by the
// repository root — offline, from the module cache, and returns the
// program's path. Programs are cached by content (the generated code, the
// runtime's source and go.sum) under the user cache directory, so an
// unchanged program is not built again. It fails the test when the build
// fails, with the compiler's output.
func Build(t testing.TB, files map[string][]byte) string {
	t.Helper()
	prog, err := TryBuild(t, files)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// compileError matches the compiler's error lines about the generated files.
var compileError = regexp.MustCompile(`(?m)^\./[^/\s]+\.go:\d+:\d+: `)

// BuildError is a failed go build of a generated program: the compiler's
// output.
type BuildError struct {
	Output string
}

func (e *BuildError) Error() string {
	return "go build of the generated program failed:\n" + e.Output
}

// TryBuild is Build for tests that expect some programs not to compile: a
// failed build returns a *BuildError (also cached by content, so that the
// same program is not compiled again to fail the same way); other
// problems (no go.sum, an unwritable cache) still fail the test.
func TryBuild(t testing.TB, files map[string][]byte) (string, error) {
	t.Helper()
	root, err := filepath.Abs(RepoRoot())
	if err != nil {
		t.Fatal(err)
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(files[n]))
		h.Write(files[n])
	}
	h.Write(gosum)
	// The runtime's source: the program links it.
	err = filepath.WalkDir(filepath.Join(root, "runtime"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := os.ReadFile(path)
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(data))
		h.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	prog := filepath.Join(cache, "pipegen", "gentest", hex.EncodeToString(h.Sum(nil))[:24], "prog")
	if _, err := os.Stat(prog); err == nil {
		return prog, nil
	}
	if out, err := os.ReadFile(prog + ".failed"); err == nil {
		return "", &BuildError{Output: string(out)}
	}
	dir := t.TempDir()
	if keep := os.Getenv("PIPEGEN_KEEP"); keep != "" {
		dir = keep // keep the generated module for reading
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), GoMod(t, "pipegen.generated/gentest", root), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), gosum, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(prog), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := fmt.Sprintf("%s.%d.tmp", prog, os.Getpid())
	cmd := exec.Command("go", "build", "-o", tmp, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("go build of the generated program: %v\n%s", err, out)
		}
		failed := fmt.Sprintf("%s.%d.failed", prog, os.Getpid())
		// Only the compiler's verdict on the generated code is cached, not
		// a failure of the toolchain or of the module cache.
		if compileError.Match(out) && os.WriteFile(failed, out, 0o644) == nil {
			os.Rename(failed, prog+".failed")
		}
		return "", &BuildError{Output: fmt.Sprintf("%v\n%s", err, out)}
	}
	if err := os.Rename(tmp, prog); err != nil {
		t.Fatal(err)
	}
	return prog, nil
}
