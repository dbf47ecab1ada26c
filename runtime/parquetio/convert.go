package parquetio

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/pipegen/pipegen/runtime/types"
)

// srcClass is what a file's leaf column holds, from its physical and
// logical types.
type srcClass uint8

const (
	srcBool   srcClass = iota
	srcInt             // signed integers of any width, as int64
	srcUint64          // UINT_64, as uint64
	srcFloat
	srcDouble
	srcString // BYTE_ARRAY annotated STRING, ENUM or JSON
	srcBinary // BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY without a decimal annotation
	srcDecimal
	srcDate
	srcTimestamp // INT64 TIMESTAMP in some unit, or INT96
)

// leafSource describes how to read a file's leaf column.
type leafSource struct {
	class    srcClass
	physical parquet.Kind
	// bits is the width of an integer annotation (8, 16, 32, 64), 0 if none.
	bits int
	// scale and precision of a decimal.
	scale, precision int
	// unit divides (negative) or multiplies a TIMESTAMP's value into
	// microseconds: -1000 for NANOS, 1000 for MILLIS, 1 for MICROS.
	unit int64
	// utc is false for a TIMESTAMP with isAdjustedToUTC=false.
	utc  bool
	desc string
}

func sourceOf(col *parquet.Column) (leafSource, error) {
	t := col.Type()
	s := leafSource{physical: t.Kind(), utc: true, desc: t.String()}
	var lt any
	if l := t.LogicalType(); l != nil {
		lt = l.Value
	}
	switch t.Kind() {
	case parquet.Boolean:
		s.class = srcBool
	case parquet.Int32, parquet.Int64:
		s.class = srcInt
		if t.Kind() == parquet.Int32 {
			s.bits = 32
		} else {
			s.bits = 64
		}
		switch l := lt.(type) {
		case *format.DateType:
			s.class = srcDate
		case *format.DecimalType:
			s.class, s.scale, s.precision = srcDecimal, int(l.Scale), int(l.Precision)
		case *format.IntType:
			s.bits = int(l.BitWidth)
			if !l.IsSigned {
				if l.BitWidth == 64 {
					s.class = srcUint64
				} else {
					s.bits = int(l.BitWidth) + 1 // fits a wider signed type
				}
			}
		case *format.TimestampType:
			s.class, s.utc = srcTimestamp, l.IsAdjustedToUTC
			switch l.Unit.Value.(type) {
			case *format.MilliSeconds:
				s.unit = 1000
			case *format.NanoSeconds:
				s.unit = -1000
			default:
				s.unit = 1
			}
		}
	case parquet.Int96:
		s.class = srcTimestamp
	case parquet.Float:
		s.class = srcFloat
	case parquet.Double:
		s.class = srcDouble
	case parquet.ByteArray, parquet.FixedLenByteArray:
		s.class = srcBinary
		switch l := lt.(type) {
		case *format.StringType, *format.EnumType, *format.JsonType:
			s.class = srcString
		case *format.DecimalType:
			s.class, s.scale, s.precision = srcDecimal, int(l.Scale), int(l.Precision)
		}
	default:
		return s, fmt.Errorf("unsupported physical type %s", t)
	}
	return s, nil
}

// identity reports whether the file's values are already the canonical
// physical values of type want, so they can be copied unchanged.
func (s leafSource) identity(want types.Type) bool {
	if s.physical != physicalKind(want) {
		return false
	}
	switch want.Kind {
	case types.BooleanKind, types.FloatKind, types.DoubleKind:
		return true
	case types.ByteKind:
		return s.class == srcInt && s.bits <= 8
	case types.ShortKind:
		return s.class == srcInt && s.bits <= 16
	case types.IntKind, types.LongKind:
		return s.class == srcInt
	case types.StringKind, types.BinaryKind:
		return s.class == srcString || s.class == srcBinary
	case types.DateKind:
		return s.class == srcDate
	case types.TimestampKind, types.TimestampNTZKind:
		return s.class == srcTimestamp && s.unit == 1
	case types.DecimalKind:
		if s.class != srcDecimal || s.scale != want.Scale || s.precision > want.Precision {
			return false
		}
		return s.physical != parquet.FixedLenByteArray || decimalBytes(s.precision) == decimalBytes(want.Precision)
	}
	return false
}

// julianDayOfEpoch is the Julian day number of 1970-01-01 (INT96 timestamps).
const julianDayOfEpoch = 2_440_588

