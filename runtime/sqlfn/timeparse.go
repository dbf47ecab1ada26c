package sqlfn

import (
	"math/bits"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
)

// isSpaceOrControl reports whether c is trimmed by Spark's casts from
// STRING (UTF8String.isWhitespaceOrISOControl on bytes: ASCII controls,
// space and DEL).
func isSpaceOrControl(c byte) bool { return c <= ' ' || c == 0x7f }

// trimCast trims what Spark's string casts trim from both ends.
func trimCast(s string) string {
	i, j := 0, len(s)
	for i < j && isSpaceOrControl(s[i]) {
		i++
	}
	for j > i && isSpaceOrControl(s[j-1]) {
		j--
	}
	return s[i:j]
}

// parsedTimestamp is what parseTimestampString finds in a string.
type parsedTimestamp struct {
	year                 int64
	month, day           int
	hour, minute, second int
	micros               int
	zone                 *time.Location // nil when the text has none
	justTime             bool
}

// parseTimestampString is Spark's SparkDateTimeUtils.parseTimestampString:
// `[+-]yyyy*[-[m]m[-[d]d]]`, then ' ' or 'T' and `[h]h[:[m]m[:[s]s[.fraction]]]`
// and a zone (`Z`, `+hh:mm`, `UTC+1`, `Europe/Paris`, ...); or a time alone.
// Years have 4 to 6 digits; fraction digits beyond 6 are cut.
func parseTimestampString(s string) (p parsedTimestamp, ok bool) {
	s = trimCast(s)
	if s == "" {
		return p, false
	}
	valid := func(seg, digits int) bool {
		switch seg {
		case 0:
			return digits >= 4 && digits <= 6
		case 6:
			return true
		case 7:
			return digits <= 2
		}
		return digits > 0 && digits <= 2
	}
	segs := [9]int64{1, 1, 1, 0, 0, 0, 0, 0, 0}
	i, cur, curDigits, fracDigits := 0, int64(0), 0, 0
	yearSign := int64(0)
	j := 0
	if s[0] == '-' || s[0] == '+' {
		yearSign = 1
		if s[0] == '-' {
			yearSign = -1
		}
		j++
	}
	var tz string
	hasTZ := false
	for ; j < len(s); j++ {
		b := s[j]
		if b >= '0' && b <= '9' {
			if i == 6 {
				fracDigits++
			}
			if i != 6 || curDigits < 6 {
				if cur < 1e9 {
					cur = cur*10 + int64(b-'0')
				}
			}
			curDigits++
			continue
		}
		switch {
		case j == 0 && b == 'T':
			p.justTime = true
			i += 3
		case i < 2:
			switch {
			case b == '-':
				if !valid(i, curDigits) {
					return p, false
				}
				segs[i], cur, curDigits = cur, 0, 0
				i++
			case i == 0 && b == ':' && yearSign == 0:
				p.justTime = true
				if !valid(3, curDigits) {
					return p, false
				}
				segs[3], cur, curDigits = cur, 0, 0
				i = 4
			default:
				return p, false
			}
		case i == 2:
			if b != ' ' && b != 'T' || !valid(i, curDigits) {
				return p, false
			}
			segs[i], cur, curDigits = cur, 0, 0
			i++
		case i == 3 || i == 4:
			if b != ':' || !valid(i, curDigits) {
				return p, false
			}
			segs[i], cur, curDigits = cur, 0, 0
			i++
		case i == 5 || i == 6:
			if !valid(i, curDigits) {
				return p, false
			}
			segs[i], cur, curDigits = cur, 0, 0
			i++
			if b != '.' || i == 7 {
				tz, hasTZ = s[j:], true
				j = len(s)
			}
			if i == 6 && b != '.' {
				i++
			}
		default:
			return p, false
		}
	}
	if i >= len(segs) || !valid(i, curDigits) {
		return p, false
	}
	segs[i] = cur
	for ; fracDigits < 6; fracDigits++ {
		segs[6] *= 10
	}
	if hasTZ {
		loc, ok := zoneByID(strings.TrimSpace(tz))
		if !ok {
			return p, false
		}
		p.zone = loc
	}
	if yearSign != 0 {
		segs[0] *= yearSign
	}
	p.year, p.month, p.day = segs[0], int(segs[1]), int(segs[2])
	p.hour, p.minute, p.second, p.micros = int(segs[3]), int(segs[4]), int(segs[5]), int(segs[6])
	return p, true
}

