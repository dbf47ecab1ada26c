package types

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// Decimal is a DECIMAL(p,s) value: a signed 128-bit unscaled integer in two's
// complement (Hi holds the high 64 bits with the sign, Lo the low 64 bits).
// The value is unscaled × 10^-s; the scale s is a property of the column's
// type and is not stored in the value, as in Spark and Parquet.
//
// This file is the one implementation of decimal arithmetic, parsing,
// formatting and Parquet encoding in pipegen: every package that handles
// DECIMAL values uses these functions. Rounding is HALF_UP (ties away from
// zero), Spark's rounding mode for DECIMAL (Decimal.ROUND_HALF_UP).
type Decimal struct {
	Hi int64
	Lo uint64
}

// DecimalFromInt64 returns the Decimal whose unscaled value is v.
func DecimalFromInt64(v int64) Decimal {
	return Decimal{Hi: v >> 63, Lo: uint64(v)}
}

// IsInt64 reports whether the unscaled value fits in an int64.
func (d Decimal) IsInt64() bool { return d.Hi == int64(d.Lo)>>63 }

// Int64 returns the unscaled value's low 64 bits as an int64; it is exact
// when IsInt64 reports true.
func (d Decimal) Int64() int64 { return int64(d.Lo) }

// Sign returns -1, 0 or +1.
func (d Decimal) Sign() int {
	switch {
	case d.Hi < 0:
		return -1
	case d.Hi == 0 && d.Lo == 0:
		return 0
	}
	return 1
}

// u128 is an unsigned 128-bit magnitude.
type u128 struct{ hi, lo uint64 }

// pow10s[i] is 10^i for i in [0, 38]; 10^38 < 2^127 is the largest power of
// ten a Decimal holds.
var pow10s = func() (t [MaxDecimalPrecision + 1]u128) {
	t[0] = u128{0, 1}
	for i := 1; i < len(t); i++ {
		t[i], _ = t[i-1].mul64(10)
	}
	return t
}()

func (a u128) isZero() bool { return a.hi == 0 && a.lo == 0 }

func (a u128) cmp(b u128) int {
	switch {
	case a.hi < b.hi:
		return -1
	case a.hi > b.hi:
		return 1
	case a.lo < b.lo:
		return -1
	case a.lo > b.lo:
		return 1
	}
	return 0
}

// mul64 returns a*m and whether it fits 128 bits.
func (a u128) mul64(m uint64) (u128, bool) {
	h1, lo := bits.Mul64(a.lo, m)
	h2, l2 := bits.Mul64(a.hi, m)
	hi, c := bits.Add64(h1, l2, 0)
	return u128{hi, lo}, h2 == 0 && c == 0
}

// mul returns a*b and whether it fits 128 bits.
func (a u128) mul(b u128) (u128, bool) {
	if a.hi != 0 && b.hi != 0 {
		return u128{}, false
	}
	hi, lo := bits.Mul64(a.lo, b.lo)
	c1h, c1 := bits.Mul64(a.hi, b.lo)
	c2h, c2 := bits.Mul64(a.lo, b.hi)
	if c1h != 0 || c2h != 0 {
		return u128{}, false
	}
	hi, k1 := bits.Add64(hi, c1, 0)
	hi, k2 := bits.Add64(hi, c2, 0)
	return u128{hi, lo}, k1 == 0 && k2 == 0
}

// divmod64 returns a/m and a%m; m must not be zero.
func (a u128) divmod64(m uint64) (u128, uint64) {
	qh := a.hi / m
	r := a.hi % m
	ql, r := bits.Div64(r, a.lo, m)
	return u128{qh, ql}, r
}

// add1 returns a+1 (callers make sure it does not wrap).
func (a u128) add1() u128 {
	lo, c := bits.Add64(a.lo, 1, 0)
	return u128{a.hi + c, lo}
}

