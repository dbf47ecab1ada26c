package sqlfn

import (
	"math/bits"
	"strconv"
	"strings"
)

// Conv is conv(num, fromBase, toBase), Spark's NumberConverter: num's
// digits in base |fromBase| (after an optional "-"; reading stops at the
// first character that is not a digit) are read as an unsigned 64-bit
// number, which is written in base |toBase| (upper-case letters); a
// negative toBase writes it as a signed number. null is true for a base
// outside 2..36 or an empty num; ok is false when the number does not fit
// in 64 bits (ARITHMETIC_OVERFLOW under ANSI semantics).
func Conv(num string, fromBase, toBase int32) (v string, null, ok bool) {
	from, to := absBase(fromBase), absBase(toBase)
	if num == "" || from < 2 || from > 36 || to < 2 || to > 36 {
		return "", true, true
	}
	negative := num[0] == '-'
	if negative {
		num = num[1:]
	}
	var u uint64
	for i := 0; i < len(num); i++ {
		d, isDigit := digitIn(num[i], from)
		if !isDigit {
			break
		}
		hi, lo := bits.Mul64(u, uint64(from))
		sum, carry := bits.Add64(lo, uint64(d), 0)
		if hi != 0 || carry != 0 {
			return "", false, false
		}
		u = sum
	}
	if negative && toBase > 0 {
		if int64(u) < 0 {
			u = ^uint64(0) // Spark: -1
		} else {
			u = uint64(-int64(u))
		}
	}
	signed := false
	if toBase < 0 && int64(u) < 0 {
		u = uint64(-int64(u))
		signed = true
	}
	out := strings.ToUpper(strconv.FormatUint(u, int(to)))
	if signed || negative && toBase < 0 {
		out = "-" + out
	}
	return out, false, true
}

func absBase(b int32) int64 {
	if b < 0 {
		return -int64(b)
	}
	return int64(b)
}

// digitIn returns the value of c as a digit of base (0-9, then letters
// in either case).
func digitIn(c byte, base int64) (int64, bool) {
	var d int64
	switch {
	case '0' <= c && c <= '9':
		d = int64(c - '0')
	case 'a' <= c && c <= 'z':
		d = int64(c-'a') + 10
	case 'A' <= c && c <= 'Z':
		d = int64(c-'A') + 10
	default:
		return 0, false
	}
	return d, d < base
}

// Bin is bin(x): x's two's-complement bits, without leading zeros (Java's
// Long.toBinaryString).
func Bin(x int64) string { return strconv.FormatUint(uint64(x), 2) }
