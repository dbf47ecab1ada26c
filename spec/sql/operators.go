package sql

import (
	"github.com/pipegen/pipegen/runtime/types"
)

func (c *checker) unary(e *unaryExpr, ctx *exprCtx) Expr {
	if e.op == "NOT" {
		x := c.boolean(e.x, ctx, "the operand of NOT")
		if isBad(x) {
			return bad
		}
		return &Unary{Op: Not, X: x, Type: types.BooleanType, Pos: e.pos}
	}
	x := c.expr(e.x, ctx)
	if isBad(x) {
		return bad
	}
	t := x.ResultType()
	if e.op == "~" {
		switch {
		case t.IsIntegral():
		case t.Kind == types.VoidKind:
			x, t = c.castTo(x, types.IntType, e.x), types.IntType
		default:
			c.errorAt(e, "DATATYPE_MISMATCH", "", "the ~ operator needs an integral operand, not %s", t)
			return bad
		}
		return &Unary{Op: BitNot, X: x, Type: t, Pos: e.pos}
	}
	switch {
	case t.IsNumeric() || t.IsInterval():
	case t.Kind == types.StringKind || t.Kind == types.VoidKind:
		x, t = c.castTo(x, types.DoubleType, e.x), types.DoubleType
	default:
		c.errorAt(e, "DATATYPE_MISMATCH", "", "the unary %s operator needs a numeric operand, not %s", e.op, t)
		return bad
	}
	if e.op == "+" {
		return x
	}
	return &Unary{Op: Negate, X: x, Type: t, Pos: e.pos}
}

// binary types l op r.
func (c *checker) binary(op BinaryOp, l, r Expr, la, ra astExpr, pos int) Expr {
	switch op {
	case Eq, NotEq, Lt, LtEq, Gt, GtEq, NullSafeEq:
		return c.compare(op, l, r, la, ra, pos)
	case And, Or:
		l, r = c.toBoolean(l, la, "the left operand of "+op.String()), c.toBoolean(r, ra, "the right operand of "+op.String())
		if isBad(l) || isBad(r) {
			return bad
		}
		return &Binary{Op: op, L: l, R: r, Type: types.BooleanType, Nullable: l.IsNullable() || r.IsNullable(), Pos: pos}
	case Concat:
		return c.concat(l, r, la, ra, pos)
	case BitAnd, BitOr, BitXor:
		lt, rt := l.ResultType(), r.ResultType()
		t, ok := tightestCommon(lt, rt)
		if t.Kind == types.VoidKind {
			t = types.IntType
		}
		if !ok || !t.IsIntegral() {
			c.errorf(pos, pos+1, "DATATYPE_MISMATCH", "", "the %s operator needs integral operands, not %s and %s", op, lt, rt)
			return bad
		}
		l, r = c.castTo(l, t, la), c.castTo(r, t, ra)
		return &Binary{Op: op, L: l, R: r, Type: t, Nullable: l.IsNullable() || r.IsNullable(), Pos: pos}
	}
	return c.arith(op, l, r, la, ra, pos)
}

// arith types + - * / DIV % (BinaryArithmetic with Spark's ANSI coercion
// and DecimalPrecision).
func (c *checker) arith(op BinaryOp, l, r Expr, la, ra astExpr, pos int) Expr {
	lt, rt := l.ResultType(), r.ResultType()
	mk := func(l, r Expr, t types.Type) Expr {
		return &Binary{Op: op, L: l, R: r, Type: t, Nullable: l.IsNullable() || r.IsNullable(), Pos: pos}
	}
	fail := func() Expr {
		c.errorf(pos, pos+len(op.String()), "DATATYPE_MISMATCH", "", "the %s operator cannot be applied to %s and %s", op, lt, rt)
		return bad
	}
	if op == Add || op == Sub {
		if e, ok := c.datetimeArith(op, l, r, la, ra, pos); ok {
			return e
		}
	}
	if lt.IsInterval() || rt.IsInterval() {
		return c.intervalArith(op, l, r, la, ra, pos, mk, fail)
	}
	// A STRING operand is promoted (AnsiStringPromotionTypeCoercion).
	if lt.Kind == types.StringKind || rt.Kind == types.StringKind {
		var t types.Type
		switch {
		case lt.IsNumeric() || rt.IsNumeric():
			t, _ = stringPromotion(lt, rt)
		case (lt.Kind == types.StringKind || lt.Kind == types.VoidKind) && (rt.Kind == types.StringKind || rt.Kind == types.VoidKind):
			t = types.DoubleType
		default:
			return fail()
		}
		l, r, lt, rt = c.castTo(l, t, la), c.castTo(r, t, ra), t, t
	}
	switch {
	case lt.Kind == types.VoidKind && rt.Kind == types.VoidKind:
		l, r, lt, rt = c.castTo(l, types.DoubleType, la), c.castTo(r, types.DoubleType, ra), types.DoubleType, types.DoubleType
	case lt.Kind == types.VoidKind && rt.IsNumeric():
		l, lt = c.castTo(l, rt, la), rt
	case rt.Kind == types.VoidKind && lt.IsNumeric():
		r, rt = c.castTo(r, lt, ra), lt
	}
	if !lt.IsNumeric() || !rt.IsNumeric() {
		return fail()
	}
	if lt.Kind == types.DecimalKind || rt.Kind == types.DecimalKind {
		if lt.IsFloating() || rt.IsFloating() {
			l, r, lt, rt = c.castTo(l, types.DoubleType, la), c.castTo(r, types.DoubleType, ra), types.DoubleType, types.DoubleType
		} else {
			l, lt = c.integralAsDecimal(l, la)
			r, rt = c.integralAsDecimal(r, ra)
			if op == IntDiv {
				return mk(l, r, types.LongType)
			}
			return mk(l, r, decimalArithType(op, lt, rt))
		}
	}
	t, _ := tightestCommon(lt, rt)
	switch op {
	case Div:
		t = types.DoubleType
	case IntDiv:
		t = types.LongType
	}
	return mk(c.castTo(l, t, la), c.castTo(r, t, ra), t)
}

