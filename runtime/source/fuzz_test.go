package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/types"
)

// allTypesSchema has a column of every type the JSON decoder reads.
var allTypesSchema = types.Schema{
	field("s", types.StringType), field("b", types.BooleanType), field("i8", types.ByteType),
	field("i16", types.ShortType), field("i32", types.IntType), field("i64", types.LongType),
	field("f32", types.FloatType), field("f64", types.DoubleType), field("dec", types.DecimalOf(10, 3)),
	field("big", types.DecimalOf(38, 4)), field("d", types.DateType), field("ts", types.TimestampType),
	field("ntz", types.TimestampNTZType), field("bin", types.BinaryType),
	field("arr", types.ArrayOf(types.ArrayOf(types.IntType, true), true)),
	field("st", types.StructOf(field("a", types.StringType), field("n", types.StructOf(field("x", types.DoubleType))))),
	field("m", types.MapOf(types.StringType, types.LongType, true)),
}

// nonBlankLines counts the lines a JSON-lines decoder must turn into rows.
func nonBlankLines(data []byte) int {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	n := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.Trim(line, " \t\r")) > 0 {
			n++
		}
	}
	return n
}

func FuzzJSONDecoder(f *testing.F) {
	for _, s := range []string{
		`{"s":"a","b":true,"i8":1,"i64":-5,"f64":1.5e3,"dec":"1,234.5675","d":"2024-02-29","ts":"2024-03-01T12:00:00.5+01:00","bin":"aGk=","arr":[[1,null],[]],"st":{"a":"x","n":{"x":NaN}},"m":{"k":1}}`,
		"{\"s\":{\"x\": [1, \"\\u00e9\"]}}\r\n\n{\"zz\":1}\n[1]\n",
		`{"s":"\ud83d\ude00","i32":2147483648,"big":-99999999999999999999999999999999.99995}`,
		"\ufeff{\"arr\":[[1,2],[3,\"x\"]],\"st\":null}",
		`{"a":"b",}`,
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		decode := func(chunk int, opts Options) ([]record, Stats, error) {
			d := NewJSONDecoder(bytes.NewReader(data), testFile, opts)
			if chunk > 0 {
				d.in.setChunk(chunk)
			}
			return jsonRecords(d, allTypesSchema), d.Stats(), d.Err()
		}
		recs, st, err := decode(0, Options{})
		if err != nil {
			t.Fatalf("rescue mode returned %v", err)
		}
		// No record is dropped: every non-blank line is a row.
		if want := nonBlankLines(data); len(recs) != want || st.Rows != int64(want) {
			t.Fatalf("%d rows (stats %+v) from %d non-blank lines", len(recs), st, want)
		}
		rescued, malformed := int64(0), int64(0)
		for _, r := range recs {
			if r.rescued.Valid {
				rescued++
				if !json.Valid([]byte(r.rescued.V)) {
					malformed++ // the raw text of a malformed line
				} else if !strings.HasSuffix(r.rescued.V, fp) && !strings.HasPrefix(r.rescued.V, "{") {
					malformed++ // a valid JSON line that is not an object
				}
			}
			for _, v := range r.vals {
				if !utf8.ValidString(v) {
					t.Fatalf("invalid UTF-8 in value %q", v)
				}
			}
		}
		if st.Rescued != rescued || st.Malformed > st.Rescued {
			t.Fatalf("stats %+v, but %d rows carry rescued data", st, rescued)
		}
		again, st2, _ := decode(1+int(chunk%32), Options{})
		if !slices.EqualFunc(recs, again, func(a, b record) bool {
			return slices.Equal(a.vals, b.vals) && a.rescued == b.rescued
		}) || st2 != st {
			t.Fatalf("chunk size %d changed the result", 1+chunk%32)
		}
		// Fail mode stops at the first problem with an error, or agrees.
		failRecs, _, ferr := decode(0, Options{OnMalformed: Fail})
		if ferr == nil && st.Malformed > 0 {
			t.Fatalf("fail mode: no error but %d malformed lines", st.Malformed)
		}
		if ferr != nil {
			var de *DecodeError
			if !errors.As(ferr, &de) || de.Line < 1 || de.Column < 1 {
				t.Fatalf("fail mode error %#v", ferr)
			}
		}
		if len(failRecs) > len(recs) {
			t.Fatalf("fail mode produced more rows")
		}
	})
}