// mulPow10 returns a×10^k and whether it fits 128 bits.
func (a u128) mulPow10(k int) (u128, bool) {
	if a.isZero() {
		return a, true
	}
	if k > MaxDecimalPrecision {
		return u128{}, false
	}
	return a.mul(pow10s[k])
}

// divPow10 returns a/10^k, rounded HALF_UP when halfUp is set and
// truncated otherwise; k >= 0.
func (a u128) divPow10(k int, halfUp bool) u128 {
	switch {
	case k == 0:
		return a
	case k > MaxDecimalPrecision+1:
		// 10^40 > 2^128 > a: a/10^k < 0.5 rounds to zero.
		return u128{}
	}
	// Divide by at most 10^19 at a time and round on the last remainder r
	// (divisor div): with the earlier remainders r' < 10^j, the whole
	// remainder r×10^j + r' reaches half of 10^k exactly when r >= div/2.
	q := a
	var r, div uint64
	for k > 0 {
		step := min(k, 19)
		div = pow10s[step].lo
		q, r = q.divmod64(div)
		k -= step
	}
	if halfUp && r >= div/2 {
		q = q.add1()
	}
	return q
}

// mag returns |d| and whether d is negative.
func (d Decimal) mag() (u128, bool) {
	if d.Hi >= 0 {
		return u128{uint64(d.Hi), d.Lo}, false
	}
	n := d.Neg()
	return u128{uint64(n.Hi), n.Lo}, true
}

// fromMag returns ±m as a Decimal and whether it fits 128 bits.
func fromMag(m u128, neg bool) (Decimal, bool) {
	if m.hi > math.MaxInt64 && !(neg && m.hi == 1<<63 && m.lo == 0) {
		return Decimal{}, false
	}
	d := Decimal{Hi: int64(m.hi), Lo: m.lo}
	if neg {
		d = d.Neg()
	}
	return d, true
}

// Neg returns -d. The only 128-bit value without a negation, -2^127, has
// 39 digits and is never a valid DECIMAL; it is returned unchanged.
func (d Decimal) Neg() Decimal {
	lo, c := bits.Add64(^d.Lo, 1, 0)
	return Decimal{Hi: int64(^uint64(d.Hi) + c), Lo: lo}
}

// Abs returns |d|.
func (d Decimal) Abs() Decimal {
	if d.Hi < 0 {
		return d.Neg()
	}
	return d
}

// Add returns d+e (same scale) and false when the sum overflows 128 bits.
// It does not check any DECIMAL precision; see FitsPrecision.
func (d Decimal) Add(e Decimal) (Decimal, bool) {
	lo, c := bits.Add64(d.Lo, e.Lo, 0)
	hi, _ := bits.Add64(uint64(d.Hi), uint64(e.Hi), c)
	r := Decimal{Hi: int64(hi), Lo: lo}
	return r, (d.Hi < 0) != (e.Hi < 0) || (r.Hi < 0) == (d.Hi < 0)
}

// Sub returns d-e (same scale) and false when the difference overflows 128
// bits.
func (d Decimal) Sub(e Decimal) (Decimal, bool) {
	lo, b := bits.Sub64(d.Lo, e.Lo, 0)
	hi, _ := bits.Sub64(uint64(d.Hi), uint64(e.Hi), b)
	r := Decimal{Hi: int64(hi), Lo: lo}
	return r, (d.Hi < 0) == (e.Hi < 0) || (r.Hi < 0) == (d.Hi < 0)
}

// Mul returns the product of the unscaled values (its scale is the sum of
// the operands' scales) and false when it overflows 128 bits.
func (d Decimal) Mul(e Decimal) (Decimal, bool) {
	if d.IsInt64() && e.IsInt64() {
		a, b := d.Int64(), e.Int64()
		hi, lo := bits.Mul64(uint64(a), uint64(b))
		// Signed high word from the unsigned product.
		h := int64(hi)
		if a < 0 {
			h -= b
		}
		if b < 0 {
			h -= a
		}
		return Decimal{Hi: h, Lo: lo}, true
	}
	ma, na := d.mag()
	mb, nb := e.mag()
	p, ok := ma.mul(mb)
	if !ok {
		return Decimal{}, false
	}
	return fromMag(p, na != nb)
}

