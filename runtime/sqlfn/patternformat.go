package sqlfn

import (
	"time"

	"github.com/pipegen/pipegen/runtime/types"
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
