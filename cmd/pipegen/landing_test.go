package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// landingSpec reads Parquet files with the landing-folder options of a
// generated program: a corrupt file is skipped, young files wait.
const landingSpec = `pipeline: landing
catalog: main
schema: s
sources:
  raw:
    files:
      path: landing
      format: parquet
      ignore_corrupt_files: %s
      ignore_missing_files: true
      allow_overwrites: true
      min_file_age: 1h
    schema: id INT
datasets:
  ids:
    kind: streaming_table
    query: SELECT id FROM STREAM(raw)
`

// TestLandingFolderOptions builds a program whose source sets
// ignore_corrupt_files, min_file_age (and the other landing options) and
// runs it over Apache parquet-testing's alltypes_plain.parquet (8 rows)
// and bad_data/PARQUET-1481.parquet (a file Parquet readers must refuse).
func TestLandingFolderOptions(t *testing.T) {
	good, err := os.ReadFile("../../runtime/parquetio/testdata/parquet_testing/alltypes_plain.parquet")
	if err != nil {
		t.Fatal(err)
	}
	bad, err := os.ReadFile("../../runtime/parquetio/testdata/parquet_testing/bad/PARQUET-1481.parquet")
	if err != nil {
		t.Fatal(err)
	}
	for _, ignore := range []string{"false", "true"} {
		dir := t.TempDir()
		bin := buildSpec(t, writeSpec(t, dir, "pipeline.yaml", strings.Replace(landingSpec, "%s", ignore, 1)))
		old := time.Now().Add(-2 * time.Hour)
		for name, data := range map[string][]byte{"a.parquet": good, "b.parquet": bad, "c.parquet": good} {
			path := filepath.Join(dir, "landing", name)
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if name != "c.parquet" {
				os.Chtimes(path, old, old)
			}
		}
		res := runProgram(t, dir, bin, "run")
		if ignore == "false" {
			if res.code != 1 || !strings.Contains(res.stderr, "b.parquet cannot be read") || !strings.Contains(res.stderr, "ignore_corrupt_files: true") {
				t.Errorf("without ignore_corrupt_files: exit %d, want 1 and the file named with both ways out:\n%s", res.code, res.stderr)
			}
			continue
		}
		if res.code != 0 || !strings.Contains(res.stderr, "1 files skipped") {
			t.Fatalf("with ignore_corrupt_files: exit %d, want 0 and the skipped file counted:\n%s", res.code, res.stderr)
		}
		// c.parquet is younger than min_file_age: only a.parquet's 8 rows.
		if rows := showRows(t, dir, bin, "ids"); len(rows) != 1+8 {
			t.Errorf("ids after the first update: %d rows, want 8 (c.parquet waits for min_file_age):\n%s", len(rows)-1, strings.Join(rows, "\n"))
		}
		os.Chtimes(filepath.Join(dir, "landing", "c.parquet"), old.Add(time.Minute), old.Add(time.Minute))
		mustRunProgram(t, dir, bin, "run")
		if rows := showRows(t, dir, bin, "ids"); len(rows) != 1+16 {
			t.Errorf("ids after c.parquet aged: %d rows, want 16", len(rows)-1)
		}
		ev := mustRunProgram(t, dir, bin, "events")
		if !strings.Contains(ev.stdout, "b.parquet of source raw is skipped") {
			t.Errorf("events do not show the skipped file:\n%s", ev.stdout)
		}
	}
}
