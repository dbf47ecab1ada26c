package source

import (
	"errors"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

var csvTestFile = FileInfo{Path: "file:/landing/t.csv", Name: "t.csv", LocalPath: "/landing/t.csv"}

const cfp = `,"_file_path":"file:/landing/t.csv"}`

// decodeCSV decodes input with the driver once per buffer size (see
// sameForChunks).
func decodeCSV(t *testing.T, schema types.Schema, input string, opts CSVOptions) ([]string, Stats, error) {
	t.Helper()
	return sameForChunks(t, []int{0, 1, 2, 5, 17}, func(chunk int) ([]string, Stats, error) {
		d := NewCSVDecoder(strings.NewReader(input), csvTestFile, columnNames(schema), opts)
		if chunk > 0 {
			d.in.setChunk(chunk)
		}
		return csvRows(d, schema), d.Stats(), d.Err()
	})
}

var peopleSchema = schemaOf("id", types.IntType, "name", types.StringType, "score", types.DoubleType)

func TestCSVRecords(t *testing.T) {
	def := DefaultCSVOptions()
	noHeader := def
	noHeader.Header = false
	na := def
	na.NullValue = "NA"
	semi := def
	semi.Delimiter = ';'
	rfc := def
	rfc.Escape = '"'
	noQuote := def
	noQuote.Quote = 0
	ignoreNew := def
	ignoreNew.NewColumns = IgnoreNewColumns
	for _, tc := range []struct {
		name      string
		opts      CSVOptions
		input     string
		want      []string
		rescued   int64
		malformed int64
	}{
		{
			name:  "header maps by name in any order and case",
			opts:  def,
			input: "Score,NAME,id\n1.5,ann,1\n",
			want:  []string{`id=1 name="ann" score=1.5`},
		},
		{
			name:  "schema_evolution none drops header names not in the schema",
			opts:  ignoreNew,
			input: "id,extra,name,NAME\n1,x,ann,X\n",
			want:  []string{`id=1 name="ann" score=NULL`},
		},
		{
			name:  "exact name wins over a case-insensitive one",
			opts:  def,
			input: "NAME,name,id\nX,ann,1\n",
			want:  []string{`id=1 name="ann" score=NULL | {"NAME":"X"` + cfp},
			// NAME is then an extra column
			rescued: 1,
		},
		{
			name:    "missing column is NULL, extra columns rescued under their header name",
			opts:    def,
			input:   "id,name,city,\"zip \"\"code\"\"\"\n1,ann,Paris,75001\n2,bob,,\n",
			want:    []string{`id=1 name="ann" score=NULL | {"city":"Paris","zip \"code\"":"75001"` + cfp, `id=2 name="bob" score=NULL`},
			rescued: 1,
		},
		{
			name:    "duplicate header column is rescued, empty header name is _cN",
			opts:    def,
			input:   "id,id,,name\n1,2,3,x\n",
			want:    []string{`id=1 name="x" score=NULL | {"id":"2","_c2":"3"` + cfp},
			rescued: 1,
		},
		{
			name:  "no header: fields by position",
			opts:  noHeader,
			input: "1,ann,2.5\n2,bob,\n",
			want:  []string{`id=1 name="ann" score=2.5`, `id=2 name="bob" score=NULL`},
		},
		{
			name:  "quoted fields with delimiters, doubled and escaped quotes, line breaks",
			opts:  def,
			input: "id,name\n1,\"a,b\"\n2,\"say \"\"hi\"\"\"\n3,\"say \\\"hi\\\"\"\n4,\"two\nlines\"\n5,\"crlf\r\ninside\"\n",
			want: []string{
				`id=1 name="a,b" score=NULL`,
				`id=2 name="say \"hi\"" score=NULL`,
				`id=3 name="say \"hi\"" score=NULL`,
				`id=4 name="two\nlines" score=NULL`,
				`id=5 name="crlf\r\ninside" score=NULL`,
			},
		},
		{
			name:  "backslash not before a quote is literal",
			opts:  def,
			input: "id,name\n1,\"C:\\dir\\x\"\n2,a\\b\n",
			want:  []string{`id=1 name="C:\\dir\\x" score=NULL`, `id=2 name="a\\b" score=NULL`},
		},
		{
			name:  "escape set to the quote: RFC 4180 only",
			opts:  rfc,
			input: "id,name\n1,\"a\"\"b\"\n",
			want:  []string{`id=1 name="a\"b" score=NULL`},
		},
		{
			name:  "quote inside an unquoted field is literal",
			opts:  def,
			input: "id,name\n1,5\" ruler\n",
			want:  []string{`id=1 name="5\" ruler" score=NULL`},
		},
		{
			name:  "unquoted empty is NULL, quoted empty is the empty string (STRING) or NULL (other types)",
			opts:  def,
			input: "id,name,score\n,,\n\"\",\"\",\"\"\n",
			want:  []string{`id=NULL name=NULL score=NULL`, `id=NULL name="" score=NULL`},
		},
		{
			name:  "null_value, quoted or not",
			opts:  na,
			input: "id,name,score\nNA,NA,NA\n1,\"NA\",2\n2,,\n3,\"\",\"\"\n",
			want:  []string{`id=NULL name=NULL score=NULL`, `id=1 name=NULL score=2`, `id=2 name=NULL score=NULL`, `id=3 name="" score=NULL`},
		},
		{
			name:  "CRLF, BOM, blank lines, no final newline",
			opts:  def,
			input: "\ufeffid,name\r\n1,a\r\n\r\n\n2,b",
			want:  []string{`id=1 name="a" score=NULL`, `id=2 name="b" score=NULL`},
		},
		{
			name:  "final CR without LF",
			opts:  def,
			input: "id,name\r\n1,a\r",
			want:  []string{`id=1 name="a" score=NULL`},
		},
		{name: "empty file", opts: def, input: "", want: nil},
		{name: "header only", opts: def, input: "id,name\n", want: nil},
		{
			name:  "delimiter ;",
			opts:  semi,
			input: "id;name\n1;a,b\n",
			want:  []string{`id=1 name="a,b" score=NULL`},
		},
		{
			name:  "quoting off",
			opts:  noQuote,
			input: "id,name\n1,\"a\"\n",
			want:  []string{`id=1 name="\"a\"" score=NULL`},
		},
		{
			name:    "mismatched values rescued",
			opts:    def,
			input:   "id,name,score\nx1,ann,1.5.5\n99999999999,bob,1e3\n",
			want:    []string{`id=NULL name="ann" score=NULL | {"id":"x1","score":"1.5.5"` + cfp, `id=NULL name="bob" score=1000 | {"id":"99999999999"` + cfp},
			rescued: 2,
		},
		{
			name:  "wrong field counts, unterminated quote and text after a quote are malformed",
			opts:  def,
			input: "id,name,score\n1,a\n2,b,3,4\n3,\"x\"y,1\n4,c,5\n5,\"open\nnever closed\n",
			want: []string{
				`id=NULL name=NULL score=NULL | 1,a`,
				`id=NULL name=NULL score=NULL | 2,b,3,4`,
				`id=NULL name=NULL score=NULL | 3,"x"y,1`,
				`id=4 name="c" score=5`,
				"id=NULL name=NULL score=NULL | 5,\"open\nnever closed",
			},
			rescued:   4,
			malformed: 4,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, st, err := decodeCSV(t, peopleSchema, tc.input, tc.opts)
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

func TestCSVValues(t *testing.T) {
	for _, tc := range []struct {
		name  string
		typ   types.Type
		field string // as written in the file
		want  string
	}{
		{"string", types.StringType, `"héllo"`, `"héllo"`},
		{"string invalid utf8 replaced", types.StringType, "a\xffb", `"a�b"`},
		{"bool any case", types.BooleanType, "TRUE", "true"},
		{"bool False", types.BooleanType, "False", "false"},
		{"bool yes", types.BooleanType, "yes", `NULL | {"v":"yes"` + cfp},
		{"tinyint", types.ByteType, "-128", "-128"},
		{"tinyint overflow", types.ByteType, "128", `NULL | {"v":"128"` + cfp},
		{"int plus sign", types.IntType, "+42", "42"},
		{"int with space", types.IntType, " 42", `NULL | {"v":" 42"` + cfp},
		{"int from float text", types.IntType, "17850.0", `NULL | {"v":"17850.0"` + cfp},
		{"bigint", types.LongType, "-9223372036854775808", "-9223372036854775808"},
		{"double", types.DoubleType, "2.55", "2.55"},
		{"double spaces and suffix", types.DoubleType, " 1.5d ", "1.5"},
		{"double Inf", types.DoubleType, "Inf", "+Inf"},
		{"double -Infinity", types.DoubleType, "-Infinity", "-Inf"},
		{"double NaN", types.DoubleType, "NaN", "NaN"},
		{"double go-only spelling", types.DoubleType, "inf", `NULL | {"v":"inf"` + cfp},
		{"double underscore", types.DoubleType, "1_000", `NULL | {"v":"1_000"` + cfp},
		{"double garbage", types.DoubleType, "12abc", `NULL | {"v":"12abc"` + cfp},
		{"float", types.FloatType, "0.1", "0.1"},
		{"decimal commas", types.DecimalOf(8, 2), `"1,234.565"`, "1234.57"},
		{"decimal overflow", types.DecimalOf(4, 2), "100", `NULL | {"v":"100"` + cfp},
		{"date", types.DateType, "2018-01-01", "2018-01-01"},
		{"date bad", types.DateType, "2018-13-01", `NULL | {"v":"2018-13-01"` + cfp},
		{"timestamp", types.TimestampType, "2010-12-01 08:26:00", "2010-12-01 08:26:00"},
		{"timestamp iso zone", types.TimestampType, "2010-12-01T08:26:00.5+01:00", "2010-12-01 07:26:00.5"},
		{"timestamp bad", types.TimestampType, "12/1/2010 8:26", `NULL | {"v":"12/1/2010 8:26"` + cfp},
		{"timestamp_ntz", types.TimestampNTZType, "2010-12-01 08:26:00", "2010-12-01 08:26:00"},
		{"binary is the raw bytes", types.BinaryType, "hi", "6869"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := types.Schema{field("v", tc.typ)}
			rows, _, err := decodeCSV(t, schema, "v\n"+tc.field+"\n", DefaultCSVOptions())
			if err != nil {
				t.Fatal(err)
			}
			if want := "v=" + tc.want; len(rows) != 1 || rows[0] != want {
				t.Errorf("got %q, want %q", rows, want)
			}
		})
	}
}

func TestCSVFail(t *testing.T) {
	opts := DefaultCSVOptions()
	opts.OnMalformed = Fail
	runFailCases(t, []failCase{
		{
			name:  "mismatch counts physical lines across quoted line breaks",
			input: "id,name,score\n1,\"multi\nline\",2\n\n2,\"b\",x\n",
			rows:  1,
			want:  DecodeError{File: "/landing/t.csv", Line: 5, Column: 7, Field: "score", Msg: `CSV value "x" is not a valid DOUBLE`},
			msg:   `/landing/t.csv:5:7: column "score": CSV value "x" is not a valid DOUBLE; fix the file, or set on_malformed: rescue to keep such values in the rescued-data column`,
		},
		{
			name:  "mismatch on the second line of a record",
			input: "id,name,score\n1,\"multi\nline\",zz\n",
			want:  DecodeError{File: "/landing/t.csv", Line: 3, Column: 7, Field: "score", Msg: `CSV value "zz" is not a valid DOUBLE`},
		},
		{
			name:  "wrong number of fields",
			input: "id,name,score\r\n1,a,2\r\n2,b\r\n",
			rows:  1,
			want:  DecodeError{File: "/landing/t.csv", Line: 3, Column: 1, Msg: `malformed CSV record: expected 3 fields, found 2`},
		},
		{
			name:  "text after a closing quote",
			input: "id,name,score\n1,\"ab\"c,2\n",
			want:  DecodeError{File: "/landing/t.csv", Line: 2, Column: 7, Msg: `malformed CSV record: unexpected "c" after a closing quote`},
		},
	}, func(input string) ([]record, error) {
		d := NewCSVDecoder(strings.NewReader(input), csvTestFile, columnNames(peopleSchema), opts)
		return csvRecords(d, peopleSchema), d.Err()
	})
}

// TestCSVFailOnNewColumns: under schema_evolution fail_on_new_columns a
// header name the schema does not declare fails the file before any row,
// at its place in the header, whatever on_malformed says.
func TestCSVFailOnNewColumns(t *testing.T) {
	opts := DefaultCSVOptions()
	opts.NewColumns = FailOnNewColumns
	d := NewCSVDecoder(strings.NewReader("id,name,score,city\n1,a,2,x\n"), csvTestFile, columnNames(peopleSchema), opts)
	if recs := csvRecords(d, peopleSchema); len(recs) != 0 {
		t.Errorf("%d records before the error, want none", len(recs))
	}
	want := DecodeError{File: "/landing/t.csv", Line: 1, Column: 15, Field: "city", Msg: `column "city" of the header is not in the source's schema (schema_evolution: fail_on_new_columns): add it to the schema (pipegen infer --write prints the new one) and run again`}
	var de *DecodeError
	if !errors.As(d.Err(), &de) || *de != want {
		t.Errorf("Err() = %+v\nwant %+v", d.Err(), want)
	}
	d = NewCSVDecoder(strings.NewReader("ID,Name,score\n1,a,2\n"), csvTestFile, columnNames(peopleSchema), opts)
	if recs := csvRecords(d, peopleSchema); len(recs) != 1 || d.Err() != nil {
		t.Errorf("known names in another case: %d records, %v", len(recs), d.Err())
	}
}
