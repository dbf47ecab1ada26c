package sql

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/types"
)

// This file type-checks expressions: names are resolved against a scope,
// operators and functions get Spark's implicit casts (coerce.go) as
// explicit Cast nodes, and the result is a typed Expr (plan.go).

// exprCtx is where an expression is checked.
type exprCtx struct {
	sc *scope
	// clause names the place for messages: "WHERE", "GROUP BY", ...
	clause string
	// agg is set where aggregate calls are allowed; they are collected in it.
	agg *aggState
	// inAgg is set inside an aggregate call's arguments.
	inAgg bool
	// aliases are the SELECT list's aliases, a fallback for unresolved
	// names (GROUP BY, HAVING).
	aliases map[string]Expr
	// lambdas are the parameters of the lambda functions around the
	// expression (lambda.go); they shadow columns.
	lambdas *lambdaScope
	// win is set where window functions are allowed (the SELECT list and
	// QUALIFY); they are collected in it (window.go).
	win *winState
}

// aggClauseCodes are the error classes for an aggregate in a clause that
// does not allow one.
var aggClauseCodes = map[string]string{
	"WHERE":    "INVALID_WHERE_CONDITION",
	"GROUP BY": "GROUP_BY_AGGREGATE",
}

var binaryOps = map[string]BinaryOp{
	"+": Add, "-": Sub, "*": Mul, "/": Div, "DIV": IntDiv, "%": Mod,
	"=": Eq, "==": Eq, "<>": NotEq, "!=": NotEq, "<": Lt, "<=": LtEq, ">": Gt, ">=": GtEq,
	"<=>": NullSafeEq, "AND": And, "OR": Or, "||": Concat, "&": BitAnd, "|": BitOr, "^": BitXor,
}

// expr checks e in ctx. On error it reports and returns bad; expressions
// over a bad one are not checked further (so one mistake gives one error).
func (c *checker) expr(e astExpr, ctx *exprCtx) Expr {
	switch e := e.(type) {
	case *nameExpr:
		return c.name(e, ctx)
	case *starExpr:
		c.errorAt(e, "INVALID_USAGE_OF_STAR_OR_REGEX", "use * only in the SELECT list or in count(*)", "'*' is not allowed here")
	case *litExpr:
		return c.literal(e)
	case *strExpr:
		return c.interpolate(e)
	case *paramExpr:
		return c.param(e.name, e.pos, e.end)
	case *unaryExpr:
		return c.unary(e, ctx)
	case *binaryExpr:
		l, r := c.expr(e.l, ctx), c.expr(e.r, ctx)
		if isBad(l) || isBad(r) {
			return bad
		}
		return c.binary(binaryOps[e.op], l, r, e.l, e.r, e.opPos)
	case *isExpr:
		return c.is(e, ctx)
	case *inExpr:
		return c.in(e, ctx)
	case *betweenExpr:
		return c.between(e, ctx)
	case *likeExpr:
		return c.like(e, ctx)
	case *caseExpr:
		return c.caseWhen(e, ctx)
	case *castExpr:
		x := c.expr(e.x, ctx)
		if isBad(x) {
			return bad
		}
		return c.explicitCast(x, e.to, e.try, e.x, e.pos)
	case *callExpr:
		if e.bare && ctx.sc != nil {
			// Spark resolves a bare CURRENT_DATE to a column of that name
			// before the function (ResolveLiteralFunctions).
			if _, _, rerr := ctx.sc.resolve([]ident{e.name}); rerr == nil {
				return c.name(&nameExpr{parts: []ident{e.name}}, ctx)
			}
		}
		return c.call(e, ctx)
	case *fieldExpr:
		x := c.expr(e.x, ctx)
		if isBad(x) {
			return bad
		}
		return c.field(x, e.name)
	case *subscriptExpr:
		return c.subscript(e, ctx)
	case *jsonPathExpr:
		return c.jsonPath(e, ctx)
	case *lambdaExpr:
		s, _ := e.span()
		c.errorf(s, e.arrowEnd(), "INVALID_LAMBDA_FUNCTION_CALL", "pass it to a function such as transform, filter or aggregate",
			"a lambda function can only be an argument of a higher-order function")
	case *subqueryExpr:
		return c.subquery(e, ctx)
	case *badExpr:
	}
	return bad
}

// boolean checks e and makes it BOOLEAN (STRING and NULL are cast).
func (c *checker) boolean(e astExpr, ctx *exprCtx, what string) Expr {
	x := c.expr(e, ctx)
	if isBad(x) {
		return bad
	}
	return c.toBoolean(x, e, what)
}

func (c *checker) toBoolean(x Expr, e astExpr, what string) Expr {
	t := x.ResultType()
	switch t.Kind {
	case types.BooleanKind:
		return x
	case types.StringKind, types.VoidKind:
		return c.castTo(x, types.BooleanType, e)
	}
	c.errorAt(e, "DATATYPE_MISMATCH", "", "%s must be BOOLEAN, not %s", what, t)
	return bad
}

