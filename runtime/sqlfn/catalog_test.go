package sqlfn

import (
	"math"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// Expected values are Spark's (the examples of its function reference,
// https://spark.apache.org/docs/latest/api/sql/index.html, unless noted).

func TestTextFunctions(t *testing.T) {
	for _, tc := range []struct{ got, want any }{
		{Instr("SparkSQL", "SQL"), int32(6)},
		{Instr("héllo", "l"), int32(3)},
		{Locate("bar", "foobarbar"), int32(4)},
		{Locate("bar", "foobarbar", 5), int32(7)},
		{Locate("bar", "foobarbar", 0), int32(0)},
		{Left("Spark SQL", 3), "Spa"},
		{Left("Spark", -1), ""},
		{Right("Spark SQL", 3), "SQL"},
		{Right("ab", 5), "ab"},
		{Lpad("hi", 5, "??"), "???hi"},
		{Lpad("hi", 1, "??"), "h"},
		{Lpad("hi", 5), "   hi"},
		{Rpad("hi", 5, "??"), "hi???"},
		{Rpad("hi", 5, ""), "hi"},
		{Lpad("héllo", 7, "é"), "ééhéllo"},
		{Repeat("123", 2), "123123"},
		{Reverse("Spark SQLé"), "éLQS krapS"},
		{Ascii("222"), int32(50)},
		{Ascii(""), int32(0)},
		{Chr(65), "A"},
		{Chr(321), "A"},
		{Translate("AaBbCc", "abc", "123"), "A1B2C3"},
		{Translate("AaBbCc", "abc", "1"), "A1BC"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if s, ok := SplitPart("11.12.13", ".", 3); !ok || s != "13" {
		t.Errorf("split_part = %q", s)
	}
	if s, ok := SplitPart("11.12.13", ".", -1); !ok || s != "13" {
		t.Errorf("split_part -1 = %q", s)
	}
	if s, ok := SplitPart("11.12.13", ".", 5); !ok || s != "" {
		t.Errorf("split_part 5 = %q", s)
	}
	if _, ok := SplitPart("a", ".", 0); ok {
		t.Error("split_part 0 must fail")
	}
}

func TestRegexpFunctions(t *testing.T) {
	if s, ok := RegexpExtract("100-200", `(\d+)-(\d+)`, 1); !ok || s != "100" {
		t.Errorf("regexp_extract = %q %v", s, ok)
	}
	if s, ok := RegexpExtract("foo", `(\d+)`); !ok || s != "" {
		t.Errorf("regexp_extract no match = %q %v", s, ok)
	}
	if _, ok := RegexpExtract("100-200", `(\d+)`, 2); ok {
		t.Error("a group index past the groups must fail")
	}
	all, ok := RegexpExtractAll("100-200, 300-400", `(\d+)-(\d+)`, 1)
	if !ok || len(all) != 2 || all[0] != "100" || all[1] != "300" {
		t.Errorf("regexp_extract_all = %v", all)
	}
	if s, ok := RegexpReplace("100-200", `(\d+)`, "num"); !ok || s != "num-num" {
		t.Errorf("regexp_replace = %q", s)
	}
	if s, ok := RegexpReplace("100-200", `(\d+)-(\d+)`, "$2-$1"); !ok || s != "200-100" {
		t.Errorf("regexp_replace groups = %q", s)
	}
	if s, ok := RegexpReplace("a.b", `\.`, `\$`); !ok || s != "a$b" {
		t.Errorf("regexp_replace escape = %q", s)
	}
	if s, ok := RegexpReplace("aaa", `a`, "b", 2); !ok || s != "abb" {
		t.Errorf("regexp_replace position = %q", s)
	}
	if n, ok := RegexpCount("Steven Jones and Stephen Smith are the best players", "Ste(v|ph)en"); !ok || n != 2 {
		t.Errorf("regexp_count = %d", n)
	}
	if s, found, ok := RegexpSubstr("Steven Jones and Stephen Smith are the best players", "Jeck"); !ok || found || s != "" {
		t.Errorf("regexp_substr no match = %q %v", s, found)
	}
	if m, ok := RLike("%SystemDrive%\\Users\\John", `%SystemDrive%\\Users.*`); !ok || !m {
		t.Error("rlike")
	}
	if _, ok := RLike("x", `(?<=a)b`); ok {
		t.Error("lookbehind is not RE2: must fail")
	}
}

func TestPrintf(t *testing.T) {
	for _, tc := range []struct {
		format string
		args   []any
		want   string
	}{
		{"Hello World %d %s", []any{int32(100), "days"}, "Hello World 100 days"},
		{"%5.2f|%-6s|%05d", []any{3.14159, "ab", int64(42)}, " 3.14|ab    |00042"},
		{"%.2f", []any{0.125}, "0.13"},
		{"%,d", []any{int64(1234567)}, "1,234,567"},
		{"%x %X", []any{int32(-1), int64(255)}, "ffffffff FF"},
		{"%2$s %1$s", []any{"a", "b"}, "b a"},
		{"%s and %s", []any{nil, true}, "null and true"},
		{"%s", []any{types.Date(19000)}, "19000"},
		{"%e", []any{12345.678}, "1.234568e+04"},
		{"100%%", nil, "100%"},
		{"%s", []any{1.0}, "1.0"},
	} {
		got, ok := Printf(tc.format, tc.args...)
		if !ok || got != tc.want {
			t.Errorf("Printf(%q, %v) = %q %v, want %q", tc.format, tc.args, got, ok, tc.want)
		}
	}
	for _, bad := range []struct {
		format string
		args   []any
	}{{"%d", []any{1.5}}, {"%s %s", []any{"a"}}, {"%q", []any{"a"}}, {"%f", []any{"1.5"}}} {
		if got, ok := Printf(bad.format, bad.args...); ok {
			t.Errorf("Printf(%q, %v) = %q, want a failure", bad.format, bad.args, got)
		}
	}
}

func TestNumericFunctions(t *testing.T) {
	if v, _ := BRound(2.5, 0); v != 2 {
		t.Errorf("bround(2.5) = %v", v)
	}
	if v, _ := BRound(3.5, 0); v != 4 {
		t.Errorf("bround(3.5) = %v", v)
	}
	if v, _ := BRound(int32(25), -1); v != 20 {
		t.Errorf("bround(25, -1) = %v", v)
	}
	if v, _ := BRound(2.675, 2); v != 2.68 {
		t.Errorf("bround(2.675, 2) = %v (the decimal text 2.675 ties to even 2.68)", v)
	}
	d, ok := BRoundDecimal(types.DecimalFromInt64(125), 2, 1, 4, 1) // bround(1.25, 1)
	if !ok || d.Format(1) != "1.2" {
		t.Errorf("bround(1.25BD, 1) = %s", d.Format(1))
	}
	if _, ok := Ln(0); ok {
		t.Error("ln(0) is NULL")
	}
	if v, _ := Log(10, 100); v != 2 {
		t.Errorf("log(10, 100) = %v", v)
	}
	if v, _ := Pmod(int32(-7), int32(3)); v != 2 {
		t.Errorf("pmod(-7, 3) = %v", v)
	}
	if v, _ := Pmod(int32(7), int32(-3)); v != 1 {
		t.Errorf("pmod(7, -3) = %v", v)
	}
	if _, ok := Pmod(int64(1), 0); ok {
		t.Error("pmod by zero must fail")
	}
	if Sign(int64(-5)) != -1 || !math.IsNaN(Sign(math.NaN())) {
		t.Error("sign")
	}
}

func TestCalendarFunctions(t *testing.T) {
	if d, ok := MakeDate(2013, 7, 15); !ok || d != date(2013, 7, 15) {
		t.Error("make_date")
	}
	if _, ok := MakeDate(2019, 2, 29); ok {
		t.Error("make_date(2019, 2, 29) must fail")
	}
	// datetime-special.sql.out: years outside 0000-9999 are dates; a day
	// number beyond 32 bits is not (Spark's Math.toIntExact).
	if d, ok := MakeDate(999999, 3, 18); !ok || CastDateString(d) != "+999999-03-18" {
		t.Errorf("make_date(999999, 3, 18) = %s, %v", CastDateString(d), ok)
	}
	if d, ok := MakeDate(-1, 1, 28); !ok || CastDateString(d) != "-0001-01-28" {
		t.Errorf("make_date(-1, 1, 28) = %s, %v", CastDateString(d), ok)
	}
	// timestamp.sql.out: TIMESTAMP_SECONDS(0.1234567) fails (Rounding
	// necessary); trailing zeros below the microsecond are exact.
	if _, ok := TimestampSecondsDecimal(types.DecimalFromInt64(1234567), 7); ok {
		t.Error("timestamp_seconds(0.1234567) must fail")
	}
	if ts, ok := TimestampSecondsDecimal(types.DecimalFromInt64(1234560), 7); !ok || ts != 123456 {
		t.Errorf("timestamp_seconds(0.1234560) = %d, %v", ts, ok)
	}
	if _, ok := MakeDate(6000000, 1, 1); ok {
		t.Error("make_date(6000000, 1, 1) must fail: its day number overflows INT")
	}
	ts, ok := MakeTimestamp(2014, 12, 28, 6, 30, 45.887)
	if !ok || CastTimestampString(ts) != "2014-12-28 06:30:45.887" {
		t.Errorf("make_timestamp = %s", CastTimestampString(ts))
	}
	ts, ok = MakeTimestamp(2019, 6, 30, 23, 59, 60)
	if !ok || CastTimestampString(ts) != "2019-07-01 00:00:00" {
		t.Errorf("make_timestamp with sec 60 = %s", CastTimestampString(ts))
	}
	t1, _ := CastStringTimestamp("1997-02-28 10:30:00")
	t2, _ := CastStringTimestamp("1996-10-30")
	if v := MonthsBetween(t1, t2); v != 3.94959677 {
		t.Errorf("months_between = %v", v)
	}
	if v := MonthsBetween(t1, t2, false); v != 3.9495967741935485 {
		t.Errorf("months_between no round = %v", v)
	}
	if AddMonths(date(2016, 8, 31), 1) != date(2016, 9, 30) {
		t.Error("add_months")
	}
	if LastDay(date(2009, 1, 12)) != date(2009, 1, 31) {
		t.Error("last_day")
	}
	if d, ok := NextDay(date(2015, 1, 14), "TU"); !ok || d != date(2015, 1, 20) {
		t.Error("next_day")
	}
	if _, ok := NextDay(date(2015, 1, 14), "xx"); ok {
		t.Error("next_day with a bad name must fail")
	}
	if WeekOfYear(date(2008, 2, 20)) != 8 || WeekOfYear(date(2021, 1, 1)) != 53 {
		t.Error("weekofyear")
	}
	if d, _ := TruncDate(date(2019, 8, 4), "week"); d != date(2019, 7, 29) {
		t.Error("trunc week")
	}
	if s, ok := FromUnixtime(0, "yyyy-MM-dd HH:mm:ss"); !ok || s != "1970-01-01 00:00:00" {
		t.Errorf("from_unixtime = %q", s)
	}
	if v, ok := UnixTimestamp("2016-04-08", "yyyy-MM-dd"); !ok || v != 1460073600 {
		t.Errorf("unix_timestamp = %d", v)
	}
	u, _ := CastStringTimestamp("2016-08-31")
	if v, _ := FromUTCTimestamp(u, "Asia/Seoul"); CastTimestampString(v) != "2016-08-31 09:00:00" {
		t.Errorf("from_utc_timestamp = %s", CastTimestampString(v))
	}
	if v, _ := ToUTCTimestamp(u, "Asia/Seoul"); CastTimestampString(v) != "2016-08-30 15:00:00" {
		t.Errorf("to_utc_timestamp = %s", CastTimestampString(v))
	}
	w, _ := CastStringTimestamp("2021-01-01 00:07:00")
	if s := WindowStart(w, 5*microsPerMinute, 0); CastTimestampString(s) != "2021-01-01 00:05:00" {
		t.Errorf("window start = %s", CastTimestampString(s))
	}
	pre, _ := CastStringTimestamp("1969-12-31 23:58:00")
	if s := WindowStart(pre, 5*microsPerMinute, 0); CastTimestampString(s) != "1969-12-31 23:55:00" {
		t.Errorf("window start before the epoch = %s", CastTimestampString(s))
	}
}

// Expected values of the statistical accumulators are the textbook
// definitions (Spark's CentralMomentAgg, Covariance, Percentile).
func TestMomentsAndPercentiles(t *testing.T) {
	var m Moments
	for _, x := range []float64{2, 4, 4, 4, 5, 5, 7, 9} {
		m.Add(x)
	}
	if v, ok := m.VarPop(); !ok || v != 4 {
		t.Errorf("var_pop = %v", v)
	}
	if v, ok := m.StddevPop(); !ok || v != 2 {
		t.Errorf("stddev_pop = %v", v)
	}
	if v, ok := m.VarSamp(); !ok || math.Abs(v-32.0/7) > 1e-12 {
		t.Errorf("var_samp = %v", v)
	}
	var one Moments
	one.Add(3)
	if _, ok := one.VarSamp(); ok {
		t.Error("var_samp of one value is NULL in Spark")
	}
	var c CoMoments
	for i, x := range []float64{1, 2, 3, 4} {
		c.Add(x, []float64{2, 4, 6, 8}[i])
	}
	if v, ok := c.Corr(); !ok || math.Abs(v-1) > 1e-12 {
		t.Errorf("corr = %v", v)
	}
	if v, ok := c.CovarPop(); !ok || v != 2.5 {
		t.Errorf("covar_pop = %v", v)
	}
	var n Counts[int32]
	for _, x := range []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10} {
		n.Add(x)
	}
	if v, _ := Percentile(&n, 0.5); v != 5.5 {
		t.Errorf("percentile 0.5 = %v", v)
	}
	if v, _ := Percentile(&n, 0.25); v != 3.25 {
		t.Errorf("percentile 0.25 = %v", v)
	}
	if v, _ := PercentileApprox(&n, 0.5); v != 5 {
		t.Errorf("percentile_approx 0.5 = %v", v)
	}
	if v, _ := PercentileApprox(&n, 0); v != 1 {
		t.Errorf("percentile_approx 0 = %v", v)
	}
	if v, _ := PercentileApprox(&n, 1); v != 10 {
		t.Errorf("percentile_approx 1 = %v", v)
	}
	var empty Counts[float64]
	if _, ok := Percentile(&empty, 0.5); ok {
		t.Error("percentile of no values is NULL")
	}
	var h HLL
	for i := int64(0); i < 100; i++ {
		h.Add(XxHash64(i, HashSeed))
		h.Add(XxHash64(i, HashSeed)) // duplicates do not count
	}
	if e := h.Estimate(); e < 95 || e > 105 {
		t.Errorf("approx_count_distinct of 100 values = %d", e)
	}
	var big HLL
	for i := int64(0); i < 100000; i++ {
		big.Add(XxHash64(i, HashSeed))
	}
	if e := big.Estimate(); e < 90000 || e > 110000 {
		t.Errorf("approx_count_distinct of 100000 values = %d", e)
	}
	if d := DecimalAvg(types.DecimalFromInt64(1000), 2, 3, 16, 6); d.Format(6) != "3.333333" {
		t.Errorf("avg = %s", d.Format(6))
	}
	if FloatKey(math.NaN()) != FloatKey(-math.NaN()) || FloatKey(math.Copysign(0, -1)) != FloatKey(0) {
		t.Error("FloatKey must equate NaNs and zeros")
	}
}