// decode returns a file value as an intermediate Go value: bool, int64,
// uint64, float32, float64, string, []byte, decValue, types.Date or
// types.Timestamp.
func (s leafSource) decode(v parquet.Value) (any, error) {
	switch s.class {
	case srcBool:
		return v.Boolean(), nil
	case srcInt:
		if s.physical == parquet.Int32 {
			if s.bits == 33 { // UINT_32
				return int64(uint32(v.Int32())), nil
			}
			return int64(v.Int32()), nil
		}
		return v.Int64(), nil
	case srcUint64:
		return uint64(v.Int64()), nil
	case srcFloat:
		return v.Float(), nil
	case srcDouble:
		return v.Double(), nil
	case srcString:
		return string(v.ByteArray()), nil
	case srcBinary:
		return append([]byte{}, v.ByteArray()...), nil
	case srcDate:
		return types.Date(v.Int32()), nil
	case srcDecimal:
		var d types.Decimal
		switch s.physical {
		case parquet.Int32:
			d = types.DecimalFromInt64(int64(v.Int32()))
		case parquet.Int64:
			d = types.DecimalFromInt64(v.Int64())
		default:
			var err error
			if d, err = decFromBytes(v.ByteArray()); err != nil {
				return nil, err
			}
		}
		return decValue{d, s.scale}, nil
	case srcTimestamp:
		if s.physical == parquet.Int96 {
			x := v.Int96()
			nanos := int64(x[1])<<32 | int64(x[0])
			days := int64(x[2]) - julianDayOfEpoch
			return types.Timestamp(days*86_400_000_000 + floorDiv(nanos, 1000)), nil
		}
		x := v.Int64()
		switch {
		case s.unit > 1:
			return types.Timestamp(x * s.unit), nil
		case s.unit < 0:
			return types.Timestamp(floorDiv(x, -s.unit)), nil
		}
		return types.Timestamp(x), nil
	}
	return nil, fmt.Errorf("cannot decode %s", s.desc)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// decValue is a decimal with its scale, as read from a file.
type decValue struct {
	d     types.Decimal
	scale int
}

// convertible reports whether values of class s can be read as type want.
func (s leafSource) convertible(want types.Type) bool {
	switch want.Kind {
	case types.BooleanKind:
		return s.class == srcBool
	case types.ByteKind, types.ShortKind, types.IntKind, types.LongKind:
		return s.class == srcInt || s.class == srcUint64
	case types.FloatKind:
		return s.class == srcFloat
	case types.DoubleKind:
		return s.class == srcFloat || s.class == srcDouble || s.class == srcInt
	case types.DecimalKind:
		return s.class == srcDecimal || s.class == srcInt
	case types.StringKind, types.BinaryKind:
		return s.class == srcString || s.class == srcBinary
	case types.DateKind:
		return s.class == srcDate
	case types.TimestampKind, types.TimestampNTZKind:
		return s.class == srcTimestamp || s.class == srcDate
	case types.VoidKind:
		return true
	}
	return false
}

// convertTo converts an intermediate value (see decode) to the Go value of
// type want.
func convertTo(x any, want types.Type) (any, error) {
	switch want.Kind {
	case types.VoidKind:
		return nil, nil
	case types.BooleanKind:
		return x, nil
	case types.ByteKind, types.ShortKind, types.IntKind, types.LongKind:
		var i int64
		switch x := x.(type) {
		case int64:
			i = x
		case uint64:
			if x > math.MaxInt64 {
				return nil, fmt.Errorf("value %d overflows %s", x, want)
			}
			i = int64(x)
		}
		switch want.Kind {
		case types.ByteKind:
			if i < math.MinInt8 || i > math.MaxInt8 {
				return nil, fmt.Errorf("value %d overflows %s", i, want)
			}
			return int8(i), nil
		case types.ShortKind:
			if i < math.MinInt16 || i > math.MaxInt16 {
				return nil, fmt.Errorf("value %d overflows %s", i, want)
			}
			return int16(i), nil
		case types.IntKind:
			if i < math.MinInt32 || i > math.MaxInt32 {
				return nil, fmt.Errorf("value %d overflows %s", i, want)
			}
			return int32(i), nil
		}
		return i, nil
	case types.FloatKind:
		return x, nil
	case types.DoubleKind:
		switch x := x.(type) {
		case float32:
			return float64(x), nil
		case int64:
			return float64(x), nil
		}
		return x, nil
	case types.DecimalKind:
		dv, ok := x.(decValue)
		if !ok {
			dv = decValue{types.DecimalFromInt64(x.(int64)), 0}
		}
		return rescaleDec(dv.d, dv.scale, want.Scale, want.Precision)
	case types.StringKind:
		if b, ok := x.([]byte); ok {
			return string(b), nil
		}
		return x, nil
	case types.BinaryKind:
		if s, ok := x.(string); ok {
			return []byte(s), nil
		}
		return x, nil
	case types.DateKind:
		return x, nil
	case types.TimestampKind, types.TimestampNTZKind:
		if d, ok := x.(types.Date); ok {
			return types.Timestamp(int64(d) * 86_400_000_000), nil
		}
		return x, nil
	}
	return nil, fmt.Errorf("cannot convert %T to %s", x, want)
}

// ParsePartitionValue parses a Delta partition value string into the Go
// value of type t (protocol, "Partition Value Serialization"): numbers in
// their string form, booleans "true"/"false", dates "2024-03-01",
// timestamps "2024-03-01 12:34:56[.123456]" (UTC) or ISO 8601
// "2024-03-01T12:34:56.123456Z", binary as the raw bytes of the string. An
// empty string is NULL for every type (nil is returned).
func ParsePartitionValue(s string, t types.Type) (any, error) {
	if s == "" {
		return nil, nil
	}
	bad := func(err error) (any, error) {
		return nil, fmt.Errorf("partition value %q is not a valid %s: %v", s, t, err)
	}
	switch t.Kind {
	case types.StringKind:
		return s, nil
	case types.BinaryKind:
		return []byte(s), nil
	case types.BooleanKind:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return bad(err)
		}
		return b, nil
	case types.ByteKind, types.ShortKind, types.IntKind, types.LongKind:
		bits := map[types.Kind]int{types.ByteKind: 8, types.ShortKind: 16, types.IntKind: 32, types.LongKind: 64}[t.Kind]
		i, err := strconv.ParseInt(s, 10, bits)
		if err != nil {
			return bad(err)
		}
		return convertTo(i, t)
	case types.FloatKind:
		f, err := strconv.ParseFloat(s, 32)
		if err != nil {
			return bad(err)
		}
		return float32(f), nil
	case types.DoubleKind:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return bad(err)
		}
		return f, nil
	case types.DecimalKind:
		d, ok := types.ParseDecimal(strings.TrimSpace(s), t.Precision, t.Scale)
		if !ok {
			return bad(fmt.Errorf("want a number of at most %d digits", t.Precision))
		}
		return d, nil
	case types.DateKind:
		tm, err := time.Parse("2006-01-02", s)
		if err != nil {
			return bad(err)
		}
		return types.DateOf(tm), nil
	case types.TimestampKind, types.TimestampNTZKind:
		for _, layout := range []string{"2006-01-02 15:04:05.999999999", time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
			if tm, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
				return types.TimestampOf(tm), nil
			}
		}
		return bad(fmt.Errorf("want yyyy-mm-dd hh:mm:ss[.ffffff]"))
	}
	return nil, fmt.Errorf("partition column of type %s is not supported", t)
}