func (c *checker) name(e *nameExpr, ctx *exprCtx) Expr {
	if ctx.lambdas != nil {
		if x := c.lambdaVar(e, ctx); x != nil {
			return x
		}
	}
	if ctx.sc == nil {
		ctx = &exprCtx{sc: &scope{}, clause: ctx.clause}
	}
	idx, used, rerr := ctx.sc.resolve(e.parts)
	if rerr != nil {
		if rerr.code == "UNRESOLVED_COLUMN" && len(e.parts) == 1 && ctx.aliases != nil {
			if a, ok := ctx.aliases[strings.ToLower(e.parts[0].name)]; ok {
				return a
			}
		}
		if rerr.code == "UNRESOLVED_COLUMN" && len(e.parts) == 1 && strings.EqualFold(e.parts[0].name, "grouping__id") {
			// Hive's virtual column, which Spark still resolves (when no
			// column has the name) as grouping_id().
			p := e.parts[0]
			return c.expr(&callExpr{name: ident{name: "grouping_id", pos: p.pos, end: p.end}, end: p.end}, ctx)
		}
		if rerr.code == "UNRESOLVED_COLUMN" && c.cat != nil {
			// A name that is no column is a pipeline parameter, as a bare
			// name resolves to a session variable after columns in Spark.
			if t, ok := c.cat.Param(e.parts[0].name); ok {
				var x Expr = &ParamRef{Name: e.parts[0].name, Type: t}
				for _, f := range e.parts[1:] {
					if x = c.field(x, f); isBad(x) {
						return bad
					}
				}
				return x
			}
		}
		s, end := e.span()
		if used > 0 {
			end = e.parts[used-1].end
		}
		c.errorf(s, end, rerr.code, rerr.hint, "%s", rerr.msg)
		return bad
	}
	col := ctx.sc.cols[idx]
	ref := &ColumnRef{Index: idx, Name: col.Name, Type: col.Type, Nullable: col.Nullable}
	c.colSpans[ref] = [2]int{e.parts[0].pos, e.parts[used-1].end}
	var x Expr = ref
	for _, f := range e.parts[used:] {
		if x = c.field(x, f); isBad(x) {
			return bad
		}
	}
	return x
}

// field reads field name of the STRUCT x, or of every element of the
// ARRAY<STRUCT> x (Spark's GetArrayStructFields: the array of the fields).
func (c *checker) field(x Expr, name ident) Expr {
	t := x.ResultType()
	if t.Kind == types.ArrayKind && t.Elem.Kind == types.StructKind {
		return c.arrayField(x, name)
	}
	i, rerr := structField(t, name)
	if rerr != nil {
		c.errorf(name.pos, name.end, rerr.code, rerr.hint, "%s", rerr.msg)
		return bad
	}
	f := t.Fields[i]
	return &FieldRef{X: x, Index: i, Name: f.Name, Type: f.Type, Nullable: x.IsNullable() || f.Nullable}
}

func (c *checker) param(name string, pos, end int) Expr {
	var t types.Type
	ok := false
	if c.cat != nil {
		t, ok = c.cat.Param(name)
	}
	if !ok {
		c.errorf(pos, end, "UNBOUND_SQL_PARAMETER", "declare it under parameters:", "parameter %q is not defined", name)
		return bad
	}
	return &ParamRef{Name: name, Type: t}
}

// interpolate turns a string literal with ${name} parameters into a
// concat of its text and the parameters cast to STRING.
func (c *checker) interpolate(e *strExpr) Expr {
	var args []Expr
	for _, p := range e.parts {
		if p.param == "" {
			args = append(args, &Literal{Value: p.text, Type: types.StringType})
			continue
		}
		x := c.param(p.param, p.pos, p.pos+len(p.param)+3)
		if isBad(x) {
			return bad
		}
		if !canCast(x.ResultType(), types.StringType) {
			c.errorf(p.pos, p.pos+len(p.param)+3, "DATATYPE_MISMATCH", "", "parameter %q of type %s cannot be used in a string", p.param, x.ResultType())
			return bad
		}
		args = append(args, c.castAt(x, types.StringType, p.pos))
	}
	if len(args) == 1 {
		return args[0]
	}
	return &Call{Func: "concat", Args: args, Type: types.StringType, Pos: e.pos}
}

// castTo returns x converted to t: x itself when it has type t, a typed
// NULL for the NULL literal, else an implicit Cast.
func (c *checker) castTo(x Expr, t types.Type, at astExpr) Expr {
	pos := 0
	if at != nil {
		pos, _ = at.span()
	}
	return c.castAt(x, t, pos)
}

func (c *checker) castAt(x Expr, t types.Type, pos int) Expr {
	xt := x.ResultType()
	if xt.Equal(t) {
		return x
	}
	if l, ok := x.(*Literal); ok && l.Value == nil {
		return &Literal{Type: t}
	}
	return &Cast{X: x, Type: t, Nullable: x.IsNullable(), Pos: pos}
}

// explicitCast is CAST(x AS t) and TRY_CAST.
func (c *checker) explicitCast(x Expr, t types.Type, try bool, at astExpr, pos int) Expr {
	xt := x.ResultType()
	if t.Kind == types.InvalidKind {
		return bad
	}
	if !canCast(xt, t) {
		c.errorAt(at, "DATATYPE_MISMATCH", "", "cannot cast %s to %s", xt, t)
		return bad
	}
	if l, ok := x.(*Literal); ok && l.Value == nil {
		return &Literal{Type: t}
	}
	if xt.Equal(t) {
		return x
	}
	return &Cast{X: x, Type: t, Try: try, Nullable: try || x.IsNullable(), Pos: pos}
}

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

func (c *checker) is(e *isExpr, ctx *exprCtx) Expr {
	x := c.expr(e.x, ctx)
	if isBad(x) {
		return bad
	}
	switch e.what {
	case "NULL":
		return &IsNull{X: x, Not: e.not}
	case "UNKNOWN":
		if x = c.toBoolean(x, e.x, "the operand of IS UNKNOWN"); isBad(x) {
			return bad
		}
		return &IsNull{X: x, Not: e.not}
	case "TRUE", "FALSE":
		if x = c.toBoolean(x, e.x, "the operand of IS "+e.what); isBad(x) {
			return bad
		}
		s, _ := e.span()
		var eq Expr = &Binary{Op: NullSafeEq, L: x, R: &Literal{Value: e.what == "TRUE", Type: types.BooleanType}, Type: types.BooleanType, Pos: s}
		if e.not {
			eq = &Unary{Op: Not, X: eq, Type: types.BooleanType, Pos: s}
		}
		return eq
	}
	// IS [NOT] DISTINCT FROM
	y := c.expr(e.y, ctx)
	if isBad(y) {
		return bad
	}
	s, _ := e.span()
	eq := c.compare(NullSafeEq, x, y, e.x, e.y, s)
	if isBad(eq) || e.not {
		return eq
	}
	return &Unary{Op: Not, X: eq, Type: types.BooleanType, Pos: s}
}

