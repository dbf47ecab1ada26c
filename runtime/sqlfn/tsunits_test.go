package sqlfn

import (
	"bytes"
	"testing"
)

// TestTimestampDiff checks timestampdiff against the examples of the
// Databricks reference (timestampdiff, datediff (timestamp)) and
// java.time's LocalDateTime.until rules.
func TestTimestampDiff(t *testing.T) {
	tests := []struct {
		unit       string
		start, end [7]int
		want       int64
	}{
		{"MONTH", [7]int{2021, 2, 28, 12, 0, 0, 0}, [7]int{2021, 3, 28, 11, 59, 59, 0}, 0},
		{"MONTH", [7]int{2021, 2, 28, 12, 0, 0, 0}, [7]int{2021, 3, 28, 12, 0, 0, 0}, 1},
		{"YEAR", [7]int{2021, 1, 1, 0, 0, 0, 0}, [7]int{1900, 3, 28, 0, 0, 0, 0}, -120},
		{"QUARTER", [7]int{2021, 1, 1, 0, 0, 0, 0}, [7]int{2021, 12, 31, 0, 0, 0, 0}, 3},
		{"WEEK", [7]int{2024, 1, 1, 0, 0, 0, 0}, [7]int{2024, 1, 15, 0, 0, 0, 0}, 2},
		{"DAY", [7]int{2024, 1, 2, 10, 0, 0, 0}, [7]int{2024, 1, 1, 11, 0, 0, 0}, 0},
		{"DAY", [7]int{2024, 1, 2, 10, 0, 0, 0}, [7]int{2024, 1, 1, 9, 0, 0, 0}, -1},
		{"HOUR", [7]int{2024, 1, 1, 0, 0, 0, 0}, [7]int{2024, 1, 1, 5, 59, 0, 0}, 5},
		{"MINUTE", [7]int{2024, 1, 1, 0, 0, 0, 0}, [7]int{2023, 12, 31, 23, 58, 30, 0}, -1},
		{"MILLISECOND", [7]int{2024, 1, 1, 0, 0, 0, 0}, [7]int{2024, 1, 1, 0, 0, 1, 1500}, 1001},
		{"MICROSECOND", [7]int{2024, 1, 1, 0, 0, 0, 0}, [7]int{2024, 1, 1, 0, 0, 1, 1500}, 1001500},
	}
	for _, tt := range tests {
		s, e := tt.start, tt.end
		a, b := ts(t, int64(s[0]), s[1], s[2], s[3], s[4], s[5], s[6]), ts(t, int64(e[0]), e[1], e[2], e[3], e[4], e[5], e[6])
		if got, ok := TimestampDiffNTZ(tt.unit, a, b); !ok || got != tt.want {
			t.Errorf("timestampdiff(%s, %v, %v) = %d, %v; want %d", tt.unit, s, e, got, ok, tt.want)
		}
	}
	// Across the spring-forward change, 01:30 EST to 03:30 EDT is one
	// hour of elapsed time but two on the wall clock, which Spark counts.
	withZone(t, "America/New_York")
	a, b := ts(t, 2024, 3, 10, 6, 30, 0, 0), ts(t, 2024, 3, 10, 7, 30, 0, 0) // instants (UTC)
	if got, ok := TimestampDiff("HOUR", a, b); !ok || got != 2 {
		t.Errorf("timestampdiff(HOUR) across a DST change = %d, %v; want 2", got, ok)
	}
	// One DAY later at the same wall-clock time is 23 hours later.
	if got, ok := TimestampAdd("DAY", 1, ts(t, 2024, 3, 9, 17, 0, 0, 0)); !ok || got != ts(t, 2024, 3, 10, 16, 0, 0, 0) {
		t.Errorf("timestampadd(DAY, 1) across a DST change = %s, %v", got, ok)
	}
}

