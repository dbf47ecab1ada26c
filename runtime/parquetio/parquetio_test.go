package parquetio_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

func field(name string, t types.Type) types.Field {
	return types.Field{Name: name, Type: t, Nullable: true}
}

func notNull(name string, t types.Type) types.Field {
	return types.Field{Name: name, Type: t}
}

func ts(s string) types.Timestamp {
	tm, err := time.Parse("2006-01-02 15:04:05.999999", s)
	if err != nil {
		panic(err)
	}
	return types.TimestampOf(tm)
}

func date(s string) types.Date {
	tm, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return types.DateOf(tm)
}

func dec(v int64) types.Decimal { return types.DecimalFromInt64(v) }

// allTypes is a schema with every type pipegen stores, nested ones included.
var allTypes = types.Schema{
	notNull("id", types.LongType),
	field("b", types.BooleanType),
	field("i8", types.ByteType),
	field("i16", types.ShortType),
	field("i32", types.IntType),
	field("f32", types.FloatType),
	field("f64", types.DoubleType),
	field("d9", types.DecimalOf(9, 2)),
	field("d18", types.DecimalOf(18, 4)),
	field("d38", types.DecimalOf(38, 10)),
	field("s", types.StringType),
	field("bin", types.BinaryType),
	field("day", types.DateType),
	field("at", types.TimestampType),
	field("tags", types.ArrayOf(types.StringType, true)),
	field("items", types.ArrayOf(types.StructOf(field("sku", types.StringType), notNull("qty", types.IntType)), true)),
	field("attrs", types.MapOf(types.StringType, types.LongType, true)),
	field("addr", types.StructOf(field("city", types.StringType), field("geo", types.StructOf(field("lat", types.DoubleType), field("lon", types.DoubleType))))),
}