func (c *checker) in(e *inExpr, ctx *exprCtx) Expr {
	if e.query != nil {
		return c.inSubquery(e, ctx)
	}
	x := c.expr(e.x, ctx)
	list := make([]Expr, len(e.list))
	failed := isBad(x)
	for i, a := range e.list {
		list[i] = c.expr(a, ctx)
		failed = failed || isBad(list[i])
	}
	if failed {
		return bad
	}
	ts := []types.Type{x.ResultType()}
	for _, a := range list {
		ts = append(ts, a.ResultType())
	}
	t, ok := widerAll(ts)
	if !ok {
		c.errorf(e.pos, e.end, "DATATYPE_MISMATCH", "", "the values of IN must have a common type with the value: %s", typeList(ts))
		return bad
	}
	x = c.castTo(x, t, e.x)
	for i := range list {
		list[i] = c.castTo(list[i], t, e.list[i])
	}
	return &In{X: x, List: list, Not: e.not, Nullable: anyNullable(append([]Expr{x}, list...))}
}

func typeList(ts []types.Type) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}

// between rewrites x BETWEEN lo AND hi to x >= lo AND x <= hi (and NOT
// BETWEEN to its negation), each comparison coerced on its own as in Spark.
func (c *checker) between(e *betweenExpr, ctx *exprCtx) Expr {
	x, lo, hi := c.expr(e.x, ctx), c.expr(e.lo, ctx), c.expr(e.hi, ctx)
	if isBad(x) || isBad(lo) || isBad(hi) {
		return bad
	}
	ge := c.compare(GtEq, x, lo, e.x, e.lo, e.pos)
	le := c.compare(LtEq, x, hi, e.x, e.hi, e.pos)
	if isBad(ge) || isBad(le) {
		return bad
	}
	var and Expr = &Binary{Op: And, L: ge, R: le, Type: types.BooleanType, Nullable: ge.IsNullable() || le.IsNullable(), Pos: e.pos}
	if e.not {
		and = &Unary{Op: Not, X: and, Type: types.BooleanType, Pos: e.pos}
	}
	return and
}

func (c *checker) like(e *likeExpr, ctx *exprCtx) Expr {
	if e.quantifier != "" {
		return c.likeQuantified(e, ctx)
	}
	x, p := c.expr(e.x, ctx), c.expr(e.pattern, ctx)
	if isBad(x) || isBad(p) {
		return bad
	}
	if e.op == "RLIKE" {
		var res Expr = c.applyFunc(LookupFunction("rlike"), []Expr{x, p}, []astExpr{e.x, e.pattern}, e.pos, e.pos+5, nil)
		if e.not && !isBad(res) {
			res = &Unary{Op: Not, X: res, Type: types.BooleanType, Pos: e.pos}
		}
		return res
	}
	for i, a := range []Expr{x, p} {
		at := []astExpr{e.x, e.pattern}[i]
		if _, ok := implicitArg(a.ResultType(), ArgString); !ok {
			c.errorAt(at, "DATATYPE_MISMATCH", "", "%s needs STRING operands, not %s", e.op, a.ResultType())
			return bad
		}
	}
	x, p = c.castTo(x, types.StringType, e.x), c.castTo(p, types.StringType, e.pattern)
	l := &Like{X: x, Pattern: p, Not: e.not, CaseInsensitive: e.op == "ILIKE", Nullable: x.IsNullable() || p.IsNullable()}
	if e.escape != nil {
		s := e.escape.val.(string)
		if utf8.RuneCountInString(s) != 1 {
			c.errorAt(e.escape, "INVALID_ESCAPE_CHAR", "", "the ESCAPE string must be one character, not %q", s)
			return bad
		}
		l.Escape, _ = utf8.DecodeRuneInString(s)
	}
	return l
}

// likeQuantified rewrites x [NOT] LIKE|ILIKE ANY|ALL (p1, ..., pn) to the
// OR (ANY) or AND (ALL) of x [NOT] LIKE pi, which is Spark's semantics
// (LikeAny, NotLikeAny, LikeAll, NotLikeAll) with its three-valued logic:
// LIKE ANY is TRUE when a pattern matches, else NULL when x or a pattern
// is NULL; LIKE ALL is FALSE when a pattern does not match, else NULL when
// one is NULL.
func (c *checker) likeQuantified(e *likeExpr, ctx *exprCtx) Expr {
	op := Or
	if e.quantifier == "ALL" {
		op = And
	}
	var out Expr
	for _, pat := range e.patterns {
		one := c.like(&likeExpr{x: e.x, pattern: pat, not: e.not, op: e.op, pos: e.pos}, ctx)
		if isBad(one) {
			return bad
		}
		if out == nil {
			out = one
			continue
		}
		out = &Binary{Op: op, L: out, R: one, Type: types.BooleanType, Nullable: out.IsNullable() || one.IsNullable(), Pos: e.pos}
	}
	return out
}

