package source

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// fastFloat must agree bit for bit with strconv on what it accepts.
func TestFastFloatMatchesStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		nd := 1 + rng.IntN(15)
		b := make([]byte, 0, 20)
		if rng.IntN(2) == 0 {
			b = append(b, '-')
		}
		point := rng.IntN(nd + 1)
		for i := range nd {
			if i == point && i > 0 {
				b = append(b, '.')
			}
			b = append(b, byte('0'+rng.IntN(10)))
		}
		got, ok := fastFloat(b)
		want, err := strconv.ParseFloat(string(b), 64)
		if !ok || err != nil || got != want {
			t.Fatalf("fastFloat(%s) = %v, %v; strconv %v, %v", b, got, ok, want, err)
		}
	}
	for _, s := range []string{"", "-", ".5", "1.", "1e5", "1234567890123456", "+1", "1.2.3", "0x10"} {
		if _, ok := fastFloat([]byte(s)); ok {
			t.Errorf("fastFloat(%q) accepted it; it must leave it to strconv", s)
		}
	}
}

// daysFromCivil must agree with the time package over a wide range.
func TestDaysFromCivil(t *testing.T) {
	for d := time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() < 2500; d = d.AddDate(0, 0, 1) {
		if got, want := daysFromCivil(d.Year(), int(d.Month()), d.Day()), d.Unix()/86400; got != want {
			t.Fatalf("daysFromCivil(%s) = %d, want %d", d.Format(time.DateOnly), got, want)
		}
	}
}

func TestParseOffset(t *testing.T) {
	for in, want := range map[string]int64{
		"+1": 3600, "-01": -3600, "+01:30": 5400, "-0130": -5400, "+5:45": 20700, "+18:00": 64800,
	} {
		got, ok := parseOffset([]byte(in))
		if !ok || got != want*microsPerSecond {
			t.Errorf("parseOffset(%q) = %d, %v; want %d s", in, got, ok, want)
		}
	}
	for _, in := range []string{"+", "+123", "+18:01", "+19", "+01:3", "+01:60", "+01:30:00", "-a"} {
		if _, ok := parseOffset([]byte(in)); ok {
			t.Errorf("parseOffset(%q) accepted", in)
		}
	}
}
