package source

import (
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/pipegen/pipegen/runtime/types"
)

// TestCSVOptions checks each csv: option of the spec on small files, with
// the results Spark's CSV reader gives for them.
func TestCSVOptions(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no time zone database")
	}
	noHeader := DefaultCSVOptions()
	noHeader.Header = false
	rfc := noHeader
	rfc.Escape = '"'
	with := func(f func(o *CSVOptions)) CSVOptions {
		o := rfc
		f(&o)
		return o
	}
	mixed := schemaOf("id", types.IntType, "d", types.DateType, "ts", types.TimestampType, "n", types.StringType)
	idT := schemaOf("id", types.IntType, "t", types.StringType)
	dbl := schemaOf("id", types.IntType, "v", types.DoubleType)
	for _, tc := range []struct {
		name             string
		opts             CSVOptions
		schema           types.Schema
		input            string
		want             []string
		rescued, badRecs int64
	}{
		{
			name: "the brief's example: comment, formats, white space, session time zone",
			opts: with(func(o *CSVOptions) {
				o.Comment = '#'
				o.DateFormat, o.TimestampFormat = "dd.MM.yyyy", "MM/dd/yyyy HH:mm"
				o.IgnoreLeadingWhiteSpace, o.IgnoreTrailingWhiteSpace = true, true
				o.TimeZone = paris
			}),
			schema: mixed,
			input:  "# c1\n1,03.12.2010,12/03/2010 14:05,  8  \n",
			// 14:05 in Paris (UTC+1 in December) is 13:05 UTC.
			want: []string{`id=1 d=2010-12-03 ts=2010-12-03 13:05:00 n="8"`},
		},
		{
			name:   "comment lines anywhere between records, not inside a quoted value",
			opts:   with(func(o *CSVOptions) { o.Comment = '#' }),
			schema: idT,
			input:  "#a\n1,\"x\n#not a comment\"\n  #indented is data\n#b",
			want:   []string{`id=1 t="x\n#not a comment"`, `id=NULL t=NULL |   #indented is data`},
			// "  #indented is data" has one field for two columns
			rescued: 1, badRecs: 1,
		},
		{
			name:   "a comment line before the header",
			opts:   func() CSVOptions { o := DefaultCSVOptions(); o.Comment = ';'; return o }(),
			schema: idT,
			input:  ";generated\nt,id\nx,1\n",
			want:   []string{`id=1 t="x"`},
		},
		{
			name:   "without comment, # is data",
			opts:   rfc,
			schema: idT,
			input:  "# c1\n",
			want:   []string{`id=NULL t=NULL | # c1`},
			// one field: malformed
			rescued: 1, badRecs: 1,
		},
		{
			name: "strict date and timestamp patterns: other forms are rescued",
			opts: with(func(o *CSVOptions) {
				o.DateFormat, o.TimestampFormat = "dd.MM.yyyy", "yyyy-MM-dd HH:mm:ss XXX"
			}),
			schema: mixed,
			input:  "1,2010-12-03,2010-12-03 14:05:00 +02:00,a\n2,31.02.2010,2010-12-03T14:05,b\n",
			want: []string{
				`id=1 d=NULL ts=2010-12-03 12:05:00 n="a" | {"d":"2010-12-03"` + csvfp,
				`id=2 d=NULL ts=NULL n="b" | {"d":"31.02.2010","ts":"2010-12-03T14:05"` + csvfp,
			},
			rescued: 2,
		},
		{
			name:   "leading and trailing white space kept by default",
			opts:   rfc,
			schema: idT,
			input:  "1, a \n",
			want:   []string{`id=1 t=" a "`},
		},
		{
			name:   "white space outside quotes is dropped, inside kept",
			opts:   with(func(o *CSVOptions) { o.IgnoreLeadingWhiteSpace, o.IgnoreTrailingWhiteSpace = true, true }),
			schema: idT,
			input:  " 1 ,  \" a \"  \n\t2\t,\tb\t\r\n",
			want:   []string{`id=1 t=" a "`, `id=2 t="b"`},
		},
		{
			name:   "leading only",
			opts:   with(func(o *CSVOptions) { o.IgnoreLeadingWhiteSpace = true }),
			schema: idT,
			input:  "1,  a  \n",
			want:   []string{`id=1 t="a  "`},
		},
		{
			name:   "trailing only",
			opts:   with(func(o *CSVOptions) { o.IgnoreTrailingWhiteSpace = true }),
			schema: idT,
			input:  "1,  a  \n",
			want:   []string{`id=1 t="  a"`},
		},
		{
			name: "tab delimiter is not white space",
			opts: with(func(o *CSVOptions) {
				o.Delimiter = '\t'
				o.IgnoreLeadingWhiteSpace, o.IgnoreTrailingWhiteSpace = true, true
			}),
			schema: idT,
			input:  "1\t \n",
			want:   []string{`id=1 t=NULL`},
		},
		{
			name:   "multi_line true: a quoted value spans lines",
			opts:   rfc,
			schema: idT,
			input:  "1,\"a\nb\"\n2,x\n",
			want:   []string{`id=1 t="a\nb"`, `id=2 t="x"`},
		},
		{
			name:    "multi_line false: each physical line is a record",
			opts:    with(func(o *CSVOptions) { o.SingleLine = true }),
			schema:  idT,
			input:   "1,\"a\nb\"\n2,x\n",
			want:    []string{`id=NULL t=NULL | 1,"a`, `id=NULL t=NULL | b"`, `id=2 t="x"`},
			rescued: 2, badRecs: 2,
		},
		{
			name:   "empty_value: a quoted empty string reads as it, an unquoted empty field stays NULL",
			opts:   with(func(o *CSVOptions) { o.EmptyValue = "EMPTY" }),
			schema: idT,
			input:  "1,\"\"\n2,\n",
			want:   []string{`id=1 t="EMPTY"`, `id=2 t=NULL`},
		},
		{
			name:    "empty_value for a number column is parsed, so it is a mismatch",
			opts:    with(func(o *CSVOptions) { o.EmptyValue = "EMPTY" }),
			schema:  idT,
			input:   "\"\",a\n",
			want:    []string{`id=NULL t="a" | {"id":"EMPTY"` + csvfp},
			rescued: 1,
		},
		{
			name:    "nan_value adds a NaN text; NaN itself still reads",
			opts:    with(func(o *CSVOptions) { o.NaNValue = "n/a" }),
			schema:  dbl,
			input:   "1,n/a\n2,NaN\n3,N/A\n",
			want:    []string{`id=1 v=NaN`, `id=2 v=NaN`, `id=3 v=NULL | {"v":"N/A"` + csvfp},
			rescued: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, st, err := decodeCSV(t, tc.schema, tc.input, tc.opts)
			checkDecoded(t, rows, st, err, tc.want, tc.rescued, tc.badRecs)
		})
	}
}

