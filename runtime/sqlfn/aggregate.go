package sqlfn

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds the accumulators of the statistical aggregates that
// generated code keeps per group: central moments (stddev, variance),
// co-moments (corr, covar), HyperLogLog++ (approx_count_distinct) and
// value counts (percentile, median, percentile_approx). Each is updated
// one non-NULL value at a time; its memory is fixed per group except for
// Counts, which holds one entry per distinct value. Results follow Spark's
// definitions, NULL (ok false) where Spark returns NULL.

// Moments accumulates the count, mean and sum of squared deviations of a
// group's values with Welford's update, as Spark's CentralMomentAgg.
type Moments struct {
	N, Mean, M2 float64
}

// Add folds in x.
func (m *Moments) Add(x float64) {
	m.N++
	delta := x - m.Mean
	deltaN := delta / m.N
	m.Mean += deltaN
	m.M2 += delta * (delta - deltaN)
}

// VarSamp returns the sample variance; NULL for fewer than two values.
func (m *Moments) VarSamp() (float64, bool) {
	if m.N < 2 {
		return 0, false
	}
	return m.M2 / (m.N - 1), true
}

// VarPop returns the population variance; NULL for no values.
func (m *Moments) VarPop() (float64, bool) {
	if m.N == 0 {
		return 0, false
	}
	return m.M2 / m.N, true
}

// StddevSamp returns the sample standard deviation; NULL for fewer than
// two values.
func (m *Moments) StddevSamp() (float64, bool) {
	v, ok := m.VarSamp()
	return math.Sqrt(v), ok
}

// StddevPop returns the population standard deviation; NULL for no values.
func (m *Moments) StddevPop() (float64, bool) {
	v, ok := m.VarPop()
	return math.Sqrt(v), ok
}

// CoMoments accumulates pairs (x, y) as Spark's PearsonCorrelation and
// Covariance aggregates.
type CoMoments struct {
	N, MeanX, MeanY, Ck, MkX, MkY float64
}

// Add folds in the pair (x, y).
func (m *CoMoments) Add(x, y float64) {
	m.N++
	dx := x - m.MeanX
	dy := y - m.MeanY
	m.MeanX += dx / m.N
	m.MeanY += dy / m.N
	m.Ck += dx * (y - m.MeanY)
	m.MkX += dx * (x - m.MeanX)
	m.MkY += dy * (y - m.MeanY)
}

// Corr returns the Pearson correlation; NULL for fewer than two pairs, NaN
// when a side is constant.
func (m *CoMoments) Corr() (float64, bool) {
	if m.N < 2 {
		return 0, false
	}
	return m.Ck / math.Sqrt(m.MkX*m.MkY), true
}

// CovarPop returns the population covariance; NULL for no pairs.
func (m *CoMoments) CovarPop() (float64, bool) {
	if m.N == 0 {
		return 0, false
	}
	return m.Ck / m.N, true
}

// CovarSamp returns the sample covariance; NULL for fewer than two pairs.
func (m *CoMoments) CovarSamp() (float64, bool) {
	if m.N < 2 {
		return 0, false
	}
	return m.Ck / (m.N - 1), true
}

// hllP is the register index width of Spark's HyperLogLogPlusPlus for
// its default relative standard deviation 0.05: ceil(2 log2(1.106/0.05)).
const hllP = 9

// HLL is a HyperLogLog++ sketch as Spark's approx_count_distinct keeps it
// (512 registers, values hashed with xxhash64 and seed 42): Add takes the
// value's XxHash64.
type HLL struct {
	regs [1 << hllP]uint8
}

// Add folds in a value's 64-bit hash.
func (h *HLL) Add(hash int64) {
	x := uint64(hash)
	idx := x >> (64 - hllP)
	w := x<<hllP | 1<<(hllP-1)
	pw := uint8(bits.LeadingZeros64(w) + 1)
	if pw > h.regs[idx] {
		h.regs[idx] = pw
	}
}

// Estimate returns the estimated number of distinct values: linear
// counting while it is below Spark's threshold for this precision (400),
// which is exact for small sets, else the raw HyperLogLog estimate (Spark
// also subtracts an empirical bias below 2560, which pipegen does not).
func (h *HLL) Estimate() int64 {
	const m = 1 << hllP
	zInverse, zeros := 0.0, 0
	for _, r := range h.regs {
		zInverse += 1 / float64(uint64(1)<<r)
		if r == 0 {
			zeros++
		}
	}
	alpha := 0.7213 / (1 + 1.079/m)
	e := alpha * m * m / zInverse
	if zeros > 0 {
		if lc := m * math.Log(float64(m)/float64(zeros)); lc <= 400 {
			return int64(math.Round(lc))
		}
	}
	return int64(math.Round(e))
}

