package sql

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/types"
)

// This file turns literal text into typed Go values (see Literal in
// plan.go): numbers with Spark's literal typing, DECIMAL values, DATE,
// TIMESTAMP and INTERVAL strings.

// numberLiteral types and evaluates a numeric literal as Spark does:
// integers are INT when they fit, else BIGINT, else DECIMAL(p,0); 1.5 is
// DECIMAL(2,1); an exponent makes a DOUBLE; suffixes L, S, Y, D, F and BD
// force BIGINT, SMALLINT, TINYINT, DOUBLE, FLOAT and DECIMAL. neg applies a
// leading minus sign. It returns an error message, or "".
func numberLiteral(text string, neg bool) (types.Type, any, string, string) {
	body, suffix := text, ""
	lower := strings.ToLower(text)
	switch {
	case strings.HasSuffix(lower, "bd"):
		body, suffix = text[:len(text)-2], "bd"
	case strings.HasSuffix(lower, "l"), strings.HasSuffix(lower, "s"), strings.HasSuffix(lower, "y"),
		strings.HasSuffix(lower, "d"), strings.HasSuffix(lower, "f"):
		body, suffix = text[:len(text)-1], lower[len(lower)-1:]
	}
	sign := ""
	if neg {
		sign = "-"
	}
	shown := sign + text
	integral := !strings.ContainsAny(body, ".eE")
	rangeErr := func(t types.Type, lo, hi string) (types.Type, any, string, string) {
		return types.Type{}, nil, "INVALID_NUMERIC_LITERAL_RANGE",
			fmt.Sprintf("numeric literal %s is outside the range of %s [%s, %s]", shown, t, lo, hi)
	}
	switch suffix {
	case "l", "s", "y":
		if !integral {
			return types.Type{}, nil, "PARSE_SYNTAX_ERROR", fmt.Sprintf("invalid numeric literal %s", shown)
		}
		bits, t := 64, types.LongType
		switch suffix {
		case "s":
			bits, t = 16, types.ShortType
		case "y":
			bits, t = 8, types.ByteType
		}
		v, err := strconv.ParseInt(sign+body, 10, bits)
		if err != nil {
			lo := -(int64(1) << (bits - 1))
			return rangeErr(t, strconv.FormatInt(lo, 10), strconv.FormatInt(-(lo+1), 10))
		}
		switch suffix {
		case "s":
			return t, int16(v), "", ""
		case "y":
			return t, int8(v), "", ""
		}
		return t, v, "", ""
	case "d", "f":
		bits, t := 64, types.DoubleType
		if suffix == "f" {
			bits, t = 32, types.FloatType
		}
		v, err := strconv.ParseFloat(sign+body, bits)
		if err != nil || math.IsInf(v, 0) {
			return rangeErr(t, "-max", "max")
		}
		if suffix == "f" {
			return t, float32(v), "", ""
		}
		return t, v, "", ""
	case "bd":
		return decimalLiteral(sign+body, shown)
	}
	if strings.ContainsAny(body, "eE") {
		v, err := strconv.ParseFloat(sign+body, 64)
		if err != nil || math.IsInf(v, 0) {
			return rangeErr(types.DoubleType, "-max", "max")
		}
		return types.DoubleType, v, "", ""
	}
	if integral {
		if v, err := strconv.ParseInt(sign+body, 10, 32); err == nil {
			return types.IntType, int32(v), "", ""
		}
		if v, err := strconv.ParseInt(sign+body, 10, 64); err == nil {
			return types.LongType, v, "", ""
		}
	}
	return decimalLiteral(sign+body, shown)
}

