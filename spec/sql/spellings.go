package sql

import "github.com/pipegen/pipegen/runtime/types"

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
