package source_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
)

// The code below is what the generator emits for the benchmark's bronze
// source (/work/shared/bench/README.md):
//
//	order_id STRING, customer_id STRING, amount DOUBLE, currency STRING,
//	event_ts TIMESTAMP, country STRING,
//	items ARRAY<STRUCT<sku: STRING, qty: INT>>,
//	shipping STRUCT<method: STRING, cost: DOUBLE>
//
// with rescued_data_column: _rescued_data.

type benchShipping struct {
	Method types.Null[string]
	Cost   types.Null[float64]
}

type benchOrder struct {
	OrderID     types.Null[string]
	CustomerID  types.Null[string]
	Amount      types.Null[float64]
	Currency    types.Null[string]
	EventTS     types.Null[types.Timestamp]
	Country     types.Null[string]
	Items       types.Null[[]types.Null[Item]] // Item and decodeItems: see example_test.go
	Shipping    types.Null[benchShipping]
	RescuedData types.Null[string]
}

// decodeBenchOrders appends the rows of one file to rows.
func decodeBenchOrders(d *source.JSONDecoder, rows []benchOrder, items *source.Slab[types.Null[Item]]) ([]benchOrder, error) {
	var scratch []types.Null[Item]
	for d.NextRecord() {
		var r benchOrder
		for d.NextField() {
			switch string(d.Key()) {
			case "order_id":
				r.OrderID = d.String()
			case "customer_id":
				r.CustomerID = d.String()
			case "amount":
				r.Amount = d.Float64()
			case "currency":
				r.Currency = d.String()
			case "event_ts":
				r.EventTS = d.Timestamp()
			case "country":
				r.Country = d.String()
			case "items":
				if d.BeginArray() {
					var v []types.Null[Item]
					v, scratch = decodeItems(d, items, scratch)
					r.Items = types.Some(v)
				}
			case "shipping":
				if d.BeginObject() {
					r.Shipping.Valid = true
					for d.NextField() {
						switch string(d.Key()) {
						case "method":
							r.Shipping.V.Method = d.String()
						case "cost":
							r.Shipping.V.Cost = d.Float64()
						default:
							d.Unknown()
						}
					}
				}
			default:
				d.Unknown()
			}
		}
		rescued, malformed := d.EndRecord()
		if malformed {
			r = benchOrder{}
		}
		r.RescuedData = rescued
		rows = append(rows, r)
	}
	return rows, d.Err()
}

// BenchmarkBronzeJSON decodes the benchmark's landing files with the
// schema-specialised decoder above, building the rows of each file as a
// batch would: "memory" from bytes already read, "files" from the open
// files (read(2) included). Generate the data first:
//
//	cd /work/shared/bench/gen && go run . -n 100000 -files 4 -seed 42 -out /tmp/bench-small
//
// Besides wall-time MB/s it reports MB/cpu-s: bytes per CPU-second of the
// whole process (decoder and garbage collector), the per-core figure, which
// a loaded machine does not distort as it distorts wall time.
func BenchmarkBronzeJSON(b *testing.B) {
	paths, _ := filepath.Glob("/tmp/bench-small/part-*.jsonl")
	if len(paths) == 0 {
		b.Skip("no benchmark data in /tmp/bench-small; see the benchmark's doc comment")
	}
	files, total := readFiles(b, paths)
	decode := func(b *testing.B, i int, r io.Reader, rows []benchOrder) []benchOrder {
		var items source.Slab[types.Null[Item]]
		d := source.NewJSONDecoder(r, source.FileInfo{Path: source.FileURI(paths[i]), LocalPath: paths[i]}, source.Options{})
		rows, err := decodeBenchOrders(d, rows[:0], &items)
		if err != nil {
			b.Fatal(err)
		}
		if st := d.Stats(); st.Rescued != 0 || st.Rows != int64(len(rows)) {
			b.Fatalf("stats %+v, %d rows", st, len(rows))
		}
		return rows
	}
	b.Run("memory", func(b *testing.B) {
		measure(b, total, func(rows []benchOrder) []benchOrder {
			for i, data := range files {
				rows = decode(b, i, bytes.NewReader(data), rows)
			}
			return rows
		})
	})
	b.Run("files", func(b *testing.B) {
		measure(b, total, func(rows []benchOrder) []benchOrder {
			for i, p := range paths {
				f, err := os.Open(p)
				if err != nil {
					b.Fatal(err)
				}
				rows = decode(b, i, f, rows)
				f.Close()
			}
			return rows
		})
	})
}

// readFiles returns the contents of the files and their total size.
func readFiles(b *testing.B, paths []string) ([][]byte, int64) {
	var files [][]byte
	var total int64
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		total += int64(len(data))
	}
	return files, total
}

// measure runs one pass over the data per iteration and reports MB/s and
// MB/cpu-s.
func measure[T any](b *testing.B, bytes int64, pass func([]T) []T) {
	b.SetBytes(bytes)
	b.ReportAllocs()
	var rows []T
	cpu0, n := processCPU(), 0
	for b.Loop() {
		rows = pass(rows)
		n++
	}
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(bytes)*float64(n)/cpu/1e6, "MB/cpu-s")
	}
}

type retailRow struct {
	InvoiceNo, StockCode, Description types.Null[string]
	Quantity                          types.Null[int32]
	InvoiceDate                       types.Null[types.Timestamp]
	UnitPrice, CustomerID             types.Null[float64]
	Country                           types.Null[string]
	RescuedData                       types.Null[string]
}

// BenchmarkRetailCSV decodes the online_retail test files with the decoder
// the generator emits for their schema.
func BenchmarkRetailCSV(b *testing.B) {
	paths, _ := filepath.Glob("testdata/online_retail/*.csv")
	files, total := readFiles(b, paths)
	columns := []string{"InvoiceNo", "StockCode", "Description", "Quantity", "InvoiceDate", "UnitPrice", "CustomerID", "Country"}
	measure(b, total, func(rows []retailRow) []retailRow {
		for i, data := range files {
			d := source.NewCSVDecoder(bytes.NewReader(data), source.FileInfo{Path: source.FileURI(paths[i])}, columns, source.DefaultCSVOptions())
			rows = rows[:0]
			for d.NextRecord() {
				r := retailRow{
					InvoiceNo: d.String(0), StockCode: d.String(1), Description: d.String(2),
					Quantity: d.Int32(3), InvoiceDate: d.Timestamp(4), UnitPrice: d.Float64(5),
					CustomerID: d.Float64(6), Country: d.String(7),
				}
				rescued, malformed := d.EndRecord()
				if malformed {
					r = retailRow{}
				}
				r.RescuedData = rescued
				rows = append(rows, r)
			}
			if d.Err() != nil || d.Stats().Rescued != 0 {
				b.Fatal(d.Err(), d.Stats())
			}
		}
		return rows
	})
}
