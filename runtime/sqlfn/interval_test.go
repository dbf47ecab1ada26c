package sqlfn

import (
	"math"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// Expected values follow Spark's MultiplyDTInterval and DivideDTInterval:
// the exact product or quotient rounded HALF_UP (away from zero on a tie)
// to whole microseconds.
func TestIntervalArithmetic(t *testing.T) {
	sec := types.Interval(1_000_000)
	dec := func(unscaled int64) types.Decimal { return types.DecimalFromInt64(unscaled) }
	tests := []struct {
		name string
		got  types.Interval
		want types.Interval
	}{
		{"1s/3", must(DivIntervalInt(sec, 3)), 333_333},
		{"2s/3", must(DivIntervalInt(2*sec, 3)), 666_667},
		{"-2s/3", must(DivIntervalInt(-2*sec, 3)), -666_667},
		{"5us/-2", must(DivIntervalInt(5, -2)), -3},
		{"1s*3", must(MulIntervalInt(sec, 3)), 3 * sec},
		{"1s*1.5", must(MulIntervalDouble(sec, 1.5)), 1_500_000},
		{"1us*2.5", must(MulIntervalDouble(1, 2.5)), 3},
		{"1us*-2.5", must(MulIntervalDouble(1, -2.5)), -3},
		{"1s/0.3", must(DivIntervalDouble(sec, 0.3)), 3_333_333},
		{"1us*0.5BD", must(MulIntervalDecimal(1, dec(5), 1)), 1},
		{"1s/1.5BD", must(DivIntervalDecimal(sec, dec(15), 1)), 666_667},
		{"7us*-0.25BD", must(MulIntervalDecimal(7, dec(-25), 2)), -2},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %d µs, want %d", tt.name, tt.got, tt.want)
		}
	}
	for name, ok := range map[string]bool{
		"div int 0":     second(DivIntervalInt(sec, 0)),
		"div double 0":  second(DivIntervalDouble(sec, 0)),
		"div decimal 0": second(DivIntervalDecimal(sec, dec(0), 2)),
		"mul overflow":  second(MulIntervalInt(math.MaxInt64, 2)),
		"mul NaN":       second(MulIntervalDouble(sec, math.NaN())),
		"mul inf":       second(MulIntervalDouble(sec, math.Inf(1))),
		"min / -1":      second(DivIntervalInt(math.MinInt64, -1)),
	} {
		if ok {
			t.Errorf("%s: ok, want a failure", name)
		}
	}
}

func must(iv types.Interval, ok bool) types.Interval {
	if !ok {
		return -1 << 62
	}
	return iv
}

func second(_ types.Interval, ok bool) bool { return ok }
