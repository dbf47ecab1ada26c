package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// specChange builds v1 of a spec in a fresh folder, lands data and runs
// it; it returns the folder and a function that writes and builds v2 (in
// the same place, as a user edits the spec between builds).
func specChange(t *testing.T, v1 string, lines ...string) (dir string, v1bin string, build func(v2 string) string) {
	t.Helper()
	dir = t.TempDir()
	v1bin = buildSpec(t, writeSpec(t, dir, "pipeline.yaml", v1))
	landFile(t, dir, "a.json", lines...)
	mustRunProgram(t, dir, v1bin, "run")
	return dir, v1bin, func(v2 string) string {
		writeSpec(t, dir, "v1.yaml", v1)
		return buildSpec(t, writeSpec(t, dir, "pipeline.yaml", v2))
	}
}

// diffOf runs `pipegen diff` on the folder's v1.yaml and pipeline.yaml.
func diffOf(t *testing.T, dir string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Diff(&out, &errb, filepath.Join(dir, "v1.yaml"), filepath.Join(dir, "pipeline.yaml"), "text", locations{})
	if errb.Len() > 0 {
		t.Errorf("diff stderr:\n%s", errb.String())
	}
	return out.String(), code
}

var lifeRows1 = []string{`{"id":1,"grp":"a","amount":10}`, `{"id":2,"grp":"b","amount":5}`}

// TestSpecChangeAddsNullableColumn: a new nullable column in the source
// and the query is added to the table by a new Delta metaData, old rows
// read NULL, and no full refresh is needed.
func TestSpecChangeAddsNullableColumn(t *testing.T) {
	dir, _, build := specChange(t, lifeSpecV1, lifeRows1...)
	v2 := strings.NewReplacer("schema: id BIGINT, grp STRING, amount BIGINT", "schema: id BIGINT, grp STRING, amount BIGINT, note STRING",
		"SELECT id, grp, amount FROM STREAM(raw)", "SELECT id, grp, amount, note FROM STREAM(raw)").Replace(lifeSpecV1)
	bin := build(v2)
	out, code := diffOf(t, dir)
	if code != 0 || !strings.Contains(out, "events (streaming table): changed") || !strings.Contains(out, "adds column(s) note") {
		t.Errorf("diff (exit %d):\n%s", code, out)
	}
	landFile(t, dir, "b.json", `{"id":3,"grp":"a","amount":1,"note":"late"}`)
	mustRunProgram(t, dir, bin, "run")
	want := []string{"id,grp,amount,note", "1,a,10,", "2,b,5,", "3,a,1,late"}
	if got := showRows(t, dir, bin, "events"); !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	log, _ := os.ReadDir(filepath.Join(dir, "warehouse", "main", "s", "events", "_delta_log"))
	found := false
	for _, e := range log {
		data, _ := os.ReadFile(filepath.Join(dir, "warehouse", "main", "s", "events", "_delta_log", e.Name()))
		if strings.Contains(string(data), `"operation":"ADD COLUMNS"`) && strings.Contains(string(data), `\"name\":\"note\"`) {
			found = true
		}
	}
	if !found {
		t.Error("no ADD COLUMNS commit with the new metaData in events' log")
	}
}

// TestSpecChangeIncompatible: a column type change and a change of a
// flow's sources fail the update, every time, naming the table and the
// --full-refresh it needs; after that full refresh the update succeeds
// (SDP cases 29 and 32).
func TestSpecChangeIncompatible(t *testing.T) {
	for _, tc := range []struct {
		name, v2, msg string
	}{
		{"type", strings.NewReplacer("amount BIGINT", "amount STRING",
			"sum(amount) AS total", "max(amount) AS total").Replace(lifeSpecV1),
			"column amount changed type from BIGINT to STRING"},
		{"sources", strings.NewReplacer("sources:\n", "sources:\n  raw2:\n    files: {path: landing2, format: json}\n    schema: id BIGINT, grp STRING, amount BIGINT\n",
			"FROM STREAM(raw)", "FROM STREAM(raw2)").Replace(lifeSpecV1),
			"the sources of flow events changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, _, build := specChange(t, lifeSpecV1, lifeRows1...)
			bin := build(tc.v2)
			os.MkdirAll(filepath.Join(dir, "landing2"), 0o755)
			out, code := diffOf(t, dir)
			if code != 1 || !strings.Contains(out, "events (streaming table): FULL REFRESH REQUIRED (run with --full-refresh events)") {
				t.Errorf("diff (exit %d):\n%s", code, out)
			}
			for range 2 {
				res := runProgram(t, dir, bin, "run")
				if res.code != 1 || !strings.Contains(res.stderr, tc.msg) || !strings.Contains(res.stderr, "--full-refresh events") {
					t.Fatalf("run after an incompatible change: exit %d\n%s", res.code, res.stderr)
				}
			}
			mustRunProgram(t, dir, bin, "run", "--full-refresh", "events")
			if got := showRows(t, dir, bin, "events"); len(got) != 3 && tc.name == "type" {
				t.Errorf("events after the full refresh: %v", got)
			}
			mustRunProgram(t, dir, bin, "run")
		})
	}
}