// FormatPartitionValue serializes x, the Go value of a partition column of
// type t (nil for NULL), as the protocol's "Partition Value Serialization"
// says, the inverse of ParsePartitionValue: integers and decimals in their
// plain decimal form, booleans "true"/"false", FLOAT and DOUBLE in the
// shortest form that parses back to the same value, dates "2024-03-01",
// TIMESTAMP as ISO 8601 in UTC with microseconds ("2024-03-01T12:34:56.123456Z",
// the unambiguous form the protocol allows and Delta 3 writes), and
// TIMESTAMP_NTZ as "2024-03-01 12:34:56[.123456]". NULL and the empty
// string are "" (Delta and Spark store an empty string partition value as
// NULL). BINARY, intervals and nested types have no serialization here and
// return an error.
func FormatPartitionValue(x any, t types.Type) (string, error) {
	if x == nil {
		return "", nil
	}
	switch v := x.(type) {
	case string:
		if t.Kind == types.StringKind {
			return v, nil
		}
	case bool:
		return strconv.FormatBool(v), nil
	case int8:
		return strconv.FormatInt(int64(v), 10), nil
	case int16:
		return strconv.FormatInt(int64(v), 10), nil
	case int32:
		return strconv.FormatInt(int64(v), 10), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case float32:
		return strconv.FormatFloat(float64(v), 'g', -1, 32), nil
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	case types.Decimal:
		return v.Format(t.Scale), nil
	case types.Date:
		return v.String(), nil
	case types.Timestamp:
		tm := v.Time()
		if t.Kind == types.TimestampNTZKind {
			if tm.Nanosecond() == 0 {
				return tm.Format("2006-01-02 15:04:05"), nil
			}
			return tm.Format("2006-01-02 15:04:05.000000"), nil
		}
		return tm.Format("2006-01-02T15:04:05.000000Z"), nil
	}
	return "", fmt.Errorf("a partition column of type %s cannot hold %T values", t, x)
}

// LeafValue decodes one present (non-NULL) value of a leaf of type t in
// the canonical layout into its Go value (see the package doc).
func LeafValue(v parquet.Value, t types.Type) (any, error) { return canonicalConv(t)(v) }
