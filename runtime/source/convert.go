package source

import (
	"bytes"
	"math"
	"strconv"

	"github.com/pipegen/pipegen/runtime/types"
)

// The text conversions below follow what Spark's JSON and CSV readers do
// with a value of each type (JacksonParser, UnivocityParser): Java's
// Long.parseLong for integers, java.math.BigDecimal for decimals, Scala's
// toBoolean for CSV booleans. They work on bytes and do not allocate.

// parseInt parses Java's integer grammar [+-]?[0-9]+ and reports false when
// the text is not an integer or lies outside [lo, hi].
func parseInt(b []byte, lo, hi int64) (int64, bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		i = 1
	}
	if i == len(b) {
		return 0, false
	}
	var u uint64
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			return 0, false
		}
		if u > (math.MaxUint64-9)/10 {
			return 0, false
		}
		u = u*10 + uint64(c)
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		v := -int64(u)
		return v, v >= lo
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	v := int64(u)
	return v, v <= hi
}

var float64pow10 = [...]float64{
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
}

// fastFloat converts -?digits[.digits] with at most 15 digits exactly: the
// mantissa is below 2^53 and the power of ten at most 10^22, both exact in
// a float64, so one division rounds correctly. ok is false for other text.
func fastFloat(b []byte) (float64, bool) {
	i, neg := 0, false
	if len(b) > 0 && b[0] == '-' {
		neg, i = true, 1
	}
	var m uint64
	nd, frac := 0, 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		m = m*10 + uint64(b[i]-'0')
		nd++
	}
	if i < len(b) && b[i] == '.' && nd > 0 {
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			m = m*10 + uint64(b[i]-'0')
			nd++
			frac++
		}
	}
	if i != len(b) || nd == 0 || nd > 15 || frac == 0 && b[len(b)-1] == '.' {
		return 0, false
	}
	f := float64(m) / float64pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

// parseJSONFloat converts a JSON number token (already validated) to a
// float64, correctly rounded; out-of-range values become ±Inf, as Java's
// Double.parseDouble gives.
func parseJSONFloat(b []byte) float64 {
	if f, ok := fastFloat(b); ok {
		return f
	}
	f, _ := strconv.ParseFloat(bytesString(b), 64)
	return f
}

// parseFloatText parses a CSV field as Spark does for FLOAT and DOUBLE:
// Spark's nanValue "NaN", positiveInf "Inf" and negativeInf "-Inf", then
// Java's Double.parseDouble (surrounding whitespace, "Infinity", a trailing
// d/D/f/F type suffix). Hexadecimal floats are accepted as by Java.
func parseFloatText(b []byte, bitSize int) (float64, bool) {
	if f, ok := fastFloat(b); ok && bitSize == 64 {
		return f, true
	}
	b = bytes.TrimFunc(b, func(r rune) bool { return r <= ' ' })
	switch string(b) {
	case "NaN":
		return math.NaN(), true
	case "Inf", "Infinity", "+Infinity":
		return math.Inf(1), true
	case "-Inf", "-Infinity":
		return math.Inf(-1), true
	}
	if n := len(b); n > 1 {
		switch b[n-1] {
		case 'd', 'D', 'f', 'F':
			if c := b[n-2]; c >= '0' && c <= '9' || c == '.' {
				b = b[:n-1]
			}
		}
	}
	j := 0
	if j < len(b) && (b[j] == '+' || b[j] == '-') {
		j++
	}
	// Go's ParseFloat also takes "inf", "nan" and "_" separators; Java does not.
	if j == len(b) || !(b[j] >= '0' && b[j] <= '9' || b[j] == '.') || bytes.IndexByte(b, '_') >= 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(bytesString(b), bitSize)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return f, true
}

// parseBoolText is Scala's String.toBoolean: "true" or "false", any case.
func parseBoolText(b []byte) (bool, bool) {
	switch {
	case len(b) == 4 && bytes.EqualFold(b, []byte("true")):
		return true, true
	case len(b) == 5 && bytes.EqualFold(b, []byte("false")):
		return false, true
	}
	return false, false
}

// parseDecimal parses java.math.BigDecimal's text grammar into a
// DECIMAL(p,s) unscaled value, rounded HALF_UP, failing beyond precision p,
// as Spark's Decimal.set(BigDecimal, p, s) does; types.ParseDecimal does the
// work. commas says to drop ',' anywhere first, as Spark's decimal parser for
// the default locale does for strings.
func parseDecimal(b []byte, p, s int, commas bool) (types.Decimal, bool) {
	if commas && bytes.IndexByte(b, ',') >= 0 {
		b = bytes.ReplaceAll(b, []byte(","), nil)
	}
	return types.ParseDecimal(bytesString(b), p, s)
}
