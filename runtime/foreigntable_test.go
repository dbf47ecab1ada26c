package runtime

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// dvTableSource is a Spark table of ids 0..49 in one file; commits 1, 2
// and 3 each DELETE rows by deletion vector (3 rows deleted in all).
const dvTableSource = "delta/testdata/delta_tables/kernel-golden/log-replay-dv-key-cases/delta"

// copySourceTable copies the table at src into the warehouse of dir as
// main.default.<name>, with its commits up to version until only.
func copySourceTable(t *testing.T, src, dir, name string, until int) string {
	t.Helper()
	dst := tablePath(dir, name)
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if strings.HasSuffix(rel, ".json") {
			if v, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(rel), ".json")); err == nil && v > until {
				return nil
			}
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(filepath.Join(dst, rel))
		if err != nil {
			return err
		}
		defer out.Close()
		_, err = io.Copy(out, in)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

var idSchema = types.Schema{{Name: "id", Type: types.LongType, Nullable: true}}

// dvPipeline streams the table source ids into the streaming table
// ids_copy and counts it into the materialized view ids_count.
func dvPipeline() *Pipeline {
	src := &TableSource[[]any]{Name: "ids", Table: "main.default.ids", Codec: anyCodec(idSchema)}
	copyT := &Table[[]any]{Name: "ids_copy", Kind: StreamingTable, Codec: anyCodec(idSchema)}
	count := &Table[[]any]{Name: "ids_count", Kind: MaterializedView, Codec: anyCodec(types.Schema{{Name: "n", Type: types.LongType}})}
	mv := &Flow{Name: "ids_count", Target: count, Kind: CompleteFlow, Definition: "count", Inputs: []Input{{Relation: src}},
		Run: func(ctx *FlowContext) error {
			var n int64
			if err := Scan(ctx, src, ScanOptions{}, func(w *Worker, rows [][]any) error {
				n += int64(len(rows))
				return nil
			}); err != nil {
				return err
			}
			row := []any{n}
			return Out(ctx.Worker(), count).Emit(&row)
		}}
	return &Pipeline{Name: "dv", Catalog: "main", Schema: "default", Sources: []Source{src}, Datasets: []Dataset{copyT, count},
		Flows: []*Flow{
			{Name: "ids_copy", Target: copyT, Kind: AppendFlow, Definition: "copy", Inputs: []Input{{Relation: src, Streaming: true}},
				Run: copyFlow(src, idSchema, copyT, nil)},
			mv,
		}}
}

// TestTableSourceWithDeletionVectors reads a table another engine wrote
// with deletion vectors: a batch read and the first streaming read (the
// snapshot) skip the deleted rows; a later DELETE by deletion vector stops
// the streaming read (as Spark's Delta source stops at a non-append
// commit) instead of ignoring the deletes or reading the file again.
func TestTableSourceWithDeletionVectors(t *testing.T) {
	dir := t.TempDir()
	copySourceTable(t, dvTableSource, dir, "ids", 1)
	mustRun(t, dvPipeline(), dir, RunOptions{})
	copied := tableRows(t, tablePath(dir, "ids_copy"), -1)
	if len(copied) != 49 { // version 1 deleted one row
		t.Fatalf("streamed %d rows of the snapshot at version 1, want 49", len(copied))
	}
	if got := tableRows(t, tablePath(dir, "ids_count"), -1); !slices.Equal(got, []string{"49"}) {
		t.Fatalf("count %v, want [49]", got)
	}
	// The source table gains two more DELETEs.
	copySourceTable(t, dvTableSource, dir, "ids", 3)
	out, err := runPipeline(t, dvPipeline(), dir, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "table ids changed at version 2") {
		t.Fatalf("streaming over a DELETE by deletion vector: err = %v\n%s", err, out)
	}
	if got := tableRows(t, tablePath(dir, "ids_copy"), -1); !slices.Equal(got, copied) {
		t.Errorf("the failed update changed ids_copy: %d rows", len(got))
	}
	// A full refresh streams the new snapshot: the 47 live rows, once.
	mustRun(t, dvPipeline(), dir, RunOptions{FullRefresh: []string{"ids_copy"}})
	if got := tableRows(t, tablePath(dir, "ids_copy"), -1); len(got) != 47 {
		t.Errorf("after a full refresh: %d rows, want 47", len(got))
	}
	if got := tableRows(t, tablePath(dir, "ids_count"), -1); !slices.Equal(got, []string{"47"}) {
		t.Errorf("count %v, want [47]", got)
	}
}

// TestTableSourceWithColumnMapping streams a table written by Spark with
// column mapping in id mode (physical names and field ids in the files, a
// partition column keyed by physical name) into a streaming table.
func TestTableSourceWithColumnMapping(t *testing.T) {
	dir := t.TempDir()
	src := copySourceTable(t, "delta/testdata/delta_tables/kernel-golden/data-reader-timestamp_ntz-id-mode/delta", dir, "ntz", 99)
	schema := types.Schema{
		{Name: "id", Type: types.IntType, Nullable: true},
		{Name: "tsNtz", Type: types.TimestampNTZType, Nullable: true},
		{Name: "tsNtzPartition", Type: types.TimestampNTZType, Nullable: true},
	}
	in := &TableSource[[]any]{Name: "ntz", Table: "main.default.ntz", Codec: anyCodec(schema)}
	out := &Table[[]any]{Name: "ntz_copy", Kind: StreamingTable, Codec: anyCodec(schema)}
	p := &Pipeline{Name: "cm", Catalog: "main", Schema: "default", Sources: []Source{in}, Datasets: []Dataset{out},
		Flows: []*Flow{{Name: "ntz_copy", Target: out, Kind: AppendFlow, Definition: "copy", Inputs: []Input{{Relation: in, Streaming: true}},
			Run: copyFlow(in, schema, out, nil)}}}
	mustRun(t, p, dir, RunOptions{})
	want := tableRows(t, src, -1) // package delta's reading, checked against the expected rows (TestEngineTables)
	if got := tableRows(t, tablePath(dir, "ntz_copy"), -1); len(want) != 9 || !slices.Equal(got, want) {
		t.Errorf("streamed rows:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestWriteToTableWithUnwritableFeatures: an update whose target is a
// table with deletion vectors stops before writing anything, naming the
// table and the feature.
func TestWriteToTableWithUnwritableFeatures(t *testing.T) {
	dir := t.TempDir()
	copySourceTable(t, dvTableSource, dir, "ids", 0)
	target := copySourceTable(t, dvTableSource, dir, "ids_copy", 3)
	before, _ := filepath.Glob(filepath.Join(target, "*"))
	logBefore, _ := filepath.Glob(filepath.Join(target, "_delta_log", "*"))
	out, err := runPipeline(t, dvPipeline(), dir, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "ids_copy") || !strings.Contains(err.Error(), "deletionVectors") || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("err = %v\n%s", err, out)
	}
	after, _ := filepath.Glob(filepath.Join(target, "*"))
	logAfter, _ := filepath.Glob(filepath.Join(target, "_delta_log", "*"))
	if !slices.Equal(before, after) || !slices.Equal(logBefore, logAfter) {
		t.Errorf("the refused update wrote files: %v -> %v, log %v -> %v", before, after, logBefore, logAfter)
	}
}