// localMicros returns the local date-time y-m-d h:mi:s.us in µs since the
// local epoch; ok is false for an invalid date or time or one outside the
// TIMESTAMP range.
func localMicros(y int64, m, d, h, mi, s, us int) (int64, bool) {
	if !validDate(y, m, d) || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59 || us < 0 || us >= microsPerSecond {
		return 0, false
	}
	if y > 300000 || y < -300000 {
		return 0, false
	}
	days := daysFromCivil(y, m, d)
	t := int64(h)*microsPerHour + int64(mi)*microsPerMinute + int64(s)*microsPerSecond + int64(us)
	return mulAdd(days, microsPerDay, t)
}

// mulAdd returns a*b+c and false on int64 overflow.
func mulAdd(a, b, c int64) (int64, bool) {
	p, ok := Mul(a, b)
	if !ok {
		return 0, false
	}
	return Add(p, c)
}

// CastStringTimestamp parses s as Spark's CAST(s AS TIMESTAMP): the formats
// of parseTimestampString; a zone in the text wins, otherwise the session
// time zone applies. ok is false for malformed text, invalid dates and
// times, and — unlike Spark, which takes today's date — a time without a
// date, which would make the result depend on when it runs.
func CastStringTimestamp(s string) (types.Timestamp, bool) {
	return ParseTimestampIn(s, SessionTimeZone())
}

// CastStringTimestampNTZ parses s as CAST(s AS TIMESTAMP_NTZ): the formats
// of CastStringTimestamp, with any zone in the text ignored (Spark's
// stringToTimestampWithoutTimeZone with allowTimeZone).
func CastStringTimestampNTZ(s string) (types.Timestamp, bool) {
	p, ok := parseTimestampString(s)
	if !ok || p.justTime {
		return 0, false
	}
	local, ok := localMicros(p.year, p.month, p.day, p.hour, p.minute, p.second, p.micros)
	return types.Timestamp(local), ok
}

// CastStringDate parses s as Spark's CAST(s AS DATE) (stringToDate):
// `[+-]yyyy*`, `[+-]yyyy*-[m]m`, `[+-]yyyy*-[m]m-[d]d`, optionally followed
// by ' ' or 'T' and anything; years have 4 to 7 digits.
func CastStringDate(s string) (types.Date, bool) {
	s = trimCast(s)
	if s == "" {
		return 0, false
	}
	segs := [3]int64{1, 1, 1}
	sign := int64(1)
	j := 0
	if s[0] == '-' || s[0] == '+' {
		if s[0] == '-' {
			sign = -1
		}
		j++
	}
	valid := func(seg, digits int) bool {
		if seg == 0 {
			return digits >= 4 && digits <= 7
		}
		return digits > 0 && digits <= 2
	}
	i, cur, digits := 0, int64(0), 0
	for ; j < len(s) && i < 3 && s[j] != ' ' && s[j] != 'T'; j++ {
		b := s[j]
		if i < 2 && b == '-' {
			if !valid(i, digits) {
				return 0, false
			}
			segs[i], cur, digits = cur, 0, 0
			i++
			continue
		}
		if b < '0' || b > '9' {
			return 0, false
		}
		if cur < 1e8 {
			cur = cur*10 + int64(b-'0')
		}
		digits++
	}
	if !valid(i, digits) || i < 2 && j < len(s) {
		return 0, false
	}
	segs[i] = cur
	y, m, d := sign*segs[0], int(segs[1]), int(segs[2])
	if !validDate(y, m, d) {
		return 0, false
	}
	days := daysFromCivil(y, m, d)
	if days != int64(int32(days)) {
		return 0, false
	}
	return types.Date(days), true
}

// CastStringInterval parses s as CAST(s AS INTERVAL DAY TO SECOND): either
// the bare form `[+-]d h:m:s[.fraction]` or the literal form
// `INTERVAL [+-]'[+-]d hh:mm:ss[.fraction]' DAY TO SECOND` (Spark's
// castStringToDayTimeInterval, case-insensitive keywords). Hours are 0-23,
// minutes and seconds 0-59, up to 9 fraction digits (cut to µs).
func CastStringInterval(s string) (types.Interval, bool) {
	s, neg, ok := intervalLiteralBody(trimCast(s), "DAY TO SECOND")
	if !ok {
		return 0, false
	}
	v, ok := parseDayTime(s)
	if !ok {
		return 0, false
	}
	if neg {
		v = -v
	}
	return types.Interval(v), true
}

