package sqlfn

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/types"
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

// DateFormat renders ts in the session time zone with a Spark datetime
// pattern (date_format). An invalid pattern gives "": the checker
// validates constant patterns with CompileDatetimePattern.
func DateFormat(ts types.Timestamp, pattern string) string {
	p := cachedPattern(pattern)
	if p == nil {
		return ""
	}
	loc := SessionTimeZone()
	sec := floorDiv(int64(ts), microsPerSecond)
	off := zoneOffset(loc, sec)
	local := int64(ts) + off*microsPerSecond
	return string(p.format(nil, p.items, local, int(off), loc, sec))
}

// DateFormatNTZ is date_format of a TIMESTAMP_NTZ: Spark casts it to
// TIMESTAMP (its wall-clock time read in the session time zone) and
// formats that, so the fields are the wall-clock time's and the zone
// letters name the session time zone.
func DateFormatNTZ(ts types.Timestamp, pattern string) string {
	return DateFormat(types.Timestamp(fromLocal(int64(ts), SessionTimeZone())), pattern)
}

func (p *dtPattern) format(b []byte, items []dtItem, local int64, off int, loc *time.Location, sec int64) []byte {
	days, h, mi, s, us := timestampFields(local)
	y, mo, d := civilFromDays(days)
	for _, it := range items {
		n := it.count
		switch it.letter {
		case 0:
			b = append(b, it.lit...)
		case '[':
			b = p.format(b, it.opt, local, off, loc, sec)
		case 'G':
			era := 1
			if y <= 0 {
				era = 0
			}
			if n == 4 {
				b = append(b, eraLongNames[era]...)
			} else {
				b = append(b, eraShortNames[era]...)
			}
		case 'y':
			yy := y
			if p.era && y <= 0 {
				yy = 1 - y
			}
			switch {
			case n == 2:
				b = appendPadded(b, abs64(yy)%100, 2)
			case n == 1 || n == 3:
				if yy < 0 {
					b = append(b, '-')
				}
				b = appendPadded(b, abs64(yy), n)
			default:
				b = appendYear(b, yy, n)
			}
		case 'M', 'L':
			switch n {
			case 1, 2:
				b = appendPadded(b, int64(mo), n)
			case 3:
				b = append(b, monthNames[mo-1][:3]...)
			default:
				b = append(b, monthNames[mo-1]...)
			}
		case 'Q', 'q':
			q := (mo + 2) / 3
			switch n {
			case 1, 2:
				b = appendPadded(b, int64(q), n)
			case 3:
				b = append(b, 'Q', byte('0'+q))
			default:
				b = append(b, quarterNames[q-1]...)
			}
		case 'd':
			b = appendPadded(b, int64(d), n)
		case 'F':
			b = appendPadded(b, int64((d-1)%7+1), n)
		case 'D':
			b = appendPadded(b, days-daysFromCivil(y, 1, 1)+1, n)
		case 'E':
			name := dayNames[weekdayMon0(days)]
			if n < 4 {
				name = name[:3]
			}
			b = append(b, name...)
		case 'a':
			if h < 12 {
				b = append(b, "AM"...)
			} else {
				b = append(b, "PM"...)
			}
		case 'H':
			b = appendPadded(b, int64(h), n)
		case 'k':
			k := h
			if k == 0 {
				k = 24
			}
			b = appendPadded(b, int64(k), n)
		case 'K':
			b = appendPadded(b, int64(h%12), n)
		case 'h':
			k := h % 12
			if k == 0 {
				k = 12
			}
			b = appendPadded(b, int64(k), n)
		case 'm':
			b = appendPadded(b, int64(mi), n)
		case 's':
			b = appendPadded(b, int64(s), n)
		case 'S':
			var frac [9]byte
			v := us * 1000
			for i := 8; i >= 0; i-- {
				frac[i] = byte('0' + v%10)
				v /= 10
			}
			b = append(b, frac[:n]...)
		case 'V':
			b = append(b, loc.String()...)
		case 'z':
			b = append(b, zoneName(loc, sec, n == 4)...)
		case 'O':
			b = appendLocalizedOffset(b, off, n == 4)
		case 'X', 'x':
			if it.letter == 'X' && off == 0 {
				b = append(b, 'Z')
				break
			}
			b = appendOffset(b, off, n)
		case 'Z':
			switch {
			case n <= 3:
				b = appendOffset(b, off, 2)
			case n == 4:
				b = appendLocalizedOffset(b, off, true)
			case off == 0:
				b = append(b, 'Z')
			default:
				b = appendOffset(b, off, 5)
			}
		}
	}
	return b
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// appendOffset renders an offset as java.time's appendOffset patterns for
// X/x with n letters: 1 +HH[mm], 2 +HHmm, 3 +HH:mm, 4 +HHmm[ss], 5
// +HH:mm[:ss].
func appendOffset(b []byte, off, n int) []byte {
	if off < 0 {
		b = append(b, '-')
		off = -off
	} else {
		b = append(b, '+')
	}
	h, m, s := off/3600, off/60%60, off%60
	b = appendPadded(b, int64(h), 2)
	colon := n == 3 || n == 5
	if n == 1 && m == 0 {
		return b
	}
	if colon {
		b = append(b, ':')
	}
	b = appendPadded(b, int64(m), 2)
	if (n == 4 || n == 5) && s != 0 {
		if colon {
			b = append(b, ':')
		}
		b = appendPadded(b, int64(s), 2)
	}
	return b
}

// appendLocalizedOffset renders "GMT", "GMT+8", "GMT+5:30" (short) or
// "GMT+08:00" (full), as java.time's localized offset (O, ZZZZ).
func appendLocalizedOffset(b []byte, off int, full bool) []byte {
	b = append(b, "GMT"...)
	if off == 0 {
		return b
	}
	if off < 0 {
		b = append(b, '-')
		off = -off
	} else {
		b = append(b, '+')
	}
	h, m, s := off/3600, off/60%60, off%60
	if full {
		b = appendPadded(b, int64(h), 2)
		b = append(b, ':')
		b = appendPadded(b, int64(m), 2)
	} else {
		b = appendPadded(b, int64(h), 1)
		if m != 0 || s != 0 {
			b = append(b, ':')
			b = appendPadded(b, int64(m), 2)
		}
	}
	if s != 0 {
		b = append(b, ':')
		b = appendPadded(b, int64(s), 2)
	}
	return b
}

// dtFields collects what a pattern parsed; -1 means absent.
type dtFields struct {
	year, yearOfEra, era, yy          int64
	month, day, doy, quarter, dow     int
	hour, hour12, hourK, hour24, ampm int
	minute, second, nanos             int
	zone                              *time.Location
	offset                            int
	hasOffset                         bool
}

func newFields() dtFields {
	return dtFields{year: -1 << 62, yearOfEra: -1, era: -1, yy: -1, month: -1, day: -1, doy: -1,
		quarter: -1, dow: -1, hour: -1, hour12: -1, hourK: -1, hour24: -1, ampm: -1,
		minute: -1, second: -1, nanos: -1}
}

// parseTimestampPattern parses s with pattern into a timestamp; ok is false
// when the pattern is invalid or s does not match it.
func parseTimestampPattern(s, pattern string) (types.Timestamp, bool) {
	p := cachedPattern(pattern)
	if p == nil {
		return 0, false
	}
	f := newFields()
	n, ok := p.parse(p.items, s, 0, &f)
	if !ok || n != len(s) {
		return 0, false
	}
	return f.resolve(p.era)
}

// parse matches items against s from pos and returns the new position.
func (p *dtPattern) parse(items []dtItem, s string, pos int, f *dtFields) (int, bool) {
	for _, it := range items {
		switch it.letter {
		case 0:
			if len(s)-pos < len(it.lit) || !strings.EqualFold(s[pos:pos+len(it.lit)], it.lit) {
				return 0, false
			}
			pos += len(it.lit)
			continue
		case '[':
			saved := *f
			if n, ok := p.parse(it.opt, s, pos, f); ok {
				pos = n
			} else {
				*f = saved
			}
			continue
		case 'F':
			return 0, false // Spark refuses F for parsing
		}
		if lo, hi, isNum := numWidth(it); isNum {
			n, v, ok := parseNumber(s, pos, lo, hi, it)
			if !ok {
				return 0, false
			}
			pos = n
			if !f.set(it, p.era, v) {
				return 0, false
			}
			continue
		}
		var ok bool
		pos, ok = p.parseText(it, s, pos, f)
		if !ok {
			return 0, false
		}
	}
	return pos, true
}

// parseNumber reads a numeric field: an optional sign for years, then
// between lo and hi digits, leaving it.reserve digits for the fixed-width
// fields that follow.
func parseNumber(s string, pos, lo, hi int, it dtItem) (int, int64, bool) {
	neg := false
	if it.letter == 'y' && it.count != 2 && pos < len(s) && (s[pos] == '-' || s[pos] == '+') {
		neg = s[pos] == '-'
		pos++
	}
	avail := 0
	for pos+avail < len(s) && s[pos+avail] >= '0' && s[pos+avail] <= '9' {
		avail++
	}
	n := lo
	if lo != hi {
		n = min(hi, avail-it.reserve)
	}
	if n < lo || n > avail || n <= 0 {
		return 0, 0, false
	}
	var v int64
	for _, c := range s[pos : pos+n] {
		if v > 1e15 {
			return 0, 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if it.letter == 'S' {
		for i := n; i < 9; i++ {
			v *= 10
		}
	}
	if neg {
		v = -v
	}
	return pos + n, v, true
}

// set stores a parsed numeric field; a field given twice must agree.
func (f *dtFields) set(it dtItem, era bool, v int64) bool {
	put := func(dst *int, v int64) bool {
		if v > 1e9 || v < -1e9 || *dst >= 0 && *dst != int(v) {
			return false
		}
		*dst = int(v)
		return true
	}
	switch it.letter {
	case 'y':
		switch {
		case it.count == 2:
			f.yy = v
		case era:
			f.yearOfEra = v
		default:
			f.year = v
		}
		return true
	case 'M', 'L':
		return put(&f.month, v)
	case 'Q', 'q':
		return put(&f.quarter, v)
	case 'd':
		return put(&f.day, v)
	case 'D':
		return put(&f.doy, v)
	case 'H':
		return put(&f.hour, v)
	case 'h':
		return put(&f.hour12, v)
	case 'K':
		return put(&f.hourK, v)
	case 'k':
		return put(&f.hour24, v)
	case 'm':
		return put(&f.minute, v)
	case 's':
		return put(&f.second, v)
	case 'S':
		return put(&f.nanos, v)
	}
	return false
}

// matchWord matches one of names (case-insensitively) at pos, longest
// first; it returns the index and the new position.
func matchWord(s string, pos int, names []string) (int, int, bool) {
	best, bestLen := -1, 0
	for i, n := range names {
		if len(n) > bestLen && len(s)-pos >= len(n) && strings.EqualFold(s[pos:pos+len(n)], n) {
			best, bestLen = i, len(n)
		}
	}
	return best, pos + bestLen, best >= 0
}

func (p *dtPattern) parseText(it dtItem, s string, pos int, f *dtFields) (int, bool) {
	short := func(names []string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = n[:3]
		}
		return out
	}
	switch it.letter {
	case 'G':
		names := eraShortNames[:]
		if it.count == 4 {
			names = eraLongNames[:]
		}
		i, n, ok := matchWord(s, pos, names)
		if !ok || f.era >= 0 && f.era != int64(i) {
			return 0, false
		}
		f.era = int64(i)
		return n, true
	case 'M', 'L':
		names := monthNames[:]
		if it.count == 3 {
			names = short(names)
		}
		i, n, ok := matchWord(s, pos, names)
		if !ok || f.month >= 0 && f.month != i+1 {
			return 0, false
		}
		f.month = i + 1
		return n, true
	case 'Q', 'q':
		names := quarterNames[:]
		if it.count == 3 {
			names = []string{"Q1", "Q2", "Q3", "Q4"}
		}
		i, n, ok := matchWord(s, pos, names)
		if !ok {
			return 0, false
		}
		f.quarter = i + 1
		return n, true
	case 'E':
		names := dayNames[:]
		if it.count < 4 {
			names = short(names)
		}
		i, n, ok := matchWord(s, pos, names)
		if !ok {
			return 0, false
		}
		f.dow = i
		return n, true
	case 'a':
		i, n, ok := matchWord(s, pos, []string{"AM", "PM"})
		if !ok {
			return 0, false
		}
		f.ampm = i
		return n, true
	case 'X', 'x', 'Z':
		if (it.letter == 'X' || it.letter == 'Z' && it.count == 5) && pos < len(s) && (s[pos] == 'Z' || s[pos] == 'z') {
			return f.setOffset(0, pos+1)
		}
		if it.letter == 'Z' && it.count == 4 {
			return p.parseGMT(s, pos, f)
		}
		n := offsetLen(s, pos)
		off, ok := parseOffset(s[pos : pos+n])
		if !ok {
			return 0, false
		}
		return f.setOffset(off, pos+n)
	case 'O':
		return p.parseGMT(s, pos, f)
	case 'V', 'z':
		n := 0
		for pos+n < len(s) {
			c := s[pos+n]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("~/._+-:", c) >= 0) {
				break
			}
			n++
		}
		// The longest prefix that names a zone.
		for ; n > 0; n-- {
			if loc, ok := zoneByID(s[pos : pos+n]); ok {
				f.zone = loc
				return pos + n, true
			}
		}
		return 0, false
	}
	return 0, false
}

// offsetLen returns the length of the offset-looking text at pos.
func offsetLen(s string, pos int) int {
	n := 0
	for pos+n < len(s) {
		c := s[pos+n]
		if !(c >= '0' && c <= '9' || c == ':' || n == 0 && (c == '+' || c == '-')) {
			break
		}
		n++
	}
	return n
}

// parseGMT parses a localized offset: "GMT", "GMT+8", "GMT+08:00".
func (p *dtPattern) parseGMT(s string, pos int, f *dtFields) (int, bool) {
	if len(s)-pos < 3 || !strings.EqualFold(s[pos:pos+3], "GMT") {
		return 0, false
	}
	pos += 3
	n := offsetLen(s, pos)
	if n == 0 {
		return f.setOffset(0, pos)
	}
	off, ok := parseOffset(s[pos : pos+n])
	if !ok {
		return 0, false
	}
	return f.setOffset(off, pos+n)
}

func (f *dtFields) setOffset(off, pos int) (int, bool) {
	f.offset, f.hasOffset = off, true
	return pos, true
}

// resolve turns parsed fields into an instant as Spark's
// DateTimeFormatterHelper (defaults 1970-01-01 00:00:00; h without a is AM;
// a alone with PM is 12:00) with java.time's STRICT range checks; text
// without a zone is in the session time zone.
func (f *dtFields) resolve(era bool) (types.Timestamp, bool) {
	return f.resolveIn(era, SessionTimeZone())
}

// resolveIn is resolve with zone-less text in loc.
func (f *dtFields) resolveIn(era bool, loc *time.Location) (types.Timestamp, bool) {
	local, ok := f.resolveLocal(era)
	if !ok {
		return 0, false
	}
	switch {
	case f.hasOffset:
		v, ok := Sub(local, int64(f.offset)*microsPerSecond)
		return types.Timestamp(v), ok
	case f.zone != nil:
		return types.Timestamp(fromLocal(local, f.zone)), true
	}
	return types.Timestamp(fromLocal(local, loc)), true
}

// resolveLocal returns the local date-time (µs since 1970-01-01T00:00
// local) of the parsed fields, ignoring any zone.
func (f *dtFields) resolveLocal(era bool) (int64, bool) {
	year := int64(1970)
	switch {
	case f.yy >= 0:
		year = 2000 + f.yy
	case era && f.yearOfEra >= 0:
		if f.yearOfEra < 1 {
			return 0, false
		}
		year = f.yearOfEra
		if f.era == 0 {
			year = 1 - year
		}
	case f.year != -1<<62:
		year = f.year
	}
	var days int64
	switch {
	case f.doy >= 0 && (f.month < 0 || f.day < 0):
		// The day of the year settles the date; a month or a day of the
		// month given besides must agree with it (java.time's
		// cross-check: to_timestamp('12-365', 'MM-DDD') is 1970-12-31).
		n := 365
		if isLeap(year) {
			n = 366
		}
		if f.doy < 1 || f.doy > n {
			return 0, false
		}
		days = daysFromCivil(year, 1, 1) + int64(f.doy) - 1
		if _, m, d := civilFromDays(days); f.month >= 0 && m != f.month || f.day >= 0 && d != f.day {
			return 0, false
		}
	default:
		m, d := 1, 1
		if f.month >= 0 {
			m = f.month
		}
		if f.day >= 0 {
			d = f.day
		}
		if !validDate(year, m, d) || year > 300000 || year < -300000 {
			return 0, false
		}
		days = daysFromCivil(year, m, d)
		if f.doy >= 0 && days-daysFromCivil(year, 1, 1)+1 != int64(f.doy) {
			return 0, false
		}
	}
	_, month, _ := civilFromDays(days)
	if f.quarter >= 0 && (f.quarter < 1 || f.quarter > 4 || (month+2)/3 != f.quarter) {
		return 0, false
	}
	if f.dow >= 0 && weekdayMon0(days) != f.dow {
		return 0, false
	}
	hour := 0
	switch {
	case f.hour >= 0:
		hour = f.hour
		if hour > 23 || f.ampm >= 0 && hour/12 != f.ampm {
			return 0, false
		}
	case f.hour24 >= 0:
		if f.hour24 < 1 || f.hour24 > 24 {
			return 0, false
		}
		hour = f.hour24 % 24
	case f.hour12 >= 0:
		if f.hour12 < 1 || f.hour12 > 12 {
			return 0, false
		}
		hour = f.hour12 % 12
		if f.ampm == 1 {
			hour += 12
		}
	case f.hourK >= 0:
		if f.hourK > 11 {
			return 0, false
		}
		hour = f.hourK
		if f.ampm == 1 {
			hour += 12
		}
	case f.ampm == 1:
		hour = 12
	}
	minute, second, nanos := max(f.minute, 0), max(f.second, 0), max(f.nanos, 0)
	if minute > 59 || second > 59 {
		return 0, false
	}
	return localMicros(year, month, int(days-daysFromCivil(year, month, 1))+1, hour, minute, second, nanos/1000)
}

// DatetimePattern is a compiled Spark datetime pattern, for readers that
// parse many values with one pattern: the dateFormat and timestampFormat
// options of the CSV and JSON file sources. Parsing follows the rules at
// the top of this file (strict, case-insensitive, whole text).
type DatetimePattern struct{ p *dtPattern }

// CompileDatetime compiles a Spark datetime pattern; the error names the
// offending part (see CompileDatetimePattern).
func CompileDatetime(pattern string) (*DatetimePattern, error) {
	p, err := compilePattern(pattern)
	if err != nil {
		return nil, err
	}
	return &DatetimePattern{p: p}, nil
}

// ParseTimestamp parses s as Spark's TimestampFormatter does for a
// timestampFormat option: text without a zone or offset is in loc (nil is
// UTC). ok is false when s does not match the pattern.
func (dp *DatetimePattern) ParseTimestamp(s string, loc *time.Location) (types.Timestamp, bool) {
	f := newFields()
	n, ok := dp.p.parse(dp.p.items, s, 0, &f)
	if !ok || n != len(s) {
		return 0, false
	}
	if loc == nil {
		loc = time.UTC
	}
	return f.resolveIn(dp.p.era, loc)
}

// ParseDate parses s as Spark's DateFormatter does for a dateFormat option:
// the local date of the parsed fields; a zone in the text is ignored. ok is
// false when s does not match the pattern.
func (dp *DatetimePattern) ParseDate(s string) (types.Date, bool) {
	f := newFields()
	n, ok := dp.p.parse(dp.p.items, s, 0, &f)
	if !ok || n != len(s) {
		return 0, false
	}
	local, ok := f.resolveLocal(dp.p.era)
	if !ok {
		return 0, false
	}
	return types.Date(floorDiv(local, microsPerDay)), true
}

// ToTimestamp returns to_timestamp(s[, format]): without a format it is
// CAST(s AS TIMESTAMP); with one, s is parsed with the Spark datetime
// pattern (zone-less text in the session time zone). ok is false when s
// does not match or the pattern is invalid (CANNOT_PARSE_TIMESTAMP;
// try_to_timestamp makes it NULL).
func ToTimestamp(s string, format ...string) (types.Timestamp, bool) {
	if len(format) == 0 {
		return CastStringTimestamp(s)
	}
	return parseTimestampPattern(s, format[0])
}

// ToDate returns to_date(s[, format]): without a format it is
// CAST(s AS DATE); with one, the date of to_timestamp(s, format) in the
// session time zone, as Spark.
func ToDate(s string, format ...string) (types.Date, bool) {
	if len(format) == 0 {
		return CastStringDate(s)
	}
	ts, ok := parseTimestampPattern(s, format[0])
	if !ok {
		return 0, false
	}
	return CastTimestampDate(ts), true
}
