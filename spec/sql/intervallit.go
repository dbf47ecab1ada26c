package sql

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// Interval literals follow Spark's AstBuilder (visitInterval,
// visitMultiUnitsInterval, visitUnitToUnitInterval) with ANSI intervals
// (spark.sql.legacy.interval.enabled=false):
//
//	INTERVAL '1-2' YEAR TO MONTH, INTERVAL '2' YEAR, INTERVAL 3 MONTHS,
//	INTERVAL 1 YEAR 2 MONTHS, INTERVAL '1 year 2 months'  -- INTERVAL YEAR TO MONTH
//	INTERVAL '1 02:03:04' DAY TO SECOND, INTERVAL 15 MINUTES,
//	INTERVAL 1 DAY 2 HOURS, INTERVAL '1 day 2 hours'       -- INTERVAL DAY TO SECOND
//
// Year-month units (YEAR, MONTH) make a count of months, day-time units
// (WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND) a count of
// microseconds; one literal cannot mix the two (Spark: "Cannot mix
// year-month and day-time fields"). Only one `'...' unit TO unit` part is
// allowed, and only with a string value.

// intervalAcc sums the parts of one interval literal.
type intervalAcc struct {
	months   int64 // year-month parts, in months
	micros   int64 // day-time parts, in microseconds
	ym, dt   bool  // which kinds of units were seen
	partDay  bool  // a day-time unit other than DAY and WEEK was seen
	overflow bool
}

func (a *intervalAcc) addMonths(v int64) {
	a.ym = true
	a.months += v
	if a.months > math.MaxInt32 || a.months < math.MinInt32 {
		a.overflow = true
	}
}

func (a *intervalAcc) addMicros(v int64) {
	a.dt = true
	s := a.micros + v
	if (v > 0 && s < a.micros) || (v < 0 && s > a.micros) {
		a.overflow = true
	}
	a.micros = s
}

// literal returns the literal's type and value.
func (a *intervalAcc) literal() (types.Type, any) {
	if a.ym {
		return types.YearMonthIntervalType, types.YearMonthInterval(int32(a.months))
	}
	if !a.partDay && a.micros%86_400_000_000 == 0 {
		// INTERVAL 2 DAYS, INTERVAL '3' WEEK: Spark's INTERVAL DAY.
		return types.DayIntervalType, types.Interval(a.micros)
	}
	return types.IntervalType, types.Interval(a.micros)
}