// Cmp compares two unscaled values of the same scale: -1, 0 or +1.
func (d Decimal) Cmp(e Decimal) int {
	// Flipping the sign bit maps two's complement order to unsigned order.
	return u128{uint64(d.Hi) ^ 1<<63, d.Lo}.cmp(u128{uint64(e.Hi) ^ 1<<63, e.Lo})
}

// Rescale converts an unscaled value of scale from to scale to: exact when
// to > from (false when it overflows 128 bits), rounded HALF_UP when
// to < from (Spark's Decimal.changePrecision). It does not check any
// precision; see FitsPrecision.
func (d Decimal) Rescale(from, to int) (Decimal, bool) {
	if from == to {
		return d, true
	}
	m, neg := d.mag()
	if to > from {
		m, ok := m.mulPow10(to - from)
		if !ok {
			return Decimal{}, false
		}
		return fromMag(m, neg)
	}
	return fromMag(m.divPow10(from-to, true), neg)
}

// Trunc converts an unscaled value of scale from to a smaller scale to,
// dropping digits (rounding toward zero), as Spark's casts from DECIMAL to
// integral types do. It returns d unchanged when to >= from.
func (d Decimal) Trunc(from, to int) Decimal {
	if to >= from {
		return d
	}
	m, neg := d.mag()
	r, _ := fromMag(m.divPow10(from-to, false), neg)
	return r
}

// FitsPrecision reports whether d has at most precision digits
// (|d| < 10^precision), the bound of DECIMAL(precision, s).
func (d Decimal) FitsPrecision(precision int) bool {
	if precision > MaxDecimalPrecision {
		return true
	}
	if precision < 0 {
		return false
	}
	m, _ := d.mag()
	return m.cmp(pow10s[precision]) < 0
}

// Digits returns the number of decimal digits of |d| (1 for zero).
func (d Decimal) Digits() int {
	m, _ := d.mag()
	n := 1
	for n <= MaxDecimalPrecision && m.cmp(pow10s[n]) >= 0 {
		n++
	}
	return n
}

// appendMag appends the decimal digits of m.
func appendMag(dst []byte, m u128) []byte {
	if m.hi == 0 {
		return strconv.AppendUint(dst, m.lo, 10)
	}
	// Split into base-10^19 chunks: at most three for 128 bits.
	var chunks [3]uint64
	n := 0
	for !m.isZero() {
		var r uint64
		m, r = m.divmod64(pow10s[19].lo)
		chunks[n] = r
		n++
	}
	dst = strconv.AppendUint(dst, chunks[n-1], 10)
	for i := n - 2; i >= 0; i-- {
		var buf [19]byte
		s := strconv.AppendUint(buf[:0], chunks[i], 10)
		for j := len(s); j < 19; j++ {
			dst = append(dst, '0')
		}
		dst = append(dst, s...)
	}
	return dst
}

// Append appends d with exactly scale digits after the point, as Spark's
// Decimal.toPlainString renders DECIMAL(p, scale): "-12.30" for (-1230, 2),
// "0.05" for (5, 2). A negative scale appends -scale zeros.
func (d Decimal) Append(dst []byte, scale int) []byte {
	m, neg := d.mag()
	if neg {
		dst = append(dst, '-')
	}
	start := len(dst)
	dst = appendMag(dst, m)
	switch {
	case scale < 0:
		for range -scale {
			dst = append(dst, '0')
		}
	case scale > 0:
		n := len(dst) - start
		if n <= scale {
			// Left-pad with zeros so there is one digit before the point.
			pad := scale - n + 1
			dst = append(dst, make([]byte, pad)...)
			copy(dst[start+pad:], dst[start:start+n])
			for i := range pad {
				dst[start+i] = '0'
			}
			n += pad
		}
		dst = append(dst, 0)
		point := start + n - scale
		copy(dst[point+1:], dst[point:len(dst)-1])
		dst[point] = '.'
	}
	return dst
}

