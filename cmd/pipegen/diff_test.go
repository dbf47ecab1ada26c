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
	want := "a changed true: table a: column v changed type from INT to STRING, which is not a change Delta's type widening allows; the existing rows cannot be kept: a full refresh is required: run with --full-refresh a\n" +
		"b changed true: table b: column v changed type from INT to STRING, which is not a change Delta's type widening allows; the existing rows cannot be kept: a full refresh is required: run with --full-refresh b\n" +
		"c affected false: reads b, which changes\n"
	if got != want {
		t.Errorf("type change:\n%s\nwant\n%s", got, want)
	}
	// A widening (INT to BIGINT) is Delta type widening, no full refresh,
	// for a and for b, which streams from a.
	widened := loadSpec(t, strings.Replace(diffChain, "schema: id BIGINT, v INT", "schema: id BIGINT, v BIGINT", 1))
	got = summary(CompareSpecs(old, widened))
	want = "a changed false: widens column v from INT to BIGINT: Delta type widening (a metaData change, no rewrite; existing rows read converted)\n" +
		"b changed false: widens column v from INT to BIGINT: Delta type widening (a metaData change, no rewrite; existing rows read converted)\n" +
		"c affected false: reads b, which changes\n"
	if got != want {
		t.Errorf("widened column:\n%s\nwant\n%s", got, want)
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

// diffCDC is the new-user trial's pipeline: an SCD type 2 AUTO CDC target
// and a table that streams its change data feed.
const diffCDC = `pipeline: min2
sources:
  raw:
    files: {path: cdc, format: json}
    schema: id INT, name STRING, city STRING, seq BIGINT, seq2 BIGINT
datasets:
  hist: {kind: streaming_table}
  hist_log:
    kind: streaming_table
    read_change_feed: true
    query: SELECT id, name, city, __START_AT, __END_AT, _change_type, _commit_version FROM STREAM(hist)
flows:
  apply_hist:
    target: hist
    auto_cdc:
      source: STREAM(raw)
      keys: [id]
      sequence_by: seq
      columns: [id, name, city]
      scd_type: 2
`

// TestCompareSpecsAutoCDC: a change of how an AUTO CDC target's stored
// history is read, and a renamed AUTO CDC flow, need a full refresh of the
// target and of the table that streams from it; ignore_null_updates of an
// SCD type 1 flow and a new delete condition do not.
func TestCompareSpecsAutoCDC(t *testing.T) {
	old := loadSpec(t, diffCDC)
	downstream := "hist_log changed true: flow hist_log streams from hist, which is fully refreshed\n"
	for _, tc := range []struct {
		name, from, to, want string
	}{
		{"track_history_except_columns", "scd_type: 2\n", "scd_type: 2\n      track_history_except_columns: [name]\n",
			"hist changed true: AUTO CDC flow apply_hist: the history tracking changes (track_history_columns / track_history_except_columns: a change of name no longer opens a new version): " +
				"the versions already written were cut by the old rule, and re-deriving them would rewrite history without change feed rows\n" + downstream},
		{"ignore_null_updates scd2", "scd_type: 2\n", "scd_type: 2\n      ignore_null_updates: true\n",
			"hist changed true: AUTO CDC flow apply_hist: ignore_null_updates of an SCD type 2 flow changes (was false, now true): the versions already written filled NULLs by the old rule\n" + downstream},
		{"sequence_by", "sequence_by: seq\n", "sequence_by: seq2\n",
			"hist changed true: AUTO CDC flow apply_hist: sequence_by changes (was seq, now seq2): the stored sequences, and the __START_AT and __END_AT of SCD type 2 versions, are values of the old column(s)\n" + downstream},
		{"renamed flow", "  apply_hist:\n", "  apply_b:\n",
			"hist changed true: new flow apply_b: it looks like a rename of flow apply_hist; a new or renamed AUTO CDC flow into an existing table has no state for the rows already applied, and the update fails: run with --full-refresh hist, or keep the old flow name; flow apply_hist is removed: the rows it wrote stay\n" + downstream},
		{"partition_by", "hist: {kind: streaming_table}", "hist: {kind: streaming_table, partition_by: [city]}",
			"hist changed true: its partition columns change from none to (city): the existing files are laid out by the old ones\n" + downstream},
		{"deletes", "scd_type: 2\n", "scd_type: 2\n      apply_as_deletes: city = 'gone'\n",
			"hist changed false: flow apply_hist's auto_cdc settings changed: existing rows stay, new changes are applied with the new settings (a full refresh applies every change again)\n" +
				"hist_log affected false: reads hist, which changes\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(diffCDC, tc.from) {
				t.Fatalf("%q is not in the spec", tc.from)
			}
			got := summary(CompareSpecs(old, loadSpec(t, strings.Replace(diffCDC, tc.from, tc.to, 1))))
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	scd1 := strings.NewReplacer("      scd_type: 2\n", "", " __START_AT, __END_AT,", "").Replace(diffCDC)
	got := summary(CompareSpecs(loadSpec(t, scd1), loadSpec(t, strings.Replace(scd1, "columns: [id, name, city]\n", "columns: [id, name, city]\n      ignore_null_updates: true\n", 1))))
	if !strings.HasPrefix(got, "hist changed false: ") || strings.Contains(got, " true:") {
		t.Errorf("ignore_null_updates of an SCD type 1 flow needs no full refresh:\n%s", got)
	}
}

// TestCompareSpecsRenamedAppendFlow: an append flow removed and one with
// the same target and sources added is a rename that would duplicate the
// rows; a new flow from another source is not.
func TestCompareSpecsRenamedAppendFlow(t *testing.T) {
	const flows = `pipeline: p
sources:
  eu: {files: {path: eu, format: json}, schema: id BIGINT}
  us: {files: {path: us, format: json}, schema: id BIGINT}
datasets:
  orders: {kind: streaming_table}
flows:
  orders_eu:
    target: orders
    query: SELECT id FROM STREAM(eu)
`
	old := loadSpec(t, flows)
	got := summary(CompareSpecs(old, loadSpec(t, strings.Replace(flows, "orders_eu:", "from_eu:", 1))))
	want := "orders changed true: new flow from_eu looks like a rename of flow orders_eu (same target, same sources eu): it has no checkpoint and reads its sources from the start, " +
		"so the rows orders_eu wrote would be duplicated; run with --full-refresh orders, or keep the old flow name; flow orders_eu is removed: the rows it wrote stay\n"
	if got != want {
		t.Errorf("rename:\ngot\n%s\nwant\n%s", got, want)
	}
	got = summary(CompareSpecs(old, loadSpec(t, strings.NewReplacer("orders_eu:", "orders_us:", "STREAM(eu)", "STREAM(us)").Replace(flows))))
	want = "orders changed false: new flow orders_us: it reads its sources from the start into the table; flow orders_eu is removed: the rows it wrote stay\n"
	if got != want {
		t.Errorf("other source:\ngot\n%s\nwant\n%s", got, want)
	}
}

const diffCDCFeed = `pipeline: cdc
sources:
  feed:
    files: {path: landing, format: json}
    schema: id BIGINT, name STRING, op STRING, seq BIGINT
datasets:
  changes:
    kind: streaming_table
    query: SELECT id, name, op, seq FROM STREAM(feed)
  current:
    kind: streaming_table
flows:
  apply:
    target: current
    auto_cdc:
      source: STREAM(changes)
      keys: [id]
      sequence_by: seq
      apply_as_deletes: op = 'D'
      except_columns: [op, seq]
`

// TestCompareSpecsAutoCDCUpstream: a new column in an AUTO CDC flow's
// change feed (its upstream table's query) is a schema change of the
// target, not a change of the flow's query; a change of the auto_cdc
// block itself is reported as one.
func TestCompareSpecsAutoCDCUpstream(t *testing.T) {
	old := loadSpec(t, diffCDCFeed)
	upstream := loadSpec(t, strings.Replace(diffCDCFeed, "SELECT id, name, op, seq", "SELECT id, op, name, upper(name) AS label, seq", 1))
	got := summary(CompareSpecs(old, upstream))
	want := "changes changed false: adds column(s) label: the table's schema evolves, existing rows read NULL; flow changes's query changed: existing rows stay, new input is processed with the new query (a full refresh recomputes them)\n" +
		"current changed false: adds column(s) label: the table's schema evolves, existing rows read NULL\n"
	if got != want {
		t.Errorf("upstream change:\n got %s\nwant %s", got, want)
	}
	rules := loadSpec(t, strings.Replace(diffCDCFeed, "apply_as_deletes: op = 'D'", "apply_as_deletes: op = 'DELETE'", 1))
	got = summary(CompareSpecs(old, rules))
	want = "current changed false: flow apply's auto_cdc settings changed: existing rows stay, new changes are applied with the new settings (a full refresh applies every change again)\n"
	if got != want {
		t.Errorf("auto_cdc change:\n got %s\nwant %s", got, want)
	}
}
