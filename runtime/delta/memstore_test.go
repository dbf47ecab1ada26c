package delta_test

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/storage/storagetest"
)

// mem holds the objects of the memtest:// locations of this package's
// tests: bucket "bucket" is the key prefix "bucket/".
var mem = storagetest.RegisterMem("memtest")

// TestTableAtURL writes and reads a partitioned table, its checkpoint and
// its version checksums at a URL location through the package's normal
// functions: every object lands in the in-memory Store under the table's
// keys, none on the local disk (a location built with filepath would be
// "memtest:/bucket/...", a relative local path, or a malformed key).
func TestTableAtURL(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Cleanup(func() { mem.DeletePrefix("bucket") })
	table := "memtest://bucket/wh/main/sales/orders"
	eu := delta.PartitionValues{"region": "eu west", "pday": "2024-03-01"}
	meta, err := delta.NewMetadata(writeSchema, writePartitions, map[string]string{delta.CheckpointIntervalProperty: "4"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := delta.Append(table, nil, nil, delta.WriteOptions{Metadata: &meta}); err != nil {
		t.Fatal(err)
	}
	var want []string
	for v := int64(1); v <= 5; v++ {
		snap, err := delta.Load(table)
		if err != nil {
			t.Fatal(err)
		}
		rows := rowsFor([]int64{v, v + 10}, eu)
		add := writeStoreFile(t, table, fmt.Sprintf("part-%03d.parquet", v), eu, rows)
		if _, err := delta.Append(table, snap, []delta.Add{add}, delta.WriteOptions{}); err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		want = append(want, format(rows)...)
	}
	slices.Sort(want)

	keys := mem.Keys()
	prefix := "bucket/wh/main/sales/orders/"
	for _, k := range []string{
		"_delta_log/00000000000000000000.json",
		"_delta_log/00000000000000000005.json",
		"_delta_log/00000000000000000004.checkpoint.parquet",
		"_delta_log/_last_checkpoint",
		"region=eu west/pday=2024-03-01/part-001.parquet",
	} {
		if !slices.Contains(keys, prefix+k) {
			t.Errorf("no object %s%s; objects:\n%s", prefix, k, strings.Join(keys, "\n"))
		}
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, prefix) {
			t.Errorf("object %s outside the table", k)
		}
	}
	if local, _ := os.ReadDir("."); len(local) != 0 {
		t.Errorf("the working directory holds %v, want nothing", local)
	}

	if got := scanAll(t, table); !slices.Equal(got, want) {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	lc, ok, err := delta.ReadLastCheckpoint(table)
	if err != nil || !ok || lc.Version != 4 {
		t.Fatalf("_last_checkpoint: %+v, %v, %v; want version 4", lc, ok, err)
	}

	// A copy of the table without the commits its checkpoint covers is
	// read through the checkpoint alone.
	copied := "memtest://bucket/wh/main/sales/copy"
	src, dst := storage.At(table), storage.At(copied)
	objects, err := src.List("", storage.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objects {
		if v, ok := strings.CutPrefix(o.Key, "_delta_log/0000000000000000000"); ok && strings.HasSuffix(v, ".json") && v < "4.json" {
			continue
		}
		b, err := storage.ReadAll(src, o.Key)
		if err != nil {
			t.Fatal(err)
		}
		storagetest.Put(t, dst, o.Key, string(b))
	}
	snap, err := delta.Load(copied)
	if err != nil || snap.Version != 5 || len(snap.Files) != 5 {
		t.Fatalf("copy without commits 0-3: %v, %v", snap, err)
	}
	if got := scanAll(t, copied); !slices.Equal(got, want) {
		t.Errorf("rows of the copy:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Vacuum lists the table's objects by key and finds nothing to remove.
	res, err := delta.Vacuum(table, delta.VacuumOptions{DryRun: true})
	if err != nil || len(res.Files) != 0 {
		t.Errorf("vacuum: %+v, %v; want no file", res, err)
	}
}

// writeStoreFile writes a data file of the table through storage (as the
// runtime writes them) and returns its add action.
func writeStoreFile(t *testing.T, table, name string, pv delta.PartitionValues, rows [][]any) delta.Add {
	t.Helper()
	rel := delta.PartitionPath(writePartitions, pv) + "/" + name
	out, err := storage.CreateFile(storage.Join(table, rel), storage.Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Abort()
	data := writeSchema[:len(writeSchema)-2]
	w := parquetio.NewWriter(out, data, parquetio.WriterOptions{})
	enc := parquetio.NewEncoder(data)
	var prows []parquet.Row
	for _, r := range rows {
		row, err := enc.Append(nil, r[:len(data)])
		if err != nil {
			t.Fatal(err)
		}
		prows = append(prows, row)
	}
	if err := w.Write(prows); err != nil {
		t.Fatal(err)
	}
	info, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	return delta.NewAdd(rel, pv, info, time.Now())
}

// scanAll returns the formatted rows of the table's latest snapshot.
func scanAll(t *testing.T, table string) []string {
	t.Helper()
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	sc := snap.Scan(writeSchema)
	dec := parquetio.NewDecoder(writeSchema)
	var out [][]any
	buf := make([]parquet.Row, 16)
	for {
		n, err := sc.ReadRows(buf)
		for _, r := range buf[:n] {
			v, derr := dec.Decode(r)
			if derr != nil {
				t.Fatal(derr)
			}
			out = append(out, v)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return format(out)
}
