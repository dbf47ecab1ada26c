package sqlfn

import (
	"math"
	"math/big"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds the numeric functions beyond arithmetic: bround,
// logarithms, pmod, sign and the DOUBLE math of Spark's
// MathExpressions (java.lang.Math semantics).

// BRound returns bround(x, places): round half to even (banker's rounding)
// at 10^-places. FLOAT and DOUBLE round the shortest decimal text of the
// value, as Spark's BigDecimal rounding; integers are unchanged for places
// >= 0. ok is false when an integer result overflows T.
func BRound[T Number](x T, places ...int32) (T, bool) {
	p := 0
	if len(places) > 0 {
		p = int(places[0])
	}
	if isFloat[T]() {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return x, true
		}
		r, ok := new(big.Rat).SetString(CastFloat64String(f))
		if !ok {
			return x, true
		}
		out, _ := roundRatHalfEven(r, p).Float64()
		return T(out), true
	}
	if p >= 0 {
		return x, true
	}
	r := roundRatHalfEven(new(big.Rat).SetInt64(int64(x)), p)
	if !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	v := r.Num().Int64()
	if int64(T(v)) != v {
		return 0, false
	}
	return T(v), true
}

// roundRatHalfEven rounds r half to even at 10^-p.
func roundRatHalfEven(r *big.Rat, p int) *big.Rat {
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(p))), nil))
	x := new(big.Rat).Set(r)
	if p >= 0 {
		x.Mul(x, scale)
	} else {
		x.Quo(x, scale)
	}
	q, m := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	twice := new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2))
	if c := twice.Cmp(x.Denom()); c > 0 || c == 0 && q.Bit(0) == 1 {
		if x.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	out := new(big.Rat).SetInt(q)
	if p >= 0 {
		return out.Quo(out, scale)
	}
	return out.Mul(out, scale)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// BRoundDecimal returns bround of a DECIMAL with scale dScale as
// DECIMAL(precision, scale) (ResRound's type); ok is false when it does not
// fit.
func BRoundDecimal(d types.Decimal, dScale int, places int32, precision, scale int) (types.Decimal, bool) {
	r := new(big.Rat).SetFrac(d.BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(dScale)), nil))
	r = roundRatHalfEven(r, int(places))
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	if !r.IsInt() {
		return types.Decimal{}, false
	}
	out, ok := types.DecimalFromBigInt(r.Num())
	if !ok || !out.FitsPrecision(precision) {
		return types.Decimal{}, false
	}
	return out, true
}

// Ln returns ln(x); ok is false (NULL) for x <= 0, as Spark's logarithms.
func Ln(x float64) (float64, bool) {
	if x <= 0 {
		return 0, false
	}
	return math.Log(x), true
}

// Log10 returns log10(x); NULL for x <= 0.
func Log10(x float64) (float64, bool) {
	if x <= 0 {
		return 0, false
	}
	return math.Log10(x), true
}

// Log2 returns log2(x); NULL for x <= 0.
func Log2(x float64) (float64, bool) {
	if x <= 0 {
		return 0, false
	}
	return math.Log2(x), true
}

// Log returns log(base, x) = ln(x) / ln(base), or ln(base) when x is
// absent (log with one argument); NULL when either is <= 0.
func Log(base float64, xs ...float64) (float64, bool) {
	if len(xs) == 0 {
		return Ln(base)
	}
	x := xs[0]
	if base <= 0 || x <= 0 {
		return 0, false
	}
	return math.Log(x) / math.Log(base), true
}

// Exp returns e^x.
func Exp(x float64) float64 { return math.Exp(x) }

// Pow returns x^y (Java's Math.pow).
func Pow(x, y float64) float64 { return math.Pow(x, y) }

// Cbrt returns the cube root of x.
func Cbrt(x float64) float64 { return math.Cbrt(x) }

// Sign returns signum(x) as a DOUBLE: -1.0, 0.0 or 1.0 (NaN for NaN).
func Sign[T Number](x T) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	case x != x:
		return math.NaN()
	}
	return 0
}

// SignDecimal returns signum of a DECIMAL as a DOUBLE.
func SignDecimal(d types.Decimal, _ int) float64 { return float64(d.Sign()) }

// Pmod returns pmod(a, n), the remainder of a / n made non-negative for a
// positive n: ((a % n) + n) % n as Spark. ok is false when n is 0
// (DIVIDE_BY_ZERO under ANSI semantics; try_ variants return NULL).
func Pmod[T Number](a, n T) (T, bool) {
	r, ok := Mod(a, n)
	if !ok {
		return 0, false
	}
	if r < 0 {
		return Mod(r+n, n)
	}
	return r, true
}

// Pi returns π.
func Pi() float64 { return math.Pi }

// E returns Euler's number.
func E() float64 { return math.E }
