package types

import "testing"

// TestWidens follows the supported type changes of the Delta protocol's
// "Type Widening" section, and the changes it leaves out.
func TestWidens(t *testing.T) {
	for _, tc := range []struct {
		from, to Type
		want     bool
	}{
		{ByteType, ShortType, true}, {ShortType, IntType, true}, {IntType, LongType, true}, {ByteType, LongType, true},
		{LongType, IntType, false}, {IntType, IntType, false},
		{FloatType, DoubleType, true}, {DoubleType, FloatType, false},
		{IntType, DoubleType, true}, {ShortType, DoubleType, true}, {LongType, DoubleType, false}, {IntType, FloatType, false},
		{DateType, TimestampNTZType, true}, {DateType, TimestampType, false}, {TimestampType, TimestampNTZType, false},
		{DecimalOf(6, 2), DecimalOf(10, 3), true}, {DecimalOf(6, 2), DecimalOf(10, 2), true},
		{DecimalOf(6, 2), DecimalOf(7, 3), true}, {DecimalOf(6, 2), DecimalOf(8, 5), false}, {DecimalOf(6, 2), DecimalOf(6, 1), false},
		{IntType, DecimalOf(10, 0), true}, {ByteType, DecimalOf(12, 2), true}, {IntType, DecimalOf(11, 2), false},
		{LongType, DecimalOf(20, 0), true}, {LongType, DecimalOf(38, 0), true}, {LongType, DecimalOf(20, 1), false},
		{IntType, StringType, false}, {StringType, IntType, false},
		{ArrayOf(IntType, true), ArrayOf(LongType, true), false},
	} {
		if got := Widens(tc.from, tc.to); got != tc.want {
			t.Errorf("Widens(%s, %s) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
}

func TestIntegerTypeFor(t *testing.T) {
	for _, tc := range []struct {
		from   Type
		digits string
		want   string
	}{
		{IntType, "2147483648", "BIGINT"}, {IntType, "-2147483649", "BIGINT"}, {IntType, "3000000000", "BIGINT"},
		{ShortType, "40000", "INT"}, {ByteType, "128", "SMALLINT"}, {ByteType, "-129", "SMALLINT"},
		{IntType, "9223372036854775808", "DECIMAL(38,0)"}, {LongType, "-9223372036854775809", "DECIMAL(38,0)"},
		{LongType, "9223372036854775807", "DECIMAL(38,0)"}, // not called for values that fit, but never narrower
		{IntType, "123456789012345678901234567890123456789", ""},
		{IntType, "12a", ""}, {StringType, "1", ""},
	} {
		got, ok := IntegerTypeFor(tc.from, tc.digits)
		s := ""
		if ok {
			s = got.String()
		}
		if s != tc.want {
			t.Errorf("IntegerTypeFor(%s, %s) = %q, want %q", tc.from, tc.digits, s, tc.want)
		}
	}
}
