package sqlfn

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/types"
)

// isASCII reports whether s has only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// upperSpecial holds the unconditional multi-character upper-case mappings
// of Unicode's SpecialCasing.txt that Java's toUpperCase applies (and Go's
// simple mapping does not).
var upperSpecial = map[rune]string{
	'ß': "SS", 'ŉ': "ʼN", 'ǰ': "J̌", 'ΐ': "Ϊ́", 'ΰ': "Ϋ́", 'և': "ԵՒ",
	'ẖ': "H̱", 'ẗ': "T̈", 'ẘ': "W̊", 'ẙ': "Y̊", 'ẚ': "Aʾ",
	'ﬀ': "FF", 'ﬁ': "FI", 'ﬂ': "FL", 'ﬃ': "FFI", 'ﬄ': "FFL", 'ﬅ': "ST", 'ﬆ': "ST",
	'ﬓ': "ՄՆ", 'ﬔ': "ՄԵ", 'ﬕ': "ՄԻ", 'ﬖ': "ՎՆ", 'ﬗ': "ՄԽ",
}

// Upper returns s in upper case as Spark's upper (Java's
// String.toUpperCase(Locale.ROOT)): full Unicode mappings, so "ß" becomes
// "SS" and "ﬁ" becomes "FI".
func Upper(s string) string {
	if isASCII(s) {
		return strings.ToUpper(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if m, ok := upperSpecial[r]; ok {
			b.WriteString(m)
		} else {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// Lower returns s in lower case as Spark's lower (Java's
// String.toLowerCase(Locale.ROOT)): "İ" becomes "i̇" and a capital sigma
// at the end of a word becomes the final form "ς".
func Lower(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch r {
		case 'İ':
			b.WriteString("i\u0307")
		case 'Σ':
			before, _ := utf8.DecodeLastRuneInString(s[:i])
			after, _ := utf8.DecodeRuneInString(s[i+len("Σ"):])
			if i > 0 && unicode.IsLetter(before) && !unicode.IsLetter(after) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// InitCap returns s with the first letter of each space-separated word in
// title case and the rest in lower case (Spark's initcap: lower, then
// title-case the character after each ' ').
func InitCap(s string) string {
	s = Lower(s)
	var b strings.Builder
	b.Grow(len(s))
	start := true
	for _, r := range s {
		if start {
			r = unicode.ToTitle(r)
		}
		start = r == ' '
		b.WriteRune(r)
	}
	return b.String()
}

// trimSet builds the membership test for trim characters: Spark trims only
// ' ' by default, or any character of chars.
func trimSet(chars []string) func(rune) bool {
	if len(chars) == 0 {
		return func(r rune) bool { return r == ' ' }
	}
	set := chars[0]
	return func(r rune) bool { return strings.ContainsRune(set, r) }
}

// Trim removes leading and trailing spaces (' ' only, as Spark's trim), or
// any character of chars[0] when given (trim(BOTH chars FROM s)).
func Trim(s string, chars ...string) string { return strings.TrimFunc(s, trimSet(chars)) }

// LTrim removes leading spaces, or characters of chars[0] (ltrim).
func LTrim(s string, chars ...string) string { return strings.TrimLeftFunc(s, trimSet(chars)) }

// RTrim removes trailing spaces, or characters of chars[0] (rtrim).
func RTrim(s string, chars ...string) string { return strings.TrimRightFunc(s, trimSet(chars)) }

// Length returns the number of characters (Unicode code points) of s, as
// Spark's length and char_length.
func Length(s string) int32 { return int32(utf8.RuneCountInString(s)) }

// Substring returns substring(s, pos[, length]) with Spark's rules
// (UTF8String.substringSQL): pos is 1-based, 0 acts as 1, negative counts
// from the end; length defaults to the rest of the string; characters are
// code points. Out of range parts give "".
func Substring(s string, pos int32, length ...int32) string {
	n := int64(len(s))
	ascii := isASCII(s)
	if !ascii {
		n = int64(utf8.RuneCountInString(s))
	}
	l := int64(math32Max)
	if len(length) > 0 {
		l = int64(length[0])
	}
	var start int64
	switch {
	case pos > 0:
		start = int64(pos) - 1
	case pos < 0:
		start = n + int64(pos)
	}
	end := start + l
	start = max(start, 0)
	end = min(end, n)
	if start >= end {
		return ""
	}
	if ascii {
		return s[start:end]
	}
	// Walk to the byte offsets of the code points start and end.
	bs, be, i := -1, len(s), int64(0)
	for off := range s {
		if i == start {
			bs = off
		}
		if i == end {
			be = off
			break
		}
		i++
	}
	return s[bs:be]
}

const math32Max = 1<<31 - 1

// Replace returns s with every occurrence of search replaced by
// replacement[0] (or removed when it is absent: replace(s, search)). An
// empty search returns s, as Spark.
func Replace(s, search string, replacement ...string) string {
	if search == "" {
		return s
	}
	r := ""
	if len(replacement) > 0 {
		r = replacement[0]
	}
	return strings.ReplaceAll(s, search, r)
}

// ConcatWS joins the non-NULL parts with sep (Spark's concat_ws skips NULL
// arguments).
func ConcatWS(sep string, parts ...types.Null[string]) string {
	var b strings.Builder
	first := true
	for _, p := range parts {
		if !p.Valid {
			continue
		}
		if !first {
			b.WriteString(sep)
		}
		first = false
		b.WriteString(p.V)
	}
	return b.String()
}

var regexCache cache[string, *regexp.Regexp]

// compileRegex compiles a Java-style regular expression with Go's RE2
// syntax; nil when it does not compile (lookaround, backreferences).
func compileRegex(pattern string) *regexp.Regexp {
	return regexCache.get(pattern, func(p string) *regexp.Regexp {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil
		}
		return re
	})
}

// Split returns split(s, regex[, limit]) as Spark (Java's String.split with
// limit; limit <= 0, the default, means no limit and keeps trailing empty
// strings; limit > 0 gives at most limit parts, the last holding the rest).
// An empty regex splits into characters. ok is false when regex is not a
// valid RE2 expression (Java-only syntax such as lookaround is not
// supported). Empty matches right after a match are skipped, as Go's
// regexp does; Java would keep them.
func Split(s, regex string, limit ...int32) ([]string, bool) {
	lim := -1
	if len(limit) > 0 && limit[0] > 0 {
		lim = int(limit[0])
	}
	if regex == "" && s != "" {
		n := utf8.RuneCountInString(s)
		if lim > 0 && lim < n {
			n = lim
		}
		out := make([]string, 0, n)
		for i := 0; len(out) < n-1; i++ {
			_, size := utf8.DecodeRuneInString(s)
			out = append(out, s[:size])
			s = s[size:]
		}
		return append(out, s), true
	}
	var parts []string
	if lit := regexp.QuoteMeta(regex); lit == regex && regex != "" {
		parts = strings.SplitN(s, regex, lim)
	} else {
		re := compileRegex(regex)
		if re == nil {
			return nil, false
		}
		parts = javaSplit(re, s, lim)
	}
	return parts, true
}

// javaSplit is java.util.regex.Pattern.split with a non-zero limit.
func javaSplit(re *regexp.Regexp, s string, lim int) []string {
	var out []string
	index := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if lim > 0 && len(out) >= lim-1 {
			break
		}
		if m[1] == 0 {
			// No empty leading part for a zero-width match at the start.
			continue
		}
		out = append(out, s[index:m[0]])
		index = m[1]
	}
	if index == 0 && len(out) == 0 {
		return []string{s}
	}
	return append(out, s[index:])
}
