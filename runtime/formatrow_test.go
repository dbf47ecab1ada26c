package runtime

import (
	"reflect"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// A generated row struct and the struct of one of its STRUCT columns.
type formatRowTestRow struct {
	OrderID types.Null[int32]
	Items   []formatRowTestItem
	Where   types.Null[formatRowTestItem]
	Note    string
}

type formatRowTestItem struct {
	SKU types.Null[string]
	Qty int32
}

// TestFormatRowNamesColumns: rows in messages show the spec's column names
// (registered when an update sets up its relations), also inside STRUCT
// columns; structs nobody registered keep their Go field names.
func TestFormatRowNamesColumns(t *testing.T) {
	item := types.StructOf(types.Field{Name: "sku", Type: types.StringType, Nullable: true}, types.Field{Name: "qty", Type: types.IntType})
	table := &Table[formatRowTestRow]{Name: "orders", Codec: RowCodec[formatRowTestRow]{Schema: types.Schema{
		{Name: "order_id", Type: types.IntType, Nullable: true},
		{Name: "items", Type: types.ArrayOf(item, false), Nullable: true},
		{Name: "where", Type: item, Nullable: true},
		{Name: "note", Type: types.StringType},
	}}}
	row := formatRowTestRow{OrderID: types.Null[int32]{V: 7, Valid: true}, Items: []formatRowTestItem{{Qty: 2}}, Note: "x"}
	if got, want := formatRow(&row), `{OrderID: 7, Items: [{SKU: NULL, Qty: 2}], Where: NULL, Note: "x"}`; got != want {
		t.Errorf("before registration: %s, want %s", got, want)
	}
	table.nameColumns()
	if got, want := formatRow(&row), `{order_id: 7, items: [{sku: NULL, qty: 2}], where: NULL, note: "x"}`; got != want {
		t.Errorf("formatRow = %s, want %s", got, want)
	}
	type other struct{ A, B int }
	registerColumns(reflect.TypeFor[other](), types.Schema{{Name: "only_one", Type: types.IntType}})
	if got, want := formatRow(other{1, 2}), `{A: 1, B: 2}`; got != want {
		t.Errorf("a struct whose fields do not match the schema: %s, want %s", got, want)
	}
}

// TestFormatRowDecimals: DECIMAL columns show their value at the column's
// scale, not the unscaled integer the row holds.
func TestFormatRowDecimals(t *testing.T) {
	type row struct {
		Amount types.Null[types.Decimal]
		Total  types.Decimal
		Gone   types.Null[types.Decimal]
	}
	registerColumns(reflect.TypeFor[row](), types.Schema{
		{Name: "amount", Type: types.DecimalOf(10, 2), Nullable: true},
		{Name: "total", Type: types.DecimalOf(38, 4)},
		{Name: "gone", Type: types.DecimalOf(5, 1), Nullable: true},
	})
	r := row{Amount: types.Null[types.Decimal]{V: types.DecimalFromInt64(12345), Valid: true}, Total: types.DecimalFromInt64(-2850000)}
	if got, want := formatRow(&r), `{amount: 123.45, total: -285.0000, gone: NULL}`; got != want {
		t.Errorf("formatRow = %s, want %s", got, want)
	}
}
