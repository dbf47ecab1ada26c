package runtime

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
)

// In-process pipelines for the runtime's tests: rows are generic values
// ([]any, parquetio's representation), so a test declares sources, tables
// and flows as generated code would, without generating or building a
// program.

// anyCodec is the RowCodec of generic rows of schema s.
func anyCodec(s types.Schema) RowCodec[[]any] {
	return RowCodec[[]any]{
		Schema: s,
		Shred: func(r *[]any, row parquet.Row) parquet.Row {
			out, err := parquetio.NewEncoder(s).Append(row, *r)
			if err != nil {
				panic(fmt.Sprintf("test row %v does not fit %s: %v", *r, s, err))
			}
			return out
		},
		Assemble: func(row parquet.Row, r *[]any, _ *Arena) error {
			v, err := parquetio.Decode(row, s)
			*r = v
			return err
		},
	}
}

// jsonSource is a JSON-lines file source of the folder dir with columns
// of s (INT, BIGINT and STRING values), one file per micro-batch.
func jsonSource(name, dir string, s types.Schema) *FileSource[[]any] {
	return &FileSource[[]any]{
		Name: name, Path: dir, Format: "json", MaxFilesPerTrigger: 1, IncludeExistingFiles: true, Schema: s,
		Decode: func(f source.FileInfo, r io.Reader, _ source.Options, emit func([][]any) error) (source.Stats, error) {
			var stats source.Stats
			var rows [][]any
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				line := bytes.TrimSpace(sc.Bytes())
				if len(line) == 0 {
					continue
				}
				var m map[string]any
				if err := json.Unmarshal(line, &m); err != nil {
					return stats, fmt.Errorf("%s: %w", f.Path, err)
				}
				row := make([]any, len(s))
				for i, c := range s {
					v, ok := m[c.Name]
					if !ok || v == nil {
						continue
					}
					switch c.Type.Kind {
					case types.IntKind:
						row[i] = int32(v.(float64))
					case types.LongKind:
						row[i] = int64(v.(float64))
					default:
						row[i] = fmt.Sprint(v)
					}
				}
				rows = append(rows, row)
			}
			stats.Rows = int64(len(rows))
			if len(rows) == 0 {
				return stats, nil
			}
			return stats, emit(rows)
		},
	}
}

// writeJSONLines writes rows (column name → value) as a JSON-lines file.
func writeJSONLines(t testing.TB, path string, rows []map[string]any) {
	t.Helper()
	var b bytes.Buffer
	for _, r := range rows {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyFlow is a flow function that appends every row of its streaming
// input to its target, taking the target's columns by name (missing ones
// NULL), as an append flow `SELECT ... FROM STREAM(x)` does.
func copyFlow(in Readable[[]any], inSchema types.Schema, target *Table[[]any], extra map[string]any) func(ctx *FlowContext) error {
	return func(ctx *FlowContext) error {
		return Scan(ctx, in, ScanOptions{Streaming: true}, func(w *Worker, rows [][]any) error {
			for _, r := range rows {
				out := make([]any, len(target.Codec.Schema))
				for i, f := range target.Codec.Schema {
					if j := inSchema.Index(f.Name); j >= 0 {
						out[i] = r[j]
					} else if v, ok := extra[f.Name]; ok {
						out[i] = v
					}
				}
				if err := Out(w, target).Emit(&out); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

// runPipeline runs one update of p with the warehouse and storage under
// dir; it returns the update's error and its stderr.
func runPipeline(t testing.TB, p *Pipeline, dir string, opts RunOptions) (string, error) {
	t.Helper()
	var stderr bytes.Buffer
	opts.Warehouse = filepath.Join(dir, "warehouse")
	opts.BaseDir = dir
	opts.Stderr = &stderr
	err := Run(p, opts, Trigger{})
	return stderr.String(), err
}

// mustRun runs one update and fails the test if it fails.
func mustRun(t testing.TB, p *Pipeline, dir string, opts RunOptions) string {
	t.Helper()
	out, err := runPipeline(t, p, dir, opts)
	if err != nil {
		t.Fatalf("update failed: %v\n%s", err, out)
	}
	return out
}

// tablePath returns where the test pipelines' table name lives.
func tablePath(dir, name string) string {
	return filepath.Join(dir, "warehouse", "main", "default", name)
}

// tableRows returns the rows of a table at version (-1: latest), each
// rendered by parquetio.FormatRow for the table's schema, sorted.
func tableRows(t testing.TB, table string, version int64) []string {
	t.Helper()
	_, rows := deltatest.PipegenRows(t, table, version)
	return rows
}

// events returns the event log records of every update so far, in order.
func events(t testing.TB, dir, pipeline string) []map[string]any {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "warehouse", "_pipelines", pipeline, "event_log", "*.jsonl"))
	slices.Sort(files)
	var out []map[string]any
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var ev map[string]any
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out = append(out, ev)
		}
	}
	return out
}

// flowProgress returns the flow_progress details of the events of flow
// with status, in order.
func flowProgress(evs []map[string]any, flow, status string) []map[string]any {
	var out []map[string]any
	for _, ev := range evs {
		o, _ := ev["origin"].(map[string]any)
		d, _ := ev["details"].(map[string]any)
		fp, _ := d["flow_progress"].(map[string]any)
		if ev["event_type"] == "flow_progress" && o["flow_name"] == flow && fp["status"] == status {
			out = append(out, fp)
		}
	}
	return out
}
