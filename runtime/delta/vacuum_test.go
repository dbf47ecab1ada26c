package delta_test

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
)

// TestVacuum follows Delta's VACUUM rules on a table with live files, a
// file replaced just now (a tombstone), an orphan left by a write that
// never committed, change data, and hidden files.
func TestVacuum(t *testing.T) {
	table := filepath.Join(t.TempDir(), "t")
	eu := delta.PartitionValues{"region": "eu", "pday": "2024-03-01"}
	meta, err := delta.NewMetadata(writeSchema, writePartitions, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	f1 := writeDataFile(t, table, "part-1.parquet", eu, rowsFor([]int64{1}, eu))
	f2 := writeDataFile(t, table, "part-2.parquet", eu, rowsFor([]int64{2}, eu))
	if _, err := delta.Append(table, nil, []delta.Add{f1, f2}, delta.WriteOptions{Metadata: &meta}); err != nil {
		t.Fatal(err)
	}
	orphanOld := writeDataFile(t, table, "part-orphan-old.parquet", eu, rowsFor([]int64{9}, eu))
	orphanNew := writeDataFile(t, table, "part-orphan-new.parquet", eu, rowsFor([]int64{9}, eu))
	snap, _ := delta.Load(table)
	f3 := writeDataFile(t, table, "part-3.parquet", eu, rowsFor([]int64{3}, eu))
	if _, err := delta.ReplaceFiles(table, snap, []delta.Add{f1}, []delta.Add{f3}, delta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// A data file whose writer was killed before its Commit: the Store's
	// temporary file, which vacuum removes once older than the retention.
	abandoned := path.Dir(orphanOld.Path) + "/.part-9.parquet.0123456789abcdef.tmp"
	for _, name := range []string{"_change_data/cdc-1.parquet", ".hidden", "_SUCCESS", "_tmp/x.parquet", abandoned} {
		os.MkdirAll(filepath.Dir(filepath.Join(table, name)), 0o755)
		os.WriteFile(filepath.Join(table, name), []byte("x"), 0o644)
	}
	// Everything was written ten days ago except the young orphan.
	now := time.Now()
	old := now.Add(-10 * 24 * time.Hour)
	filepath.Walk(table, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && filepath.Base(p) != "part-orphan-new.parquet" && filepath.Dir(p) != delta.LogDir(table) {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	rel := func(a delta.Add) string { return a.Path }

	dry, err := delta.Vacuum(table, delta.VacuumOptions{DryRun: true, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	// part-1 was removed just now: its tombstone protects it for a week.
	want := []string{"_change_data/cdc-1.parquet", abandoned, rel(orphanOld)}
	if !slices.Equal(dry.Files, want) || dry.Retention != 7*24*time.Hour {
		t.Errorf("dry run: %v (retention %v), want %v", dry.Files, dry.Retention, want)
	}
	if _, err := os.Stat(filepath.Join(table, rel(orphanOld))); err != nil {
		t.Errorf("dry run removed a file: %v", err)
	}
	res, err := delta.Vacuum(table, delta.VacuumOptions{Now: now})
	if err != nil || !slices.Equal(res.Files, want) {
		t.Fatalf("vacuum: %v, %v", res.Files, err)
	}
	// Both versions still read: version 0 needs part-1.
	for v := int64(0); v <= 1; v++ {
		deltatest.PipegenRows(t, table, v)
	}
	// Eight days later the tombstone has expired: part-1 goes; the young
	// orphan, now older than the retention too, goes with it.
	res, err = delta.Vacuum(table, delta.VacuumOptions{Now: now.Add(8 * 24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{rel(f1), rel(orphanNew)}; !slices.Equal(res.Files, want) {
		t.Errorf("vacuum a week later: %v, want %v", res.Files, want)
	}
	for _, keep := range []string{rel(f2), rel(f3), ".hidden", "_SUCCESS", "_tmp/x.parquet"} {
		if _, err := os.Stat(filepath.Join(table, keep)); err != nil {
			t.Errorf("vacuum removed %s: %v", keep, err)
		}
	}
	if _, err := os.Stat(filepath.Join(table, "_change_data")); err == nil {
		t.Error("the emptied _change_data folder was kept")
	}
	_, rows := deltatest.PipegenRows(t, table, -1)
	if want := format(rowsFor([]int64{2, 3}, eu)); !slices.Equal(rows, want) {
		t.Errorf("latest rows after vacuum %v, want %v", rows, want)
	}
	// An explicit retention overrides the table's.
	hour := time.Hour
	if res, err := delta.Vacuum(table, delta.VacuumOptions{Retention: &hour, DryRun: true}); err != nil || res.Retention != time.Hour {
		t.Errorf("explicit retention: %v, %v", res.Retention, err)
	}
}