// parseInterval parses an INTERVAL literal (see above).
func (p *parser) parseInterval() astExpr {
	kw := p.advance()
	var acc intervalAcc
	end := kw.end
	units, ranges := 0, 0
	for {
		save := p.i
		t, neg, ok := p.intervalValueToken()
		if !ok {
			p.i = save
			if units == 0 {
				p.fail(t, "expected an interval value")
			}
			break
		}
		u := p.peekAt(1)
		unit, ym, isUnit := intervalUnit(u.val)
		if u.kind != tWord || !isUnit {
			if units > 0 {
				// Not another part: INTERVAL 1 MONTH - 1 subtracts.
				p.i = save
				break
			}
			if t.kind == tNumber {
				if u.kind == tWord {
					p.errorAt(u.pos, u.end, "INVALID_INTERVAL_FORMAT", "use YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND or MICROSECOND",
						"invalid interval unit %q", u.val)
					p.advance()
					p.advance()
					return &litExpr{typ: types.IntervalType, val: types.Interval(0), text: p.text[kw.pos:u.end], pos: kw.pos, end: u.end}
				}
				p.fail(u, "expected an interval unit such as YEAR, MONTH, DAY, HOUR, MINUTE or SECOND")
			}
			// INTERVAL '1 day 2 hours'
			p.advance()
			if msg := parseIntervalText(t.val, &acc); msg != "" {
				p.errorAt(kw.pos, t.end, "INVALID_INTERVAL_FORMAT", "", "%s", msg)
			}
			if neg {
				acc.months, acc.micros = -acc.months, -acc.micros
			}
			end = t.end
			units++
			break
		}
		if ranges > 0 {
			p.errorAt(t.pos, u.end, "INVALID_INTERVAL_FORMAT", "write one interval literal per unit range",
				"can only have a single from-to unit in the interval literal syntax")
		}
		p.advance()
		p.advance()
		end = u.end
		units++
		var months, micros int64
		okv := true
		if p.peek().is("TO") {
			p.advance()
			to := p.ident("an interval unit")
			end = to.end
			ranges++
			if units > 1 {
				p.errorAt(t.pos, end, "INVALID_INTERVAL_FORMAT", "write one interval literal per unit range",
					"can only have a single from-to unit in the interval literal syntax")
			}
			if t.kind != tString {
				p.errorAt(t.pos, end, "INVALID_INTERVAL_FORMAT", "write the value in quotes: INTERVAL '1-2' YEAR TO MONTH",
					"the value of from-to unit must be a string")
				continue
			}
			toUnit, ym2, okTo := intervalUnit(to.name)
			switch {
			case !okTo:
				p.errorAt(to.pos, to.end, "INVALID_INTERVAL_FORMAT", "", "invalid interval unit %q", to.name)
				continue
			case ym && ym2 && unit == "YEAR" && toUnit == "MONTH":
				var msg string
				months, msg = parseYearMonthString(t.val, neg)
				neg = false // applied: -'178956970-8' is the smallest INT
				if msg != "" {
					p.errorAt(t.pos, end, "INVALID_INTERVAL_FORMAT", "write the value as [+|-]years-months, e.g. '1-2'", "%s", msg)
					continue
				}
			case !ym && !ym2:
				micros, okv = parseIntervalFields(t.val, unit, toUnit)
			default:
				p.errorAt(u.pos, end, "INVALID_INTERVAL_FORMAT", "use YEAR TO MONTH, or a range of DAY, HOUR, MINUTE and SECOND",
					"intervals FROM %s TO %s are not supported", strings.ToLower(unit), strings.ToLower(toUnit))
				continue
			}
		} else if t.kind == tString && !isIntervalNumber(t.val) {
			p.errorAt(t.pos, u.end, "INVALID_INTERVAL_FORMAT", "write INTERVAL '1 day 2 hours' or INTERVAL '1' DAY",
				"can only use numbers in the interval value part for multiple unit value pairs interval form, but got invalid value: %s", t.val)
			continue
		} else if ym {
			months, okv = yearMonthValue(t.val, unit)
		} else {
			micros, okv = intervalValue(t.val, unit)
		}
		if !okv {
			p.errorAt(t.pos, u.end, "INVALID_INTERVAL_FORMAT", "", "cannot parse %s %s as an interval", t.describe(), u.val)
			continue
		}
		if neg {
			months, micros = -months, -micros
		}
		if ym {
			acc.addMonths(months)
		} else {
			acc.addMicros(micros)
			acc.partDay = acc.partDay || ranges > 0 || (unit != "DAY" && unit != "WEEK")
		}
	}
	switch {
	case acc.ym && acc.dt:
		p.errorAt(kw.pos, end, "INVALID_INTERVAL_FORMAT", "write two literals, one of years and months and one of days and times, and add them to the date or timestamp one after the other",
			"cannot mix year-month and day-time fields: %s", p.text[kw.pos:end])
	case acc.overflow:
		p.errorAt(kw.pos, end, "INVALID_INTERVAL_FORMAT", "", "interval %s overflows: integer overflow", p.text[kw.pos:end])
	}
	typ, val := acc.literal()
	return &litExpr{typ: typ, val: val, text: p.text[kw.pos:end], pos: kw.pos, end: end}
}

// intervalValueToken reads the value of one interval part: a number or a
// string, optionally signed; ok is false (and nothing is consumed) when
// the next token is not one.
func (p *parser) intervalValueToken() (t token, neg, ok bool) {
	t = p.peek()
	if (t.isOp("-") || t.isOp("+")) && (p.peekAt(1).kind == tString || p.peekAt(1).kind == tNumber) {
		neg = t.isOp("-")
		p.advance()
		t = p.peek()
	}
	return t, neg, t.kind == tString || t.kind == tNumber
}

// isIntervalNumber reports whether s (trimmed) is a signed decimal number,
// the only value a string may hold in the multi-unit form.
func isIntervalNumber(s string) bool {
	s = strings.TrimSpace(s)
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = strings.TrimLeft(s[1:], " \t\n\r")
	}
	_, ok := new(big.Rat).SetString(s)
	return ok && s != "" && !strings.ContainsAny(s, "eE/")
}

