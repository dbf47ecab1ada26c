package sqlfn

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// LikePattern is a compiled SQL LIKE pattern: '_' matches any one
// character, '%' any sequence (newlines included), and the escape
// character makes the next '_', '%' or escape character literal (Spark's
// StringUtils.escapeLikeRegex). ILIKE lower-cases both sides, as Spark's
// ILike = Like(lower(x), lower(pattern)).
type LikePattern struct {
	kind likeKind
	// lit is the literal of the fast paths (exact, prefix, suffix, infix).
	lit string
	// segs are the parts between '%' for the general matcher; each holds
	// literal text and '_' wildcards (anyChar).
	segs           [][]likeTok
	leadingPct     bool
	trailingPct    bool
	ci             bool
	hasUnderscores bool
}

type likeKind uint8

const (
	likeExact  likeKind = iota // "abc"
	likePrefix                 // "abc%"
	likeSuffix                 // "%abc"
	likeInfix                  // "%abc%"
	likeAll                    // "%" or "%%..."
	likeGeneral
)

// likeTok is a literal run, or one '_' when any is set.
type likeTok struct {
	lit string
	any bool
}

// CompileLike compiles pattern; escape is the ESCAPE character (Spark's
// default is '\\') and ci selects ILIKE. It fails, as Spark, when the
// escape character ends the pattern (INVALID_FORMAT.ESC_AT_THE_END) or
// precedes a character other than '_', '%' or itself
// (INVALID_FORMAT.ESC_IN_THE_MIDDLE); the error is an *Error.
func CompileLike(pattern string, escape rune, ci bool) (*LikePattern, error) {
	if ci {
		pattern = Lower(pattern)
	}
	p := &LikePattern{ci: ci}
	var seg []likeTok
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			seg = append(seg, likeTok{lit: lit.String()})
			lit.Reset()
		}
	}
	pcts := 0
	for i := 0; i < len(pattern); {
		r, size := utf8.DecodeRuneInString(pattern[i:])
		i += size
		switch {
		case r == escape:
			if i >= len(pattern) {
				return nil, &Error{Class: "INVALID_FORMAT.ESC_AT_THE_END",
					Message: fmt.Sprintf("the escape character is not allowed to end the pattern %s", FormatString(pattern)),
					Hint:    "escape only '_', '%' and the escape character"}
			}
			next, n := utf8.DecodeRuneInString(pattern[i:])
			if next != '_' && next != '%' && next != escape {
				return nil, &Error{Class: "INVALID_FORMAT.ESC_IN_THE_MIDDLE",
					Message: fmt.Sprintf("the escape character is not allowed to precede %s in the pattern %s", FormatString(string(next)), FormatString(pattern)),
					Hint:    "escape only '_', '%' and the escape character"}
			}
			i += n
			lit.WriteRune(next)
		case r == '_':
			flush()
			seg = append(seg, likeTok{any: true})
			p.hasUnderscores = true
		case r == '%':
			flush()
			if pcts == 0 && len(seg) == 0 && len(p.segs) == 0 {
				p.leadingPct = true
			}
			pcts++
			if len(seg) > 0 {
				p.segs = append(p.segs, seg)
				seg = nil
			}
		default:
			lit.WriteString(pattern[i-size : i]) // the bytes as given, even invalid UTF-8
		}
	}
	flush()
	p.trailingPct = len(seg) == 0 && pcts > 0
	if len(seg) > 0 {
		p.segs = append(p.segs, seg)
	}
	// Fast paths: no '_' and at most one literal.
	p.kind = likeGeneral
	if !p.hasUnderscores && len(p.segs) <= 1 {
		if len(p.segs) == 1 {
			p.lit = p.segs[0][0].lit
		}
		switch {
		case len(p.segs) == 0 && pcts > 0:
			p.kind = likeAll
		case pcts == 0:
			p.kind = likeExact
		case p.leadingPct && p.trailingPct:
			p.kind = likeInfix
		case p.trailingPct:
			p.kind = likePrefix
		case p.leadingPct:
			p.kind = likeSuffix
		}
	}
	return p, nil
}

// MustCompileLike is CompileLike for constant patterns that the checker
// has validated; it panics on a malformed pattern. Generated code uses it
// in package-level variables.
func MustCompileLike(pattern string, escape rune, ci bool) *LikePattern {
	p, err := CompileLike(pattern, escape, ci)
	if err != nil {
		panic("sqlfn: " + err.Error())
	}
	return p
}

// Match reports whether s matches the whole pattern.
func (p *LikePattern) Match(s string) bool {
	if p.ci {
		s = Lower(s)
	}
	switch p.kind {
	case likeExact:
		return s == p.lit
	case likePrefix:
		return strings.HasPrefix(s, p.lit)
	case likeSuffix:
		return strings.HasSuffix(s, p.lit)
	case likeInfix:
		return strings.Contains(s, p.lit)
	case likeAll:
		return true
	}
	return p.matchGeneral(s)
}

// matchSeg matches seg at the start of s and returns the bytes consumed.
func matchSeg(seg []likeTok, s string) (int, bool) {
	n := 0
	for _, t := range seg {
		if t.any {
			if n >= len(s) {
				return 0, false
			}
			_, size := utf8.DecodeRuneInString(s[n:])
			n += size
			continue
		}
		if !strings.HasPrefix(s[n:], t.lit) {
			return 0, false
		}
		n += len(t.lit)
	}
	return n, true
}

// matchGeneral matches segments separated by '%'. Taking the leftmost
// match of each floating segment is optimal (greedy works for '%' globs),
// so this is linear in the number of candidate positions.
func (p *LikePattern) matchGeneral(s string) bool {
	segs := p.segs
	if len(segs) == 0 {
		return s == "" || p.leadingPct || p.trailingPct
	}
	pos := 0
	first := 0
	if !p.leadingPct {
		n, ok := matchSeg(segs[0], s)
		if !ok {
			return false
		}
		if len(segs) == 1 && !p.trailingPct {
			return n == len(s)
		}
		pos, first = n, 1
	}
	last := len(segs)
	if !p.trailingPct {
		last-- // the final segment must end the string: matched below
	}
	for _, seg := range segs[first:last] {
		found := false
		for i := pos; i <= len(s); {
			if n, ok := matchSeg(seg, s[i:]); ok {
				pos, found = i+n, true
				break
			}
			if i == len(s) {
				break
			}
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
		if !found {
			return false
		}
	}
	if p.trailingPct {
		return true
	}
	// The last segment is anchored at the end: try every start at or after
	// pos (its width is fixed in characters, not bytes).
	seg := segs[len(segs)-1]
	for i := pos; i <= len(s); {
		if n, ok := matchSeg(seg, s[i:]); ok && i+n == len(s) {
			return true
		}
		if i == len(s) {
			break
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return false
}

var likeCache cache[likeKey, likeEntry]

type likeKey struct {
	pattern string
	escape  rune
	ci      bool
}

type likeEntry struct {
	p   *LikePattern
	err error
}

// Like reports whether s matches pattern (x LIKE pattern, or ILIKE when ci)
// for a pattern known only at run time; compiled patterns are cached. The
// error is a malformed pattern (an *Error of class INVALID_FORMAT.*).
func Like(s, pattern string, escape rune, ci bool) (bool, error) {
	e := likeCache.get(likeKey{pattern, escape, ci}, func(k likeKey) likeEntry {
		p, err := CompileLike(k.pattern, k.escape, k.ci)
		return likeEntry{p, err}
	})
	if e.err != nil {
		return false, e.err
	}
	return e.p.Match(s), nil
}
