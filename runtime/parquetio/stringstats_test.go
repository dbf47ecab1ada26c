package parquetio_test

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// stringStats writes values as one STRING column and returns the min and
// max statistics (ok false when absent).
func stringStats(t *testing.T, values []string) (min, max string, hasMin, hasMax bool) {
	t.Helper()
	s := types.Schema{{Name: "s", Type: types.StringType, Nullable: true}}
	var rows [][]any
	for _, v := range values {
		rows = append(rows, []any{v})
	}
	_, info := writeFile(t, s, rows, parquetio.WriterOptions{})
	var st struct {
		Min map[string]string `json:"minValues"`
		Max map[string]string `json:"maxValues"`
	}
	if err := json.Unmarshal([]byte(info.Stats), &st); err != nil {
		t.Fatalf("%v in %s", err, info.Stats)
	}
	min, hasMin = st.Min["s"]
	max, hasMax = st.Max["s"]
	return
}

// TestLongStringStats: strings longer than 32 characters get Delta's
// truncated bounds (StatisticsCollection's truncateMinStringAgg and
// truncateMaxStringAgg), lengths counted in UTF-16 units as Java does.
func TestLongStringStats(t *testing.T) {
	a32 := strings.Repeat("a", 32)
	for _, tc := range []struct {
		name     string
		values   []string
		min, max string
	}{
		{"short strings are exact", []string{"b", a32}, a32, "b"},
		{"ASCII tie-breaker", []string{a32 + "xyz", a32 + "b"}, a32, a32 + "\x7f"},
		{"non-ASCII next character", []string{a32 + "é and more"}, a32, a32 + "\U0010FFFF"},
		{"a surrogate pair stays whole", []string{strings.Repeat("a", 31) + "😀z"}, strings.Repeat("a", 31) + "😀", strings.Repeat("a", 31) + "😀\x7f"},
		{"U+10FFFF is skipped over", []string{a32 + "\U0010FFFF\U0010FFFFb"}, a32, a32 + "\U0010FFFF\U0010FFFF\x7f"},
		{"an empty minimum", []string{"", a32 + "zz"}, "", a32 + "\x7f"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			min, max, okMin, okMax := stringStats(t, tc.values)
			if !okMin || !okMax || min != tc.min || max != tc.max {
				t.Errorf("min %q (%v), max %q (%v); want %q, %q", min, okMin, max, okMax, tc.min, tc.max)
			}
		})
	}
	// No upper bound within 64 units: a max made of U+10FFFF only.
	_, _, okMin, okMax := stringStats(t, []string{strings.Repeat("\U0010FFFF", 40)})
	if !okMin || okMax {
		t.Errorf("40 x U+10FFFF: min present %v, max present %v; want a min and no max", okMin, okMax)
	}
	// Whatever the values, min <= every value <= max in UTF-8 byte order
	// (how Delta compares strings for data skipping).
	rng := rand.New(rand.NewSource(1))
	alphabet := []rune{'a', 'b', '~', 0x7f, 'é', '中', '😀', 0x10FFFF}
	for i := 0; i < 300; i++ {
		var values []string
		for j := 0; j < 1+rng.Intn(4); j++ {
			var b strings.Builder
			for k := rng.Intn(70); k > 0; k-- {
				b.WriteRune(alphabet[rng.Intn(len(alphabet))])
			}
			values = append(values, b.String())
		}
		min, max, okMin, okMax := stringStats(t, values)
		for _, v := range values {
			if okMin && v < min || okMax && v > max {
				t.Fatalf("values %q: min %q max %q do not bound %q", values, min, max, v)
			}
		}
	}
}