// yearMonthValue converts a whole number of years or months into months.
func yearMonthValue(num, unit string) (int64, bool) {
	num = signedNumber(num)
	n, ok := new(big.Int).SetString(strings.TrimPrefix(num, "+"), 10)
	if !ok {
		return 0, false
	}
	if unit == "YEAR" {
		n.Mul(n, big.NewInt(12))
	}
	if !n.IsInt64() || n.Int64() > math.MaxInt32 || n.Int64() < math.MinInt32 {
		return 0, false
	}
	return n.Int64(), true
}

// signedNumber trims s and the white space between a leading sign and the
// digits ('-\t 1' DAY is -1 day in Spark).
func signedNumber(s string) string {
	s = strings.TrimSpace(s)
	if s != "" && (s[0] == '-' || s[0] == '+') {
		return s[:1] + strings.TrimLeft(s[1:], " \t\n\r")
	}
	return s
}

// parseYearMonthString parses the value of INTERVAL '[+|-]y-m' YEAR TO
// MONTH into months (Spark's fromYearMonthString), negated when the
// literal has a minus sign before the quote: months 0 to 11, the total
// within an INT.
func parseYearMonthString(s string, negated bool) (int64, string) {
	body := strings.TrimSpace(s)
	sign := int64(1)
	if negated {
		sign = -1
	}
	if body != "" && (body[0] == '-' || body[0] == '+') {
		if body[0] == '-' {
			sign = -sign
		}
		body = body[1:]
	}
	y, m, ok := strings.Cut(body, "-")
	if !ok || !allDigits(y) || !allDigits(m) {
		return 0, fmt.Sprintf("interval string does not match year-month format of `[+|-]y-m`: %s", s)
	}
	years, ok1 := new(big.Int).SetString(y, 10)
	mon, ok2 := new(big.Int).SetString(m, 10)
	if !ok1 || !ok2 {
		return 0, fmt.Sprintf("interval string does not match year-month format of `[+|-]y-m`: %s", s)
	}
	if mon.Cmp(big.NewInt(11)) > 0 {
		return 0, fmt.Sprintf("month %s outside range [0, 11]", m)
	}
	total := new(big.Int).Add(new(big.Int).Mul(years, big.NewInt(12)), mon)
	total.Mul(total, big.NewInt(sign))
	if !total.IsInt64() || total.Int64() > math.MaxInt32 || total.Int64() < math.MinInt32 {
		return 0, "error parsing interval year-month string: integer overflow"
	}
	return total.Int64(), ""
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseIntervalText parses the multi-unit string form '1 year 2 months' or
// '1 day 2 hours' (an optional leading "interval" word is allowed) into
// acc; it returns an error message, or "".
func parseIntervalText(s string, acc *intervalAcc) string {
	fields := strings.Fields(s)
	if len(fields) > 0 && strings.EqualFold(fields[0], "interval") {
		fields = fields[1:]
	}
	bad := fmt.Sprintf("cannot parse the INTERVAL value: %s", s)
	// A sign may stand apart from its number: '- 1 day'.
	var toks []string
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if (f == "-" || f == "+") && i+1 < len(fields) {
			toks = append(toks, f+fields[i+1])
			i++
			continue
		}
		toks = append(toks, f)
	}
	if len(toks) == 0 || len(toks)%2 != 0 {
		return bad
	}
	for i := 0; i < len(toks); i += 2 {
		unit, ym, ok := intervalUnit(toks[i+1])
		if !ok || !isIntervalNumber(toks[i]) {
			return bad
		}
		num := toks[i]
		neg := strings.HasPrefix(num, "-")
		num = strings.TrimLeft(num, "+-")
		value, add := intervalValue, acc.addMicros
		if ym {
			value, add = yearMonthValue, acc.addMonths
		}
		v, ok := value(num, unit)
		if !ok {
			return bad
		}
		if neg {
			v = -v
		}
		add(v)
		acc.partDay = acc.partDay || (!ym && unit != "DAY" && unit != "WEEK")
	}
	return ""
}

// formatYearMonthInterval writes months as Spark prints a year-month
// interval literal: INTERVAL '1-2' YEAR TO MONTH.
func formatYearMonthInterval(months int32) string {
	sign := ""
	m := int64(months)
	if m < 0 {
		sign, m = "-", -m
	}
	return fmt.Sprintf("INTERVAL '%s%d-%d' YEAR TO MONTH", sign, m/12, m%12)
}
