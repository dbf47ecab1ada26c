package source_test

import (
	"fmt"
	"strings"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
)

// The generated code of the package doc's worked examples, run on small
// inputs.

type Item struct {
	Sku types.Null[string]
	Qty types.Null[int32]
}

type Addr struct{ City types.Null[string] }

type Ship struct {
	Method types.Null[string]
	Addr   types.Null[Addr]
}

type Row struct {
	ID          types.Null[string]
	TS          types.Null[types.Timestamp]
	Items       types.Null[[]types.Null[Item]]
	Ship        types.Null[Ship]
	RescuedData types.Null[string]
}

func decodeShip(d *source.JSONDecoder, s *Ship) {
	for d.NextField() {
		switch string(d.Key()) {
		case "method":
			s.Method = d.String()
		case "addr":
			if d.BeginObject() {
				s.Addr.Valid = true
				for d.NextField() {
					switch string(d.Key()) {
					case "city":
						s.Addr.V.City = d.String()
					default:
						d.Unknown()
					}
				}
			}
		default:
			d.Unknown()
		}
	}
}

func decodeItems(d *source.JSONDecoder, slab *source.Slab[types.Null[Item]], scratch []types.Null[Item]) ([]types.Null[Item], []types.Null[Item]) {
	scratch = scratch[:0]
	for d.NextElement() {
		var e types.Null[Item]
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
	return slab.Copy(scratch), scratch
}

func Example_generatedJSONDecoder() {
	input := `{"id":"o-1","ts":"2024-03-01T12:34:56.789Z","items":[{"sku":"A","qty":2},{"sku":"B","qty":"lots"}],"ship":{"method":"express","addr":{"city":"Lyon"}}}
{"id":"o-2","ts":null,"items":[],"ship":null,"coupon":"X1"}

{"id":"o-3",
`
	f := source.FileInfo{Path: "file:/landing/orders/part-1.json", Name: "part-1.json", LocalPath: "/landing/orders/part-1.json"}
	d := source.NewJSONDecoder(strings.NewReader(input), f, source.Options{})
	var slab source.Slab[types.Null[Item]]
	var scratch []types.Null[Item]
	var rows []Row
	for d.NextRecord() {
		var r Row
		for d.NextField() {
			switch string(d.Key()) {
			case "id":
				r.ID = d.String()
			case "ts":
				r.TS = d.Timestamp()
			case "items":
				if d.BeginArray() {
					var items []types.Null[Item]
					items, scratch = decodeItems(d, &slab, scratch)
					r.Items = types.Some(items)
				}
			case "ship":
				if d.BeginObject() {
					r.Ship.Valid = true
					decodeShip(d, &r.Ship.V)
				}
			default:
				d.Unknown()
			}
		}
		rescued, malformed := d.EndRecord()
		if malformed {
			r = Row{}
		}
		r.RescuedData = rescued
		rows = append(rows, r)
	}
	if err := d.Err(); err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		items := "NULL"
		if r.Items.Valid {
			items = "["
			for _, it := range r.Items.V {
				items += fmt.Sprintf("{%s %s}", show(it.V.Sku), show(it.V.Qty))
			}
			items += "]"
		}
		ship := "NULL"
		if r.Ship.Valid {
			ship = fmt.Sprintf("{%s {%s}}", show(r.Ship.V.Method), show(r.Ship.V.Addr.V.City))
		}
		fmt.Printf("id=%s ts=%s items=%s ship=%s\n  rescued=%s\n", show(r.ID), show(r.TS), items, ship, show(r.RescuedData))
	}
	fmt.Printf("%+v\n", d.Stats())
	// Output:
	// id=o-1 ts=2024-03-01 12:34:56.789 items=[{A 2}{B NULL}] ship={express {Lyon}}
	//   rescued={"items":[{"sku":"A","qty":2},{"sku":"B","qty":"lots"}],"_file_path":"file:/landing/orders/part-1.json"}
	// id=o-2 ts=NULL items=[] ship=NULL
	//   rescued={"coupon":"X1","_file_path":"file:/landing/orders/part-1.json"}
	// id=NULL ts=NULL items=NULL ship=NULL
	//   rescued={"id":"o-3",
	// {Rows:3 Rescued:3 Malformed:1}
}

// show prints a nullable value as SQL shows it.
func show[T any](v types.Null[T]) string {
	if !v.Valid {
		return "NULL"
	}
	return fmt.Sprint(v.V)
}

type CSVRow struct {
	ID          types.Null[string]
	TS          types.Null[types.Timestamp]
	Amount      types.Null[types.Decimal]
	RescuedData types.Null[string]
}

func Example_generatedCSVDecoder() {
	input := "ID;ts;amount;note\r\n" +
		"o-1;2024-03-01 12:34:56;\"1,234.565\";first\r\n" +
		"\"o;2\";;12x;\r\n" +
		"o-3;2024-03-01\r\n"
	f := source.FileInfo{Path: "file:/landing/orders/day-1.csv", Name: "day-1.csv", LocalPath: "/landing/orders/day-1.csv"}
	opts := source.DefaultCSVOptions()
	opts.Delimiter = ';'
	d := source.NewCSVDecoder(strings.NewReader(input), f, []string{"id", "ts", "amount"}, opts)
	for d.NextRecord() {
		r := CSVRow{ID: d.String(0), TS: d.Timestamp(1), Amount: d.Decimal(2, 12, 2)}
		rescued, malformed := d.EndRecord()
		if malformed {
			r = CSVRow{}
		}
		r.RescuedData = rescued
		amount := "NULL"
		if r.Amount.Valid {
			amount = fmt.Sprintf("%d (unscaled, scale 2)", r.Amount.V.Int64())
		}
		fmt.Printf("id=%s ts=%s amount=%s\n  rescued=%s\n", show(r.ID), show(r.TS), amount, show(r.RescuedData))
	}
	fmt.Printf("%+v %v\n", d.Stats(), d.Err())
	// Output:
	// id=o-1 ts=2024-03-01 12:34:56 amount=123457 (unscaled, scale 2)
	//   rescued={"note":"first","_file_path":"file:/landing/orders/day-1.csv"}
	// id=o;2 ts=NULL amount=NULL
	//   rescued={"amount":"12x","_file_path":"file:/landing/orders/day-1.csv"}
	// id=NULL ts=NULL amount=NULL
	//   rescued=o-3;2024-03-01
	// {Rows:3 Rescued:3 Malformed:1} <nil>
}
