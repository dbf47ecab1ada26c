package sqlfn

import (
	"math"

	"github.com/pipegen/pipegen/runtime/types"
)

// WidthBucket returns width_bucket(value, min, max, n): the bucket, 1 to
// n, holding value among n equal-width buckets from min to max; 0 below
// the range and n+1 at or past its end, counted downwards when min > max
// (Spark's WidthBucket.computeBucketNumber). ok is false, a NULL, when
// n <= 0 or n is the largest BIGINT, when min = max, or when value is NaN
// or a bound is NaN or infinite.
func WidthBucket(value, lo, hi float64, n int64) (int64, bool) {
	if n <= 0 || n == math.MaxInt64 || math.IsNaN(value) || lo == hi ||
		math.IsNaN(lo) || math.IsInf(lo, 0) || math.IsNaN(hi) || math.IsInf(hi, 0) {
		return 0, false
	}
	lower, upper := math.Min(lo, hi), math.Max(lo, hi)
	if lo < hi {
		switch {
		case value < lower:
			return 0, true
		case value >= upper:
			return n + 1, true
		}
		return int64(float64(n)*(value-lower)/(upper-lower)) + 1, true
	}
	switch {
	case value > upper:
		return 0, true
	case value <= lower:
		return n + 1, true
	}
	return int64(float64(n)*(upper-value)/(upper-lower)) + 1, true
}

// WidthBucketInterval is WidthBucket of INTERVAL DAY TO SECOND values,
// compared as their microseconds (Spark reads the interval's long as a double).
func WidthBucketInterval(value, lo, hi types.Interval, n int64) (int64, bool) {
	return WidthBucket(float64(value), float64(lo), float64(hi), n)
}

// WidthBucketYMInterval is WidthBucket of INTERVAL YEAR TO MONTH values,
// compared as their months.
func WidthBucketYMInterval(value, lo, hi types.YearMonthInterval, n int64) (int64, bool) {
	return WidthBucket(float64(value), float64(lo), float64(hi), n)
}
