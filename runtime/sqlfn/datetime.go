package sqlfn

import (
	"strings"
	"sync/atomic"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
)

// Calendar arithmetic is proleptic Gregorian (Spark 3+ and java.time),
// computed on day numbers so that every int32 Date and int64 Timestamp is
// handled without time.Time's range limits.

const (
	microsPerSecond = 1_000_000
	microsPerMinute = 60 * microsPerSecond
	microsPerHour   = 60 * microsPerMinute
	microsPerDay    = 24 * microsPerHour
)

var sessionLoc atomic.Pointer[time.Location]

// SetSessionTimeZone sets the zone that zone-less date-time parsing and
// rendering use (Spark's spark.sql.session.timeZone): casts between
// TIMESTAMP and STRING, DATE and TIMESTAMP_NTZ, date_format, hour, to_date,
// date_trunc. nil means UTC, the default. Generated programs set it once at
// start-up, before evaluating rows.
func SetSessionTimeZone(loc *time.Location) {
	if loc == nil {
		loc = time.UTC
	}
	sessionLoc.Store(loc)
}

// SessionTimeZone returns the zone set by SetSessionTimeZone (UTC by default).
func SessionTimeZone() *time.Location {
	if l := sessionLoc.Load(); l != nil {
		return l
	}
	return time.UTC
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// daysFromCivil returns the day number (days since 1970-01-01) of the
// proleptic Gregorian date y-m-d (H. Hinnant's days_from_civil).
func daysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := int64((m + 9) % 12)
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int64) (y int64, m, d int) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		m = int(mp + 3)
	} else {
		m = int(mp - 9)
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysInMonth(y int64, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// validDate reports whether y-m-d is a calendar date.
func validDate(y int64, m, d int) bool {
	return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m)
}

// zoneOffset returns loc's UTC offset in seconds at the instant sec.
func zoneOffset(loc *time.Location, sec int64) int64 {
	if loc == time.UTC {
		return 0
	}
	_, off := time.Unix(sec, 0).In(loc).Zone()
	return int64(off)
}

// toLocal returns the local date-time of ts in loc, in µs since the local
// epoch.
func toLocal(ts int64, loc *time.Location) int64 {
	return ts + zoneOffset(loc, floorDiv(ts, microsPerSecond))*microsPerSecond
}

// fromLocal returns the instant of the local date-time local (µs) in loc,
// resolved as java.time's ZonedDateTime.of: in an overlap the earlier
// offset wins; in a gap the time moves forward by the gap's length.
// LocalToUTC returns the instant (µs since the epoch) of the wall-clock
// time local (µs since 1970-01-01 00:00 on that clock) in loc, as Spark
// (java.time's ZonedDateTime.of) resolves it: in a fall-back overlap the
// earlier instant, in a spring-forward gap the time moved forward by the
// gap. File readers use it so that their zone-less timestamps agree with
// CAST(string AS TIMESTAMP).
func LocalToUTC(local int64, loc *time.Location) int64 { return fromLocal(local, loc) }

func fromLocal(local int64, loc *time.Location) int64 {
	if loc == time.UTC {
		return local
	}
	sec := floorDiv(local, microsPerSecond)
	// The offsets in force a day before and after bound any transition
	// near this local time.
	before := zoneOffset(loc, sec-86400)
	after := zoneOffset(loc, sec+86400)
	okBefore := zoneOffset(loc, sec-before) == before
	okAfter := zoneOffset(loc, sec-after) == after
	var off int64
	switch {
	case okBefore && okAfter:
		off = max(before, after) // overlap: the earlier instant
	case okBefore:
		off = before
	case okAfter:
		off = after
	default:
		// Gap: keep the offset before the transition, which moves the
		// wall-clock time forward by the gap.
		off = before
	}
	return local - off*microsPerSecond
}

// timestampFields splits a local date-time (µs) into its date and time.
func timestampFields(local int64) (days int64, hour, min, sec, micros int) {
	days = floorDiv(local, microsPerDay)
	r := local - days*microsPerDay
	hour = int(r / microsPerHour)
	min = int(r / microsPerMinute % 60)
	sec = int(r / microsPerSecond % 60)
	micros = int(r % microsPerSecond)
	return
}

// Year returns the year of d (Spark's year).
func Year(d types.Date) int32 {
	y, _, _ := civilFromDays(int64(d))
	return int32(y)
}

// Quarter returns the quarter of d, 1 to 4.
func Quarter(d types.Date) int32 {
	_, m, _ := civilFromDays(int64(d))
	return int32((m + 2) / 3)
}

// Month returns the month of d, 1 to 12.
func Month(d types.Date) int32 {
	_, m, _ := civilFromDays(int64(d))
	return int32(m)
}

// DayOfMonth returns the day of the month of d, 1 to 31 (day, dayofmonth).
func DayOfMonth(d types.Date) int32 {
	_, _, dd := civilFromDays(int64(d))
	return int32(dd)
}

// DayOfWeek returns the day of the week of d, 1 = Sunday to 7 = Saturday
// (Spark's dayofweek).
func DayOfWeek(d types.Date) int32 {
	// 1970-01-01 was a Thursday (5).
	return int32(floorMod(int64(d)+4, 7)) + 1
}

// weekdayMon0 returns 0 for Monday to 6 for Sunday.
func weekdayMon0(days int64) int { return int(floorMod(days+3, 7)) }

// DayOfYear returns the day of the year of d, 1 to 366.
func DayOfYear(d types.Date) int32 {
	y, _, _ := civilFromDays(int64(d))
	return int32(int64(d) - daysFromCivil(y, 1, 1) + 1)
}

// Hour returns the hour of ts in the session time zone, 0 to 23.
func Hour(ts types.Timestamp) int32 {
	_, h, _, _, _ := timestampFields(toLocal(int64(ts), SessionTimeZone()))
	return int32(h)
}

// Minute returns the minute of ts in the session time zone.
func Minute(ts types.Timestamp) int32 {
	_, _, m, _, _ := timestampFields(toLocal(int64(ts), SessionTimeZone()))
	return int32(m)
}

// Second returns the second of ts in the session time zone (the fraction is
// dropped, as Spark's second).
func Second(ts types.Timestamp) int32 {
	_, _, _, s, _ := timestampFields(toLocal(int64(ts), SessionTimeZone()))
	return int32(s)
}

// DateDiff returns the number of days from start to end (Spark's
// datediff(end, start)).
func DateDiff(end, start types.Date) int32 { return int32(end) - int32(start) }

// DateAdd returns d plus n days (date_add).
func DateAdd(d types.Date, n int32) types.Date { return d + types.Date(n) }

// DateSub returns d minus n days (date_sub).
func DateSub(d types.Date, n int32) types.Date { return d - types.Date(n) }

// AddDateInt returns d + n days (date + int); n is TINYINT, SMALLINT or INT.
func AddDateInt[N int8 | int16 | int32](d types.Date, n N) types.Date {
	return d + types.Date(n)
}

// AddIntDate returns n + d (int + date).
func AddIntDate[N int8 | int16 | int32](n N, d types.Date) types.Date {
	return d + types.Date(n)
}

// SubDateInt returns d - n days.
func SubDateInt[N int8 | int16 | int32](d types.Date, n N) types.Date {
	return d - types.Date(n)
}

// SubDateDate returns a - b as an INTERVAL DAY TO SECOND (Spark 3.3+ with
// ANSI intervals: whole days).
func SubDateDate(a, b types.Date) types.Interval {
	return types.Interval((int64(a) - int64(b)) * microsPerDay)
}

// AddTimestampInterval returns ts + iv (an instant moved by µs, as Spark's
// timestampAddDayTime: day-time intervals are exact durations).
func AddTimestampInterval(ts types.Timestamp, iv types.Interval) types.Timestamp {
	return ts + types.Timestamp(iv)
}

// AddIntervalTimestamp returns iv + ts.
func AddIntervalTimestamp(iv types.Interval, ts types.Timestamp) types.Timestamp {
	return ts + types.Timestamp(iv)
}

// SubTimestampInterval returns ts - iv.
func SubTimestampInterval(ts types.Timestamp, iv types.Interval) types.Timestamp {
	return ts - types.Timestamp(iv)
}

// SubTimestampTimestamp returns a - b as an INTERVAL DAY TO SECOND: the
// difference of their local date-times in the session time zone, as
// Spark's subtractTimestamps (across a daylight saving change it is not the
// time elapsed).
func SubTimestampTimestamp(a, b types.Timestamp) types.Interval {
	loc := SessionTimeZone()
	return types.Interval(toLocal(int64(a), loc) - toLocal(int64(b), loc))
}

// SubTimestampNTZTimestampNTZ returns a - b of two TIMESTAMP_NTZ values.
func SubTimestampNTZTimestampNTZ(a, b types.Timestamp) types.Interval {
	return types.Interval(a - b)
}

// AddIntervalInterval returns a + b.
func AddIntervalInterval(a, b types.Interval) (types.Interval, bool) {
	r, ok := Add(int64(a), int64(b))
	return types.Interval(r), ok
}

// SubIntervalInterval returns a - b.
func SubIntervalInterval(a, b types.Interval) (types.Interval, bool) {
	r, ok := Sub(int64(a), int64(b))
	return types.Interval(r), ok
}

// DateTrunc returns ts truncated to unit in the session time zone (Spark's
// date_trunc). Units, case-insensitive: YEAR, YYYY, YY, QUARTER, MONTH, MM,
// MON, WEEK (to Monday), DAY, DD, HOUR, MINUTE, SECOND, MILLISECOND,
// MICROSECOND. ok is false for any other unit (the result is NULL).
func DateTrunc(unit string, ts types.Timestamp) (types.Timestamp, bool) {
	loc := SessionTimeZone()
	local := toLocal(int64(ts), loc)
	days, _, _, _, _ := timestampFields(local)
	var out int64
	switch strings.ToUpper(unit) {
	case "MICROSECOND":
		return ts, true
	// Units below an hour truncate the instant itself, as Spark's
	// truncTimestamp (they differ from local truncation only for zones
	// with sub-minute offsets).
	case "MILLISECOND":
		return ts - types.Timestamp(floorMod(int64(ts), 1000)), true
	case "SECOND":
		return ts - types.Timestamp(floorMod(int64(ts), microsPerSecond)), true
	case "MINUTE":
		return ts - types.Timestamp(floorMod(int64(ts), microsPerMinute)), true
	case "HOUR":
		out = local - floorMod(local, microsPerHour)
	case "DAY", "DD":
		out = days * microsPerDay
	case "WEEK":
		out = (days - int64(weekdayMon0(days))) * microsPerDay
	case "MONTH", "MM", "MON":
		y, m, _ := civilFromDays(days)
		out = daysFromCivil(y, m, 1) * microsPerDay
	case "QUARTER":
		y, m, _ := civilFromDays(days)
		out = daysFromCivil(y, (m-1)/3*3+1, 1) * microsPerDay
	case "YEAR", "YYYY", "YY":
		y, _, _ := civilFromDays(days)
		out = daysFromCivil(y, 1, 1) * microsPerDay
	default:
		return 0, false
	}
	return types.Timestamp(fromLocal(out, loc)), true
}
