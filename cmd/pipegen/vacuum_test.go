package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// lifeSpecV1 is a small pipeline for the pipeline-life tests: a JSON
// landing folder, a streaming table and a materialized view over it.
const lifeSpecV1 = `pipeline: life
catalog: main
schema: s
sources:
  raw:
    files: {path: landing, format: json}
    schema: id BIGINT, grp STRING, amount BIGINT
datasets:
  events:
    kind: streaming_table
    query: SELECT id, grp, amount FROM STREAM(raw)
  totals:
    kind: materialized_view
    query: SELECT grp, count(*) AS n, sum(amount) AS total FROM events GROUP BY grp
`

// TestVacuumCommand runs `PROG vacuum`: with the default retention of a
// week nothing written today goes; --retain 0s alone is refused; with
// --retain 0s --allow-short-retention the materialized
// view's replaced files and an orphan data file go, --dry-run only lists
// them, and every table still reads the same afterwards.
func TestVacuumCommand(t *testing.T) {
	dir := t.TempDir()
	bin := buildSpec(t, writeSpec(t, dir, "pipeline.yaml", lifeSpecV1))
	for i, line := range []string{`{"id":1,"grp":"a","amount":10}`, `{"id":2,"grp":"b","amount":5}`, `{"id":3,"grp":"a","amount":1}`} {
		landFile(t, dir, "f"+string(rune('0'+i))+".json", line)
		mustRunProgram(t, dir, bin, "run")
	}
	totals := filepath.Join(dir, "warehouse", "main", "s", "totals")
	orphan := filepath.Join(dir, "warehouse", "main", "s", "events", "part-orphan.snappy.parquet")
	os.WriteFile(orphan, []byte("left by a crashed write"), 0o644)
	before := map[string][]string{"events": showRows(t, dir, bin, "events"), "totals": showRows(t, dir, bin, "totals")}
	if want := []string{"grp,n,total", "a,2,11", "b,1,5"}; !slices.Equal(before["totals"], want) {
		t.Fatalf("totals %v, want %v", before["totals"], want)
	}
	parquets := func(table string) int {
		m, _ := filepath.Glob(filepath.Join(table, "*.parquet"))
		return len(m)
	}
	if got := parquets(totals); got != 3 {
		t.Fatalf("totals holds %d data files after three refreshes, want 3", got)
	}

	res := mustRunProgram(t, dir, bin, "vacuum")
	if !strings.Contains(res.stdout, "table totals: removed 0 data files") || !strings.Contains(res.stdout, "retention 168h0m0s") {
		t.Errorf("vacuum with the default retention:\n%s", res.stdout)
	}
	// A retention below the tables' (168h) is refused, naming each table,
	// its retention and the override, and removes nothing.
	res = runProgram(t, dir, bin, "vacuum", "--retain", "0s")
	if res.code != 1 {
		t.Errorf("--retain 0s without --allow-short-retention: exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	for _, want := range []string{"--retain 0s is shorter than the retention of table events (delta.deletedFileRetentionDuration = 168h0m0s), table totals (delta.deletedFileRetentionDuration = 168h0m0s);",
		"--allow-short-retention", "nothing was removed"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("refusal lacks %q:\n%s", want, res.stderr)
		}
	}
	if _, err := os.Stat(orphan); err != nil || parquets(totals) != 3 {
		t.Errorf("the refused vacuum removed files (orphan: %v, totals: %d files)", err, parquets(totals))
	}
	// The help gives --retain one default, the tables' retention.
	help := mustRunProgram(t, dir, bin, "vacuum", "--help")
	var retain string
	for _, line := range strings.Split(help.stdout, "\n") {
		if strings.Contains(line, "--retain DURATION") {
			retain = line
		}
	}
	if strings.Count(retain, "(default:") != 1 || !strings.HasSuffix(retain, "(default: each table's delta.deletedFileRetentionDuration, 168h)") {
		t.Errorf("vacuum --help, --retain line %q:\n%s", retain, help.stdout)
	}

	res = mustRunProgram(t, dir, bin, "vacuum", "--retain", "0s", "--allow-short-retention", "--dry-run")
	if !strings.Contains(res.stdout, "table totals: would remove 2 data files") || !strings.Contains(res.stdout, "part-orphan.snappy.parquet") {
		t.Errorf("dry run:\n%s", res.stdout)
	}
	if parquets(totals) != 3 {
		t.Error("--dry-run removed files")
	}
	time.Sleep(10 * time.Millisecond)
	res = mustRunProgram(t, dir, bin, "vacuum", "--retain", "0s", "--allow-short-retention")
	if !strings.Contains(res.stdout, "table totals: removed 2 data files") || !strings.Contains(res.stdout, "table events: removed 1 data files") {
		t.Errorf("vacuum --retain 0s:\n%s", res.stdout)
	}
	if parquets(totals) != 1 {
		t.Errorf("totals holds %d data files after vacuum, want 1", parquets(totals))
	}
	if _, err := os.Stat(orphan); err == nil {
		t.Error("the orphan file was kept")
	}
	for table, rows := range before {
		if got := showRows(t, dir, bin, table); !slices.Equal(got, rows) {
			t.Errorf("%s after vacuum: %v, want %v", table, got, rows)
		}
	}
	events := mustRunProgram(t, dir, bin, "events")
	if !strings.Contains(events.stdout, "maintenance_progress") {
		t.Errorf("no maintenance_progress event:\n%s", events.stdout)
	}
	if res := runProgram(t, dir, bin, "vacuum", "--retain", "-1h", "--allow-short-retention"); res.code != 2 {
		t.Errorf("--retain -1h: exit %d, want 2\n%s", res.code, res.stderr)
	}
}
