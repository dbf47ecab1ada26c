package sqlfn

import (
	"math"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds Spark's calendar functions: make_date, make_timestamp,
// months_between, add_months, last_day, next_day, weekofyear, trunc, the
// Unix-time conversions, from_utc_timestamp and to_utc_timestamp, and the
// time buckets of window(). Zone-less values are read and rendered in the
// session time zone (SetSessionTimeZone), as Spark's
// spark.sql.session.timeZone (DateTimeUtils).

// MakeDate returns make_date(year, month, day); ok is false for a date
// that does not exist (DATETIME_FIELD_OUT_OF_BOUNDS under ANSI semantics)
// or whose day number does not fit a DATE's 32 bits (Spark's
// Math.toIntExact of LocalDate.toEpochDay): years outside 0000-9999 are
// dates too (datetime-special.sql.out: make_date(999999, 3, 18) is
// +999999-03-18).
func MakeDate(y, m, d int32) (types.Date, bool) {
	if !validDate(int64(y), int(m), int(d)) {
		return 0, false
	}
	days := daysFromCivil(int64(y), int(m), int(d))
	if days < math.MinInt32 || days > math.MaxInt32 {
		return 0, false
	}
	return types.Date(days), true
}

// MakeTimestamp returns make_timestamp(year, month, day, hour, min, sec[,
// zone]); sec is rounded half up to microseconds, as Spark's
// DECIMAL(16,6) argument. The local date-time is read in zone, or the
// session time zone. sec = 60 with no fraction rolls to the next minute, as
// Spark. ok is false for an invalid field or zone.
func MakeTimestamp(y, mo, d, h, mi int32, secs float64, zone ...string) (types.Timestamp, bool) {
	if secs != secs || secs < 0 || secs > 61 {
		return 0, false
	}
	sec := int64(roundFloat(secs*microsPerSecond, 0))
	if sec < 0 || sec > 60*microsPerSecond || h < 0 || h > 23 || mi < 0 || mi > 59 {
		return 0, false
	}
	if sec >= 60*microsPerSecond && sec != 60*microsPerSecond {
		return 0, false
	}
	if !validDate(int64(y), int(mo), int(d)) {
		return 0, false
	}
	loc := SessionTimeZone()
	if len(zone) > 0 {
		z, ok := zoneByID(zone[0])
		if !ok {
			return 0, false
		}
		loc = z
	}
	local := daysFromCivil(int64(y), int(mo), int(d))*microsPerDay + int64(h)*microsPerHour + int64(mi)*microsPerMinute + sec
	return types.Timestamp(fromLocal(local, loc)), true
}

// MonthsBetween returns months_between(t1, t2[, roundOff]) as Spark's
// DateTimeUtils.monthsBetween: whole months when both days of month are
// equal or both are month ends, else the month difference plus the
// difference of day and time of day over 31-day months, rounded to 8
// decimal places unless roundOff is false.
func MonthsBetween(t1, t2 types.Timestamp, roundOff ...bool) float64 {
	loc := SessionTimeZone()
	l1, l2 := toLocal(int64(t1), loc), toLocal(int64(t2), loc)
	d1, d2 := floorDiv(l1, microsPerDay), floorDiv(l2, microsPerDay)
	y1, m1, dd1 := civilFromDays(d1)
	y2, m2, dd2 := civilFromDays(d2)
	monthDiff := float64((y1*12 + int64(m1)) - (y2*12 + int64(m2)))
	end1 := dd1 == daysInMonth(y1, m1)
	end2 := dd2 == daysInMonth(y2, m2)
	if dd1 == dd2 || end1 && end2 {
		return monthDiff
	}
	s1 := floorDiv(l1-d1*microsPerDay, microsPerSecond)
	s2 := floorDiv(l2-d2*microsPerDay, microsPerSecond)
	secDiff := int64(dd1-dd2)*86400 + s1 - s2
	diff := monthDiff + float64(secDiff)/float64(31*86400)
	if len(roundOff) > 0 && !roundOff[0] {
		return diff
	}
	return javaRound(diff*1e8) / 1e8
}

// javaRound is Java's Math.round for doubles (floor(x + 0.5)).
func javaRound(x float64) float64 { return float64(javaLong(math.Floor(x + 0.5))) }

// AddMonths returns add_months(d, n): the same day n months later, clamped
// to the last day of a shorter month.
func AddMonths(d types.Date, n int32) types.Date {
	y, m, day := civilFromDays(int64(d))
	total := y*12 + int64(m-1) + int64(n)
	ny, nm := floorDiv(total, 12), int(floorMod(total, 12))+1
	day = min(day, daysInMonth(ny, nm))
	return types.Date(daysFromCivil(ny, nm, day))
}

// LastDay returns the last day of d's month.
func LastDay(d types.Date) types.Date {
	y, m, _ := civilFromDays(int64(d))
	return types.Date(daysFromCivil(y, m, daysInMonth(y, m)))
}

// dayOfWeekNames maps Spark's day-of-week names (two or three letters, or
// the full name, any case) to 0 = Monday ... 6 = Sunday.
var dayOfWeekNames = map[string]int{
	"MO": 0, "MON": 0, "MONDAY": 0, "TU": 1, "TUE": 1, "TUESDAY": 1,
	"WE": 2, "WED": 2, "WEDNESDAY": 2, "TH": 3, "THU": 3, "THURSDAY": 3,
	"FR": 4, "FRI": 4, "FRIDAY": 4, "SA": 5, "SAT": 5, "SATURDAY": 5,
	"SU": 6, "SUN": 6, "SUNDAY": 6,
}

// NextDay returns next_day(d, dayOfWeek): the first date after d that falls
// on that day. ok is false for an unknown day name (ILLEGAL_DAY_OF_WEEK
// under ANSI semantics).
func NextDay(d types.Date, dow string) (types.Date, bool) {
	want, ok := dayOfWeekNames[strings.ToUpper(strings.TrimSpace(dow))]
	if !ok {
		return 0, false
	}
	cur := weekdayMon0(int64(d))
	delta := (want - cur + 7) % 7
	if delta == 0 {
		delta = 7
	}
	return d + types.Date(delta), true
}

// WeekOfYear returns the ISO 8601 week number of d (weeks start on Monday;
// week 1 holds the year's first Thursday).
func WeekOfYear(d types.Date) int32 {
	days := int64(d)
	thursday := days - int64(weekdayMon0(days)) + 3
	y, _, _ := civilFromDays(thursday)
	return int32((thursday-daysFromCivil(y, 1, 1))/7 + 1)
}

// TruncDate returns trunc(d, unit) for the units YEAR, YYYY, YY, QUARTER,
// MONTH, MON, MM and WEEK (to Monday), case-insensitive; ok is false (a
// NULL result) for any other unit.
func TruncDate(d types.Date, unit string) (types.Date, bool) {
	days := int64(d)
	y, m, _ := civilFromDays(days)
	switch strings.ToUpper(unit) {
	case "YEAR", "YYYY", "YY":
		return types.Date(daysFromCivil(y, 1, 1)), true
	case "QUARTER":
		return types.Date(daysFromCivil(y, (m-1)/3*3+1, 1)), true
	case "MONTH", "MON", "MM":
		return types.Date(daysFromCivil(y, m, 1)), true
	case "WEEK":
		return types.Date(days - int64(weekdayMon0(days))), true
	}
	return 0, false
}

// DefaultUnixTimeFormat is the pattern of from_unixtime and
// unix_timestamp when none is given.
const DefaultUnixTimeFormat = "yyyy-MM-dd HH:mm:ss"

// FromUnixtime returns from_unixtime(sec[, format]): the instant sec
// seconds after the epoch rendered in the session time zone. ok is false
// when the instant is out of range.
func FromUnixtime(sec int64, format ...string) (string, bool) {
	if sec > 1<<63/microsPerSecond-1 || sec < -(1<<63)/microsPerSecond {
		return "", false
	}
	f := DefaultUnixTimeFormat
	if len(format) > 0 {
		f = format[0]
	}
	if CompileDatetimePattern(f) != nil {
		return "", false
	}
	return DateFormat(types.Timestamp(sec*microsPerSecond), f), true
}

// UnixTimestamp returns unix_timestamp(v[, format]) in seconds: a
// TIMESTAMP's seconds (rounded down), a DATE's midnight in the session
// time zone, or a STRING parsed with format (default
// DefaultUnixTimeFormat). ok is false when the string does not match
// (CANNOT_PARSE_TIMESTAMP under ANSI semantics).
func UnixTimestamp[T string | types.Date | types.Timestamp](v T, format ...string) (int64, bool) {
	switch x := any(v).(type) {
	case types.Timestamp:
		return floorDiv(int64(x), microsPerSecond), true
	case types.Date:
		return floorDiv(int64(CastDateTimestamp(x)), microsPerSecond), true
	case string:
		f := DefaultUnixTimeFormat
		if len(format) > 0 {
			f = format[0]
		}
		ts, ok := parseTimestampPattern(x, f)
		if !ok {
			return 0, false
		}
		return floorDiv(int64(ts), microsPerSecond), true
	}
	return 0, false
}

// UnixSeconds returns the seconds of ts since the epoch, rounded down.
func UnixSeconds(ts types.Timestamp) int64 { return floorDiv(int64(ts), microsPerSecond) }

// UnixMillis returns the milliseconds of ts since the epoch, rounded down.
func UnixMillis(ts types.Timestamp) int64 { return floorDiv(int64(ts), 1000) }

// UnixMicros returns the microseconds of ts since the epoch.
func UnixMicros(ts types.Timestamp) int64 { return int64(ts) }

// UnixDate returns the days of d since 1970-01-01.
func UnixDate(d types.Date) int32 { return int32(d) }

// DateFromUnixDate returns the date n days after 1970-01-01.
func DateFromUnixDate(n int32) types.Date { return types.Date(n) }

// TimestampSeconds returns timestamp_seconds(x): the instant x seconds
// (possibly fractional) after the epoch; ok is false on overflow.
func TimestampSeconds[T Number](x T) (types.Timestamp, bool) {
	return scaleToMicros(x, microsPerSecond)
}

// TimestampSecondsDecimal returns timestamp_seconds of a DECIMAL with
// scale scale, exact to the microsecond; ok is false when d has a
// non-zero digit below the microsecond or overflows (Spark multiplies by
// 10^6 and takes longValueExact: timestamp.sql.out,
// TIMESTAMP_SECONDS(0.1234567) fails with "Rounding necessary").
func TimestampSecondsDecimal(d types.Decimal, scale int) (types.Timestamp, bool) {
	us := d.Trunc(scale, 6)
	if scale > 6 {
		if back, ok := us.Rescale(6, scale); !ok || back != d {
			return 0, false
		}
	}
	if scale < 6 {
		var ok bool
		if us, ok = d.Rescale(scale, 6); !ok {
			return 0, false
		}
	}
	if !us.IsInt64() {
		return 0, false
	}
	return types.Timestamp(us.Int64()), true
}

// TimestampMillis returns timestamp_millis(x); ok is false on overflow.
func TimestampMillis[T Integer](x T) (types.Timestamp, bool) { return scaleToMicros(x, 1000) }

// TimestampMicros returns timestamp_micros(x).
func TimestampMicros[T Integer](x T) (types.Timestamp, bool) { return types.Timestamp(int64(x)), true }

func scaleToMicros[T Number](x T, unit int64) (types.Timestamp, bool) {
	if isFloat[T]() {
		f := float64(x) * float64(unit)
		if f != f || f >= 1<<63 || f < -(1<<63) {
			return 0, false
		}
		return types.Timestamp(int64(f)), true
	}
	v, ok := Mul(int64(x), unit)
	return types.Timestamp(v), ok
}

// FromUTCTimestamp returns from_utc_timestamp(ts, zone): the wall-clock
// time in zone of the instant ts, as an instant read in UTC. ok is false
// for an unknown zone.
func FromUTCTimestamp(ts types.Timestamp, zone string) (types.Timestamp, bool) {
	loc, ok := zoneByID(zone)
	if !ok {
		return 0, false
	}
	return types.Timestamp(toLocal(int64(ts), loc)), true
}

// ToUTCTimestamp returns to_utc_timestamp(ts, zone): the UTC wall-clock
// time of ts read as a wall-clock time in zone (FromUTCTimestamp's
// inverse).
func ToUTCTimestamp(ts types.Timestamp, zone string) (types.Timestamp, bool) {
	loc, ok := zoneByID(zone)
	if !ok {
		return 0, false
	}
	return types.Timestamp(fromLocal(int64(ts), loc)), true
}

// WindowStart returns the start of the tumbling window of length size (µs)
// that holds ts, windows starting at offset (µs) past the epoch (Spark's
// TimeWindow with slide = size). The window is [start, start + size).
func WindowStart(ts types.Timestamp, size, offset int64) types.Timestamp {
	return ts - types.Timestamp(floorMod(int64(ts)-offset, size))
}

// ParseTimestampIn parses s as CastStringTimestamp does, reading a
// zone-less date-time in loc instead of the session time zone: the
// checker reads TIMESTAMP literals with the pipeline's session_time_zone
// at build time, as Spark reads them in spark.sql.session.timeZone.
func ParseTimestampIn(s string, loc *time.Location) (types.Timestamp, bool) {
	p, ok := parseTimestampString(s)
	if !ok || p.justTime {
		return 0, false
	}
	if p.zone != nil {
		loc = p.zone
	}
	local, ok := localMicros(p.year, p.month, p.day, p.hour, p.minute, p.second, p.micros)
	if !ok {
		return 0, false
	}
	return types.Timestamp(fromLocal(local, loc)), true
}

// CurrentTimeZone returns current_timezone(): the session time zone's ID.
func CurrentTimeZone() string { return SessionTimeZone().String() }

// ConvertTimezone returns convert_timezone(from, to, ts) of a
// TIMESTAMP_NTZ: the wall-clock time ts in zone from, as the wall-clock
// time of the same instant in zone to (Spark's ConvertTimezone; a
// wall-clock time in a gap or overlap of from resolves as java.time does).
// False for an unknown zone.
func ConvertTimezone(from, to string, ts types.Timestamp) (types.Timestamp, bool) {
	src, ok1 := zoneByID(from)
	dst, ok2 := zoneByID(to)
	if !ok1 || !ok2 {
		return 0, false
	}
	return types.Timestamp(toLocal(fromLocal(int64(ts), src), dst)), true
}
