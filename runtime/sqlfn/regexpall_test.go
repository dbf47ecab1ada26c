package sqlfn

import (
	"slices"
	"testing"
)

// regexp_extract_all sees matches as Java's Matcher.find does, empty
// matches after a non-empty one included (regexp-functions.sql.out).
func TestRegexpExtractAllEmptyMatches(t *testing.T) {
	tests := []struct {
		s, pattern string
		idx        int32
		want       []string
	}{
		{"1a 2b 14m", `(\d+)?`, 1, []string{"1", "", "", "2", "", "", "14", "", ""}},
		{"a 2b 14m", `(\d+)?`, 1, []string{"", "", "2", "", "", "14", "", ""}},
		{"1a 2b 14m", `\d+`, 0, []string{"1", "2", "14"}},
		{"1a 2b 14m", `(\d+)?([a-z]+)`, 1, []string{"1", "2", "14"}},
		{"a 2b 14m", `(\d+)?([a-z]+)`, 1, []string{"", "2", "14"}},
	}
	for _, tt := range tests {
		got, ok := RegexpExtractAll(tt.s, tt.pattern, tt.idx)
		if !ok || !slices.Equal(got, tt.want) {
			t.Errorf("regexp_extract_all(%q, %q, %d) = %q, %v; want %q", tt.s, tt.pattern, tt.idx, got, ok, tt.want)
		}
	}
	if n, ok := RegexpCount("1a 2b 14m", `(\d+)?`); !ok || n != 9 {
		t.Errorf("regexp_count = %d, %v; want 9 (Java's find)", n, ok)
	}
}
