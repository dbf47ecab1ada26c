package parquetio_test

import (
	"bytes"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// TestTimestampAnnotations: TIMESTAMP is TIMESTAMP(MICROS, UTC) with the
// legacy TIMESTAMP_MICROS converted type, as Spark writes it; TIMESTAMP_NTZ
// has isAdjustedToUTC=false and no converted type, since TIMESTAMP_MICROS
// means adjusted to UTC (Parquet's LogicalTypes.md), and still reads back.
func TestTimestampAnnotations(t *testing.T) {
	s := types.Schema{
		{Name: "utc", Type: types.TimestampType, Nullable: true},
		{Name: "local", Type: types.TimestampNTZType, Nullable: false},
		{Name: "nested", Type: types.StructOf(types.Field{Name: "at", Type: types.TimestampNTZType, Nullable: true}), Nullable: true},
	}
	data, _ := writeFile(t, s, [][]any{{types.Timestamp(1), types.Timestamp(2), parquetio.Struct{types.Timestamp(3)}}}, parquetio.WriterOptions{})
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, el := range f.Metadata().Schema {
		ts, ok := el.LogicalType.Value.(*format.TimestampType)
		if !ok {
			continue
		}
		utc := ts.IsAdjustedToUTC
		switch el.Name {
		case "utc":
			if !utc || !el.ConvertedType.Valid {
				t.Errorf("TIMESTAMP column: isAdjustedToUTC=%v, converted type %v; want true and TIMESTAMP_MICROS", utc, el.ConvertedType)
			}
		case "local", "at":
			if utc || el.ConvertedType.Valid {
				t.Errorf("TIMESTAMP_NTZ column %s: isAdjustedToUTC=%v, converted type %v; want false and none", el.Name, utc, el.ConvertedType.V)
			}
		default:
			t.Errorf("unexpected timestamp column %s", el.Name)
		}
	}
	r, err := parquetio.Open("t.parquet", bytes.NewReader(data), int64(len(data)), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rows := make([]parquet.Row, 1)
	if n, _ := r.ReadRows(rows); n != 1 {
		t.Fatalf("read %d rows", n)
	}
	got, err := parquetio.Decode(rows[0], s)
	if err != nil {
		t.Fatal(err)
	}
	if parquetio.FormatRow(got, s) != parquetio.FormatRow([]any{types.Timestamp(1), types.Timestamp(2), parquetio.Struct{types.Timestamp(3)}}, s) {
		t.Errorf("read back %v", got)
	}
}
