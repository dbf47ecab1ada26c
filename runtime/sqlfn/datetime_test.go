package sqlfn

import (
	"math"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
)

func date(y int64, m, d int) types.Date { return types.Date(daysFromCivil(y, m, d)) }

func TestCivil(t *testing.T) {
	// Round trip over the whole DATE range's edges and around the epoch,
	// checked against time.Date where it is valid.
	for _, days := range []int64{math.MinInt32, -719528, -1, 0, 1, 59, 60, 365, 11016, 2932896, math.MaxInt32} {
		y, m, d := civilFromDays(days)
		if back := daysFromCivil(y, m, d); back != days {
			t.Errorf("days %d → %d-%d-%d → %d", days, y, m, d, back)
		}
		if y > -200000 && y < 200000 {
			tm := time.Date(int(y), time.Month(m), d, 0, 0, 0, 0, time.UTC)
			if tm.Unix()/86400 != days {
				t.Errorf("days %d: %d-%d-%d disagrees with time.Date", days, y, m, d)
			}
		}
	}
}

// Date functions: https://spark.apache.org/docs/latest/api/sql/index.html
// (year('2016-07-30') = 2016, dayofweek('2009-07-30') = 5,
// dayofyear('2016-04-09') = 100, quarter('2016-08-31') = 3).
func TestDateParts(t *testing.T) {
	if Year(date(2016, 7, 30)) != 2016 || Month(date(2016, 7, 30)) != 7 || DayOfMonth(date(2016, 7, 30)) != 30 {
		t.Error("year/month/day")
	}
	if DayOfWeek(date(2009, 7, 30)) != 5 || DayOfWeek(date(1970, 1, 4)) != 1 || DayOfWeek(date(1969, 12, 27)) != 7 {
		t.Error("dayofweek")
	}
	if DayOfYear(date(2016, 4, 9)) != 100 || DayOfYear(date(2024, 12, 31)) != 366 || DayOfYear(date(2023, 12, 31)) != 365 {
		t.Error("dayofyear")
	}
	if Quarter(date(2016, 8, 31)) != 3 || Quarter(date(2016, 1, 1)) != 1 || Quarter(date(2016, 12, 31)) != 4 {
		t.Error("quarter")
	}
	if Year(date(-1, 1, 1)) != -1 || Year(types.Date(math.MinInt32)) != -5877641 {
		t.Error("negative years")
	}
	// datediff('2009-07-31', '2009-07-30') = 1; date_add('2016-07-30', 1) = '2016-07-31'.
	if DateDiff(date(2009, 7, 31), date(2009, 7, 30)) != 1 || DateAdd(date(2016, 7, 30), 1) != date(2016, 7, 31) ||
		DateSub(date(2016, 3, 1), 1) != date(2016, 2, 29) {
		t.Error("datediff/date_add/date_sub")
	}
	if AddDateInt(date(2024, 2, 28), int8(1)) != date(2024, 2, 29) || SubDateInt(date(2024, 3, 1), int16(1)) != date(2024, 2, 29) ||
		AddIntDate(int32(366), date(2024, 1, 1)) != date(2025, 1, 1) {
		t.Error("date ± int")
	}
	if SubDateDate(date(2024, 3, 1), date(2024, 2, 1)) != types.Interval(29*microsPerDay) {
		t.Error("date - date")
	}
	x := ts(t, 2024, 1, 1, 0, 0, 0, 0)
	iv := types.Interval(90 * microsPerMinute)
	if AddTimestampInterval(x, iv) != ts(t, 2024, 1, 1, 1, 30, 0, 0) || AddIntervalTimestamp(iv, x) != AddTimestampInterval(x, iv) ||
		SubTimestampInterval(x, iv) != ts(t, 2023, 12, 31, 22, 30, 0, 0) || SubTimestampTimestamp(AddTimestampInterval(x, iv), x) != iv {
		t.Error("timestamp/interval arithmetic")
	}
	if s, ok := AddIntervalInterval(iv, iv); !ok || s != 2*iv {
		t.Errorf("AddIntervalInterval = %v, %v", s, ok)
	}
	if d, ok := SubIntervalInterval(iv, iv); !ok || d != 0 {
		t.Errorf("SubIntervalInterval = %v, %v", d, ok)
	}
	if _, ok := AddIntervalInterval(math.MaxInt64, 1); ok {
		t.Error("AddIntervalInterval did not report the overflow")
	}
	y := ts(t, 1969, 12, 31, 23, 59, 58, 999999)
	if Hour(y) != 23 || Minute(y) != 59 || Second(y) != 58 {
		t.Errorf("hour/minute/second before the epoch: %d %d %d", Hour(y), Minute(y), Second(y))
	}
}