// Counts holds a group's distinct values with their multiplicities, for
// the exact percentiles.
type Counts[T cmp.Ordered] struct {
	m map[T]int64
	n int64
	// order holds the distinct values by first appearance (for ModeSpark).
	order []T
}

// Add counts one occurrence of v.
func (c *Counts[T]) Add(v T) {
	if c.m == nil {
		c.m = map[T]int64{}
	}
	n := c.m[v]
	if n == 0 {
		c.order = append(c.order, v)
	}
	c.m[v] = n + 1
	c.n++
}

func (c *Counts[T]) sorted() []T {
	keys := make([]T, 0, len(c.m))
	for k := range c.m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// at returns the value at 0-based rank r of the sorted values.
func (c *Counts[T]) at(keys []T, r int64) T {
	var seen int64
	for _, k := range keys {
		seen += c.m[k]
		if r < seen {
			return k
		}
	}
	return keys[len(keys)-1]
}

// Percentile returns Spark's percentile(x, p): the value at position
// p·(n-1) of the sorted values, interpolated linearly between the two
// nearest ranks; NULL for no values.
func Percentile[T Number](c *Counts[T], p float64) (float64, bool) {
	if c.n == 0 {
		return 0, false
	}
	keys := c.sorted()
	pos := p * float64(c.n-1)
	lo, hi := math.Floor(pos), math.Ceil(pos)
	lv, hv := float64(c.at(keys, int64(lo))), float64(c.at(keys, int64(hi)))
	if lo == hi {
		return lv, true
	}
	return (hi-pos)*lv + (pos-lo)*hv, true
}

// PercentileApprox returns Spark's percentile_approx(x, p) computed
// exactly: the value at 1-based rank ceil(p·n) of the sorted values (the
// smallest for p <= 0.0001, the largest for p >= 0.9999, Spark's bounds for
// its default accuracy); NULL for no values. Spark's sketch gives the
// same answer while a group has fewer values than its accuracy (10000).
func PercentileApprox[T cmp.Ordered](c *Counts[T], p float64) (T, bool) {
	var zero T
	if c.n == 0 {
		return zero, false
	}
	keys := c.sorted()
	switch {
	case p <= 1e-4:
		return keys[0], true
	case p >= 1-1e-4:
		return keys[len(keys)-1], true
	}
	r := int64(math.Ceil(p * float64(c.n)))
	return c.at(keys, max(r-1, 0)), true
}

// DecimalAvg returns avg of a DECIMAL column from its sum (of scale
// sumScale) and count n > 0: sum / n rounded half up to DECIMAL(precision,
// scale), Spark's Average result type DECIMAL(p+4, s+4). The quotient
// always fits that type, whose integer digits are those of the input.
func DecimalAvg(sum types.Decimal, sumScale int, n int64, precision, scale int) types.Decimal {
	d, _ := DecimalDiv(sum, sumScale, types.DecimalFromInt64(n), 0, precision, scale)
	return d
}

// PercentileApproxArray returns percentile_approx(x, array(p1, ...)): the
// PercentileApprox of each percentage, in order; NULL for no values.
func PercentileApproxArray[T cmp.Ordered](c *Counts[T], ps []float64) ([]T, bool) {
	if c.n == 0 {
		return nil, false
	}
	out := make([]T, len(ps))
	for i, p := range ps {
		out[i], _ = PercentileApprox(c, p)
	}
	return out, true
}

// PercentileDisc returns Spark's percentile_disc(p) WITHIN GROUP (ORDER BY
// x) (since SPARK-44871): the value at 1-based rank ceil(p·n) of the
// sorted values (the first for p = 0), as a DOUBLE; NULL for no values.
func PercentileDisc[T Number](c *Counts[T], p float64) (float64, bool) {
	if c.n == 0 {
		return 0, false
	}
	r := int64(math.Ceil(p * float64(c.n)))
	return float64(c.at(c.sorted(), max(r-1, 0))), true
}

// Mode returns mode(x): the most frequent value; among equally frequent
// ones the smallest (Spark 4's mode(x, true); Spark 3's pick among ties
// depends on its hash map). NULL for no values.
func Mode[T cmp.Ordered](c *Counts[T]) (T, bool) {
	var best T
	if c.n == 0 {
		return best, false
	}
	var most int64
	for _, k := range c.sorted() {
		if n := c.m[k]; n > most {
			best, most = k, n
		}
	}
	return best, true
}
