package types

import (
	"bytes"
	"math"
	"math/big"
	"strings"
	"testing"
)

// dec parses an unscaled integer for tests.
func dec(t testing.TB, s string) Decimal {
	t.Helper()
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad test integer %q", s)
	}
	d, ok := DecimalFromBigInt(b)
	if !ok {
		t.Fatalf("test integer %q does not fit 128 bits", s)
	}
	return d
}

const max38 = "99999999999999999999999999999999999999" // 10^38 - 1, DECIMAL(38,0)'s largest

func TestDecimalBigRoundTrip(t *testing.T) {
	for _, s := range []string{"0", "1", "-1", "9223372036854775807", "-9223372036854775808",
		"18446744073709551616", "-18446744073709551616", max38, "-" + max38,
		"170141183460469231731687303715884105727", "-170141183460469231731687303715884105728"} {
		d := dec(t, s)
		if got := d.BigInt().String(); got != s {
			t.Errorf("BigInt(%s) = %s", s, got)
		}
		if got := d.String(); got != s {
			t.Errorf("String(%s) = %s", s, got)
		}
	}
	if _, ok := DecimalFromBigInt(new(big.Int).Lsh(big.NewInt(1), 127)); ok {
		t.Error("2^127 fits 128 bits")
	}
}

func TestDecimalArith(t *testing.T) {
	vals := []string{"0", "1", "-1", "7", "-13", "9223372036854775807", "-9223372036854775808",
		"18446744073709551615", "123456789012345678901234567890", "-" + max38, max38,
		"85070591730234615865843651857942052864", "-85070591730234615865843651857942052864"}
	lim := new(big.Int).Lsh(big.NewInt(1), 127)
	fits := func(b *big.Int) bool { return b.Cmp(lim) < 0 && b.Cmp(new(big.Int).Neg(lim)) >= 0 }
	for _, as := range vals {
		for _, bs := range vals {
			a, b := dec(t, as), dec(t, bs)
			ab, bb := a.BigInt(), b.BigInt()
			check := func(op string, got Decimal, ok bool, want *big.Int) {
				t.Helper()
				if ok != fits(want) {
					t.Errorf("%s %s %s: ok = %v, want %v", as, op, bs, ok, fits(want))
					return
				}
				if ok && got.BigInt().Cmp(want) != 0 {
					t.Errorf("%s %s %s = %s, want %s", as, op, bs, got, want)
				}
			}
			s, ok := a.Add(b)
			check("+", s, ok, new(big.Int).Add(ab, bb))
			s, ok = a.Sub(b)
			check("-", s, ok, new(big.Int).Sub(ab, bb))
			s, ok = a.Mul(b)
			check("*", s, ok, new(big.Int).Mul(ab, bb))
			if c := a.Cmp(b); c != ab.Cmp(bb) {
				t.Errorf("Cmp(%s, %s) = %d", as, bs, c)
			}
		}
	}
}

func TestDecimalRescale(t *testing.T) {
	tests := []struct {
		v        string
		from, to int
		want     string
		ok       bool
	}{
		{"125", 2, 1, "13", true},   // 1.25 → 1.3 (HALF_UP)
		{"-125", 2, 1, "-13", true}, // -1.25 → -1.3 (ties away from zero)
		{"124", 2, 1, "12", true},
		{"149", 2, 0, "1", true},
		{"150", 2, 0, "2", true},
		{"-150", 2, 0, "-2", true},
		{"5", 1, 0, "1", true},
		{"4", 1, 0, "0", true},
		{"12", 0, 2, "1200", true},
		{max38, 0, 38, "", false},
		{max38, 38, 0, "1", true},
		{max38, 20, 0, "1000000000000000000", true},
		{"-" + max38, 38, 10, "-10000000000", true},
		{"49999999999999999999", 20, 0, "0", true},
		{"50000000000000000000", 20, 0, "1", true},
		{max38, 0, 39, "", false},
		{"1", 0, 38, "1" + strings.Repeat("0", 38), true},
		{"7", 50, 0, "0", true},
		{"0", 0, 60, "0", true},
	}
	for _, tt := range tests {
		got, ok := dec(t, tt.v).Rescale(tt.from, tt.to)
		if ok != tt.ok || ok && got.String() != tt.want {
			t.Errorf("Rescale(%s, %d, %d) = %s, %v; want %s, %v", tt.v, tt.from, tt.to, got, ok, tt.want, tt.ok)
		}
	}
}

