package sqlfn

import (
	"math/bits"
	"unsafe"
)

// This file is Spark's bitwise functions (bitwiseExpressions.scala,
// mathExpressions.scala's shifts) with Java's integer semantics.

// BitCount is bit_count(x): the bits set in x sign-extended to 64 bits,
// as Spark's java.lang.Long.bitCount of every integral type (so
// bit_count(-1) is 64 whatever the width).
func BitCount[T Integer](x T) int32 { return int32(bits.OnesCount64(uint64(int64(x)))) }

// BitCountBool is bit_count of a BOOLEAN: 1 for true, 0 for false.
func BitCountBool(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// GetBit is getbit(x, pos): bit pos (0 the least significant) of x; ok is
// false when pos is negative or not less than x's width in bits (Spark's
// INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE).
func GetBit[T Integer](x T, pos int32) (int8, bool) {
	width := int32(unsafe.Sizeof(x)) * 8
	if pos < 0 || pos >= width {
		return 0, false
	}
	return int8(uint64(int64(x)) >> uint(pos) & 1), true
}

// ShiftLeft is shiftleft(x, n), x << n: as Java, only the low 5 (INT) or
// 6 (BIGINT) bits of n count.
func ShiftLeft[T ~int32 | ~int64](x T, n int32) T {
	return x << (uint(n) & uint(unsafe.Sizeof(x)*8-1))
}

// ShiftRight is shiftright(x, n), x >> n: an arithmetic shift (the sign
// bit is copied), with Java's shift count.
func ShiftRight[T ~int32 | ~int64](x T, n int32) T {
	return x >> (uint(n) & uint(unsafe.Sizeof(x)*8-1))
}

// ShiftRightUnsigned is shiftrightunsigned(x, n) of an INT, x >>> n: a
// logical shift (zeros shifted in).
func ShiftRightUnsigned(x int32, n int32) int32 { return int32(uint32(x) >> (uint(n) & 31)) }

// ShiftRightUnsignedLong is shiftrightunsigned of a BIGINT.
func ShiftRightUnsignedLong(x int64, n int32) int64 { return int64(uint64(x) >> (uint(n) & 63)) }

// IsNaN is isnan(x).
func IsNaN[T Float](x T) bool { return x != x }