// caseWhen types CASE; a simple CASE x WHEN v is rewritten to WHEN x = v.
func (c *checker) caseWhen(e *caseExpr, ctx *exprCtx) Expr {
	var operand Expr
	if e.operand != nil {
		if operand = c.expr(e.operand, ctx); isBad(operand) {
			return bad
		}
	}
	whens := make([]When, len(e.whens))
	failed := false
	for i, w := range e.whens {
		var cond Expr
		if operand != nil {
			v := c.expr(w.cond, ctx)
			if !isBad(v) {
				s, _ := w.cond.span()
				cond = c.compare(Eq, operand, v, e.operand, w.cond, s)
			}
		} else {
			cond = c.boolean(w.cond, ctx, "a WHEN condition")
		}
		then := c.expr(w.then, ctx)
		failed = failed || isBad(cond) || isBad(then)
		whens[i] = When{Cond: cond, Then: then}
	}
	var els Expr
	if e.els != nil {
		els = c.expr(e.els, ctx)
		failed = failed || isBad(els)
	}
	if failed {
		return bad
	}
	var ts []types.Type
	for _, w := range whens {
		ts = append(ts, w.Then.ResultType())
	}
	if els != nil {
		ts = append(ts, els.ResultType())
	}
	t, ok := widerAll(ts)
	if !ok {
		c.errorAt(e, "DATATYPE_MISMATCH", "cast the values to one type", "the values of CASE have no common type: %s", typeList(ts))
		return bad
	}
	for i := range whens {
		whens[i].Then = c.castTo(whens[i].Then, t, e.whens[i].then)
	}
	if els != nil {
		els = c.castTo(els, t, e.els)
	}
	return &Case{Whens: whens, Else: els, Type: t, Nullable: caseNullable(whens, els)}
}

func (c *checker) subscript(e *subscriptExpr, ctx *exprCtx) Expr {
	x, idx := c.expr(e.x, ctx), c.expr(e.index, ctx)
	if isBad(x) || isBad(idx) {
		return bad
	}
	t, it := x.ResultType(), idx.ResultType()
	s, _ := e.span()
	switch t.Kind {
	case types.ArrayKind:
		if _, ok := implicitArg(it, ArgInt); !ok {
			c.errorAt(e.index, "DATATYPE_MISMATCH", "", "an array index must be an integer, not %s", it)
			return bad
		}
		return &Subscript{X: x, Index: c.castTo(idx, types.IntType, e.index), Type: *t.Elem, Pos: s}
	case types.MapKind:
		if !mapKeyAccepts(*t.Key, it) {
			c.errorAt(e.index, "DATATYPE_MISMATCH", "", "a key of %s must be %s, not %s", t, *t.Key, it)
			return bad
		}
		return &Subscript{X: x, Index: c.castTo(idx, *t.Key, e.index), Type: *t.Value, Pos: s}
	case types.StructKind:
		if l, ok := idx.(*Literal); ok && it.Kind == types.StringKind && l.Value != nil {
			s0, e0 := e.index.span()
			return c.field(x, ident{name: l.Value.(string), pos: s0, end: e0})
		}
	}
	c.errorAt(e, "DATATYPE_MISMATCH", "", "cannot subscript a %s value", t)
	return bad
}

// mapKeyAccepts reports whether a value of type t can look up a key of
// type key: t widens to key, or is a STRING (or NULL) cast to it.
func mapKeyAccepts(key, t types.Type) bool {
	if w, ok := tightestCommon(t, key); ok && w.Equal(key) {
		return true
	}
	return (t.Kind == types.StringKind || t.Kind == types.VoidKind) && isAtomic(key)
}

