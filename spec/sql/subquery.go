package sql

import "github.com/pipegen/pipegen/runtime/types"

// This file checks uncorrelated subqueries used as values: x [NOT] IN
// (SELECT ...), [NOT] EXISTS (SELECT ...) and scalar (SELECT ...). Their
// plans do not read the outer row, so the generated program computes each
// once, before the query's rows (Spark runs uncorrelated subqueries the same
// way, as a separate job). Correlated subqueries are refused with the JOIN
// to write instead.

// SubqueryKind is the use of a Subquery.
type SubqueryKind uint8

// Subquery kinds.
const (
	// ScalarSubquery is (SELECT one column): the value of its only row,
	// NULL when it has none; more than one row is the run-time error
	// SCALAR_SUBQUERY_TOO_MANY_ROWS.
	ScalarSubquery SubqueryKind = iota
	// ExistsSubquery is EXISTS (SELECT ...): TRUE when it has a row.
	ExistsSubquery
	// InSubquery is X IN (SELECT one column): TRUE when a row equals X;
	// otherwise NULL when X is NULL and the subquery has rows, or when the
	// subquery has a NULL; otherwise FALSE (Spark's InSubquery). NOT IN is
	// the negation of that (NULL stays NULL).
	InSubquery
)

// Subquery is an uncorrelated subquery used as a value. Plan reads no
// column of the outer query; for InSubquery, X (over the outer row) has
// the type of Plan's only column (casts inserted on both sides).
type Subquery struct {
	Kind     SubqueryKind
	Plan     Plan
	X        Expr // InSubquery only
	Type     types.Type
	Nullable bool
	Pos      int
}

func (e *Subquery) ResultType() types.Type { return e.Type }
func (e *Subquery) IsNullable() bool       { return e.Nullable }
func (*Subquery) exprNode()                {}

// subqueryPlan checks the query of a subquery written at [pos, end).
func (c *checker) subqueryPlan(q *queryStmt, what string, pos, end int, ctx *exprCtx) Plan {
	before := len(c.errs)
	p := c.query(q, c.env)
	if p == nil || len(c.errs) > before {
		if ctx.sc != nil {
			for _, e := range c.errs[before:] {
				if e.Code == "UNRESOLVED_COLUMN" {
					e.Hint = joinHint(e.Hint, what+" cannot read the outer query's columns (correlated subqueries are not supported yet): rewrite it as a JOIN — EXISTS as LEFT SEMI JOIN, NOT EXISTS as LEFT ANTI JOIN, a scalar aggregate as LEFT JOIN on a GROUP BY of the key")
				}
			}
		}
		return nil
	}
	if readsStream(p) {
		c.errorf(pos, end, "UNSUPPORTED_FEATURE", "read the table without STREAM(...) in the subquery, or JOIN the stream with it",
			"%s cannot read a stream", what)
		return nil
	}
	return p
}

func joinHint(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// subquery checks a scalar subquery or EXISTS.
func (c *checker) subquery(e *subqueryExpr, ctx *exprCtx) Expr {
	what := "a scalar subquery"
	if e.exists {
		what = "EXISTS"
	}
	p := c.subqueryPlan(e.query, what, e.pos, e.end, ctx)
	if p == nil {
		return bad
	}
	if e.exists {
		return &Subquery{Kind: ExistsSubquery, Plan: p, Type: types.BooleanType, Pos: e.pos}
	}
	out := p.Output()
	if len(out) != 1 {
		c.errorf(e.pos, e.end, "INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN", "select one column",
			"a scalar subquery must return one column, not %d", len(out))
		return bad
	}
	return &Subquery{Kind: ScalarSubquery, Plan: p, Type: out[0].Type, Nullable: true, Pos: e.pos}
}

// inSubquery checks x [NOT] IN (SELECT ...).
func (c *checker) inSubquery(e *inExpr, ctx *exprCtx) Expr {
	x := c.expr(e.x, ctx)
	p := c.subqueryPlan(e.query, "IN (subquery)", e.pos, e.end, ctx)
	if isBad(x) || p == nil {
		return bad
	}
	out := p.Output()
	if r, ok := e.x.(*callExpr); ok && r.name.name == "struct" && len(r.args) == len(out) && len(out) > 1 {
		c.errorf(e.pos, e.end, "UNSUPPORTED_FEATURE", "rewrite it as EXISTS or a LEFT SEMI JOIN on a.x = b.x AND a.y = b.y (NOT IN: a LEFT ANTI JOIN, minding NULLs)",
			"(a, b, ...) IN (subquery) with several columns is not supported yet")
		return bad
	}
	if len(out) != 1 {
		c.errorf(e.pos, e.end, "DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH", "select one column",
			"the subquery of IN must return one column, not %d", len(out))
		return bad
	}
	t, ok := widerType(x.ResultType(), out[0].Type)
	if !ok {
		c.errorf(e.pos, e.end, "DATATYPE_MISMATCH.IN_SUBQUERY_DATA_TYPE_MISMATCH", "cast one side",
			"IN cannot compare %s with the subquery's column of type %s", x.ResultType(), out[0].Type)
		return bad
	}
	switch t.Kind {
	case types.ArrayKind, types.MapKind, types.StructKind, types.BinaryKind:
		c.errorf(e.pos, e.end, "UNSUPPORTED_FEATURE", "compare a scalar column, or write EXISTS with a JOIN",
			"IN (subquery) over %s values is not supported yet", t)
		return bad
	}
	x = c.castTo(x, t, e.x)
	p = c.castColumns(p, []Column{{Name: out[0].Name, Type: t, Nullable: out[0].Nullable}}, e.pos)
	var res Expr = &Subquery{Kind: InSubquery, Plan: p, X: x, Type: types.BooleanType, Nullable: true, Pos: e.pos}
	if e.not {
		res = &Unary{Op: Not, X: res, Type: types.BooleanType, Pos: e.pos}
	}
	return res
}
