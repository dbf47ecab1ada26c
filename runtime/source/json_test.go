package source

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/types"
)

const testURI = "file:/landing/t.json"

var testFile = FileInfo{Path: testURI, Name: "t.json", LocalPath: "/landing/t.json"}

// fp closes a rescued-data value of the test file.
const fp = `,"_file_path":"file:/landing/t.json"}`

// decodeJSON decodes input with the driver once per buffer size (see
// sameForChunks).
func decodeJSON(t *testing.T, schema types.Schema, input string, opts Options) ([]string, Stats, error) {
	t.Helper()
	return sameForChunks(t, []int{0, 1, 3, 16}, func(chunk int) ([]string, Stats, error) {
		d := NewJSONDecoder(strings.NewReader(input), testFile, opts)
		if chunk > 0 {
			d.in.setChunk(chunk)
		}
		return jsonRows(d, schema), d.Stats(), d.Err()
	})
}

// sameForChunks runs decode once per buffer size (0 is the default; small
// sizes make records straddle buffer refills) and checks that every run
// gives the same rows, counts and error, which it returns.
func sameForChunks(t *testing.T, chunks []int, decode func(chunk int) ([]string, Stats, error)) ([]string, Stats, error) {
	t.Helper()
	first, firstStats, firstErr := decode(chunks[0])
	for _, chunk := range chunks[1:] {
		rows, st, err := decode(chunk)
		if !slices.Equal(rows, first) || st != firstStats || errString(err) != errString(firstErr) {
			t.Fatalf("chunk size %d changed the result:\n%q %+v %v\nwant\n%q %+v %v", chunk, rows, st, err, first, firstStats, firstErr)
		}
	}
	return first, firstStats, firstErr
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func checkRows(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestJSONValues(t *testing.T) {
	dec := func(p, s int) types.Type { return types.DecimalOf(p, s) }
	for _, tc := range []struct {
		name  string
		typ   types.Type
		input string // the value of "v"
		want  string // rendered value, then " | " and the rescued value if any
	}{
		// STRING
		{"string", types.StringType, `"abc"`, `"abc"`},
		{"string escapes", types.StringType, `"a\"b\\c\/d\b\f\n\r\t\u00e9"`, `"a\"b\\c/d\b\f\n\r\té"`},
		{"string surrogate pair", types.StringType, `"\ud83d\ude00"`, `"😀"`},
		{"string lone surrogate", types.StringType, `"x\ud83dy"`, `"x�y"`},
		{"string utf8", types.StringType, `"Zürich 東京"`, `"Zürich 東京"`},
		{"string empty", types.StringType, `""`, `""`},
		{"string from integer keeps its text", types.StringType, `12345678901234567890`, `"12345678901234567890"`},
		{"string from decimal keeps its digits", types.StringType, `1.50`, `"1.50"`},
		{"string from bool", types.StringType, `true`, `"true"`},
		{"string from object is compact JSON", types.StringType, `{"a" : 1, "b": [1, 2, "x y"]}`, `"{\"a\":1,\"b\":[1,2,\"x y\"]}"`},
		{"string from array", types.StringType, `[]`, `"[]"`},
		{"string from object writes NaN as a string", types.StringType, `{"x": NaN, "y": [-Infinity]}`, `"{\"x\":\"NaN\",\"y\":[\"-Infinity\"]}"`},
		{"string from object keeps N and I in strings", types.StringType, `{"N": "I N"}`, `"{\"N\":\"I N\"}"`},
		{"string null", types.StringType, `null`, `NULL`},
		// BOOLEAN
		{"bool true", types.BooleanType, `true`, `true`},
		{"bool false", types.BooleanType, `false`, `false`},
		{"bool from string", types.BooleanType, `"true"`, `NULL | {"v":"true"` + fp},
		{"bool from number", types.BooleanType, `1`, `NULL | {"v":1` + fp},
		// integers
		{"tinyint max", types.ByteType, `127`, `127`},
		{"tinyint min", types.ByteType, `-128`, `-128`},
		{"tinyint overflow", types.ByteType, `128`, `NULL | {"v":128` + fp},
		{"smallint overflow", types.ShortType, `-32769`, `NULL | {"v":-32769` + fp},
		{"int", types.IntType, `2147483647`, `2147483647`},
		{"int overflow", types.IntType, `2147483648`, `NULL | {"v":2147483648` + fp},
		{"int from fraction", types.IntType, `1.0`, `NULL | {"v":1.0` + fp},
		{"int from exponent", types.IntType, `1e2`, `NULL | {"v":1e2` + fp},
		{"int from string", types.IntType, `"1"`, `NULL | {"v":"1"` + fp},
		{"int from object", types.IntType, `{"x": 1}`, `NULL | {"v":{"x": 1}` + fp},
		{"int negative zero", types.IntType, `-0`, `0`},
		{"bigint max", types.LongType, `9223372036854775807`, `9223372036854775807`},
		{"bigint min", types.LongType, `-9223372036854775808`, `-9223372036854775808`},
		{"bigint overflow", types.LongType, `9223372036854775808`, `NULL | {"v":9223372036854775808` + fp},
		{"bigint long overflow", types.LongType, `123456789012345678901234567890`, `NULL | {"v":123456789012345678901234567890` + fp},
		{"int before space", types.IntType, `42 `, `42`},
		// FLOAT, DOUBLE
		{"double", types.DoubleType, `123.45`, `123.45`},
		{"double negative", types.DoubleType, `-0.5`, `-0.5`},
		{"double exponent", types.DoubleType, `1.5E-3`, `0.0015`},
		{"double integer", types.DoubleType, `7`, `7`},
		{"double long mantissa rounds correctly", types.DoubleType, `0.30000000000000004441`, `0.30000000000000004`},
		{"double beyond range is Inf", types.DoubleType, `1e400`, `+Inf`},
		{"double NaN token", types.DoubleType, `NaN`, `NaN`},
		{"double -Infinity token", types.DoubleType, `-Infinity`, `-Inf`},
		{"double NaN string", types.DoubleType, `"NaN"`, `NaN`},
		{"double +INF string", types.DoubleType, `"+INF"`, `+Inf`},
		{"double from numeric string", types.DoubleType, `"1.5"`, `NULL | {"v":"1.5"` + fp},
		{"double from bool", types.DoubleType, `false`, `NULL | {"v":false` + fp},
		{"float", types.FloatType, `0.1`, `0.1`},
		// DECIMAL
		{"decimal", dec(5, 2), `123.45`, `123.45`},
		{"decimal pads scale", dec(5, 2), `7`, `7.00`},
		{"decimal rounds half up", dec(5, 2), `123.455`, `123.46`},
		{"decimal rounds down", dec(5, 2), `123.454999`, `123.45`},
		{"decimal negative rounds away from zero", dec(5, 2), `-1.005`, `-1.01`},
		{"decimal exponent", dec(5, 2), `1.2345e2`, `123.45`},
		{"decimal tiny rounds to zero", dec(5, 2), `0.004`, `0.00`},
		{"decimal tiny rounds up", dec(5, 2), `5e-3`, `0.01`},
		{"decimal overflow", dec(5, 2), `1234.5`, `NULL | {"v":1234.5` + fp},
		{"decimal overflow after rounding", dec(5, 2), `999.995`, `NULL | {"v":999.995` + fp},
		{"decimal from string with commas", dec(10, 2), `"1,234.5"`, `1234.50`},
		{"decimal from empty string", dec(10, 2), `""`, `NULL | {"v":""` + fp},
		{"decimal from text", dec(10, 2), `"abc"`, `NULL | {"v":"abc"` + fp},
		{"decimal NaN", dec(10, 2), `NaN`, `NULL | {"v":"NaN"` + fp},
		{"decimal 38 digits", dec(38, 0), `99999999999999999999999999999999999999`, `99999999999999999999999999999999999999`},
		{"decimal 39 digits", dec(38, 0), `999999999999999999999999999999999999999`, `NULL | {"v":999999999999999999999999999999999999999` + fp},
		{"decimal large negative", dec(38, 10), `-1234567890123456789012345678.0123456789`, `-1234567890123456789012345678.0123456789`},
		{"decimal many fraction digits", dec(3, 2), `1.00000000000000000000000000000000000000000000049`, `1.00`},
		// DATE
		{"date", types.DateType, `"2024-02-29"`, `2024-02-29`},
		{"date not a day", types.DateType, `"2023-02-29"`, `NULL | {"v":"2023-02-29"` + fp},
		{"date short fields", types.DateType, `"2024-3-1"`, `2024-03-01`},
		{"date year only", types.DateType, `"2024"`, `2024-01-01`},
		{"date from timestamp text", types.DateType, `"2024-03-01T23:59:59+05:00"`, `2024-03-01`},
		{"date from number", types.DateType, `20240301`, `NULL | {"v":20240301` + fp},
		{"date garbage", types.DateType, `"03/01/2024"`, `NULL | {"v":"03/01/2024"` + fp},
		// TIMESTAMP
		{"timestamp rfc3339 millis", types.TimestampType, `"2024-03-01T12:34:56.789Z"`, `2024-03-01 12:34:56.789`},
		{"timestamp space, no zone is UTC", types.TimestampType, `"2024-03-01 12:34:56"`, `2024-03-01 12:34:56`},
		{"timestamp offset", types.TimestampType, `"2024-03-01T12:34:56+02:00"`, `2024-03-01 10:34:56`},
		{"timestamp offset hhmm", types.TimestampType, `"2024-03-01T12:34:56-0800"`, `2024-03-01 20:34:56`},
		{"timestamp UTC+h", types.TimestampType, `"2024-03-01T12:00:00UTC+1"`, `2024-03-01 11:00:00`},
		{"timestamp region", types.TimestampType, `"2024-07-01T12:00:00 Europe/Paris"`, `2024-07-01 10:00:00`},
		{"timestamp nanos truncated", types.TimestampType, `"2024-03-01T12:34:56.123456789Z"`, `2024-03-01 12:34:56.123456`},
		{"timestamp no seconds", types.TimestampType, `"2024-03-01T12:34"`, `2024-03-01 12:34:00`},
		{"timestamp date only", types.TimestampType, `"2024-03-01"`, `2024-03-01 00:00:00`},
		{"timestamp epoch seconds", types.TimestampType, `1709296496`, `2024-03-01 12:34:56`},
		{"timestamp fractional seconds", types.TimestampType, `1709296496.5`, `NULL | {"v":1709296496.5` + fp},
		{"timestamp seconds overflow", types.TimestampType, `9223372036854775807`, `NULL | {"v":9223372036854775807` + fp},
		{"timestamp bad hour", types.TimestampType, `"2024-03-01T25:00:00Z"`, `NULL | {"v":"2024-03-01T25:00:00Z"` + fp},
		{"timestamp unknown zone", types.TimestampType, `"2024-03-01T12:00:00 Mars/Olympus"`, `NULL | {"v":"2024-03-01T12:00:00 Mars/Olympus"` + fp},
		{"timestamp garbage", types.TimestampType, `"yesterday"`, `NULL | {"v":"yesterday"` + fp},
		{"timestamp_ntz", types.TimestampNTZType, `"2024-03-01T12:34:56"`, `2024-03-01 12:34:56`},
		{"timestamp_ntz with zone", types.TimestampNTZType, `"2024-03-01T12:34:56Z"`, `NULL | {"v":"2024-03-01T12:34:56Z"` + fp},
		// BINARY
		{"binary base64", types.BinaryType, `"aGVsbG8="`, `68656c6c6f`},
		{"binary invalid", types.BinaryType, `"!!"`, `NULL | {"v":"!!"` + fp},
		{"binary from number", types.BinaryType, `5`, `NULL | {"v":5` + fp},
		// nested
		{"array", types.ArrayOf(types.IntType, true), `[1, null, 3]`, `[1 NULL 3]`},
		{"array empty", types.ArrayOf(types.IntType, true), `[ ]`, `[]`},
		{"array null", types.ArrayOf(types.IntType, true), `null`, `NULL`},
		{"array from object", types.ArrayOf(types.IntType, true), `{"a":1}`, `NULL | {"v":{"a":1}` + fp},
		{"array element mismatch rescues the whole column", types.ArrayOf(types.IntType, true), `[1, "x", 3]`, `[1 NULL 3] | {"v":[1, "x", 3]` + fp},
		{"struct from array", types.StructOf(field("a", types.IntType)), `[1]`, `NULL | {"v":[1]` + fp},
		{"struct nested unknown rescues the column", types.StructOf(field("a", types.IntType)), `{"a":1,"b":2}`, `{a=1} | {"v":{"a":1,"b":2}` + fp},
		{"struct field in other case is unknown", types.StructOf(field("a", types.IntType)), `{"A":1}`, `{a=NULL} | {"v":{"A":1}` + fp},
		{"map", types.MapOf(types.StringType, types.LongType, true), `{"x":1,"y\n":null}`, `map["x":1 "y\n":NULL]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := types.Schema{field("v", tc.typ)}
			rows, _, err := decodeJSON(t, schema, `{"v":`+tc.input+"}\n", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if want := "v=" + tc.want; len(rows) != 1 || rows[0] != want {
				t.Errorf("got %q, want %q", rows, want)
			}
		})
	}
}

var ordersSchema = types.Schema{
	field("order_id", types.StringType),
	field("amount", types.DecimalOf(12, 2)),
	field("event_ts", types.TimestampType),
	field("items", types.ArrayOf(types.StructOf(field("sku", types.StringType), field("qty", types.IntType)), true)),
	field("shipping", types.StructOf(field("method", types.StringType), field("cost", types.DoubleType))),
}

func TestJSONRecords(t *testing.T) {
	const allNullRow = "order_id=NULL amount=NULL event_ts=NULL items=NULL shipping=NULL"
	for _, tc := range []struct {
		name      string
		input     string
		want      []string
		rescued   int64
		malformed int64
	}{
		{
			name: "full record, fields in any order, missing fields NULL",
			input: `{"order_id":"o-1","amount":12.5,"event_ts":"2024-03-01T12:00:00Z","items":[{"sku":"A","qty":2},{"qty":1,"sku":"B"}],"shipping":{"method":"express","cost":4.99}}
{"shipping":null,"order_id":"o-2"}
`,
			want: []string{
				`order_id="o-1" amount=12.50 event_ts=2024-03-01 12:00:00 items=[{sku="A" qty=2} {sku="B" qty=1}] shipping={method="express" cost=4.99}`,
				`order_id="o-2" amount=NULL event_ts=NULL items=NULL shipping=NULL`,
			},
		},
		{
			name:  "blank lines skipped, CRLF, BOM, no final newline",
			input: "\ufeff{\"order_id\":\"a\"}\r\n\r\n   \n\t\n{\"order_id\":\"b\"}",
			want:  []string{`order_id="a" amount=NULL event_ts=NULL items=NULL shipping=NULL`, `order_id="b" amount=NULL event_ts=NULL items=NULL shipping=NULL`},
		},
		{name: "empty file", input: "", want: nil},
		{name: "only blank lines", input: "\n\n  \r\n", want: nil},
		{
			name:    "unknown and case-mismatched top-level fields are rescued in order",
			input:   `{"Order_ID":"x","order_id":"o-1","extra":{"deep":[1, 2]},"note":null}` + "\n",
			want:    []string{`order_id="o-1" amount=NULL event_ts=NULL items=NULL shipping=NULL | {"Order_ID":"x","extra":{"deep":[1, 2]},"note":null` + fp},
			rescued: 1,
		},
		{
			name:    "mismatches in several columns",
			input:   `{"order_id":1,"amount":"12,50x","event_ts":"not a time","items":[{"sku":"A","qty":"two"}],"shipping":{"method":"std","cost":"free"}}` + "\n",
			want:    []string{`order_id="1" amount=NULL event_ts=NULL items=[{sku="A" qty=NULL}] shipping={method="std" cost=NULL} | {"amount":"12,50x","event_ts":"not a time","items":[{"sku":"A","qty":"two"}],"shipping":{"method":"std","cost":"free"}` + fp},
			rescued: 1,
		},
		{
			name:    "non-numeric numbers are rescued as strings so the rescued value is valid JSON",
			input:   `{"order_id":"a","x":[NaN,-Infinity, "NaN" ,+INF]}` + "\n",
			want:    []string{`order_id="a" amount=NULL event_ts=NULL items=NULL shipping=NULL | {"x":["NaN","-Infinity", "NaN" ,"+INF"]` + fp},
			rescued: 1,
		},
		{
			name:  "duplicate key: the last value wins",
			input: `{"order_id":"a","order_id":"b"}` + "\n",
			want:  []string{`order_id="b" amount=NULL event_ts=NULL items=NULL shipping=NULL`},
		},
		{
			name:  "escaped key matches its column",
			input: `{"order\u005fid":"a"}` + "\n",
			want:  []string{`order_id="a" amount=NULL event_ts=NULL items=NULL shipping=NULL`},
		},
		{
			name:  "whitespace everywhere",
			input: " { \"order_id\" : \"a\" , \"items\" : [ { \"qty\" : 1 } , null ] } \n",
			want:  []string{`order_id="a" amount=NULL event_ts=NULL items=[{sku=NULL qty=1} NULL] shipping=NULL`},
		},
		{
			name: "malformed lines become all-NULL rows with the raw line rescued",
			input: `{"order_id":"ok"}
{"order_id":"a",}
{"order_id":"a"
{order_id:"a"}
{"order_id":"a"} trailing
[1,2]
42
{"order_id":"bad \x"}
{"order_id":01}
{"order_id":"tab	inside"}
{"order_id":"a","items":[1,}
{"order_id":"a","items":[{"sku":"x"]}
{"order_id":"a"}}
{"order_id":"a","amount":1.}
{"order_id":tru}
{"order_id":"ok2"}
`,
			want: []string{
				`order_id="ok" amount=NULL event_ts=NULL items=NULL shipping=NULL`,
				allNullRow + ` | {"order_id":"a",}`,
				allNullRow + ` | {"order_id":"a"`,
				allNullRow + ` | {order_id:"a"}`,
				allNullRow + ` | {"order_id":"a"} trailing`,
				allNullRow + ` | [1,2]`,
				allNullRow + ` | 42`,
				allNullRow + ` | {"order_id":"bad \x"}`,
				allNullRow + ` | {"order_id":01}`,
				allNullRow + " | {\"order_id\":\"tab\tinside\"}",
				allNullRow + ` | {"order_id":"a","items":[1,}`,
				allNullRow + ` | {"order_id":"a","items":[{"sku":"x"]}`,
				allNullRow + ` | {"order_id":"a"}}`,
				allNullRow + ` | {"order_id":"a","amount":1.}`,
				allNullRow + ` | {"order_id":tru}`,
				`order_id="ok2" amount=NULL event_ts=NULL items=NULL shipping=NULL`,
			},
			rescued:   14,
			malformed: 14,
		},
		{
			name:      "invalid UTF-8 is malformed, CR of a malformed CRLF line is not kept",
			input:     "{\"order_id\":\"\xff\"}\r\n",
			want:      []string{allNullRow + " | {\"order_id\":\"\xff\"}"},
			rescued:   1,
			malformed: 1,
		},
		{
			name:      "deep nesting in an unknown field is bounded",
			input:     `{"x":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "}\n",
			want:      []string{allNullRow + ` | {"x":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "}"},
			rescued:   1,
			malformed: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, st, err := decodeJSON(t, ordersSchema, tc.input, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkRows(t, rows, tc.want)
			if want := (Stats{Rows: int64(len(tc.want)), Rescued: tc.rescued, Malformed: tc.malformed}); st != want {
				t.Errorf("stats %+v, want %+v", st, want)
			}
		})
	}
}

func TestJSONSessionTimeZone(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	schema := types.Schema{field("ts", types.TimestampType), field("ntz", types.TimestampNTZType)}
	rows, _, err := decodeJSON(t, schema, `{"ts":"2024-07-01 12:00:00","ntz":"2024-07-01 12:00:00"}
{"ts":"2024-01-15T12:00:00.5","ntz":"2024-01-15T12:00:00.5"}
{"ts":"2024-07-01T12:00:00Z"}
`, Options{TimeZone: ny})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, rows, []string{
		`ts=2024-07-01 16:00:00 ntz=2024-07-01 12:00:00`,     // EDT, UTC-4
		`ts=2024-01-15 17:00:00.5 ntz=2024-01-15 12:00:00.5`, // EST, UTC-5
		`ts=2024-07-01 12:00:00 ntz=NULL`,
	})
}

// TestJSONTimestampsAtTransitions: a zone-less time in a fall-back
// overlap is the earlier instant and one in a spring-forward gap moves
// forward by the gap, as Spark resolves them — the same instants as
// CAST(string AS TIMESTAMP) (sqlfn.ParseTimestampIn).
func TestJSONTimestampsAtTransitions(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	schema := types.Schema{field("ts", types.TimestampType)}
	in := []string{"2024-10-27 02:30:00", "2024-03-31 02:30:00", "2024-10-27T02:30:00 Europe/Paris", "2024-10-27 01:59:59"}
	var text strings.Builder
	for _, s := range in {
		fmt.Fprintf(&text, "{\"ts\":%q}\n", s)
	}
	rows, _, err := decodeJSON(t, schema, text.String(), Options{TimeZone: paris})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, rows, []string{
		`ts=2024-10-27 00:30:00`, // CEST, the first 02:30
		`ts=2024-03-31 01:30:00`, // 02:30 does not exist: 03:30 CEST
		`ts=2024-10-27 00:30:00`,
		`ts=2024-10-26 23:59:59`,
	})
	for i, s := range in[:2] {
		cast, ok := sqlfn.ParseTimestampIn(s, paris)
		want := "ts=" + time.UnixMicro(int64(cast)).UTC().Format(time.DateTime)
		if !ok || rows[i] != want {
			t.Errorf("%s: the JSON reader gives %s, CAST %s", s, rows[i], want)
		}
	}
}

func TestJSONFail(t *testing.T) {
	runFailCases(t, []failCase{
		{
			name:  "mismatch names file, line, column and field",
			input: "{\"order_id\":\"a\"}\n\n{\"order_id\":\"b\", \"amount\":\"ten\"}\n{\"order_id\":\"c\"}\n",
			rows:  1,
			want:  DecodeError{File: "/landing/t.json", Line: 3, Column: 27, Field: "amount", Msg: `JSON value "ten" is not a valid DECIMAL(12,2)`},
			msg:   `/landing/t.json:3:27: column "amount": JSON value "ten" is not a valid DECIMAL(12,2); fix the file, or set on_malformed: rescue to keep such values in the rescued-data column`,
		},
		{
			name:  "nested mismatch names the nested field; columns count characters",
			input: `{"order_id":"é","items":[{"sku":"x","qty":1.5}]}` + "\n",
			want:  DecodeError{File: "/landing/t.json", Line: 1, Column: 43, Field: "items.qty", Msg: `JSON value 1.5 is not a valid INT`},
		},
		{
			name:  "malformed record",
			input: "{\"order_id\":\"a\"}\n{\"order_id\":\"b\",,}\n",
			rows:  1,
			want:  DecodeError{File: "/landing/t.json", Line: 2, Column: 17, Msg: `malformed JSON record: expected a field name`},
		},
	}, func(input string) ([]record, error) {
		d := NewJSONDecoder(strings.NewReader(input), testFile, Options{OnMalformed: Fail})
		return jsonRecords(d, ordersSchema), d.Err()
	})
}

func TestJSONFailKeepsUnknownFields(t *testing.T) {
	rows, st, err := decodeJSON(t, ordersSchema, `{"order_id":"a","extra":1}`+"\n", Options{OnMalformed: Fail})
	if err != nil {
		t.Fatalf("unknown field failed decoding: %v", err)
	}
	checkRows(t, rows, []string{`order_id="a" amount=NULL event_ts=NULL items=NULL shipping=NULL | {"extra":1` + fp})
	if st.Rescued != 1 {
		t.Errorf("stats %+v, want 1 rescued", st)
	}
}

func TestJSONReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := iotest.TimeoutReader(strings.NewReader(`{"order_id":"a"}` + "\n" + strings.Repeat(" ", 100)))
	d := NewJSONDecoder(r, testFile, Options{})
	d.in.setChunk(8)
	jsonRows(d, ordersSchema)
	if !errors.Is(d.Err(), iotest.ErrTimeout) || !strings.Contains(d.Err().Error(), "/landing/t.json") {
		t.Errorf("Err() = %v, want the read error naming the file", d.Err())
	}
	d = NewJSONDecoder(iotest.ErrReader(boom), testFile, Options{})
	if d.NextRecord() || !errors.Is(d.Err(), boom) {
		t.Errorf("NextRecord on a failing reader: Err() = %v", d.Err())
	}
}

// A generated decoder that leaves a value unread, or calls reads out of
// turn, must not break the decoder: the value is rescued as unknown.
func TestJSONMisuse(t *testing.T) {
	d := NewJSONDecoder(strings.NewReader(`{"a":1,"b":[1,2],"c":"x"}`+"\n"), testFile, Options{})
	if !d.NextRecord() {
		t.Fatal("no record")
	}
	if v := d.String(); v.Valid {
		t.Errorf("String before NextField = %v, want NULL", v)
	}
	for d.NextField() {
		if string(d.Key()) == "c" {
			if v := d.String(); v.V != "x" {
				t.Errorf("c = %v", v)
			}
			if v := d.Int64(); v.Valid {
				t.Errorf("second read of a value = %v, want NULL", v)
			}
		}
	}
	if d.NextElement() || d.BeginObject() {
		t.Error("reads after the end of the record succeeded")
	}
	rescued, malformed := d.EndRecord()
	if malformed || rescued.V != `{"a":1,"b":[1,2]`+fp {
		t.Errorf("EndRecord = %q, %v", rescued.V, malformed)
	}
	if d.NextRecord() || d.Err() != nil {
		t.Errorf("NextRecord at EOF = true or error %v", d.Err())
	}
}

// Strings alias the input buffers or the arena; they must stay intact
// after the decoder has moved on through many refills.
func TestJSONStringsStayValid(t *testing.T) {
	var b strings.Builder
	var want []string
	for i := range 2000 {
		s := strings.Repeat(string(rune('a'+i%26)), i%50) + `\n` + strings.Repeat("z", i%7)
		b.WriteString(`{"order_id":"` + s + `"}` + "\n")
		want = append(want, strings.ReplaceAll(s, `\n`, "\n"))
	}
	d := NewJSONDecoder(strings.NewReader(b.String()), testFile, Options{})
	d.in.setChunk(100)
	var got []string
	for d.NextRecord() {
		for d.NextField() {
			got = append(got, d.String().V)
		}
		d.EndRecord()
	}
	if !slices.Equal(got, want) {
		t.Fatal("strings changed after decoding moved on")
	}
}

func TestSlab(t *testing.T) {
	var s Slab[int]
	var kept [][]int
	for i := range 5000 {
		src := make([]int, i%5)
		for j := range src {
			src[j] = i*10 + j
		}
		c := s.Copy(src)
		if len(c) != len(src) || cap(c) != len(c) || c == nil {
			t.Fatalf("Copy(%v) = %v (cap %d)", src, c, cap(c))
		}
		_ = append(c, -1) // must not write into the slab
		kept = append(kept, c)
	}
	for i, c := range kept {
		for j, v := range c {
			if v != i*10+j {
				t.Fatalf("slice %d changed: %v", i, c)
			}
		}
	}
}

// Skip drops a value without rescuing it, but still rejects invalid JSON.
func TestJSONSkip(t *testing.T) {
	d := NewJSONDecoder(strings.NewReader("{\"a\":{\"x\":[1,{}]},\"b\":2}\n{\"a\":[1,,2],\"b\":3}\n"), testFile, Options{})
	var got []string
	for d.NextRecord() {
		b := "NULL"
		for d.NextField() {
			if string(d.Key()) == "b" {
				b = renderNull(d.Int64(), func(v int64) string { return strconv.FormatInt(v, 10) })
			} else {
				d.Skip()
			}
		}
		rescued, malformed := d.EndRecord()
		got = append(got, withRescued(fmt.Sprintf("b=%s malformed=%v", b, malformed), rescued))
	}
	checkRows(t, got, []string{"b=2 malformed=false", `b=NULL malformed=true | {"a":[1,,2],"b":3}`})
}
