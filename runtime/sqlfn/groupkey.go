package sqlfn

import (
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// GroupKey is the key of a GROUP BY value Go cannot compare (a MAP, or an
// ARRAY or STRUCT holding one): a canonical encoding in which two maps with
// the same entries are equal whatever their order (Spark sorts a map's
// entries before grouping by it), and NaN and -0.0 are normalized as
// Spark's NormalizeFloatingNumbers does.
func GroupKey(v any) string {
	var b strings.Builder
	groupKey(&b, reflect.ValueOf(v))
	return b.String()
}

func groupKey(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Invalid:
		b.WriteByte('N')
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteByte('N')
			return
		}
		b.WriteByte('P')
		groupKey(b, v.Elem())
	case reflect.Bool:
		if v.Bool() {
			b.WriteByte('T')
		} else {
			b.WriteByte('F')
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteByte('i')
		b.Write(binary.BigEndian.AppendUint64(nil, uint64(v.Int())))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteByte('u')
		b.Write(binary.BigEndian.AppendUint64(nil, v.Uint()))
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		switch {
		case f != f:
			f = math.NaN()
		case f == 0:
			f = 0
		}
		b.WriteByte('f')
		b.Write(binary.BigEndian.AppendUint64(nil, math.Float64bits(f)))
	case reflect.String:
		s := v.String()
		b.WriteByte('s')
		b.Write(binary.BigEndian.AppendUint64(nil, uint64(len(s))))
		b.WriteString(s)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			s := string(v.Bytes())
			b.WriteByte('b')
			b.Write(binary.BigEndian.AppendUint64(nil, uint64(len(s))))
			b.WriteString(s)
			return
		}
		n := v.Len()
		elems := make([]string, n)
		for i := range n {
			var e strings.Builder
			groupKey(&e, v.Index(i))
			elems[i] = e.String()
		}
		if isMapEntry(v.Type().Elem()) {
			// A map: its entries in a canonical order.
			slices.Sort(elems)
			b.WriteByte('m')
		} else {
			b.WriteByte('a')
		}
		b.Write(binary.BigEndian.AppendUint64(nil, uint64(n)))
		for _, e := range elems {
			b.Write(binary.BigEndian.AppendUint64(nil, uint64(len(e))))
			b.WriteString(e)
		}
	case reflect.Struct:
		b.WriteByte('{')
		for i := range v.NumField() {
			groupKey(b, v.Field(i))
		}
		b.WriteByte('}')
	default:
		// Values of the SQL types are the kinds above; anything else
		// keys by its printed form.
		b.WriteByte('?')
		b.WriteString(v.Type().String())
	}
}

// isMapEntry reports whether t is types.KV[K, V], the entry type of MAP
// values.
func isMapEntry(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.PkgPath() == kvType.PkgPath() && strings.HasPrefix(t.Name(), "KV[")
}

var kvType = reflect.TypeOf(types.KV[int, int]{})
