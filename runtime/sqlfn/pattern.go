package sqlfn

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Spark's datetime patterns
// (https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html),
// used by to_timestamp, to_date, try_to_timestamp and date_format. Supported
// letters: G y D M L d Q q E F a h K k H m s S V z O X x Z; text in single
// quotes ('' is a quote); [ ] optional sections. Week-based letters (Y w W u
// e c) are rejected, as Spark 3+ rejects them; F (formatted as java.time
// does, the aligned day of the week in the month: (day-1)%7+1) only
// formats, parsing with it fails, as Spark refuses it for parsing. 'y' is the proleptic
// year unless G is present (Spark turns y into u). Parsing is
// case-insensitive and strict: every field must be in range, the whole
// text must be consumed, and missing fields default to 1970-01-01
// 00:00:00 (Spark's DateTimeFormatterHelper).

// dtItem is one element of a compiled pattern.
type dtItem struct {
	letter rune // 0 for a literal, '[' for an optional section
	count  int
	lit    string
	opt    []dtItem // the items of an optional section
	// reserve is the number of digits that fixed-width numeric fields
	// right after this one need (Java's adjacent value parsing).
	reserve int
}

// dtPattern is a compiled datetime pattern.
type dtPattern struct {
	items []dtItem
	era   bool // 'G' present: 'y' is the year of era
}

var maxLetters = map[rune]int{
	'G': 4, 'y': 6, 'D': 3, 'M': 4, 'L': 4, 'd': 2, 'Q': 4, 'q': 4, 'E': 4, 'a': 1,
	'h': 2, 'K': 2, 'k': 2, 'H': 2, 'm': 2, 's': 2, 'S': 9, 'V': 2, 'z': 4, 'O': 4,
	'X': 5, 'x': 5, 'Z': 5, 'F': 1,
}

// CompileDatetimePattern checks a Spark datetime pattern; the checker
// calls it on constant patterns so that errors are reported before run
// time. The error names the offending part.
func CompileDatetimePattern(pattern string) error {
	_, err := compilePattern(pattern)
	return err
}

// CompileDatetimeParsePattern checks a Spark datetime pattern used to
// parse text (to_timestamp, to_date, unix_timestamp, a file source's
// timestamp_format): CompileDatetimePattern's rules, and the letters Spark
// formats with but refuses for parsing (E, F, q, Q: DateTimeFormatterHelper's
// unsupportedLettersForParsing) are errors.
func CompileDatetimeParsePattern(pattern string) error {
	p, err := compilePattern(pattern)
	if err != nil {
		return err
	}
	return p.checkParsing(p.items, pattern)
}

func (p *dtPattern) checkParsing(items []dtItem, pattern string) error {
	for _, it := range items {
		switch it.letter {
		case 'E', 'F', 'q', 'Q':
			return fmt.Errorf("pattern letter %q cannot be used to parse (in %q); it only formats", it.letter, pattern)
		case '[':
			if err := p.checkParsing(it.opt, pattern); err != nil {
				return err
			}
		}
	}
	return nil
}

func compilePattern(pattern string) (*dtPattern, error) {
	p := &dtPattern{}
	stack := [][]dtItem{nil}
	addLit := func(s string) {
		top := &stack[len(stack)-1]
		if n := len(*top); n > 0 && (*top)[n-1].letter == 0 {
			(*top)[n-1].lit += s
			return
		}
		*top = append(*top, dtItem{lit: s})
	}
	for i := 0; i < len(pattern); {
		r, size := utf8.DecodeRuneInString(pattern[i:])
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			n := 1
			for i+n < len(pattern) && rune(pattern[i+n]) == r {
				n++
			}
			max, ok := maxLetters[r]
			switch {
			case !ok:
				return nil, fmt.Errorf("unsupported datetime pattern letter %q in %q", r, pattern)
			case n > max || r == 'V' && n != 2 || r == 'O' && n != 1 && n != 4:
				return nil, fmt.Errorf("too many or too few pattern letters %q in %q", strings.Repeat(string(r), n), pattern)
			}
			if r == 'G' {
				p.era = true
			}
			top := &stack[len(stack)-1]
			*top = append(*top, dtItem{letter: r, count: n})
			i += n
		case r == '\'':
			j := i + 1
			var lit strings.Builder
			for {
				k := strings.IndexByte(pattern[j:], '\'')
				if k < 0 {
					return nil, fmt.Errorf("unterminated quote in datetime pattern %q", pattern)
				}
				lit.WriteString(pattern[j : j+k])
				j += k + 1
				if j < len(pattern) && pattern[j] == '\'' {
					lit.WriteByte('\'')
					j++
					continue
				}
				break
			}
			if j == i+2 {
				addLit("'") // '' outside a quoted text
			} else {
				addLit(lit.String())
			}
			i = j
		case r == '[':
			stack = append(stack, nil)
			i++
		case r == ']':
			if len(stack) == 1 {
				return nil, fmt.Errorf("unbalanced ']' in datetime pattern %q", pattern)
			}
			opt := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			top := &stack[len(stack)-1]
			*top = append(*top, dtItem{letter: '[', opt: opt})
			i++
		case r == '{' || r == '}' || r == '#':
			return nil, fmt.Errorf("reserved character %q in datetime pattern %q", r, pattern)
		default:
			addLit(pattern[i : i+size])
			i += size
		}
	}
	if len(stack) != 1 {
		return nil, fmt.Errorf("unbalanced '[' in datetime pattern %q", pattern)
	}
	p.items = stack[0]
	setReserves(p.items)
	return p, nil
}

// numWidth returns the digit bounds of a numeric item, or ok=false for
// text and zone items.
func numWidth(it dtItem) (lo, hi int, ok bool) {
	switch it.letter {
	case 'y':
		switch it.count {
		case 1:
			return 1, 19, true
		case 2:
			return 2, 2, true
		}
		return it.count, 19, true
	case 'M', 'L', 'Q', 'q':
		if it.count >= 3 {
			return 0, 0, false
		}
		fallthrough
	case 'd', 'h', 'K', 'k', 'H', 'm', 's':
		if it.count == 1 {
			return 1, 19, true
		}
		return it.count, it.count, true
	case 'D':
		switch it.count {
		case 1:
			return 1, 19, true
		case 2:
			return 2, 3, true
		}
		return 3, 3, true
	case 'S':
		return 1, it.count, true
	}
	return 0, 0, false
}

func setReserves(items []dtItem) {
	for i := range items {
		if items[i].letter == '[' {
			setReserves(items[i].opt)
			continue
		}
		if _, _, ok := numWidth(items[i]); !ok {
			continue
		}
		r := 0
		for _, next := range items[i+1:] {
			lo, hi, ok := numWidth(next)
			if !ok || lo != hi {
				break
			}
			r += lo
		}
		items[i].reserve = r
	}
}

var patternCache cache[string, *dtPattern]

// cachedPattern compiles pattern once; nil when it is invalid.
func cachedPattern(pattern string) *dtPattern {
	return patternCache.get(pattern, func(s string) *dtPattern {
		p, err := compilePattern(s)
		if err != nil {
			return nil
		}
		return p
	})
}

var (
	monthNames = [...]string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
	dayNames      = [...]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	quarterNames  = [...]string{"1st quarter", "2nd quarter", "3rd quarter", "4th quarter"}
	eraShortNames = [...]string{"BC", "AD"}
	eraLongNames  = [...]string{"Before Christ", "Anno Domini"}
)