func allTypesRows() [][]any {
	big, _ := new(bytesDecimal).parse("-12345678901234567890123456789")
	return [][]any{
		{int64(1), true, int8(-8), int16(300), int32(7), float32(1.5), 2.25, dec(12345), dec(-99990000), big,
			"héllo", []byte{0, 1, 0xff}, date("2024-03-01"), ts("2024-03-01 12:34:56.789"),
			[]any{"a", nil, "c"}, []any{parquetio.Struct{"x", int32(1)}, nil, parquetio.Struct{nil, int32(2)}},
			[]parquetio.MapEntry{{Key: "k1", Value: int64(1)}, {Key: "k2", Value: nil}},
			parquetio.Struct{"Paris", parquetio.Struct{48.85, 2.35}}},
		{int64(2), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		{int64(3), false, int8(127), int16(-32768), int32(-2147483648), float32(-0.5), 1e10, dec(-1), dec(1), dec(0),
			"", []byte{}, date("1969-12-31"), ts("1969-12-31 23:59:59.999999"),
			[]any{}, []any{}, []parquetio.MapEntry{}, parquetio.Struct{nil, nil}},
		{int64(4), true, int8(0), int16(0), int32(0), float32(3), 0.001, dec(999999999), dec(999999999999999999), dec(1),
			strings.Repeat("x", 40), nil, date("2000-02-29"), ts("2000-02-29 00:00:00"),
			[]any{nil}, []any{nil}, []parquetio.MapEntry{{Key: "only", Value: int64(-5)}}, parquetio.Struct{"Oslo", nil}},
	}
}

// bytesDecimal parses big decimal literals for test values.
type bytesDecimal struct{}

func (bytesDecimal) parse(s string) (types.Decimal, error) {
	v, err := parquetio.ParsePartitionValue(s, types.DecimalOf(38, 0))
	if err != nil {
		return types.Decimal{}, err
	}
	return v.(types.Decimal), nil
}

func writeFile(t *testing.T, s types.Schema, rows [][]any, opts parquetio.WriterOptions) ([]byte, parquetio.FileInfo) {
	t.Helper()
	var buf bytes.Buffer
	w := parquetio.NewWriter(&buf, s, opts)
	enc := parquetio.NewEncoder(s)
	var prows []parquet.Row
	for _, r := range rows {
		row, err := enc.Append(nil, r)
		if err != nil {
			t.Fatalf("encode %v: %v", r, err)
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
	if info.Size != int64(buf.Len()) {
		t.Fatalf("FileInfo.Size = %d, wrote %d bytes", info.Size, buf.Len())
	}
	return buf.Bytes(), info
}

// readRows reads a file as want and returns its rows in FormatRow form.
func readRows(t *testing.T, name string, data []byte, want types.Schema, pv map[string]string) []string {
	t.Helper()
	r, err := parquetio.Open(name, bytes.NewReader(data), int64(len(data)), want, pv)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, row := range rows {
		out = append(out, parquetio.FormatRow(row, want))
	}
	return out
}

func formatAll(rows [][]any, s types.Schema) []string {
	var out []string
	for _, r := range rows {
		out = append(out, parquetio.FormatRow(r, s))
	}
	return out
}

func sameRows(t *testing.T, got, want []string) {
	t.Helper()
	got, want = slices.Clone(got), slices.Clone(want)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("rows differ\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestRoundTripAllTypes(t *testing.T) {
	rows := allTypesRows()
	for _, codec := range []parquetio.Codec{parquetio.Snappy, parquetio.Zstd, parquetio.Uncompressed} {
		data, info := writeFile(t, allTypes, rows, parquetio.WriterOptions{Codec: codec, RowGroupRows: 3})
		if info.NumRecords != 4 {
			t.Errorf("NumRecords = %d", info.NumRecords)
		}
		sameRows(t, readRows(t, "all.parquet", data, allTypes, nil), formatAll(rows, allTypes))
	}
}

func TestFormatSparkShow(t *testing.T) {
	rows := allTypesRows()
	got := formatAll(rows, allTypes)
	want := []string{
		"1 | true | -8 | 300 | 7 | 1.5 | 2.25 | 123.45 | -9999.0000 | -1234567890123456789.0123456789 | héllo | [00 01 FF] | 2024-03-01 | 2024-03-01 12:34:56.789 | [a, NULL, c] | [{x, 1}, NULL, {NULL, 2}] | {k1 -> 1, k2 -> NULL} | {Paris, {48.85, 2.35}}",
		"2 | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL",
		"3 | false | 127 | -32768 | -2147483648 | -0.5 | 1.0E10 | -0.01 | 0.0001 | 0.0000000000 |  | [] | 1969-12-31 | 1969-12-31 23:59:59.999999 | [] | [] | {} | {NULL, NULL}",
		"4 | true | 0 | 0 | 0 | 3.0 | 0.001 | 9999999.99 | 99999999999999.9999 | 0.0000000001 | " + strings.Repeat("x", 40) + " | NULL | 2000-02-29 | 2000-02-29 00:00:00 | [NULL] | [NULL] | {only -> -5} | {Oslo, NULL}",
	}
	if !slices.Equal(got, want) {
		t.Errorf("FormatRow:\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	j := parquetio.RowJSON(rows[0], allTypes)
	wantJSON := `{"id":1,"b":true,"i8":-8,"i16":300,"i32":7,"f32":1.5,"f64":2.25,"d9":123.45,"d18":-9999.0000,"d38":-1234567890123456789.0123456789,"s":"héllo","bin":"AAH/","day":"2024-03-01","at":"2024-03-01T12:34:56.789Z","tags":["a",null,"c"],"items":[{"sku":"x","qty":1},null,{"qty":2}],"attrs":{"k1":1,"k2":null},"addr":{"city":"Paris","geo":{"lat":48.85,"lon":2.35}}}`
	if j != wantJSON {
		t.Errorf("RowJSON:\n got %s\nwant %s", j, wantJSON)
	}
}

// TestRowJSONStrings checks that strings are written as Spark's JSON
// writer (Jackson) writes them: <, > and & as they are, control
// characters escaped.
func TestRowJSONStrings(t *testing.T) {
	s := types.Schema{field("s", types.StringType)}
	if got, want := parquetio.RowJSON([]any{"<a & b>\t\x01"}, s), `{"s":"<a & b>\t\u0001"}`; got != want {
		t.Errorf("RowJSON = %s, want %s", got, want)
	}
}

func TestStats(t *testing.T) {
	_, info := writeFile(t, allTypes, allTypesRows(), parquetio.WriterOptions{})
	want := `{"numRecords":4,` +
		`"minValues":{"id":1,"i8":-8,"i16":-32768,"i32":-2147483648,"d9":-0.01,"d18":-9999.0000,"d38":-1234567890123456789.0123456789,"s":"","day":"1969-12-31","at":"1969-12-31T23:59:59.999Z","addr":{"city":"Oslo"}},` +
		// The 40-character string's max is its 32-character prefix and
		// Delta's tie-breaker DEL.
		`"maxValues":{"id":4,"i8":127,"i16":300,"i32":7,"d9":9999999.99,"d18":99999999999999.9999,"d38":0.0000000001,"s":"` + strings.Repeat("x", 32) + "\x7f" + `","day":"2024-03-01","at":"2024-03-01T12:34:56.789Z","addr":{"city":"Paris"}},` +
		`"nullCount":{"id":0,"b":1,"i8":1,"i16":1,"i32":1,"f32":1,"f64":1,"d9":1,"d18":1,"d38":1,"s":1,"bin":2,"day":1,"at":1,"addr":{"city":2,"geo":{"lat":3,"lon":3}}}}`
	if info.Stats != want {
		t.Errorf("stats:\n got %s\nwant %s", info.Stats, want)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(info.Stats), &v); err != nil {
		t.Errorf("stats are not JSON: %v", err)
	}
}

func TestLeaves(t *testing.T) {
	s := types.Schema{
		notNull("id", types.LongType),
		field("items", types.ArrayOf(types.StructOf(field("sku", types.StringType), notNull("qty", types.IntType)), true)),
		field("m", types.MapOf(types.StringType, types.ArrayOf(types.IntType, false), true)),
	}
	var got []string
	for _, l := range parquetio.Leaves(s) {
		got = append(got, strings.Join(l.Path, ".")+" "+l.Physical.String()+" def="+itoa(l.MaxDef)+" rep="+itoa(l.MaxRep)+" defs="+fmt.Sprint(l.Defs))
	}
	want := []string{
		"id INT64 def=0 rep=0 defs=[0]",
		"items.list.element.sku BYTE_ARRAY def=4 rep=1 defs=[1 2 3 4]",
		"items.list.element.qty INT32 def=3 rep=1 defs=[1 2 3 3]",
		"m.key_value.key BYTE_ARRAY def=2 rep=1 defs=[1 2 2]",
		"m.key_value.value.list.element INT32 def=4 rep=2 defs=[1 2 3 4 4]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("leaves:\n got %q\nwant %q", got, want)
	}
	ps := parquetio.SchemaFor(s).String()
	for _, part := range []string{"required int64 id", "optional group items (LIST)", "repeated group list", "optional group element", "optional binary sku (STRING)", "required int32 qty", "optional group m (MAP)", "repeated group key_value", "required binary key (STRING)"} {
		if !strings.Contains(ps, part) {
			t.Errorf("SchemaFor lacks %q:\n%s", part, ps)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestSchemaEvolutionAndPartitions(t *testing.T) {
	old := types.Schema{field("id", types.IntType), field("name", types.StringType), field("extra", types.DoubleType),
		field("st", types.StructOf(field("a", types.IntType)))}
	rows := [][]any{{int32(1), "a", 1.0, parquetio.Struct{int32(10)}}, {int32(2), nil, nil, nil}}
	data, _ := writeFile(t, old, rows, parquetio.WriterOptions{})
	// Widened id, reordered, new top-level and nested columns, a partition
	// column, extra column dropped.
	want := types.Schema{
		field("NAME", types.StringType),
		field("id", types.LongType),
		field("added", types.ArrayOf(types.IntType, true)),
		field("st", types.StructOf(field("a", types.LongType), field("b", types.StringType))),
		field("day", types.DateType),
	}
	got := readRows(t, "old.parquet", data, want, map[string]string{"day": "2024-01-31"})
	sameRows(t, got, []string{
		"a | 1 | NULL | {10, NULL} | 2024-01-31",
		"NULL | 2 | NULL | NULL | 2024-01-31",
	})
	// Top-level changes only: the column-copy path.
	want2 := types.Schema{field("id", types.LongType), field("p", types.IntType), field("name", types.StringType), field("gone", types.StringType)}
	got = readRows(t, "old.parquet", data, want2, map[string]string{"p": ""})
	sameRows(t, got, []string{"1 | NULL | a | NULL", "2 | NULL | NULL | NULL"})
	// A NOT NULL column missing from the file is an error naming file and column.
	_, err := parquetio.Open("old.parquet", bytes.NewReader(data), int64(len(data)), types.Schema{notNull("nope", types.IntType)}, nil)
	if err == nil || !strings.Contains(err.Error(), "old.parquet") || !strings.Contains(err.Error(), "nope") {
		t.Errorf("missing NOT NULL column: err = %v", err)
	}
	// Incompatible types are an error naming the column.
	_, err = parquetio.Open("old.parquet", bytes.NewReader(data), int64(len(data)), types.Schema{field("name", types.IntType)}, nil)
	if err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("STRING read as INT: err = %v", err)
	}
}

func TestPartitionValueParsing(t *testing.T) {
	cases := []struct {
		s    string
		t    types.Type
		want string
	}{
		{"42", types.ByteType, "42"},
		{"-7", types.LongType, "-7"},
		{"true", types.BooleanType, "true"},
		{"1.5", types.DoubleType, "1.5"},
		{"12.3", types.DecimalOf(5, 2), "12.30"},
		{"2021-09-08", types.DateType, "2021-09-08"},
		{"2021-09-08 11:11:11", types.TimestampType, "2021-09-08 11:11:11"},
		{"2021-09-08T11:11:11.5Z", types.TimestampType, "2021-09-08 11:11:11.5"},
		{"a/b%c", types.StringType, "a/b%c"},
		{"", types.IntType, "NULL"},
	}
	for _, c := range cases {
		v, err := parquetio.ParsePartitionValue(c.s, c.t)
		if err != nil {
			t.Errorf("%q as %s: %v", c.s, c.t, err)
			continue
		}
		if got := parquetio.FormatValue(v, c.t); got != c.want {
			t.Errorf("%q as %s = %s, want %s", c.s, c.t, got, c.want)
		}
	}
	if _, err := parquetio.ParsePartitionValue("x", types.IntType); err == nil {
		t.Error("invalid INT partition value accepted")
	}
}

// testingFile reads a file of testdata/parquet_testing as want.
func testingFile(t *testing.T, name string, want types.Schema) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "parquet_testing", name))
	if err != nil {
		t.Fatal(err)
	}
	return readRows(t, name, data, want, nil)
}

// The expected values below are the ones DuckDB 1.5 (an independent Parquet
// reader) returns for these files, transcribed into FormatRow's form.

var alltypes = types.Schema{
	field("id", types.IntType), field("bool_col", types.BooleanType), field("tinyint_col", types.ByteType),
	field("smallint_col", types.ShortType), field("int_col", types.IntType), field("bigint_col", types.LongType),
	field("float_col", types.FloatType), field("double_col", types.DoubleType), field("date_string_col", types.StringType),
	field("string_col", types.StringType), field("timestamp_col", types.TimestampType),
}

func alltypesRow(id int) string {
	odd := id % 2
	day := map[int]string{0: "01", 1: "01", 2: "02", 3: "02", 4: "03", 5: "03", 6: "04", 7: "04"}[id]
	vals := []string{itoa(id), map[int]string{0: "true", 1: "false"}[odd], itoa(odd), itoa(odd), itoa(odd),
		map[int]string{0: "0", 1: "10"}[odd], map[int]string{0: "0.0", 1: "1.1"}[odd], map[int]string{0: "0.0", 1: "10.1"}[odd],
		day + "/01/09", itoa(odd), "2009-" + day + "-01 00:0" + itoa(odd) + ":00"}
	return strings.Join(vals, " | ")
}

func TestParquetTestingAllTypes(t *testing.T) {
	var all []string
	for id := 0; id < 8; id++ {
		all = append(all, alltypesRow(id))
	}
	sameRows(t, testingFile(t, "alltypes_plain.parquet", alltypes), all)
	sameRows(t, testingFile(t, "alltypes_plain.snappy.parquet", alltypes), all[6:8])
	sameRows(t, testingFile(t, "alltypes_dictionary.parquet", alltypes), all[0:2])
	// INT96 read as TIMESTAMP, BIGINT read as DOUBLE, INT read as BIGINT.
	widened := types.Schema{field("id", types.LongType), field("bigint_col", types.DoubleType), field("timestamp_col", types.TimestampType)}
	sameRows(t, testingFile(t, "alltypes_dictionary.parquet", widened), []string{"0 | 0.0 | 2009-01-01 00:00:00", "1 | 10.0 | 2009-01-01 00:01:00"})
}

func TestParquetTestingTinyPages(t *testing.T) {
	want := append(slices.Clone(alltypes), field("year", types.IntType), field("month", types.IntType))
	data, err := os.ReadFile("testdata/parquet_testing/alltypes_tiny_pages_plain.parquet")
	if err != nil {
		t.Fatal(err)
	}
	r, err := parquetio.Open("alltypes_tiny_pages_plain.parquet", bytes.NewReader(data), int64(len(data)), want, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// Aggregates as DuckDB computes them on the same file.
	var sumID, sumTiny, sumTS int64
	minTS, maxTS := types.Timestamp(1<<62), types.Timestamp(-1<<62)
	dates := map[string]bool{}
	for _, row := range rows {
		sumID += int64(row[0].(int32))
		sumTiny += int64(row[2].(int8))
		at := row[10].(types.Timestamp)
		sumTS += int64(at)
		minTS, maxTS = min(minTS, at), max(maxTS, at)
		dates[row[8].(string)] = true
	}
	got := []any{len(rows), sumID, sumTiny, minTS.String(), maxTS.String(), len(dates), sumTS}
	exp := []any{7300, int64(26641350), int64(32850), "2008-12-31 23:00:00", "2010-12-31 04:09:13.86", 730, int64(9214528036496520000)}
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("aggregates = %v, want %v", got, exp)
	}
	first := parquetio.FormatRow(rows[0], want)
	if first != "122 | true | 2 | 2 | 2 | 20 | 2.2 | 20.2 | 01/13/09 | 2 | 2009-01-13 01:02:05.41 | 2009 | 1" {
		t.Errorf("row 122 = %s", first)
	}
}

func TestParquetTestingDecimals(t *testing.T) {
	for _, c := range []struct {
		file string
		typ  types.Type
	}{
		{"int32_decimal.parquet", types.DecimalOf(4, 2)},
		{"int64_decimal.parquet", types.DecimalOf(10, 2)},
		{"byte_array_decimal.parquet", types.DecimalOf(4, 2)},
		{"fixed_length_decimal.parquet", types.DecimalOf(25, 2)},
	} {
		var want, wantWide []string
		for i := 1; i <= 24; i++ {
			want = append(want, itoa(i)+".00")
			wantWide = append(wantWide, itoa(i)+".0000")
		}
		sameRows(t, testingFile(t, c.file, types.Schema{field("value", c.typ)}), want)
		// Any physical decimal read as a wider canonical one.
		sameRows(t, testingFile(t, c.file, types.Schema{field("value", types.DecimalOf(30, 4))}), wantWide)
		sameRows(t, testingFile(t, c.file, types.Schema{field("value", types.DecimalOf(12, 4))}), wantWide)
	}
}

func TestParquetTestingInt96(t *testing.T) {
	// Microseconds since the epoch as DuckDB's epoch_us returns them.
	want := types.Schema{field("a", types.TimestampType)}
	data, _ := os.ReadFile("testdata/parquet_testing/int96_from_spark.parquet")
	r, err := parquetio.Open("int96_from_spark.parquet", bytes.NewReader(data), int64(len(data)), want, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	for _, row := range rows {
		if row[0] == nil {
			got = append(got, nil)
			continue
		}
		got = append(got, int64(row[0].(types.Timestamp)))
	}
	exp := []any{int64(1704141296123456), int64(1704070800000000), int64(253402225200000000), int64(1735599600000000), nil, int64(-7207070780300583936)}
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("int96 = %v, want %v", got, exp)
	}
}

func TestParquetTestingFlat(t *testing.T) {
	sameRows(t, testingFile(t, "datapage_v2.snappy.parquet", types.Schema{
		field("a", types.StringType), field("b", types.IntType), field("c", types.DoubleType), field("d", types.BooleanType),
		field("e", types.ArrayOf(types.IntType, true)),
	}), []string{
		"abc | 1 | 2.0 | true | [1, 2, 3]",
		"abc | 2 | 3.0 | true | NULL",
		"abc | 3 | 4.0 | true | NULL",
		"NULL | 4 | 5.0 | false | [1, 2, 3]",
		"abc | 5 | 2.0 | true | [1, 2]",
	})
	sameRows(t, testingFile(t, "lz4_raw_compressed.parquet", types.Schema{
		field("c0", types.LongType), field("c1", types.StringType), field("v11", types.DoubleType),
	}), []string{
		"1593604800 | abc | 42.0", "1593604800 | def | 7.7", "1593604801 | abc | 42.125", "1593604801 | def | 7.7",
	})
	sameRows(t, testingFile(t, "nulls.snappy.parquet", types.Schema{
		field("b_struct", types.StructOf(field("b_c_int", types.IntType))),
	}), slices.Repeat([]string{"{NULL}"}, 8))
	// byte_stream_split: the first rows and sums as DuckDB reads them.
	bss := types.Schema{field("f32", types.FloatType), field("f64", types.DoubleType)}
	data, _ := os.ReadFile("testdata/parquet_testing/byte_stream_split.zstd.parquet")
	r, err := parquetio.Open("bss", bytes.NewReader(data), int64(len(data)), bss, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 300 {
		t.Fatalf("byte_stream_split: %d rows", len(rows))
	}
	if rows[0][0].(float32) != 1.764052391052246 || rows[0][1].(float64) != -1.3065268517353166 || rows[2][1].(float64) != -0.11816404512856976 {
		t.Errorf("byte_stream_split first rows: %v %v", rows[0], rows[2])
	}
	var s32, s64 float64
	for _, row := range rows {
		s32 += float64(row[0].(float32))
		s64 += row[1].(float64)
	}
	if d := s32 - 8.258872919715941; d > 1e-9 || d < -1e-9 {
		t.Errorf("sum(f32) = %v", s32)
	}
	if d := s64 - -41.22919022747558; d > 1e-9 || d < -1e-9 {
		t.Errorf("sum(f64) = %v", s64)
	}
}

func TestParquetTestingDeltaEncodingCSV(t *testing.T) {
	csvData, err := os.ReadFile("testdata/parquet_testing/delta_encoding_optional_column_expect.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(csvData)), "\n")
	var header []string
	for _, h := range strings.Split(lines[0], ",") {
		header = append(header, strings.TrimSpace(strings.Trim(strings.TrimSpace(h), `"`)))
	}
	var want types.Schema
	for i, h := range header {
		if i < 9 {
			want = append(want, field(h, types.LongType))
		} else {
			want = append(want, field(h, types.StringType))
		}
	}
	var exp []string
	for _, l := range lines[1:] {
		var vals []string
		for _, v := range splitCSV(l) {
			if v == "" {
				v = "NULL"
			}
			vals = append(vals, v)
		}
		exp = append(exp, strings.Join(vals, " | "))
	}
	got := testingFile(t, "delta_encoding_optional_column.parquet", want)
	if len(got) != 100 {
		t.Fatalf("%d rows", len(got))
	}
	sameRows(t, got, exp)
}

// splitCSV splits one CSV line whose fields are all quoted (or empty).
func splitCSV(line string) []string {
	var out []string
	for len(line) > 0 || strings.HasSuffix(line, ",") {
		if strings.HasPrefix(line, `"`) {
			end := strings.Index(line[1:], `"`)
			out = append(out, line[1:1+end])
			line = line[2+end:]
		} else {
			end := strings.IndexByte(line, ',')
			if end < 0 {
				end = len(line)
			}
			out = append(out, line[:end])
			line = line[end:]
		}
		if !strings.HasPrefix(line, ",") {
			break
		}
		line = line[1:]
		if line == "" {
			out = append(out, "")
		}
	}
	return out
}

// jsonRows reads a file as want and returns its rows as JSON values with
// NULL object fields left out, for comparison with DuckDB's to_json.
func jsonEqual(t *testing.T, name string, want types.Schema, duck []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "parquet_testing", name))
	if err != nil {
		t.Fatal(err)
	}
	r, err := parquetio.Open(name, bytes.NewReader(data), int64(len(data)), want, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(duck) {
		t.Fatalf("%s: %d rows, want %d", name, len(rows), len(duck))
	}
	for i, row := range rows {
		var got, exp any
		js := parquetio.RowJSON(row, want)
		if err := json.Unmarshal([]byte(js), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(duck[i]), &exp); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(dropNulls(got), dropNulls(exp)) {
			t.Errorf("%s row %d:\n got %s\nwant %s", name, i, js, duck[i])
		}
	}
}

func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
			} else {
				v[k] = dropNulls(x)
			}
		}
	case []any:
		for i := range v {
			v[i] = dropNulls(v[i])
		}
	}
	return v
}

func TestParquetTestingNested(t *testing.T) {
	jsonEqual(t, "list_columns.parquet", types.Schema{
		field("int64_list", types.ArrayOf(types.LongType, true)), field("utf8_list", types.ArrayOf(types.StringType, true)),
	}, []string{
		`{"int64_list":[1,2,3],"utf8_list":["abc","efg","hij"]}`,
		`{"int64_list":[null,1],"utf8_list":null}`,
		`{"int64_list":[4],"utf8_list":["efg",null,"hij","xyz"]}`,
	})
	jsonEqual(t, "nested_lists.snappy.parquet", types.Schema{
		field("a", types.ArrayOf(types.ArrayOf(types.ArrayOf(types.StringType, true), true), true)), notNull("b", types.IntType),
	}, []string{
		`{"a":[[["a","b"],["c"]],[null,["d"]]],"b":1}`,
		`{"a":[[["a","b"],["c","d"]],[null,["e"]]],"b":1}`,
		`{"a":[[["a","b"],["c","d"],["e"]],[null,["f"]]],"b":1}`,
	})
	jsonEqual(t, "nested_maps.snappy.parquet", types.Schema{
		field("a", types.MapOf(types.StringType, types.MapOf(types.IntType, types.BooleanType, false), true)),
		notNull("b", types.IntType), notNull("c", types.DoubleType),
	}, []string{
		`{"a":{"a":{"1":true,"2":false}},"b":1,"c":1.0}`,
		`{"a":{"b":{"1":true}},"b":1,"c":1.0}`,
		`{"a":{"c":null},"b":1,"c":1.0}`,
		`{"a":{"d":{}},"b":1,"c":1.0}`,
		`{"a":{"e":{"1":true}},"b":1,"c":1.0}`,
		`{"a":{"f":{"3":true,"4":false,"5":true}},"b":1,"c":1.0}`,
	})
	impala := types.Schema{
		field("id", types.LongType),
		field("int_array", types.ArrayOf(types.IntType, true)),
		field("int_array_Array", types.ArrayOf(types.ArrayOf(types.IntType, true), true)),
		field("int_map", types.MapOf(types.StringType, types.IntType, true)),
		field("int_Map_Array", types.ArrayOf(types.MapOf(types.StringType, types.IntType, true), true)),
		field("nested_struct", types.StructOf(
			field("A", types.IntType),
			field("b", types.ArrayOf(types.IntType, true)),
			field("C", types.StructOf(field("d", types.ArrayOf(types.ArrayOf(types.StructOf(field("E", types.IntType), field("F", types.StringType)), true), true)))),
			field("g", types.MapOf(types.StringType, types.StructOf(field("H", types.StructOf(field("i", types.ArrayOf(types.DoubleType, true))))), true)),
		)),
	}
	jsonEqual(t, "nullable.impala.parquet", impala, []string{
		`{"id":1,"int_array":[1,2,3],"int_array_Array":[[1,2],[3,4]],"int_map":{"k1":1,"k2":100},"int_Map_Array":[{"k1":1}],"nested_struct":{"A":1,"b":[1],"C":{"d":[[{"E":10,"F":"aaa"},{"E":-10,"F":"bbb"}],[{"E":11,"F":"c"}]]},"g":{"foo":{"H":{"i":[1.1]}}}}}`,
		`{"id":2,"int_array":[null,1,2,null,3,null],"int_array_Array":[[null,1,2,null],[3,null,4],[],null],"int_map":{"k1":2,"k2":null},"int_Map_Array":[{"k3":null,"k1":1},null,{}],"nested_struct":{"A":null,"b":[null],"C":{"d":[[{"E":null,"F":null},{"E":10,"F":"aaa"},{"E":null,"F":null},{"E":-10,"F":"bbb"},{"E":null,"F":null}],[{"E":11,"F":"c"},null],[],null]},"g":{"g1":{"H":{"i":[2.2,null]}},"g2":{"H":{"i":[]}},"g3":null,"g4":{"H":{"i":null}},"g5":{"H":null}}}}`,
		`{"id":3,"int_array":[],"int_array_Array":[null],"int_map":{},"int_Map_Array":[null,null],"nested_struct":{"A":null,"b":null,"C":{"d":[]},"g":{}}}`,
		`{"id":4,"int_array":null,"int_array_Array":[],"int_map":{},"int_Map_Array":[],"nested_struct":{"A":null,"b":null,"C":{"d":null},"g":null}}`,
		`{"id":5,"int_array":null,"int_array_Array":null,"int_map":{},"int_Map_Array":null,"nested_struct":{"A":null,"b":null,"C":null,"g":{"foo":{"H":{"i":[2.2,3.3]}}}}}`,
		`{"id":6,"int_array":null,"int_array_Array":null,"int_map":null,"int_Map_Array":null,"nested_struct":null}`,
		`{"id":7,"int_array":null,"int_array_Array":[null,[5,6]],"int_map":{"k1":null,"k3":null},"int_Map_Array":null,"nested_struct":{"A":7,"b":[2,3,null],"C":{"d":[[],[null],null]},"g":null}}`,
	})
	// Round trip the impala file through the canonical writer: nested NULLs
	// and empty collections survive shredding.
	data, _ := os.ReadFile("testdata/parquet_testing/nullable.impala.parquet")
	before := readRows(t, "nullable.impala.parquet", data, impala, nil)
	r, _ := parquetio.Open("nullable.impala.parquet", bytes.NewReader(data), int64(len(data)), impala, nil)
	vals, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := writeFile(t, impala, vals, parquetio.WriterOptions{})
	sameRows(t, readRows(t, "again.parquet", again, impala, nil), before)
}

func TestParquetTestingBadFiles(t *testing.T) {
	for _, name := range []string{"PARQUET-1481.parquet", "datapage_v1-corrupt-checksum.parquet"} {
		data, err := os.ReadFile(filepath.Join("testdata", "parquet_testing", "bad", name))
		if err != nil {
			t.Fatal(err)
		}
		want := types.Schema{field("a", types.IntType), field("b", types.IntType)}
		r, err := parquetio.Open(name, bytes.NewReader(data), int64(len(data)), want, nil)
		if err == nil {
			_, err = r.ReadAll()
		}
		if err == nil {
			t.Errorf("%s: read without error", name)
			continue
		}
		if !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error does not name the file: %v", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
	// Truncated and garbage files fail cleanly too.
	good, _ := os.ReadFile("testdata/parquet_testing/alltypes_plain.parquet")
	for _, data := range [][]byte{good[:len(good)/2], []byte("PAR1garbagePAR1"), nil, append(slices.Clone(good[:200]), good[len(good)-300:]...)} {
		r, err := parquetio.Open("broken.parquet", bytes.NewReader(data), int64(len(data)), alltypes, nil)
		if err == nil {
			_, err = r.ReadAll()
		}
		if err == nil || !strings.Contains(err.Error(), "broken.parquet") {
			t.Errorf("broken file of %d bytes: err = %v", len(data), err)
		}
	}
}

func TestReadRowsEOF(t *testing.T) {
	data, _ := writeFile(t, allTypes, allTypesRows(), parquetio.WriterOptions{RowGroupRows: 1})
	r, err := parquetio.Open("x", bytes.NewReader(data), int64(len(data)), allTypes, nil)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]parquet.Row, 3)
	total := 0
	for {
		n, err := r.ReadRows(buf)
		total += n
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if total != 4 {
		t.Errorf("read %d rows over 4 row groups, want 4", total)
	}
}

func TestBadRowsFailCleanly(t *testing.T) {
	s := types.Schema{notNull("a", types.IntType), field("b", types.StringType)}
	bad := []parquet.Row{
		{parquet.Int32Value(1).Level(0, 0, 0)},                                       // column b missing
		{parquet.Int32Value(1).Level(0, 0, 1), parquet.Int32Value(1).Level(0, 0, 0)}, // out of order
		{parquet.Int32Value(1).Level(0, 0, 0), parquet.NullValue().Level(0, 5, 1)},   // level too high
		{parquet.Int32Value(1).Level(0, 0, 0), parquet.Int32Value(1).Level(0, 0, 7)}, // no such column
	}
	for i, row := range bad {
		if _, err := parquetio.Decode(row, s); err == nil {
			t.Errorf("row %d decoded", i)
		}
	}
	var buf bytes.Buffer
	w := parquetio.NewWriter(&buf, s, parquetio.WriterOptions{})
	if err := w.Write(bad[3:]); err == nil {
		t.Error("row with an unknown column written")
	}
	if _, err := parquetio.Encode([]any{nil, "x"}, s); err == nil || !strings.Contains(err.Error(), "column a") {
		t.Errorf("NULL in NOT NULL column: %v", err)
	}
	if _, err := parquetio.Encode([]any{int64(1), "x"}, s); err == nil || !strings.Contains(err.Error(), "int64") {
		t.Errorf("BIGINT value for INT: %v", err)
	}
}

// TestDictionaryFallback writes more distinct strings than a dictionary may
// hold in one row group: the column falls back to PLAIN pages midway and
// every value reads back.
func TestDictionaryFallback(t *testing.T) {
	s := types.Schema{notNull("id", types.LongType), field("u", types.StringType)}
	var rows [][]any
	for i := range 60_000 {
		rows = append(rows, []any{int64(i), fmt.Sprintf("%040d", i*7919)})
	}
	data, info := writeFile(t, s, rows, parquetio.WriterOptions{})
	got := readRows(t, "dict.parquet", data, s, nil)
	sameRows(t, got, formatAll(rows, s))
	// Strings of 40 characters get 32-character bounds: the min's prefix,
	// the max's prefix and DEL.
	if !strings.Contains(info.Stats, `"u":0`) || !strings.Contains(info.Stats, `"minValues":{"id":0,"u":"`+strings.Repeat("0", 32)+`"}`) ||
		!strings.Contains(info.Stats, `"u":"`+fmt.Sprintf("%040d", 59999*7919)[:32]+"\x7f"+`"}`) {
		t.Errorf("stats: %s", info.Stats)
	}
}