// TestSpecChangeQueries: a materialized view's new definition is
// recomputed (COMPLETE_RECOMPUTE, "the definition changed") and holds only
// the new result and schema; a streaming table's new query keeps the
// existing rows and processes new input with the new query, and a full
// refresh leaves only the new query's rows (SDP case 31).
func TestSpecChangeQueries(t *testing.T) {
	dir, _, build := specChange(t, lifeSpecV1, lifeRows1...)
	v2 := strings.NewReplacer("SELECT grp, count(*) AS n, sum(amount) AS total FROM events GROUP BY grp",
		"SELECT grp, max(amount) AS top FROM events GROUP BY grp",
		"SELECT id, grp, amount FROM STREAM(raw)", "SELECT id, upper(grp) AS grp, amount * 100 AS amount FROM STREAM(raw)").Replace(lifeSpecV1)
	bin := build(v2)
	out, code := diffOf(t, dir)
	if code != 0 || !strings.Contains(out, "flow totals's definition changed: recomputed (COMPLETE_RECOMPUTE)") ||
		!strings.Contains(out, "flow events's query changed: existing rows stay") {
		t.Errorf("diff (exit %d):\n%s", code, out)
	}
	landFile(t, dir, "b.json", `{"id":3,"grp":"a","amount":1}`)
	mustRunProgram(t, dir, bin, "run")
	if got, want := showRows(t, dir, bin, "events"), []string{"id,grp,amount", "1,a,10", "2,b,5", "3,A,100"}; !slices.Equal(got, want) {
		t.Errorf("events after the query change %v, want %v", got, want)
	}
	if got, want := showRows(t, dir, bin, "totals"), []string{"grp,top", "A,100", "a,10", "b,5"}; !slices.Equal(got, want) {
		t.Errorf("totals after the definition change %v, want %v", got, want)
	}
	events := mustRunProgram(t, dir, bin, "events").stdout
	if !strings.Contains(events, "Flow totals is refreshed with COMPLETE_RECOMPUTE: the definition changed.") {
		t.Errorf("no COMPLETE_RECOMPUTE for the definition change:\n%s", events)
	}
	mustRunProgram(t, dir, bin, "run", "--full-refresh", "events")
	if got, want := showRows(t, dir, bin, "events"), []string{"id,grp,amount", "1,A,1000", "2,B,500", "3,A,100"}; !slices.Equal(got, want) {
		t.Errorf("events after the full refresh %v, want %v", got, want)
	}
}

// TestSpecChangeRenamedDataset: a renamed view and a new streaming table;
// the old view's table is left as it is and the event log says so, the
// new tables are created and backfilled from all available input.
func TestSpecChangeRenamedDataset(t *testing.T) {
	dir, v1bin, build := specChange(t, lifeSpecV1, lifeRows1...)
	v2 := strings.Replace(lifeSpecV1, "  totals:\n", "  sums:\n", 1) +
		"  events_copy:\n    kind: streaming_table\n    query: SELECT id FROM STREAM(raw)\n"
	bin := build(v2)
	out, code := diffOf(t, dir)
	for _, want := range []string{"totals (materialized view): removed", "sums (materialized view): added", "events_copy (streaming table): added"} {
		if !strings.Contains(out, want) || code != 0 {
			t.Errorf("diff (exit %d) lacks %q:\n%s", code, want, out)
		}
	}
	mustRunProgram(t, dir, bin, "run")
	if got, want := showRows(t, dir, bin, "sums"), []string{"grp,n,total", "a,1,10", "b,1,5"}; !slices.Equal(got, want) {
		t.Errorf("sums %v, want %v", got, want)
	}
	if got, want := showRows(t, dir, bin, "events_copy"), []string{"id", "1", "2"}; !slices.Equal(got, want) {
		t.Errorf("events_copy %v, want %v (backfilled)", got, want)
	}
	// The old table is still there, untouched: v1's program reads it.
	if got, want := showRows(t, dir, v1bin, "totals"), []string{"grp,n,total", "a,1,10", "b,1,5"}; !slices.Equal(got, want) {
		t.Errorf("old totals %v, want %v", got, want)
	}
	events := mustRunProgram(t, dir, bin, "events").stdout
	for _, want := range []string{"Dataset totals is no longer defined in the pipeline (removed or renamed): its table at",
		"Dataset sums is new in the pipeline", "Dataset events_copy is new in the pipeline"} {
		if strings.Count(events, want) != 1 {
			t.Errorf("event log has %d %q, want 1:\n%s", strings.Count(events, want), want, events)
		}
	}
	// Said once, not at every update.
	mustRunProgram(t, dir, bin, "run")
	if events := mustRunProgram(t, dir, bin, "events").stdout; strings.Count(events, "Dataset totals is no longer defined") != 1 {
		t.Errorf("the removal is reported again:\n%s", events)
	}
}
