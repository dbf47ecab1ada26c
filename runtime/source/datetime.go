package source

import (
	"fmt"
	"time"

	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/types"
)

// Date and timestamp strings are read as Spark 3+ reads them with its default
// formats (dateFormat "yyyy-MM-dd", timestampFormat
// "yyyy-MM-dd'T'HH:mm:ss[.SSS][XXX]") and their fallbacks, which accept what
// DateTimeUtils.stringToDate and stringToTimestamp accept:
//
//	yyyy | yyyy-[m]m | yyyy-[m]m-[d]d, then for a date anything after ' ' or 'T'
//	yyyy-[m]m-[d]d[T| ][h]h:[m]m[:[s]s[.fraction]][zone]
//
// Years have four digits. A fraction has any number of digits; digits after
// the sixth (microseconds) are dropped. zone is Z, [+-]h, [+-]hh, [+-]hh:mm,
// [+-]hhmm, UTC, GMT or UT optionally followed by an offset, or a region id
// such as Europe/Paris (from the system's time zone database), optionally
// after one space. Surrounding whitespace is ignored. A timestamp without a
// zone is in the session time zone (UTC unless set).

const (
	microsPerSecond = 1_000_000
	microsPerDay    = 86_400 * microsPerSecond
)

// timeParser parses dates and timestamps; it caches region time zones.
type timeParser struct {
	loc   *time.Location // session time zone; nil is UTC
	zones map[string]*time.Location
	// date and ts are the dateFormat and timestampFormat patterns, nil for
	// Spark's defaults (the lenient forms above).
	date, ts *sqlfn.DatetimePattern
}

// compile sets the dateFormat and timestampFormat patterns ("" keeps the
// default); the error names the option and the bad part of the pattern.
func (p *timeParser) compile(dateFormat, timestampFormat string) error {
	var err error
	if dateFormat != "" {
		if p.date, err = sqlfn.CompileDatetime(dateFormat); err != nil {
			return fmt.Errorf("date_format: %w", err)
		}
	}
	if timestampFormat != "" {
		if p.ts, err = sqlfn.CompileDatetime(timestampFormat); err != nil {
			return fmt.Errorf("timestamp_format: %w", err)
		}
	}
	return nil
}

// parseDate parses a DATE with the dateFormat pattern, or else the default
// forms.
func (p *timeParser) parseDate(b []byte) (types.Date, bool) {
	if p.date != nil {
		return p.date.ParseDate(string(b))
	}
	return parseDate(b)
}

func isSpace(c byte) bool { return c <= ' ' }

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// digits reads between minN and maxN decimal digits at b[i:].
func digits(b []byte, i, minN, maxN int) (v, next int, ok bool) {
	j := i
	for j < len(b) && j-i < maxN && b[j] >= '0' && b[j] <= '9' {
		v = v*10 + int(b[j]-'0')
		j++
	}
	return v, j, j-i >= minN
}

// daysFromCivil returns the days since 1970-01-01 of a proleptic Gregorian
// date (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// parseDatePart reads yyyy[-[m]m[-[d]d]] and returns the day number and the
// offset after it.
func parseDatePart(b []byte) (days int64, next int, ok bool) {
	y, i, ok := digits(b, 0, 4, 4)
	if !ok {
		return 0, 0, false
	}
	m, d := 1, 1
	if i < len(b) && b[i] == '-' {
		if m, i, ok = digits(b, i+1, 1, 2); !ok {
			return 0, 0, false
		}
		if i < len(b) && b[i] == '-' {
			if d, i, ok = digits(b, i+1, 1, 2); !ok {
				return 0, 0, false
			}
		}
	}
	if m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, 0, false
	}
	return daysFromCivil(y, m, d), i, true
}

// parseDate parses a DATE string.
func parseDate(b []byte) (types.Date, bool) {
	b = trimSpace(b)
	days, i, ok := parseDatePart(b)
	if !ok || i < len(b) && b[i] != ' ' && b[i] != 'T' {
		return 0, false
	}
	return types.Date(days), true
}

