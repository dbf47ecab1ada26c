package sqlfn

import (
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
)

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
