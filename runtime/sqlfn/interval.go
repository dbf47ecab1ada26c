package sqlfn

import (
	"math"
	"math/big"

	"github.com/pipegen/pipegen/runtime/types"
)

// Multiplying and dividing an INTERVAL DAY TO SECOND by a number follow
// Spark's MultiplyDTInterval and DivideDTInterval: the result is a whole
// number of microseconds rounded HALF_UP; ok is false when it overflows a
// BIGINT of microseconds, when the number is NaN or infinite, or when the
// divisor is zero (the row error then says which).

// MulIntervalInt returns iv * n.
func MulIntervalInt(iv types.Interval, n int64) (types.Interval, bool) {
	r, ok := Mul(int64(iv), n)
	return types.Interval(r), ok
}

// DivIntervalInt returns iv / n rounded HALF_UP (Guava's LongMath.divide).
func DivIntervalInt(iv types.Interval, n int64) (types.Interval, bool) {
	if n == 0 {
		return 0, false
	}
	return bigInterval(big.NewInt(int64(iv)), big.NewInt(n))
}

// MulIntervalDouble returns iv * f rounded HALF_UP.
func MulIntervalDouble(iv types.Interval, f float64) (types.Interval, bool) {
	return roundInterval(float64(iv) * f)
}

// DivIntervalDouble returns iv / f rounded HALF_UP.
func DivIntervalDouble(iv types.Interval, f float64) (types.Interval, bool) {
	if f == 0 {
		return 0, false
	}
	return roundInterval(float64(iv) / f)
}

// MulIntervalDecimal returns iv * d (d of the given scale) rounded HALF_UP.
func MulIntervalDecimal(iv types.Interval, d types.Decimal, scale int) (types.Interval, bool) {
	num := new(big.Int).Mul(big.NewInt(int64(iv)), d.BigInt())
	return bigInterval(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
}

// DivIntervalDecimal returns iv / d (d of the given scale) rounded HALF_UP.
func DivIntervalDecimal(iv types.Interval, d types.Decimal, scale int) (types.Interval, bool) {
	den := d.BigInt()
	if den.Sign() == 0 {
		return 0, false
	}
	num := new(big.Int).Mul(big.NewInt(int64(iv)), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	return bigInterval(num, den)
}

// bigInterval returns num / den rounded HALF_UP, when it fits.
func bigInterval(num, den *big.Int) (types.Interval, bool) {
	if den.Sign() < 0 {
		num, den = new(big.Int).Neg(num), new(big.Int).Neg(den)
	}
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() != 0 && new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(int64(r.Sign())))
	}
	if !q.IsInt64() {
		return 0, false
	}
	return types.Interval(q.Int64()), true
}

func roundInterval(f float64) (types.Interval, bool) {
	r := math.Round(f)
	if math.IsNaN(r) || r >= math.MaxInt64 || r < math.MinInt64 {
		return 0, false
	}
	return types.Interval(int64(r)), true
}
