package sqlfn

import (
	"bytes"
	"cmp"
	"math"
	"reflect"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// Compare orders two non-NULL values of the same SQL type: -1, 0 or +1,
// with Spark's ordering (SQLOrderingUtil and the interpreted orderings of
// ArrayType and StructType):
//   - FLOAT, DOUBLE: -0.0 equals 0.0; NaN equals NaN and is larger than
//     every other value, +Inf included;
//   - BOOLEAN: false < true;
//   - STRING, BINARY: unsigned byte order (UTF-8 binary collation);
//   - DECIMAL: numeric order of unscaled values of the same scale;
//   - integral, DATE, TIMESTAMP, INTERVAL: numeric order;
//   - ARRAY: element by element, then the shorter first; STRUCT: field by
//     field; a NULL element or field (types.Null) sorts before any value.
//
// The common scalar types take a fast path; nested values go through
// reflection.
func Compare[T any](a, b T) int {
	switch x := any(a).(type) {
	case float64:
		return compareFloat(x, any(b).(float64))
	case float32:
		return compareFloat(float64(x), float64(any(b).(float32)))
	case string:
		return strings.Compare(x, any(b).(string))
	case int64:
		return cmp.Compare(x, any(b).(int64))
	case int32:
		return cmp.Compare(x, any(b).(int32))
	case types.Decimal:
		return x.Cmp(any(b).(types.Decimal))
	case bool:
		return compareBool(x, any(b).(bool))
	case []byte:
		return bytes.Compare(x, any(b).([]byte))
	case types.Date:
		return cmp.Compare(x, any(b).(types.Date))
	case types.Timestamp:
		return cmp.Compare(x, any(b).(types.Timestamp))
	}
	return compareValues(reflect.ValueOf(a), reflect.ValueOf(b))
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	}
	// At least one NaN.
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	}
	return -1
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

var (
	decimalType = reflect.TypeFor[types.Decimal]()
	typesPkg    = decimalType.PkgPath()
)

// isNullType reports whether t is an instance of types.Null.
func isNullType(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.PkgPath() == typesPkg && strings.HasPrefix(t.Name(), "Null[")
}

func compareValues(a, b reflect.Value) int {
	if a.Type() != b.Type() {
		// Not reachable from generated code (both sides have one type).
		return strings.Compare(a.Type().String(), b.Type().String())
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return compareFloat(a.Float(), b.Float())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.Bool:
		return compareBool(a.Bool(), b.Bool())
	case reflect.String:
		return strings.Compare(a.String(), b.String())
	case reflect.Slice, reflect.Array:
		if a.Type().Elem().Kind() == reflect.Uint8 && a.Kind() == reflect.Slice {
			return bytes.Compare(a.Bytes(), b.Bytes())
		}
		n := min(a.Len(), b.Len())
		for i := range n {
			if c := compareValues(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Len(), b.Len())
	case reflect.Struct:
		t := a.Type()
		if t == decimalType {
			return a.Interface().(types.Decimal).Cmp(b.Interface().(types.Decimal))
		}
		if isNullType(t) {
			av, bv := a.FieldByName("Valid").Bool(), b.FieldByName("Valid").Bool()
			switch {
			case !av && !bv:
				return 0
			case !av:
				return -1
			case !bv:
				return 1
			}
			return compareValues(a.FieldByName("V"), b.FieldByName("V"))
		}
		for i := range a.NumField() {
			if c := compareValues(a.Field(i), b.Field(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Pointer, reflect.Interface:
		switch {
		case a.IsNil() && b.IsNil():
			return 0
		case a.IsNil():
			return -1
		case b.IsNil():
			return 1
		}
		return compareValues(a.Elem(), b.Elem())
	}
	return 0
}

// FloatKey returns the bits of f as a hash key with Spark's equality for
// grouping, DISTINCT and join keys: every NaN is the same key, and -0.0
// is 0.0 (Spark's NormalizeFloatingNumbers).
func FloatKey(f float64) uint64 {
	switch {
	case f != f:
		return 0x7ff8000000000000
	case f == 0:
		return 0
	}
	return math.Float64bits(f)
}

// Float32Key is FloatKey for FLOAT.
func Float32Key(f float32) uint32 {
	switch {
	case f != f:
		return 0x7fc00000
	case f == 0:
		return 0
	}
	return math.Float32bits(f)
}
