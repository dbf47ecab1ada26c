package sqlfn

import (
	"math/bits"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds timestampdiff and timestampadd (Spark's TimestampDiff and
// TimestampAdd, DateTimeUtils.timestampDiff/timestampAdd; Databricks also
// spells them datediff(unit, ...), dateadd(unit, ...)). Their unit is a
// keyword the parser turns into one of the upper-case names below.

// unitMicros are the units of fixed length, in µs.
var unitMicros = map[string]int64{
	"MICROSECOND": 1, "MILLISECOND": 1000, "SECOND": microsPerSecond,
	"MINUTE": microsPerMinute, "HOUR": microsPerHour,
}

// localDiff returns the number of whole units from the local date-time a
// to b (µs since the local epoch), truncated toward zero, as java.time's
// LocalDateTime.until: time units count the local difference, date units
// count calendar days or months, less one when b's time of day is before
// a's (after a's when counting backwards).
func localDiff(unit string, a, b int64) (int64, bool) {
	if u, ok := unitMicros[unit]; ok {
		d := b - a
		if (b >= a) != (d >= 0) {
			return 0, false // the difference overflows
		}
		return d / u, true
	}
	ad, at := floorDiv(a, microsPerDay), a-floorDiv(a, microsPerDay)*microsPerDay
	bd, bt := floorDiv(b, microsPerDay), b-floorDiv(b, microsPerDay)*microsPerDay
	switch {
	case bd > ad && bt < at:
		bd--
	case bd < ad && bt > at:
		bd++
	}
	switch unit {
	case "DAY":
		return bd - ad, true
	case "WEEK":
		return (bd - ad) / 7, true
	}
	ay, am, aday := civilFromDays(ad)
	by, bm, bday := civilFromDays(bd)
	packed := func(y int64, m, d int) int64 { return (y*12+int64(m-1))*32 + int64(d) }
	months := (packed(by, bm, bday) - packed(ay, am, aday)) / 32
	switch unit {
	case "MONTH":
		return months, true
	case "QUARTER":
		return months / 3, true
	case "YEAR":
		return months / 12, true
	}
	return 0, false
}

// TimestampDiff returns timestampdiff(unit, start, end) of TIMESTAMPs: the
// whole units from start to end counted on their wall-clock times in the
// session time zone (so across a daylight-saving change an hour may be
// missing or doubled, as in Spark); false when the count overflows.
func TimestampDiff(unit string, start, end types.Timestamp) (int64, bool) {
	loc := SessionTimeZone()
	return localDiff(unit, toLocal(int64(start), loc), toLocal(int64(end), loc))
}

// TimestampDiffNTZ is TimestampDiff of TIMESTAMP_NTZ values.
func TimestampDiffNTZ(unit string, start, end types.Timestamp) (int64, bool) {
	return localDiff(unit, int64(start), int64(end))
}

// localAdd returns the local date-time local plus n units: days (DAY,
// DAYOFYEAR, WEEK) and months (MONTH, QUARTER, YEAR; the day clamped to a
// shorter month's last) on the calendar, keeping the time of day. exact
// reports a unit of fixed length, which the caller adds to the instant.
func localAdd(unit string, n, local int64) (out int64, exact, ok bool) {
	if u, fixed := unitMicros[unit]; fixed {
		hi, d := bits.Mul64(uint64(abs64(n)), uint64(u))
		if hi != 0 || d > 1<<63-1 {
			return 0, true, false
		}
		return int64(d) * sign64(n), true, true
	}
	days, tod := floorDiv(local, microsPerDay), local-floorDiv(local, microsPerDay)*microsPerDay
	var mult int64
	switch unit {
	case "DAY", "DAYOFYEAR":
		mult = 1
	case "WEEK":
		mult = 7
	case "MONTH":
		mult = -1
	case "QUARTER":
		mult = -3
	case "YEAR":
		mult = -12
	default:
		return 0, false, false
	}
	if mult > 0 {
		if n > 1<<40 || n < -1<<40 {
			return 0, false, false
		}
		days += n * mult
	} else {
		if n > 1<<32 || n < -1<<32 {
			return 0, false, false
		}
		y, m, d := civilFromDays(days)
		total := y*12 + int64(m-1) + n*-mult
		ny, nm := floorDiv(total, 12), int(floorMod(total, 12))+1
		days = daysFromCivil(ny, nm, min(d, daysInMonth(ny, nm)))
	}
	if days > 1<<37 || days < -1<<37 {
		return 0, false, false
	}
	return days*microsPerDay + tod, false, true
}

func sign64(n int64) int64 {
	if n < 0 {
		return -1
	}
	return 1
}

// TimestampAdd returns timestampadd(unit, n, ts) of a TIMESTAMP: units of
// fixed length (MICROSECOND to HOUR) move the instant; DAY, WEEK, MONTH,
// QUARTER and YEAR move its wall-clock date in the session time zone,
// keeping the time of day (resolved as java.time does in a gap or
// overlap). False when the result overflows.
func TimestampAdd(unit string, n int64, ts types.Timestamp) (types.Timestamp, bool) {
	loc := SessionTimeZone()
	d, exact, ok := localAdd(unit, n, toLocal(int64(ts), loc))
	if !ok {
		return 0, false
	}
	if exact {
		return addMicros(ts, d)
	}
	return types.Timestamp(fromLocal(d, loc)), true
}

// TimestampAddNTZ is TimestampAdd of a TIMESTAMP_NTZ value.
func TimestampAddNTZ(unit string, n int64, ts types.Timestamp) (types.Timestamp, bool) {
	d, exact, ok := localAdd(unit, n, int64(ts))
	if !ok {
		return 0, false
	}
	if exact {
		return addMicros(ts, d)
	}
	return types.Timestamp(d), true
}

func addMicros(ts types.Timestamp, d int64) (types.Timestamp, bool) {
	s := int64(ts) + d
	if (d > 0 && s < int64(ts)) || (d < 0 && s > int64(ts)) {
		return 0, false
	}
	return types.Timestamp(s), true
}
