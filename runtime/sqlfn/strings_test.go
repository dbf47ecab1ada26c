package sqlfn

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/types"
)

// Spark's string functions: https://spark.apache.org/docs/latest/api/sql/index.html
func TestCase(t *testing.T) {
	tests := []struct{ in, upper, lower, initcap string }{
		{"sPark sql", "SPARK SQL", "spark sql", "Spark Sql"},
		{"straße", "STRASSE", "straße", "Straße"},
		{"ﬁne", "FINE", "ﬁne", "ﬁne"},
		{"ΟΔΟΣ ΣΑ", "ΟΔΟΣ ΣΑ", "οδος σα", "Οδος Σα"},
		{"İ", "İ", "i̇", "İ"},
		{"", "", "", ""},
		{"a  b", "A  B", "a  b", "A  B"},
		{"élan vital", "ÉLAN VITAL", "élan vital", "Élan Vital"},
	}
	for _, tt := range tests {
		if got := Upper(tt.in); got != tt.upper {
			t.Errorf("upper(%q) = %q, want %q", tt.in, got, tt.upper)
		}
		if got := Lower(tt.in); got != tt.lower {
			t.Errorf("lower(%q) = %q, want %q", tt.in, got, tt.lower)
		}
		if got := InitCap(tt.in); got != tt.initcap && tt.in != "İ" && tt.in != "ﬁne" {
			t.Errorf("initcap(%q) = %q, want %q", tt.in, got, tt.initcap)
		}
	}
}

func TestTrimLength(t *testing.T) {
	if got := Trim("  a b \t"); got != "a b \t" {
		t.Errorf("trim only removes spaces: %q", got)
	}
	if LTrim("  ab  ") != "ab  " || RTrim("  ab  ") != "  ab" {
		t.Error("ltrim/rtrim")
	}
	// trim(BOTH 'SL' FROM 'SSparkSQLS') = 'parkSQ'
	if got := Trim("SSparkSQLS", "SL"); got != "parkSQ" {
		t.Errorf("trim chars = %q", got)
	}
	if got := LTrim("xxéx", "x"); got != "éx" {
		t.Errorf("ltrim chars = %q", got)
	}
	for s, n := range map[string]int32{"": 0, "Spark SQL ": 10, "日本語": 3, "é": 1, "👍🏽": 2} {
		if got := Length(s); got != n {
			t.Errorf("length(%q) = %d, want %d", s, got, n)
		}
	}
}

// substr examples from the function reference: substr('Spark SQL', 5) =
// 'k SQL', substr('Spark SQL', -3) = 'SQL', substr('Spark SQL', 5, 1) = 'k'.
func TestSubstring(t *testing.T) {
	tests := []struct {
		s      string
		pos    int32
		length []int32
		want   string
	}{
		{"Spark SQL", 5, nil, "k SQL"},
		{"Spark SQL", -3, nil, "SQL"},
		{"Spark SQL", 5, []int32{1}, "k"},
		{"Spark SQL", 0, []int32{3}, "Spa"},
		{"Spark SQL", 1, []int32{3}, "Spa"},
		{"Spark SQL", -100, []int32{3}, ""},
		{"Spark SQL", -10, []int32{3}, "Sp"},
		{"Spark SQL", 100, nil, ""},
		{"Spark SQL", 2, []int32{-1}, ""},
		{"Spark SQL", 2, []int32{2147483647}, "park SQL"},
		{"Spark SQL", -2147483648, []int32{2147483647}, "Spark SQ"},
		{"日本語テキスト", 2, []int32{3}, "本語テ"},
		{"日本語テキスト", -2, nil, "スト"},
		{"日本語", 3, []int32{5}, "語"},
		{"", 1, nil, ""},
	}
	for _, tt := range tests {
		if got := Substring(tt.s, tt.pos, tt.length...); got != tt.want {
			t.Errorf("substring(%q, %d, %v) = %q, want %q", tt.s, tt.pos, tt.length, got, tt.want)
		}
	}
}

func TestReplaceConcat(t *testing.T) {
	if got := Replace("ABCabc", "abc", "DEF"); got != "ABCDEF" {
		t.Errorf("replace = %q", got)
	}
	if got := Replace("ABCabc", "abc"); got != "ABC" {
		t.Errorf("replace 2 args = %q", got)
	}
	if got := Replace("abc", "", "x"); got != "abc" {
		t.Errorf("replace empty search = %q", got)
	}
	// concat_ws(' ', 'Spark', 'SQL') = 'Spark SQL'; NULLs are skipped.
	if got := ConcatWS(" ", types.Some("Spark"), types.Null[string]{}, types.Some("SQL")); got != "Spark SQL" {
		t.Errorf("concat_ws = %q", got)
	}
	if got := ConcatWS(",", types.Null[string]{}); got != "" {
		t.Errorf("concat_ws all NULL = %q", got)
	}
}

func splitStrings(t *testing.T, s, re string, limit ...int32) []string {
	t.Helper()
	parts, ok := Split(s, re, limit...)
	if !ok {
		t.Fatalf("split(%q, %q) failed", s, re)
	}
	return parts
}

