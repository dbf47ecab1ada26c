package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/spec"
)

const diffChain = `pipeline: chain
sources:
  raw:
    files: {path: landing, format: json}
    schema: id BIGINT, v INT
datasets:
  a:
    kind: streaming_table
    query: SELECT id, v FROM STREAM(raw)
  b:
    kind: streaming_table
    query: SELECT id, v FROM STREAM(a)
  c:
    kind: materialized_view
    query: SELECT count(*) AS n FROM b
  d:
    kind: materialized_view
    query: SELECT count(*) AS n FROM raw
`

func loadSpec(t *testing.T, text string) *spec.Pipeline {
	t.Helper()
	p, diags := spec.LoadBytes("pipeline.yaml", []byte(text))
	if diags.HasErrors() {
		t.Fatalf("spec: %v", diags)
	}
	return p
}

func summary(changes []TableChange) string {
	var b strings.Builder
	for _, c := range changes {
		fmt.Fprintf(&b, "%s %s %v: %s\n", c.Table, c.Change, c.FullRefresh, strings.Join(c.Reasons, "; "))
	}
	return b.String()
}

// TestCompareSpecs: a type change of a streaming table forces its full
// refresh and, through a streaming read, its downstream streaming table's;
// the view that reads the latter is affected; the unrelated view is not.
func TestCompareSpecs(t *testing.T) {
	old := loadSpec(t, diffChain)
	if got := CompareSpecs(old, old); len(got) != 0 {
		t.Errorf("a spec compared with itself: %s", summary(got))
	}
	changed := loadSpec(t, strings.Replace(diffChain, "schema: id BIGINT, v INT", "schema: id BIGINT, v STRING", 1))
	got := summary(CompareSpecs(old, changed))
	want := "a changed true: table a: column v changed type from INT to STRING; the existing rows cannot be kept: a full refresh is required: run with --full-refresh a\n" +
		"b changed true: table b: column v changed type from INT to STRING; the existing rows cannot be kept: a full refresh is required: run with --full-refresh b\n" +
		"c affected false: reads b, which changes\n"
	if got != want {
		t.Errorf("type change:\n%s\nwant\n%s", got, want)
	}
	// A new column only evolves a; b does not read it.
	added := loadSpec(t, strings.NewReplacer("schema: id BIGINT, v INT", "schema: id BIGINT, v INT, w INT",
		"SELECT id, v FROM STREAM(raw)", "SELECT id, v, w FROM STREAM(raw)").Replace(diffChain))
	got = summary(CompareSpecs(old, added))
	want = "a changed false: adds column(s) w: the table's schema evolves, existing rows read NULL; flow a's query changed: existing rows stay, new input is processed with the new query (a full refresh recomputes them)\n" +
		"b affected false: reads a, which changes\n" +
		"c affected false: reads b, which changes\n"
	if got != want {
		t.Errorf("added column:\n%s\nwant\n%s", got, want)
	}
}

func TestDiffExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"pipegen", "diff"}, exitUsage},
		{[]string{"pipegen", "diff", "a.yaml"}, exitUsage},
		{[]string{"pipegen", "diff", "a.yaml", "b.yaml", "--format", "xml"}, exitUsage},
		{[]string{"pipegen", "diff", "nosuch-a.yaml", "nosuch-b.yaml"}, exitDiagnostics},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, nil, &out, &errb); code != tc.code {
			t.Errorf("%v: exit %d, want %d\n%s", tc.args, code, tc.code, errb.String())
		}
	}
}
