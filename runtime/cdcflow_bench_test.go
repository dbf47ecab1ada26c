package runtime

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/cdc"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/table"
	"github.com/pipegen/pipegen/runtime/types"
)

// BenchmarkCDCMerge applies micro-batches of 1,000 changes to an SCD type 1
// target of 1,000,000 rows and reports, per batch, the bytes of data files
// rewritten (removed and written again) as a share of the table, the bytes
// written (data, state and change data files) and the time. The changes
// come in three shapes: updates of keys drawn uniformly from the whole
// table (the worst case of any copy-on-write layout: most files hold one of
// them), updates of 1,000 consecutive keys (a batch of related rows), and
// an insert-mostly batch (500 new keys above the others and 500 updates of
// the most recent keys, as a feed of a growing table gives).
//
//	go test ./runtime -run '^$' -bench CDCMerge -benchtime 5x
func BenchmarkCDCMerge(b *testing.B) {
	const rows, batch = 1_000_000, 1000
	schema := types.Schema{
		{Name: "id", Type: types.LongType, Nullable: true},
		{Name: "name", Type: types.StringType, Nullable: true},
		{Name: "city", Type: types.StringType, Nullable: true},
		{Name: "amount", Type: types.LongType, Nullable: true},
	}
	spec, err := cdc.NewSpec(cdc.Config{Flow: "bench", Target: "bench", Schema: schema, Keys: []string{"id"},
		SequenceBy: []string{"amount"}, SequenceType: types.LongType, TombstoneTTL: DefaultTombstoneTTL})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	desc := &table.Desc{Name: "bench", Kind: StreamingTable, Table: "bench", Columns: schema,
		Properties: map[string]string{delta.ChangeDataFeedProperty: "true"}}
	h := table.New("bench", filepath.Join(dir, "bench"), desc)
	if err := h.Ensure(desc); err != nil {
		b.Fatal(err)
	}
	seq := int64(0)
	apply := func(ids []int64) *cdc.Merged {
		st := newCDCStore(spec, h, filepath.Join(dir, "state"), newID())
		changes := spec.NewBatch()
		for _, id := range ids {
			seq++
			row := []any{id, fmt.Sprintf("name-%d", id), fmt.Sprintf("city-%d", id%977), seq}
			if err := changes.Upsert(seq, row, st.Now.UnixMilli()); err != nil {
				b.Fatal(err)
			}
		}
		out, err := applyCDC(st, h, changes, &table.Txn{AppID: "bench", Version: seq}, nil)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	// The initial table: 1,000,000 keys in batches of 100,000.
	for start := int64(0); start < rows; start += 100_000 {
		ids := make([]int64, 100_000)
		for i := range ids {
			ids[i] = start + int64(i)
		}
		apply(ids)
	}
	tableBytes := func() int64 {
		snap, err := delta.Load(h.Path)
		if err != nil {
			b.Fatal(err)
		}
		var n int64
		for _, f := range snap.Files {
			n += f.Size
		}
		return n
	}
	next := int64(rows)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, shape := range []struct {
		name string
		ids  func() []int64
	}{
		{"uniform_updates", func() []int64 {
			ids := make([]int64, batch)
			for i := range ids {
				ids[i] = rng.Int64N(rows)
			}
			return ids
		}},
		{"consecutive_updates", func() []int64 {
			start := rng.Int64N(rows - batch)
			ids := make([]int64, batch)
			for i := range ids {
				ids[i] = start + int64(i)
			}
			return ids
		}},
		{"inserts_and_recent_updates", func() []int64 {
			ids := make([]int64, 0, batch)
			for i := 0; i < batch/2; i++ {
				ids = append(ids, next-1-int64(rng.IntN(10_000)), next+int64(i))
			}
			next += batch / 2
			return ids
		}},
	} {
		b.Run(shape.name, func(b *testing.B) {
			var removed, written int64
			var files, leaves int
			var cpu time.Duration
			total := tableBytes()
			for b.Loop() {
				b.StopTimer()
				ids := shape.ids()
				c0 := cpuTime()
				b.StartTimer()
				out := apply(ids)
				cpu += cpuTime() - c0
				removed += out.RemovedBytes
				written += out.AddedBytes + out.StateBytes + out.ChangeBytes
				files += len(out.Removes)
				leaves = out.LeavesAfter
			}
			b.ReportMetric(float64(removed)/float64(b.N), "rewritten-B/op")
			b.ReportMetric(100*float64(removed)/float64(b.N)/float64(total), "rewritten-%")
			b.ReportMetric(float64(written)/float64(b.N), "written-B/op")
			b.ReportMetric(float64(files)/float64(b.N), "files-rewritten/op")
			b.ReportMetric(float64(leaves), "files")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime returns the CPU time (user and system) the process used so far:
// on a shared machine it measures the work better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
