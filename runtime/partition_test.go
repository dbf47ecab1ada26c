package runtime

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/types"
)

// TestPartitionedSinkManyPartitions: rows of more partitions than a sink
// keeps files open for (maxOpenPartitionFiles), in an order that returns to
// partitions whose file was finished, land each in its partition's folder
// with the partition values in the add, and read back the same in pipegen
// and in DuckDB (which checks the layout: see read_delta.mjs).
func TestPartitionedSinkManyPartitions(t *testing.T) {
	dir := t.TempDir()
	schema := types.Schema{
		{Name: "order_id", Type: types.IntType, Nullable: true},
		{Name: "amount", Type: types.LongType, Nullable: true},
		{Name: "region", Type: types.StringType, Nullable: true},
	}
	orders := &Table[[]any]{Name: "orders", Kind: StreamingTable, Codec: anyCodec(schema), PartitionBy: []string{"region"}}
	src := jsonSource("raw", "landing", schema)
	p := &Pipeline{Name: "parts", Catalog: "main", Schema: "default", Datasets: []Dataset{orders}, Sources: []Source{src},
		Flows: []*Flow{{Name: "orders", Target: orders, Kind: AppendFlow, Definition: "v1",
			Inputs: []Input{{Relation: src, Streaming: true}}, Run: copyFlow(src, schema, orders, nil)}}}
	const regions = maxOpenPartitionFiles + 8
	var rows []map[string]any
	var want []string
	for i := 0; i < 3*shredBatch; i++ { // several flushes, each touching every partition
		r := map[string]any{"order_id": i, "amount": i * 10, "region": fmt.Sprintf("r %02d/%%", i%regions)}
		if i%regions == regions-1 {
			delete(r, "region") // NULL
		}
		rows = append(rows, r)
		region := "NULL"
		if v, ok := r["region"]; ok {
			region = v.(string)
		}
		want = append(want, fmt.Sprintf("%d | %d | %s", i, i*10, region))
	}
	writeJSONLines(t, filepath.Join(dir, "landing", "a.json"), rows)
	mustRun(t, p, dir, RunOptions{})
	table := tablePath(dir, "orders")
	slices.Sort(want)
	if got := tableRows(t, table, -1); !slices.Equal(got, want) {
		t.Fatalf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	folders := map[string]bool{}
	for _, f := range snap.Files {
		folder := delta.PartitionPath([]string{"region"}, f.PartitionValues)
		if !strings.HasPrefix(f.Path, delta.EncodePath(folder)+"/") {
			t.Errorf("file %s is not in the folder of its partition values %v (%s)", f.Path, f.PartitionValues, folder)
		}
		folders[folder] = true
	}
	if len(folders) != regions {
		t.Errorf("%d partition folders, want %d", len(folders), regions)
	}
	if !folders["region=r 05%2F%25"] || !folders["region=__HIVE_DEFAULT_PARTITION__"] {
		t.Errorf("folders %v lack region=r 05%%2F%%25 or the NULL partition", folders)
	}
	deltatest.CheckAll(t, []string{table})
}
