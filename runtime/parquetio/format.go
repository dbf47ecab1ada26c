package parquetio

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/types"
)

// FormatValue renders a generic value (see "Generic values") of type t as
// Spark's show() prints it (Spark 3.5 casts to STRING): NULL, true, 12,
// 1.5, 1.0E10, 12.30 (decimals keep their scale), 2024-03-01,
// 2024-03-01 12:34:56.789 (UTC, trailing zeros of the fraction cut),
// [1, 2, NULL], {a -> 1, b -> NULL}, {1, x} for structs, [0A FF] for binary.
func FormatValue(v any, t types.Type) string {
	var b strings.Builder
	formatValue(&b, v, t)
	return b.String()
}

// FormatRow renders a row of generic values as FormatValue does, columns
// separated by " | ": a stable text form for sorting and comparing rows.
func FormatRow(values []any, s types.Schema) string {
	var b strings.Builder
	for i, f := range s {
		if i > 0 {
			b.WriteString(" | ")
		}
		var v any
		if i < len(values) {
			v = values[i]
		}
		formatValue(&b, v, f.Type)
	}
	return b.String()
}

func formatValue(b *strings.Builder, v any, t types.Type) {
	if v == nil {
		b.WriteString("NULL")
		return
	}
	switch t.Kind {
	case types.ArrayKind:
		list, _ := v.([]any)
		b.WriteByte('[')
		for i, x := range list {
			if i > 0 {
				b.WriteString(", ")
			}
			formatValue(b, x, *t.Elem)
		}
		b.WriteByte(']')
		return
	case types.MapKind:
		entries, _ := v.([]MapEntry)
		b.WriteByte('{')
		for i, e := range entries {
			if i > 0 {
				b.WriteString(", ")
			}
			formatValue(b, e.Key, *t.Key)
			b.WriteString(" -> ")
			formatValue(b, e.Value, *t.Value)
		}
		b.WriteByte('}')
		return
	case types.StructKind:
		s, _ := v.(Struct)
		b.WriteByte('{')
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			var x any
			if i < len(s) {
				x = s[i]
			}
			formatValue(b, x, f.Type)
		}
		b.WriteByte('}')
		return
	case types.BinaryKind:
		bs, _ := v.([]byte)
		b.WriteByte('[')
		for i, c := range bs {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(b, "%02X", c)
		}
		b.WriteByte(']')
		return
	}
	b.WriteString(scalarString(v, t))
}

// scalarString renders a primitive value as Spark casts it to STRING.
func scalarString(v any, t types.Type) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int8:
		return strconv.FormatInt(int64(x), 10)
	case int16:
		return strconv.FormatInt(int64(x), 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case float32:
		return JavaFloatString(float64(x), 32)
	case float64:
		return JavaFloatString(x, 64)
	case types.Decimal:
		return x.Format(t.Scale)
	case string:
		return x
	case types.Date:
		return x.String()
	case types.Timestamp:
		return x.String()
	case types.Interval:
		return formatInterval(x)
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

// JavaFloatString formats f as Java's Double.toString (bits 64) or
// Float.toString (bits 32) do, which is how Spark prints FLOAT and DOUBLE:
// 1.0, 0.001, 1.0E7, 1.5E-4, NaN, Infinity (sqlfn's CAST to STRING).
func JavaFloatString(f float64, bits int) string {
	if bits == 32 {
		return sqlfn.CastFloat32String(float32(f))
	}
	return sqlfn.CastFloat64String(f)
}

func formatInterval(x types.Interval) string {
	d := time.Duration(x) * time.Microsecond
	return d.String()
}

// AppendJSON appends v of type t as Spark's JSON writer renders it:
// numbers and booleans bare (decimals with their scale), strings quoted,
// DATE "2024-03-01", TIMESTAMP "2024-03-01T12:34:56.789Z" (ISO 8601, UTC,
// fraction only when non-zero), BINARY base64, ARRAY as arrays, MAP as
// objects keyed by the key's string form, STRUCT as objects whose NULL
// fields are left out (Spark's ignoreNullFields), NaN and infinities as
// strings.
func AppendJSON(dst []byte, v any, t types.Type) []byte {
	if v == nil {
		return append(dst, "null"...)
	}
	switch t.Kind {
	case types.ArrayKind:
		list, _ := v.([]any)
		dst = append(dst, '[')
		for i, x := range list {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendJSON(dst, x, *t.Elem)
		}
		return append(dst, ']')
	case types.MapKind:
		entries, _ := v.([]MapEntry)
		dst = append(dst, '{')
		for i, e := range entries {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = sqlfn.AppendJSONString(dst, scalarString(e.Key, *t.Key))
			dst = append(dst, ':')
			dst = AppendJSON(dst, e.Value, *t.Value)
		}
		return append(dst, '}')
	case types.StructKind:
		s, _ := v.(Struct)
		return appendJSONObject(dst, s, t.Fields)
	case types.StringKind:
		return sqlfn.AppendJSONString(dst, v.(string))
	case types.BinaryKind:
		return sqlfn.AppendJSONString(dst, base64.StdEncoding.EncodeToString(v.([]byte)))
	case types.DateKind:
		return sqlfn.AppendJSONString(dst, v.(types.Date).String())
	case types.TimestampKind:
		tm := v.(types.Timestamp).Time()
		return sqlfn.AppendJSONString(dst, tm.Format("2006-01-02T15:04:05.999999Z07:00"))
	case types.TimestampNTZKind:
		tm := v.(types.Timestamp).Time()
		return sqlfn.AppendJSONString(dst, tm.Format("2006-01-02T15:04:05.999999"))
	case types.FloatKind, types.DoubleKind:
		f, ok := v.(float64)
		if !ok {
			f = float64(v.(float32))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return sqlfn.AppendJSONString(dst, scalarString(v, t))
		}
	}
	return append(dst, scalarString(v, t)...)
}

// RowJSON renders a row of generic values as one JSON object, columns in
// schema order, NULL columns left out (Spark's JSON writer).
func RowJSON(values []any, s types.Schema) string {
	return string(appendJSONObject(nil, values, s))
}

func appendJSONObject(dst []byte, values []any, fields []types.Field) []byte {
	dst = append(dst, '{')
	first := true
	for i, f := range fields {
		if i >= len(values) || values[i] == nil {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = sqlfn.AppendJSONString(dst, f.Name)
		dst = append(dst, ':')
		dst = AppendJSON(dst, values[i], f.Type)
	}
	return append(dst, '}')
}