// call types a function call.
func (c *checker) call(e *callExpr, ctx *exprCtx) Expr {
	name := e.name.name
	if strings.EqualFold(name, "struct") {
		// STRUCT(t.*), STRUCT(s.*): the table's columns or the struct's
		// fields, each a field of its name (Spark's struct.sql).
		args, names, ok := c.expandStructStars(e.args, e.argNames, ctx)
		if !ok {
			return bad
		}
		cp := *e
		cp.args, cp.argNames = args, names
		e = &cp
	}
	if r, handled := c.rewriteCallAST(e, ctx); handled {
		return r
	}
	fn := LookupFunction(name)
	if fn == nil {
		if x, ok := c.refuseMakeInterval(e); ok {
			return x
		}
		hint := ""
		if s := suggest(name, functionNames()); s != "" {
			hint = fmt.Sprintf("did you mean %q?", s)
		}
		c.errorf(e.name.pos, e.name.end, "UNRESOLVED_ROUTINE", hint, "function %q does not exist", name)
		return bad
	}
	if e.over != nil {
		return c.windowCall(fn, e, ctx)
	}
	if fn.Kind == WindowFunc {
		c.errorf(e.name.pos, e.end, "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE", "add OVER (ORDER BY ...)",
			"window function %s needs an OVER clause", fn.Name)
		return bad
	}
	if fn.Kind == GeneratorFunc {
		code := "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS"
		if ctx.clause != "the SELECT list" && ctx.clause != "a lambda function" {
			code = "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT"
		}
		c.errorf(e.name.pos, e.end, code, "give it a SELECT item of its own, or use LATERAL VIEW",
			"generator %s is only allowed alone in a SELECT item or in LATERAL VIEW", fn.Name)
		return bad
	}
	agg := fn.Kind == AggregateFunc
	if (fn.Name == "percentile_cont" || fn.Name == "percentile_disc") && !e.withinGroup {
		c.errorf(e.name.pos, e.end, "INVALID_WITHIN_GROUP_EXPRESSION", fmt.Sprintf("write %s(p) WITHIN GROUP (ORDER BY x)", fn.Name),
			"%s needs WITHIN GROUP (ORDER BY ...)", fn.Name)
		return bad
	}
	switch {
	case agg && ctx.inAgg:
		c.errorf(e.name.pos, e.end, "NESTED_AGGREGATE_FUNCTION", "compute the inner aggregate in a subquery",
			"aggregate function %s cannot be used inside another aggregate function", fn.Name)
		return bad
	case agg && ctx.agg == nil:
		hint := ""
		if ctx.clause == "WHERE" {
			hint = "filter groups with HAVING"
		}
		c.errorf(e.name.pos, e.end, aggClauseCodes[ctx.clause], hint, "aggregate function %s is not allowed in %s", fn.Name, ctx.clause)
		return bad
	case !agg && e.distinct:
		c.errorf(e.name.pos, e.end, "", "", "DISTINCT is only allowed in aggregate functions, not in %s", fn.Name)
		return bad
	case !agg && e.filter != nil:
		c.errorf(e.name.pos, e.end, "", "", "FILTER is only allowed with aggregate functions, not with %s", fn.Name)
		return bad
	case e.star && (fn.Name != "count" || e.distinct):
		c.errorf(e.name.pos, e.end, "INVALID_USAGE_OF_STAR_OR_REGEX", "", "'*' is only allowed in count(*)")
		return bad
	case fn.Name == "count" && !e.star && len(e.args) == 0:
		c.errorf(e.name.pos, e.end, "WRONG_NUM_ARGS", "write count(*) to count rows", "count takes at least 1 argument")
		return bad
	}
	if isHigherOrder(fn) {
		return c.higherOrder(fn, e, ctx)
	}
	argCtx := ctx
	if agg {
		cp := *ctx
		cp.inAgg = true
		argCtx = &cp
	}
	args := make([]Expr, len(e.args))
	failed := false
	for i, a := range e.args {
		args[i] = c.expr(a, argCtx)
		failed = failed || isBad(args[i])
	}
	var filter Expr
	if e.filter != nil {
		fctx := *argCtx
		fctx.clause = filterClause
		filter = c.boolean(e.filter, &fctx, filterClause)
		failed = failed || isBad(filter)
	}
	if failed {
		return bad
	}
	if x, ok := c.intervalCall(fn, e, args, ctx); ok {
		return x
	}
	if fn.Name == "lpad" || fn.Name == "rpad" {
		args = c.padArgs(args, e.args)
	}
	if noImplicitString[fn.Name] && len(args) == 1 {
		if k := args[0].ResultType().Kind; k != types.StringKind && k != types.VoidKind {
			c.errorAt(e.args[0], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "cast it: CAST(x AS STRING)",
				"argument 1 of %s must be STRING, not %s", fn.Name, args[0].ResultType())
			return bad
		}
	}
	if (fn.Name == "date_add" || fn.Name == "date_sub") && len(args) == 2 {
		// Spark's DateAdd takes INT, SMALLINT or TINYINT days (a STRING
		// is cast); BIGINT, DECIMAL and DOUBLE are refused (date.sql.out).
		switch k := args[1].ResultType().Kind; k {
		case types.ByteKind, types.ShortKind, types.IntKind, types.StringKind, types.VoidKind:
		default:
			c.errorAt(e.args[1], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "cast it: CAST(x AS INT)",
				"argument 2 of %s must be INT, SMALLINT or TINYINT, not %s", fn.Name, args[1].ResultType())
			return bad
		}
	}
	if fn.Name == "to_char" && len(args) > 0 {
		switch k := args[0].ResultType().Kind; {
		case args[0].ResultType().IsNumeric(), k == types.BinaryKind:
			c.errorAt(e.args[0], "UNSUPPORTED_FEATURE", "use format_number or format_string for numbers, hex or base64 for BINARY",
				"%s of a %s value is not supported yet (only dates and timestamps)", e.name.name, args[0].ResultType())
			return bad
		}
	}
	if (fn.Name == "to_timestamp" || fn.Name == "try_to_timestamp") && len(args) == 1 && args[0].ResultType().IsNumeric() {
		// Without a pattern a number is seconds since the epoch: Spark's
		// ParseToTimestamp is then CAST(x AS TIMESTAMP)
		// (try_datetime_functions.sql.out: try_to_timestamp(1)).
		try := fn.Name == "try_to_timestamp"
		return &Cast{X: args[0], Type: types.TimestampType, Try: try, Nullable: try || args[0].IsNullable(), Pos: e.name.pos}
	}
	if r, handled := c.rewriteCall(fn, args, e.args, e); handled {
		return r
	}
	res := c.applyFunc(fn, args, e.args, e.name.pos, e.end, e)
	if !isBad(res) && datetimePatternArg[fn.Name] && len(args) > 1 && !c.datetimePattern(fn.Name, args[1], e.args[1]) {
		return bad
	}
	if isBad(res) || !agg {
		return res
	}
	call := res.(*Call)
	ac := &AggCall{Func: call.Func, Args: call.Args, Distinct: e.distinct, Filter: filter, Type: call.Type, Nullable: call.Nullable, Pos: call.Pos, Desc: e.withinDesc}
	return &aggRef{call: ac, name: autoName(e), end: e.end}
}

// padArgs applies Spark's rule for lpad and rpad: they pad bytes only
// when the input and the pad (when given) are both BINARY; otherwise a
// BINARY argument is read as a STRING.
func (c *checker) padArgs(args []Expr, asts []astExpr) []Expr {
	isBin := func(i int) bool { return i < len(args) && args[i].ResultType().Kind == types.BinaryKind }
	if len(args) < 2 || isBin(0) == (len(args) < 3 || isBin(2)) {
		return args
	}
	out := append([]Expr(nil), args...)
	for _, i := range []int{0, 2} {
		if isBin(i) {
			out[i] = c.castTo(args[i], types.StringType, asts[i])
		}
	}
	return out
}

// noImplicitString names the functions whose STRING argument is not cast
// implicitly (Spark's ExpectsInputTypes without ImplicitCastInputTypes:
// json-functions.sql.out, json_array_length(2) is DATATYPE_MISMATCH).
var noImplicitString = map[string]bool{"json_array_length": true, "json_object_keys": true}

// datetimePatternArg names the functions whose second argument is a
// datetime pattern.
var datetimePatternArg = map[string]bool{
	"date_format": true, "to_date": true, "to_timestamp": true, "try_to_timestamp": true,
	"unix_timestamp": true, "from_unixtime": true, "to_char": true,
}

// formatsDatetime names the datetimePatternArg functions that format
// (the others parse, and refuse more letters).
var formatsDatetime = map[string]bool{"date_format": true, "from_unixtime": true, "to_char": true}

