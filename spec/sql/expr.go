package sql

import (
	"strings"

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