// integralAsDecimal casts an integral operand meeting a DECIMAL to the
// DECIMAL holding it: the literal's own digits for a literal
// (literalPickMinimumPrecision), else DecimalType.forType.
func (c *checker) integralAsDecimal(x Expr, at astExpr) (Expr, types.Type) {
	t := x.ResultType()
	if !t.IsIntegral() {
		return x, t
	}
	d := decimalForType(t)
	if l, ok := x.(*Literal); ok && l.Value != nil {
		d = decimalForLiteral(l)
	}
	return c.castTo(x, d, at), d
}

// datetimeArith handles + and - with dates, timestamps and intervals
// (Spark's BinaryArithmeticWithDatetimeResolver): DATE ± integral is
// date_add / date_sub, DATE - DATE and TIMESTAMP - TIMESTAMP are
// intervals, DATE or TIMESTAMP ± INTERVAL is a TIMESTAMP (a DATE is cast to
// TIMESTAMP first). ok is false when no operand is a date or time.
func (c *checker) datetimeArith(op BinaryOp, l, r Expr, la, ra astExpr, pos int) (Expr, bool) {
	lt, rt := l.ResultType(), r.ResultType()
	lk, rk := lt.Kind, rt.Kind
	if !isDatetime(lk) && !isDatetime(rk) {
		return nil, false
	}
	nullable := l.IsNullable() || r.IsNullable()
	ival := types.IntervalKind
	if e, ok := c.yearMonthDatetimeArith(op, l, r, la, ra, pos); ok {
		return e, true
	}
	switch {
	case op == Add && rk == ival && isDatetime(lk), op == Sub && rk == ival && isDatetime(lk):
		if lk == types.DateKind {
			l, lt = c.castTo(l, types.TimestampType, la), types.TimestampType
		}
		return &Binary{Op: op, L: l, R: r, Type: lt, Nullable: nullable, Pos: pos}, true
	case op == Add && lk == ival && isDatetime(rk):
		return c.datetimeArith(op, r, l, ra, la, pos)
	case lk == types.DateKind && rt.IsIntegral(), op == Add && rk == types.DateKind && lt.IsIntegral():
		d, n, na := l, r, ra
		if rk == types.DateKind {
			d, n, na = r, l, la
		}
		fn := "date_add"
		if op == Sub {
			fn = "date_sub"
		}
		return &Call{Func: fn, Args: []Expr{d, c.castTo(n, types.IntType, na)}, Type: types.DateType, Nullable: nullable, Pos: pos}, true
	case op == Sub && (isTimestamp(lk) || isTimestamp(rk)):
		t := lt
		if !isTimestamp(lk) {
			t = rt
		}
		if lk == types.StringKind || isDatetime(lk) {
			l = c.castTo(l, t, la)
		}
		if rk == types.StringKind || isDatetime(rk) {
			r = c.castTo(r, t, ra)
		}
		if isBad(l) || isBad(r) || !l.ResultType().Equal(r.ResultType()) {
			break
		}
		return &Binary{Op: Sub, L: l, R: r, Type: types.IntervalType, Nullable: nullable, Pos: pos}, true
	case op == Sub && rk == types.DateKind && (lk == types.DateKind || lk == types.StringKind):
		return &Binary{Op: Sub, L: c.castTo(l, types.DateType, la), R: r, Type: types.DayIntervalType, Nullable: nullable, Pos: pos}, true
	case op == Sub && lk == types.DateKind && rk == types.StringKind:
		return &Binary{Op: Sub, L: l, R: c.castTo(r, types.DateType, ra), Type: types.DayIntervalType, Nullable: nullable, Pos: pos}, true
	}
	c.errorf(pos, pos+1, "DATATYPE_MISMATCH", "add or subtract an INTERVAL or a number of days",
		"the %s operator cannot be applied to %s and %s", op, lt, rt)
	return bad, true
}

