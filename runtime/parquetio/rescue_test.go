package parquetio_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// TestRescueValuesThatDoNotFit reads a file whose DECIMAL(10,2) and BIGINT
// values overflow the declared DECIMAL(4,2) and INT: with rescue they are
// NULL and reported by column name; without, the error names the file, the
// row and the column once.
func TestRescueValuesThatDoNotFit(t *testing.T) {
	file := types.Schema{field("id", types.IntType), field("amount", types.DecimalOf(10, 2)), field("big", types.LongType), field("s", types.StringType)}
	data, _ := writeFile(t, file, [][]any{
		{int32(1), dec(1234567890), int64(5_000_000_000), "x"},
		{int32(2), dec(150), int64(7), "y"},
		{int32(3), dec(-99999), int64(-2_147_483_648), nil},
	}, parquetio.WriterOptions{})
	want := types.Schema{field("id", types.IntType), field("amount", types.DecimalOf(4, 2)), field("big", types.IntType), field("s", types.StringType)}

	r, err := parquetio.Open("f.parquet", bytes.NewReader(data), int64(len(data)), want, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.SetRescue(true)
	dec := parquetio.NewDecoder(want)
	buf := make([]parquet.Row, 8)
	n, err := r.ReadRows(buf)
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
	var got []string
	for i, row := range buf[:n] {
		v, err := dec.Decode(row)
		if err != nil {
			t.Fatal(err)
		}
		line := parquetio.FormatRow(v, want)
		for _, rv := range r.RescuedValues(i) {
			line += " | " + rv.Column + "=" + rv.JSON
		}
		got = append(got, line)
	}
	sameRows(t, got, []string{
		"1 | NULL | NULL | x | amount=12345678.90 | big=5000000000",
		"2 | 1.50 | 7 | y",
		"3 | NULL | -2147483648 | NULL | amount=-999.99",
	})

	r, err = parquetio.Open("f.parquet", bytes.NewReader(data), int64(len(data)), want, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.ReadRows(buf)
	const wantErr = `read f.parquet: row 1: column "amount": `
	if err == nil || !strings.HasPrefix(err.Error(), wantErr) || strings.Count(err.Error(), "f.parquet") != 1 {
		t.Errorf("error %v, want prefix %s", err, wantErr)
	}
}
