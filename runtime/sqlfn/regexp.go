package sqlfn

import (
	"regexp"
	"strings"
)

// This file holds the regexp_* functions. Patterns are Java regular
// expressions in Spark; pipegen runs them with Go's RE2, which accepts the
// common syntax (classes, groups, quantifiers, anchors, (?i)) but not
// lookaround or backreferences: such a pattern fails the row with
// INVALID_PARAMETER_VALUE.PATTERN (the checker rejects constant ones). A
// match is searched anywhere in the string (Java's Matcher.find).

// RLike reports whether s matches pattern anywhere (rlike, regexp_like).
// ok is false when pattern does not compile.
func RLike(s, pattern string) (bool, bool) {
	re := compileRegex(pattern)
	if re == nil {
		return false, false
	}
	return re.MatchString(s), true
}

// ValidRegex reports whether pattern compiles (with Go's RE2); the checker
// uses it on constant patterns.
func ValidRegex(pattern string) bool { return compileRegex(pattern) != nil }

// RegexpExtract returns regexp_extract(s, pattern[, idx]): group idx
// (default 1; 0 is the whole match) of the first match, "" when there is no
// match or the group did not take part. ok is false when pattern does not
// compile or has fewer than idx groups (Spark's
// INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX).
func RegexpExtract(s, pattern string, idx ...int32) (string, bool) {
	re := compileRegex(pattern)
	g := groupIndex(idx)
	if re == nil || g < 0 || g > re.NumSubexp() {
		return "", false
	}
	m := re.FindStringSubmatchIndex(s)
	if m == nil || m[2*g] < 0 {
		return "", true
	}
	return s[m[2*g]:m[2*g+1]], true
}

func groupIndex(idx []int32) int {
	if len(idx) > 0 {
		return int(idx[0])
	}
	return 1
}

// RegexpExtractAll returns regexp_extract_all(s, pattern[, idx]): group idx
// of every match, in order. ok as for RegexpExtract.
func RegexpExtractAll(s, pattern string, idx ...int32) ([]string, bool) {
	re := compileRegex(pattern)
	g := groupIndex(idx)
	if re == nil || g < 0 || g > re.NumSubexp() {
		return nil, false
	}
	out := []string{}
	for _, m := range findAllJava(re, pattern, s) {
		if m[2*g] < 0 {
			out = append(out, "")
			continue
		}
		out = append(out, s[m[2*g]:m[2*g+1]])
	}
	return out, true
}

// RegexpCount returns regexp_count(s, pattern): the number of matches.
func RegexpCount(s, pattern string) (int32, bool) {
	re := compileRegex(pattern)
	if re == nil {
		return 0, false
	}
	return int32(len(findAllJava(re, pattern, s))), true
}

// findAllJava returns the successive matches of re in s as Java's
// Matcher.find (which Spark uses) sees them: unlike Go's FindAll, an empty
// match right after a non-empty one counts ('(\d+)?' in "1a" matches "1",
// then "" before the a, then "" at the end). Patterns whose empty matches
// depend on what precedes them (^, \A, \b, \B) keep Go's matches.
func findAllJava(re *regexp.Regexp, pattern, s string) [][]int {
	ms := re.FindAllStringSubmatchIndex(s, -1)
	if strings.ContainsAny(pattern, "^") || strings.Contains(pattern, `\b`) || strings.Contains(pattern, `\B`) || strings.Contains(pattern, `\A`) {
		return ms
	}
	var out [][]int
	for i, m := range ms {
		out = append(out, m)
		e := m[1]
		if m[0] == e || i+1 < len(ms) && ms[i+1][0] == e {
			continue // empty itself, or the next match starts here anyway
		}
		if rest := re.FindStringSubmatchIndex(s[e:]); rest != nil && rest[0] == 0 && rest[1] == 0 {
			for j := range rest {
				if rest[j] >= 0 {
					rest[j] += e
				}
			}
			out = append(out, rest)
		}
	}
	return out
}

// RegexpSubstr returns regexp_substr(s, pattern): the first match; found
// is false (a NULL result) when there is none or it is empty (Spark gives
// NULL for regexp_substr('1a', ”)). ok is false when pattern does not
// compile.
func RegexpSubstr(s, pattern string) (v string, found, ok bool) {
	re := compileRegex(pattern)
	if re == nil {
		return "", false, false
	}
	m := re.FindStringIndex(s)
	if m == nil || m[0] == m[1] {
		return "", false, true
	}
	return s[m[0]:m[1]], true, true
}

// RegexpReplace returns regexp_replace(s, pattern, rep[, pos]): every match
// at or after character pos (default 1) replaced by rep, where $n refers
// to group n and a backslash quotes the next character (Java's
// Matcher.appendReplacement). ok is false when pattern does not compile,
// pos < 1, or rep names a group the pattern lacks.
func RegexpReplace(s, pattern, rep string, pos ...int32) (string, bool) {
	re := compileRegex(pattern)
	if re == nil {
		return "", false
	}
	start := 0
	if len(pos) > 0 {
		if pos[0] < 1 {
			return "", false
		}
		start = byteOffset(s, int(pos[0]-1))
	}
	var b strings.Builder
	b.WriteString(s[:start])
	last := start
	for _, m := range re.FindAllStringSubmatchIndex(s[start:], -1) {
		b.WriteString(s[last : start+m[0]])
		if !javaReplacement(&b, rep, s[start:], m, re.NumSubexp()) {
			return "", false
		}
		last = start + m[1]
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// javaReplacement appends rep for match m of s, expanding $n (the longest
// group number that exists) and \x escapes.
func javaReplacement(b *strings.Builder, rep, s string, m []int, groups int) bool {
	for i := 0; i < len(rep); i++ {
		c := rep[i]
		switch {
		case c == '\\' && i+1 < len(rep):
			i++
			b.WriteByte(rep[i])
		case c == '\\':
			return false
		case c == '$':
			if i+1 >= len(rep) || rep[i+1] < '0' || rep[i+1] > '9' {
				return false
			}
			i++
			g := int(rep[i] - '0')
			for i+1 < len(rep) && rep[i+1] >= '0' && rep[i+1] <= '9' {
				n := g*10 + int(rep[i+1]-'0')
				if n > groups {
					break
				}
				g = n
				i++
			}
			if g > groups {
				return false
			}
			if m[2*g] >= 0 {
				b.WriteString(s[m[2*g]:m[2*g+1]])
			}
		default:
			b.WriteByte(c)
		}
	}
	return true
}

// RegexpInstr returns regexp_instr(s, pattern[, idx]): the 1-based
// position (in UTF-16 units, as Java's Matcher.start) of group idx
// (default 0, the whole match) of the first match, 0 when there is none.
// ok is false for an invalid pattern or group.
func RegexpInstr(s, pattern string, idx ...int32) (int32, bool) {
	re := compileRegex(pattern)
	g := 0
	if len(idx) > 0 {
		g = int(idx[0])
	}
	if re == nil || g < 0 || g > re.NumSubexp() {
		return 0, false
	}
	m := re.FindStringSubmatchIndex(s)
	if m == nil || m[2*g] < 0 {
		return 0, true
	}
	n := int32(0)
	for _, r := range s[:m[2*g]] {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n + 1, true
}
