package sql

import (
	"math"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds the functions that are another expression spelled as a
// call (Spark's RuntimeReplaceable expressions and operator functions):
// equal_null (<=>), ilike (ILIKE), div (DIV), weekday, localtimestamp;
// and width_bucket, the make_timestamp of a date, which are not.
// Each is rewritten before its arguments are checked, so it types, folds
// and fails exactly as the expression it stands for. Semantics are
// Spark's (nullExpressions.scala EqualNull, regexpExpressions.scala
// ILike, arithmetic.scala IntegralDivide, datetimeExpressions.scala
// WeekDay and LocalTimestamp).

var spellingFunctions = []*Function{
	{Name: "equal_null", Args: args(ArgAny, ArgAny), MinArgs: 2, Result: ResFixed, Type: types.BooleanType, Nulls: NullNever,
		Doc: "equal_null(a, b) is a <=> b: TRUE when both are NULL or both are equal, FALSE otherwise (never NULL)"},
	{Name: "ilike", Args: args(ArgString, ArgString, ArgStringConst), MinArgs: 2, Result: ResFixed, Type: types.BooleanType,
		Doc: "ilike(s, pattern[, escape]) is s ILIKE pattern [ESCAPE escape]: LIKE without regard to case"},
	{Name: "div", Args: args(ArgAny, ArgAny), MinArgs: 2, Result: ResFixed, Type: types.LongType,
		Doc: "div(a, b) is a DIV b: the integral part of a / b as a BIGINT, of numbers or of two intervals of the same kind; division by zero is an error"},
	{Name: "weekday", Args: args(ArgDate), MinArgs: 1, Result: ResFixed, Type: types.IntType,
		Doc: "the day of the week, 0 (Monday) to 6 (Sunday)"},
	{Name: "width_bucket", Impl: withKind(withKind(nullOnFail("WidthBucket"), types.IntervalKind, "WidthBucketInterval"), types.YearMonthIntervalKind, "WidthBucketYMInterval"),
		Args: args(ArgDouble, ArgDouble, ArgDouble, ArgLong), MinArgs: 4, Result: ResFixed, Type: types.LongType, Nulls: NullAlways,
		Doc: "width_bucket(value, min, max, n): the bucket, 1 to n, of value among n equal-width buckets from min to max (0 below, n+1 above; reversed when min > max), of numbers or of intervals of one kind; NULL when n <= 0, min = max or a bound is NaN or infinite"},
	{Name: "localtimestamp", Result: ResFixed, Type: types.TimestampNTZType, Nulls: NullNever, Nondeterministic: true,
		Doc: "the time the update started as a TIMESTAMP_NTZ: its wall-clock time in the session time zone"},
}

// rewriteSpelling rewrites a call of spellingFunctions into the
// expression it spells, checked in ctx; handled is false for other calls
// and for calls of the wrong arity (the function table reports those).
func (c *checker) rewriteSpelling(e *callExpr, ctx *exprCtx) (Expr, bool) {
	n := len(e.args)
	call := func(name string, args ...astExpr) *callExpr {
		return &callExpr{name: ident{name: name, pos: e.name.pos, end: e.name.end}, args: args, end: e.end}
	}
	intLit := func(v int32, text string) astExpr {
		return &litExpr{typ: types.IntType, val: v, text: text, pos: e.name.pos, end: e.name.pos}
	}
	switch e.name.name {
	case "make_timestamp", "try_make_timestamp":
		if n != 2 && n != 3 {
			return nil, false
		}
		return c.makeTimestampOfDateTime(e, ctx)
	case "equal_null":
		if n != 2 {
			return nil, false
		}
		return c.expr(&binaryExpr{op: "<=>", l: e.args[0], r: e.args[1], opPos: e.name.pos}, ctx), true
	case "div":
		if n != 2 {
			return nil, false
		}
		return c.expr(&binaryExpr{op: "DIV", l: e.args[0], r: e.args[1], opPos: e.name.pos}, ctx), true
	case "ilike":
		if n != 2 && n != 3 {
			return nil, false
		}
		l := &likeExpr{x: e.args[0], pattern: e.args[1], op: "ILIKE", pos: e.name.pos}
		if n == 3 {
			esc, ok := e.args[2].(*litExpr)
			if !ok || esc.typ.Kind != types.StringKind {
				c.errorAt(e.args[2], "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "write the escape character as a string literal, e.g. '\\\\'",
					"the escape of ilike must be a one-character string literal")
				return bad, true
			}
			l.escape = esc
		}
		return c.expr(l, ctx), true
	case "weekday":
		if n != 1 {
			return nil, false
		}
		// dayofweek is 1 (Sunday) to 7 (Saturday); weekday 0 (Monday) to 6 (Sunday).
		sum := &binaryExpr{op: "+", l: call("dayofweek", e.args[0]), r: intLit(5, "5"), opPos: e.name.pos}
		return c.expr(&binaryExpr{op: "%", l: sum, r: intLit(7, "7"), opPos: e.name.pos}, ctx), true
	case "localtimestamp":
		if n != 0 {
			return nil, false
		}
		return c.expr(&castExpr{x: call("current_timestamp"), to: types.TimestampNTZType, pos: e.name.pos, end: e.end}, ctx), true
	}
	return nil, false
}

// makeTimestampOfDate checks make_timestamp(date[, time[, zone]]) (Spark
// 4.1's MakeTimestampFromDateTime, which casts nothing: a TIMESTAMP where
// the DATE goes is DATATYPE_MISMATCH). pipegen has no TIME type, so the
// forms it computes are make_timestamp(date), the date's midnight in the
// session time zone (CAST(date AS TIMESTAMP)), and those with a NULL
// argument, which are NULL.
func (c *checker) makeTimestampOfDate(fn *Function, args []Expr, asts []astExpr, pos int) Expr {
	want := []types.Kind{types.DateKind, types.InvalidKind, types.StringKind}
	names := []string{"DATE", "TIME", "STRING"}
	null := false
	for i, a := range args {
		k := a.ResultType().Kind
		if k == types.VoidKind {
			null = true
			continue
		}
		if k != want[i] {
			hint := ""
			if i == 1 {
				hint = "pipegen has no TIME type: write make_timestamp(year, month, day, hour, min, sec) instead"
			}
			c.errorAt(asts[i], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", hint,
				"argument %d of %s must be %s, not %s", i+1, fn.Name, names[i], a.ResultType())
			return bad
		}
	}
	if null {
		return &Literal{Type: types.TimestampType}
	}
	if len(args) > 1 {
		c.errorAt(asts[1], "UNSUPPORTED_FEATURE", "write make_timestamp(year, month, day, hour, min, sec[, zone]) instead", "pipegen has no TIME type")
		return bad
	}
	return &Cast{X: args[0], Type: types.TimestampType, Nullable: args[0].IsNullable(), Pos: pos}
}

// widthBucketOfIntervals checks width_bucket(value, min, max, n) of
// intervals (Spark's WidthBucket takes DOUBLE, YearMonthIntervalType or
// DayTimeIntervalType bounds, all three of one kind); handled is false when
// the value is not an interval (the function table casts numbers to DOUBLE).
func (c *checker) widthBucketOfIntervals(fn *Function, e *callExpr, args []Expr) (Expr, bool) {
	if len(args) != 4 || !args[0].ResultType().IsInterval() {
		return nil, false
	}
	k := args[0].ResultType().Kind
	for i := 1; i < 3; i++ {
		if args[i].ResultType().Kind != k {
			c.errorf(e.name.pos, e.end, "DATATYPE_MISMATCH.DATA_DIFF_TYPES", "give the value and both bounds the same interval type",
				"the arguments of width_bucket must have the same type: %s and %s", args[0].ResultType(), args[i].ResultType())
			return bad, true
		}
	}
	n, ok := implicitArg(args[3].ResultType(), ArgLong)
	if !ok {
		c.errorAt(e.args[3], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "", "argument 4 of width_bucket must be BIGINT, not %s", args[3].ResultType())
		return bad, true
	}
	out := append(append([]Expr(nil), args[:3]...), c.castTo(args[3], n, e.args[3]))
	return &Call{Func: fn.Name, Args: out, Type: types.LongType, Nullable: true, Pos: e.name.pos}, true
}

// parseTimeOfDay reads the text of a TIME literal, H[H]:M[M][:S[S][.f]]
// with at most 6 fraction digits (Spark's TIME(6)), into microseconds of
// the day; ok is false for other text or a field out of range.
func parseTimeOfDay(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	whole, frac, hasFrac := strings.Cut(s, ".")
	parts := strings.Split(whole, ":")
	if len(parts) < 2 || len(parts) > 3 || hasFrac && (len(parts) != 3 || len(frac) == 0 || len(frac) > 6) {
		return 0, false
	}
	limits := []int64{23, 59, 59}
	var fields [3]int64
	for i, p := range parts {
		if len(p) == 0 || len(p) > 2 {
			return 0, false
		}
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil || v < 0 || v > limits[i] {
			return 0, false
		}
		fields[i] = v
	}
	var micros int64
	if hasFrac {
		f, err := strconv.ParseInt(frac+strings.Repeat("0", 6-len(frac)), 10, 64)
		if err != nil || f < 0 {
			return 0, false
		}
		micros = f
	}
	return ((fields[0]*60+fields[1])*60+fields[2])*1_000_000 + micros, true
}

// timeOfDayArg reads the time of make_timestamp(date, time[, zone]) when
// it is one pipegen computes: a TIME literal, or make_time(h, m, s) of
// literals in range (Spark's MakeTime: hour 0-23, minute 0-59, seconds a
// DECIMAL(16,6) in [0, 60)). It returns the hour, minute and seconds as
// literals for the six-field make_timestamp.
func timeOfDayArg(a astExpr) (h, m, sec astExpr, ok bool) {
	var micros int64
	switch a := a.(type) {
	case *litExpr:
		if !a.timeOfDay {
			return nil, nil, nil, false
		}
		micros = a.val.(int64)
	case *callExpr:
		if a.name.name != "make_time" || len(a.args) != 3 || a.over != nil || a.distinct || a.filter != nil {
			return nil, nil, nil, false
		}
		var fs [3]float64
		for i, x := range a.args {
			l, isLit := x.(*litExpr)
			if !isLit || l.val == nil || !l.typ.IsNumeric() {
				return nil, nil, nil, false
			}
			f, err := strconv.ParseFloat(l.text, 64)
			if err != nil {
				return nil, nil, nil, false
			}
			fs[i] = f
		}
		if fs[0] != float64(int64(fs[0])) || fs[1] != float64(int64(fs[1])) || fs[0] < 0 || fs[0] > 23 || fs[1] < 0 || fs[1] > 59 || fs[2] < 0 || fs[2] >= 60 {
			return nil, nil, nil, false
		}
		micros = (int64(fs[0])*60+int64(fs[1]))*60*1_000_000 + int64(math.Round(fs[2]*1_000_000))
	default:
		return nil, nil, nil, false
	}
	pos, end := a.span()
	lit := func(v int32) astExpr {
		return &litExpr{typ: types.IntType, val: v, text: strconv.Itoa(int(v)), pos: pos, end: end}
	}
	secs := types.DecimalFromInt64(micros % 60_000_000)
	text := secs.Format(6)
	return lit(int32(micros / 3_600_000_000)), lit(int32(micros / 60_000_000 % 60)),
		&litExpr{typ: types.DecimalOf(8, 6), val: secs, text: text, pos: pos, end: end}, true
}

// makeTimestampOfDateTime rewrites make_timestamp(date, time[, zone])
// with a time timeOfDayArg reads into the six-field make_timestamp of the
// date's year, month and day (Spark's MakeTimestampFromDateTime: the
// date's wall-clock time in the zone, default the session's). The date
// must be a DATE (or NULL, which gives NULL): Spark casts nothing there.
func (c *checker) makeTimestampOfDateTime(e *callExpr, ctx *exprCtx) (Expr, bool) {
	h, m, sec, ok := timeOfDayArg(e.args[1])
	if !ok {
		return nil, false
	}
	d := c.expr(e.args[0], ctx)
	if isBad(d) {
		return bad, true
	}
	switch d.ResultType().Kind {
	case types.DateKind:
	case types.VoidKind:
		return &Literal{Type: types.TimestampType}, true
	default:
		c.errorAt(e.args[0], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "", "argument 1 of %s must be DATE, not %s", e.name.name, d.ResultType())
		return bad, true
	}
	part := func(fn string) astExpr {
		return &callExpr{name: ident{name: fn, pos: e.name.pos, end: e.name.end}, args: []astExpr{e.args[0]}, end: e.end}
	}
	args := []astExpr{part("year"), part("month"), part("day"), h, m, sec}
	args = append(args, e.args[2:]...)
	return c.expr(&callExpr{name: e.name, args: args, end: e.end}, ctx), true
}