// Format returns d with exactly scale digits after the point (see Append).
func (d Decimal) Format(scale int) string {
	var buf [48]byte
	return string(d.Append(buf[:0], scale))
}

// String returns the unscaled value in decimal (Format with scale 0); the
// scale is not part of a Decimal, so use Format to render a DECIMAL(p,s).
func (d Decimal) String() string { return d.Format(0) }

// ParseDecimal parses a decimal number as Java's BigDecimal(String) accepts
// it, which is what Spark's CAST(string AS DECIMAL) uses: an optional sign,
// digits with an optional point ("12", "12.5", ".5", "5."), and an optional
// exponent ("1.5E3", "2e-2"). No surrounding spaces. The value is rounded
// HALF_UP to scale digits after the point and returned as an unscaled value;
// ok is false for malformed text or when the rounded value has more than
// precision digits.
func ParseDecimal(s string, precision, scale int) (d Decimal, ok bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	// Significant digits (leading zeros dropped), and the position of the
	// point relative to them.
	var digits [MaxDecimalPrecision + 2]byte
	nd := 0    // significant digits kept (at most len(digits))
	extra := 0 // significant integral digits beyond len(digits), as a power of ten
	sawNonZero := false
	anyDigit := false
	pointExp := 0 // decimal exponent adjustment: number of fraction digits seen
	sawPoint := false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			anyDigit = true
			if c != '0' {
				sawNonZero = true
			}
			if !sawNonZero {
				if sawPoint {
					pointExp++
				}
				continue
			}
			if nd < len(digits) {
				digits[nd] = c
				nd++
				if sawPoint {
					pointExp++
				}
			} else if !sawPoint {
				extra++
			}
		case c == '.' && !sawPoint:
			sawPoint = true
		default:
			goto exponent
		}
	}
exponent:
	if !anyDigit {
		return Decimal{}, false
	}
	exp := 0
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return Decimal{}, false
		}
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return Decimal{}, false
		}
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return Decimal{}, false
			}
			if exp < 1e6 {
				exp = exp*10 + int(c-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	if nd == 0 {
		return Decimal{}, true
	}
	// value = digits[:nd] × 10^(extra + exp - pointExp); unscaled = value × 10^scale.
	shift := extra + exp - pointExp + scale
	if shift >= 0 {
		if nd+shift > precision {
			return Decimal{}, false
		}
		m := u128{}
		for _, c := range digits[:nd] {
			m, _ = m.mul64(10)
			m, _ = m.addSmall(uint64(c - '0'))
		}
		m, _ = m.mulPow10(shift)
		return fromMag(m, neg)
	}
	// Drop -shift digits, rounding HALF_UP on the first dropped one.
	keep := nd + shift
	if keep < 0 {
		return Decimal{}, true
	}
	if keep > precision+1 {
		return Decimal{}, false
	}
	m := u128{}
	for _, c := range digits[:keep] {
		m, _ = m.mul64(10)
		m, _ = m.addSmall(uint64(c - '0'))
	}
	if keep < nd && digits[keep] >= '5' {
		m = m.add1()
	}
	out, _ := fromMag(m, neg)
	if !out.FitsPrecision(precision) {
		return Decimal{}, false
	}
	return out, true
}

// addSmall returns a+v and whether it fits 128 bits.
func (a u128) addSmall(v uint64) (u128, bool) {
	lo, c := bits.Add64(a.lo, v, 0)
	hi, c2 := bits.Add64(a.hi, 0, c)
	return u128{hi, lo}, c2 == 0
}

// DecimalFromFloat64 converts f to DECIMAL(precision, scale) as Spark casts
// a DOUBLE to DECIMAL: through the shortest decimal string that reads back
// as f (Java's Double.toString, which Scala's BigDecimal(Double) uses),
// rounded HALF_UP to scale. ok is false for NaN, ±Inf, and values with more
// than precision digits.
func DecimalFromFloat64(f float64, precision, scale int) (Decimal, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Decimal{}, false
	}
	var buf [32]byte
	return ParseDecimal(string(strconv.AppendFloat(buf[:0], f, 'e', -1, 64)), precision, scale)
}

