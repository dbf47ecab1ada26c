package sql

import (
	"regexp"
	"strings"
)

// regexpPatternArg gives, for each function taking a Java regular
// expression, the index of that argument.
var regexpPatternArg = map[string]int{
	"rlike": 1, "regexp_replace": 1, "regexp_extract": 1, "regexp_extract_all": 1,
	"regexp_count": 1, "regexp_substr": 1, "regexp_instr": 1, "split": 1,
}

// checkConstArgs applies the checks Spark makes on a function's constant
// arguments before the query runs, and refuses a constant regular
// expression the program could not compile: a refusal at validate is
// better than a flow that fails on its first row. It reports whether the
// arguments are acceptable. args are the checked arguments, asts the
// arguments as written.
func (c *checker) checkConstArgs(name string, args []Expr, asts []astExpr) bool {
	if i, ok := regexpPatternArg[name]; ok && i < len(args) {
		if !c.regexpPattern(name, args[i], asts[i]) {
			return false
		}
	}
	if name == "regexp_replace" && len(args) == 4 {
		// Spark's RegExpReplace: the position must be a constant > 0
		// (regexp-functions.sql.out: DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE).
		pos := args[3]
		if cast, ok := pos.(*Cast); ok {
			pos = cast.X
		}
		l, ok := pos.(*Literal)
		if !ok {
			c.errorAt(asts[3], "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "write the position as a number",
				"the position of regexp_replace must be a constant")
			return false
		}
		if n, isInt := integerValue(l.Value); isInt && n <= 0 {
			c.errorAt(asts[3], "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE", "positions start at 1",
				"the position of regexp_replace must be in (0, 2147483647], not %d", n)
			return false
		}
	}
	return true
}

// regexpPattern rejects a constant pattern that Go's RE2 engine, which
// the program uses, does not compile: Java syntax RE2 lacks (lookahead,
// lookbehind, backreferences, possessive quantifiers, atomic groups) is
// named as such; other errors are invalid patterns, as Spark's
// INVALID_PARAMETER_VALUE.PATTERN. Patterns computed per row are compiled
// where they are used.
func (c *checker) regexpPattern(fn string, x Expr, at astExpr) bool {
	if cast, ok := x.(*Cast); ok {
		x = cast.X
	}
	s, ok := stringLiteral(x)
	if !ok {
		return true
	}
	_, err := regexp.Compile(s)
	if err == nil {
		return true
	}
	msg := err.Error()
	if strings.Contains(msg, "invalid or unsupported Perl syntax") || strings.Contains(msg, "invalid escape sequence") ||
		strings.Contains(msg, "invalid nested repetition operator") {
		c.errorAt(at, "UNSUPPORTED_FEATURE.REGEXP_SYNTAX",
			"pipegen supports RE2 syntax (that of Go's regexp package): no lookahead (?=...), lookbehind (?<=...), backreferences \\1, possessive or atomic groups; rewrite the pattern, e.g. as several conditions",
			"the pattern %q of %s uses regular-expression syntax pipegen does not support: %s", s, fn, msg)
		return false
	}
	c.errorAt(at, "INVALID_PARAMETER_VALUE.PATTERN", "fix the regular expression",
		"the pattern %q of %s is not a valid regular expression: %s", s, fn, msg)
	return false
}

// integerValue returns an integer literal's value.
func integerValue(v any) (int64, bool) {
	switch n := v.(type) {
	case int8:
		return int64(n), true
	case int16:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	}
	return 0, false
}
