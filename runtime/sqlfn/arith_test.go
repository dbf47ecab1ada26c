package sqlfn

import (
	"math"
	"testing"
)

// Overflow and division by zero are errors under ANSI mode
// (https://spark.apache.org/docs/latest/sql-ref-ansi-compliance.html#arithmetic-operations).
func TestIntegerArith(t *testing.T) {
	type op func(a, b int64) (int64, bool)
	tests := []struct {
		name string
		f    op
		a, b int64
		want int64
		ok   bool
	}{
		{"add", Add[int64], 1, 2, 3, true},
		{"add max", Add[int64], math.MaxInt64, 1, 0, false},
		{"add min", Add[int64], math.MinInt64, -1, 0, false},
		{"add min+max", Add[int64], math.MinInt64, math.MaxInt64, -1, true},
		{"sub", Sub[int64], 1, 2, -1, true},
		{"sub min", Sub[int64], math.MinInt64, 1, 0, false},
		{"sub 0-min", Sub[int64], 0, math.MinInt64, 0, false},
		{"sub -1-min", Sub[int64], -1, math.MinInt64, math.MaxInt64, true},
		{"mul", Mul[int64], -3, 4, -12, true},
		{"mul overflow", Mul[int64], math.MaxInt64, 2, 0, false},
		{"mul min*-1", Mul[int64], math.MinInt64, -1, 0, false},
		{"mul -1*min", Mul[int64], -1, math.MinInt64, 0, false},
		{"mul min*1", Mul[int64], math.MinInt64, 1, math.MinInt64, true},
		{"mul 2^32*2^31", Mul[int64], 1 << 32, 1 << 31, 0, false},
		{"div", IntDiv[int64], 7, -2, -3, true},
		{"div by zero", IntDiv[int64], 7, 0, 0, false},
		{"div min/-1", IntDiv[int64], math.MinInt64, -1, 0, false},
		{"mod", Mod[int64], -7, 3, -1, true},
		{"mod 7%-3", Mod[int64], 7, -3, 1, true},
		{"mod by zero", Mod[int64], 7, 0, 0, false},
		{"mod min%-1", Mod[int64], math.MinInt64, -1, 0, true},
	}
	for _, tt := range tests {
		got, ok := tt.f(tt.a, tt.b)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("%s(%d, %d) = %d, %v; want %d, %v", tt.name, tt.a, tt.b, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSmallIntegerArith(t *testing.T) {
	if _, ok := Add[int8](127, 1); ok {
		t.Error("127Y + 1Y does not overflow")
	}
	if v, ok := Add[int8](-100, -28); !ok || v != -128 {
		t.Errorf("-100Y + -28Y = %d, %v", v, ok)
	}
	if _, ok := Mul[int16](256, 128); ok {
		t.Error("256S * 128S does not overflow")
	}
	if _, ok := Mul[int32](-1, math.MinInt32); ok {
		t.Error("-1 * MIN_INT does not overflow")
	}
	if v, ok := Sub[int32](math.MinInt32, -1); !ok || v != math.MinInt32+1 {
		t.Errorf("MIN_INT - -1 = %d, %v", v, ok)
	}
	if _, ok := Neg[int8](-128); ok {
		t.Error("-(-128Y) does not overflow")
	}
	if v, ok := Neg[int64](5); !ok || v != -5 {
		t.Errorf("Neg(5) = %d", v)
	}
	if v, ok := NarrowInt[int8](127); !ok || v != 127 {
		t.Errorf("NarrowInt[int8](127) = %d, %v", v, ok)
	}
	if _, ok := NarrowInt[int8](128); ok {
		t.Error("NarrowInt[int8](128) fits")
	}
	if _, ok := NarrowInt[int32](math.MinInt32 - 1); ok {
		t.Error("NarrowInt[int32](MIN-1) fits")
	}
}

func TestFloatArith(t *testing.T) {
	if _, ok := Div(1.0, 0.0); ok {
		t.Error("1.0 / 0.0 is not DIVIDE_BY_ZERO")
	}
	if _, ok := Div(1.0, math.Copysign(0, -1)); ok {
		t.Error("1.0 / -0.0 is not DIVIDE_BY_ZERO")
	}
	if v, ok := Div(math.MaxFloat64, 0.5); !ok || !math.IsInf(v, 1) {
		t.Errorf("MAX / 0.5 = %v, %v; want +Inf (no error for doubles)", v, ok)
	}
	if v, ok := Div[float32](1, 4); !ok || v != 0.25 {
		t.Errorf("1f / 4f = %v", v)
	}
	if v, ok := Mod(-7.5, 2.0); !ok || v != -1.5 {
		t.Errorf("-7.5 %% 2.0 = %v", v)
	}
	if _, ok := Mod(1.0, 0.0); ok {
		t.Error("1.0 % 0.0 is not DIVIDE_BY_ZERO")
	}
	if v, ok := Mod[float32](5.5, 2); !ok || v != 1.5 {
		t.Errorf("5.5f %% 2f = %v", v)
	}
	if v, ok := Abs(math.Copysign(0, -1)); !ok || math.Signbit(v) {
		t.Errorf("abs(-0.0) = %v", v)
	}
	if v, ok := Abs(math.NaN()); !ok || !math.IsNaN(v) {
		t.Errorf("abs(NaN) = %v", v)
	}
	if _, ok := Abs[int32](math.MinInt32); ok {
		t.Error("abs(MIN_INT) does not overflow")
	}
	if v, ok := Abs[int16](-7); !ok || v != 7 {
		t.Errorf("abs(-7S) = %d", v)
	}
	if !math.IsNaN(Sqrt(-1)) || Sqrt(4) != 2 {
		t.Error("sqrt")
	}
}

func TestRound(t *testing.T) {
	// https://spark.apache.org/docs/latest/api/sql/index.html#round:
	// round(2.5, 0) = 3; HALF_UP on the decimal text of doubles.
	tests := []struct {
		x    float64
		d    int32
		want float64
	}{
		{2.5, 0, 3}, {-2.5, 0, -3}, {0.125, 2, 0.13}, {2.675, 2, 2.68}, {1.005, 2, 1.01},
		{1234.5678, -2, 1200}, {-0.4, 0, 0}, {0.5, 0, 1}, {9.99, 1, 10}, {99.5, 0, 100},
		{1e300, 2, 1e300}, {123.456, 10, 123.456}, {5.5e-10, 9, 1e-9}, {0.0001, 2, 0},
		{-1250, -2, -1300}, {49, -2, 0}, {50, -2, 100},
	}
	for _, tt := range tests {
		if got, ok := Round(tt.x, tt.d); !ok || got != tt.want {
			t.Errorf("round(%v, %d) = %v, want %v", tt.x, tt.d, got, tt.want)
		}
	}
	if got, _ := Round(2.5); got != 3 {
		t.Errorf("round(2.5) = %v", got)
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got, ok := Round(x, 2); !ok || !(got == x || math.IsNaN(x) && math.IsNaN(got)) {
			t.Errorf("round(%v) = %v", x, got)
		}
	}
	if got, _ := Round[float32](2.5); got != 3 {
		t.Errorf("round(2.5f) = %v", got)
	}
	if got, _ := Round[float32](0.15, 1); got != 0.2 {
		t.Errorf("round(0.15f, 1) = %v", got)
	}
	itests := []struct {
		x, want int64
		d       int32
		ok      bool
	}{
		{125, 130, -1, true}, {-125, -130, -1, true}, {124, 120, -1, true}, {7, 7, 2, true},
		{math.MaxInt64, 0, -1, false}, {math.MaxInt64, 0, -19, false}, {4e18, 0, -19, true}, {5e18, 0, -19, false},
		{-4e18, 0, -19, true}, {123, 0, -100, true},
	}
	for _, tt := range itests {
		got, ok := Round(tt.x, tt.d)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("round(%d, %d) = %d, %v; want %d, %v", tt.x, tt.d, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := Round[int8](125, -1); ok {
		t.Error("round(125Y, -1) = 130 fits TINYINT")
	}
}

func TestFloorCeil(t *testing.T) {
	tests := []struct {
		x           float64
		floor, ceil int64
	}{
		{1.5, 1, 2}, {-1.5, -2, -1}, {-0.0, 0, 0}, {3, 3, 3}, {1e300, math.MaxInt64, math.MaxInt64},
		{-1e300, math.MinInt64, math.MinInt64}, {math.NaN(), 0, 0},
	}
	for _, tt := range tests {
		f, _ := Floor(tt.x)
		c, _ := Ceil(tt.x)
		if f != tt.floor || c != tt.ceil {
			t.Errorf("floor/ceil(%v) = %d/%d, want %d/%d", tt.x, f, c, tt.floor, tt.ceil)
		}
	}
	if f, _ := Floor[int32](-7); f != -7 {
		t.Errorf("floor(-7) = %d", f)
	}
}

func FuzzRound(f *testing.F) {
	f.Add(2.5, int32(0))
	f.Add(-1e-300, int32(300))
	f.Add(1.7976931348623157e308, int32(-308))
	f.Fuzz(func(t *testing.T, x float64, d int32) {
		got, ok := Round(x, d)
		if !ok {
			t.Fatalf("round(%v, %d) failed", x, d)
		}
		if !math.IsNaN(x) && !math.IsInf(x, 0) && d >= 0 && math.Abs(got-x) > math.Abs(x)*1e-9+math.Pow(10, -float64(min(d, 300))) {
			t.Fatalf("round(%v, %d) = %v is too far", x, d, got)
		}
	})
}
