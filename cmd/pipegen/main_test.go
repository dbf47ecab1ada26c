package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/urfave/cli/v2"

	pcli "github.com/pipegen/pipegen/runtime/cli"
	"github.com/pipegen/pipegen/spec"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"pipegen": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScript runs the CLI behaviours in testdata/script, one .txtar per
// behaviour (<command>_<behaviour>.txtar). Scripts that build and run
// programs share the build cache (see scriptSetup) and check the tables
// they write with DuckDB (duckcheck; see scriptCmds).
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
		Setup:         scriptSetup,
		Cmds:          scriptCmds,
	})
}

func TestPermuteFlags(t *testing.T) {
	app := &cli.App{Commands: []*cli.Command{graphCommand(), validateCommand()}}
	for _, tc := range []struct{ in, want string }{
		{"pipegen graph spec.yaml --format dot", "pipegen graph --format dot spec.yaml"},
		{"pipegen graph --format=json spec.yaml", "pipegen graph --format=json spec.yaml"},
		{"pipegen validate a.yaml b.yaml --format github", "pipegen validate --format github a.yaml b.yaml"},
		{"pipegen validate a.yaml -- --format", "pipegen validate a.yaml -- --format"},
		{"pipegen nosuch x --y", "pipegen nosuch x --y"},
	} {
		got := strings.Join(pcli.PermuteFlags(app, strings.Fields(tc.in)), " ")
		if got != tc.want {
			t.Errorf("permuteFlags(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestValidateReportsEveryFile(t *testing.T) {
	dir := t.TempDir()
	a, b := dir+"/a.yaml", dir+"/b.yaml"
	os.WriteFile(a, []byte("pipeline: a\nbogus: 1\n"), 0o644)
	os.WriteFile(b, []byte("pipelin: b\n"), 0o644)
	var stdout, stderr bytes.Buffer
	if code := Validate(&stdout, &stderr, []string{b, a}, spec.TextOutput, locations{}); code != exitDiagnostics {
		t.Errorf("exit code %d, want 1", code)
	}
	got := stderr.String()
	ia, ib := strings.Index(got, "a.yaml:2:1"), strings.Index(got, "b.yaml:1:1")
	if ia < 0 || ib < 0 || ia > ib {
		t.Errorf("want both files' diagnostics sorted by file:\n%s", got)
	}
}

func TestRunExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"pipegen", "nosuch"}, exitUsage},
		{[]string{"pipegen", "validate"}, exitUsage},
		{[]string{"pipegen", "validate", "--format", "xml", "x.yaml"}, exitUsage},
		{[]string{"pipegen", "validate", "--nosuch", "x.yaml"}, exitUsage},
		{[]string{"pipegen", "validate", "does-not-exist.yaml"}, exitDiagnostics},
		{[]string{"pipegen", "schema"}, exitOK},
		{[]string{"pipegen", "schema", "extra"}, exitUsage},
		{[]string{"pipegen", "graph", "a.yaml", "--format", "png"}, exitUsage},
		{[]string{"pipegen", "explain"}, exitUsage},
		{[]string{"pipegen", "--help"}, exitOK},
		{[]string{"pipegen", "init"}, exitUsage},
		{[]string{"pipegen", "init", "--template", "nosuch", "x"}, exitUsage},
		{[]string{"pipegen", "infer"}, exitUsage},
		{[]string{"pipegen", "infer", "--format", "xml", "x"}, exitUsage},
		{[]string{"pipegen", "infer", "--source", "raw", "x"}, exitUsage},
		{[]string{"pipegen", "infer", "does-not-exist"}, exitDiagnostics},
	} {
		var stdout, stderr bytes.Buffer
		if got := run(tc.args, nil, &stdout, &stderr); got != tc.code {
			t.Errorf("%q: exit %d, want %d (stderr %q)", tc.args, got, tc.code, stderr.String())
		}
	}
}