// Float64 returns the nearest float64 to d × 10^-scale, as Spark's
// Decimal.toDouble (correctly rounded).
func (d Decimal) Float64(scale int) float64 {
	if d.IsInt64() {
		v := d.Int64()
		if v > -1<<53 && v < 1<<53 && scale >= 0 && scale <= 22 {
			// Both operands are exact, so the quotient is correctly rounded.
			return float64(v) / float64pow10[scale]
		}
	}
	var buf [64]byte
	b := d.Append(buf[:0], 0)
	if scale != 0 {
		b = append(b, 'e')
		b = strconv.AppendInt(b, int64(-scale), 10)
	}
	f, _ := strconv.ParseFloat(string(b), 64)
	return f
}

var float64pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// DecimalFromBytes decodes a big-endian two's complement integer, the
// layout of Parquet's DECIMAL on BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY. Inputs
// longer than 16 bytes are accepted when the extra leading bytes are only
// sign extension; ok is false when the value does not fit 128 bits. An empty
// slice is zero.
func DecimalFromBytes(b []byte) (Decimal, bool) {
	if len(b) == 0 {
		return Decimal{}, true
	}
	ext := byte(0)
	if b[0]&0x80 != 0 {
		ext = 0xff
	}
	if len(b) > 16 {
		for _, c := range b[:len(b)-16] {
			if c != ext {
				return Decimal{}, false
			}
		}
		b = b[len(b)-16:]
		if (b[0]&0x80 != 0) != (ext == 0xff) {
			return Decimal{}, false
		}
	}
	var buf [16]byte
	for i := range 16 - len(b) {
		buf[i] = ext
	}
	copy(buf[16-len(b):], b)
	var hi, lo uint64
	for i := range 8 {
		hi = hi<<8 | uint64(buf[i])
		lo = lo<<8 | uint64(buf[8+i])
	}
	return Decimal{Hi: int64(hi), Lo: lo}, true
}

// AppendBytes appends d as an n-byte big-endian two's complement integer
// (Parquet's FIXED_LEN_BYTE_ARRAY of length n). For n < 16 the high bytes
// are cut: the caller makes sure the value fits (Spark sizes the array for
// the precision: 10^p - 1 fits n bytes). For n > 16 the sign is extended.
func (d Decimal) AppendBytes(dst []byte, n int) []byte {
	ext := byte(0)
	if d.Hi < 0 {
		ext = 0xff
	}
	for i := 16; i < n; i++ {
		dst = append(dst, ext)
	}
	for i := min(n, 16) - 1; i >= 0; i-- {
		if i >= 8 {
			dst = append(dst, byte(uint64(d.Hi)>>(8*(i-8))))
		} else {
			dst = append(dst, byte(d.Lo>>(8*i)))
		}
	}
	return dst
}

// BigInt returns the unscaled value as a new big.Int.
func (d Decimal) BigInt() *big.Int {
	b := new(big.Int).SetInt64(d.Hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(d.Lo))
}

// DecimalFromBigInt returns b as a Decimal and false when b does not fit
// 128 bits.
func DecimalFromBigInt(b *big.Int) (Decimal, bool) {
	if b.BitLen() > 128 {
		return Decimal{}, false
	}
	var buf [16]byte
	new(big.Int).Abs(b).FillBytes(buf[:])
	var m u128
	for i := range 8 {
		m.hi = m.hi<<8 | uint64(buf[i])
		m.lo = m.lo<<8 | uint64(buf[8+i])
	}
	return fromMag(m, b.Sign() < 0)
}