// datetimePattern rejects a constant datetime pattern Spark refuses (a
// letter it does not know or no longer supports, such as the week-based
// Y, w, u): the program would fail or write an empty string at run time. It reports
// whether the pattern is acceptable (patterns computed per row are
// checked when they are used).
func (c *checker) datetimePattern(fn string, x Expr, at astExpr) bool {
	l, ok := x.(*Literal)
	if !ok {
		return true
	}
	s, ok := l.Value.(string)
	if !ok {
		return true
	}
	var err error
	if formatsDatetime[fn] {
		err = sqlfn.CompileDatetimePattern(s)
	} else {
		err = sqlfn.CompileDatetimeParsePattern(s)
	}
	if err == nil {
		return true
	}
	code := "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"
	if strings.ContainsAny(s, "YwuecW") {
		code = "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN"
	}
	c.errorAt(at, code, "write a Spark datetime pattern such as yyyy-MM-dd HH:mm:ss (week-based fields are not supported since Spark 3)",
		"invalid datetime pattern: %v", err)
	return false
}

// filterClause names an aggregate's FILTER (WHERE ...) in messages.
const filterClause = "the FILTER condition"

// applyFunc checks the arguments of fn against its signature, inserts
// their implicit casts and builds the node of fn's Form. e, when not nil,
// is the call as written (for struct field names).
func (c *checker) applyFunc(fn *Function, args []Expr, asts []astExpr, pos, end int, e *callExpr) Expr {
	n := len(args)
	arityOK := n >= fn.MinArgs && (fn.Variadic || n <= len(fn.Args))
	if fn.Variadic && fn.Repeat > 1 {
		fixed := len(fn.Args) - fn.Repeat
		arityOK = arityOK && n >= fixed && (n-fixed)%fn.Repeat == 0
	}
	if !arityOK {
		c.errorf(pos, end, "WRONG_NUM_ARGS", "", "%s takes %s, not %d", fn.Name, arityText(fn), n)
		return bad
	}
	if !c.checkConstArgs(fn.Name, args, asts) {
		return bad
	}
	if r, ok := c.nullArrayArg(fn, args, asts, pos, end, e); ok {
		return r
	}
	argErr := func(i int, format string, a ...any) Expr {
		c.errorAt(asts[i], "DATATYPE_MISMATCH", "", "argument %d of %s "+format, append([]any{i + 1, fn.Name}, a...)...)
		return bad
	}
	// Common types of the ArgCommon and ArgCommonValue groups.
	groups := map[ArgRule][]types.Type{}
	for i, a := range args {
		switch r := fn.ArgRuleAt(i); r {
		case ArgCommon, ArgCommonValue:
			groups[r] = append(groups[r], a.ResultType())
		case ArgNumericCommon:
			t, ok := implicitArg(a.ResultType(), r)
			if !ok {
				c.errorAt(asts[i], "DATATYPE_MISMATCH", "", "argument %d of %s must be numeric, not %s", i+1, fn.Name, a.ResultType())
				return bad
			}
			groups[r] = append(groups[r], t)
		}
	}
	common := map[ArgRule]types.Type{}
	for r, ts := range groups {
		t, ok := widerAll(ts)
		if !ok {
			c.errorf(pos, end, "DATATYPE_MISMATCH", "cast the arguments to one type", "the arguments of %s have no common type: %s", fn.Name, typeList(ts))
			return bad
		}
		common[r] = t
	}
	out := make([]Expr, n)
	for i, a := range args {
		rule := fn.ArgRuleAt(i)
		at := a.ResultType()
		var t types.Type
		ok := true
		switch rule {
		case ArgCommon, ArgCommonValue, ArgNumericCommon:
			t = common[rule]
		case ArgElement:
			arr := out[0].ResultType()
			if t, ok = widerType(*arr.Elem, at); !ok {
				return argErr(i, "must be comparable with the elements of %s, not %s", arr, at)
			}
			if !t.Equal(*arr.Elem) {
				out[0] = c.castTo(out[0], types.ArrayOf(t, arr.ContainsNull), asts[0])
			}
		case ArgIndexOrKey:
			coll := out[0].ResultType()
			if coll.Kind == types.ArrayKind {
				t, ok = implicitArg(at, ArgInt)
			} else {
				t, ok = *coll.Key, mapKeyAccepts(*coll.Key, at)
			}
			if !ok {
				return argErr(i, "must be an index or key of %s, not %s", coll, at)
			}
		default:
			if t, ok = implicitArg(at, rule); !ok {
				return argErr(i, "must be %s, not %s", rule, at)
			}
		}
		if rule == ArgPercentages {
			p, ok := percentages(a)
			if !ok {
				return argErr(i, "must be a constant number or an ARRAY of constant numbers between 0.0 and 1.0")
			}
			out[i] = p
			continue
		}
		switch rule {
		case ArgIntConst, ArgStringConst, ArgBooleanConst, ArgDoubleConst:
			l, isLit := a.(*Literal)
			if !isLit || l.Value == nil {
				return argErr(i, "must be a constant %s", t)
			}
			if rule == ArgDoubleConst {
				f, isNum := floatValue(l)
				if !isNum {
					return argErr(i, "must be a constant number")
				}
				out[i] = &Literal{Value: f, Type: types.DoubleType}
				continue
			}
			if rule == ArgIntConst {
				v, fits := intValue(l)
				if !fits || v < -1<<31 || v >= 1<<31 {
					return argErr(i, "is out of the range of INT")
				}
				out[i] = &Literal{Value: int32(v), Type: types.IntType}
				continue
			}
		}
		out[i] = c.castTo(a, t, asts[i])
	}
	typ, ok := c.resultType(fn, out, asts, e)
	if !ok {
		return bad
	}
	nullable := fn.nullable(out)
	switch fn.Form {
	case FormCast:
		return c.explicitCast(out[0], fn.Type, false, asts[0], pos)
	case FormIf:
		whens := []When{{Cond: out[0], Then: out[1]}}
		return &Case{Whens: whens, Else: out[2], Type: typ, Nullable: caseNullable(whens, out[2])}
	case FormBinary:
		b := c.binary(fn.Op, out[0], out[1], asts[0], asts[1], pos)
		if bin, ok := b.(*Binary); ok && fn.Try {
			cp := *bin
			cp.Try, cp.Nullable = true, true
			return &cp
		}
		return b
	case FormNullIf:
		eq := c.compare(Eq, out[0], out[1], asts[0], asts[1], pos)
		if isBad(eq) {
			return bad
		}
		return &Case{Whens: []When{{Cond: eq, Then: &Literal{Type: typ}}}, Else: out[0], Type: typ, Nullable: true}
	}
	call := &Call{Func: fn.Name, Args: out, Type: typ, Nullable: nullable, Pos: pos}
	if fn.Name == "window" && !c.checkWindow(call, asts) {
		return bad
	}
	return call
}