func TestDecimalFormat(t *testing.T) {
	tests := []struct {
		v     string
		scale int
		want  string
	}{
		{"-1230", 2, "-12.30"},
		{"5", 2, "0.05"},
		{"-5", 3, "-0.005"},
		{"0", 2, "0.00"},
		{"0", 0, "0"},
		{"123", 0, "123"},
		{"12", -2, "1200"},
		{max38, 38, "0." + max38},
		{"-" + max38, 10, "-9999999999999999999999999999.9999999999"},
		{"10000000000000000000", 19, "1.0000000000000000000"},
	}
	for _, tt := range tests {
		if got := dec(t, tt.v).Format(tt.scale); got != tt.want {
			t.Errorf("Format(%s, %d) = %q, want %q", tt.v, tt.scale, got, tt.want)
		}
	}
}

// TestParseDecimal follows Java's BigDecimal(String) grammar, which Spark's
// CAST(string AS DECIMAL(p,s)) uses, with HALF_UP rounding to the scale
// (sql-ref-ansi-compliance.html, "Cast").
func TestParseDecimal(t *testing.T) {
	tests := []struct {
		s        string
		p, scale int
		want     string // formatted with scale; "" when !ok
	}{
		{"12.345", 10, 2, "12.35"},
		{"-12.345", 10, 2, "-12.35"},
		{"12.344", 10, 2, "12.34"},
		{"+1", 5, 2, "1.00"},
		{".5", 5, 0, "1"},
		{"-.5", 5, 0, "-1"},
		{"5.", 5, 0, "5"},
		{"1e3", 5, 0, "1000"},
		{"1E+3", 5, 1, "1000.0"},
		{"1.5e-2", 5, 3, "0.015"},
		{"1.5e-2", 5, 2, "0.02"},
		{"0.0000001", 10, 7, "0.0000001"},
		{"000000000000000000000000000000000000000000000012.5", 3, 1, "12.5"},
		{"0.000000000000000000000000000000000000000000000000125", 5, 2, "0.00"},
		{max38, 38, 0, max38},
		{max38 + "9", 38, 0, ""},
		{"99999.995", 7, 2, ""}, // rounds to 100000.00: 8 digits
		{"99999.994", 7, 2, "99999.99"},
		{"1e38", 38, 0, ""},
		{"1e37", 38, 0, "1" + strings.Repeat("0", 37)},
		{"1e999999999999", 38, 0, ""},
		{"1e-999999999999", 38, 2, "0.00"},
		{"0e99999999", 38, 2, "0.00"},
		{"-0.0", 3, 1, "0.0"},
		{"", 5, 0, ""},
		{"-", 5, 0, ""},
		{".", 5, 0, ""},
		{"1e", 5, 0, ""},
		{"1e+", 5, 0, ""},
		{"1..2", 5, 0, ""},
		{"1.2.", 5, 0, ""},
		{"abc", 5, 0, ""},
		{" 1", 5, 0, ""},
		{"1 ", 5, 0, ""},
		{"1d", 5, 0, ""},
		{"0x10", 5, 0, ""},
		{"12345678901234567890123456789012345678901234567890e-20", 38, 0, "123456789012345678901234567890"},
	}
	for _, tt := range tests {
		d, ok := ParseDecimal(tt.s, tt.p, tt.scale)
		got := ""
		if ok {
			got = d.Format(tt.scale)
		}
		if got != tt.want {
			t.Errorf("ParseDecimal(%q, %d, %d) = %q, want %q", tt.s, tt.p, tt.scale, got, tt.want)
		}
	}
}

func TestDecimalFloat64(t *testing.T) {
	tests := []struct {
		v     string
		scale int
		want  float64
	}{
		{"125", 2, 1.25},
		{"-1", 1, -0.1},
		{"1", 0, 1},
		{max38, 0, 1e38},
		{max38, 38, 1},
		{"12345678901234567890", 10, 1234567890.1234567890},
	}
	for _, tt := range tests {
		if got := dec(t, tt.v).Float64(tt.scale); got != tt.want {
			t.Errorf("Float64(%s, %d) = %v, want %v", tt.v, tt.scale, got, tt.want)
		}
	}
	ftests := []struct {
		f        float64
		p, scale int
		want     string
	}{
		{0.1, 10, 2, "0.10"},
		{2.675, 10, 2, "2.68"}, // Double.toString gives "2.675": HALF_UP on the decimal text
		{-2.5, 10, 0, "-3"},
		{1e20, 38, 0, "100000000000000000000"},
		{1e40, 38, 0, ""},
		{math.NaN(), 10, 2, ""},
		{math.Inf(1), 10, 2, ""},
		{5e-324, 10, 2, "0.00"},
	}
	for _, tt := range ftests {
		d, ok := DecimalFromFloat64(tt.f, tt.p, tt.scale)
		got := ""
		if ok {
			got = d.Format(tt.scale)
		}
		if got != tt.want {
			t.Errorf("DecimalFromFloat64(%v, %d, %d) = %q, want %q", tt.f, tt.p, tt.scale, got, tt.want)
		}
	}
}

