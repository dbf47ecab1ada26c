package source

import (
	"encoding/hex"
	"errors"
	"testing"

	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// The drivers below walk a types.Schema and call the decoders exactly as
// generated code does for that schema, rendering each row as text, so that
// table-driven tests can state expected rows compactly:
//
//	a="x" b=1 c=[{q=1}] | {"z":1,"_file_path":"file:/t.json"}
//
// NULL is rendered NULL; the part after " | " is the rescued-data value.

func renderNull[T any](v types.Null[T], f func(T) string) string {
	if !v.Valid {
		return "NULL"
	}
	return f(v.V)
}

func jsonValue(d *JSONDecoder, t types.Type) string {
	switch t.Kind {
	case types.StringKind:
		return renderNull(d.String(), strconv.Quote)
	case types.BooleanKind:
		return renderNull(d.Bool(), strconv.FormatBool)
	case types.ByteKind:
		return renderNull(d.Int8(), func(v int8) string { return strconv.Itoa(int(v)) })
	case types.ShortKind:
		return renderNull(d.Int16(), func(v int16) string { return strconv.Itoa(int(v)) })
	case types.IntKind:
		return renderNull(d.Int32(), func(v int32) string { return strconv.Itoa(int(v)) })
	case types.LongKind:
		return renderNull(d.Int64(), func(v int64) string { return strconv.FormatInt(v, 10) })
	case types.FloatKind:
		return renderNull(d.Float32(), func(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) })
	case types.DoubleKind:
		return renderNull(d.Float64(), func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) })
	case types.DecimalKind:
		return renderNull(d.Decimal(t.Precision, t.Scale), func(v types.Decimal) string { return v.Format(t.Scale) })
	case types.DateKind:
		return renderNull(d.Date(), types.Date.String)
	case types.TimestampKind:
		return renderNull(d.Timestamp(), types.Timestamp.String)
	case types.TimestampNTZKind:
		return renderNull(d.TimestampNTZ(), types.Timestamp.String)
	case types.BinaryKind:
		return renderNull(d.Binary(), hex.EncodeToString)
	case types.ArrayKind:
		if !d.BeginArray() {
			return "NULL"
		}
		var elems []string
		for d.NextElement() {
			elems = append(elems, jsonValue(d, *t.Elem))
		}
		return "[" + strings.Join(elems, " ") + "]"
	case types.MapKind:
		if !d.BeginObject() {
			return "NULL"
		}
		var kv []string
		for d.NextField() {
			k := d.KeyString()
			kv = append(kv, strconv.Quote(k)+":"+jsonValue(d, *t.Value))
		}
		return "map[" + strings.Join(kv, " ") + "]"
	case types.StructKind:
		if !d.BeginObject() {
			return "NULL"
		}
		return "{" + jsonFields(d, t.Fields) + "}"
	}
	panic("unsupported type " + t.String())
}

// jsonFieldValues reads the fields of the open object, keys matched
// exactly, and returns the rendered values in field order.
func jsonFieldValues(d *JSONDecoder, fields []types.Field) []string {
	vals := make([]string, len(fields))
	for i := range vals {
		vals[i] = "NULL"
	}
	for d.NextField() {
		i := -1
		for j, f := range fields {
			if f.Name == string(d.Key()) {
				i = j
			}
		}
		if i < 0 {
			d.Unknown()
			continue
		}
		vals[i] = jsonValue(d, fields[i].Type)
	}
	return vals
}

func jsonFields(d *JSONDecoder, fields []types.Field) string {
	return renderFields(fields, jsonFieldValues(d, fields))
}

func renderFields(fields []types.Field, vals []string) string {
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.Name + "=" + vals[i])
	}
	return b.String()
}

// record is one decoded row: rendered column values and the rescued data.
type record struct {
	vals    []string
	rescued types.Null[string]
}

func (r record) String(schema types.Schema) string {
	return withRescued(renderFields(schema, r.vals), r.rescued)
}

// byName returns the row as a map from column name to rendered value, with
// the rescued value under "_rescued".
func (r record) byName(schema types.Schema) map[string]string {
	m := map[string]string{}
	for i, f := range schema {
		m[f.Name] = r.vals[i]
	}
	if r.rescued.Valid {
		m["_rescued"] = r.rescued.V
	}
	return m
}

func nullValues(n int) []string {
	vals := make([]string, n)
	for i := range vals {
		vals[i] = "NULL"
	}
	return vals
}

func allNull(fields []types.Field) string {
	return renderFields(fields, nullValues(len(fields)))
}

