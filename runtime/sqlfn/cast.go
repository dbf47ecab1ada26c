package sqlfn

import (
	"math"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// Casts follow Spark's Cast with ANSI mode on
// (https://spark.apache.org/docs/latest/sql-ref-ansi-compliance.html#cast).
// Integral types travel as int64 and floating ones as float64: the
// generated code widens before and narrows after (NarrowInt). A cast
// returns (value, ok) exactly when gen's castCanFail says it can fail.

// --- to BOOLEAN

var boolStrings = map[string]bool{
	"t": true, "true": true, "y": true, "yes": true, "1": true,
	"f": false, "false": false, "n": false, "no": false, "0": false,
}

// CastStringBool parses s as Spark's CAST(s AS BOOLEAN): after trimming,
// t, true, y, yes, 1 and f, false, n, no, 0, case-insensitively.
func CastStringBool(s string) (bool, bool) {
	s = trimCast(s)
	if len(s) > 5 {
		return false, false
	}
	v, ok := boolStrings[strings.ToLower(s)]
	return v, ok
}

// CastInt64Bool returns v != 0.
func CastInt64Bool(v int64) bool { return v != 0 }

// CastFloat64Bool returns f != 0 (NaN is true, as in Spark).
func CastFloat64Bool(f float64) bool { return f != 0 }

// CastDecimalBool returns d != 0.
func CastDecimalBool(d types.Decimal, scale int) bool { return d.Sign() != 0 }

// --- to integral (int64; NarrowInt narrows further)

// CastBoolInt64 returns 1 for true, 0 for false (ok is always true).
func CastBoolInt64(b bool) (int64, bool) {
	if b {
		return 1, true
	}
	return 0, true
}

// CastInt64Int64 is the identity: the generated code narrows BIGINT to
// smaller integral types through it and NarrowInt.
func CastInt64Int64(v int64) (int64, bool) { return v, true }

// CastFloat64Int64 truncates f toward zero; ok is false for NaN, ±Inf and
// values outside BIGINT (Spark's ANSI check: floor(f) <= Long.MaxValue and
// ceil(f) >= Long.MinValue; 2^63 itself saturates, as Java's conversion).
func CastFloat64Int64(f float64) (int64, bool) {
	if !(math.Floor(f) <= math.MaxInt64 && math.Ceil(f) >= math.MinInt64) {
		return 0, false
	}
	if f >= math.MaxInt64 {
		return math.MaxInt64, true
	}
	return int64(f), true
}

// CastDecimalInt64 truncates d (of scale scale) toward zero; ok is false
// when the result does not fit BIGINT.
func CastDecimalInt64(d types.Decimal, scale int) (int64, bool) {
	t, ok := d.Trunc(scale, 0), true
	if scale < 0 {
		t, ok = d.Rescale(scale, 0)
	}
	if !ok || !t.IsInt64() {
		return 0, false
	}
	return t.Int64(), true
}

// CastStringInt64 parses s as Spark's ANSI CAST(s AS BIGINT)
// (UTF8String.toLongExact): trimmed, an optional sign and decimal digits;
// no decimal point, exponent or underscores. ok is false for malformed or
// out of range text.
func CastStringInt64(s string) (int64, bool) {
	s = trimCast(s)
	if s == "" {
		return 0, false
	}
	neg := false
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if v > (1<<63)/10 {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
		if v > 1<<63 {
			return 0, false
		}
	}
	if neg {
		return int64(-v), true // -(1<<63) wraps to MinInt64, which is exact
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}

// CastTimestampInt64 returns the whole seconds since the epoch of ts,
// rounded down (Spark: Math.floorDiv(micros, 1000000)); ok is always true.
func CastTimestampInt64(ts types.Timestamp) (int64, bool) {
	return floorDiv(int64(ts), microsPerSecond), true
}

// --- to floating (float64; FLOAT targets convert the result)

// CastBoolFloat64 returns 1 or 0.
func CastBoolFloat64(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// CastInt64Float64 returns float64(v).
func CastInt64Float64(v int64) float64 { return float64(v) }

// CastFloat64Float64 is the identity (DOUBLE to FLOAT goes through it).
func CastFloat64Float64(f float64) float64 { return f }

// CastDecimalFloat64 returns the nearest double to d (Decimal.toDouble).
func CastDecimalFloat64(d types.Decimal, scale int) float64 { return d.Float64(scale) }

// CastTimestampFloat64 returns the seconds since the epoch with the
// fraction (micros / 1e6).
func CastTimestampFloat64(ts types.Timestamp) float64 { return float64(ts) / microsPerSecond }

// CastStringFloat64 parses s as Spark's CAST(s AS DOUBLE): Java's
// Double.parseDouble (trimmed; digits with optional point and exponent; an
// optional d/D/f/F suffix; hexadecimal 0x1.8p1; NaN, Infinity), then
// Spark's special values inf, +inf, -inf, infinity, +infinity, -infinity
// and nan, case-insensitively. Out of range values become ±Infinity or 0,
// as in Java. FLOAT targets use the double rounded to float.
func CastStringFloat64(s string) (float64, bool) {
	t := strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if f, ok := parseJavaDouble(t); ok {
		return f, true
	}
	switch strings.ToLower(t) {
	case "inf", "+inf", "infinity", "+infinity":
		return math.Inf(1), true
	case "-inf", "-infinity":
		return math.Inf(-1), true
	case "nan":
		return math.NaN(), true
	}
	return 0, false
}

// parseJavaDouble accepts Java's FloatingDecimal grammar.
func parseJavaDouble(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	body := s
	sign := ""
	if body[0] == '+' || body[0] == '-' {
		sign, body = body[:1], body[1:]
	}
	switch body {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		if sign == "-" {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if n := len(body); n > 0 && strings.IndexByte("fFdD", body[n-1]) >= 0 {
		body = body[:n-1]
	}
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	isHex := func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	i := 0
	scan := func(digit func(byte) bool) int {
		n := 0
		for ; i < len(body) && digit(body[i]); i++ {
			n++
		}
		return n
	}
	// mantissa: digits, an optional point and digits; at least one digit.
	mantissa := func(digit func(byte) bool) bool {
		n := scan(digit)
		if i < len(body) && body[i] == '.' {
			i++
			n += scan(digit)
		}
		return n > 0
	}
	// exponent: a marker, an optional sign and decimal digits.
	exponent := func(marks string) bool {
		if i >= len(body) || strings.IndexByte(marks, body[i]) < 0 {
			return false
		}
		i++
		if i < len(body) && (body[i] == '+' || body[i] == '-') {
			i++
		}
		return scan(isDigit) > 0
	}
	if len(body) > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X') {
		// Hexadecimal: the binary exponent is mandatory (0x1.8p1).
		i = 2
		if !mantissa(isHex) || !exponent("pP") {
			return 0, false
		}
	} else {
		if !mantissa(isDigit) {
			return 0, false
		}
		if i < len(body) && !exponent("eE") {
			return 0, false
		}
	}
	if i != len(body) {
		return 0, false
	}
	f, err := strconv.ParseFloat(sign+body, 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		return 0, false
	}
	return f, true
}

// --- to DECIMAL

// CastBoolDecimal returns 1 or 0 as DECIMAL(precision, scale); ok is false
// when 1 does not fit (precision == scale).
func CastBoolDecimal(b bool, precision, scale int) (types.Decimal, bool) {
	if !b {
		return types.Decimal{}, true
	}
	return CastInt64Decimal(1, precision, scale)
}

// CastInt64Decimal returns v as DECIMAL(precision, scale); ok is false when
// it has more than precision - scale integral digits.
func CastInt64Decimal(v int64, precision, scale int) (types.Decimal, bool) {
	return fitDecimal(types.DecimalFromInt64(v), 0, precision, scale)
}

// CastFloat64Decimal converts f as Spark does (via the shortest decimal
// text of f, rounded HALF_UP to scale); ok is false for NaN, ±Inf and
// values that do not fit DECIMAL(precision, scale).
func CastFloat64Decimal(f float64, precision, scale int) (types.Decimal, bool) {
	return types.DecimalFromFloat64(f, precision, scale)
}

// CastDecimalDecimal converts d from scale dScale to DECIMAL(precision,
// scale), rounding HALF_UP (Decimal.changePrecision); ok is false when it
// does not fit.
func CastDecimalDecimal(d types.Decimal, dScale, precision, scale int) (types.Decimal, bool) {
	return fitDecimal(d, dScale, precision, scale)
}

// CastStringDecimal parses s as Spark's CAST(s AS DECIMAL(precision,
// scale)): trimmed, Java's BigDecimal syntax (see types.ParseDecimal),
// rounded HALF_UP to scale; ok is false for malformed text or a value that
// does not fit.
func CastStringDecimal(s string, precision, scale int) (types.Decimal, bool) {
	return types.ParseDecimal(strings.TrimFunc(s, func(r rune) bool { return r <= ' ' }), precision, scale)
}

// CastTimestampDecimal converts ts to seconds since the epoch as
// DECIMAL(precision, scale), through a double as Spark does.
func CastTimestampDecimal(ts types.Timestamp, precision, scale int) (types.Decimal, bool) {
	return types.DecimalFromFloat64(CastTimestampFloat64(ts), precision, scale)
}

// --- to STRING and BINARY

// CastBoolString returns "true" or "false".
func CastBoolString(b bool) string { return strconv.FormatBool(b) }

// CastInt64String returns v in decimal.
func CastInt64String(v int64) string { return strconv.FormatInt(v, 10) }

// CastFloat64String renders a DOUBLE as Java's Double.toString: 1.0,
// 1.0E10, 1.0E-5, NaN, Infinity, -0.0.
func CastFloat64String(f float64) string { return string(appendJavaDouble(nil, f, 64)) }

// CastFloat32String renders a FLOAT as Java's Float.toString (shortest
// float32 digits: 0.1 rather than 0.10000000149011612).
func CastFloat32String(f float32) string { return string(appendJavaDouble(nil, float64(f), 32)) }

// CastDecimalString renders d with exactly scale digits after the point
// (Spark's ANSI cast uses Decimal.toPlainString): "-12.30", "0.05".
func CastDecimalString(d types.Decimal, scale int) string { return d.Format(scale) }

// CastBinaryString returns the bytes as a string, unchanged.
func CastBinaryString(b []byte) string { return string(b) }

// CastStringBinary returns the UTF-8 bytes of s.
func CastStringBinary(s string) []byte { return []byte(s) }

// CastDateString renders d as yyyy-MM-dd ("+10000-01-01" past year 9999).
func CastDateString(d types.Date) string {
	var buf [16]byte
	return string(appendDate(buf[:0], int64(d)))
}

// CastTimestampString renders ts in the session time zone as
// "yyyy-MM-dd HH:mm:ss" with a fraction only when the microseconds are not
// zero, trailing zeros cut (Spark's TimestampFormatter.getFractionFormatter).
func CastTimestampString(ts types.Timestamp) string {
	var buf [32]byte
	return string(appendLocalTimestamp(buf[:0], toLocal(int64(ts), SessionTimeZone())))
}

// CastTimestampNTZString renders a TIMESTAMP_NTZ as CastTimestampString
// does, without a zone.
func CastTimestampNTZString(ts types.Timestamp) string {
	var buf [32]byte
	return string(appendLocalTimestamp(buf[:0], int64(ts)))
}

// CastIntervalString renders iv as INTERVAL 'd hh:mm:ss[.ffffff]' DAY TO SECOND.
func CastIntervalString(iv types.Interval) string { return string(appendInterval(nil, iv)) }

// --- to DATE, TIMESTAMP, TIMESTAMP_NTZ

// CastTimestampDate returns the calendar day of ts in the session time zone.
func CastTimestampDate(ts types.Timestamp) types.Date {
	return types.Date(floorDiv(toLocal(int64(ts), SessionTimeZone()), microsPerDay))
}

// CastTimestampNTZDate returns the day of a TIMESTAMP_NTZ.
func CastTimestampNTZDate(ts types.Timestamp) types.Date {
	return types.Date(floorDiv(int64(ts), microsPerDay))
}

// CastDateTimestamp returns midnight of d in the session time zone.
func CastDateTimestamp(d types.Date) types.Timestamp {
	return types.Timestamp(fromLocal(int64(d)*microsPerDay, SessionTimeZone()))
}

// CastDateTimestampNTZ returns midnight of d as a TIMESTAMP_NTZ.
func CastDateTimestampNTZ(d types.Date) types.Timestamp {
	return types.Timestamp(int64(d) * microsPerDay)
}

// CastTimestampTimestampNTZ returns the local date-time of ts in the
// session time zone.
func CastTimestampTimestampNTZ(ts types.Timestamp) types.Timestamp {
	return types.Timestamp(toLocal(int64(ts), SessionTimeZone()))
}

// CastTimestampNTZTimestamp returns the instant of a local date-time in
// the session time zone (a skipped local time moves forward by the gap; an
// ambiguous one takes the earlier instant, as java.time).
func CastTimestampNTZTimestamp(ts types.Timestamp) types.Timestamp {
	return types.Timestamp(fromLocal(int64(ts), SessionTimeZone()))
}

// CastInt64Timestamp returns v seconds after the epoch; ok is false when it
// overflows (Spark's ANSI Math.multiplyExact).
func CastInt64Timestamp(v int64) (types.Timestamp, bool) {
	us, ok := Mul(v, microsPerSecond)
	return types.Timestamp(us), ok
}

// CastFloat64Timestamp returns f seconds after the epoch, truncated to
// microseconds; ok is false for NaN, ±Inf and out of range values.
func CastFloat64Timestamp(f float64) (types.Timestamp, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	us, ok := CastFloat64Int64(f * microsPerSecond)
	return types.Timestamp(us), ok
}

// CastDecimalTimestamp returns d seconds after the epoch, truncated to
// microseconds; ok is false when out of range.
func CastDecimalTimestamp(d types.Decimal, scale int) (types.Timestamp, bool) {
	var us types.Decimal
	if scale <= 6 {
		r, ok := d.Rescale(scale, 6)
		if !ok {
			return 0, false
		}
		us = r
	} else {
		us = d.Trunc(scale, 6)
	}
	if !us.IsInt64() {
		return 0, false
	}
	return types.Timestamp(us.Int64()), true
}
