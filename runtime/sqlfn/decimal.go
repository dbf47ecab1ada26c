package sqlfn

import (
	"math/big"

	"github.com/pipegen/pipegen/runtime/types"
)

// Decimal arithmetic follows Spark's Decimal and DecimalPrecision rules
// (sql/api .../types/Decimal.scala): the checker computes the result type
// DECIMAL(precision, scale) and passes it; the exact result is rounded
// HALF_UP to that scale, and more than precision digits is a failure
// (NUMERIC_VALUE_OUT_OF_RANGE in ANSI mode). Multiplication and division
// first round to 38 significant digits (Spark's MathContext(38, HALF_UP))
// and then to the result scale, as Spark does. The common cases run on
// 128-bit integers; only intermediates wider than that use math/big.

// fitDecimal rescales d from scale from to scale (HALF_UP) and checks the
// precision.
func fitDecimal(d types.Decimal, from, precision, scale int) (types.Decimal, bool) {
	r, ok := d.Rescale(from, scale)
	if !ok || !r.FitsPrecision(precision) {
		return types.Decimal{}, false
	}
	return r, true
}

// DecimalAdd returns a+b as DECIMAL(precision, scale); a and b have scales
// aScale and bScale. ok is false when the result has more than precision
// digits.
func DecimalAdd(a types.Decimal, aScale int, b types.Decimal, bScale int, precision, scale int) (types.Decimal, bool) {
	m := max(aScale, bScale)
	if x, ok := a.Rescale(aScale, m); ok {
		if y, ok := b.Rescale(bScale, m); ok {
			if z, ok := x.Add(y); ok {
				return fitDecimal(z, m, precision, scale)
			}
		}
	}
	sum := new(big.Int).Add(scaledBig(a, aScale, m), scaledBig(b, bScale, m))
	return fitBig(sum, m, precision, scale)
}

// DecimalSub returns a-b as DECIMAL(precision, scale) (see DecimalAdd).
func DecimalSub(a types.Decimal, aScale int, b types.Decimal, bScale int, precision, scale int) (types.Decimal, bool) {
	return DecimalAdd(a, aScale, b.Neg(), bScale, precision, scale)
}

// DecimalMul returns a×b as DECIMAL(precision, scale): the exact product,
// rounded HALF_UP to 38 significant digits, then to scale.
func DecimalMul(a types.Decimal, aScale int, b types.Decimal, bScale int, precision, scale int) (types.Decimal, bool) {
	if p, ok := a.Mul(b); ok && p.FitsPrecision(types.MaxDecimalPrecision) {
		return fitDecimal(p, aScale+bScale, precision, scale)
	}
	p := new(big.Int).Mul(a.BigInt(), b.BigInt())
	from := aScale + bScale
	if n := digitsBig(p); n > types.MaxDecimalPrecision {
		p = rescaleBig(p, from, from-(n-types.MaxDecimalPrecision))
		from -= n - types.MaxDecimalPrecision
	}
	return fitBig(p, from, precision, scale)
}

// DecimalDiv returns a/b as DECIMAL(precision, scale): the quotient rounded
// HALF_UP to 38 significant digits, then to scale (Spark's Decimal./ and
// CheckOverflow). ok is false when b is zero (DIVIDE_BY_ZERO) or the result
// has more than precision digits.
func DecimalDiv(a types.Decimal, aScale int, b types.Decimal, bScale int, precision, scale int) (types.Decimal, bool) {
	if b.Sign() == 0 {
		return types.Decimal{}, false
	}
	if a.Sign() == 0 {
		return types.Decimal{}, true
	}
	// a/b = (A × 10^bScale) / (B × 10^aScale) with A, B the unscaled values.
	num := scaledBig(a, 0, bScale)
	den := scaledBig(b, 0, aScale)
	// Choose e so that |num/den| × 10^e has 38 digits before rounding.
	e := types.MaxDecimalPrecision - (digitsBig(num) - digitsBig(den))
	q := quoBig(num, den, e)
	if n := digitsBig(q); n > types.MaxDecimalPrecision {
		e -= n - types.MaxDecimalPrecision
		q = quoBig(num, den, e)
	}
	// q is the quotient at scale e, rounded to at most 38 (or, after a
	// carry, 39 with trailing zero) significant digits.
	return fitBig(q, e, precision, scale)
}

// quoBig returns num/den × 10^e rounded HALF_UP to an integer.
func quoBig(num, den *big.Int, e int) *big.Int {
	n, d := new(big.Int).Set(num), new(big.Int).Set(den)
	if e >= 0 {
		n.Mul(n, pow10Big(e))
	} else {
		d.Mul(d, pow10Big(-e))
	}
	return divHalfUp(n, d)
}

