package sql

import (
	"strconv"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/types"
)

// This file checks the constant arguments of window() (Spark's TimeWindow:
// tumbling windows of a fixed duration, e.g. window(ts, '10 minutes'), and
// sliding windows in GROUP BY, e.g. window(ts, '10 minutes', '5 minutes')),
// where non-deterministic functions may appear, and the session time zone
// of TIMESTAMP literals.

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
	size, slide, offset := WindowSpec(e)
	return size, offset, slide == size
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

// WindowSpec returns the duration, slide and start offset (µs) of a
// window() call the checker accepted; the slide is the duration when the
// call has none (a tumbling window).
func WindowSpec(e *Call) (size, slide, offset int64) {
	str := func(i int) string {
		if i >= len(e.Args) {
			return ""
		}
		s, _ := e.Args[i].(*Literal).Value.(string)
		return s
	}
	size, _ = parseDuration(str(1))
	slide = size
	if s := str(2); s != "" {
		slide, _ = parseDuration(s)
	}
	if s := str(3); s != "" {
		offset, _ = parseSignedDuration(s)
	}
	return size, slide, offset
}

// checkWindow validates window()'s constant durations. A slide shorter
// than the duration (a sliding window) must not exceed it, and the start
// offset must be shorter than the slide, as Spark requires; such a call
// is allowed only as a GROUP BY expression (expandSlidingWindows).
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
	if size, slide, _ := WindowSpec(call); slide != size {
		if slide > size {
			c.errorAt(asts[2], "INVALID_PARAMETER_VALUE", "make the slide at most the window's duration",
				"the slide of window (%s) is longer than its duration (%s)", call.Args[2].(*Literal).Value, call.Args[1].(*Literal).Value)
			return false
		}
		if len(call.Args) > 3 {
			if off, _ := parseSignedDuration(call.Args[3].(*Literal).Value.(string)); off <= -slide || off >= slide {
				c.errorAt(asts[3], "INVALID_PARAMETER_VALUE", "make the start offset shorter than the slide",
					"the start offset of a sliding window must be shorter than its slide (%s)", call.Args[2].(*Literal).Value)
				return false
			}
		}
	}
	return true
}

// isSlidingWindow reports whether e is a window() call whose slide is
// shorter than its duration.
func isSlidingWindow(e Expr) bool {
	call, ok := e.(*Call)
	if !ok || call.Func != "window" {
		return false
	}
	size, slide, _ := WindowSpec(call)
	return slide != size
}

// expandSlidingWindows rewrites a GROUP BY of a sliding window: each
// input row yields one row per window holding its timestamp (a Generate
// of Func "window" under the Aggregate, Spark's expansion of TimeWindow),
// grouped by the generated window column. Only one sliding window may be
// grouped by, as in Spark (several would multiply the rows).
func (c *checker) expandSlidingWindows(agg *Aggregate) bool {
	found := -1
	for i, g := range agg.Groups {
		if !isSlidingWindow(g) {
			continue
		}
		call := g.(*Call)
		if found >= 0 {
			c.errorf(call.Pos, call.Pos+len("window"), "UNSUPPORTED_FEATURE", "group by one time window",
				"only one sliding window() can be grouped by")
			return false
		}
		found = i
	}
	if found < 0 {
		return true
	}
	call := agg.Groups[found].(*Call)
	in := agg.Input.Output()
	cols := append(append([]Column(nil), in...), Column{Name: "window", Type: call.Type, Nullable: call.Nullable, Hidden: true})
	agg.Input = &Generate{Input: agg.Input, Func: "window", Arg: call, Columns: cols}
	groups := append([]Expr(nil), agg.Groups...)
	groups[found] = &ColumnRef{Index: len(in), Name: "window", Type: call.Type, Nullable: call.Nullable}
	agg.Groups = groups
	return true
}

// checkSlidingWindows reports the sliding window() calls of p that are not
// the argument of a window Generate: sliding windows elsewhere than in
// GROUP BY, which would yield several rows per input row.
func (c *checker) checkSlidingWindows(p Plan) {
	WalkPlans(p, func(q Plan) {
		if g, ok := q.(*Generate); ok && g.Func == "window" {
			return
		}
		WalkPlanExprs(q, func(e Expr) bool {
			if isSlidingWindow(e) {
				call := e.(*Call)
				c.errorf(call.Pos, call.Pos+len("window"), "UNSUPPORTED_FEATURE",
					"group by it: GROUP BY window(ts, '10 minutes', '5 minutes') (select it as a grouped column)",
					"a sliding window() is supported only as a GROUP BY expression")
			}
			return true
		})
	})
}

