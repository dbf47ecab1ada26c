package parquetio

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/types"
)

// annotated is a group node with a logical type (LIST, MAP) and fields in
// the given order, to build the legacy layouts other writers produce.
type annotated struct {
	group
	typ parquet.Type
}

func (a *annotated) Type() parquet.Type { return a.typ }

func fields(fs ...parquet.Field) []parquet.Field { return fs }

func named(name string, n parquet.Node) parquet.Field { return &field{Node: n, name: name} }

var listType = parquet.List(parquet.Leaf(parquet.Int32Type)).Type()

func v(x parquet.Value, rep, def, col int) parquet.Value { return x.Level(rep, def, col) }

func null(rep, def, col int) parquet.Value { return parquet.NullValue().Level(rep, def, col) }

// TestLegacyLayouts reads files in layouts pipegen never writes but older
// Spark, parquet-avro, Hive and Impala do: 2-level lists, Spark 1.x's
// bag/array naming, unannotated repeated fields, and TIMESTAMP in MILLIS and
// NANOS.
func TestLegacyLayouts(t *testing.T) {
	root := &group{fields: fields(
		// optional group two (LIST) { repeated int32 array; }
		named("two", parquet.Optional(&annotated{group{fields(named("array", parquet.Repeated(parquet.Leaf(parquet.Int32Type))))}, listType})),
		// optional group bag (LIST) { repeated group bag { optional int32 array; } }
		named("bag", parquet.Optional(&annotated{group{fields(named("bag", parquet.Repeated(&group{fields(named("array", parquet.Optional(parquet.Leaf(parquet.Int32Type))))})))}, listType})),
		// repeated int32 rep;
		named("rep", parquet.Repeated(parquet.Leaf(parquet.Int32Type))),
		// optional group st (LIST) { repeated group array { optional int32 a; optional binary b (STRING); } }
		named("st", parquet.Optional(&annotated{group{fields(named("array", parquet.Repeated(&group{fields(
			named("a", parquet.Optional(parquet.Leaf(parquet.Int32Type))),
			named("b", parquet.Optional(parquet.String())))})))}, listType})),
		named("ms", parquet.Optional(parquet.Timestamp(parquet.Millisecond))),
		named("ns", parquet.Optional(parquet.Timestamp(parquet.Nanosecond))),
		named("u8", parquet.Optional(parquet.Uint(8))),
	)}
	rows := []parquet.Row{
		{
			v(parquet.Int32Value(1), 0, 2, 0), v(parquet.Int32Value(2), 1, 2, 0),
			v(parquet.Int32Value(1), 0, 3, 1), null(1, 2, 1),
			v(parquet.Int32Value(5), 0, 1, 2), v(parquet.Int32Value(6), 1, 1, 2),
			v(parquet.Int32Value(1), 0, 3, 3), null(1, 2, 3),
			v(parquet.ByteArrayValue([]byte("x")), 0, 3, 4), v(parquet.ByteArrayValue([]byte("y")), 1, 3, 4),
			v(parquet.Int64Value(1700000000123), 0, 1, 5),
			v(parquet.Int64Value(1700000000123456789), 0, 1, 6),
			v(parquet.Int32Value(255), 0, 1, 7),
		},
		{
			null(0, 1, 0), null(0, 1, 1), null(0, 0, 2), null(0, 1, 3), null(0, 1, 4),
			v(parquet.Int64Value(-1), 0, 1, 5), v(parquet.Int64Value(-1), 0, 1, 6), null(0, 0, 7),
		},
		{
			null(0, 0, 0), null(0, 0, 1), null(0, 0, 2), null(0, 0, 3), null(0, 0, 4), null(0, 0, 5), null(0, 0, 6), null(0, 0, 7),
		},
	}
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, parquet.NewSchema("legacy", root))
	if _, err := w.WriteRows(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	opt := func(name string, t types.Type) types.Field { return types.Field{Name: name, Type: t, Nullable: true} }
	want := types.Schema{
		opt("two", types.ArrayOf(types.IntType, true)),
		opt("bag", types.ArrayOf(types.LongType, true)),
		opt("rep", types.ArrayOf(types.IntType, false)),
		opt("st", types.ArrayOf(types.StructOf(opt("a", types.IntType), opt("b", types.StringType)), true)),
		opt("ms", types.TimestampType),
		opt("ns", types.TimestampType),
		opt("u8", types.ShortType),
	}
	r, err := Open("legacy.parquet", bytes.NewReader(buf.Bytes()), int64(buf.Len()), want, nil)
	if err != nil {
		t.Fatal(err)
	}
	vals, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range vals {
		got = append(got, FormatRow(row, want))
	}
	exp := []string{
		"[1, 2] | [1, NULL] | [5, 6] | [{1, x}, {NULL, y}] | 2023-11-14 22:13:20.123 | 2023-11-14 22:13:20.123456 | 255",
		"[] | [] | [] | [] | 1969-12-31 23:59:59.999 | 1969-12-31 23:59:59.999999 | NULL",
		"NULL | NULL | [] | NULL | NULL | NULL | NULL",
	}
	if !slices.Equal(got, exp) {
		t.Errorf("legacy layouts:\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(exp, "\n  "))
	}
}
