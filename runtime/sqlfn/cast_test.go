package sqlfn

import (
	"math"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
)

// Casts from STRING follow Spark's ANSI cast
// (https://spark.apache.org/docs/latest/sql-ref-ansi-compliance.html#cast).
func TestCastStringInt64(t *testing.T) {
	tests := []struct {
		s    string
		want int64
		ok   bool
	}{
		{"123", 123, true}, {" -42\t", -42, true}, {"+7", 7, true}, {"\x00 9 \x7f", 9, true},
		{"9223372036854775807", math.MaxInt64, true}, {"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775808", 0, false}, {"-9223372036854775809", 0, false},
		{"99999999999999999999999", 0, false}, {"1.5", 0, false}, {"1.0", 0, false}, {"1e3", 0, false},
		{"", 0, false}, {"-", 0, false}, {"1_000", 0, false}, {"0x10", 0, false}, {"1 2", 0, false},
		{"٣", 0, false},
	}
	for _, tt := range tests {
		got, ok := CastStringInt64(tt.s)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("CastStringInt64(%q) = %d, %v; want %d, %v", tt.s, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCastStringFloat64(t *testing.T) {
	tests := []struct {
		s    string
		want float64
		ok   bool
	}{
		{"1.5", 1.5, true}, {" -2.5e3 ", -2500, true}, {".5", 0.5, true}, {"5.", 5, true},
		{"1.5d", 1.5, true}, {"2F", 2, true}, {"0x1.8p1", 3, true}, {"1e400", math.Inf(1), true},
		{"-1e400", math.Inf(-1), true}, {"1e-400", 0, true}, {"Infinity", math.Inf(1), true},
		{"-Infinity", math.Inf(-1), true}, {"inf", math.Inf(1), true}, {"+INF", math.Inf(1), true},
		{"-infinity", math.Inf(-1), true}, {"NaN", math.NaN(), true}, {"nan", math.NaN(), true},
		{"", 0, false}, {"abc", 0, false}, {"1e", 0, false}, {"1_0", 0, false}, {"0x1.8", 0, false},
		{".", 0, false}, {"--1", 0, false}, {"1.5dd", 0, false}, {"infinit", 0, false},
	}
	for _, tt := range tests {
		got, ok := CastStringFloat64(tt.s)
		same := got == tt.want || math.IsNaN(got) && math.IsNaN(tt.want)
		if ok != tt.ok || ok && !same {
			t.Errorf("CastStringFloat64(%q) = %v, %v; want %v, %v", tt.s, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCastStringBool(t *testing.T) {
	for s, want := range map[string]bool{"t": true, "TRUE": true, " Yes ": true, "y": true, "1": true,
		"f": false, "False": false, "NO": false, "n": false, "0": false} {
		if got, ok := CastStringBool(s); !ok || got != want {
			t.Errorf("CastStringBool(%q) = %v, %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "2", "truee", "ye", "on", "yes please"} {
		if _, ok := CastStringBool(s); ok {
			t.Errorf("CastStringBool(%q) accepted", s)
		}
	}
}

func TestCastNumbers(t *testing.T) {
	ftests := []struct {
		f    float64
		want int64
		ok   bool
	}{
		{1.9, 1, true}, {-1.9, -1, true}, {9.223372036854775807e18, math.MaxInt64, true},
		{-9.223372036854775808e18, math.MinInt64, true}, {1e19, 0, false}, {math.NaN(), 0, false},
		{math.Inf(1), 0, false}, {-1e19, 0, false},
	}
	for _, tt := range ftests {
		got, ok := CastFloat64Int64(tt.f)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("CastFloat64Int64(%v) = %d, %v", tt.f, got, ok)
		}
	}
	if v, ok := CastDecimalInt64(pd(t, "-12.99", 2), 2); !ok || v != -12 {
		t.Errorf("CAST(-12.99 AS BIGINT) = %d", v)
	}
	if _, ok := CastDecimalInt64(pd(t, "99999999999999999999", 0), 0); ok {
		t.Error("CAST(1e20-1 AS BIGINT) fits")
	}
	if d, ok := CastInt64Decimal(123, 5, 2); !ok || d.Format(2) != "123.00" {
		t.Errorf("CAST(123 AS DECIMAL(5,2)) = %s", d.Format(2))
	}
	if _, ok := CastInt64Decimal(1234, 5, 2); ok {
		t.Error("CAST(1234 AS DECIMAL(5,2)) fits")
	}
	if d, ok := CastDecimalDecimal(pd(t, "1.235", 3), 3, 3, 2); !ok || d.Format(2) != "1.24" {
		t.Errorf("CAST(1.235 AS DECIMAL(3,2)) = %s", d.Format(2))
	}
	if d, ok := CastStringDecimal(" 1.235 ", 10, 2); !ok || d.Format(2) != "1.24" {
		t.Errorf("CAST(' 1.235 ' AS DECIMAL(10,2)) = %s", d.Format(2))
	}
	if d, ok := CastFloat64Decimal(0.1, 3, 2); !ok || d.Format(2) != "0.10" {
		t.Errorf("CAST(0.1D AS DECIMAL(3,2)) = %s", d.Format(2))
	}
	if d, ok := CastBoolDecimal(true, 3, 2); !ok || d.Format(2) != "1.00" {
		t.Errorf("CAST(true AS DECIMAL(3,2)) = %s", d.Format(2))
	}
	if _, ok := CastBoolDecimal(true, 2, 2); ok {
		t.Error("CAST(true AS DECIMAL(2,2)) fits")
	}
	if CastDecimalFloat64(pd(t, "1.25", 2), 2) != 1.25 || !CastDecimalBool(pd(t, "0.01", 2), 2) {
		t.Error("decimal to double/bool")
	}
	if !CastFloat64Bool(math.NaN()) || CastInt64Bool(0) {
		t.Error("numbers to bool")
	}
	if CastBoolFloat64(true) != 1 || CastInt64Float64(-3) != -3 || CastFloat64Float64(2) != 2 {
		t.Error("to double")
	}
	if v, _ := CastBoolInt64(true); v != 1 {
		t.Error("true to int")
	}
}

var point1, point2 = 0.1, 0.2

var point3 = point1 + point2 // not a constant: 0.30000000000000004

// DOUBLE → STRING is Java's Double.toString.
func TestCastFloatString(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{1, "1.0"}, {1e10, "1.0E10"}, {1e-5, "1.0E-5"}, {0.001, "0.001"}, {1e7, "1.0E7"},
		{9999999, "9999999.0"}, {123.456, "123.456"}, {-0.0001234, "-1.234E-4"}, {math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"}, {math.Copysign(0, -1), "-0.0"},
		{0, "0.0"}, {1.7976931348623157e308, "1.7976931348623157E308"}, {5e-324, "4.9E-324"},
		{100, "100.0"}, {point3, "0.30000000000000004"}, {2e22, "2.0E22"}, {1.5e-7, "1.5E-7"},
		// JDK 8-17 print integral doubles from 2^54 to 2^63 as the exact
		// integer with low digits rounded away, not the shortest digits:
		// try_aggregates.sql's avg(9223372036854775807L, 1L) is 2^62.
		{1 << 62, "4.6116860184273879E18"}, {-(1 << 62), "-4.6116860184273879E18"},
		{1 << 54, "1.8014398509481984E16"}, {9.223372036854775807e18, "9.223372036854776E18"},
	}
	for _, tt := range tests {
		if got := CastFloat64String(tt.f); got != tt.want {
			t.Errorf("CastFloat64String(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
	if got := CastFloat32String(0.1); got != "0.1" {
		t.Errorf("CastFloat32String(0.1) = %q", got)
	}
	if got := CastFloat32String(1e10); got != "1.0E10" {
		t.Errorf("CastFloat32String(1e10) = %q", got)
	}
	if CastInt64String(-5) != "-5" || CastBoolString(true) != "true" || CastDecimalString(pd(t, "-0.5", 2), 2) != "-0.50" {
		t.Error("scalars to string")
	}
	if CastBinaryString([]byte("hé")) != "hé" || string(CastStringBinary("x")) != "x" {
		t.Error("binary")
	}
}

func ts(t testing.TB, y int64, m, d, h, mi, s, us int) types.Timestamp {
	t.Helper()
	v, ok := localMicros(y, m, d, h, mi, s, us)
	if !ok {
		t.Fatalf("bad test time")
	}
	return types.Timestamp(v)
}

func withZone(t *testing.T, name string) {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Skipf("time zone %s not available: %v", name, err)
	}
	SetSessionTimeZone(loc)
	t.Cleanup(func() { SetSessionTimeZone(nil) })
}

// String → TIMESTAMP: the formats of Spark's parseTimestampString
// (SparkDateTimeUtils.scala).
func TestCastStringTimestamp(t *testing.T) {
	tests := []struct {
		s    string
		want types.Timestamp
		ok   bool
	}{
		{"2024-03-01 12:34:56", ts(t, 2024, 3, 1, 12, 34, 56, 0), true},
		{"2024-03-01T12:34:56.123456", ts(t, 2024, 3, 1, 12, 34, 56, 123456), true},
		{"2024-03-01 12:34:56.1", ts(t, 2024, 3, 1, 12, 34, 56, 100000), true},
		{"2024-03-01 12:34:56.123456789", ts(t, 2024, 3, 1, 12, 34, 56, 123456), true},
		{"2024", ts(t, 2024, 1, 1, 0, 0, 0, 0), true},
		{"2024-3", ts(t, 2024, 3, 1, 0, 0, 0, 0), true},
		{"2024-03-01", ts(t, 2024, 3, 1, 0, 0, 0, 0), true},
		{" 2024-03-01 ", ts(t, 2024, 3, 1, 0, 0, 0, 0), true},
		{"2024-03-01 7", ts(t, 2024, 3, 1, 7, 0, 0, 0), true},
		{"2024-03-01 7:5", ts(t, 2024, 3, 1, 7, 5, 0, 0), true},
		{"2024-03-01 12:00:00Z", ts(t, 2024, 3, 1, 12, 0, 0, 0), true},
		{"2024-03-01 12:00:00+01:00", ts(t, 2024, 3, 1, 11, 0, 0, 0), true},
		{"2024-03-01T12:00:00-0530", ts(t, 2024, 3, 1, 17, 30, 0, 0), true},
		{"2024-03-01 12:00:00 UTC", ts(t, 2024, 3, 1, 12, 0, 0, 0), true},
		{"2024-03-01 12:00:00 GMT+2", ts(t, 2024, 3, 1, 10, 0, 0, 0), true},
		{"2024-03-01 12:00:00+1:00", ts(t, 2024, 3, 1, 11, 0, 0, 0), true},
		{"2024-03-01 12:00:00.5Z", ts(t, 2024, 3, 1, 12, 0, 0, 500000), true},
		{"2024-02-29", ts(t, 2024, 2, 29, 0, 0, 0, 0), true},
		{"1969-12-31 23:59:59.999999", -1, true},
		{"-0044-03-15", ts(t, -44, 3, 15, 0, 0, 0, 0), true},
		{"+10000-01-01", ts(t, 10000, 1, 1, 0, 0, 0, 0), true},
		{"2023-02-29", 0, false},
		{"2024-13-01", 0, false},
		{"2024-03-01 24:00:00", 0, false},
		{"2024-03-01 12:60", 0, false},
		{"24-03-01", 0, false},
		{"2024-03-01X", 0, false},
		{"2024/03/01", 0, false},
		{"2024-03-01 12:00:00 Mars/Base", 0, false},
		{"12:00:00", 0, false}, // a time alone: Spark uses today's date
		{"", 0, false},
		{"2024-03-01 12:00:00+25:00", 0, false},
		{"1000000-01-01", 0, false},
	}
	for _, tt := range tests {
		got, ok := CastStringTimestamp(tt.s)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("CastStringTimestamp(%q) = %d (%s), %v; want %d, %v", tt.s, got, CastTimestampString(got), ok, tt.want, tt.ok)
		}
	}
	// NTZ ignores the zone.
	if v, ok := CastStringTimestampNTZ("2024-03-01 12:00:00+05:00"); !ok || v != ts(t, 2024, 3, 1, 12, 0, 0, 0) {
		t.Errorf("CastStringTimestampNTZ = %d, %v", v, ok)
	}
}

func TestSessionTimeZone(t *testing.T) {
	withZone(t, "America/Los_Angeles")
	// Zone-less text is local to the session zone.
	got, ok := CastStringTimestamp("2024-01-15 12:00:00")
	if !ok || got != ts(t, 2024, 1, 15, 20, 0, 0, 0) {
		t.Errorf("LA noon = %s", types.Timestamp(got))
	}
	if s := CastTimestampString(ts(t, 2024, 7, 1, 0, 0, 0, 0)); s != "2024-06-30 17:00:00" {
		t.Errorf("render in LA = %q", s)
	}
	// DST gap (2024-03-10 02:30 does not exist): moved forward by an hour.
	got, _ = CastStringTimestamp("2024-03-10 02:30:00")
	if s := CastTimestampString(got); s != "2024-03-10 03:30:00" {
		t.Errorf("gap resolved to %q", s)
	}
	// DST overlap (2024-11-03 01:30 happens twice): the earlier instant.
	got, _ = CastStringTimestamp("2024-11-03 01:30:00")
	if got != ts(t, 2024, 11, 3, 8, 30, 0, 0) {
		t.Errorf("overlap resolved to %s UTC", types.Timestamp(got))
	}
	if d := CastTimestampDate(ts(t, 2024, 1, 1, 5, 0, 0, 0)); d != types.Date(daysFromCivil(2023, 12, 31)) {
		t.Errorf("date in LA = %s", d)
	}
	if v := CastDateTimestamp(types.Date(daysFromCivil(2024, 1, 1))); v != ts(t, 2024, 1, 1, 8, 0, 0, 0) {
		t.Errorf("midnight in LA = %s", v)
	}
	ntz := ts(t, 2024, 1, 1, 0, 0, 0, 0)
	if CastTimestampTimestampNTZ(CastTimestampNTZTimestamp(ntz)) != ntz {
		t.Error("NTZ round trip")
	}
	if h := Hour(ts(t, 2024, 1, 1, 3, 4, 5, 0)); h != 19 {
		t.Errorf("hour in LA = %d", h)
	}
}

func TestCastStringDate(t *testing.T) {
	day := func(y int64, m, d int) types.Date { return types.Date(daysFromCivil(y, m, d)) }
	tests := []struct {
		s    string
		want types.Date
		ok   bool
	}{
		{"2024-03-01", day(2024, 3, 1), true}, {"2024-3-1", day(2024, 3, 1), true},
		{"2024", day(2024, 1, 1), true}, {"2024-03", day(2024, 3, 1), true},
		{"2024-03-01 12:00:00", day(2024, 3, 1), true}, {"2024-03-01Tanything", day(2024, 3, 1), true},
		{"1970-01-01", 0, true}, {"1969-12-31", -1, true}, {"0000-01-01", day(0, 1, 1), true},
		{"-0001-12-31", day(-1, 12, 31), true}, {"1000000-01-01", day(1000000, 1, 1), true},
		{"2000-02-29", day(2000, 2, 29), true}, {"1900-02-29", 0, false}, {"2024-04-31", 0, false},
		{"2024-03-001", 0, false}, {"202-03-01", 0, false}, {"2024 03", 0, false}, {"2024-03x", 0, false},
		{"", 0, false}, {"  ", 0, false}, {"99999999-01-01", 0, false},
	}
	for _, tt := range tests {
		got, ok := CastStringDate(tt.s)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("CastStringDate(%q) = %s, %v; want %s, %v", tt.s, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCastDatetimeToString(t *testing.T) {
	tests := []struct {
		ts   types.Timestamp
		want string
	}{
		{0, "1970-01-01 00:00:00"}, {-1, "1969-12-31 23:59:59.999999"},
		{ts(t, 2024, 3, 1, 12, 34, 56, 789000), "2024-03-01 12:34:56.789"},
		{ts(t, 10000, 1, 1, 0, 0, 0, 0), "+10000-01-01 00:00:00"},
		{ts(t, -44, 3, 15, 0, 0, 0, 10), "-0044-03-15 00:00:00.00001"},
		{math.MaxInt64, "+294247-01-10 04:00:54.775807"},
		{math.MinInt64, "-290308-12-21 19:59:05.224192"},
	}
	for _, tt := range tests {
		if got := CastTimestampString(tt.ts); got != tt.want {
			t.Errorf("CastTimestampString(%d) = %q, want %q", tt.ts, got, tt.want)
		}
	}
	if got := CastDateString(types.Date(math.MinInt32)); got != "-5877641-06-23" {
		t.Errorf("min date = %q", got)
	}
	if got := CastDateString(types.Date(daysFromCivil(2024, 2, 29))); got != "2024-02-29" {
		t.Errorf("leap day = %q", got)
	}
	if got := CastTimestampNTZString(ts(t, 2024, 1, 2, 3, 4, 5, 6)); got != "2024-01-02 03:04:05.000006" {
		t.Errorf("ntz = %q", got)
	}
	if CastTimestampDate(-1) != -1 || CastTimestampNTZDate(microsPerDay) != 1 || CastDateTimestampNTZ(1) != microsPerDay {
		t.Error("date <-> timestamp in UTC")
	}
}

func TestCastNumbersTimestamp(t *testing.T) {
	if v, ok := CastInt64Timestamp(1); !ok || v != microsPerSecond {
		t.Error("1 to timestamp")
	}
	if _, ok := CastInt64Timestamp(math.MaxInt64 / 1000); ok {
		t.Error("overflowing seconds accepted")
	}
	if v, ok := CastFloat64Timestamp(-1.5); !ok || v != -1500000 {
		t.Errorf("-1.5 to timestamp = %d", v)
	}
	if _, ok := CastFloat64Timestamp(math.NaN()); ok {
		t.Error("NaN to timestamp")
	}
	if _, ok := CastFloat64Timestamp(1e300); ok {
		t.Error("1e300 to timestamp")
	}
	if v, ok := CastDecimalTimestamp(pd(t, "1.0000019", 7), 7); !ok || v != 1000001 {
		t.Errorf("decimal to timestamp = %d", v)
	}
	if v, ok := CastDecimalTimestamp(pd(t, "-2", 0), 0); !ok || v != -2000000 {
		t.Errorf("decimal to timestamp = %d", v)
	}
	if v, _ := CastTimestampInt64(-1); v != -1 {
		t.Errorf("CAST(-1µs AS BIGINT) = %d, want -1 (floor)", v)
	}
	if CastTimestampFloat64(1500000) != 1.5 {
		t.Error("timestamp to double")
	}
	if d, ok := CastTimestampDecimal(1500000, 10, 3); !ok || d.Format(3) != "1.500" {
		t.Error("timestamp to decimal")
	}
}

func TestInterval(t *testing.T) {
	iv := types.Interval(((1*24+2)*3600+3*60+4)*microsPerSecond + 500000)
	if got := CastIntervalString(iv); got != "INTERVAL '1 02:03:04.5' DAY TO SECOND" {
		t.Errorf("interval = %q", got)
	}
	if got := CastIntervalString(-iv); got != "INTERVAL '-1 02:03:04.5' DAY TO SECOND" {
		t.Errorf("negative interval = %q", got)
	}
	if got := CastIntervalString(math.MinInt64); got != "INTERVAL '-106751991 04:00:54.775808' DAY TO SECOND" {
		t.Errorf("min interval = %q", got)
	}
	for _, s := range []string{"1 02:03:04.5", "INTERVAL '1 02:03:04.5' DAY TO SECOND", "interval \"+1 2:3:4.500\"  day  to  second"} {
		if got, ok := CastStringInterval(s); !ok || got != iv {
			t.Errorf("CastStringInterval(%q) = %d, %v", s, got, ok)
		}
	}
	for _, s := range []string{"INTERVAL -'1 02:03:04.5' DAY TO SECOND", "-1 02:03:04.5", "INTERVAL '-1 02:03:04.5' DAY TO SECOND"} {
		if got, ok := CastStringInterval(s); !ok || got != -iv {
			t.Errorf("CastStringInterval(%q) = %d, %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "1", "1 24:00:00", "1 02:60:00", "INTERVAL '1 02:03:04' HOUR", "1 02:03:04.1234567890", "999999999999 00:00:00"} {
		if _, ok := CastStringInterval(s); ok {
			t.Errorf("CastStringInterval(%q) accepted", s)
		}
	}
}

func TestFormatValue(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{"it's", `'it\'s'`}, {[]byte{0x0a, 0xff}, "X'0AFF'"}, {true, "true"}, {int32(-5), "-5"},
		{1e10, "1.0E10"}, {float32(0.1), "0.1"}, {types.Date(0), "DATE '1970-01-01'"},
		{types.Timestamp(0), "TIMESTAMP '1970-01-01 00:00:00'"}, {nil, "NULL"},
		{types.DecimalFromInt64(-125), "-125"},
	}
	for _, tt := range tests {
		if got := FormatValue(tt.v); got != tt.want {
			t.Errorf("FormatValue(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
	if FormatDecimal(types.DecimalFromInt64(-125), 2) != "-1.25" || FormatInt64(3) != "3" ||
		FormatTimestampNTZ(0) != "TIMESTAMP_NTZ '1970-01-01 00:00:00'" || FormatFloat64(1) != "1.0" {
		t.Error("Format helpers")
	}
}

func BenchmarkCastStringTimestamp(b *testing.B) {
	for b.Loop() {
		_, _ = CastStringTimestamp("2024-03-01 12:34:56.123456")
	}
}

func BenchmarkCastStringInt64(b *testing.B) {
	for b.Loop() {
		_, _ = CastStringInt64(" 1234567890 ")
	}
}
