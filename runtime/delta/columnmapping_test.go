package delta_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/parquetio"
)

// rewriteLog applies fn to every JSON commit of the table at table.
func rewriteLog(t *testing.T, table string, fn func(string) string) {
	t.Helper()
	commits, _ := filepath.Glob(filepath.Join(delta.LogDir(table), "*.json"))
	for _, c := range commits {
		data, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(c, []byte(fn(string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func formatted(t *testing.T, table string) []string {
	t.Helper()
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := snap.ReadAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, parquetio.FormatRow(r, snap.Schema))
	}
	slices.Sort(out)
	return out
}

// TestColumnMappingIDMode: in id mode columns are found by Parquet field
// id, not by name: with every physical name in the log changed, the rows
// read the same.
func TestColumnMappingIDMode(t *testing.T) {
	src := filepath.Join(tables, "kernel-golden", "table-with-columnmapping-mode-id", "delta")
	want := formatted(t, src)
	table := copyTable(t, src)
	phys := regexp.MustCompile(`(delta\.columnMapping\.physicalName\\":\\")col-`)
	rewriteLog(t, table, func(s string) string { return phys.ReplaceAllString(s, "${1}renamed-") })
	if got := formatted(t, table); !slices.Equal(got, want) {
		t.Errorf("rows by field id differ:\n got %q\nwant %q", got[:min(2, len(got))], want[:min(2, len(want))])
	}
	// DuckDB's replay finds top-level columns by field id too (nested ones
	// it finds by physical name): rename the top-level physical names only.
	top := copyTable(t, src)
	rewriteLog(t, top, func(s string) string {
		var out []string
		for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			var a map[string]map[string]any
			if json.Unmarshal([]byte(line), &a) == nil && a["metaData"] != nil {
				var schema map[string]any
				json.Unmarshal([]byte(a["metaData"]["schemaString"].(string)), &schema)
				for _, f := range schema["fields"].([]any) {
					md := f.(map[string]any)["metadata"].(map[string]any)
					md["delta.columnMapping.physicalName"] = "top-" + md["delta.columnMapping.physicalName"].(string)
				}
				b, _ := json.Marshal(schema)
				a["metaData"]["schemaString"] = string(b)
				nb, _ := json.Marshal(a)
				line = string(nb)
			}
			out = append(out, line)
		}
		return strings.Join(out, "\n") + "\n"
	})
	if got := formatted(t, top); !slices.Equal(got, want) {
		t.Errorf("rows by top-level field id differ")
	}
	deltatest.Check(t, top, -1)
	// In name mode the same change loses every column (read as NULL).
	rewriteLog(t, table, func(s string) string {
		return strings.ReplaceAll(s, `"delta.columnMapping.mode":"id"`, `"delta.columnMapping.mode":"name"`)
	})
	for _, r := range formatted(t, table) {
		if strings.Trim(strings.ReplaceAll(r, "NULL", ""), " |") != "" {
			t.Fatalf("name mode with unknown physical names read %q, want NULLs", r)
		}
	}
}

// TestColumnMappingRenameAndDrop: a column renamed in the log (same
// physical name) reads its old files' values under the new name; a column
// dropped from the schema is not read.
func TestColumnMappingRenameAndDrop(t *testing.T) {
	src := filepath.Join(tables, "kernel-golden", "table-with-columnmapping-mode-name", "delta")
	table := copyTable(t, src)
	before, err := delta.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	first, second := before.Schema[0].Name, before.Schema[1].Name
	rewriteLog(t, table, func(s string) string {
		s = strings.Replace(s, `{\"name\":\"`+first+`\"`, `{\"name\":\"renamed\"`, 1)
		return s
	})
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Schema[0].Name != "renamed" {
		t.Fatalf("schema %s, want the first column renamed", snap.Schema)
	}
	oldRows, _ := before.ReadAll(nil)
	newRows, err := snap.ReadAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(oldRows) == 0 || len(oldRows) != len(newRows) {
		t.Fatalf("%d rows before, %d after the rename", len(oldRows), len(newRows))
	}
	nonNull := 0
	for i := range oldRows {
		if parquetio.FormatRow(oldRows[i], before.Schema) != parquetio.FormatRow(newRows[i], snap.Schema) {
			t.Fatalf("row %d differs after the rename", i)
		}
		if newRows[i][0] != nil {
			nonNull++
		}
	}
	if nonNull == 0 {
		t.Fatal("the renamed column read only NULLs")
	}
	// Drop the second column: the remaining columns read as before.
	proj := append(before.Schema[:1:1], before.Schema[2:]...)
	got, err := before.ReadAll(proj)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if len(got[i]) != len(before.Schema)-1 || parquetio.FormatRow(got[i][1:], proj[1:]) != parquetio.FormatRow(oldRows[i][2:], before.Schema[2:]) {
			t.Fatalf("row %d without %s differs", i, second)
		}
	}
}

// TestUnwritableFeaturesRefused: an append to a table with features
// pipegen reads but cannot write fails before writing, naming them.
func TestUnwritableFeaturesRefused(t *testing.T) {
	for _, c := range []struct{ table, feature string }{
		{"log-replay-dv-key-cases", "deletionVectors"},
		{"table-with-columnmapping-mode-name", "columnMapping"},
		{"v2-checkpoint-json", "v2Checkpoint"},
	} {
		table := copyTable(t, filepath.Join(tables, "kernel-golden", c.table, "delta"))
		snap, err := delta.Load(table)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := delta.LatestVersion(table)
		_, err = delta.Append(table, snap, nil, delta.WriteOptions{})
		if err == nil || !strings.Contains(err.Error(), c.feature) || !strings.Contains(err.Error(), table) {
			t.Errorf("%s: err = %v, want one naming the table and %s", c.table, err, c.feature)
		}
		if after, _ := delta.LatestVersion(table); after != before {
			t.Errorf("%s: version %d after the refused append, want %d", c.table, after, before)
		}
		if err := delta.CheckWritable(table, snap.Protocol, snap.Metadata); err == nil || !strings.Contains(err.Error(), c.feature) {
			t.Errorf("%s: CheckWritable = %v", c.table, err)
		}
	}
}

// TestTolerantActions: commitInfo is free-form (delta-rs writes numbers in
// operationMetrics, other engines nested objects) and unknown fields of
// every action, and unknown actions, are ignored.
func TestTolerantActions(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(delta.LogDir(dir), 0o755)
	log := `{"commitInfo":{"timestamp":1700000000000,"operation":"WRITE","operationParameters":{"mode":"Append","partitionBy":[]},"operationMetrics":{"numFiles":1,"numOutputRows":3,"executionTimeMs":{"nested":true}},"clientVersion":"delta-rs.0.17.0","readVersion":"not a number","isBlindAppend":"yes","future":[1,2],"inCommitTimestamp":1700000000123}}
{"protocol":{"minReaderVersion":1,"minWriterVersion":2,"future":1}}
{"metaData":{"id":"x","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{\"future\":{\"a\":1}}}]}","partitionColumns":[],"configuration":{},"future":{"x":1}}}
{"txn":{"appId":"a","version":3,"future":true}}
{"domainMetadata":{"domain":"delta.clustering","configuration":"{}","removed":false}}
{"someFutureAction":{"x":1}}
{"add":{"path":"f.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,"baseRowId":4,"defaultRowCommitVersion":0,"clusteringProvider":"liquid","future":{}}}
{"add":{"path":"g.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}
{"remove":{"path":"g.parquet","deletionTimestamp":2,"dataChange":true,"stats":"{}","baseRowId":1,"future":[]}}
{"cdc":{"path":"_change_data/c.parquet","partitionValues":{},"size":1,"dataChange":false,"future":1}}
{"checkpointMetadata":{"version":0}}
{"sidecar":{"path":"x.parquet","sizeInBytes":1,"modificationTime":1}}
`
	os.WriteFile(delta.CommitPath(dir, 0), []byte(log), 0o644)
	snap, err := delta.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Files) != 1 || snap.Txns["a"] != 3 {
		t.Errorf("files %v, txns %v", snap.Files, snap.Txns)
	}
	c, err := delta.ReadCommit(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	ci := c.Actions[0].CommitInfo
	if c.Timestamp != 1700000000123 { // inCommitTimestamp wins over timestamp
		t.Errorf("commit timestamp %d, want the inCommitTimestamp", c.Timestamp)
	}
	if ci == nil || ci.Timestamp != 1700000000000 || ci.Operation != "WRITE" || ci.OperationMetrics["numOutputRows"] != float64(3) {
		t.Errorf("commitInfo %+v", ci)
	}
	// Spark's commitInfo with job, notebook and cluster fields.
	gc, err := delta.ReadCommit(filepath.Join(tables, "kernel-golden", "deltalog-commit-info", "delta"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if ci := gc.Actions[2].CommitInfo; ci == nil || ci.Operation != "WRITE" || ci.Timestamp != 1540415658000 {
		t.Errorf("golden commitInfo %+v", ci)
	}
	// Malformed JSON still fails, naming the commit and line.
	os.WriteFile(delta.CommitPath(dir, 1), []byte(`{"commitInfo":{"timestamp":`+"\n"), 0o644)
	if _, err := delta.ReadCommit(dir, 1); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("malformed commit: err = %v", err)
	}
}

// TestVacuumRefusesUnwritableTables: vacuum would delete the deletion
// vector files no add names; it refuses such tables and deletes nothing.
func TestVacuumRefusesUnwritableTables(t *testing.T) {
	table := copyTable(t, dvSource)
	before, _ := filepath.Glob(filepath.Join(table, "*"))
	zero := time.Duration(0)
	if _, err := delta.Vacuum(table, delta.VacuumOptions{Retention: &zero}); err == nil || !strings.Contains(err.Error(), "deletionVectors") {
		t.Errorf("vacuum of a table with deletion vectors: err = %v", err)
	}
	if after, _ := filepath.Glob(filepath.Join(table, "*")); !slices.Equal(before, after) {
		t.Errorf("vacuum deleted files: %v -> %v", before, after)
	}
}

// TestChangeFeedOfDeletionVectorCommits: a DELETE by deletion vector
// without change data files reads as the deletion of the rows its new
// vector adds, not of the whole file; replaying the feed gives the table.
func TestChangeFeedOfDeletionVectorCommits(t *testing.T) {
	for v, want := range map[int64]int{1: 1, 2: 1, 3: 1} {
		rows, err := delta.ReadChangeFeed(dvSource, v, v, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != want || rows[0][1] != delta.ChangeDelete {
			t.Errorf("version %d: changes %v, want %d delete", v, rows, want)
		}
	}
	for _, table := range []string{dvSource, filepath.Join(tables, "delta-rs", "cdf-table-with-cdc-and-dvs")} {
		snap, err := delta.Load(table)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := delta.ReadChangeFeed(table, 0, -1, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Net multiset of rows: inserts and post-images count +1,
		// deletes and pre-images -1.
		n := len(snap.Schema)
		net := map[string]int{}
		for _, r := range rows {
			k := parquetio.FormatRow(r[:n], snap.Schema)
			switch r[n] {
			case delta.ChangeInsert, delta.ChangeUpdatePostimage:
				net[k]++
			case delta.ChangeDelete, delta.ChangeUpdatePreimage:
				net[k]--
			}
		}
		var got []string
		for k, c := range net {
			if c < 0 {
				t.Fatalf("%s: row %s deleted more often than inserted", table, k)
			}
			for ; c > 0; c-- {
				got = append(got, k)
			}
		}
		slices.Sort(got)
		if want := formatted(t, table); !slices.Equal(got, want) {
			t.Errorf("%s: replaying the change feed gives %d rows, the snapshot has %d\n%q\n%q", table, len(got), len(want), got, want)
		}
	}
}
