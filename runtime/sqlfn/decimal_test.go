package sqlfn

import (
	"math/big"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// pd parses "12.34" into an unscaled value of the given scale for tests.
func pd(t testing.TB, s string, scale int) types.Decimal {
	t.Helper()
	d, ok := types.ParseDecimal(s, 38, scale)
	if !ok {
		t.Fatalf("bad test decimal %q", s)
	}
	return d
}

const nines38 = "99999999999999999999999999999999999999"

// Decimal arithmetic: result types follow Spark's DecimalPrecision rules
// (https://spark.apache.org/docs/latest/sql-ref-ansi-compliance.html,
// "decimal precision"); values are rounded HALF_UP to the result scale.
func TestDecimalOps(t *testing.T) {
	type op func(types.Decimal, int, types.Decimal, int, int, int) (types.Decimal, bool)
	tests := []struct {
		name string
		f    op
		a    string
		as   int
		b    string
		bs   int
		p, s int
		want string // "" when !ok
	}{
		{"add", DecimalAdd, "1.25", 2, "2.5", 1, 4, 2, "3.75"},
		{"add neg", DecimalAdd, "-1.25", 2, "0.005", 3, 5, 3, "-1.245"},
		{"add overflow", DecimalAdd, "99.99", 2, "0.01", 2, 4, 2, ""},
		{"add 38 digits", DecimalAdd, nines38, 0, "1", 0, 38, 0, ""},
		{"add loss of scale", DecimalAdd, "1", 0, "0.00000000000000000000000000000000000005", 38, 38, 6, "1.000000"},
		{"add wide rescale", DecimalAdd, "12345678901234567890123456789012345678", 0, "0.5", 38, 38, 0, "12345678901234567890123456789012345679"},
		{"sub", DecimalSub, "1.00", 2, "2.5", 1, 4, 2, "-1.50"},
		{"sub min", DecimalSub, "-" + nines38, 0, "1", 0, 38, 0, ""},
		{"mul", DecimalMul, "1.5", 1, "-2.25", 2, 6, 3, "-3.375"},
		{"mul round", DecimalMul, "0.15", 2, "0.5", 1, 4, 2, "0.08"},
		{"mul neg round", DecimalMul, "-0.15", 2, "0.5", 1, 4, 2, "-0.08"},
		{"mul 38x38", DecimalMul, nines38, 0, nines38, 0, 38, 0, ""},
		{"mul wide then scale", DecimalMul, "12345678901234567890.123456789", 9, "98765432109876543210.987654321", 9, 38, 6, ""},
		{"mul wide small", DecimalMul, "0.12345678901234567890123456789", 29, "0.98765432109876543210987654321", 29, 38, 10, "0.1219326311"},
		{"div", DecimalDiv, "1", 0, "3", 0, 38, 6, "0.333333"},
		{"div 2/3", DecimalDiv, "2", 0, "3", 0, 38, 6, "0.666667"},
		{"div neg", DecimalDiv, "-2", 0, "3", 0, 38, 6, "-0.666667"},
		{"div by zero", DecimalDiv, "1", 0, "0.00", 2, 38, 6, ""},
		{"div zero", DecimalDiv, "0.00", 2, "7", 0, 10, 6, "0.000000"},
		{"div scales", DecimalDiv, "10.00", 2, "0.4", 1, 10, 4, "25.0000"},
		{"div overflow", DecimalDiv, nines38, 0, "0.1", 1, 38, 0, ""},
		{"div big", DecimalDiv, nines38, 0, "3", 0, 38, 0, "33333333333333333333333333333333333333"},
		{"div tiny", DecimalDiv, "1", 0, nines38, 0, 38, 38, "0.00000000000000000000000000000000000001"},
		{"mod", DecimalMod, "7.5", 1, "2", 0, 3, 1, "1.5"},
		{"mod neg", DecimalMod, "-7.5", 1, "2", 0, 3, 1, "-1.5"},
		{"mod by zero", DecimalMod, "7.5", 1, "0", 0, 3, 1, ""},
		{"mod big", DecimalMod, nines38, 0, "0.7", 1, 38, 1, "0.3"},
	}
	for _, tt := range tests {
		got, ok := tt.f(pd(t, tt.a, tt.as), tt.as, pd(t, tt.b, tt.bs), tt.bs, tt.p, tt.s)
		s := ""
		if ok {
			s = got.Format(tt.s)
		}
		if s != tt.want {
			t.Errorf("%s(%s, %s) as DECIMAL(%d,%d) = %q, want %q", tt.name, tt.a, tt.b, tt.p, tt.s, s, tt.want)
		}
	}
}

// TestDecimalMulOracle checks the 38-significant-digit double rounding of
// products against math/big.
func TestDecimalMulOracle(t *testing.T) {
	a := pd(t, "123456789012345.6789012345", 10)
	b := pd(t, "98765.4321098765432109876", 19)
	got, ok := DecimalMul(a, 10, b, 19, 38, 6)
	// Exact product (scale 29), rounded to 38 significant digits, then to
	// scale 6.
	p := new(big.Int).Mul(a.BigInt(), b.BigInt())
	k := len(p.String()) - 38
	r := divHalfUp(p, pow10Big(k))
	want := divHalfUp(r, pow10Big(29-k-6))
	if !ok || got.BigInt().Cmp(want) != 0 {
		t.Errorf("product = %s, %v; want %s", got, ok, want)
	}
}

func TestDecimalFunctions(t *testing.T) {
	for _, tt := range []struct {
		name  string
		f     func(types.Decimal, int, int, int) (types.Decimal, bool)
		in    string
		scale int
		p, s  int
		want  string
	}{
		{"floor", FloorDecimal, "1.5", 1, 2, 0, "1"},
		{"floor neg", FloorDecimal, "-1.5", 1, 2, 0, "-2"},
		{"floor exact", FloorDecimal, "-2.0", 1, 2, 0, "-2"},
		{"ceil", CeilDecimal, "1.01", 2, 2, 0, "2"},
		{"ceil neg", CeilDecimal, "-1.99", 2, 2, 0, "-1"},
		{"ceil 38", CeilDecimal, "0." + nines38, 38, 1, 0, "1"},
		{"abs", AbsDecimal, "-12.30", 2, 4, 2, "12.30"},
		{"abs narrow", AbsDecimal, "-12.30", 2, 3, 2, ""},
	} {
		got, ok := tt.f(pd(t, tt.in, tt.scale), tt.scale, tt.p, tt.s)
		s := ""
		if ok {
			s = got.Format(tt.s)
		}
		if s != tt.want {
			t.Errorf("%s(%s) = %q, want %q", tt.name, tt.in, s, tt.want)
		}
	}
	for _, tt := range []struct {
		in     string
		scale  int
		places int32
		p, s   int
		want   string
	}{
		{"2.5", 1, 0, 2, 0, "3"},
		{"-2.5", 1, 0, 2, 0, "-3"},
		{"0.125", 3, 2, 4, 2, "0.13"},
		{"1.2345", 4, 6, 6, 4, "1.2345"},
		{"1250", 0, -2, 5, 0, "1300"},
		{"-1249.99", 2, -2, 7, 0, "-1200"},
		{"9.99", 2, 1, 2, 1, ""},
		{"9.99", 2, 1, 4, 1, "10.0"},
		{"123.45", 2, -100, 6, 0, "0"},
		{"0." + nines38, 38, 37, 38, 37, "1." + strings.Repeat("0", 37)},
	} {
		got, ok := RoundDecimal(pd(t, tt.in, tt.scale), tt.scale, tt.places, tt.p, tt.s)
		s := ""
		if ok {
			s = got.Format(tt.s)
		}
		if s != tt.want {
			t.Errorf("round(%s, %d) as DECIMAL(%d,%d) = %q, want %q", tt.in, tt.places, tt.p, tt.s, s, tt.want)
		}
	}
}

// TestRoundCeilFloorDecimal checks ceil(x, d) and floor(x, d) against
// the rows of Spark's ceil-floor-with-scale-param.sql.out, at the result
// types Spark gives them.
func TestRoundCeilFloorDecimal(t *testing.T) {
	for _, tt := range []struct {
		ceil   bool
		in     string
		scale  int
		places int32
		p, s   int
		want   string
	}{
		{true, "2.5", 1, 0, 2, 0, "3"},
		{true, "-2.5", 1, 0, 2, 0, "-2"},
		{true, "-0.35", 2, 1, 2, 1, "-0.3"},
		{true, "-35", 0, -1, 11, 0, "-30"},
		{true, "-0.1", 1, 0, 1, 0, "0"},
		{true, "3.14115", 5, -3, 4, 0, "1000"},
		{true, "9.9", 1, 0, 2, 0, "10"},
		{true, "99", 0, -1, 3, 0, "100"},
		{true, "1.25", 2, 5, 4, 2, "1.25"},
		{false, "2.5", 1, 0, 2, 0, "2"},
		{false, "-2.5", 1, 0, 2, 0, "-3"},
		{false, "-0.35", 2, 1, 2, 1, "-0.4"},
		{false, "-35", 0, -1, 11, 0, "-40"},
		{false, "-0.1", 1, 0, 1, 0, "-1"},
		{false, "3.14115", 5, -3, 4, 0, "0"},
		{false, "-9.9", 1, 0, 2, 0, "-10"},
		{false, "-99", 0, -1, 3, 0, "-100"},
		{false, "-40", 0, -1, 3, 0, "-40"},
		{true, "9.9", 1, 0, 1, 0, ""},
	} {
		f, name := RoundFloorDecimal, "floor"
		if tt.ceil {
			f, name = RoundCeilDecimal, "ceil"
		}
		got, ok := f(pd(t, tt.in, tt.scale), tt.scale, tt.places, tt.p, tt.s)
		s := ""
		if ok {
			s = got.Format(tt.s)
		}
		if s != tt.want {
			t.Errorf("%s(%s, %d) as DECIMAL(%d,%d) = %q, want %q", name, tt.in, tt.places, tt.p, tt.s, s, tt.want)
		}
	}
}

func TestDigitsBig(t *testing.T) {
	for _, s := range []string{"0", "9", "10", "99", "100", nines38, "1" + strings.Repeat("0", 76), "-" + strings.Repeat("9", 60)} {
		b, _ := new(big.Int).SetString(s, 10)
		want := len(strings.TrimPrefix(s, "-"))
		if got := digitsBig(b); got != want {
			t.Errorf("digitsBig(%s) = %d, want %d", s, got, want)
		}
	}
}

func BenchmarkDecimalAdd(b *testing.B) {
	x, y := types.DecimalFromInt64(12345), types.DecimalFromInt64(-678)
	for b.Loop() {
		x, _ = DecimalAdd(x, 2, y, 1, 18, 2)
	}
}

func BenchmarkDecimalMul(b *testing.B) {
	x, y := types.DecimalFromInt64(12345), types.DecimalFromInt64(-678)
	for b.Loop() {
		_, _ = DecimalMul(x, 2, y, 1, 18, 3)
	}
}

// TestPmodDecimal checks Spark's pmod examples (pmod(10, 3) = 1,
// pmod(-10, 3) = 2) and decimalArithmeticOperations.sql's pmod(10.00, 3.0)
// = 1.00, at mixed scales.
func TestPmodDecimal(t *testing.T) {
	for _, c := range []struct {
		a      int64
		as     int
		b      int64
		bs     int
		want   int64 // at scale 2
		wantOK bool
	}{
		{1000, 2, 30, 1, 100, true},
		{-1000, 2, 30, 1, 200, true},
		{-1050, 2, 3, 0, 150, true},
		{1000, 2, 0, 1, 0, false},
	} {
		got, ok := PmodDecimal(types.DecimalFromInt64(c.a), c.as, types.DecimalFromInt64(c.b), c.bs, 10, 2)
		if ok != c.wantOK || ok && got.Format(2) != types.DecimalFromInt64(c.want).Format(2) {
			t.Errorf("PmodDecimal(%d@%d, %d@%d) = %s, %v; want %d, %v", c.a, c.as, c.b, c.bs, got.Format(2), ok, c.want, c.wantOK)
		}
	}
}