const csvfp = `,"_file_path":"file:/landing/t.csv"}`

// TestCSVOptionsFail checks the positions of on_malformed: fail errors that
// the options introduce.
func TestCSVOptionsFail(t *testing.T) {
	o := DefaultCSVOptions()
	o.Header, o.Escape, o.OnMalformed = false, '"', Fail
	o.SingleLine, o.DateFormat = true, "dd.MM.yyyy"
	for _, tc := range []struct{ input, want string }{
		{"1,\"a\nb\"\n", `/landing/t.csv:1:3: malformed CSV record: unterminated quoted field (multi_line is false: a quoted value cannot span lines)`},
		{"# x\n1,2010-01-02\n", `/landing/t.csv:1:1: malformed CSV record: expected 2 fields, found 1`},
	} {
		d := NewCSVDecoder(strings.NewReader(tc.input), csvTestFile, []string{"id", "d"}, o)
		schema := schemaOf("id", types.IntType, "d", types.DateType)
		csvRows(d, schema)
		if err := d.Err(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want prefix %s", tc.input, err, tc.want)
		}
	}
	d := NewCSVDecoder(strings.NewReader("1,2010-01-02\n"), csvTestFile, []string{"id", "d"}, o)
	csvRows(d, schemaOf("id", types.IntType, "d", types.DateType))
	want := `/landing/t.csv:1:3: column "d": CSV value "2010-01-02" is not a valid DATE`
	if err := d.Err(); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want prefix %s", err, want)
	}
}

