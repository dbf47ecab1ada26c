package sqlfn

import (
	"math"
	"strconv"

	"github.com/pipegen/pipegen/runtime/types"
)

// Round returns round(x, places) with HALF_UP (Spark's round; places
// defaults to 0). Integers are unchanged for places >= 0 and rounded at
// 10^-places otherwise (round(125, -1) = 130; ok is false when that
// overflows T). FLOAT and DOUBLE round the shortest decimal text of the
// value, as Spark's BigDecimal(x).setScale(places, HALF_UP): round(2.5) = 3,
// round(-2.5) = -3, round(0.125, 2) = 0.13, round(2.675, 2) = 2.68; NaN and
// ±Inf are returned unchanged.
func Round[T Number](x T, places ...int32) (T, bool) {
	p := 0
	if len(places) > 0 {
		p = int(places[0])
	}
	if isFloat[T]() {
		// Spark widens a FLOAT to double before rounding.
		return T(roundFloat(float64(x), p)), true
	}
	if p >= 0 {
		return x, true
	}
	d := types.DecimalFromInt64(int64(x))
	r, ok := d.Rescale(0, max(p, -2*types.MaxDecimalPrecision))
	if !ok {
		return 0, false
	}
	r, ok = r.Rescale(max(p, -2*types.MaxDecimalPrecision), 0)
	if !ok || !r.IsInt64() {
		return 0, false
	}
	v := r.Int64()
	if int64(T(v)) != v {
		return 0, false
	}
	return T(v), true
}

// roundFloat rounds the shortest decimal text of f HALF_UP to p places.
func roundFloat(f float64, p int) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
		return f
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // [-]d.ddde±XX
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	var digits []byte
	ei := 0
	for i, c := range e {
		if c == 'e' {
			ei = i
			break
		}
		if c != '.' {
			digits = append(digits, c)
		}
	}
	exp, _ := strconv.Atoi(string(e[ei+1:]))
	// f = 0.d1d2...dn × 10^(exp+1); keep the digits of place >= 10^-p.
	keep := exp + 1 + p
	switch {
	case keep >= len(digits):
		return f
	case keep < 0:
		return 0
	}
	kept := append([]byte(nil), digits[:keep]...)
	up := digits[keep] >= '5'
	if up {
		i := len(kept) - 1
		for ; i >= 0 && kept[i] == '9'; i-- {
			kept[i] = '0'
		}
		if i >= 0 {
			kept[i]++
		} else {
			kept = append([]byte{'1'}, kept...)
			exp++
		}
	}
	if len(kept) == 0 {
		return 0
	}
	// Value: 0.kept × 10^(exp+1), with exp possibly bumped by a carry; the
	// digit count of kept minus the point position gives the exponent.
	s := "0." + string(kept) + "e" + strconv.Itoa(exp+1)
	r, _ := strconv.ParseFloat(s, 64)
	if neg {
		r = -r
	}
	return r
}

// Floor returns floor(x) as BIGINT (Spark's floor of DOUBLE, and of
// integral types which are unchanged). Out of range doubles saturate and
// NaN is 0, as Java's (long) cast which Spark uses; ok is always true.
func Floor[T Number](x T) (int64, bool) {
	if !isFloat[T]() {
		return int64(x), true
	}
	return javaLong(math.Floor(float64(x))), true
}

// Ceil returns ceil(x) as BIGINT (see Floor).
func Ceil[T Number](x T) (int64, bool) {
	if !isFloat[T]() {
		return int64(x), true
	}
	return javaLong(math.Ceil(float64(x))), true
}

// javaLong converts as Java's (long) cast: saturating, NaN to 0.
func javaLong(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}