func FuzzCSVDecoder(f *testing.F) {
	for _, s := range []string{
		"id,name,score\n1,\"a,b\",1.5\n2,\"x\"\"y\",\n",
		"\ufeffid;name\r\n\"multi\nline\";\"\"\r\n",
		"id,name\n1,\"unterminated\n",
		"name,ID,extra\n\"a\\\"b\",7,8\n",
	} {
		f.Add([]byte(s), uint8(0), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8, header bool) {
		opts := DefaultCSVOptions()
		opts.Header = header
		if chunk&0x80 != 0 {
			opts.Delimiter = ';'
			opts.Escape = '"'
		}
		decode := func(chunk int, o CSVOptions) ([]record, Stats, error) {
			d := NewCSVDecoder(bytes.NewReader(data), csvTestFile, columnNames(peopleSchema), o)
			if chunk > 0 {
				d.in.setChunk(chunk)
			}
			return csvRecords(d, peopleSchema), d.Stats(), d.Err()
		}
		recs, st, err := decode(0, opts)
		if err != nil {
			t.Fatalf("rescue mode returned %v", err)
		}
		if st.Rows != int64(len(recs)) || st.Malformed > st.Rescued {
			t.Fatalf("stats %+v for %d rows", st, len(recs))
		}
		for _, r := range recs {
			if r.rescued.Valid && !r.isMalformed() && !json.Valid([]byte(r.rescued.V)) {
				t.Fatalf("rescued value is not JSON: %q", r.rescued.V)
			}
			for _, v := range r.vals {
				if !utf8.ValidString(v) {
					t.Fatalf("invalid UTF-8 in value %q", v)
				}
			}
		}
		again, st2, _ := decode(1+int(chunk%32), opts)
		if !slices.EqualFunc(recs, again, func(a, b record) bool {
			return slices.Equal(a.vals, b.vals) && a.rescued == b.rescued
		}) || st2 != st {
			t.Fatalf("chunk size %d changed the result", 1+chunk%32)
		}
		o := opts
		o.OnMalformed = Fail
		if _, _, ferr := decode(0, o); ferr == nil && st.Malformed > 0 {
			t.Fatalf("fail mode: no error but %d malformed records", st.Malformed)
		}
	})
}

// isMalformed reports a row whose every value is NULL and whose rescued
// value is not a rescued-fields object (so it is a raw malformed record).
func (r record) isMalformed() bool {
	return r.rescued.Valid && !strings.HasSuffix(r.rescued.V, `"_file_path":"file:/landing/t.csv"}`)
}

var (
	bigDecimalSyntax = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)
	hugeExponent     = regexp.MustCompile(`[eE][+-]?0*[1-9][0-9]{3,}$`)
)

// FuzzParseDecimal checks parseDecimal against exact rational arithmetic:
// the value times 10^scale, rounded half away from zero, within precision.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"123.455", "-1.005", "999.995", "1e-3", ".5", "5.", "0", "-0.0", "1,234.5", "12345678901234567890123456789012345678.9"} {
		f.Add(s, uint8(5), uint8(2))
	}
	f.Fuzz(func(t *testing.T, s string, p, sc uint8) {
		prec := 1 + int(p)%types.MaxDecimalPrecision
		scale := int(sc) % (prec + 1)
		got, ok := parseDecimal([]byte(s), prec, scale, false)
		if !bigDecimalSyntax.MatchString(s) {
			if ok {
				t.Fatalf("parseDecimal(%q) accepted text that is not a BigDecimal", s)
			}
			return
		}
		if hugeExponent.MatchString(s) {
			return // beyond what the reference computes quickly (and Java's int exponents)
		}
		r, rok := new(big.Rat).SetString(strings.TrimPrefix(s, "+"))
		if !rok {
			t.Fatalf("reference cannot parse %q", s)
		}
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
		neg := r.Sign() < 0
		r.Abs(r)
		r.Add(r, big.NewRat(1, 2))
		q := new(big.Int).Quo(r.Num(), r.Denom()) // floor(|x| + 1/2): HALF_UP
		fits := len(q.String()) <= prec
		if neg {
			q.Neg(q)
		}
		if ok != fits {
			t.Fatalf("parseDecimal(%q, %d, %d) ok=%v, want %v (%s)", s, prec, scale, ok, fits, q)
		}
		if ok {
			gotInt := new(big.Int).Lsh(big.NewInt(got.Hi), 64)
			gotInt.Add(gotInt, new(big.Int).SetUint64(got.Lo))
			if gotInt.Cmp(q) != 0 {
				t.Fatalf("parseDecimal(%q, %d, %d) = %s, want %s", s, prec, scale, gotInt, q)
			}
		}
	})
}