func arityText(fn *Function) string {
	plural := func(n int) string {
		if n == 1 {
			return "1 argument"
		}
		return fmt.Sprintf("%d arguments", n)
	}
	switch {
	case fn.Variadic && fn.Repeat > 1:
		return fmt.Sprintf("arguments in groups of %d", fn.Repeat)
	case fn.Variadic:
		return "at least " + plural(fn.MinArgs)
	case fn.MinArgs == len(fn.Args):
		return plural(fn.MinArgs)
	}
	return fmt.Sprintf("%d to %d arguments", fn.MinArgs, len(fn.Args))
}

// floatValue returns the value of a numeric literal as a float64.
func floatValue(l *Literal) (float64, bool) {
	if v, ok := intValue(l); ok {
		return float64(v), true
	}
	switch v := l.Value.(type) {
	case float64:
		return v, true
	case float32:
		return float64(v), true
	case types.Decimal:
		return v.Float64(l.Type.Scale), true
	}
	return 0, false
}

// IntValue returns the value of an integral literal (false for others).
func (l *Literal) IntValue() (int64, bool) { return intValue(l) }

// intValue returns the value of an integral literal.
func intValue(l *Literal) (int64, bool) {
	switch v := l.Value.(type) {
	case int8:
		return int64(v), true
	case int16:
		return int64(v), true
	case int32:
		return int64(v), true
	case int64:
		return v, true
	}
	return 0, false
}

// resultType applies fn's result rule to its coerced arguments.
func (c *checker) resultType(fn *Function, args []Expr, asts []astExpr, e *callExpr) (types.Type, bool) {
	arg0 := func() types.Type { return args[0].ResultType() }
	switch fn.Result {
	case ResArg0:
		return arg0(), true
	case ResArg2:
		return args[2].ResultType(), true
	case ResArg0OrArray:
		if len(args) > 1 && args[1].ResultType().Kind == types.ArrayKind {
			return types.ArrayOf(arg0(), false), true
		}
		return arg0(), true
	case ResCommon:
		for i, a := range args {
			if r := fn.ArgRuleAt(i); r == ArgCommon || r == ArgNumericCommon {
				return a.ResultType(), true
			}
		}
	case ResSum:
		t := arg0()
		switch {
		case t.IsInterval():
			// Spark's Sum of ANSI intervals: the interval's type.
			return t, true
		case t.IsIntegral():
			return types.LongType, true
		case t.Kind == types.DecimalKind:
			return boundedDecimal(t.Precision+10, t.Scale), true
		}
		return types.DoubleType, true
	case ResAvg:
		if t := arg0(); t.IsInterval() {
			// Spark's Average of ANSI intervals: the interval's type,
			// the sum divided by the count rounded HALF_UP.
			return t, true
		}
		if t := arg0(); t.Kind == types.DecimalKind {
			return boundedDecimal(t.Precision+4, t.Scale+4), true
		}
		return types.DoubleType, true
	case ResRound:
		t := arg0()
		if t.Kind != types.DecimalKind {
			return t, true
		}
		d := 0
		if len(args) > 1 {
			d = int(args[1].(*Literal).Value.(int32))
		}
		return roundType(t, d), true
	case ResFloorCeil:
		t := arg0()
		if len(args) > 1 {
			return roundType(t, int(args[1].(*Literal).Value.(int32))), true
		}
		switch {
		case t.Kind == types.DecimalKind && t.Scale == 0:
			return t, true
		case t.Kind == types.DecimalKind:
			return boundedDecimal(t.Precision-t.Scale+1, 0), true
		}
		return types.LongType, true
	case ResArrayOfArg0:
		return types.ArrayOf(arg0(), false), true
	case ResArrayOfCommon:
		elem := types.VoidType
		if len(args) > 0 {
			elem = args[0].ResultType()
		}
		return types.ArrayOf(elem, anyNullable(args)), true
	case ResMapOfCommon:
		k, v := types.VoidType, types.VoidType
		nullValues := false
		for i := 0; i+1 < len(args); i += 2 {
			k, v = args[i].ResultType(), args[i+1].ResultType()
			nullValues = nullValues || args[i+1].IsNullable()
		}
		return types.MapOf(k, v, nullValues), true
	case ResStruct:
		fields := make([]types.Field, len(args))
		for i, a := range args {
			name := fmt.Sprintf("col%d", i+1)
			switch asts[i].(type) {
			case *nameExpr, *fieldExpr:
				name = resolvedName(selItem{ast: asts[i], name: autoName(asts[i])}, a)
			}
			if e != nil && i < len(e.argNames) && e.argNames[i] != "" {
				name = e.argNames[i]
			}
			fields[i] = types.Field{Name: name, Type: a.ResultType(), Nullable: a.IsNullable()}
		}
		return types.StructOf(fields...), true
	case ResNamedStruct:
		var fields []types.Field
		for i := 0; i+1 < len(args); i += 2 {
			name := args[i].(*Literal).Value.(string)
			fields = append(fields, types.Field{Name: name, Type: args[i+1].ResultType(), Nullable: args[i+1].IsNullable()})
		}
		return types.StructOf(fields...), true
	case ResCollection:
		return c.collectionType(fn, args, asts)
	case ResElement:
		if t := arg0(); t.Kind == types.ArrayKind {
			return *t.Elem, true
		} else {
			return *t.Value, true
		}
	}
	return fn.Type, true
}

