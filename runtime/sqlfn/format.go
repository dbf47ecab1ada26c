package sqlfn

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// javaInsignificant is the JDK FloatingDecimal's insignificantDigitsNumber:
// for an integral double of binary exponent 54+i, the number of low-order
// decimal digits Double.toString rounds away (at index i).
var javaInsignificant = [...]int{
	0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7,
	8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14,
	15, 15, 15, 15, 16, 16, 16, 17, 17, 17, 18, 18, 18, 19,
}

// javaLongDigits returns the digits of f in e's form (-d.ddde±XX) as the
// JDK 8-17 Double.toString (Spark's JVM) renders an integral double of
// magnitude 2^54 to 2^63: not the shortest digits but the exact integer
// with a fixed number of low digits rounded away (half up), so that 2^62
// is 4.6116860184273879E18 where the shortest is 4.611686018427388E18.
// Other values keep e.
func javaLongDigits(e []byte, f float64) []byte {
	a := math.Abs(f)
	if a != math.Trunc(a) || a < 1<<54 || a >= 1<<63 {
		return e
	}
	_, binExp := math.Frexp(a) // a = m * 2^binExp, 0.5 <= m < 1
	binExp--
	insig := 0
	if p2 := binExp - 53 - 1; p2 > 1 && p2 < len(javaInsignificant) {
		insig = javaInsignificant[p2]
	}
	v := uint64(a)
	pow10 := uint64(1)
	for range insig {
		pow10 *= 10
	}
	r := v % pow10
	v /= pow10
	if r >= pow10/2 && insig > 0 {
		v++
	}
	d := strconv.FormatUint(v, 10)
	exp := len(d) - 1 + insig
	d = strings.TrimRight(d, "0")
	out := make([]byte, 0, len(d)+8)
	if f < 0 {
		out = append(out, '-')
	}
	out = append(out, d[0])
	if len(d) > 1 {
		out = append(out, '.')
		out = append(out, d[1:]...)
	}
	return strconv.AppendInt(append(out, 'e', '+'), int64(exp), 10)
}

// appendJavaDouble appends f as Java's Double.toString (bitSize 64) or
// Float.toString (bitSize 32) renders it, which Spark uses to cast DOUBLE
// and FLOAT to STRING: the shortest digits that read back as f, in plain
// notation when 10^-3 <= |f| < 10^7 ("1.0", "0.001", "1234567.0") and in
// computerized scientific notation otherwise ("1.0E7", "1.0E-4"); "NaN",
// "Infinity", "-Infinity", "-0.0".
func appendJavaDouble(b []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, bitSize) // -d.ddde±XX
	if bitSize == 64 {
		e = javaLongDigits(e, f)
	}
	if e[1] == 'e' || e[0] == '-' && e[2] == 'e' {
		// Java renders at least two digits, the pair closest to f
		// (Double.MIN_VALUE is 4.9E-324, not 5.0E-324).
		e = strconv.AppendFloat(buf[:0], f, 'e', 1, bitSize)
	}
	if e[0] == '-' {
		b = append(b, '-')
		e = e[1:]
	}
	ei := strings.IndexByte(string(e), 'e')
	exp, _ := strconv.Atoi(string(e[ei+1:]))
	var digits []byte
	digits = append(digits, e[0])
	if ei > 1 {
		digits = append(digits, e[2:ei]...)
	}
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if exp >= -3 && exp < 7 {
		if exp < 0 {
			b = append(b, "0."...)
			for range -exp - 1 {
				b = append(b, '0')
			}
			return append(b, digits...)
		}
		for i := 0; i <= exp; i++ {
			if i < len(digits) {
				b = append(b, digits[i])
			} else {
				b = append(b, '0')
			}
		}
		b = append(b, '.')
		if exp+1 < len(digits) {
			return append(b, digits[exp+1:]...)
		}
		return append(b, '0')
	}
	b = append(b, digits[0], '.')
	if len(digits) > 1 {
		b = append(b, digits[1:]...)
	} else {
		b = append(b, '0')
	}
	b = append(b, 'E')
	return strconv.AppendInt(b, int64(exp), 10)
}

// appendYear appends a year as java.time's 'uuuu' (SignStyle.EXCEEDS_PAD,
// width w): zero-padded to w digits, '-' for negative years, '+' when a
// positive year needs more than w digits (w >= 4 only).
func appendYear(b []byte, y int64, w int) []byte {
	if y < 0 {
		b = append(b, '-')
		y = -y
	} else if w >= 4 && y >= int64(math.Pow10(w)) {
		b = append(b, '+')
	}
	return appendPadded(b, y, w)
}

// appendPadded appends v (>= 0) zero-padded to w digits.
func appendPadded(b []byte, v int64, w int) []byte {
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], v, 10)
	for i := len(s); i < w; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// appendDate appends day number days as yyyy-MM-dd (Spark's DATE to