func TestDecimalBytes(t *testing.T) {
	tests := []struct {
		v string
		n int
	}{
		{"0", 1}, {"1", 1}, {"-1", 1}, {"127", 1}, {"-128", 1}, {"255", 2},
		{"-32768", 2}, {max38, 16}, {"-" + max38, 16}, {"-12345", 20}, {"12345", 20},
	}
	for _, tt := range tests {
		d := dec(t, tt.v)
		b := d.AppendBytes(nil, tt.n)
		if len(b) != tt.n {
			t.Fatalf("AppendBytes(%s, %d) has %d bytes", tt.v, tt.n, len(b))
		}
		// The oracle: big-endian two's complement from math/big.
		want := tt.v
		got, ok := DecimalFromBytes(b)
		if !ok || got.String() != want {
			t.Errorf("DecimalFromBytes(AppendBytes(%s, %d) = %x) = %s, %v", tt.v, tt.n, b, got, ok)
		}
	}
	if d, ok := DecimalFromBytes([]byte{0xff}); !ok || d.String() != "-1" {
		t.Errorf("DecimalFromBytes(ff) = %s", d)
	}
	if d, ok := DecimalFromBytes(nil); !ok || d.Sign() != 0 {
		t.Errorf("DecimalFromBytes(nil) = %s", d)
	}
	over := append([]byte{0x01}, bytes.Repeat([]byte{0}, 16)...)
	if _, ok := DecimalFromBytes(over); ok {
		t.Error("17-byte 2^128 accepted")
	}
	// 0x00 followed by a 16-byte value with the top bit set is 2^127 + ...:
	// too big although the extra byte is a plain zero.
	big127 := append([]byte{0x00, 0x80}, bytes.Repeat([]byte{0}, 15)...)
	if _, ok := DecimalFromBytes(big127); ok {
		t.Error("2^127 accepted")
	}
}

func TestDecimalPrecision(t *testing.T) {
	if !dec(t, max38).FitsPrecision(38) || dec(t, max38).FitsPrecision(37) {
		t.Error("FitsPrecision(10^38-1)")
	}
	if !dec(t, "-999").FitsPrecision(3) || dec(t, "-1000").FitsPrecision(3) {
		t.Error("FitsPrecision(-999/-1000, 3)")
	}
	for _, tt := range []struct {
		v string
		n int
	}{{"0", 1}, {"9", 1}, {"-10", 2}, {max38, 38}, {"170141183460469231731687303715884105727", 39}} {
		if got := dec(t, tt.v).Digits(); got != tt.n {
			t.Errorf("Digits(%s) = %d, want %d", tt.v, got, tt.n)
		}
	}
}

func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"12.345", "-1e-3", ".5", max38, "1e99999999999999", "0.0000000000000000000000000000000000000000001"} {
		f.Add(s, 38, 2)
	}
	f.Fuzz(func(t *testing.T, s string, p, scale int) {
		p = 1 + abs(p)%38
		scale = abs(scale) % (p + 1)
		d, ok := ParseDecimal(s, p, scale)
		if !ok {
			return
		}
		if !d.FitsPrecision(p) {
			t.Fatalf("ParseDecimal(%q, %d, %d) = %s beyond the precision", s, p, scale, d)
		}
		// Formatting and parsing again is the identity.
		back, ok := ParseDecimal(d.Format(scale), p, scale)
		if !ok || back != d {
			t.Fatalf("round trip of %q: %s → %q → %s, %v", s, d, d.Format(scale), back, ok)
		}
	})
}

func abs(x int) int {
	if x < 0 {
		if x == math.MinInt {
			return 0
		}
		return -x
	}
	return x
}

func BenchmarkDecimalAdd(b *testing.B) {
	x, y := DecimalFromInt64(123456789), DecimalFromInt64(-987654321)
	for b.Loop() {
		x, _ = x.Add(y)
	}
}

func BenchmarkDecimalFormat(b *testing.B) {
	x := DecimalFromInt64(-123456789)
	for b.Loop() {
		_ = x.Format(4)
	}
}

func TestDecimalTrunc(t *testing.T) {
	for _, tt := range []struct {
		v        string
		from, to int
		want     string
	}{
		{"199", 2, 0, "1"}, {"-199", 2, 0, "-1"}, {max38, 38, 0, "0"}, {max38, 0, 0, max38},
		{max38, 19, 0, "9999999999999999999"}, {"-" + max38, 40, 0, "0"}, {"12", 0, 3, "12"},
	} {
		if got := dec(t, tt.v).Trunc(tt.from, tt.to).String(); got != tt.want {
			t.Errorf("Trunc(%s, %d, %d) = %s, want %s", tt.v, tt.from, tt.to, got, tt.want)
		}
	}
}