// divHalfUp returns n/d rounded HALF_UP (ties away from zero).
func divHalfUp(n, d *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(n, d, new(big.Int))
	if r.Sign() != 0 {
		r.Abs(r).Lsh(r, 1)
		if r.CmpAbs(d) >= 0 {
			if (n.Sign() < 0) != (d.Sign() < 0) {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
	}
	return q
}

// DecimalMod returns a % b (the sign of a, as Java's BigDecimal.remainder)
// as DECIMAL(precision, scale). ok is false when b is zero or the result
// does not fit.
func DecimalMod(a types.Decimal, aScale int, b types.Decimal, bScale int, precision, scale int) (types.Decimal, bool) {
	if b.Sign() == 0 {
		return types.Decimal{}, false
	}
	m := max(aScale, bScale)
	if x, ok := a.Rescale(aScale, m); ok && x.IsInt64() {
		if y, ok := b.Rescale(bScale, m); ok && y.IsInt64() {
			xv, yv := x.Int64(), y.Int64()
			if yv == -1 {
				return fitDecimal(types.Decimal{}, m, precision, scale)
			}
			return fitDecimal(types.DecimalFromInt64(xv%yv), m, precision, scale)
		}
	}
	r := new(big.Int).Rem(scaledBig(a, aScale, m), scaledBig(b, bScale, m))
	return fitBig(r, m, precision, scale)
}

// PmodDecimal returns pmod(a, b) of DECIMALs, Spark's Pmod: r = a % b,
// and (r + b) % b when r is negative, at the larger scale of a and b,
// rounded into DECIMAL(precision, scale). ok is false when b is 0
// (DIVIDE_BY_ZERO) or the result does not fit.
func PmodDecimal(a types.Decimal, aScale int, b types.Decimal, bScale int, precision, scale int) (types.Decimal, bool) {
	if b.Sign() == 0 {
		return types.Decimal{}, false
	}
	m := max(aScale, bScale)
	x, y := scaledBig(a, aScale, m), scaledBig(b, bScale, m)
	r := new(big.Int).Rem(x, y)
	if r.Sign() < 0 {
		r.Rem(r.Add(r, y), y)
	}
	return fitBig(r, m, precision, scale)
}

// scaledBig returns d's unscaled value moved from scale from to scale to
// (to >= from) as a big.Int.
func scaledBig(d types.Decimal, from, to int) *big.Int {
	b := d.BigInt()
	if to > from {
		b.Mul(b, pow10Big(to-from))
	}
	return b
}

// rescaleBig moves v from scale from to scale to, rounding HALF_UP.
func rescaleBig(v *big.Int, from, to int) *big.Int {
	switch {
	case to > from:
		return new(big.Int).Mul(v, pow10Big(to-from))
	case to < from:
		return divHalfUp(v, pow10Big(from-to))
	}
	return v
}

// fitBig rescales v (of scale from) to scale HALF_UP and checks precision.
func fitBig(v *big.Int, from, precision, scale int) (types.Decimal, bool) {
	r := rescaleBig(v, from, scale)
	if digitsBig(r) > precision && r.Sign() != 0 {
		return types.Decimal{}, false
	}
	return types.DecimalFromBigInt(r)
}

// digitsBig returns the number of decimal digits of |v| (1 for zero).
func digitsBig(v *big.Int) int {
	if v.Sign() == 0 {
		return 1
	}
	// BitLen × log10(2) is within one of the digit count; correct it.
	n := int(float64(v.BitLen())*0.30102999566398120) + 1
	if v.CmpAbs(pow10Big(n-1)) < 0 {
		n--
	} else if v.CmpAbs(pow10Big(n)) >= 0 {
		n++
	}
	return n
}

var bigPow10 = func() (t [80]*big.Int) {
	for i := range t {
		t[i] = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(i)), nil)
	}
	return t
}()

