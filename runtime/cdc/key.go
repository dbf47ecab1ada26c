package cdc

import (
	"encoding/binary"
	"math"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// AUTO CDC compares keys, sequence values and rows as bytes: AppendOrdered
// encodes a generic value (parquetio's representation, see "Generic
// values" there) so that bytes.Compare on two encodings of one type orders
// them as Spark orders the values (ascending, NULLs first, NaN above every
// other floating value, -0.0 equal to 0.0) and equal encodings mean equal
// values. Encodings are self-delimiting, so the encoding of a tuple is the
// concatenation of its parts' encodings and tuples compare column by
// column.

// AppendOrdered appends the order-preserving encoding of v, a generic value
// of type t (parquetio's representation; nil is NULL), to dst and returns
// the extended slice. bytes.Compare on two encodings of values of one type
// orders them as Spark's ORDER BY does (ascending, NULLs first, NaN above
// every other floating value, -0.0 equal to 0.0); equal encodings mean
// equal values. The leaves' key ranges (Leaf.Lo, Leaf.Hi) are encodings of
// the key columns, concatenated.
func AppendOrdered(dst []byte, v any, t types.Type) []byte {
	if v == nil {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	switch t.Kind {
	case types.BooleanKind:
		if b, _ := v.(bool); b {
			return append(dst, 1)
		}
		return append(dst, 0)
	case types.ByteKind, types.ShortKind, types.IntKind, types.LongKind,
		types.DateKind, types.TimestampKind, types.TimestampNTZKind, types.IntervalKind, types.YearMonthIntervalKind:
		n, _ := types.Int64Of(v)
		return appendInt(dst, n)
	case types.FloatKind, types.DoubleKind:
		var f float64
		switch x := v.(type) {
		case float32:
			f = float64(x)
		case float64:
			f = x
		}
		return appendFloat(dst, f)
	case types.DecimalKind:
		d, _ := v.(types.Decimal)
		dst = binary.BigEndian.AppendUint64(dst, uint64(d.Hi)^1<<63)
		return binary.BigEndian.AppendUint64(dst, d.Lo)
	case types.StringKind:
		s, _ := v.(string)
		return appendEscaped(dst, s)
	case types.BinaryKind:
		b, _ := v.([]byte)
		return appendEscaped(dst, string(b))
	case types.StructKind:
		s, _ := v.(parquetio.Struct)
		for i, f := range t.Fields {
			var x any
			if i < len(s) {
				x = s[i]
			}
			dst = AppendOrdered(dst, x, f.Type)
		}
		return dst
	case types.ArrayKind:
		list, _ := v.([]any)
		for _, e := range list {
			dst = append(dst, 1)
			dst = AppendOrdered(dst, e, *t.Elem)
		}
		return append(dst, 0)
	case types.MapKind:
		entries, _ := v.([]parquetio.MapEntry)
		for _, e := range entries {
			dst = append(dst, 1)
			dst = AppendOrdered(dst, e.Key, *t.Key)
			dst = AppendOrdered(dst, e.Value, *t.Value)
		}
		return append(dst, 0)
	}
	return dst
}

func appendInt(dst []byte, i int64) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(i)^1<<63)
}

func appendFloat(dst []byte, f float64) []byte {
	var bits uint64
	switch {
	case math.IsNaN(f):
		bits = math.MaxUint64 // above +Inf, as Spark orders NaN
	case f == 0:
		bits = 1 << 63 // -0.0 and 0.0 are equal
	default:
		bits = math.Float64bits(f)
		if bits&(1<<63) != 0 {
			bits = ^bits
		} else {
			bits |= 1 << 63
		}
	}
	return binary.BigEndian.AppendUint64(dst, bits)
}

// appendEscaped appends s with each 0x00 byte written as 0x00 0xFF and a
// 0x00 0x01 terminator, so that a prefix sorts before its extensions.
func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			dst = append(dst, 0, 0xFF)
			continue
		}
		dst = append(dst, s[i])
	}
	return append(dst, 0, 1)
}

// appendTuple appends the encodings of the values at idx of row, whose
// columns have the types of schema.
func appendTuple(dst []byte, row []any, schema types.Schema, idx []int) []byte {
	for _, i := range idx {
		dst = AppendOrdered(dst, row[i], schema[i].Type)
	}
	return dst
}
