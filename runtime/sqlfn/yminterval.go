package sqlfn

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// Year-month intervals (INTERVAL YEAR TO MONTH, a count of months in an
// INT) and the parts of ANSI intervals, with Spark's semantics: adding
// months to a date or timestamp is add_months (the day of the month is
// clamped to the end of a shorter month; a TIMESTAMP moves in the session
// time zone's calendar, a TIMESTAMP_NTZ in its own); arithmetic that does
// not fit an INT of months is an overflow (ok false).

// AddDateYMInterval returns d + m months (Spark's DateAddYMInterval).
func AddDateYMInterval(d types.Date, m types.YearMonthInterval) types.Date {
	return addMonths64(d, int64(m))
}

// SubDateYMInterval returns d - m months.
func SubDateYMInterval(d types.Date, m types.YearMonthInterval) types.Date {
	return addMonths64(d, -int64(m))
}

func addMonths64(d types.Date, n int64) types.Date {
	y, mon, day := civilFromDays(int64(d))
	total := y*12 + int64(mon-1) + n
	ny, nm := floorDiv(total, 12), int(floorMod(total, 12))+1
	day = min(day, daysInMonth(ny, nm))
	return types.Date(daysFromCivil(ny, nm, day))
}

// addMonthsLocal moves the local date-time local (µs) by n months.
func addMonthsLocal(local, n int64) int64 {
	days := floorDiv(local, microsPerDay)
	tod := local - days*microsPerDay
	return int64(addMonths64(types.Date(days), n))*microsPerDay + tod
}

// AddTimestampYMInterval returns ts + m months in the session time zone
// (Spark's TimestampAddYMInterval).
func AddTimestampYMInterval(ts types.Timestamp, m types.YearMonthInterval) types.Timestamp {
	loc := SessionTimeZone()
	return types.Timestamp(fromLocal(addMonthsLocal(toLocal(int64(ts), loc), int64(m)), loc))
}

// SubTimestampYMInterval returns ts - m months in the session time zone.
func SubTimestampYMInterval(ts types.Timestamp, m types.YearMonthInterval) types.Timestamp {
	loc := SessionTimeZone()
	return types.Timestamp(fromLocal(addMonthsLocal(toLocal(int64(ts), loc), -int64(m)), loc))
}

// AddTimestampNTZYMInterval returns the TIMESTAMP_NTZ ts + m months.
func AddTimestampNTZYMInterval(ts types.Timestamp, m types.YearMonthInterval) types.Timestamp {
	return types.Timestamp(addMonthsLocal(int64(ts), int64(m)))
}

// SubTimestampNTZYMInterval returns the TIMESTAMP_NTZ ts - m months.
func SubTimestampNTZYMInterval(ts types.Timestamp, m types.YearMonthInterval) types.Timestamp {
	return types.Timestamp(addMonthsLocal(int64(ts), -int64(m)))
}

// ymResult narrows a count of months to an interval; ok is false when it
// does not fit an INT (Spark: "integer overflow").
func ymResult(v int64) (types.YearMonthInterval, bool) {
	if v > math.MaxInt32 || v < math.MinInt32 {
		return 0, false
	}
	return types.YearMonthInterval(v), true
}

// AddYMIntervalYMInterval returns a + b.
func AddYMIntervalYMInterval(a, b types.YearMonthInterval) (types.YearMonthInterval, bool) {
	return ymResult(int64(a) + int64(b))
}

// SubYMIntervalYMInterval returns a - b.
func SubYMIntervalYMInterval(a, b types.YearMonthInterval) (types.YearMonthInterval, bool) {
	return ymResult(int64(a) - int64(b))
}

// MulYMIntervalInt returns m * n (Spark's MultiplyYMInterval: exact).
func MulYMIntervalInt(m types.YearMonthInterval, n int64) (types.YearMonthInterval, bool) {
	p, ok := Mul(int64(m), n)
	if !ok {
		return 0, false
	}
	return ymResult(p)
}

// DivYMIntervalInt returns m / n rounded HALF_UP (DivideYMInterval); ok is
// false for a zero divisor and for the most negative interval divided by
// -1.
func DivYMIntervalInt(m types.YearMonthInterval, n int64) (types.YearMonthInterval, bool) {
	if n == 0 {
		return 0, false
	}
	iv, ok := bigInterval(big.NewInt(int64(m)), big.NewInt(n))
	if !ok {
		return 0, false
	}
	return ymResult(int64(iv))
}

