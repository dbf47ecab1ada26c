package sql

import (
	"fmt"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file checks lambda functions and the higher-order functions that
// call them (Spark's higherOrderFunctions.scala): transform, filter,
// exists, forall, aggregate and array_sort. A lambda's parameters get
// their types from the function (the array's element type, INT for an
// index, the accumulator's type); names in its body resolve to its
// parameters first, then to the parameters of enclosing lambdas, then to
// the input row's columns.

// lambdaScope is the lambda parameters visible in a lambda body.
type lambdaScope struct {
	vars   []*LambdaVar
	parent *lambdaScope
}

// lookup finds the innermost parameter called name (case-insensitive, as
// Spark's resolver).
func (s *lambdaScope) lookup(name string) *LambdaVar {
	for sc := s; sc != nil; sc = sc.parent {
		for _, v := range sc.vars {
			if strings.EqualFold(v.Name, name) {
				return v
			}
		}
	}
	return nil
}

// lambdaParam is the type and nullability a higher-order function binds a
// lambda parameter to, and what the parameter is, for messages.
type lambdaParam struct {
	what     string
	typ      types.Type
	nullable bool
}

// isHigherOrder reports whether fn takes a lambda function.
func isHigherOrder(fn *Function) bool {
	for _, r := range fn.Args {
		if r == ArgLambda {
			return true
		}
	}
	return false
}

// lambdaVar resolves a name chain whose first part is a lambda parameter
// (and the rest struct fields); nil when it is not one.
func (c *checker) lambdaVar(e *nameExpr, ctx *exprCtx) Expr {
	v := ctx.lambdas.lookup(e.parts[0].name)
	if v == nil {
		return nil
	}
	var x Expr = &LambdaVar{ID: v.ID, Name: v.Name, Type: v.Type, Nullable: v.Nullable}
	for _, f := range e.parts[1:] {
		if x = c.field(x, f); isBad(x) {
			return bad
		}
	}
	return x
}

// lambda checks the lambda function l, written as argument argN (0-based)
// of fn, with its parameters bound to params; a lambda may declare fewer
// parameters than params, but at least minParams.
func (c *checker) lambda(l *lambdaExpr, fn string, argN int, params []lambdaParam, minParams int, ctx *exprCtx) *Lambda {
	if n := len(l.params); n != 0 && (n < minParams || n > len(params)) {
		var whats []string
		for _, p := range params {
			whats = append(whats, p.what)
		}
		count := fmt.Sprintf("%d", len(params))
		if minParams < len(params) {
			count = fmt.Sprintf("%d to %d", minParams, len(params))
		}
		s, _ := l.span()
		c.errorf(s, l.arrowEnd(), "INVALID_LAMBDA_FUNCTION_CALL", "",
			"the lambda function of %s takes %s parameters (%s), not %d", fn, count, strings.Join(whats, ", "), n)
		return nil
	}
	vars := make([]*LambdaVar, len(l.params))
	for i, p := range l.params {
		for _, q := range l.params[:i] {
			if strings.EqualFold(p.name, q.name) {
				c.errorf(p.pos, p.end, "INVALID_LAMBDA_FUNCTION_CALL", "give each parameter its own name",
					"the lambda function has two parameters named %q", p.name)
				return nil
			}
		}
		c.lambdaIDs++
		vars[i] = &LambdaVar{ID: c.lambdaIDs, Name: p.name, Type: params[i].typ, Nullable: params[i].nullable}
	}
	inner := *ctx
	inner.lambdas = &lambdaScope{vars: vars, parent: ctx.lambdas}
	// Aggregates are computed per group, a lambda per element: an
	// aggregate call cannot be inside a lambda.
	inner.agg, inner.inAgg, inner.clause = nil, false, "a lambda function"
	body := c.expr(l.body, &inner)
	if isBad(body) {
		return nil
	}
	return &Lambda{Params: vars, Body: body}
}

// arrowEnd is the offset just past a lambda's parameter list and arrow.
func (l *lambdaExpr) arrowEnd() int {
	if len(l.params) == 0 {
		return l.pos
	}
	return l.params[len(l.params)-1].end
}

// higherOrder checks a call of a function that takes lambda functions.
func (c *checker) higherOrder(fn *Function, e *callExpr, ctx *exprCtx) Expr {
	n := len(e.args)
	if n < fn.MinArgs || n > len(fn.Args) {
		c.errorf(e.name.pos, e.end, "WRONG_NUM_ARGS", "", "%s takes %s, not %d", fn.Name, arityText(fn), n)
		return bad
	}
	e = withConstantLambdas(fn, e)
	// The arguments that are not lambdas first: they type the lambdas'
	// parameters.
	args := make([]Expr, n)
	failed := false
	for i, a := range e.args {
		l, isLambda := a.(*lambdaExpr)
		switch {
		case fn.Args[i] == ArgLambda && !isLambda:
			c.errorAt(a, "DATATYPE_MISMATCH", "write a lambda function such as x -> x + 1",
				"argument %d of %s must be a lambda function", i+1, fn.Name)
			failed = true
		case fn.Args[i] != ArgLambda && isLambda:
			s, _ := l.span()
			c.errorf(s, l.arrowEnd(), "DATATYPE_MISMATCH", "", "argument %d of %s cannot be a lambda function", i+1, fn.Name)
			failed = true
		case !isLambda:
			args[i] = c.expr(a, ctx)
			failed = failed || isBad(args[i])
		}
	}
	if failed {
		return bad
	}
	if r, handled := c.mapHigherOrder(fn, e, args, ctx); handled {
		return r
	}
	arr := args[0]
	at := arr.ResultType()
	nullArray := at.Kind == types.VoidKind
	if nullArray {
		// A NULL literal is an array of NULLs: the result is NULL.
		at = types.ArrayOf(types.VoidType, true)
	}
	if at.Kind != types.ArrayKind {
		c.errorAt(e.args[0], "DATATYPE_MISMATCH", "", "argument 1 of %s must be an ARRAY, not %s", fn.Name, at)
		return bad
	}
	elem := lambdaParam{what: "element", typ: *at.Elem, nullable: at.ContainsNull}
	index := lambdaParam{what: "index", typ: types.IntType}
	lam := func(i int, params []lambdaParam, minParams int) *Lambda {
		return c.lambda(e.args[i].(*lambdaExpr), fn.Name, i, params, minParams, ctx)
	}
	var typ types.Type
	switch fn.Name {
	case "transform":
		f := lam(1, []lambdaParam{elem, index}, 1)
		if f == nil {
			return bad
		}
		args[1] = f
		typ = types.ArrayOf(f.Body.ResultType(), f.Body.IsNullable())
	case "filter", "exists", "forall":
		params := []lambdaParam{elem, index}
		if fn.Name != "filter" {
			params = params[:1]
		}
		f := lam(1, params, 1)
		if f == nil || !c.lambdaReturns(f, e.args[1], fn.Name, types.BooleanType) {
			return bad
		}
		args[1] = f
		typ = at
		if fn.Name != "filter" {
			typ = types.BooleanType
		}
	case "aggregate":
		zt := args[1].ResultType()
		// Spark binds the accumulator as nullable whatever the start value.
		merge := lam(2, []lambdaParam{{what: "accumulator", typ: zt, nullable: true}, elem}, 2)
		if merge == nil {
			return bad
		}
		if mt := merge.Body.ResultType(); !mt.EqualIgnoringNullability(zt) {
			hint := ""
			if canCast(zt, mt) {
				hint = fmt.Sprintf("write the start value as CAST(%s AS %s)", exprSQL(e.args[1]), mt)
			}
			c.errorAt(lambdaBody(e.args[2]), "DATATYPE_MISMATCH", hint,
				"the merge lambda of aggregate returns %s, but the start value is %s: they must have one type", mt, zt)
			return bad
		}
		args[2] = merge
		typ = zt
		if n == 4 {
			finish := lam(3, []lambdaParam{{what: "accumulator", typ: zt, nullable: merge.Body.IsNullable()}}, 1)
			if finish == nil {
				return bad
			}
			args[3] = finish
			typ = finish.Body.ResultType()
		}
	case "array_sort":
		typ = at
		if n == 1 {
			if !orderable(*at.Elem) {
				c.errorAt(e.args[0], "DATATYPE_MISMATCH", "pass a comparator (l, r) -> INT", "array_sort cannot order elements of type %s", *at.Elem)
				return bad
			}
			break
		}
		f := lam(1, []lambdaParam{elem, {what: "element", typ: elem.typ, nullable: elem.nullable}}, 2)
		if f == nil || !c.lambdaReturns(f, e.args[1], fn.Name, types.IntType) {
			return bad
		}
		args[1] = f
	case "zip_with":
		bt := args[1].ResultType()
		if bt.Kind != types.ArrayKind {
			c.errorAt(e.args[1], "DATATYPE_MISMATCH", "", "argument 2 of %s must be an ARRAY, not %s", fn.Name, bt)
			return bad
		}
		// Past the end of the shorter array its elements are NULL.
		f := lam(2, []lambdaParam{{what: "element", typ: *at.Elem, nullable: true}, {what: "element", typ: *bt.Elem, nullable: true}}, 2)
		if f == nil {
			return bad
		}
		args[2] = f
		typ = types.ArrayOf(f.Body.ResultType(), f.Body.IsNullable())
	default:
		c.errorf(e.name.pos, e.end, "UNSUPPORTED_FEATURE", "", "higher-order function %s is not supported yet", fn.Name)
		return bad
	}
	if nullArray {
		return &Literal{Type: typ}
	}
	return &Call{Func: fn.Name, Args: args, Type: typ, Nullable: fn.nullable(args), Pos: e.name.pos}
}

// withConstantLambdas returns e with each expression written where fn
// takes a lambda function made a lambda function that ignores its
// parameters, as Spark does (transform(arr, 42) is [42, 42, ...]). The
// parser never makes a lambda without parameters, so only these have none.
func withConstantLambdas(fn *Function, e *callExpr) *callExpr {
	var out []astExpr
	for i, a := range e.args {
		if _, isLambda := a.(*lambdaExpr); isLambda || i >= len(fn.Args) || fn.Args[i] != ArgLambda {
			continue
		}
		if out == nil {
			out = append([]astExpr(nil), e.args...)
		}
		s, _ := a.span()
		out[i] = &lambdaExpr{body: a, pos: s}
	}
	if out == nil {
		return e
	}
	cp := *e
	cp.args = out
	return &cp
}

// lambdaReturns checks that f's body has type want (Spark does not cast a
// lambda's result).
func (c *checker) lambdaReturns(f *Lambda, at astExpr, fn string, want types.Type) bool {
	if t := f.Body.ResultType(); !t.Equal(want) {
		c.errorAt(lambdaBody(at), "DATATYPE_MISMATCH", "", "the lambda function of %s must return %s, not %s", fn, want, t)
		return false
	}
	return true
}

func lambdaBody(e astExpr) astExpr {
	if l, ok := e.(*lambdaExpr); ok {
		return l.body
	}
	return e
}

// arrayField is arr.name over an ARRAY<STRUCT>: transform(arr, x -> x.name).
// Its elements may be NULL when the array's or the field's may.
func (c *checker) arrayField(arr Expr, name ident) Expr {
	t := arr.ResultType()
	i, rerr := structField(*t.Elem, name)
	if rerr != nil {
		c.errorf(name.pos, name.end, rerr.code, rerr.hint, "%s", rerr.msg)
		return bad
	}
	c.lambdaIDs++
	v := &LambdaVar{ID: c.lambdaIDs, Name: "x", Type: *t.Elem, Nullable: t.ContainsNull}
	f := t.Elem.Fields[i]
	body := &FieldRef{X: &LambdaVar{ID: v.ID, Name: v.Name, Type: v.Type, Nullable: v.Nullable}, Index: i, Name: f.Name, Type: f.Type, Nullable: v.Nullable || f.Nullable}
	return &Call{Func: "transform", Args: []Expr{arr, &Lambda{Params: []*LambdaVar{v}, Body: body}},
		Type: types.ArrayOf(f.Type, body.Nullable), Nullable: arr.IsNullable(), Pos: name.pos}
}
