package gen_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/gen"
	"github.com/pipegen/pipegen/gen/gentest"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/spec"
)

// TestRun compiles, builds and runs the pipelines of testdata/run/<case>/
// and checks the tables they write. Each case folder holds:
//
//	pipeline.yaml        the spec (its sources read files under the case or testdata/data)
//	duckdb/<table>.sql   a DuckDB query, run in the case folder, that must give the table's rows
//	want/<table>.txt     the table's rows, sorted, as parquetio.FormatRow prints them
//	want/error.txt       when present, the update must fail and stderr contain this text
//
// The DuckDB queries spell Spark's semantics out where the dialects differ
// (each says how in a comment), so that DuckDB is an independent oracle.
// Generated programs are cached by content (generated code, runtime source,
// go.sum) in the user cache directory.
func TestRun(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "run", "*", "pipeline.yaml"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases under testdata/run: %v", err)
	}
	for _, file := range cases {
		dir := filepath.Dir(file)
		t.Run(filepath.Base(dir), func(t *testing.T) { runCase(t, dir) })
	}
}

func runCase(t *testing.T, dir string) {
	p, diags := spec.Load(filepath.Join(dir, "pipeline.yaml"))
	if p == nil || diags.HasErrors() {
		var b bytes.Buffer
		diags.Write(&b, spec.TextOutput, "")
		t.Fatalf("spec does not check:\n%s", b.String())
	}
	files, err := gen.Generate(p, gen.Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	prog := gentest.Build(t, files)
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	warehouse := t.TempDir()
	cmd := exec.Command(prog, "run", "--warehouse", warehouse, "--base-dir", abs)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	runErr := cmd.Run()
	if want, err := os.ReadFile(filepath.Join(dir, "want", "error.txt")); err == nil {
		if runErr == nil {
			t.Fatalf("the update succeeded, want it to fail with %q", strings.TrimSpace(string(want)))
		}
		if !strings.Contains(stderr.String(), strings.TrimSpace(string(want))) {
			t.Fatalf("the update failed with\n%s\nwant the message %q", stderr.String(), strings.TrimSpace(string(want)))
		}
		return
	}
	if runErr != nil {
		t.Fatalf("run: %v\n%s", runErr, stderr.String())
	}
	checked := 0
	for _, d := range p.Tables {
		table := filepath.Join(warehouse, d.Table.Catalog.String(), d.Table.Schema.String(), d.Table.Table.String())
		var schemaRows []string
		read := func() []string {
			if schemaRows == nil {
				_, schemaRows = deltatest.PipegenRows(t, table, -1)
			}
			return schemaRows
		}
		if want, err := os.ReadFile(filepath.Join(dir, "want", d.Name+".txt")); err == nil {
			compareRows(t, d.Name+" (want file)", read(), sortedLines(string(want)))
			checked++
		}
		if query, err := os.ReadFile(filepath.Join(dir, "duckdb", d.Name+".sql")); err == nil {
			schema, got := deltatest.PipegenRows(t, table, -1)
			compareRows(t, d.Name+" (DuckDB)", got, deltatest.QueryRows(t, abs, string(query), schema))
			checked++
		}
	}
	if checked == 0 {
		t.Fatalf("no want/*.txt or duckdb/*.sql names a table of the case")
	}
}

// compareRows fails unless got and want hold the same rows (sorted).
func compareRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	t.Errorf("%s: %d rows, want %d\nonly in the table:\n  %s\nonly expected:\n  %s", what, len(got), len(want),
		strings.Join(deltatest.Minus(got, want), "\n  "), strings.Join(deltatest.Minus(want, got), "\n  "))
}

func sortedLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimRight(l, "\r"); l != "" {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}