// pow10Big returns 10^k (k >= 0); callers must not modify it.
func pow10Big(k int) *big.Int {
	if k < len(bigPow10) {
		return bigPow10[k]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
}

// decimalFloorCeil returns floor (up=false) or ceil (up=true) of d at
// scale dScale as an unscaled value of scale 0.
func decimalFloorCeil(d types.Decimal, dScale int, up bool) types.Decimal {
	if dScale <= 0 {
		r, _ := d.Rescale(dScale, 0)
		return r
	}
	t := d.Trunc(dScale, 0)
	back, ok := t.Rescale(0, dScale)
	if ok && back == d {
		return t
	}
	switch {
	case up && d.Sign() > 0:
		t, _ = t.Add(types.DecimalFromInt64(1))
	case !up && d.Sign() < 0:
		t, _ = t.Sub(types.DecimalFromInt64(1))
	}
	return t
}

// FloorDecimal returns floor(d) as DECIMAL(precision, scale) (Spark:
// DECIMAL(p-s+1, 0)); ok is false only when it does not fit.
func FloorDecimal(d types.Decimal, dScale, precision, scale int) (types.Decimal, bool) {
	return fitDecimal(decimalFloorCeil(d, dScale, false), 0, precision, scale)
}

// CeilDecimal returns ceil(d) as DECIMAL(precision, scale).
func CeilDecimal(d types.Decimal, dScale, precision, scale int) (types.Decimal, bool) {
	return fitDecimal(decimalFloorCeil(d, dScale, true), 0, precision, scale)
}

// RoundCeilDecimal returns ceil(d, places) as DECIMAL(precision, scale):
// the smallest multiple of 10^-places not less than d (places may be
// negative: ceil(-35, -1) = -30), Spark's RoundCeil; ok is false when the
// result does not fit.
func RoundCeilDecimal(d types.Decimal, dScale int, places int32, precision, scale int) (types.Decimal, bool) {
	return roundUpDown(d, dScale, places, true, precision, scale)
}

// RoundFloorDecimal returns floor(d, places) as DECIMAL(precision, scale):
// the largest multiple of 10^-places not greater than d, Spark's
// RoundFloor; ok is false when the result does not fit.
func RoundFloorDecimal(d types.Decimal, dScale int, places int32, precision, scale int) (types.Decimal, bool) {
	return roundUpDown(d, dScale, places, false, precision, scale)
}

// roundUpDown rounds d (of scale dScale) toward +inf (up) or -inf at
// 10^-places and returns it at the result's precision and scale.
func roundUpDown(d types.Decimal, dScale int, places int32, up bool, precision, scale int) (types.Decimal, bool) {
	p := int(places)
	if p < -2*types.MaxDecimalPrecision {
		p = -2 * types.MaxDecimalPrecision
	}
	if p < dScale {
		t := d.Trunc(dScale, p)
		if back, ok := t.Rescale(p, dScale); !ok || back != d {
			var ok bool
			switch {
			case up && d.Sign() > 0:
				t, ok = t.Add(types.DecimalFromInt64(1))
			case !up && d.Sign() < 0:
				t, ok = t.Sub(types.DecimalFromInt64(1))
			default:
				ok = true
			}
			if !ok {
				return types.Decimal{}, false
			}
		}
		d, dScale = t, p
	}
	return fitRounded(d, dScale, precision, scale)
}

// fitRounded returns d, rounded at a scale dScale that may be negative, as
// DECIMAL(precision, scale); ok is false when it does not fit.
func fitRounded(d types.Decimal, dScale, precision, scale int) (types.Decimal, bool) {
	if dScale < 0 {
		r, ok := d.Rescale(dScale, 0)
		if !ok {
			return types.Decimal{}, false
		}
		d, dScale = r, 0
	}
	return fitDecimal(d, dScale, precision, scale)
}

// RoundDecimal returns round(d, places) with HALF_UP as
// DECIMAL(precision, scale): rounded at 10^-places (places may be negative:
// round(1250, -2) = 1300), then held at the result scale. The checker must
// pass places explicitly (Spark's round(x) is round(x, 0)).
func RoundDecimal(d types.Decimal, dScale int, places int32, precision, scale int) (types.Decimal, bool) {
	p := int(places)
	if p < dScale {
		if p < -2*types.MaxDecimalPrecision {
			p = -2 * types.MaxDecimalPrecision // rounds to zero either way
		}
		r, ok := d.Rescale(dScale, p)
		if !ok {
			return types.Decimal{}, false
		}
		d, dScale = r, p
	}
	return fitRounded(d, dScale, precision, scale)
}

// DecimalIntDiv returns a DIV b for DECIMAL operands of the given scales:
// the quotient truncated toward zero, as a BIGINT (Spark's IntegralDivide
// of decimals). ok is false for a zero divisor or a quotient beyond BIGINT.
func DecimalIntDiv(a types.Decimal, aScale int, b types.Decimal, bScale int) (int64, bool) {
	if b.Sign() == 0 {
		return 0, false
	}
	x, y := a.BigInt(), b.BigInt()
	if aScale < bScale {
		x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(bScale-aScale)), nil))
	} else if bScale < aScale {
		y.Mul(y, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(aScale-bScale)), nil))
	}
	q := x.Quo(x, y)
	if !q.IsInt64() {
		return 0, false
	}
	return q.Int64(), true
}
