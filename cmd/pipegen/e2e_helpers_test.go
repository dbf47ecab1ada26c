package main

// The one harness of the end-to-end tests. Scripts (testdata/script/*.txtar,
// run by TestScript) are the default way to test what a user does; the Go
// tests (crash, lock, CDC, spec changes, triggers, vacuum) use the same
// few helpers: buildSpec, runProgram/mustRunProgram, showRows, writeSpec,
// and the warehouse comparisons. This file holds them, the testscript
// environment (Go caches, the shared build cache, the examples) and the
// custom script commands.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/pipegen/pipegen/runtime/delta/deltatest"
)

// goEnvVars are the Go settings a generated program's build needs: testscript
// sets HOME=/no-home, so the defaults under $HOME would not be found.
var goEnvVars = []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT", "GOTOOLCHAIN"}

var goEnvOnce = sync.OnceValues(func() (map[string]string, error) {
	out, err := exec.Command("go", append([]string{"env"}, goEnvVars...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(goEnvVars) {
		return nil, fmt.Errorf("go env printed %d lines for %d variables", len(lines), len(goEnvVars))
	}
	env := map[string]string{}
	for i, k := range goEnvVars {
		env[k] = lines[i]
	}
	return env, nil
})

// testBuildCache is the PIPEGEN_CACHE of every end-to-end test (unless
// PIPEGEN_CACHE is set): <user cache>/pipegen/test-build, apart from the
// cache of the user's own `pipegen run`. Programs are keyed by their
// generated code, this runtime's source and its module versions, so a
// cached program is exactly what a fresh build would produce, and every
// test (and every later `go test`) reuses it. Each runtime change makes
// new keys, so entries older than a day are removed when the tests start.
var testBuildCache = sync.OnceValue(func() string {
	if dir := os.Getenv("PIPEGEN_CACHE"); dir != "" {
		return dir
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "pipegen", "test-build")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > 24*time.Hour {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
	return dir
})

// scriptSetup passes the Go caches, the shared build cache, the examples
// folder ($EXAMPLES), the engine-written Delta tables ($DELTA_TABLES) and
// Apache parquet-testing's files ($PARQUET_TESTING, see their SOURCE.md)
// to every script.
func scriptSetup(env *testscript.Env) error {
	goenv, err := goEnvOnce()
	if err != nil {
		return err
	}
	for _, k := range goEnvVars {
		if v := goenv[k]; v != "" {
			env.Setenv(k, v)
		}
	}
	env.Setenv("PIPEGEN_CACHE", testBuildCache())
	// Builds never download: the module cache holds what building this
	// test needed, which must be all a generated program needs.
	env.Setenv("GOPROXY", "off")
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		return err
	}
	env.Setenv("EXAMPLES", examples)
	tables, err := filepath.Abs(filepath.Join("..", "..", "runtime", "delta", "testdata", "delta_tables"))
	if err != nil {
		return err
	}
	env.Setenv("DELTA_TABLES", tables)
	parquetTesting, err := filepath.Abs(filepath.Join("..", "..", "runtime", "parquetio", "testdata", "parquet_testing"))
	if err != nil {
		return err
	}
	env.Setenv("PARQUET_TESTING", parquetTesting)
	return nil
}

// scriptCmds are the custom commands of the scripts:
//
//	duckcheck DIR...       every Delta table under each DIR reads the same in DuckDB and pipegen
//	cmpsorted FILE1 FILE2  the two files hold the same lines, in any order
//	tablecount DIR N       DIR holds exactly N Delta tables
//	capture VAR FILE RE    sets $VAR to RE's first group in FILE (stdout, stderr or a file)
//	duckwhere T1 T2 COND   table T2 holds exactly the rows of table T1 DuckDB keeps under COND (a DuckDB condition)
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"duckcheck":  cmdDuckcheck,
	"cmpsorted":  cmdCmpsorted,
	"tablecount": cmdTablecount,
	"capture":    cmdCapture,
	"duckwhere":  cmdDuckwhere,
}

func cmdDuckwhere(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: duckwhere TABLE FILTERED CONDITION")
	}
	tb := &scriptTB{ts: ts}
	schema, ours := deltatest.PipegenRows(tb, ts.MkAbs(args[1]), -1)
	theirs := deltatest.DuckDBRowsWhere(tb, ts.MkAbs(args[0]), args[2], schema)
	if !slices.Equal(ours, theirs) {
		ts.Fatalf("duckwhere: %s holds %d rows, DuckDB keeps %d of %s under %s\nonly in %s:\n  %s\nonly in DuckDB's:\n  %s",
			args[1], len(ours), len(theirs), args[0], args[2], args[1],
			strings.Join(deltatest.Minus(ours, theirs), "\n  "), strings.Join(deltatest.Minus(theirs, ours), "\n  "))
	}
	ts.Logf("duckwhere: %d rows, as DuckDB", len(ours))
}

