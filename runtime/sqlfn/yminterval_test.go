package sqlfn

import (
	"math"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
)

// Expected values from Spark's golden files (interval.sql.out,
// extract.sql.out) and java.time's plusMonths.
func TestYearMonthInterval(t *testing.T) {
	if got := AddDateYMInterval(date(2012, 1, 1), 26); got != date(2014, 3, 1) {
		t.Errorf("2012-01-01 + 2-2 = %v", got)
	}
	if got := SubDateYMInterval(date(2012, 1, 1), 26); got != date(2009, 11, 1) {
		t.Errorf("2012-01-01 - 2-2 = %v", got)
	}
	if got := AddDateYMInterval(date(2024, 1, 31), 1); got != date(2024, 2, 29) {
		t.Errorf("2024-01-31 + 1 month = %v, want the end of February", got)
	}
	if got := SubDateYMInterval(date(2024, 3, 31), math.MinInt32); got != addMonths64(date(2024, 3, 31), 1<<31) {
		t.Errorf("subtracting the most negative interval = %v", got)
	}
	ntz := types.Timestamp(int64(date(2011, 5, 6))*microsPerDay + 7*microsPerHour)
	if got := AddTimestampNTZYMInterval(ntz, 20); got != types.Timestamp(int64(date(2013, 1, 6))*microsPerDay+7*microsPerHour) {
		t.Errorf("NTZ + 1-8 = %v", got)
	}
	for _, c := range []struct {
		name string
		got  types.YearMonthInterval
		ok   bool
		want types.YearMonthInterval
		good bool
	}{
		{"add", fst(AddYMIntervalYMInterval(26, 3)), snd(AddYMIntervalYMInterval(26, 3)), 29, true},
		{"add overflow", 0, snd(AddYMIntervalYMInterval(math.MaxInt32, 1)), 0, false},
		{"sub overflow", 0, snd(SubYMIntervalYMInterval(math.MinInt32, math.MaxInt32)), 0, false},
		{"mul", fst(MulYMIntervalInt(24, 2)), snd(MulYMIntervalInt(24, 2)), 48, true},
		{"mul overflow", 0, snd(MulYMIntervalInt(math.MaxInt32, 2)), 0, false},
		{"div HALF_UP", fst(DivYMIntervalInt(-2147483640, 5)), true, -429496728, true},
		{"div -1 overflow", 0, snd(DivYMIntervalInt(math.MinInt32, -1)), 0, false},
		{"div zero", 0, snd(DivYMIntervalInt(24, 0)), 0, false},
		{"div double", fst(DivYMIntervalDouble(24, 2)), snd(DivYMIntervalDouble(24, 2)), 12, true},
		{"div double overflow", 0, snd(DivYMIntervalDouble(math.MinInt32, -1)), 0, false},
		{"mul decimal", fst(MulYMIntervalDecimal(10, types.DecimalFromInt64(15), 1)), true, 15, true},
		{"make", fst(MakeYMInterval(178956970, 7)), snd(MakeYMInterval(178956970, 7)), math.MaxInt32, true},
		{"make overflow", 0, snd(MakeYMInterval(178956970, 8)), 0, false},
		{"make min", fst(MakeYMInterval(-178956970, -8)), snd(MakeYMInterval(-178956970, -8)), math.MinInt32, true},
		{"make below min", 0, snd(MakeYMInterval(-178956970, -9)), 0, false},
	} {
		if c.ok != c.good || c.good && c.got != c.want {
			t.Errorf("%s = %d, %v; want %d, %v", c.name, c.got, c.ok, c.want, c.good)
		}
	}
	if y, m := ExtractYMYears(-25), ExtractYMMonths(-25); y != -2 || m != -1 {
		t.Errorf("extract from -2-1 = %d, %d", y, m)
	}
	iv := types.Interval(-(123*microsPerDay + 12*microsPerHour + 34*microsPerMinute + 56_789_123))
	if d, h, mi, s := ExtractDTDays(iv), ExtractDTHours(iv), ExtractDTMinutes(iv), ExtractDTSeconds(iv); d != -123 || h != -12 || mi != -34 || s.Format(6) != "-56.789123" {
		t.Errorf("extract from %v = %d %d %d %s", iv, d, h, mi, s.Format(6))
	}
	if got, ok := MakeDTInterval(1, 0, 0, types.DecimalFromInt64(123456789012123456), 6); !ok || CastIntervalString(got) != "INTERVAL '1428899 00:30:12.123456' DAY TO SECOND" {
		t.Errorf("make_dt_interval(1, 0, 0, 123456789012.123456) = %s, %v", CastIntervalString(got), ok)
	}
	if _, ok := MakeDTInterval(math.MaxInt32, 0, 0, types.DecimalFromInt64(0), 6); ok {
		t.Error("make_dt_interval(2147483647) did not overflow")
	}
	if got := YearOfWeek(date(2021, 1, 1)); got != 2020 {
		t.Errorf("yearofweek(2021-01-01) = %d", got)
	}
	if got := DayOfWeekISO(date(2011, 5, 6)); got != 5 {
		t.Errorf("dayofweek_iso(2011-05-06) = %d", got)
	}
}

func TestCastYearMonthInterval(t *testing.T) {
	for _, c := range []struct {
		in   string
		want types.YearMonthInterval
		ok   bool
	}{
		{"1-2", 14, true},
		{"-0-11", -11, true},
		{"INTERVAL '-1-1' YEAR TO MONTH", -13, true},
		{"interval -'1-1' year to month", -13, true},
		{"1-12", 0, false},
		{"178956970-8", 0, false},
		{"-178956970-8", math.MinInt32, true},
		{"1 year", 0, false},
	} {
		got, ok := CastStringYMInterval(c.in)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("CAST(%q AS INTERVAL YEAR TO MONTH) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	if s := CastYMIntervalString(-11); s != "INTERVAL '-0-11' YEAR TO MONTH" {
		t.Errorf("CAST(-11 months AS STRING) = %q", s)
	}
}

func fst[T any](v T, _ bool) T     { return v }
func snd[T any](_ T, ok bool) bool { return ok }

// timestamp.sql.out: date'2020-01-01' - timestamp'2019-10-06 10:11:12.345678'
// in America/Los_Angeles is 86 13:48:47.654322, the local date-times'
// difference across the end of daylight saving time, not the 86 14:48:47
// elapsed; and a month later in the session zone keeps the wall clock.
func TestTimestampIntervalsInSessionZone(t *testing.T) {
	withZone(t, "America/Los_Angeles")
	loc := SessionTimeZone()
	a := types.TimestampOf(time.Date(2020, 1, 1, 0, 0, 0, 0, loc))
	b := types.TimestampOf(time.Date(2019, 10, 6, 10, 11, 12, 345678000, loc))
	if got := CastIntervalString(SubTimestampTimestamp(a, b)); got != "INTERVAL '86 13:48:47.654322' DAY TO SECOND" {
		t.Errorf("difference = %s", got)
	}
	if got := AddTimestampYMInterval(b, 2); got != types.TimestampOf(time.Date(2019, 12, 6, 10, 11, 12, 345678000, loc)) {
		t.Errorf("+ 2 months = %v", got.Time().In(loc))
	}
}