// MulYMIntervalDouble returns m * f rounded HALF_UP.
func MulYMIntervalDouble(m types.YearMonthInterval, f float64) (types.YearMonthInterval, bool) {
	return roundYM(float64(m) * f)
}

// DivYMIntervalDouble returns m / f rounded HALF_UP.
func DivYMIntervalDouble(m types.YearMonthInterval, f float64) (types.YearMonthInterval, bool) {
	if f == 0 {
		return 0, false
	}
	return roundYM(float64(m) / f)
}

func roundYM(f float64) (types.YearMonthInterval, bool) {
	r := math.Round(f)
	if math.IsNaN(r) || r > math.MaxInt32 || r < math.MinInt32 {
		return 0, false
	}
	return types.YearMonthInterval(int32(r)), true
}

// MulYMIntervalDecimal returns m * d (d of the given scale) rounded HALF_UP.
func MulYMIntervalDecimal(m types.YearMonthInterval, d types.Decimal, scale int) (types.YearMonthInterval, bool) {
	iv, ok := MulIntervalDecimal(types.Interval(m), d, scale)
	if !ok {
		return 0, false
	}
	return ymResult(int64(iv))
}

// DivYMIntervalDecimal returns m / d (d of the given scale) rounded HALF_UP.
func DivYMIntervalDecimal(m types.YearMonthInterval, d types.Decimal, scale int) (types.YearMonthInterval, bool) {
	iv, ok := DivIntervalDecimal(types.Interval(m), d, scale)
	if !ok {
		return 0, false
	}
	return ymResult(int64(iv))
}

// MakeYMInterval returns make_ym_interval(years, months): years * 12 +
// months, which must fit an INT.
func MakeYMInterval(years, months int32) (types.YearMonthInterval, bool) {
	y, ok := ymResult(int64(years) * 12)
	if !ok {
		return 0, false
	}
	return ymResult(int64(y) + int64(months))
}

// MakeDTInterval returns make_dt_interval(days, hours, mins, secs), secs a
// DECIMAL of the given scale: the microseconds must fit a BIGINT (Spark:
// "long overflow").
func MakeDTInterval(days, hours, mins int32, secs types.Decimal, scale int) (types.Interval, bool) {
	us := new(big.Int).Mul(secs.BigInt(), big.NewInt(1_000_000))
	us.Quo(us, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	var total int64
	for _, part := range [][2]int64{{int64(days), microsPerDay}, {int64(hours), microsPerHour}, {int64(mins), microsPerMinute}} {
		p, ok := Mul(part[0], part[1])
		if !ok {
			return 0, false
		}
		if total, ok = Add(total, p); !ok {
			return 0, false
		}
	}
	if !us.IsInt64() {
		return 0, false
	}
	total, ok := Add(total, us.Int64())
	return types.Interval(total), ok
}

// ExtractYMYears is EXTRACT(YEAR FROM m): whole years, toward zero.
func ExtractYMYears(m types.YearMonthInterval) int32 { return int32(m) / 12 }

// ExtractYMMonths is EXTRACT(MONTH FROM m): the months past the years, with
// m's sign.
func ExtractYMMonths(m types.YearMonthInterval) int8 { return int8(int32(m) % 12) }

// ExtractDTDays is EXTRACT(DAY FROM iv): whole days, toward zero.
func ExtractDTDays(iv types.Interval) int32 { return int32(int64(iv) / microsPerDay) }

// ExtractDTHours is EXTRACT(HOUR FROM iv): the hours past the days.
func ExtractDTHours(iv types.Interval) int8 { return int8(int64(iv) / microsPerHour % 24) }

// ExtractDTMinutes is EXTRACT(MINUTE FROM iv): the minutes past the hours.
func ExtractDTMinutes(iv types.Interval) int8 { return int8(int64(iv) / microsPerMinute % 60) }

// ExtractDTSeconds is EXTRACT(SECOND FROM iv): the seconds past the minutes
// with their fraction, a DECIMAL(8,6).
func ExtractDTSeconds(iv types.Interval) types.Decimal {
	return types.DecimalFromInt64(int64(iv) % microsPerMinute)
}

// SecondWithFraction is EXTRACT(SECOND FROM ts) in the session time zone:
// the second with its fraction, a DECIMAL(8,6).
func SecondWithFraction(ts types.Timestamp) types.Decimal {
	return SecondWithFractionNTZ(types.Timestamp(toLocal(int64(ts), SessionTimeZone())))
}

// SecondWithFractionNTZ is EXTRACT(SECOND FROM ts) of a TIMESTAMP_NTZ.
func SecondWithFractionNTZ(ts types.Timestamp) types.Decimal {
	return types.DecimalFromInt64(floorMod(int64(ts), microsPerMinute))
}

// YearOfWeek is EXTRACT(YEAROFWEEK FROM d): the ISO 8601 week-numbering
// year, the year of the Thursday of d's week.
func YearOfWeek(d types.Date) int32 {
	days := int64(d)
	y, _, _ := civilFromDays(days - int64(weekdayMon0(days)) + 3)
	return int32(y)
}

// DayOfWeekISO is EXTRACT(DAYOFWEEK_ISO FROM d): 1 (Monday) to 7 (Sunday).
func DayOfWeekISO(d types.Date) int32 { return int32(weekdayMon0(int64(d))) + 1 }

// CastYMIntervalString renders m as Spark's ANSI style: INTERVAL '-1-2'
// YEAR TO MONTH.
func CastYMIntervalString(m types.YearMonthInterval) string {
	v := int64(m)
	b := []byte("INTERVAL '")
	if v < 0 {
		b, v = append(b, '-'), -v
	}
	b = strconv.AppendInt(b, v/12, 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, v%12, 10)
	return string(append(b, "' YEAR TO MONTH"...))
}

// CastStringYMInterval parses s as CAST(s AS INTERVAL YEAR TO MONTH):
// `[+-]y-m` or `INTERVAL [+-]'[+-]y-m' YEAR TO MONTH` (keywords in any
// case), months 0 to 11, the total within an INT.
func CastStringYMInterval(s string) (types.YearMonthInterval, bool) {
	s, neg, ok := intervalLiteralBody(trimCast(s), "YEAR TO MONTH")
	if !ok {
		return 0, false
	}
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = neg != (s[0] == '-')
		s = s[1:]
	}
	y, m, ok := strings.Cut(s, "-")
	years, err1 := strconv.ParseInt(y, 10, 64)
	months, err2 := strconv.ParseInt(m, 10, 64)
	if !ok || err1 != nil || err2 != nil || y == "" || y[0] == '+' || m == "" || m[0] == '+' || years < 0 || months < 0 || months > 11 || years > math.MaxInt32 {
		return 0, false
	}
	v := years*12 + months
	if neg {
		v = -v
	}
	return ymResult(v)
}

