package delta_test

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

const tables = "testdata/delta_tables"

// archivedTable extracts testdata/delta_tables/<name>.tar into a temporary
// folder and returns the path of the table in it (<base name>/delta). Tables
// whose file names a Go module cannot hold (dat's multi_partitioned has a
// partition folder named with an emoji, which `go install` of pipegen
// would refuse) are kept as tar files.
func archivedTable(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open(filepath.Join(tables, name+".tar"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	r := tar.NewReader(f)
	for {
		h, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, filepath.FromSlash(h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(path, 0o755)
		case tar.TypeReg:
			var data []byte
			if data, err = io.ReadAll(r); err == nil {
				err = os.WriteFile(path, data, 0o644)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, filepath.Base(name), "delta")
}

// rowsAt reads a table at a version and renders its rows, sorted.
func rowsAt(t *testing.T, table string, version int64) (*delta.Snapshot, []string) {
	t.Helper()
	snap, err := delta.LoadVersion(table, version)
	if err != nil {
		t.Fatal(err)
	}
	_, rows := deltatest.PipegenRows(t, table, version)
	return snap, rows
}

func readParquetFile(t *testing.T, path string, want types.Schema) []string {
	t.Helper()
	var out []string
	for _, row := range readFileRows(t, path, want) {
		out = append(out, parquetio.FormatRow(row, want))
	}
	slices.Sort(out)
	return out
}

// TestDAT reads every version of the dat reader tests and compares it with
// the expected table content the suite ships as Parquet.
func TestDAT(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join(tables, "dat", "*"))
	if len(cases) != 4 {
		t.Fatalf("found %d dat cases, want 4", len(cases))
	}
	for _, c := range cases {
		if name, ok := strings.CutSuffix(c, ".tar"); ok {
			c = filepath.Dir(archivedTable(t, strings.TrimPrefix(filepath.ToSlash(name), tables+"/")))
		}
		expected, _ := filepath.Glob(filepath.Join(c, "expected", "v*"))
		for _, e := range expected {
			var version int64
			if _, err := fmtSscan(filepath.Base(e)[1:], &version); err != nil {
				t.Fatal(err)
			}
			t.Run(filepath.Base(c)+"/"+filepath.Base(e), func(t *testing.T) {
				snap, got := rowsAt(t, filepath.Join(c, "delta"), version)
				want := readParquetFile(t, filepath.Join(e, "table_content.parquet"), snap.Schema)
				if !slices.Equal(got, want) {
					t.Errorf("rows differ\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
				}
			})
		}
		t.Run(filepath.Base(c)+"/latest", func(t *testing.T) {
			snap, got := rowsAt(t, filepath.Join(c, "delta"), -1)
			want := readParquetFile(t, filepath.Join(c, "expected", "latest", "table_content.parquet"), snap.Schema)
			if !slices.Equal(got, want) {
				t.Errorf("rows differ\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}

func TestGoldenTables(t *testing.T) {
	// Row counts from the tables' SOURCE.md.
	for _, c := range []struct {
		table string
		rows  int
	}{
		{"delta-golden/snapshot-data2-deleted", 20},
		{"delta-golden/basic-with-inserts-merge", 140},
		{"delta-golden/time-travel-schema-changes-b", 20},
		{"delta-golden/data-reader-partition-values", 3},
		{"delta-kernel-rs/app-txn-checkpoint", 22},
		{"delta-rs/simple_table_with_cdc", 1},
		{"delta-rs/cdf-table-non-partitioned", 11},
	} {
		_, rows := rowsAt(t, filepath.Join(tables, c.table), -1)
		if len(rows) != c.rows {
			t.Errorf("%s: %d rows, want %d", c.table, len(rows), c.rows)
		}
	}
}

func TestTimeTravelSchemaChange(t *testing.T) {
	table := filepath.Join(tables, "delta-golden/time-travel-schema-changes-b")
	v0, rows0 := rowsAt(t, table, 0)
	if v0.Schema.String() != "id BIGINT" || len(rows0) != 10 {
		t.Errorf("version 0: schema %s, %d rows; want id BIGINT, 10 rows", v0.Schema, len(rows0))
	}
	snap, rows := rowsAt(t, table, -1)
	if snap.Schema.String() != "id BIGINT, part BIGINT" {
		t.Fatalf("latest schema %s", snap.Schema)
	}
	nulls := 0
	for _, r := range rows {
		id, part, _ := strings.Cut(r, " | ")
		switch {
		case part == "NULL":
			nulls++
		case part != id:
			t.Errorf("row %q: part should equal id", r)
		}
	}
	if nulls != 10 {
		t.Errorf("%d rows with part NULL (the files written before the column existed), want 10", nulls)
	}
}

func TestPartitionValues(t *testing.T) {
	// The values are those encoded in the Hive-style directory names.
	_, rows := rowsAt(t, filepath.Join(tables, "delta-golden/data-reader-partition-values"), -1)
	want := []string{
		"0 | 0 | 0 | 0 | true | 0.0 | 0.0 | 0 | null | 2021-09-08 | 2021-09-08 11:11:11 | 0 | [{0}, {0}, {0}] | {0, 0, {0, 0}} | 0",
		"1 | 1 | 1 | 1 | false | 1.0 | 1.0 | 1 | null | 2021-09-08 | 2021-09-08 11:11:11 | 1 | [{1}, {1}, {1}] | {1, 1, {1, 1}} | 1",
		"NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | [{2}, {2}, {2}] | {2, 2, {2, 2}} | 2",
	}
	if !slices.Equal(rows, want) {
		t.Errorf("rows:\n  %s", strings.Join(rows, "\n  "))
	}
	// URI-encoded paths: the partition directory letter=%2F%2520%25f holds
	// the value "/%20%f".
	_, rows = rowsAt(t, archivedTable(t, "dat/multi_partitioned"), -1)
	if len(rows) != 2 || !strings.HasPrefix(rows[0], "/%20%f | 1970-01-01 | [68 65 6C 6C 6F] | 6") {
		t.Errorf("multi_partitioned rows: %q", rows)
	}
}

func TestAppTxnCheckpoint(t *testing.T) {
	table := filepath.Join(tables, "delta-kernel-rs/app-txn-checkpoint")
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Files) != 4 {
		t.Errorf("%d live files, want 4", len(snap.Files))
	}
	for app, want := range map[string]int64{"my-app": 3, "my-app2": 2} {
		if v, ok := snap.TxnVersion(app); !ok || v != want {
			t.Errorf("txn %s = %d, %v; want %d", app, v, ok, want)
		}
	}
	if _, ok := snap.TxnVersion("other"); ok {
		t.Error("txn of an unknown app reported")
	}
	lc, ok, err := delta.ReadLastCheckpoint(table)
	if err != nil || !ok || lc.Version != 1 {
		t.Errorf("_last_checkpoint = %+v %v %v", lc, ok, err)
	}
	// Read from the checkpoint alone: the txn ids survive it.
	tmp := copyTable(t, table)
	os.Remove(filepath.Join(tmp, "_delta_log", "00000000000000000000.json"))
	os.Remove(filepath.Join(tmp, "_delta_log", "00000000000000000001.json"))
	snap2, err := delta.Load(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := snap2.TxnVersion("my-app"); v != 3 || len(snap2.Files) != 4 || snap2.Metadata.PartitionColumns[0] != "modified" {
		t.Errorf("from checkpoint: txn %d, %d files, partition columns %v", v, len(snap2.Files), snap2.Metadata.PartitionColumns)
	}
	_, got := rowsAt(t, tmp, -1)
	_, want := rowsAt(t, table, -1)
	if !slices.Equal(got, want) {
		t.Error("rows read through the checkpoint differ from the JSON replay")
	}
}

func TestSparkCheckpoint(t *testing.T) {
	// The golden checkpoint table is a log only: commit i removes file i and
	// adds file i+1; the checkpoint is at version 10.
	table := filepath.Join(tables, "delta-golden/checkpoint")
	for v, want := range map[int64]string{14: "15", 10: "11", 3: "4"} {
		snap, err := delta.LoadVersion(table, v)
		if err != nil {
			t.Fatal(err)
		}
		if len(snap.Files) != 1 || snap.Files[0].Path != want {
			t.Errorf("version %d: files %v, want [%s]", v, snap.Files, want)
		}
	}
	// Without commits 0..10 the snapshot comes from the checkpoint.
	tmp := copyTable(t, table)
	for v := 0; v <= 10; v++ {
		os.Remove(delta.CommitPath(tmp, int64(v)))
	}
	snap, err := delta.LoadVersion(tmp, 12)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Files) != 1 || snap.Files[0].Path != "13" || snap.Metadata.ID != "testId" || snap.Schema.String() != "intCol INT" {
		t.Errorf("via checkpoint: %+v", snap)
	}
	if _, err := delta.LoadVersion(tmp, 5); err == nil || !strings.Contains(err.Error(), tmp) {
		t.Errorf("version 5 without its commits: err = %v", err)
	}
	if _, err := delta.LoadVersion(tmp, 99); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("version 99: err = %v", err)
	}
}

// TestMultiPartCheckpoint splits Spark's checkpoint into two parts
// (N.checkpoint.k.n.parquet) with pipegen's writer and reads through them.
func TestMultiPartCheckpoint(t *testing.T) {
	table := copyTable(t, filepath.Join(tables, "delta-golden/checkpoint"))
	single := filepath.Join(table, "_delta_log", "00000000000000000010.checkpoint.parquet")
	rows := readCheckpointRows(t, single)
	os.Remove(single)
	for v := 0; v <= 10; v++ {
		os.Remove(delta.CommitPath(table, int64(v)))
	}
	half := len(rows) / 2
	writeCheckpointPart(t, filepath.Join(table, "_delta_log", "00000000000000000010.checkpoint.0000000001.0000000002.parquet"), rows[:half])
	// With one part of two the checkpoint is incomplete and unusable.
	if _, err := delta.LoadVersion(table, 12); err == nil {
		t.Error("an incomplete multi-part checkpoint was used")
	}
	writeCheckpointPart(t, filepath.Join(table, "_delta_log", "00000000000000000010.checkpoint.0000000002.0000000002.parquet"), rows[half:])
	snap, err := delta.LoadVersion(table, 12)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Files) != 1 || snap.Files[0].Path != "13" || snap.Metadata.ID != "testId" {
		t.Errorf("via multi-part checkpoint: files %v, metadata %+v", snap.Files, snap.Metadata)
	}
}

func TestChangeDataFeedTablesOpen(t *testing.T) {
	for _, table := range []string{"delta-rs/simple_table_with_cdc", "delta-rs/cdf-table-non-partitioned"} {
		snap, err := delta.Load(filepath.Join(tables, table))
		if err != nil {
			t.Fatal(err)
		}
		if snap.Protocol.MinWriterVersion != 4 || snap.Metadata.Configuration["delta.enableChangeDataFeed"] != "true" {
			t.Errorf("%s: protocol %+v, configuration %v", table, snap.Protocol, snap.Metadata.Configuration)
		}
	}
	_, rows := rowsAt(t, filepath.Join(tables, "delta-rs/simple_table_with_cdc"), -1)
	if !slices.Equal(rows, []string{"0 | Mino"}) {
		t.Errorf("simple_table_with_cdc rows %q", rows)
	}
	_, rows = rowsAt(t, filepath.Join(tables, "delta-rs/simple_table_with_cdc"), 1)
	if !slices.Equal(rows, []string{"0 | Mario"}) {
		t.Errorf("simple_table_with_cdc@1 rows %q", rows)
	}
}

// TestCrossCheckDuckDB reads every table that has its data files with
// DuckDB (replaying the log in SQL) and compares with pipegen's reading.
func TestCrossCheckDuckDB(t *testing.T) {
	for _, table := range []string{
		"dat/basic_append/delta", "dat/basic_partitioned/delta", "dat/with_schema_change/delta",
		"delta-golden/snapshot-data2-deleted", "delta-golden/basic-with-inserts-merge", "delta-golden/time-travel-schema-changes-b",
		"delta-golden/data-reader-partition-values", "delta-kernel-rs/app-txn-checkpoint",
		"delta-rs/simple_table_with_cdc", "delta-rs/cdf-table-non-partitioned",
	} {
		t.Run(table, func(t *testing.T) {
			deltatest.Check(t, filepath.Join(tables, table), -1)
		})
	}
	deltatest.Check(t, filepath.Join(tables, "delta-golden/snapshot-data2-deleted"), 2)
	t.Run("dat/multi_partitioned/delta", func(t *testing.T) {
		deltatest.Check(t, archivedTable(t, "dat/multi_partitioned"), -1)
	})
}

func TestUnsupportedFeaturesRefused(t *testing.T) {
	for _, c := range []struct {
		protocol, metadataConf, want string
	}{
		{`{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["variantType"],"writerFeatures":["variantType"]}`, `{}`, `reader feature "variantType"`},
		{`{"minReaderVersion":2,"minWriterVersion":5}`, `{"delta.columnMapping.mode":"bogus"}`, "column mapping mode"},
		{`{"minReaderVersion":4,"minWriterVersion":7}`, `{}`, "reader version 4"},
	} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "_delta_log"), 0o755)
		log := `{"protocol":` + c.protocol + "}\n" +
			`{"metaData":{"id":"x","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[]}","partitionColumns":[],"configuration":` + c.metadataConf + "}}\n"
		os.WriteFile(delta.CommitPath(dir, 0), []byte(log), 0o644)
		_, err := delta.Load(dir)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), dir) {
			t.Errorf("protocol %s: err = %v, want one naming the table and %s", c.protocol, err, c.want)
		}
	}
	if _, err := delta.Load(t.TempDir()); !errors.Is(err, delta.ErrNoTable) {
		t.Errorf("empty directory: err = %v, want ErrNoTable", err)
	}
}