func withRescued(row string, rescued types.Null[string]) string {
	if rescued.Valid {
		return row + " | " + rescued.V
	}
	return row
}

// jsonRecords decodes a JSON-lines document with the driver.
func jsonRecords(d *JSONDecoder, schema types.Schema) []record {
	var recs []record
	for d.NextRecord() {
		vals := jsonFieldValues(d, schema)
		rescued, malformed := d.EndRecord()
		if malformed {
			vals = nullValues(len(schema))
		}
		recs = append(recs, record{vals, rescued})
	}
	return recs
}

func render(recs []record, schema types.Schema) []string {
	var rows []string
	for _, r := range recs {
		rows = append(rows, r.String(schema))
	}
	return rows
}

func jsonRows(d *JSONDecoder, schema types.Schema) []string {
	return render(jsonRecords(d, schema), schema)
}

func csvValue(d *CSVDecoder, col int, t types.Type) string {
	switch t.Kind {
	case types.StringKind:
		return renderNull(d.String(col), strconv.Quote)
	case types.BooleanKind:
		return renderNull(d.Bool(col), strconv.FormatBool)
	case types.ByteKind:
		return renderNull(d.Int8(col), func(v int8) string { return strconv.Itoa(int(v)) })
	case types.ShortKind:
		return renderNull(d.Int16(col), func(v int16) string { return strconv.Itoa(int(v)) })
	case types.IntKind:
		return renderNull(d.Int32(col), func(v int32) string { return strconv.Itoa(int(v)) })
	case types.LongKind:
		return renderNull(d.Int64(col), func(v int64) string { return strconv.FormatInt(v, 10) })
	case types.FloatKind:
		return renderNull(d.Float32(col), func(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) })
	case types.DoubleKind:
		return renderNull(d.Float64(col), func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) })
	case types.DecimalKind:
		return renderNull(d.Decimal(col, t.Precision, t.Scale), func(v types.Decimal) string { return v.Format(t.Scale) })
	case types.DateKind:
		return renderNull(d.Date(col), types.Date.String)
	case types.TimestampKind:
		return renderNull(d.Timestamp(col), types.Timestamp.String)
	case types.TimestampNTZKind:
		return renderNull(d.TimestampNTZ(col), types.Timestamp.String)
	case types.BinaryKind:
		return renderNull(d.Binary(col), hex.EncodeToString)
	}
	panic("CSV does not support " + t.String())
}

func csvRecords(d *CSVDecoder, schema types.Schema) []record {
	var recs []record
	for d.NextRecord() {
		vals := make([]string, len(schema))
		for i, f := range schema {
			vals[i] = csvValue(d, i, f.Type)
		}
		rescued, malformed := d.EndRecord()
		if malformed {
			vals = nullValues(len(schema))
		}
		recs = append(recs, record{vals, rescued})
	}
	return recs
}

func csvRows(d *CSVDecoder, schema types.Schema) []string {
	return render(csvRecords(d, schema), schema)
}

func columnNames(s types.Schema) []string {
	var names []string
	for _, f := range s {
		names = append(names, f.Name)
	}
	return names
}

// schemaOf builds a schema from "name TYPE" pairs for the common types.
func schemaOf(cols ...any) types.Schema {
	var s types.Schema
	for i := 0; i+1 < len(cols); i += 2 {
		s = append(s, types.Field{Name: cols[i].(string), Type: cols[i+1].(types.Type), Nullable: true})
	}
	return s
}

func field(name string, t types.Type) types.Field {
	return types.Field{Name: name, Type: t, Nullable: true}
}

// failCase is a case of on_malformed: fail: the decoder must stop with
// want after rows good records.
type failCase struct {
	name, input string
	rows        int
	want        DecodeError
	msg         string // the full message, when the case checks it
}

// runFailCases runs decode (which returns the records it produced, the
// failing one last, and the decoder's error) on each case.
func runFailCases(t *testing.T, cases []failCase, decode func(input string) ([]record, error)) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := decode(tc.input)
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("Err() = %v, want a *DecodeError", err)
			}
			if *de != tc.want {
				t.Errorf("error %+v\nwant  %+v", *de, tc.want)
			}
			if tc.msg != "" && de.Error() != tc.msg {
				t.Errorf("message %q\nwant    %q", de.Error(), tc.msg)
			}
			if len(recs)-1 != tc.rows {
				t.Errorf("%d good rows before the error, want %d", len(recs)-1, tc.rows)
			}
		})
	}
}