// TestCSVEncoding reads Latin-1 and UTF-16 files: the text is converted to
// UTF-8 before parsing, as Spark's encoding option does.
func TestCSVEncoding(t *testing.T) {
	schema := schemaOf("id", types.IntType, "t", types.StringType)
	want := []string{`id=1 t="café"`, `id=2 t="naïve, \"x\""`}
	text := "id,t\n1,café\n2,\"naïve, \"\"x\"\"\"\n"
	latin1, err := charmap.ISO8859_1.NewEncoder().String(text)
	if err != nil {
		t.Fatal(err)
	}
	utf16, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ enc, input string }{
		{"ISO-8859-1", latin1}, {"latin1", latin1}, {"UTF-16", utf16}, {"utf-8", text}, {"UTF8", text},
	} {
		o := DefaultCSVOptions()
		o.Escape, o.Encoding = '"', tc.enc
		rows, _, err := decodeCSV(t, schema, tc.input, o)
		if err != nil {
			t.Fatalf("%s: %v", tc.enc, err)
		}
		if !slices.Equal(rows, want) {
			t.Errorf("%s: rows %q, want %q", tc.enc, rows, want)
		}
	}
	if _, err := CSVEncoding("klingon"); err == nil {
		t.Error("unknown encoding accepted")
	}
	o := DefaultCSVOptions()
	o.Encoding = "klingon"
	d := NewCSVDecoder(strings.NewReader(text), csvTestFile, []string{"id", "t"}, o)
	if d.NextRecord() || d.Err() == nil || !strings.Contains(d.Err().Error(), `unknown or unsupported encoding "klingon"`) {
		t.Errorf("unknown encoding: err %v", d.Err())
	}
}

// decodeJSONWith is decodeJSON with JSON options.
func decodeJSONWith(t *testing.T, schema types.Schema, input string, opts JSONOptions) ([]string, Stats, error) {
	t.Helper()
	return sameForChunks(t, []int{0, 1, 3, 16}, func(chunk int) ([]string, Stats, error) {
		d := NewJSONDecoderWith(strings.NewReader(input), testFile, opts)
		if chunk > 0 {
			d.in.setChunk(chunk)
		}
		return jsonRows(d, schema), d.Stats(), d.Err()
	})
}

// TestJSONOptions checks each json: option of the spec with Jackson's
// meaning of the feature Spark turns on for it.
func TestJSONOptions(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no time zone database")
	}
	idS := schemaOf("id", types.StringType, "n", types.IntType)
	dbl := schemaOf("id", types.DoubleType, "v", types.DoubleType)
	dt := schemaOf("d", types.DateType, "ts", types.TimestampType)
	def := JSONOptions{}
	for _, tc := range []struct {
		name             string
		opts             JSONOptions
		schema           types.Schema
		input            string
		want             []string
		rescued, badRecs int64
	}{
		{
			name:   "single quotes accepted by default, with \\' and a double quote inside",
			opts:   def,
			schema: idS,
			input:  `{'id': 'it\'s "x"', 'n': 1}` + "\n" + `{"id": "it's", "n": 2}`,
			want:   []string{`id="it's \"x\"" n=1`, `id="it's" n=2`},
		},
		{
			name:    "single quotes in a rescued value are rescued as valid JSON",
			opts:    def,
			schema:  idS,
			input:   `{'id': 'a', 'n': 'x', 'extra': ['y']}`,
			want:    []string{`id="a" n=NULL | {"n":"x","extra":["y"]` + fp},
			rescued: 1,
		},
		{
			name:    "allow_single_quotes false: malformed",
			opts:    JSONOptions{RejectSingleQuotes: true},
			schema:  idS,
			input:   `{'id': 'x'}`,
			want:    []string{`id=NULL n=NULL | {'id': 'x'}`},
			rescued: 1, badRecs: 1,
		},
		{
			name:    "comments rejected by default",
			opts:    def,
			schema:  idS,
			input:   `{"id": "a"} // c`,
			want:    []string{`id=NULL n=NULL | {"id": "a"} // c`},
			rescued: 1, badRecs: 1,
		},
		{
			name:   "allow_comments: block and line comments; a comment-only line is skipped",
			opts:   JSONOptions{AllowComments: true},
			schema: idS,
			input:  "// header\n{\"id\": /* the id */ \"a/b\", \"n\": 1} // trailing\n/* x */\n",
			want:   []string{`id="a/b" n=1`},
		},
		{
			name:    "unquoted field names rejected by default",
			opts:    def,
			schema:  idS,
			input:   `{id: "a"}`,
			want:    []string{`id=NULL n=NULL | {id: "a"}`},
			rescued: 1, badRecs: 1,
		},
		{
			name:    "allow_unquoted_field_names, also nested; values are not names",
			opts:    JSONOptions{AllowUnquotedFieldNames: true},
			schema:  schemaOf("id", types.StringType, "s", types.StructOf(field("a", types.ArrayOf(types.BooleanType, true)))),
			input:   `{id: "x", s: {a: [true, false]}, $extra_1: null}`,
			want:    []string{`id="x" s={a=[true false]} | {"$extra_1":null` + fp},
			rescued: 1,
		},
		{
			name:    "leading zeros rejected by default",
			opts:    def,
			schema:  idS,
			input:   `{"n": 007}`,
			want:    []string{`id=NULL n=NULL | {"n": 007}`},
			rescued: 1, badRecs: 1,
		},
		{
			name:   "allow_numeric_leading_zeros",
			opts:   JSONOptions{AllowNumericLeadingZeros: true},
			schema: schemaOf("n", types.IntType, "m", types.IntType, "x", types.DoubleType, "s", types.StringType),
			input:  `{"n": 007, "m": -0012, "x": 00.5, "s": "007"}`,
			want:   []string{`n=7 m=-12 x=0.5 s="007"`},
		},
		{
			name:   "non-numeric numbers accepted by default",
			opts:   def,
			schema: dbl,
			input:  `{"id": NaN, "v": -Infinity}` + "\n" + `{"id": "Infinity", "v": "NaN"}`,
			want:   []string{`id=NaN v=-Inf`, `id=+Inf v=NaN`},
		},
		{
			name:    "allow_non_numeric_numbers false: tokens are malformed, strings mismatched",
			opts:    JSONOptions{RejectNonNumericNumbers: true},
			schema:  dbl,
			input:   `{"id": NaN, "v": 1}` + "\n" + `{"id": "Infinity", "v": 2, "name": "Ivan"}`,
			want:    []string{`id=NULL v=NULL | {"id": NaN, "v": 1}`, `id=NULL v=2 | {"id":"Infinity","name":"Ivan"` + fp},
			rescued: 2, badRecs: 1,
		},
		{
			name:   "date_format and timestamp_format, zone-less text in the session time zone",
			opts:   JSONOptions{Options: Options{DateFormat: "dd/MM/yyyy", TimestampFormat: "dd/MM/yyyy HH:mm[:ss]", TimeZone: paris}},
			schema: dt,
			input:  `{"d": "03/12/2010", "ts": "01/07/2020 14:05"}` + "\n" + `{"d": "2010-12-03", "ts": "2020-07-01T14:05:00Z"}`,
			want: []string{
				`d=2010-12-03 ts=2020-07-01 12:05:00`,
				`d=NULL ts=NULL | {"d":"2010-12-03","ts":"2020-07-01T14:05:00Z"` + fp,
			},
			rescued: 1,
		},
		{
			name:   "epoch seconds still read with a timestamp_format",
			opts:   JSONOptions{Options: Options{TimestampFormat: "dd/MM/yyyy"}},
			schema: dt,
			input:  `{"ts": 86400}`,
			want:   []string{`d=NULL ts=1970-01-02 00:00:00`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, st, err := decodeJSONWith(t, tc.schema, tc.input, tc.opts)
			checkDecoded(t, rows, st, err, tc.want, tc.rescued, tc.badRecs)
		})
	}
}