// decimalLiteral types a decimal number (digits, optional fraction and
// exponent) as DECIMAL(max(p,s), s) like Spark's BigDecimal literals; a
// negative scale is normalised to scale 0.
func decimalLiteral(s, shown string) (types.Type, any, string, string) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 1000 || e < -1000 {
			return types.Type{}, nil, "PARSE_SYNTAX_ERROR", fmt.Sprintf("invalid numeric literal %s", shown)
		}
		exp, s = e, s[:i]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	scale := len(frac) - exp
	if digits == "" {
		digits = "0"
	}
	if scale < 0 {
		digits += strings.Repeat("0", -scale)
		scale = 0
		digits = strings.TrimLeft(digits, "0")
		if digits == "" {
			digits = "0"
		}
	}
	prec := max(len(digits), scale, 1)
	if prec > types.MaxDecimalPrecision {
		return types.Type{}, nil, "INVALID_NUMERIC_LITERAL_RANGE",
			fmt.Sprintf("numeric literal %s needs %d digits, more than DECIMAL's %d", shown, prec, types.MaxDecimalPrecision)
	}
	v, _ := new(big.Int).SetString(digits, 10)
	if neg {
		v.Neg(v)
	}
	d, _ := decimalFromBig(v)
	return types.DecimalOf(prec, scale), d, "", ""
}

var (
	twoTo64  = new(big.Int).Lsh(big.NewInt(1), 64)
	twoTo127 = new(big.Int).Lsh(big.NewInt(1), 127)
)

// decimalFromBig returns the 128-bit two's complement form of v; ok is
// false when v does not fit.
func decimalFromBig(v *big.Int) (types.Decimal, bool) {
	if v.Cmp(twoTo127) >= 0 || v.Cmp(new(big.Int).Neg(twoTo127)) < 0 {
		return types.Decimal{}, false
	}
	u := new(big.Int).Set(v)
	if u.Sign() < 0 {
		u.Add(u, new(big.Int).Lsh(twoTo64, 64))
	}
	lo := new(big.Int).And(u, new(big.Int).Sub(twoTo64, big.NewInt(1)))
	hi := new(big.Int).Rsh(u, 64)
	return types.Decimal{Hi: int64(hi.Uint64()), Lo: lo.Uint64()}, true
}

// decimalToBig is the inverse of decimalFromBig.
func decimalToBig(d types.Decimal) *big.Int {
	v := new(big.Int).SetInt64(d.Hi)
	v.Lsh(v, 64)
	return v.Add(v, new(big.Int).SetUint64(d.Lo))
}

