package parquetio_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// benchSchema is 10 columns, one of them a list of structs.
var benchSchema = types.Schema{
	notNull("id", types.LongType),
	field("at", types.TimestampType),
	field("customer", types.StringType),
	field("amount", types.DecimalOf(12, 2)),
	field("qty", types.IntType),
	field("price", types.DoubleType),
	field("paid", types.BooleanType),
	field("day", types.DateType),
	field("category", types.StringType),
	field("items", types.ArrayOf(types.StructOf(field("sku", types.StringType), field("n", types.IntType)), true)),
}

const benchRows = 1_000_000

// benchBatches returns 64 batches of 1024 canonical rows, reused cyclically.
func benchBatches(b *testing.B) [][]parquet.Row {
	enc := parquetio.NewEncoder(benchSchema)
	cats := []string{"books", "games", "music", "garden", "tools"}
	var batches [][]parquet.Row
	id := int64(0)
	for range 64 {
		batch := make([]parquet.Row, 1024)
		for i := range batch {
			id++
			var items []any
			for k := range int(id % 3) {
				items = append(items, parquetio.Struct{fmt.Sprintf("sku-%d", (id+int64(k))%5000), int32(k + 1)})
			}
			row, err := enc.Append(nil, []any{
				id, types.Timestamp(1_700_000_000_000_000 + id*1_000_000), fmt.Sprintf("customer-%d", id%100_000),
				types.DecimalFromInt64(id * 37 % 1_000_000), int32(id % 10), float64(id%1000) / 7, id%2 == 0,
				types.Date(19_000 + id%365), cats[id%5], items,
			})
			if err != nil {
				b.Fatal(err)
			}
			batch[i] = row
		}
		batches = append(batches, batch)
	}
	return batches
}

func writeBench(b *testing.B, out io.Writer, batches [][]parquet.Row, codec parquetio.Codec) int64 {
	w := parquetio.NewWriter(out, benchSchema, parquetio.WriterOptions{Codec: codec})
	written := 0
	for i := 0; written < benchRows; i++ {
		batch := batches[i%len(batches)]
		if n := benchRows - written; n < len(batch) {
			batch = batch[:n]
		}
		if err := w.Write(batch); err != nil {
			b.Fatal(err)
		}
		written += len(batch)
	}
	info, err := w.Close()
	if err != nil {
		b.Fatal(err)
	}
	return info.Size
}

// BenchmarkWrite1M writes 1M rows of benchSchema into one file (one writer,
// one goroutine, output discarded as a fast disk would take it); ns/op is
// the time for the whole file.
func BenchmarkWrite1M(b *testing.B) {
	batches := benchBatches(b)
	for _, c := range []struct {
		name  string
		codec parquetio.Codec
	}{{"snappy", parquetio.Snappy}, {"zstd", parquetio.Zstd}} {
		b.Run(c.name, func(b *testing.B) {
			var size int64
			for b.Loop() {
				size = writeBench(b, io.Discard, batches, c.codec)
			}
			b.ReportMetric(float64(size)/1e6, "MB/file")
			b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}

// BenchmarkRead1M reads the 1M-row file back: canonical (fast path), and
// with a partition column added (column-copy path).
func BenchmarkRead1M(b *testing.B) {
	var buf bytes.Buffer
	writeBench(b, &buf, benchBatches(b), parquetio.Snappy)
	data := buf.Bytes()
	withPart := append(types.Schema{field("region", types.StringType)}, benchSchema...)
	for _, c := range []struct {
		name string
		want types.Schema
		pv   map[string]string
	}{{"canonical", benchSchema, nil}, {"partitioned", withPart, map[string]string{"region": "eu"}}} {
		b.Run(c.name, func(b *testing.B) {
			rows := make([]parquet.Row, 1024)
			for b.Loop() {
				r, err := parquetio.Open("bench.parquet", bytes.NewReader(data), int64(len(data)), c.want, c.pv)
				if err != nil {
					b.Fatal(err)
				}
				total := 0
				for {
					n, err := r.ReadRows(rows)
					total += n
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				if total != benchRows {
					b.Fatalf("read %d rows", total)
				}
			}
			b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}

// BenchmarkWrite1MPerWorker runs one writer per worker goroutine (one per
// core: run it with -cpu 2 on a 2-core machine), each writing its own
// 1M-row file concurrently, as a pipeline's workers do; ns/op is the time
// for all files.
func BenchmarkWrite1MPerWorker(b *testing.B) {
	batches := benchBatches(b)
	workers := runtime.NumCPU()
	for b.Loop() {
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				writeBench(b, io.Discard, batches, parquetio.Snappy)
			}()
		}
		wg.Wait()
	}
	b.ReportMetric(float64(workers), "writers")
	b.ReportMetric(float64(benchRows*workers)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
}