// deterministicOnly reports an error when e, in clause, calls rand or
// uuid: Spark allows non-deterministic expressions only in the SELECT
// list, WHERE, GROUP BY and HAVING (Project, Filter and Aggregate), and
// rejects them elsewhere (INVALID_NON_DETERMINISTIC_EXPRESSIONS).
func (c *checker) deterministicOnly(e Expr, at astExpr, clause string) bool {
	call := NondeterministicCall(e, true)
	if call == nil {
		return true
	}
	c.errorAt(at, "INVALID_NON_DETERMINISTIC_EXPRESSIONS", "compute it in the SELECT list of a subquery and refer to that column",
		"non-deterministic function %s is not allowed in %s", call.Func, clause)
	return false
}

// literal checks a literal. A zone-less TIMESTAMP literal is read in the
// pipeline's session time zone when the catalog has one (Spark reads
// TIMESTAMP '2024-01-01 10:00' in spark.sql.session.timeZone); the parser
// read it in UTC.
func (c *checker) literal(e *litExpr) Expr {
	if e.timeOfDay {
		c.errorAt(e, "UNSUPPORTED_DATATYPE", "a TIME literal is accepted only in make_timestamp(date, TIME '...'); store the time of day as a STRING or as seconds",
			"the TIME type is not supported")
		return bad
	}
	if e.typ.Kind == types.TimestampKind && e.val != nil && c.cat != nil {
		z, hasZone := c.cat.(interface{ SessionTimeZone() *time.Location })
		if hasZone && !strings.HasPrefix(strings.ToUpper(e.text), "TIMESTAMP_NTZ") {
			if ts, ok := sqlfn.ParseTimestampIn(e.str, z.SessionTimeZone()); ok {
				return &Literal{Value: ts, Type: e.typ}
			}
		}
	}
	return &Literal{Value: e.val, Type: e.typ}
}

// readsStream reports whether p reads a stream (STREAM(x), also through
// an inlined temporary view).
func readsStream(p Plan) bool {
	found := false
	WalkPlans(p, func(q Plan) {
		if s, ok := q.(*Scan); ok && s.Streaming {
			found = true
		}
	})
	return found
}

// streamJoinOK applies Structured Streaming's join rules: a stream may
// join a snapshot (stream-static: the snapshot is read again at each
// micro-batch) when the stream's rows are the ones an outer join keeps —
// inner, cross, and stream LEFT [OUTER|SEMI|ANTI] JOIN static, or static
// RIGHT JOIN stream; two streams cannot be joined yet.
func (c *checker) streamJoinOK(j *joinRef, l, r Plan) bool {
	ls, rs := readsStream(l), readsStream(r)
	end := j.pos + len("JOIN")
	switch {
	case ls && rs:
		c.errorf(j.pos, end, "UNSUPPORTED_FEATURE.STREAM_STREAM_JOIN", "join the stream with a table read without STREAM(...) (a stream-static join), or join in a materialized view",
			"joins of two streams are not supported yet: both sides of this JOIN read STREAM(...)")
		return false
	case ls && (j.kind == RightJoin || j.kind == FullJoin):
		c.errorf(j.pos, end, "UNSUPPORTED_FEATURE.STREAM_STATIC_OUTER_JOIN", "put the stream on the left of a LEFT JOIN",
			"a %s JOIN with the stream on the left is not supported: rows of the static side would have to wait for the whole stream", joinWord(j.kind))
		return false
	case rs && j.kind != InnerJoin && j.kind != CrossJoin && j.kind != RightJoin:
		c.errorf(j.pos, end, "UNSUPPORTED_FEATURE.STREAM_STATIC_OUTER_JOIN", "put the stream on the left (stream LEFT JOIN static), or use an inner join",
			"a %s JOIN with the stream on the right is not supported: rows of the static side would have to wait for the whole stream", joinWord(j.kind))
		return false
	}
	return true
}

func joinWord(k JoinKind) string {
	return [...]string{InnerJoin: "INNER", LeftJoin: "LEFT", RightJoin: "RIGHT", FullJoin: "FULL OUTER", CrossJoin: "CROSS",
		LeftSemiJoin: "LEFT SEMI", LeftAntiJoin: "LEFT ANTI"}[k]
}