// TestJSONOptionsFailPosition checks that errors on a rewritten line name
// the column of the line as written.
func TestJSONOptionsFailPosition(t *testing.T) {
	for _, tc := range []struct {
		opts  JSONOptions
		input string
		want  string
	}{
		{JSONOptions{}, `{'a': 'x', 'n': 'y'}`, `/landing/t.json:1:17: column "n": JSON value "y" is not a valid INT`},
		{JSONOptions{AllowUnquotedFieldNames: true}, `{a: 1, n: true}`, `/landing/t.json:1:11: column "n": JSON value true is not a valid INT`},
		{JSONOptions{RejectNonNumericNumbers: true}, `{"a": "I", "n": -Infinity}`, `/landing/t.json:1:17: malformed JSON record: NaN and Infinity are not allowed`},
		{JSONOptions{AllowNumericLeadingZeros: true}, `{"a": 0001, "n": 0.5}`, `/landing/t.json:1:18: column "n": JSON value 0.5 is not a valid INT`},
	} {
		tc.opts.OnMalformed = Fail
		d := NewJSONDecoderWith(strings.NewReader(tc.input), testFile, tc.opts)
		jsonRows(d, schemaOf("a", types.StringType, "n", types.IntType))
		if err := d.Err(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want prefix %s", tc.input, err, tc.want)
		}
	}
}

// checkDecoded compares what a decoder returned with the rows and the
// rescued and malformed counts a case wants.
func checkDecoded(t *testing.T, rows []string, st Stats, err error, want []string, rescued, malformed int64) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows, want) {
		t.Errorf("rows\n%q\nwant\n%q", rows, want)
	}
	if st.Rescued != rescued || st.Malformed != malformed {
		t.Errorf("stats %+v, want rescued %d malformed %d", st, rescued, malformed)
	}
}