// comparisonType is the type both sides of a comparison are cast to.
func comparisonType(lt, rt types.Type, l, r Expr) (types.Type, bool) {
	switch {
	case lt.Kind == types.VoidKind && rt.Kind == types.VoidKind:
		return types.BooleanType, true
	case lt.Kind == types.StringKind && rt.Kind != types.StringKind, rt.Kind == types.StringKind && lt.Kind != types.StringKind:
		return stringPromotion(lt, rt)
	case lt.Kind == types.DecimalKind || rt.Kind == types.DecimalKind:
		if lt.IsFloating() || rt.IsFloating() {
			return types.DoubleType, true
		}
		if !lt.IsNumeric() && lt.Kind != types.VoidKind || !rt.IsNumeric() && rt.Kind != types.VoidKind {
			return types.Type{}, false
		}
		ld, rd := decimalOperand(lt, l), decimalOperand(rt, r)
		if ld.Kind == types.VoidKind {
			return rd, true
		}
		if rd.Kind == types.VoidKind {
			return ld, true
		}
		return widerDecimal(ld, rd), true
	}
	return tightestCommon(lt, rt)
}

// decimalOperand is the DECIMAL an integral comparison operand is first
// cast to (DecimalPrecision's nondecimalAndDecimal).
func decimalOperand(t types.Type, x Expr) types.Type {
	if !t.IsIntegral() {
		return t
	}
	if l, ok := x.(*Literal); ok && l.Value != nil {
		return decimalForLiteral(l)
	}
	return decimalForType(t)
}

// compare types a comparison: both sides are cast to a common type.
func (c *checker) compare(op BinaryOp, l, r Expr, la, ra astExpr, pos int) Expr {
	lt, rt := l.ResultType(), r.ResultType()
	t, ok := comparisonType(lt, rt, l, r)
	if !ok {
		c.errorf(pos, pos+len(op.String()), "DATATYPE_MISMATCH", "cast one side to the other's type", "cannot compare %s with %s", lt, rt)
		return bad
	}
	if !orderable(t) {
		c.errorf(pos, pos+len(op.String()), "DATATYPE_MISMATCH", "", "values of type %s cannot be compared", t)
		return bad
	}
	l, r = c.castTo(l, t, la), c.castTo(r, t, ra)
	return &Binary{Op: op, L: l, R: r, Type: types.BooleanType, Nullable: op != NullSafeEq && (l.IsNullable() || r.IsNullable()), Pos: pos}
}

// concat types a || b: strings (other atomic types are cast to STRING),
// or two BINARY, or two ARRAY values.
func (c *checker) concat(l, r Expr, la, ra astExpr, pos int) Expr {
	lt, rt := l.ResultType(), r.ResultType()
	var t types.Type
	switch {
	case lt.Kind == types.BinaryKind && rt.Kind == types.BinaryKind:
		t = lt
	case lt.Kind == types.ArrayKind || rt.Kind == types.ArrayKind:
		w, ok := widerType(lt, rt)
		if !ok || w.Kind != types.ArrayKind {
			c.errorf(pos, pos+2, "DATATYPE_MISMATCH", "", "the || operator cannot join %s and %s", lt, rt)
			return bad
		}
		t = w
	case (isAtomic(lt) || lt.Kind == types.VoidKind) && (isAtomic(rt) || rt.Kind == types.VoidKind):
		t = types.StringType
	default:
		c.errorf(pos, pos+2, "DATATYPE_MISMATCH", "", "the || operator cannot join %s and %s", lt, rt)
		return bad
	}
	l, r = c.castTo(l, t, la), c.castTo(r, t, ra)
	return &Binary{Op: Concat, L: l, R: r, Type: t, Nullable: l.IsNullable() || r.IsNullable(), Pos: pos}
}