// date_trunc('YEAR', '2015-03-05T09:32:05.359') = 2015-01-01 00:00:00, etc.
func TestDateTrunc(t *testing.T) {
	x := ts(t, 2015, 3, 5, 9, 32, 5, 359123)
	tests := []struct {
		unit string
		want types.Timestamp
	}{
		{"YEAR", ts(t, 2015, 1, 1, 0, 0, 0, 0)}, {"yyyy", ts(t, 2015, 1, 1, 0, 0, 0, 0)},
		{"QUARTER", ts(t, 2015, 1, 1, 0, 0, 0, 0)}, {"MM", ts(t, 2015, 3, 1, 0, 0, 0, 0)},
		{"mon", ts(t, 2015, 3, 1, 0, 0, 0, 0)}, {"WEEK", ts(t, 2015, 3, 2, 0, 0, 0, 0)},
		{"DD", ts(t, 2015, 3, 5, 0, 0, 0, 0)}, {"HOUR", ts(t, 2015, 3, 5, 9, 0, 0, 0)},
		{"MINUTE", ts(t, 2015, 3, 5, 9, 32, 0, 0)}, {"SECOND", ts(t, 2015, 3, 5, 9, 32, 5, 0)},
		{"MILLISECOND", ts(t, 2015, 3, 5, 9, 32, 5, 359000)}, {"MICROSECOND", x},
	}
	for _, tt := range tests {
		if got, ok := DateTrunc(tt.unit, x); !ok || got != tt.want {
			t.Errorf("date_trunc(%s) = %s, %v; want %s", tt.unit, got, ok, tt.want)
		}
	}
	if _, ok := DateTrunc("FORTNIGHT", x); ok {
		t.Error("unknown unit accepted")
	}
	if got, _ := DateTrunc("DAY", -1); got != -microsPerDay {
		t.Errorf("date_trunc(DAY, -1µs) = %d", got)
	}
	withZone(t, "Asia/Kolkata")
	if got, _ := DateTrunc("DAY", ts(t, 2024, 1, 1, 20, 0, 0, 0)); got != ts(t, 2024, 1, 1, 18, 30, 0, 0) {
		t.Errorf("date_trunc(DAY) in Kolkata = %s", got)
	}
}