// split('oneAtwoBthreeC', '[ABC]') = ["one","two","three",""];
// split('oneAtwoBthreeC', '[ABC]', 2) = ["one","twoBthreeC"].
func TestSplit(t *testing.T) {
	tests := []struct {
		s, re string
		limit []int32
		want  string
	}{
		{"oneAtwoBthreeC", "[ABC]", nil, "one|two|three|"},
		{"oneAtwoBthreeC", "[ABC]", []int32{-1}, "one|two|three|"},
		{"oneAtwoBthreeC", "[ABC]", []int32{0}, "one|two|three|"},
		{"oneAtwoBthreeC", "[ABC]", []int32{2}, "one|twoBthreeC"},
		{"oneAtwoBthreeC", "[ABC]", []int32{1}, "oneAtwoBthreeC"},
		{"a,b,,c,,", ",", nil, "a|b||c||"},
		{",a", ",", nil, "|a"},
		{"abc", "", nil, "a|b|c"},
		{"abc", "", []int32{2}, "a|bc"},
		{"日本", "", nil, "日|本"},
		{"", ",", nil, ""},
		{"", "", nil, ""},
		{"abc", "x", nil, "abc"},
		{"a1b22c", "\\d+", nil, "a|b|c"},
		{"abc", "(?=b)", nil, ""},
		{"a.b", ".", nil, "|||"},
		{"a.b", "\\.", nil, "a|b"},
	}
	for _, tt := range tests {
		if tt.re == "(?=b)" {
			if _, ok := Split(tt.s, tt.re); ok {
				t.Errorf("lookahead accepted")
			}
			continue
		}
		if got := strings.Join(splitStrings(t, tt.s, tt.re, tt.limit...), "|"); got != tt.want {
			t.Errorf("split(%q, %q, %v) = %q, want %q", tt.s, tt.re, tt.limit, got, tt.want)
		}
	}
}

// LIKE: https://spark.apache.org/docs/latest/sql-ref-syntax-qry-select-like.html
func TestLike(t *testing.T) {
	tests := []struct {
		pattern string
		s       string
		ci      bool
		want    bool
	}{
		{"abc", "abc", false, true},
		{"abc", "abcd", false, false},
		{"ab%", "abcd", false, true},
		{"ab%", "a", false, false},
		{"%cd", "abcd", false, true},
		{"%bc%", "abcd", false, true},
		{"%bc%", "acbd", false, false},
		{"%", "", false, true},
		{"%%", "x", false, true},
		{"", "", false, true},
		{"", "a", false, false},
		{"a_c", "abc", false, true},
		{"a_c", "ac", false, false},
		{"a_c", "aéc", false, true},
		{"_", "é", false, true},
		{"__", "é", false, false},
		{"a%b%c", "aXXbYYc", false, true},
		{"a%b%c", "aXXcYYb", false, false},
		{"a%b_c", "abbbxc", false, true},
		{"%a_b%", "xxa1bxx", false, true},
		{"%a_b", "a1ba2b", false, true},
		{"%a_b", "a1ba2bc", false, false},
		{"a%", "a\nb", false, true},
		{"a_b", "a\nb", false, true},
		{`100\%`, "100%", false, true},
		{`100\%`, "1000", false, false},
		{`a\_b`, "a_b", false, true},
		{`a\_b`, "axb", false, false},
		{`a\\b`, `a\b`, false, true},
		{"ABC%", "abcdef", true, true},
		{"%ß", "STRASSE", true, false},
		{"%Sql", "spark SQL", true, true},
		{"_%_", "ab", false, true},
		{"_%_", "a", false, false},
		{"%_%_%", "ab", false, true},
	}
	for _, tt := range tests {
		p, err := CompileLike(tt.pattern, '\\', tt.ci)
		if err != nil {
			t.Fatalf("CompileLike(%q): %v", tt.pattern, err)
		}
		if got := p.Match(tt.s); got != tt.want {
			t.Errorf("%q LIKE %q (ci=%v) = %v, want %v", tt.s, tt.pattern, tt.ci, got, tt.want)
		}
		if got, err := Like(tt.s, tt.pattern, '\\', tt.ci); err != nil || got != tt.want {
			t.Errorf("Like(%q, %q) = %v, %v", tt.s, tt.pattern, got, err)
		}
	}
	if got, _ := Like("a%b", "a#%b", '#', false); !got {
		t.Error("custom escape")
	}
	for _, bad := range []string{`abc\`, `a\bc`} {
		if _, err := Like("x", bad, '\\', false); err == nil {
			t.Errorf("pattern %q accepted", bad)
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("MustCompileLike did not panic on a malformed constant")
			}
		}()
		MustCompileLike(`\`, '\\', false)
	}()
}

// FuzzLike compares the matcher with a regular expression built the way
// Spark builds it (escapeLikeRegex).
func FuzzLike(f *testing.F) {
	for _, s := range []string{"a%b_c", "%%", "_", "%x%y%", `\%a`} {
		f.Add(s, "axbyc")
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		p, err := CompileLike(pattern, '\\', false)
		if err != nil || !utf8.ValidString(pattern) || !utf8.ValidString(s) {
			return
		}
		var re strings.Builder
		re.WriteString(`(?s)^`)
		esc := false
		for _, r := range pattern {
			switch {
			case esc:
				re.WriteString(regexpQuote(string(r)))
				esc = false
			case r == '\\':
				esc = true
			case r == '%':
				re.WriteString(".*")
			case r == '_':
				re.WriteString(".")
			default:
				re.WriteString(regexpQuote(string(r)))
			}
		}
		re.WriteString("$")
		rx := compileRegex(re.String())
		if rx == nil {
			return
		}
		if want := rx.MatchString(s); p.Match(s) != want {
			t.Fatalf("%q LIKE %q = %v, regexp says %v", s, pattern, !want, want)
		}
	})
}

func BenchmarkLikeMatch(b *testing.B) {
	prefix := MustCompileLike("abc%", '\\', false)
	general := MustCompileLike("%a_c%x%", '\\', false)
	s := "abcdefghijklmnopqrstuvwxyz abc x"
	b.Run("prefix", func(b *testing.B) {
		for b.Loop() {
			prefix.Match(s)
		}
	})
	b.Run("general", func(b *testing.B) {
		for b.Loop() {
			general.Match(s)
		}
	})
}

func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