// STRING: "2024-03-01", "+10000-01-01", "-0044-03-15").
func appendDate(b []byte, days int64) []byte {
	y, m, d := civilFromDays(days)
	b = appendYear(b, y, 4)
	b = append(b, '-')
	b = appendPadded(b, int64(m), 2)
	b = append(b, '-')
	return appendPadded(b, int64(d), 2)
}

// appendLocalTimestamp appends a local date-time (µs) as Spark casts
// TIMESTAMP to STRING: "yyyy-MM-dd HH:mm:ss" and, when the microseconds are
// not zero, a fraction without trailing zeros.
func appendLocalTimestamp(b []byte, local int64) []byte {
	days, h, mi, s, us := timestampFields(local)
	b = appendDate(b, days)
	b = append(b, ' ')
	b = appendPadded(b, int64(h), 2)
	b = append(b, ':')
	b = appendPadded(b, int64(mi), 2)
	b = append(b, ':')
	b = appendPadded(b, int64(s), 2)
	return appendFraction(b, us)
}

// appendFraction appends ".ffffff" without trailing zeros, or nothing for 0.
func appendFraction(b []byte, us int) []byte {
	if us == 0 {
		return b
	}
	b = append(b, '.')
	n := len(b)
	b = appendPadded(b, int64(us), 6)
	for len(b) > n && b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	return b
}

// appendInterval appends iv as Spark's ANSI style for INTERVAL DAY TO
// SECOND: INTERVAL '-1 02:03:04.5' DAY TO SECOND.
func appendInterval(b []byte, iv types.Interval) []byte {
	b = append(b, "INTERVAL '"...)
	v := uint64(iv)
	if iv < 0 {
		b = append(b, '-')
		v = -v
	}
	b = strconv.AppendUint(b, v/microsPerDay, 10)
	r := v % microsPerDay
	b = append(b, ' ')
	b = appendPadded(b, int64(r/microsPerHour), 2)
	b = append(b, ':')
	b = appendPadded(b, int64(r/microsPerMinute%60), 2)
	b = append(b, ':')
	b = appendPadded(b, int64(r/microsPerSecond%60), 2)
	b = appendFraction(b, int(r%microsPerSecond))
	return append(b, "' DAY TO SECOND"...)
}

// FormatValue renders a Go value of a SQL type for an error message, close
// to Spark's toSQLValue: strings quoted ('it\'s'), binary as X'0A1B', dates
// and timestamps as DATE '...' and TIMESTAMP '...' (session time zone),
// doubles as Java renders them, a types.Decimal as its unscaled integer
// (its scale is not known here).
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return FormatString(x)
	case []byte:
		return FormatBinary(x)
	case bool:
		return FormatBool(x)
	case int8, int16, int32, int64, int:
		return fmt.Sprint(x)
	case float32:
		return string(appendJavaDouble(nil, float64(x), 32))
	case float64:
		return FormatFloat64(x)
	case types.Decimal:
		return x.String()
	case types.Date:
		return FormatDate(x)
	case types.Timestamp:
		return FormatTimestamp(x)
	case types.Interval:
		return FormatInterval(x)
	case types.YearMonthInterval:
		return CastYMIntervalString(x)
	}
	return fmt.Sprint(v)
}

// FormatBool renders a BOOLEAN for an error message: true or false.
func FormatBool(v bool) string { return strconv.FormatBool(v) }

// FormatInt64 renders an integral value for an error message.
func FormatInt64(v int64) string { return strconv.FormatInt(v, 10) }

// FormatFloat64 renders a DOUBLE for an error message, as Java does (1.0E10).
func FormatFloat64(v float64) string { return string(appendJavaDouble(nil, v, 64)) }

// FormatDecimal renders DECIMAL value d of scale scale for an error message.
func FormatDecimal(d types.Decimal, scale int) string { return d.Format(scale) }

// FormatString renders a STRING for an error message: in single quotes,
// with quotes and backslashes escaped, as Spark's toSQLValue.
func FormatString(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	return "'" + r.Replace(v) + "'"
}

// FormatBinary renders a BINARY for an error message: X'0A1B'.
func FormatBinary(v []byte) string { return "X'" + strings.ToUpper(hex.EncodeToString(v)) + "'" }

// FormatDate renders a DATE for an error message: DATE '2024-03-01'.
func FormatDate(v types.Date) string { return "DATE '" + CastDateString(v) + "'" }

// FormatTimestamp renders a TIMESTAMP for an error message, in the session
// time zone: TIMESTAMP '2024-03-01 12:00:00'.
func FormatTimestamp(v types.Timestamp) string { return "TIMESTAMP '" + CastTimestampString(v) + "'" }

// FormatTimestampNTZ renders a TIMESTAMP_NTZ for an error message.
func FormatTimestampNTZ(v types.Timestamp) string {
	return "TIMESTAMP_NTZ '" + CastTimestampNTZString(v) + "'"
}

// FormatInterval renders an INTERVAL DAY TO SECOND for an error message.
func FormatInterval(v types.Interval) string { return CastIntervalString(v) }
