package delta_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/types"
)

// TestDuckDBReplayOfEngineTables validates the DuckDB cross-check's own log
// replay (testdata/duckdb/read_delta.mjs, written from PROTOCOL.md: partition
// values and schema from the log, deletion vectors, column mapping) on the
// engine tables: where an engine published expected rows, DuckDB's rows
// must equal them; and on every table with its data files, pipegen's rows
// must equal DuckDB's.
func TestDuckDBReplayOfEngineTables(t *testing.T) {
	var names, paths, expected []string
	var schemas []types.Schema
	for _, et := range findEngineTables(t) {
		o := engineTableOutcomes[et.name]
		if o.refused != "" {
			continue
		}
		snap, err := delta.Load(et.table)
		if err != nil {
			t.Fatalf("%s: %v", et.name, err)
		}
		if len(snap.Files) == 0 {
			continue // log-only tables
		}
		if _, err := os.Stat(delta.FilePath(et.table, snap.Files[0].Path)); err != nil {
			continue // data files not kept
		}
		names, paths, expected, schemas = append(names, et.name), append(paths, et.table), append(expected, et.expected), append(schemas, snap.Schema)
	}
	if len(paths) < 70 {
		t.Fatalf("%d tables to replay with DuckDB, want at least 70", len(paths))
	}
	duck := deltatest.DuckDBRowsAll(t, paths, schemas)
	withExpected := 0
	for i, name := range names {
		_, ours := deltatest.PipegenRows(t, paths[i], -1)
		if !slices.Equal(ours, duck[i]) {
			t.Errorf("%s: pipegen and DuckDB read different rows\nonly pipegen:\n  %s\nonly DuckDB:\n  %s", name,
				strings.Join(deltatest.Minus(ours, duck[i]), "\n  "), strings.Join(deltatest.Minus(duck[i], ours), "\n  "))
		}
		if expected[i] == "" || engineTableOutcomes[name].expectedWrong != "" {
			continue
		}
		_, want, err := readEngineTable(t, paths[i], expected[i])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(duck[i], want) {
			t.Errorf("%s: DuckDB's replay differs from the expected rows\nonly DuckDB:\n  %s\nonly expected:\n  %s", name,
				strings.Join(deltatest.Minus(duck[i], want), "\n  "), strings.Join(deltatest.Minus(want, duck[i]), "\n  "))
		}
		withExpected++
	}
	t.Logf("DuckDB replayed %d engine tables, %d of them with expected rows", len(paths), withExpected)
}

// TestDuckDBReplayOfPipegenCheckpoints: a table pipegen wrote and
// checkpointed, its commits before the checkpoint cleaned up, reads the same
// in DuckDB's replay (which starts from the checkpoint).
func TestDuckDBReplayOfPipegenCheckpoints(t *testing.T) {
	table := filepath.Join(t.TempDir(), "long")
	buildLongTable(t, table, 25, nil)
	lc, ok, err := delta.ReadLastCheckpoint(table)
	if err != nil || !ok || lc.Version < 10 {
		t.Fatalf("_last_checkpoint %+v %v %v, want a checkpoint", lc, ok, err)
	}
	deltatest.Check(t, table, -1)
	clean := copyTable(t, table)
	for v := int64(0); v < lc.Version; v++ {
		os.Remove(delta.CommitPath(clean, v))
	}
	deltatest.Check(t, clean, -1)
}