// intervalLiteralBody returns the quoted value of the literal form
// INTERVAL [+-]'value' QUALIFIER of s (keywords in any case) and whether it
// was negated; s itself when it is not that form; ok is false for a
// literal form with another qualifier or an unclosed quote.
func intervalLiteralBody(s, qualifier string) (body string, neg, ok bool) {
	if len(s) < 8 || !strings.EqualFold(s[:8], "interval") {
		return s, false, true
	}
	s = strings.TrimLeft(s[8:], " ")
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) < 2 || (s[0] != '\'' && s[0] != '"') {
		return "", false, false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", false, false
	}
	body, rest := s[1:1+end], s[2+end:]
	if !strings.EqualFold(strings.Join(strings.Fields(rest), " "), qualifier) {
		return "", false, false
	}
	return body, neg, true
}

// parseDayTime parses `[+-]d h:m:s[.fraction]` into µs.
func parseDayTime(s string) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	num := func(maxDigits int) (int64, bool) {
		n, v := 0, uint64(0)
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			hi, lo := bits.Mul64(v, 10)
			if hi != 0 || lo+uint64(s[n]-'0') < lo {
				return 0, false
			}
			v = lo + uint64(s[n]-'0')
			n++
		}
		if n == 0 || maxDigits > 0 && n > maxDigits || v > 1<<62 {
			return 0, false
		}
		s = s[n:]
		return int64(v), true
	}
	sep := func(c byte) bool {
		if s == "" || s[0] != c {
			return false
		}
		s = s[1:]
		return true
	}
	days, ok1 := num(0)
	ok2 := sep(' ')
	h, ok3 := num(2)
	ok4 := sep(':')
	m, ok5 := num(2)
	ok6 := sep(':')
	sec, ok7 := num(2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || h > 23 || m > 59 || sec > 59 {
		return 0, false
	}
	var frac int64
	if sep('.') {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			if n < 6 {
				frac = frac*10 + int64(s[n]-'0')
			}
			n++
		}
		if n == 0 || n > 9 {
			return 0, false
		}
		for i := n; i < 6; i++ {
			frac *= 10
		}
		s = s[n:]
	}
	if s != "" {
		return 0, false
	}
	t := h*microsPerHour + m*microsPerMinute + sec*microsPerSecond + frac
	v, ok := mulAdd(days, microsPerDay, t)
	if !ok {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// shortZoneIDs is java.time's ZoneId.SHORT_IDS, which Spark applies to
// zone names in strings.
var shortZoneIDs = map[string]string{
	"ACT": "Australia/Darwin", "AET": "Australia/Sydney", "AGT": "America/Argentina/Buenos_Aires",
	"ART": "Africa/Cairo", "AST": "America/Anchorage", "BET": "America/Sao_Paulo",
	"BST": "Asia/Dhaka", "CAT": "Africa/Harare", "CNT": "America/St_Johns",
	"CST": "America/Chicago", "CTT": "Asia/Shanghai", "EAT": "Africa/Addis_Ababa",
	"ECT": "Europe/Paris", "IET": "America/Indiana/Indianapolis", "IST": "Asia/Kolkata",
	"JST": "Asia/Tokyo", "MIT": "Pacific/Apia", "NET": "Asia/Yerevan",
	"NST": "Pacific/Auckland", "PLT": "Asia/Karachi", "PNT": "America/Phoenix",
	"PRT": "America/Puerto_Rico", "PST": "America/Los_Angeles", "SST": "Pacific/Guadalcanal",
	"VST": "Asia/Ho_Chi_Minh", "EST": "-05:00", "MST": "-07:00", "HST": "-10:00",
}

var zoneCache cache[string, *time.Location]

// zoneByID resolves a zone as Spark's getZoneId: `Z`; offsets `+h`, `+hh`,
// `+hh:mm`, `+hhmm`, `+hh:mm:ss`, `+hhmmss` (also `+h:mm` and `+hh:m`);
// `UTC`, `GMT`, `UT`, alone or followed by an offset; java.time's short IDs
// (PST, CET is a region); region IDs such as `Europe/Paris` from the
// system's time zone database.
func zoneByID(id string) (*time.Location, bool) {
	loc := zoneCache.get(id, resolveZone)
	return loc, loc != nil
}

func resolveZone(id string) *time.Location {
	if s, ok := shortZoneIDs[id]; ok {
		id = s
	}
	switch {
	case id == "Z":
		return time.UTC
	case id == "":
		return nil
	case id[0] == '+' || id[0] == '-':
		off, ok := parseOffset(id)
		if !ok {
			return nil
		}
		if off == 0 {
			return time.UTC
		}
		return time.FixedZone(formatOffsetID(off), off)
	}
	for _, prefix := range []string{"UTC", "GMT", "UT"} {
		if id == prefix {
			return time.FixedZone(prefix, 0)
		}
		if rest, ok := strings.CutPrefix(id, prefix); ok && (rest[0] == '+' || rest[0] == '-') {
			off, ok := parseOffset(rest)
			if !ok {
				return nil
			}
			return time.FixedZone(prefix+formatOffsetID(off), off)
		}
	}
	// Region IDs: java.time's syntax, and never Go's "Local".
	for i := 0; i < len(id); i++ {
		c := id[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !(letter || i > 0 && (c >= '0' && c <= '9' || strings.IndexByte("~/._+-", c) >= 0)) {
			return nil
		}
	}
	if id == "Local" || len(id) < 2 || strings.Contains(id, "..") {
		return nil
	}
	loc, err := time.LoadLocation(id)
	if err != nil {
		return nil
	}
	return loc
}

// parseOffset parses ±h, ±hh, ±h:mm, ±hh:m, ±hh:mm, ±hhmm, ±hh:mm:ss and
// ±hhmmss into seconds (at most 18 hours, as java.time's ZoneOffset).
func parseOffset(s string) (int, bool) {
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	s = s[1:]
	digit := func(i int) (int, bool) {
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		return int(s[i] - '0'), true
	}
	two := func(i int) (int, bool) {
		a, ok1 := digit(i)
		b, ok2 := digit(i + 1)
		return a*10 + b, ok1 && ok2
	}
	var h, m, sec int
	var ok bool
	switch {
	case len(s) == 1:
		h, ok = digit(0)
	case len(s) == 2:
		h, ok = two(0)
	case len(s) == 4 && s[1] == ':': // h:mm (Spark's pre-3.0 form)
		var ok2 bool
		h, ok = digit(0)
		m, ok2 = two(2)
		ok = ok && ok2
	case len(s) == 4 && s[2] == ':': // hh:m
		var ok2 bool
		h, ok = two(0)
		m, ok2 = digit(3)
		ok = ok && ok2
	case len(s) == 4:
		var ok2 bool
		h, ok = two(0)
		m, ok2 = two(2)
		ok = ok && ok2
	case len(s) == 5 && s[2] == ':':
		var ok2 bool
		h, ok = two(0)
		m, ok2 = two(3)
		ok = ok && ok2
	case len(s) == 6:
		var ok2, ok3 bool
		h, ok = two(0)
		m, ok2 = two(2)
		sec, ok3 = two(4)
		ok = ok && ok2 && ok3
	case len(s) == 8 && s[2] == ':' && s[5] == ':':
		var ok2, ok3 bool
		h, ok = two(0)
		m, ok2 = two(3)
		sec, ok3 = two(6)
		ok = ok && ok2 && ok3
	}
	if !ok || h > 18 || m > 59 || sec > 59 || h == 18 && (m > 0 || sec > 0) {
		return 0, false
	}
	return sign * (h*3600 + m*60 + sec), true
}

// formatOffsetID renders an offset as java.time's ZoneOffset ID: +01:00,
// -05:30, +01:02:03.
func formatOffsetID(off int) string {
	b := make([]byte, 0, 9)
	if off < 0 {
		b = append(b, '-')
		off = -off
	} else {
		b = append(b, '+')
	}
	b = appendPadded(b, int64(off/3600), 2)
	b = append(b, ':')
	b = appendPadded(b, int64(off/60%60), 2)
	if off%60 != 0 {
		b = append(b, ':')
		b = appendPadded(b, int64(off%60), 2)
	}
	return string(b)
}