// formatDecimal writes the value of d at scale as Spark prints it.
func formatDecimal(d types.Decimal, scale int) string {
	v := decimalToBig(d)
	neg := v.Sign() < 0
	s := new(big.Int).Abs(v).String()
	if scale > 0 {
		if len(s) <= scale {
			s = strings.Repeat("0", scale-len(s)+1) + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// civilDays returns the days since 1970-01-01 of the proleptic Gregorian
// date y-m-d, and false when there is no such day (e.g. February 30).
func civilDays(y, m, d int64) (int64, bool) {
	if m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, false
	}
	t := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
	if t.Day() != int(d) {
		return 0, false
	}
	return t.Unix() / 86400, true
}

// scanDigits reads between min and max decimal digits at the start of s.
func scanDigits(s string, min, max int) (int64, string, bool) {
	n := 0
	for n < len(s) && n < max && isDigit(s[n]) {
		n++
	}
	if n < min {
		return 0, s, false
	}
	v, _ := strconv.ParseInt(s[:n], 10, 64)
	return v, s[n:], true
}

// parseDatePart reads Spark's date forms `[+-]yyyy[-[m]m[-[d]d]]` at the
// start of s and returns the day number and the rest.
func parseDatePart(s string) (int64, string, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	y, s, ok := scanDigits(s, 4, 7)
	if !ok {
		return 0, s, false
	}
	if neg {
		y = -y
	}
	m, d := int64(1), int64(1)
	if strings.HasPrefix(s, "-") {
		if m, s, ok = scanDigits(s[1:], 1, 2); !ok {
			return 0, s, false
		}
		if strings.HasPrefix(s, "-") {
			if d, s, ok = scanDigits(s[1:], 1, 2); !ok {
				return 0, s, false
			}
		}
	}
	days, ok := civilDays(y, m, d)
	return days, s, ok
}

// parseDate parses a DATE literal's text as Spark's stringToDate does:
// anything after the day following a space or 'T' is ignored.
func parseDate(s string) (types.Date, bool) {
	s = strings.TrimSpace(s)
	days, rest, ok := parseDatePart(s)
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != 'T' {
		return 0, false
	}
	if days < math.MinInt32 || days > math.MaxInt32 {
		return 0, false
	}
	return types.Date(days), true
}

// parseTimestamp parses a TIMESTAMP literal's text as Spark's
// stringToTimestamp does: a date, then optionally [T| ]hh[:mm[:ss[.f]]] and
// a zone (Z, UTC, +hh[:mm], or a region such as Europe/Paris). Without a
// zone the text is read in UTC here; the checker reads it again in the
// session time zone. ntz rejects zones.
func parseTimestamp(s string, ntz bool) (types.Timestamp, bool) {
	if !ntz {
		// Spark's stringToTimestamp, zone suffixes included ('... UTC',
		// '...+08:00', '...Europe/Paris', '...UTC+080000').
		return sqlfn.ParseTimestampIn(s, time.UTC)
	}
	s = strings.TrimSpace(s)
	days, rest, ok := parseDatePart(s)
	if !ok {
		return 0, false
	}
	var micros int64
	if rest != "" {
		if rest[0] != ' ' && rest[0] != 'T' {
			return 0, false
		}
		rest = rest[1:]
		var h, mi, sec int64
		if h, rest, ok = scanDigits(rest, 1, 2); !ok {
			return 0, false
		}
		if strings.HasPrefix(rest, ":") {
			if mi, rest, ok = scanDigits(rest[1:], 1, 2); !ok {
				return 0, false
			}
			if strings.HasPrefix(rest, ":") {
				if sec, rest, ok = scanDigits(rest[1:], 1, 2); !ok {
					return 0, false
				}
				if strings.HasPrefix(rest, ".") {
					rest = rest[1:]
					n := 0
					for n < len(rest) && isDigit(rest[n]) {
						n++
					}
					if n == 0 || n > 9 {
						return 0, false
					}
					frac := rest[:n] + strings.Repeat("0", 9-n)
					ns, _ := strconv.ParseInt(frac, 10, 64)
					micros = ns / 1000
					rest = rest[n:]
				}
			}
		}
		if h > 23 || mi > 59 || sec > 59 {
			return 0, false
		}
		micros += ((h*60+mi)*60 + sec) * 1_000_000
	}
	offset, ok := parseZone(strings.TrimSpace(rest), days, micros)
	if !ok || ntz && strings.TrimSpace(rest) != "" {
		return 0, false
	}
	if days > math.MaxInt64/86_400_000_000-1 || days < math.MinInt64/86_400_000_000+1 {
		return 0, false
	}
	return types.Timestamp(days*86_400_000_000 + micros - offset), true
}

// parseZone returns the UTC offset in microseconds of zone at the given
// local date-time.
func parseZone(zone string, days, micros int64) (int64, bool) {
	switch strings.ToUpper(zone) {
	case "", "Z", "UTC", "GMT", "UT":
		return 0, true
	}
	z := zone
	for _, p := range []string{"UTC", "GMT", "UT"} {
		if len(z) > len(p) && strings.EqualFold(z[:len(p)], p) && (z[len(p)] == '+' || z[len(p)] == '-') {
			z = z[len(p):]
		}
	}
	if z[0] == '+' || z[0] == '-' {
		sign := int64(1)
		if z[0] == '-' {
			sign = -1
		}
		h, rest, ok := scanDigits(z[1:], 1, 2)
		if !ok {
			return 0, false
		}
		var m int64
		if rest != "" {
			rest = strings.TrimPrefix(rest, ":")
			if m, rest, ok = scanDigits(rest, 2, 2); !ok || rest != "" {
				return 0, false
			}
		}
		if h > 18 || m > 59 {
			return 0, false
		}
		return sign * (h*60 + m) * 60 * 1_000_000, true
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "Local" {
		return 0, false
	}
	// The offset in effect at that local time.
	secs := days*86400 + micros/1_000_000
	t := time.Unix(secs, 0).UTC()
	local := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, loc)
	_, off := local.Zone()
	return int64(off) * 1_000_000, true
}

// intervalUnits are the day-time interval units and their length in
// microseconds (YEAR and MONTH, the year-month units, are apart).
var intervalUnits = map[string]int64{
	"WEEK":        7 * 86_400_000_000,
	"DAY":         86_400_000_000,
	"HOUR":        3_600_000_000,
	"MINUTE":      60_000_000,
	"SECOND":      1_000_000,
	"MILLISECOND": 1_000,
	"MICROSECOND": 1,
}

// intervalUnit returns the canonical unit of a unit word (singular or
// plural) and whether it is one at all; ym reports a year-month unit.
func intervalUnit(word string) (unit string, ym, ok bool) {
	u := strings.ToUpper(word)
	if _, found := intervalUnits[u]; found {
		return u, false, true
	}
	if s := strings.TrimSuffix(u, "S"); s != u {
		if _, found := intervalUnits[s]; found {
			return s, false, true
		}
	}
	switch u {
	case "YEAR", "YEARS":
		return "YEAR", true, true
	case "MONTH", "MONTHS":
		return "MONTH", true, true
	}
	return "", false, false
}

// intervalValue multiplies a decimal number of units into microseconds.
func intervalValue(num string, unit string) (int64, bool) {
	num = signedNumber(num)
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, false
	}
	r.Mul(r, new(big.Rat).SetInt64(intervalUnits[unit]))
	if !r.IsInt() {
		// Sub-microsecond fractions are truncated, as in Spark.
		q := new(big.Int).Quo(r.Num(), r.Denom())
		r.SetInt(q)
	}
	n := r.Num()
	if !n.IsInt64() {
		return 0, false
	}
	return n.Int64(), true
}

// parseIntervalFields parses the ANSI forms '1 02:03:04.5' DAY TO SECOND,
// '02:03' HOUR TO MINUTE and so on: from and to are the qualifier's units.
func parseIntervalFields(s, from, to string) (int64, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	order := []string{"DAY", "HOUR", "MINUTE", "SECOND"}
	fi, ti := -1, -1
	for i, u := range order {
		if u == from {
			fi = i
		}
		if u == to {
			ti = i
		}
	}
	if fi < 0 || ti < fi {
		return 0, false
	}
	var pieces []string
	if fi == 0 && ti > 0 {
		day, rest, ok := strings.Cut(s, " ")
		if !ok {
			return 0, false
		}
		pieces = append([]string{day}, strings.Split(rest, ":")...)
	} else {
		pieces = strings.Split(s, ":")
	}
	if len(pieces) != ti-fi+1 {
		return 0, false
	}
	var total int64
	for i, p := range pieces {
		unit := order[fi+i]
		whole, frac, dot := strings.Cut(p, ".")
		if !allDigits(whole) || dot && (unit != "SECOND" || !allDigits(frac)) {
			// Spark's day-time patterns take digits only:
			// '-\t10 12:34:46' is refused.
			return 0, false
		}
		v, ok := intervalValue(p, unit)
		if !ok || v < 0 {
			return 0, false
		}
		total += v
	}
	if neg {
		total = -total
	}
	return total, true
}

// formatInterval writes an interval as Spark prints a day-time interval
// literal: INTERVAL '1 02:03:04' DAY TO SECOND.
func formatInterval(us int64) string {
	sign := ""
	if us < 0 {
		sign = "-"
		us = -us
	}
	d := us / 86_400_000_000
	us %= 86_400_000_000
	h := us / 3_600_000_000
	us %= 3_600_000_000
	m := us / 60_000_000
	us %= 60_000_000
	sec := fmt.Sprintf("%02d", us/1_000_000)
	if f := us % 1_000_000; f != 0 {
		sec += strings.TrimRight(fmt.Sprintf(".%06d", f), "0")
	}
	return fmt.Sprintf("INTERVAL '%s%d %02d:%02d:%s' DAY TO SECOND", sign, d, h, m, sec)
}