// parseTimestamp parses a TIMESTAMP string into microseconds since the
// epoch. With ntz (TIMESTAMP_NTZ) the wall-clock time is returned as is and
// a string with a zone is rejected, as Spark does.
func (p *timeParser) parseTimestamp(b []byte, ntz bool) (int64, bool) {
	if p.ts != nil && !ntz {
		v, ok := p.ts.ParseTimestamp(string(b), p.loc)
		return int64(v), ok
	}
	b = trimSpace(b)
	days, i, ok := parseDatePart(b)
	if !ok {
		return 0, false
	}
	var hh, mm, ss, micros int
	if i < len(b) {
		if b[i] != ' ' && b[i] != 'T' {
			return 0, false
		}
		i++
	}
	if i < len(b) {
		if hh, i, ok = digits(b, i, 1, 2); !ok || i == len(b) || b[i] != ':' {
			return 0, false
		}
		if mm, i, ok = digits(b, i+1, 1, 2); !ok {
			return 0, false
		}
		if i < len(b) && b[i] == ':' {
			if ss, i, ok = digits(b, i+1, 1, 2); !ok {
				return 0, false
			}
			if i < len(b) && b[i] == '.' {
				j := i + 1
				n := 0
				for ; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
					if n < 6 {
						micros = micros*10 + int(b[j]-'0')
						n++
					}
				}
				if j == i+1 {
					return 0, false
				}
				for ; n < 6; n++ {
					micros *= 10
				}
				i = j
			}
		}
		if hh > 23 || mm > 59 || ss > 59 {
			return 0, false
		}
	}
	wall := days*microsPerDay + int64(hh*3600+mm*60+ss)*microsPerSecond + int64(micros)
	if i == len(b) {
		if ntz || p.loc == nil || p.loc == time.UTC {
			return wall, true
		}
		return sqlfn.LocalToUTC(wall, p.loc), true
	}
	if ntz {
		return 0, false
	}
	if b[i] == ' ' {
		i++
	}
	off, ok := p.zoneOffset(b[i:], wall)
	if !ok {
		return 0, false
	}
	return wall - off, true
}

// zoneOffset returns the offset from UTC, in microseconds, of the zone text
// z at the wall-clock time wall.
func (p *timeParser) zoneOffset(z []byte, wall int64) (int64, bool) {
	switch {
	case len(z) == 0:
		return 0, false
	case len(z) == 1 && z[0] == 'Z':
		return 0, true
	case z[0] == '+' || z[0] == '-':
		return parseOffset(z)
	}
	for _, prefix := range [...]string{"UTC", "GMT", "UT"} {
		if len(z) >= len(prefix) && string(z[:len(prefix)]) == prefix {
			rest := z[len(prefix):]
			if len(rest) == 0 {
				return 0, true
			}
			if rest[0] == '+' || rest[0] == '-' {
				return parseOffset(rest)
			}
		}
	}
	name := string(z)
	loc, ok := p.zones[name]
	if !ok {
		l, err := time.LoadLocation(name)
		if err != nil || name == "" || name == "Local" {
			l = nil
		}
		if p.zones == nil {
			p.zones = make(map[string]*time.Location)
		}
		p.zones[name], loc = l, l
	}
	if loc == nil {
		return 0, false
	}
	// The offset in force at that wall-clock time in loc (the earlier one
	// in a fall-back overlap, as Spark).
	return wall - sqlfn.LocalToUTC(wall, loc), true
}

// parseOffset parses [+-]h, [+-]hh, [+-]h:mm, [+-]hh:mm or [+-]hhmm.
func parseOffset(z []byte) (int64, bool) {
	sign := int64(1)
	if z[0] == '-' {
		sign = -1
	}
	h, i, ok := digits(z, 1, 1, 2)
	if !ok {
		return 0, false
	}
	m := 0
	switch {
	case i == len(z):
	case z[i] == ':':
		if m, i, ok = digits(z, i+1, 2, 2); !ok {
			return 0, false
		}
	case i == 3:
		if m, i, ok = digits(z, i, 2, 2); !ok {
			return 0, false
		}
	}
	if i != len(z) || h > 18 || m > 59 || h == 18 && m > 0 {
		return 0, false
	}
	return sign * int64(h*3600+m*60) * microsPerSecond, true
}