func cmdCapture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: capture VAR FILE REGEXP")
	}
	re, err := regexp.Compile(args[2])
	ts.Check(err)
	m := re.FindStringSubmatch(ts.ReadFile(args[1]))
	if len(m) < 2 {
		ts.Fatalf("capture: no match for %q in %s", args[2], args[1])
	}
	ts.Setenv(args[0], m[1])
}

func cmdDuckcheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: duckcheck DIR...")
	}
	var tables []string
	for _, dir := range args {
		found := deltatest.FindTables(ts.MkAbs(dir))
		if len(found) == 0 {
			ts.Fatalf("duckcheck: no Delta table under %s", dir)
		}
		tables = append(tables, found...)
	}
	tb := &scriptTB{ts: ts}
	deltatest.CheckAll(tb, tables)
	if tb.failed {
		ts.Fatalf("duckcheck: DuckDB and pipegen disagree")
	}
	ts.Logf("duckcheck: DuckDB agrees on %d tables", len(tables))
}

func cmdCmpsorted(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmpsorted FILE1 FILE2")
	}
	a, b := sortedLines(ts.ReadFile(args[0])), sortedLines(ts.ReadFile(args[1]))
	same := slices.Equal(a, b)
	if same == !neg {
		return
	}
	if neg {
		ts.Fatalf("%s and %s hold the same lines", args[0], args[1])
	}
	ts.Fatalf("%s and %s differ as sorted lines\nonly in %s:\n  %s\nonly in %s:\n  %s", args[0], args[1],
		args[0], strings.Join(deltatest.Minus(a, b), "\n  "), args[1], strings.Join(deltatest.Minus(b, a), "\n  "))
}

func cmdTablecount(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tablecount DIR N")
	}
	var rels []string
	for _, t := range deltatest.FindTables(ts.MkAbs(args[0])) {
		rel, _ := filepath.Rel(ts.MkAbs(args[0]), t)
		rels = append(rels, rel)
	}
	if fmt.Sprint(len(rels)) != args[1] {
		ts.Fatalf("%s holds %d tables, want %s: %s", args[0], len(rels), args[1], strings.Join(rels, ", "))
	}
}

// scriptTB lets deltatest's helpers, written for testing.TB, report into a
// script. Only the methods deltatest calls are implemented.
type scriptTB struct {
	testing.TB
	ts     *testscript.TestScript
	failed bool
}

func (s *scriptTB) Helper()                        {}
func (s *scriptTB) Fatal(args ...any)              { s.ts.Fatalf("%s", fmt.Sprint(args...)) }
func (s *scriptTB) Fatalf(format string, a ...any) { s.ts.Fatalf(format, a...) }
func (s *scriptTB) Errorf(format string, a ...any) {
	s.ts.Logf(format, a...)
	s.failed = true
}

func sortedLines(s string) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		lines = nil
	}
	slices.Sort(lines)
	return lines
}

