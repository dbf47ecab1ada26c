package sqlfn

import (
	"cmp"
	"math"
	"math/big"
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

// CoMoments accumulates pairs (x, y) for Spark's PearsonCorrelation and
// Covariance aggregates (corr, covar_pop, covar_samp) and the
// linear-regression ones (Regr). Besides the running means and
// co-moments of Spark's update, it keeps the exact sums of the pairs
// (rationals: float64 values are dyadic), and the results come from the
// exact co-moments rounded once: Spark's own last bits depend on how its
// partial aggregates were split and merged, and the exact value is what
// they approximate (for the golden files' inputs, Spark's answer). A NaN
// or an infinity falls back to the running values, which carry it.
type CoMoments struct {
	N, MeanX, MeanY, Ck, MkX, MkY float64

	exact    *exactSums
	nonFinit bool
}

// exactSums are the exact sums of the pairs: x, y, x², y², xy.
type exactSums struct {
	x, y, xx, yy, xy big.Rat
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
	if m.nonFinit || math.IsInf(x, 0) || math.IsInf(y, 0) || x != x || y != y {
		m.nonFinit = true
		return
	}
	if m.exact == nil {
		m.exact = new(exactSums)
	}
	e := m.exact
	var rx, ry, t big.Rat
	rx.SetFloat64(x)
	ry.SetFloat64(y)
	e.x.Add(&e.x, &rx)
	e.y.Add(&e.y, &ry)
	e.xx.Add(&e.xx, t.Mul(&rx, &rx))
	e.yy.Add(&e.yy, t.Mul(&ry, &ry))
	e.xy.Add(&e.xy, t.Mul(&rx, &ry))
}

// moments returns the co-moment of x and y and the second moments of x
// and of y (sums of products of deviations from the means), exact and
// rounded when every value was finite.
func (m *CoMoments) moments() (ck, mkX, mkY float64) {
	if m.nonFinit || m.exact == nil {
		return m.Ck, m.MkX, m.MkY
	}
	e := m.exact
	n := new(big.Rat).SetFloat64(m.N)
	central := func(sab, sa, sb *big.Rat) float64 {
		var t big.Rat
		t.Mul(sa, sb)
		t.Quo(&t, n)
		t.Sub(sab, &t)
		f, _ := t.Float64()
		return f
	}
	return central(&e.xy, &e.x, &e.y), central(&e.xx, &e.x, &e.x), central(&e.yy, &e.y, &e.y)
}

// sums returns the sums of x and of y, exact and rounded when every
// value was finite.
func (m *CoMoments) sums() (sx, sy float64) {
	if m.nonFinit || m.exact == nil {
		return m.MeanX * m.N, m.MeanY * m.N
	}
	sx, _ = m.exact.x.Float64()
	sy, _ = m.exact.y.Float64()
	return sx, sy
}

// Corr returns the Pearson correlation; NULL for fewer than two pairs, NaN
// when a side is constant.
func (m *CoMoments) Corr() (float64, bool) {
	if m.N < 2 {
		return 0, false
	}
	ck, mkX, mkY := m.moments()
	return ck / math.Sqrt(mkX*mkY), true
}

// CovarPop returns the population covariance; NULL for no pairs.
func (m *CoMoments) CovarPop() (float64, bool) {
	if m.N == 0 {
		return 0, false
	}
	ck, _, _ := m.moments()
	return ck / m.N, true
}

// CovarSamp returns the sample covariance; NULL for fewer than two pairs.
func (m *CoMoments) CovarSamp() (float64, bool) {
	if m.N < 2 {
		return 0, false
	}
	ck, _, _ := m.moments()
	return ck / (m.N - 1), true
}

// Regr accumulates the pairs (y, x) of Spark's linear-regression
// aggregates regr_count, regr_avgx, regr_avgy, regr_sxx, regr_syy,
// regr_sxy, regr_r2, regr_slope and regr_intercept (y the dependent
// first argument, x the independent second one), over the rows where
// both are not NULL, with CoMoments' exact sums. The formulas are
// Spark's (linearRegression.scala).
type Regr struct {
	C CoMoments // the pairs (y, x)
}

// Add folds in the pair (y, x).
func (r *Regr) Add(y, x float64) { r.C.Add(y, x) }

// Count is regr_count: the number of pairs.
func (r *Regr) Count() int64 { return int64(r.C.N) }

// AvgX is regr_avgx: the mean of x; NULL for no pairs.
func (r *Regr) AvgX() (float64, bool) {
	_, sx := r.C.sums()
	return sx / r.C.N, r.C.N > 0
}

// AvgY is regr_avgy: the mean of y; NULL for no pairs.
func (r *Regr) AvgY() (float64, bool) {
	sy, _ := r.C.sums()
	return sy / r.C.N, r.C.N > 0
}

// SXX is regr_sxx: the sum of squared deviations of x; NULL for no pairs.
func (r *Regr) SXX() (float64, bool) {
	_, _, mkX := r.C.moments()
	return mkX, r.C.N > 0
}

// SYY is regr_syy: the sum of squared deviations of y; NULL for no pairs.
func (r *Regr) SYY() (float64, bool) {
	_, mkY, _ := r.C.moments()
	return mkY, r.C.N > 0
}

// SXY is regr_sxy: the sum of the products of the deviations; NULL for
// no pairs.
func (r *Regr) SXY() (float64, bool) {
	ck, _, _ := r.C.moments()
	return ck, r.C.N > 0
}

// R2 is regr_r2, the coefficient of determination: NULL for fewer than
// two pairs or a constant x, 1 for a constant y.
func (r *Regr) R2() (float64, bool) {
	ck, mkY, mkX := r.C.moments()
	switch {
	case r.C.N < 2 || mkX == 0:
		return 0, false
	case mkY == 0:
		return 1, true
	}
	return ck * ck / mkX / mkY, true
}

// Slope is regr_slope: covar_pop(x, y) / var_pop(x); NULL for no pairs
// or a constant x.
func (r *Regr) Slope() (float64, bool) {
	ck, _, mkX := r.C.moments()
	if r.C.N == 0 || mkX == 0 {
		return 0, false
	}
	return (ck / r.C.N) / (mkX / r.C.N), true
}

// Intercept is regr_intercept: avg(y) - regr_slope(y, x) * avg(x); NULL
// where regr_slope is.
func (r *Regr) Intercept() (float64, bool) {
	slope, ok := r.Slope()
	sy, sx := r.C.sums()
	return sy/r.C.N - slope*(sx/r.C.N), ok
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
