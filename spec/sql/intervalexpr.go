package sql

import (
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// intervalArith types + - * / with an interval operand, as Spark's
// BinaryArithmetic with ANSI intervals does:
//
//   - interval ± interval of the same kind is that kind (year-month and
//     day-time intervals do not mix); ± NULL is NULL of the interval's type;
//   - interval * number, number * interval and interval / number are the
//     interval's kind (a STRING or NULL number is cast to DOUBLE); a number
//     divided by an interval is an error;
//   - interval div interval of the same kind is a BIGINT;
//   - a STRING ± INTERVAL DAY TO SECOND is the STRING of the TIMESTAMP it
//     names moved by the interval (Spark casts it to TIMESTAMP and back).
//
// The checker puts the interval first in products (mk gets it as l).
func (c *checker) intervalArith(op BinaryOp, l, r Expr, la, ra astExpr, pos int, mk func(l, r Expr, t types.Type) Expr, fail func() Expr) Expr {
	lt, rt := l.ResultType(), r.ResultType()
	switch op {
	case Add, Sub:
		switch {
		case lt.IsInterval() && rt.Kind == lt.Kind:
			t := lt
			t.Days = lt.Days && rt.Days
			return mk(l, r, t)
		case lt.IsInterval() && rt.Kind == types.VoidKind:
			return mk(l, c.castTo(r, lt, ra), lt)
		case rt.IsInterval() && lt.Kind == types.VoidKind:
			return mk(c.castTo(l, rt, la), r, rt)
		case rt.Kind == types.IntervalKind && lt.Kind == types.StringKind, op == Add && lt.Kind == types.IntervalKind && rt.Kind == types.StringKind:
			s, iv, sa := l, r, la
			if lt.Kind == types.IntervalKind {
				s, iv, sa = r, l, ra
			}
			ts := c.castTo(s, types.TimestampType, sa)
			moved := &Binary{Op: op, L: ts, R: iv, Type: types.TimestampType, Nullable: ts.IsNullable() || iv.IsNullable(), Pos: pos}
			return c.castTo(moved, types.StringType, sa)
		}
	case IntDiv:
		// interval div interval of one kind: a BIGINT (Spark's
		// IntegralDivide of ANSI intervals).
		if lt.IsInterval() && rt.Kind == lt.Kind {
			return mk(l, r, types.LongType)
		}
	case Mul, Div:
		iv, n, na := l, r, ra
		if !lt.IsInterval() {
			if op == Div {
				return fail()
			}
			iv, n, na = r, l, la
		}
		nt := n.ResultType()
		switch {
		case nt.IsNumeric():
		case nt.Kind == types.StringKind || nt.Kind == types.VoidKind:
			n = c.castTo(n, types.DoubleType, na)
		default:
			return fail()
		}
		return mk(iv, n, iv.ResultType())
	}
	return fail()
}

// yearMonthDatetimeArith types DATE, TIMESTAMP or TIMESTAMP_NTZ ± INTERVAL
// YEAR TO MONTH (and the interval + the date or time): Spark's
// DateAddYMInterval (a DATE) and TimestampAddYMInterval (the timestamp's
// type), add_months semantics with the day clamped to the end of the
// month. ok is false when no operand is a year-month interval.
func (c *checker) yearMonthDatetimeArith(op BinaryOp, l, r Expr, la, ra astExpr, pos int) (Expr, bool) {
	lk, rk := l.ResultType().Kind, r.ResultType().Kind
	ym := types.YearMonthIntervalKind
	nullable := l.IsNullable() || r.IsNullable()
	switch {
	case lk == types.DateKind && r.ResultType().Kind == types.IntervalKind && r.ResultType().Days,
		op == Add && rk == types.DateKind && l.ResultType().Kind == types.IntervalKind && l.ResultType().Days:
		// DATE ± INTERVAL DAY is a DATE: Spark's DateAdd(d,
		// ExtractANSIIntervalDays(iv)).
		d, iv := l, r
		if rk == types.DateKind {
			d, iv = r, l
		}
		fn := "date_add"
		if op == Sub {
			fn = "date_sub"
		}
		days := &Call{Func: "date_part", Args: []Expr{&Literal{Type: types.StringType, Value: "DAY"}, iv}, Type: types.IntType, Nullable: iv.IsNullable(), Pos: pos}
		return &Call{Func: fn, Args: []Expr{d, days}, Type: types.DateType, Nullable: nullable, Pos: pos}, true
	case isDatetime(lk) && rk == types.VoidKind, lk == types.VoidKind && isDatetime(rk):
		// A NULL operand: NULL of the result's type, an interval for
		// a difference (INTERVAL DAY of dates), else a TIMESTAMP.
		switch {
		case op == Add:
			return &Literal{Type: types.TimestampType}, true
		case lk == types.DateKind || rk == types.DateKind:
			return &Literal{Type: types.DayIntervalType}, true
		}
		return &Literal{Type: types.IntervalType}, true
	}
	switch {
	case isDatetime(lk) && rk == ym:
		return &Binary{Op: op, L: l, R: r, Type: l.ResultType(), Nullable: l.IsNullable() || r.IsNullable(), Pos: pos}, true
	case op == Add && lk == ym && isDatetime(rk):
		return &Binary{Op: op, L: r, R: l, Type: r.ResultType(), Nullable: l.IsNullable() || r.IsNullable(), Pos: pos}, true
	}
	return nil, false
}

// extractFieldNames maps the fields of EXTRACT and date_part, and their
// aliases, to the canonical field (Spark's DatePart.parseExtractField and
// ExtractIntervalPart.parseExtractField).
var extractFieldNames = map[string]string{
	"YEAR": "YEAR", "YEARS": "YEAR", "Y": "YEAR", "YR": "YEAR", "YRS": "YEAR",
	"YEAROFWEEK": "YEAROFWEEK",
	"QUARTER":    "QUARTER", "QTR": "QUARTER",
	"MONTH": "MONTH", "MONTHS": "MONTH", "MON": "MONTH", "MONS": "MONTH",
	"WEEK": "WEEK", "WEEKS": "WEEK", "W": "WEEK",
	"DAY": "DAY", "DAYS": "DAY", "D": "DAY",
	"DAYOFWEEK": "DAYOFWEEK", "DOW": "DAYOFWEEK",
	"DAYOFWEEK_ISO": "DAYOFWEEK_ISO", "DOW_ISO": "DAYOFWEEK_ISO",
	"DOY":  "DOY",
	"HOUR": "HOUR", "HOURS": "HOUR", "H": "HOUR", "HR": "HOUR", "HRS": "HOUR",
	"MINUTE": "MINUTE", "MINUTES": "MINUTE", "M": "MINUTE", "MIN": "MINUTE", "MINS": "MINUTE",
	"SECOND": "SECOND", "SECONDS": "SECOND", "S": "SECOND", "SEC": "SECOND", "SECS": "SECOND",
}

// datetimeFieldFuncs are the fields of a date or timestamp computed by a
// function of the table; the others are Calls of date_part itself.
var datetimeFieldFuncs = map[string]string{
	"YEAR": "year", "QUARTER": "quarter", "MONTH": "month", "WEEK": "weekofyear", "DAY": "day",
	"DAYOFWEEK": "dayofweek", "DOY": "dayofyear", "HOUR": "hour", "MINUTE": "minute",
}

// intervalFieldTypes are the fields of each interval kind and their types
// (Spark's ExtractANSIIntervalYears, ...Months, ...Days, ...Hours,
// ...Minutes, ...Seconds).
var intervalFieldTypes = map[types.Kind]map[string]types.Type{
	types.YearMonthIntervalKind: {"YEAR": types.IntType, "MONTH": types.ByteType},
	types.IntervalKind: {"DAY": types.IntType, "HOUR": types.ByteType, "MINUTE": types.ByteType,
		"SECOND": types.DecimalOf(8, 6)},
}

// datePart types date_part(field, source) and EXTRACT(field FROM source)
// (parsed as date_part): the field is a string literal (NULL gives a NULL
// DOUBLE); a date, timestamp or string source gives the field by the
// function computing it (SECOND as a DECIMAL(8,6) with the fraction), an
// interval source the interval's part. A field the source lacks is
// INVALID_EXTRACT_FIELD.
func (c *checker) datePart(e *callExpr, args []Expr, ctx *exprCtx) Expr {
	if len(args) != 2 {
		c.errorf(e.name.pos, e.end, "WRONG_NUM_ARGS", "write date_part('field', source)", "%s takes 2 arguments, not %d", e.name.name, len(args))
		return bad
	}
	lit, ok := args[0].(*Literal)
	switch {
	case ok && lit.Value == nil:
		return &Literal{Type: types.DoubleType}
	case !ok || lit.Type.Kind != types.StringKind:
		c.errorAt(e.args[0], "NON_FOLDABLE_ARGUMENT", "write the field as a string literal, e.g. 'YEAR'",
			"the field of %s must be a string literal", e.name.name)
		return bad
	}
	name := lit.Value.(string)
	field, known := extractFieldNames[strings.ToUpper(strings.TrimSpace(name))]
	src := args[1]
	st := src.ResultType()
	if st.IsInterval() {
		t, ok := intervalFieldTypes[st.Kind][field]
		if !known || !ok {
			c.errorAt(e.args[0], "INVALID_EXTRACT_FIELD", "extract YEAR or MONTH from a year-month interval, DAY, HOUR, MINUTE or SECOND from a day-time interval",
				"cannot extract %q from %s", name, st)
			return bad
		}
		return &Call{Func: "date_part", Args: []Expr{&Literal{Type: types.StringType, Value: field}, src}, Type: t, Nullable: src.IsNullable(), Pos: e.name.pos}
	}
	if !known {
		c.errorAt(e.args[0], "INVALID_EXTRACT_FIELD", "use YEAR, YEAROFWEEK, QUARTER, MONTH, WEEK, DAY, DAYOFWEEK, DAYOFWEEK_ISO, DOY, HOUR, MINUTE or SECOND",
			"cannot extract %q", name)
		return bad
	}
	if fn := datetimeFieldFuncs[field]; fn != "" {
		return c.call(&callExpr{name: ident{name: fn, pos: e.name.pos, end: e.name.end}, args: e.args[1:], end: e.end}, ctx)
	}
	var x Expr
	var t types.Type
	switch field {
	case "SECOND":
		target := types.TimestampType
		if st.Kind == types.TimestampNTZKind {
			target = st
		}
		x, t = c.castTo(src, target, e.args[1]), types.DecimalOf(8, 6)
	default: // YEAROFWEEK, DAYOFWEEK_ISO
		x, t = c.castTo(src, types.DateType, e.args[1]), types.IntType
	}
	if isBad(x) {
		return bad
	}
	return &Call{Func: "date_part", Args: []Expr{&Literal{Type: types.StringType, Value: field}, x}, Type: t, Nullable: x.IsNullable(), Pos: e.name.pos}
}

// refuseMakeInterval reports make_interval, whose result is Spark's legacy
// CalendarInterval (months, days and microseconds in one value), which
// pipegen does not have; ok is false for other names.
func (c *checker) refuseMakeInterval(e *callExpr) (Expr, bool) {
	if !strings.EqualFold(e.name.name, "make_interval") {
		return nil, false
	}
	c.errorf(e.name.pos, e.end, "UNSUPPORTED_FEATURE", "use make_ym_interval(years, months) or make_dt_interval(days, hours, mins, secs)",
		"make_interval returns a legacy CalendarInterval (months, days and microseconds together), which pipegen does not support")
	return bad, true
}

// intervalCall types the interval functions whose arguments the function
// table cannot describe: date_part, make_ym_interval and
// make_dt_interval (arguments left out are 0; the seconds are a
// DECIMAL(18,6), as Spark's MakeDTInterval takes them), and
// to_timestamp_ntz without a pattern (a cast). ok is false for every other
// function.
func (c *checker) intervalCall(fn *Function, e *callExpr, args []Expr, ctx *exprCtx) (Expr, bool) {
	var want []types.Type
	switch fn.Name {
	case "date_part":
		return c.datePart(e, args, ctx), true
	case "abs", "sign":
		// abs and signum of an interval (Spark's Abs, Signum): the
		// interval's type, a DOUBLE.
		if len(args) != 1 || !args[0].ResultType().IsInterval() {
			return nil, false
		}
		t := args[0].ResultType()
		if fn.Name == "sign" {
			t = types.DoubleType
		}
		return &Call{Func: fn.Name, Args: args, Type: t, Nullable: args[0].IsNullable(), Pos: e.name.pos}, true
	case "width_bucket":
		return c.widthBucketOfIntervals(fn, e, args)
	case "to_timestamp_ntz":
		// Without a pattern Spark's ParseToTimestamp is a cast.
		if len(args) != 1 {
			c.errorf(e.name.pos, e.end, "UNSUPPORTED_FEATURE", "parse with to_timestamp(s, pattern) and cast: CAST(to_timestamp(s, pattern) AS TIMESTAMP_NTZ)",
				"to_timestamp_ntz with a pattern is not supported")
			return bad, true
		}
		return c.explicitCast(args[0], types.TimestampNTZType, false, e.args[0], e.name.pos), true
	case "make_ym_interval":
		want = []types.Type{types.IntType, types.IntType}
	case "make_dt_interval":
		want = []types.Type{types.IntType, types.IntType, types.IntType, types.DecimalOf(18, 6)}
	default:
		return nil, false
	}
	if len(args) > len(want) {
		c.errorf(e.name.pos, e.end, "WRONG_NUM_ARGS", "", "%s takes at most %d arguments, not %d", fn.Name, len(want), len(args))
		return bad, true
	}
	out := make([]Expr, len(want))
	nullable := false
	for i, t := range want {
		if i >= len(args) {
			v := any(int32(0))
			if t.Kind == types.DecimalKind {
				v = types.DecimalFromInt64(0)
			}
			out[i] = &Literal{Type: t, Value: v}
			continue
		}
		at := args[i].ResultType()
		if !at.IsNumeric() && at.Kind != types.VoidKind && at.Kind != types.StringKind || t.Kind == types.IntKind && !at.IsIntegral() && at.Kind != types.VoidKind && at.Kind != types.StringKind {
			c.errorAt(e.args[i], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "cast it: CAST(x AS "+t.String()+")",
				"argument %d of %s must be %s, not %s", i+1, fn.Name, t, at)
			return bad, true
		}
		out[i] = c.castTo(args[i], t, e.args[i])
		nullable = nullable || out[i].IsNullable()
	}
	return &Call{Func: fn.Name, Args: out, Type: fn.Type, Nullable: nullable, Pos: e.name.pos}, true
}