// warehouseRows reads every table under warehouse with package delta:
// table path relative to warehouse → its sorted rows as text. It is how the
// Go end-to-end tests compare whole warehouses.
func warehouseRows(t testing.TB, warehouse string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, table := range deltatest.FindTables(warehouse) {
		rel, err := filepath.Rel(warehouse, table)
		if err != nil {
			t.Fatal(err)
		}
		_, rows := deltatest.PipegenRows(t, table, -1)
		out[filepath.ToSlash(rel)] = rows
	}
	return out
}

// diffWarehouses describes how got differs from want, table by table;
// empty when they hold the same tables with the same rows.
func diffWarehouses(want, got map[string][]string) string {
	var b bytes.Buffer
	for _, name := range sortedKeys(want, got) {
		w, okw := want[name]
		g, okg := got[name]
		switch {
		case !okg:
			fmt.Fprintf(&b, "table %s is missing\n", name)
		case !okw:
			fmt.Fprintf(&b, "table %s should not exist (%d rows)\n", name, len(g))
		case !slices.Equal(w, g):
			fmt.Fprintf(&b, "table %s: %d rows, want %d\n  extra:   %s\n  missing: %s\n", name, len(g), len(w),
				strings.Join(head(deltatest.Minus(g, w), 5), "\n           "), strings.Join(head(deltatest.Minus(w, g), 5), "\n           "))
		}
	}
	return b.String()
}

func head(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("... (%d more)", len(s)-n))
	}
	return s
}

func sortedKeys(ms ...map[string][]string) []string {
	var out []string
	for _, m := range ms {
		for k := range m {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// buildSpec builds the spec at path into a program, offline, through
// the build cache every end-to-end test shares (testBuildCache: a program
// built before is reused), and returns the program's path.
func buildSpec(t testing.TB, path string) string {
	t.Helper()
	var stderr bytes.Buffer
	p, files, ok := generate(&stderr, path, locations{})
	if !ok {
		t.Fatalf("generate %s:\n%s", path, stderr.String())
	}
	bin, code := buildIn(&stderr, testBuildCache(), path, p, files, true)
	if code != exitOK {
		t.Fatalf("build %s: exit %d\n%s", path, code, stderr.String())
	}
	return bin
}

// progResult is what one run of a generated program printed and returned.
type progResult struct {
	stdout, stderr string
	code           int
}

// runProgram runs bin with args in dir ("" for the test's working
// directory) and returns its output and exit
// code; it fails the test when the program cannot be started.
func runProgram(t testing.TB, dir, bin string, args ...string) progResult {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PIPEGEN_FAULT=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	res := progResult{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run %s: %v", bin, err)
	}
	return res
}

// mustRunProgram runs bin and fails the test unless it exits 0.
func mustRunProgram(t testing.TB, dir, bin string, args ...string) progResult {
	t.Helper()
	res := runProgram(t, dir, bin, args...)
	if res.code != 0 {
		t.Fatalf("%s %s: exit %d\nstdout:\n%s\nstderr:\n%s", filepath.Base(bin), strings.Join(args, " "), res.code, res.stdout, res.stderr)
	}
	return res
}

// writeSpec writes a spec file (and the folders it needs) into dir.
func writeSpec(t testing.TB, dir, name, text string) string {
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

// showRows returns the rows of a table as `show --format csv` prints
// them, header first, the rest sorted.
func showRows(t testing.TB, dir, bin, table string, args ...string) []string {
	t.Helper()
	res := mustRunProgram(t, dir, bin, append([]string{"show", table, "--limit", "0", "--format", "csv"}, args...)...)
	lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
	if len(lines) > 1 {
		body := lines[1:]
		slices.Sort(body)
		lines = append(lines[:1], body...)
	}
	return lines
}

// landFile writes lines as the file dir/landing/name (folders made as
// needed), as a producer drops a file into a landing folder.
func landFile(t testing.TB, dir, name string, lines ...string) {
	t.Helper()
	p := filepath.Join(dir, "landing", name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