// FormatYMInterval renders an INTERVAL YEAR TO MONTH for an error message.
func FormatYMInterval(v types.YearMonthInterval) string { return CastYMIntervalString(v) }

// ErrIntervalOverflow is the row error of an interval operation whose result
// does not fit its type (Spark's INTERVAL_ARITHMETIC_OVERFLOW).
func ErrIntervalOverflow(typ string) error {
	return &Error{Class: "INTERVAL_ARITHMETIC_OVERFLOW", Message: strings.ToLower(typ) + " overflow: integer overflow",
		Hint: "use try_add or try_subtract to tolerate overflow and return NULL instead"}
}

// HourNTZ returns the hour of the TIMESTAMP_NTZ ts (no time zone applies).
func HourNTZ(ts types.Timestamp) int32 {
	_, h, _, _, _ := timestampFields(int64(ts))
	return int32(h)
}

// MinuteNTZ returns the minute of the TIMESTAMP_NTZ ts.
func MinuteNTZ(ts types.Timestamp) int32 {
	_, _, m, _, _ := timestampFields(int64(ts))
	return int32(m)
}

// SecondNTZ returns the second of the TIMESTAMP_NTZ ts.
func SecondNTZ(ts types.Timestamp) int32 {
	_, _, _, s, _ := timestampFields(int64(ts))
	return int32(s)
}

// AbsInterval returns |iv|; ok is false for the most negative interval.
func AbsInterval(iv types.Interval) (types.Interval, bool) { return Abs(iv) }

// AbsYMInterval returns |m|; ok is false for the most negative interval.
func AbsYMInterval(m types.YearMonthInterval) (types.YearMonthInterval, bool) { return Abs(m) }

// SignInterval returns signum(iv): -1.0, 0.0 or 1.0.
func SignInterval(iv types.Interval) float64 { return Sign(int64(iv)) }

// SignYMInterval returns signum(m): -1.0, 0.0 or 1.0.
func SignYMInterval(m types.YearMonthInterval) float64 { return Sign(int64(m)) }
