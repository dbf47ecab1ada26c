package sql

import "testing"

// TestParseTimeOfDay checks TIME literal text as Spark 4.1 reads it
// (timestamp.sql: TIME'0:0:0', TIME'00:00:00'; hour 0-23, at most 6
// fraction digits).
func TestParseTimeOfDay(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"00:00:00", 0, true},
		{"0:0:0", 0, true},
		{"06:30:45.678", (6*3600+30*60+45)*1_000_000 + 678_000, true},
		{"23:59", (23*3600 + 59*60) * 1_000_000, true},
		{"24:00:00", 0, false},
		{"12:60:00", 0, false},
		{"1:2:3.1234567", 0, false},
		{"12", 0, false},
	} {
		got, ok := parseTimeOfDay(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("parseTimeOfDay(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestRangeLength checks Spark's Range.numElements: range(0, 10, 3) is
// 0, 3, 6, 9; range(10, 0, -3) is 10, 7, 4, 1; range(5, 1) is empty.
func TestRangeLength(t *testing.T) {
	for _, c := range []struct{ start, stop, step, want int64 }{
		{0, 10, 1, 10}, {0, 10, 3, 4}, {10, 0, -3, 4}, {0, 9, 3, 3}, {5, 1, 1, -4}, {1, 1, 1, 0},
	} {
		if got := rangeLength(c.start, c.stop, c.step); got.Int64() != c.want {
			t.Errorf("rangeLength(%d, %d, %d) = %s, want %d", c.start, c.stop, c.step, got, c.want)
		}
	}
}