// TestTimestampAdd checks timestampadd against the Databricks reference's
// examples and calendar clamping.
func TestTimestampAdd(t *testing.T) {
	tests := []struct {
		unit string
		n    int64
		in   [7]int
		want [7]int
	}{
		{"MONTH", -1, [7]int{2022, 3, 31, 0, 0, 0, 0}, [7]int{2022, 2, 28, 0, 0, 0, 0}},
		{"QUARTER", 1, [7]int{2024, 11, 30, 8, 0, 0, 0}, [7]int{2025, 2, 28, 8, 0, 0, 0}},
		{"YEAR", 1, [7]int{2024, 2, 29, 0, 0, 0, 0}, [7]int{2025, 2, 28, 0, 0, 0, 0}},
		{"WEEK", 2, [7]int{2024, 12, 25, 1, 2, 3, 4}, [7]int{2025, 1, 8, 1, 2, 3, 4}},
		{"DAYOFYEAR", -1, [7]int{2024, 3, 1, 0, 0, 0, 0}, [7]int{2024, 2, 29, 0, 0, 0, 0}},
		{"SECOND", 5000, [7]int{2022, 2, 14, 0, 0, 0, 0}, [7]int{2022, 2, 14, 1, 23, 20, 0}},
		{"MILLISECOND", -1, [7]int{2022, 1, 1, 0, 0, 0, 0}, [7]int{2021, 12, 31, 23, 59, 59, 999000}},
	}
	for _, tt := range tests {
		s, w := tt.in, tt.want
		in, want := ts(t, int64(s[0]), s[1], s[2], s[3], s[4], s[5], s[6]), ts(t, int64(w[0]), w[1], w[2], w[3], w[4], w[5], w[6])
		if got, ok := TimestampAddNTZ(tt.unit, tt.n, in); !ok || got != want {
			t.Errorf("timestampadd(%s, %d, %v) = %s, %v; want %s", tt.unit, tt.n, s, got, ok, want)
		}
	}
	if _, ok := TimestampAddNTZ("HOUR", 1<<62, 0); ok {
		t.Errorf("timestampadd(HOUR, 2^62) did not overflow")
	}
}

func TestHexUnhex(t *testing.T) {
	if got := HexLong(17); got != "11" {
		t.Errorf("hex(17) = %s", got)
	}
	if got := HexLong(-1); got != "FFFFFFFFFFFFFFFF" {
		t.Errorf("hex(-1) = %s", got)
	}
	if got := Hex("Spark SQL"); got != "537061726B2053514C" {
		t.Errorf("hex('Spark SQL') = %s", got)
	}
	if b, ok := Unhex("537061726B2053514C"); !ok || string(b) != "Spark SQL" {
		t.Errorf("unhex = %q, %v", b, ok)
	}
	if b, ok := Unhex("abc"); !ok || !bytes.Equal(b, []byte{0x0a, 0xbc}) {
		t.Errorf("unhex('abc') = %x, %v", b, ok)
	}
	if _, ok := Unhex("zz"); ok {
		t.Errorf("unhex('zz') is not NULL")
	}
}

func TestJSONArrayLength(t *testing.T) {
	for in, want := range map[string]int32{"[]": 0, "[1,2,3,4]": 4, `[1,2,3,{"f1":1,"f2":[5,6]},4]`: 5, " [[1], [2, 3]] ": 2} {
		if got, ok := JSONArrayLength(in); !ok || got != want {
			t.Errorf("json_array_length(%s) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"[1,2", "{}", "1", "", "[1,]"} {
		if got, ok := JSONArrayLength(in); ok {
			t.Errorf("json_array_length(%q) = %d, want NULL", in, got)
		}
	}
}

func TestModeAndPercentileDisc(t *testing.T) {
	var c Counts[int32]
	for _, v := range []int32{0, 1, 2, 3, 4} {
		c.Add(v)
	}
	// SPARK-44871's expected results for 0.0, 0.1, ..., 1.0 over 0..4.
	want := []float64{0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4}
	for i, w := range want {
		if got, ok := PercentileDisc(&c, float64(i)/10); !ok || got != w {
			t.Errorf("percentile_disc(%.1f) = %v, want %v", float64(i)/10, got, w)
		}
	}
	c.Add(3)
	c.Add(1)
	if m, ok := Mode(&c); !ok || m != 1 {
		t.Errorf("mode = %d, %v; want 1 (the smaller of two values seen twice)", m, ok)
	}
	var empty Counts[string]
	if _, ok := Mode(&empty); ok {
		t.Errorf("mode of no values is not NULL")
	}
}

// TestConvertTimezone checks the Databricks reference's examples.
func TestConvertTimezone(t *testing.T) {
	got, ok := ConvertTimezone("Europe/Brussels", "America/Los_Angeles", ts(t, 2021, 12, 6, 0, 0, 0, 0))
	if want := ts(t, 2021, 12, 5, 15, 0, 0, 0); !ok || got != want {
		t.Errorf("convert_timezone(Brussels, Los Angeles) = %s, %v; want %s", got, ok, want)
	}
	withZone(t, "America/Los_Angeles")
	got, ok = ConvertTimezone(CurrentTimeZone(), "Europe/Brussels", ts(t, 2021, 12, 5, 15, 0, 0, 0))
	if want := ts(t, 2021, 12, 6, 0, 0, 0, 0); !ok || got != want {
		t.Errorf("convert_timezone(session, Brussels) = %s, %v; want %s", got, ok, want)
	}
	if _, ok := ConvertTimezone("Mars/Olympus", "UTC", 0); ok {
		t.Errorf("an unknown zone converted")
	}
}
