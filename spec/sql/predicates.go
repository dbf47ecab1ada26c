package sql

import (
	"strings"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/types"
)

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