// Pattern examples from sql-ref-datetime-pattern.html and the function
// reference (date_format('2016-04-08', 'y') = '2016').
func TestDateFormat(t *testing.T) {
	x := ts(t, 2024, 3, 5, 14, 7, 9, 123456)
	tests := []struct{ pattern, want string }{
		{"yyyy-MM-dd HH:mm:ss", "2024-03-05 14:07:09"},
		{"y", "2024"}, {"yy", "24"}, {"yyy", "2024"}, {"yyyyy", "02024"},
		{"M MM MMM MMMM", "3 03 Mar March"}, {"L", "3"},
		{"d dd D DDD", "5 05 65 065"},
		{"E EEEE", "Tue Tuesday"},
		{"h hh K k a", "2 02 2 14 PM"},
		{"H:m:s", "14:7:9"},
		{"S SSS SSSSSS SSSSSSSSS", "1 123 123456 123456000"},
		{"Q QQ QQQ QQQQ", "1 01 Q1 1st quarter"},
		{"G GGGG", "AD Anno Domini"},
		{"'T'HH''mm", "T14'07"}, {"'it''s' yyyy", "it's 2024"},
		{"yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "2024-03-05T14:07:09.123Z"},
		{"x xx xxx Z ZZZZ ZZZZZ O OOOO", "+00 +0000 +00:00 +0000 GMT Z GMT GMT"},
		{"VV z zzzz", "UTC UTC Coordinated Universal Time"},
		{"[yyyy]", "2024"},
		{"dd/MM/yyyy", "05/03/2024"},
	}
	for _, tt := range tests {
		if got := DateFormat(x, tt.pattern); got != tt.want {
			t.Errorf("date_format(%q) = %q, want %q", tt.pattern, got, tt.want)
		}
	}
	midnight := ts(t, 2024, 3, 5, 0, 0, 0, 0)
	if got := DateFormat(midnight, "h K k a"); got != "12 0 24 AM" {
		t.Errorf("midnight = %q", got)
	}
	if got := DateFormat(ts(t, -43, 3, 15, 0, 0, 0, 0), "yyyy G"); got != "0044 BC" {
		t.Errorf("44 BC (proleptic -43), year of era = %q", got)
	}
	if got := DateFormat(ts(t, 12345, 1, 1, 0, 0, 0, 0), "yyyy-MM-dd"); got != "+12345-01-01" {
		t.Errorf("year 12345 = %q", got)
	}
	if got := DateFormat(x, "yyyy-ww"); got != "" {
		t.Errorf("week pattern = %q, want \"\" (invalid)", got)
	}
	withZone(t, "Asia/Kolkata")
	if got := DateFormat(x, "HH:mm XXX X xx O OOOO VV"); got != "19:37 +05:30 +0530 +0530 GMT+5:30 GMT+05:30 Asia/Kolkata" {
		t.Errorf("Kolkata = %q", got)
	}
}

func TestCompileDatetimePattern(t *testing.T) {
	for _, ok := range []string{"yyyy-MM-dd", "'quoted'", "[HH:mm]", "''", "SSSSSSSSS"} {
		if err := CompileDatetimePattern(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"'''", "YYYY", "ww", "u", "e", "FF", "yyyyyyy", "MMMMM", "ddd", "'open", "[yyyy", "yyyy]", "V", "OO", "EEEEE", "aa", "SSSSSSSSSS", "#"} {
		if err := CompileDatetimePattern(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Letters Spark formats with and refuses to parse with
// (DateTimeFormatterHelper.unsupportedLettersForParsing).
func TestCompileDatetimeParsePattern(t *testing.T) {
	for _, ok := range []string{"yyyy-MM-dd HH:mm:ss", "'Q'yyyy", "MMM d"} {
		if err := CompileDatetimeParsePattern(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"F", "EEE yyyy", "yyyy Q", "[q]", "YYYY"} {
		if err := CompileDatetimeParsePattern(bad); err == nil {
			t.Errorf("%q accepted for parsing", bad)
		}
		if _, ok := ToTimestamp("1", bad); ok && bad == "F" {
			t.Errorf("to_timestamp with F parsed")
		}
	}
}

// datetime-formatting.sql.out (session zone America/Los_Angeles): 'F' is
// the aligned day of the week in the month, 'z' names the zone's standard
// or daylight time even before 1883 (local mean time in the database),
// and a TIMESTAMP_NTZ formats its own wall-clock time.
func TestDateFormatSparkGolden(t *testing.T) {
	withZone(t, "America/Los_Angeles")
	la, _ := time.LoadLocation("America/Los_Angeles")
	at := func(s string) types.Timestamp {
		v, ok := ParseTimestampIn(s, la)
		if !ok {
			t.Fatalf("parse %q", s)
		}
		return v
	}
	tests := []struct{ ts, pattern, want string }{
		{"1582-05-31 19:40:35.123", "F", "3"},
		{"2018-11-17 05:33:33.123", "F", "3"},
		{"2100-01-01 01:33:33.123", "F", "1"},
		{"1582-05-31 19:40:35.123", "z zz zzz zzzz", "PST PST PST Pacific Standard Time"},
		{"2019-12-31 09:33:33.123", "z zzzz", "PST Pacific Standard Time"},
		{"2019-07-01 09:33:33", "z zzzz", "PDT Pacific Daylight Time"},
	}
	for _, tt := range tests {
		if got := DateFormat(at(tt.ts), tt.pattern); got != tt.want {
			t.Errorf("date_format(%s, %q) = %q, want %q", tt.ts, tt.pattern, got, tt.want)
		}
	}
	ntz, _ := CastStringTimestampNTZ("2023-08-18 09:13:14.123456")
	if got := DateFormatNTZ(ntz, "yyyy-MM-dd HH:mm:ss.SSSSSS"); got != "2023-08-18 09:13:14.123456" {
		t.Errorf("date_format(timestamp_ntz) = %q", got)
	}
}

// to_timestamp('2016-12-31 00:12:00') and to_date('2016-12-31', 'yyyy-MM-dd')
// from the function reference, and the parsing rules of the pattern page.
func TestToTimestamp(t *testing.T) {
	tests := []struct {
		s, pattern string
		want       types.Timestamp
		ok         bool
	}{
		{"2016-12-31 00:12:00", "", ts(t, 2016, 12, 31, 0, 12, 0, 0), true},
		{"2016-12-31", "yyyy-MM-dd", ts(t, 2016, 12, 31, 0, 0, 0, 0), true},
		{"20161231", "yyyyMMdd", ts(t, 2016, 12, 31, 0, 0, 0, 0), true},
		{"2016123112", "yyyyMMddHH", ts(t, 2016, 12, 31, 12, 0, 0, 0), true},
		{"31/12/2016 11:05 pm", "dd/MM/yyyy hh:mm a", ts(t, 2016, 12, 31, 23, 5, 0, 0), true},
		{"31/12/2016 12:05 AM", "dd/MM/yyyy hh:mm a", ts(t, 2016, 12, 31, 0, 5, 0, 0), true},
		{"1/2/2016", "d/M/yyyy", ts(t, 2016, 2, 1, 0, 0, 0, 0), true},
		{"01/2/2016", "d/M/yyyy", ts(t, 2016, 2, 1, 0, 0, 0, 0), true},
		{"1/2/2016", "dd/MM/yyyy", 0, false},
		{"Dec 31 2016", "MMM dd yyyy", ts(t, 2016, 12, 31, 0, 0, 0, 0), true},
		{"december 31 2016", "MMMM dd yyyy", ts(t, 2016, 12, 31, 0, 0, 0, 0), true},
		{"Sat, 31 Dec 2016", "EEE, dd MMM yyyy", ts(t, 2016, 12, 31, 0, 0, 0, 0), true},
		{"Fri, 31 Dec 2016", "EEE, dd MMM yyyy", 0, false},
		{"2016-12-31 10:00:00.123", "yyyy-MM-dd HH:mm:ss.SSS", ts(t, 2016, 12, 31, 10, 0, 0, 123000), true},
		{"2016-12-31 10:00:00.1", "yyyy-MM-dd HH:mm:ss.SSS", ts(t, 2016, 12, 31, 10, 0, 0, 100000), true},
		{"2016-12-31 10:00:00.1234", "yyyy-MM-dd HH:mm:ss.SSS", 0, false},
		{"2016-12-31T10:00:00.123456789", "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSS", ts(t, 2016, 12, 31, 10, 0, 0, 123456), true},
		{"2016-12-31 10:00:00+0100", "yyyy-MM-dd HH:mm:ssZ", ts(t, 2016, 12, 31, 9, 0, 0, 0), true},
		{"2016-12-31 10:00:00Z", "yyyy-MM-dd HH:mm:ssXXX", ts(t, 2016, 12, 31, 10, 0, 0, 0), true},
		{"2016-12-31 10:00:00-05:30", "yyyy-MM-dd HH:mm:ssXXX", ts(t, 2016, 12, 31, 15, 30, 0, 0), true},
		{"2016-12-31 10:00 GMT+8", "yyyy-MM-dd HH:mm O", ts(t, 2016, 12, 31, 2, 0, 0, 0), true},
		{"2016-12-31 10:00 UTC", "yyyy-MM-dd HH:mm z", ts(t, 2016, 12, 31, 10, 0, 0, 0), true},
		{"2016-12-31 10:00 Asia/Tokyo", "yyyy-MM-dd HH:mm VV", ts(t, 2016, 12, 31, 1, 0, 0, 0), true},
		{"2016-12-31", "yyyy-MM-dd[ HH:mm]", ts(t, 2016, 12, 31, 0, 0, 0, 0), true},
		{"2016-12-31 07:08", "yyyy-MM-dd[ HH:mm]", ts(t, 2016, 12, 31, 7, 8, 0, 0), true},
		{"16-12-31", "yy-MM-dd", ts(t, 2016, 12, 31, 0, 0, 0, 0), true},
		{"2016-366", "yyyy-DDD", ts(t, 2016, 12, 31, 0, 0, 0, 0), true},
		{"2015-366", "yyyy-DDD", 0, false},
		// A day of the year with a month or a day of the month that agree
		// (Spark's datetime-parsing.sql), and one that does not.
		{"12-365", "MM-DDD", ts(t, 1970, 12, 31, 0, 0, 0, 0), true},
		{"2020-30-365", "yyyy-dd-DDD", ts(t, 2020, 12, 30, 0, 0, 0, 0), true},
		{"2020-12-350", "yyyy-MM-DDD", ts(t, 2020, 12, 15, 0, 0, 0, 0), true},
		{"11-365", "MM-DDD", 0, false},
		{"2016 Q4", "yyyy QQQ", ts(t, 2016, 1, 1, 0, 0, 0, 0), false},
		{"10:30", "HH:mm", ts(t, 1970, 1, 1, 10, 30, 0, 0), true},
		{"PM", "a", ts(t, 1970, 1, 1, 12, 0, 0, 0), true},
		{"0044-03-15 BC", "yyyy-MM-dd G", ts(t, -43, 3, 15, 0, 0, 0, 0), true},
		{"2016-02-30", "yyyy-MM-dd", 0, false},
		{"2016-12-31 24:00", "yyyy-MM-dd HH:mm", 0, false},
		{"2016-12-31 13:00 PM", "yyyy-MM-dd hh:mm a", 0, false},
		{"2016-12-31 extra", "yyyy-MM-dd", 0, false},
		{"2016-12", "yyyy-MM-dd", 0, false},
		{"", "yyyy", 0, false},
		{"2016", "YYYY", 0, false},
		{"'2016'", "''yyyy''", ts(t, 2016, 1, 1, 0, 0, 0, 0), true},
		{"T2016", "'t'yyyy", ts(t, 2016, 1, 1, 0, 0, 0, 0), true},
	}
	for _, tt := range tests {
		var got types.Timestamp
		var ok bool
		if tt.pattern == "" {
			got, ok = ToTimestamp(tt.s)
		} else {
			got, ok = ToTimestamp(tt.s, tt.pattern)
		}
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("to_timestamp(%q, %q) = %s, %v; want %s, %v", tt.s, tt.pattern, got, ok, tt.want, tt.ok)
		}
	}
	if d, ok := ToDate("2016-12-31", "yyyy-MM-dd"); !ok || d != date(2016, 12, 31) {
		t.Error("to_date with format")
	}
	if d, ok := ToDate("2016-12-31 23:59"); !ok || d != date(2016, 12, 31) {
		t.Error("to_date")
	}
	// The date of a zoned text is taken in the session zone.
	if d, ok := ToDate("2016-12-31 23:00 -05:00", "yyyy-MM-dd HH:mm XXX"); !ok || d != date(2017, 1, 1) {
		t.Errorf("to_date across zones = %s", d)
	}
	withZone(t, "America/New_York")
	if got, _ := ToTimestamp("2016-12-31 10:00", "yyyy-MM-dd HH:mm"); got != ts(t, 2016, 12, 31, 15, 0, 0, 0) {
		t.Errorf("session zone = %s", got)
	}
}

// FuzzCastString: the string casts and the pattern parser never panic, and
// what parses renders back to text that parses to the same value.
func FuzzCastString(f *testing.F) {
	for _, s := range []string{"2024-03-01 12:34:56.123456+01:00", "-0044-03-15", "+10000", "1e400", "0x1p3",
		" 12 ", "INTERVAL '1 02:03:04' DAY TO SECOND", "T10:00", "2024-03-01 12:00:00 Europe/Paris", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, ok := CastStringTimestamp(s); ok {
			back, ok := CastStringTimestamp(CastTimestampString(v))
			if !ok || back != v {
				t.Fatalf("timestamp %q → %d → %q → %d, %v", s, v, CastTimestampString(v), back, ok)
			}
		}
		if v, ok := CastStringTimestampNTZ(s); ok {
			back, ok := CastStringTimestampNTZ(CastTimestampNTZString(v))
			if !ok || back != v {
				t.Fatalf("ntz %q → %d → %d", s, v, back)
			}
		}
		if v, ok := CastStringDate(s); ok {
			back, ok := CastStringDate(CastDateString(v))
			if !ok || back != v {
				t.Fatalf("date %q → %d → %q → %d, %v", s, v, CastDateString(v), back, ok)
			}
		}
		if v, ok := CastStringInterval(s); ok {
			back, ok := CastStringInterval(CastIntervalString(v))
			if !ok || back != v {
				t.Fatalf("interval %q → %d → %q → %d, %v", s, v, CastIntervalString(v), back, ok)
			}
		}
		if v, ok := CastStringInt64(s); ok {
			if back, _ := CastStringInt64(CastInt64String(v)); back != v {
				t.Fatalf("int %q", s)
			}
		}
		if v, ok := CastStringFloat64(s); ok && !math.IsNaN(v) {
			if back, _ := CastStringFloat64(CastFloat64String(v)); back != v {
				t.Fatalf("double %q → %v → %q → %v", s, v, CastFloat64String(v), back)
			}
		}
		if v, ok := CastStringDecimal(s, 38, 6); ok {
			if back, _ := CastStringDecimal(CastDecimalString(v, 6), 38, 6); back != v {
				t.Fatalf("decimal %q", s)
			}
		}
		CastStringBool(s)
		ToTimestamp(s, "yyyy-MM-dd HH:mm:ss.SSSXXX")
	})
}

// FuzzDatetimePattern: any pattern and text may be given to date_format
// and to_timestamp without panicking; formatting then parsing with a
// pattern that has every field is the identity.
func FuzzDatetimePattern(f *testing.F) {
	for _, p := range []string{"yyyy-MM-dd HH:mm:ss.SSSSSS", "[yyyy][MM]'x'", "EEEE, MMMM d, y G", "h:mm a VV", "D Q O X x Z z"} {
		f.Add(p, "2024-03-05 14:07:09.123456", int64(1709647629123456))
	}
	f.Fuzz(func(t *testing.T, pattern, s string, v int64) {
		_ = DateFormat(types.Timestamp(v), pattern)
		_, _ = ToTimestamp(s, pattern)
		_, _ = ToDate(s, pattern)
		// Years within four digits keep the round trip unambiguous.
		v = v % (253402300799 * microsPerSecond)
		if v < 0 {
			v = -v
		}
		const full = "yyyy-MM-dd HH:mm:ss.SSSSSS"
		text := DateFormat(types.Timestamp(v), full)
		back, ok := ToTimestamp(text, full)
		if !ok || back != types.Timestamp(v) {
			t.Fatalf("%d → %q → %d, %v", v, text, back, ok)
		}
	})
}

func BenchmarkDateFormat(b *testing.B) {
	x := types.Timestamp(1709647629123456)
	for b.Loop() {
		_ = DateFormat(x, "yyyy-MM-dd HH:mm:ss")
	}
}

func BenchmarkToTimestampPattern(b *testing.B) {
	for b.Loop() {
		_, _ = ToTimestamp("2024-03-05 14:07:09", "yyyy-MM-dd HH:mm:ss")
	}
}
