package source_test

import (
	"bytes"
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

type benchItem struct {
	Sku types.Null[string]
	Qty types.Null[int32]
}

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
	Items       types.Null[[]types.Null[benchItem]]
	Shipping    types.Null[benchShipping]
	RescuedData types.Null[string]
}

// decodeBenchOrders appends the rows of one file to rows.
func decodeBenchOrders(d *source.JSONDecoder, rows []benchOrder, items *source.Slab[types.Null[benchItem]]) ([]benchOrder, error) {
	var scratch []types.Null[benchItem]
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
					scratch = scratch[:0]
					for d.NextElement() {
						var e types.Null[benchItem]
						if d.BeginObject() {
							e.Valid = true
							for d.NextField() {
								switch string(d.Key()) {
								case "sku":
									e.V.Sku = d.String()
								case "qty":
									e.V.Qty = d.Int32()
								default:
									d.Unknown()
								}
							}
						}
						scratch = append(scratch, e)
					}
					r.Items = types.Some(items.Copy(scratch))
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
// schema-specialised decoder above. Generate the data first:
//
//	cd /work/shared/bench/gen && go run . -n 100000 -files 4 -seed 42 -out /tmp/bench-small
func BenchmarkBronzeJSON(b *testing.B) {
	paths, _ := filepath.Glob("/tmp/bench-small/part-*.jsonl")
	if len(paths) == 0 {
		b.Skip("no benchmark data in /tmp/bench-small; see the benchmark's doc comment")
	}
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
	b.SetBytes(total)
	b.ReportAllocs()
	var rows []benchOrder
	for b.Loop() {
		for i, data := range files {
			var items source.Slab[types.Null[benchItem]]
			d := source.NewJSONDecoder(bytes.NewReader(data), source.FileInfo{Path: source.FileURI(paths[i]), LocalPath: paths[i]}, source.Options{})
			var err error
			rows, err = decodeBenchOrders(d, rows[:0], &items)
			if err != nil {
				b.Fatal(err)
			}
			if st := d.Stats(); st.Rescued != 0 || st.Rows != int64(len(rows)) {
				b.Fatalf("stats %+v, %d rows", st, len(rows))
			}
		}
	}
}
