package main

// Helpers of the pipeline-life tests (soak, triggers, spec changes,
// vacuum): build a spec into a program and run it as a user would.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// lifeBuild builds the spec at path into a program (cached by content,
// as `pipegen run` does) and returns its path.
func lifeBuild(t testing.TB, path string) string {
	t.Helper()
	var stderr bytes.Buffer
	bin, code := cachedBuild(&stderr, path, locations{}, true)
	if code != exitOK {
		t.Fatalf("build %s: exit %d\n%s", path, code, stderr.String())
	}
	return bin
}

// lifeResult is what one run of a generated program printed and returned.
type lifeResult struct {
	stdout, stderr string
	code           int
}

// lifeRun runs bin with args in dir and returns its output and exit
// code; it fails the test when the program cannot be started.
func lifeRun(t testing.TB, dir, bin string, args ...string) lifeResult {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PIPEGEN_FAULT=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	res := lifeResult{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run %s: %v", bin, err)
	}
	return res
}

// lifeMustRun runs bin and fails the test unless it exits 0.
func lifeMustRun(t testing.TB, dir, bin string, args ...string) lifeResult {
	t.Helper()
	res := lifeRun(t, dir, bin, args...)
	if res.code != 0 {
		t.Fatalf("%s %s: exit %d\nstdout:\n%s\nstderr:\n%s", filepath.Base(bin), strings.Join(args, " "), res.code, res.stdout, res.stderr)
	}
	return res
}

// lifeSpec writes a spec file (and the folders it needs) into dir.
func lifeSpec(t testing.TB, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// lifeRows returns the rows of a table as `show --format csv` prints
// them, header first, the rest sorted.
func lifeRows(t testing.TB, dir, bin, table string, args ...string) []string {
	t.Helper()
	res := lifeMustRun(t, dir, bin, append([]string{"show", table, "--limit", "0", "--format", "csv"}, args...)...)
	lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
	if len(lines) > 1 {
		body := lines[1:]
		slices.Sort(body)
		lines = append(lines[:1], body...)
	}
	return lines
}
