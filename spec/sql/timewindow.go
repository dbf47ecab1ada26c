package sql

import (
	"strconv"
	"strings"
)

// This file checks the constant arguments of window() (Spark's TimeWindow:
// tumbling windows of a fixed duration, e.g. window(ts, '10 minutes')) and
// where non-deterministic functions may appear.

// windowUnits are the units of a window duration, in µs (Spark's
// IntervalUtils; months and years are not fixed durations).
var windowUnits = map[string]int64{
	"microsecond": 1, "millisecond": 1000, "second": 1_000_000, "minute": 60_000_000,
	"hour": 3_600_000_000, "day": 86_400_000_000, "week": 7 * 86_400_000_000,
}

// parseDuration parses a window duration such as '10 minutes', '1 hour 30
// minutes' or 'interval 2 days' into µs; ok is false for anything else
// (months and years included) and for a duration that is not positive.
func parseDuration(s string) (int64, bool) {
	f := strings.Fields(strings.ToLower(s))
	if len(f) > 0 && f[0] == "interval" {
		f = f[1:]
	}
	if len(f) == 0 || len(f)%2 != 0 {
		return 0, false
	}
	var total int64
	for i := 0; i < len(f); i += 2 {
		n, err := strconv.ParseInt(f[i], 10, 64)
		unit, ok := windowUnits[strings.TrimSuffix(f[i+1], "s")]
		if err != nil || !ok || n < 0 || n > (1<<62)/unit {
			return 0, false
		}
		total += n * unit
	}
	return total, total > 0
}

// WindowDurations returns the window length and start offset (µs) of a
// window() call the checker accepted; ok is false when its slide differs
// from its length (sliding windows, which yield several rows per input row,
// are not compiled).
func WindowDurations(e *Call) (size, offset int64, ok bool) {
	str := func(i int) string {
		if i >= len(e.Args) {
			return ""
		}
		s, _ := e.Args[i].(*Literal).Value.(string)
		return s
	}
	size, _ = parseDuration(str(1))
	if s := str(2); s != "" {
		if slide, _ := parseDuration(s); slide != size {
			return size, 0, false
		}
	}
	if s := str(3); s != "" {
		offset, _ = parseSignedDuration(s)
	}
	return size, offset, true
}

// parseSignedDuration is parseDuration that also accepts 0 and a leading
// minus (window's start offset).
func parseSignedDuration(s string) (int64, bool) {
	t := strings.TrimSpace(s)
	neg := strings.HasPrefix(t, "-")
	d, ok := parseDuration(strings.TrimPrefix(t, "-"))
	if !ok {
		if f := strings.Fields(t); len(f) == 2 && f[0] == "0" {
			return 0, true
		}
		return 0, false
	}
	if neg {
		d = -d
	}
	return d, true
}

// checkWindow validates window()'s constant durations.
func (c *checker) checkWindow(call *Call, asts []astExpr) bool {
	for i := 1; i < len(call.Args); i++ {
		s := call.Args[i].(*Literal).Value.(string)
		parse := parseDuration
		if i == 3 {
			parse = parseSignedDuration
		}
		if _, ok := parse(s); !ok {
			c.errorAt(asts[i], "INVALID_PARAMETER_VALUE", "write a duration such as '10 minutes' or '1 hour' (months and years are not fixed durations)",
				"argument %d of window is not a valid duration: %q", i+1, s)
			return false
		}
	}
	if size, _, ok := WindowDurations(call); !ok {
		c.errorAt(asts[2], "UNSUPPORTED_FEATURE", "use a tumbling window: omit the slide or make it equal to the duration",
			"sliding windows are not supported yet (duration %dµs, another slide)", size)
		return false
	}
	return true
}

// nondeterministicCall returns the first call in e of a function whose
// result changes from one evaluation to the next (rand, uuid), or nil.
// current_timestamp and current_date are fixed for an update, as Spark
// folds them once per query.
func nondeterministicCall(e Expr) *Call {
	if c, ok := e.(*Call); ok && !strings.HasPrefix(c.Func, "current_") {
		if f := LookupFunction(c.Func); f != nil && f.Nondeterministic {
			return c
		}
	}
	for _, k := range children(e) {
		if c := nondeterministicCall(k); c != nil {
			return c
		}
	}
	return nil
}

// deterministicOnly reports an error when e, in clause, calls rand or
// uuid: Spark allows non-deterministic expressions only in the SELECT
// list, WHERE, GROUP BY and HAVING (Project, Filter and Aggregate), and
// rejects them elsewhere (INVALID_NON_DETERMINISTIC_EXPRESSIONS).
func (c *checker) deterministicOnly(e Expr, at astExpr, clause string) bool {
	call := nondeterministicCall(e)
	if call == nil {
		return true
	}
	c.errorAt(at, "INVALID_NON_DETERMINISTIC_EXPRESSIONS", "compute it in the SELECT list of a subquery and refer to that column",
		"non-deterministic function %s is not allowed in %s", call.Func, clause)
	return false
}