// percentages returns the percentage argument a of percentile_approx as a
// DOUBLE literal, or an array(...) call of DOUBLE literals, when it is a
// constant number or an array of them, each between 0 and 1 (Spark's
// checkInputDataTypes for percentages).
func percentages(a Expr) (Expr, bool) {
	one := func(e Expr) (*Literal, bool) {
		l, isLit := e.(*Literal)
		if !isLit || l.Value == nil {
			return nil, false
		}
		f, isNum := floatValue(l)
		if !isNum || f < 0 || f > 1 {
			return nil, false
		}
		return &Literal{Value: f, Type: types.DoubleType}, true
	}
	if c, isCall := a.(*Call); isCall && c.Func == "array" && len(c.Args) > 0 {
		ps := make([]Expr, len(c.Args))
		for i, x := range c.Args {
			if cast, isCast := x.(*Cast); isCast {
				x = cast.X
			}
			l, ok := one(x)
			if !ok {
				return nil, false
			}
			ps[i] = l
		}
		return &Call{Func: "array", Args: ps, Type: types.ArrayOf(types.DoubleType, false), Pos: c.Pos}, true
	}
	return one(a)
}

// roundType is Spark's RoundBase.dataType for a DECIMAL(p,s) rounded to d
// decimal places: DECIMAL(max(p-s+1, 1-d), 0) for d < 0, else
// DECIMAL(p-s+1+min(s,d), min(s,d)), capped at 38 (one more integral digit
// than the input: ceil(9.9, 0) is 10).
func roundType(t types.Type, d int) types.Type {
	intDigits := t.Precision - t.Scale + 1
	if d < 0 {
		return types.DecimalOf(min(max(intDigits, -d+1), types.MaxDecimalPrecision), 0)
	}
	s := min(t.Scale, d)
	return types.DecimalOf(min(intDigits+s, types.MaxDecimalPrecision), s)
}

// nullArrayArg types a call of a NULL-propagating scalar function given a
// NULL literal where it takes an ARRAY (array_size(NULL), arrays_zip(a,
// NULL)): Spark casts the NULL to an ARRAY, and the result is NULL. The
// call is checked with an ARRAY<VOID> there and becomes a NULL of its
// type; ok is false when no argument is such a NULL.
func (c *checker) nullArrayArg(fn *Function, args []Expr, asts []astExpr, pos, end int, e *callExpr) (Expr, bool) {
	if fn.Kind != ScalarFunc || fn.Nulls != NullIfAnyArg || fn.Form != FormCall {
		return nil, false
	}
	var typed []Expr
	for i, a := range args {
		if l, isLit := a.(*Literal); isLit && l.Value == nil && l.Type.Kind == types.VoidKind && fn.ArgRuleAt(i) == ArgArray {
			if typed == nil {
				typed = append([]Expr(nil), args...)
			}
			typed[i] = &Literal{Type: types.ArrayOf(types.VoidType, true)}
		}
	}
	if typed == nil {
		return nil, false
	}
	r := c.applyFunc(fn, typed, asts, pos, end, e)
	if isBad(r) {
		return r, true
	}
	return &Literal{Type: r.ResultType()}, true
}

// expandStructStars replaces each star among struct()'s arguments by the
// names it stands for: *, t.* (the columns of the query or of table t) or
// s.* (the fields of struct column s); argNames (the AS names, by
// position, possibly fewer than the arguments; nil when none is given)
// follow, "" for each expanded name.
// ok is false after an error.
func (c *checker) expandStructStars(args []astExpr, argNames []string, ctx *exprCtx) (out []astExpr, names []string, ok bool) {
	add := func(a astExpr, name string) {
		out = append(out, a)
		if argNames != nil {
			names = append(names, name)
		}
	}
	for k, a := range args {
		st, isStar := a.(*starExpr)
		if !isStar || len(st.except) > 0 || ctx.sc == nil {
			name := ""
			if k < len(argNames) {
				name = argNames[k]
			}
			add(a, name)
			continue
		}
		ref := func(parts ...string) astExpr {
			ids := make([]ident, len(parts))
			for i, p := range parts {
				ids[i] = ident{name: p, pos: st.pos, end: st.end}
			}
			return &nameExpr{parts: ids}
		}
		if cols := ctx.sc.starColumns(st.qual); len(cols) > 0 {
			for _, i := range cols {
				col := ctx.sc.cols[i]
				add(ref(append(append([]string(nil), col.qual...), col.Name)...), "")
			}
			continue
		}
		if len(st.qual) == 0 {
			add(a, "") // reported as a misplaced star
			continue
		}
		x := c.expr(&nameExpr{parts: st.qual}, ctx)
		if isBad(x) {
			return nil, nil, false
		}
		t := x.ResultType()
		if t.Kind != types.StructKind {
			c.errorAt(st, "CANNOT_RESOLVE_STAR_EXPAND", "name a table of the query or a STRUCT column", "%s.* is neither a table nor a STRUCT (it is %s)", joinIdents(st.qual), t)
			return nil, nil, false
		}
		for _, f := range t.Fields {
			add(ref(append(identNames(st.qual), f.Name)...), "")
		}
	}
	return out, names, true
}
