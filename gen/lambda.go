package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// This file compiles the higher-order functions (transform, filter, exists,
// forall, aggregate, array_sort) into Go loops over the array, inside the
// row's code: a lambda's body is compiled inline once, with its parameters
// bound to the loop's variables, so no closure is created per row or per
// element. Only array_sort with a comparator passes a closure (to
// slices.SortStableFunc). Semantics are Spark's higherOrderFunctions.scala.

// lambdaBinding is the value a lambda parameter stands for while its body
// compiles; used records whether the body read it.
type lambdaBinding struct {
	x    val
	used bool
}

// lambdaVar compiles a read of a lambda parameter.
func (c *exprCompiler) lambdaVar(e *sql.LambdaVar) val {
	lb := c.lambdas[e.ID]
	if lb == nil {
		panic(fmt.Sprintf("gen: lambda parameter %s (#%d) read outside its lambda", e.Name, e.ID))
	}
	lb.used = true
	x := lb.x
	return val{v: x.v.Clone(), ok: cloneOK(x.ok), t: x.t, whole: cloneOK(x.whole)}
}

// lambdaBody compiles f's body into a new block with its parameters bound
// to xs; used[i] reports whether the body read parameter i.
func (c *exprCompiler) lambdaBody(b *block, f *sql.Lambda, xs []val) (body *block, r val, used []bool) {
	if c.lambdas == nil {
		c.lambdas = map[int]*lambdaBinding{}
	}
	bs := make([]*lambdaBinding, len(f.Params))
	for i, p := range f.Params {
		x := xs[i]
		if !p.Nullable {
			// The checker says it is never NULL here.
			x.ok, x.whole = nil, nil
		}
		bs[i] = &lambdaBinding{x: x}
		c.lambdas[p.ID] = bs[i]
	}
	body = b.sub()
	r = c.compile(body, f.Body)
	used = make([]bool, len(bs))
	for i, p := range f.Params {
		used[i] = bs[i].used
		delete(c.lambdas, p.ID)
	}
	return body, r, used
}

// element returns the value of an array element held in the Go variable x.
func element(x string, t types.Type, containsNull bool) val {
	if containsNull {
		return val{v: jen.Id(x).Dot("V"), ok: jen.Id(x).Dot("Valid"), t: t, whole: jen.Id(x)}
	}
	return val{v: jen.Id(x), t: t}
}

// loopVars says which loop variables the code after a lambda's body
// reads (the index, the element), beyond what the body itself reads.
type loopVars struct{ index, elem bool }

// elementLoop returns `for i, x := range arr { body }` for a lambda over
// the elements of arr (and, with two parameters, their INT index): f's
// body is compiled inside the loop and handed to after with the names of
// the index and element variables, to add the statements that use its
// result r. Variables neither the body nor keep needs are not declared.
func (c *exprCompiler) elementLoop(b *block, arr val, f *sql.Lambda, keep loopVars, after func(body *block, r val, i, x string)) jen.Code {
	i, x := b.fn.tmp("i"), b.fn.tmp("x")
	xs := []val{element(x, *arr.t.Elem, arr.t.ContainsNull), {v: jen.Int32().Call(jen.Id(i)), t: types.IntType}}
	body, r, _ := c.lambdaBody(b, f, xs[:len(f.Params)])
	after(body, r, i, x)
	// A parameter the body read may still be absent from the code (a
	// cast of NULL): declare only the variables the statements use.
	useElem := keep.elem || mentions(body.stmts, x)
	useIndex := keep.index || mentions(body.stmts, i)
	rng := jen.Range().Add(arr.v.Clone())
	switch {
	case useElem && useIndex:
		return jen.For(jen.List(jen.Id(i), jen.Id(x)).Op(":=").Add(rng)).Block(body.stmts...)
	case useElem:
		return jen.For(jen.List(jen.Id("_"), jen.Id(x)).Op(":=").Add(rng)).Block(body.stmts...)
	case useIndex:
		return jen.For(jen.Id(i).Op(":=").Add(rng)).Block(body.stmts...)
	}
	return jen.For(rng).Block(body.stmts...)
}

// ifValid wraps stmts in `if ok { ... }` when ok is not nil.
func ifValid(ok *jen.Statement, stmts ...jen.Code) []jen.Code {
	if ok == nil {
		return stmts
	}
	return []jen.Code{jen.If(ok.Clone()).Block(stmts...)}
}

// isTrue is the Go condition that r is TRUE (not FALSE, not NULL).
func isTrue(r val) *jen.Statement { return okCond(r.ok, r.v.Clone()) }

// higherOrder compiles a call of a higher-order function.
func (c *exprCompiler) higherOrder(b *block, e *sql.Call) val {
	switch e.Func {
	case "transform_values", "transform_keys", "map_filter", "map_zip_with":
		return c.mapHigherOrder(b, e)
	}
	arr := b.bind(c.compile(b, e.Args[0]))
	switch e.Func {
	case "transform":
		return c.transform(b, e, arr)
	case "filter":
		return c.filter(b, e, arr)
	case "exists", "forall":
		return c.quantifier(b, e, arr)
	case "aggregate":
		return c.aggregateArray(b, e, arr)
	case "array_sort":
		return c.arraySort(b, e, arr)
	case "zip_with":
		return c.zipWith(b, e, arr)
	}
	// compileCall sends only the higher-order functions above, the ones
	// the checker accepts (spec/sql/lambda.go).
	panic(fmt.Sprintf("gen: higher-order function %s, which the checker does not accept", e.Func))
}

// transform: out[i] = f(arr[i]) or f(arr[i], i); NULL for a NULL array.
func (c *exprCompiler) transform(b *block, e *sql.Call, arr val) val {
	out := b.fn.tmp("out")
	b.add(jen.Var().Id(out).Add(c.reg.baseType(e.Type)))
	loop := c.elementLoop(b, arr, e.Args[1].(*sql.Lambda), loopVars{index: true}, func(body *block, r val, i, _ string) {
		body.add(jen.Id(out).Index(jen.Id(i)).Op("=").Add(c.wrap(r, e.Type.ContainsNull)))
	})
	b.add(ifValid(arr.ok, jen.Id(out).Op("=").Make(c.reg.baseType(e.Type), jen.Len(arr.v.Clone())), loop)...)
	return val{v: jen.Id(out), ok: cloneOK(arr.ok), t: e.Type}
}

// filter: the elements for which f is TRUE, in order.
func (c *exprCompiler) filter(b *block, e *sql.Call, arr val) val {
	out := b.fn.tmp("out")
	b.add(jen.Var().Id(out).Add(c.reg.baseType(e.Type)))
	loop := c.elementLoop(b, arr, e.Args[1].(*sql.Lambda), loopVars{elem: true}, func(body *block, r val, _, x string) {
		body.add(jen.If(isTrue(r)).Block(jen.Id(out).Op("=").Append(jen.Id(out), jen.Id(x))))
	})
	b.add(ifValid(arr.ok, loop)...)
	return val{v: jen.Id(out), ok: cloneOK(arr.ok), t: e.Type}
}

// quantifier compiles exists (TRUE when f is TRUE for some element, else
// NULL when it is NULL for some, else FALSE) and forall (FALSE when f is
// FALSE for some element, else NULL when it is NULL for some, else TRUE),
// stopping at the first deciding element. Spark's three-valued
// ArrayExists (spark.sql.legacy.followThreeValuedLogicInArrayExists=true)
// and ArrayForAll.
func (c *exprCompiler) quantifier(b *block, e *sql.Call, arr val) val {
	exists := e.Func == "exists"
	res, sawNull := b.fn.tmp("v"), b.fn.tmp("null")
	b.add(jen.Id(res).Op(":=").Lit(!exists), jen.Id(sawNull).Op(":=").False())
	loop := c.elementLoop(b, arr, e.Args[1].(*sql.Lambda), loopVars{}, func(body *block, r val, _, _ string) {
		decides := r.v.Clone() // exists: TRUE decides
		if !exists {
			decides = jen.Op("!").Parens(r.v.Clone()) // forall: FALSE decides
		}
		stop := jen.If(decides).Block(jen.Id(res).Op("=").Lit(exists), jen.Break())
		if r.ok == nil {
			body.add(stop)
			return
		}
		body.add(jen.If(jen.Op("!").Add(r.ok.Clone())).Block(jen.Id(sawNull).Op("=").True()).Else().Add(stop))
	})
	b.add(ifValid(arr.ok, loop)...)
	ok := jen.Parens(jen.Id(res).Op("==").Lit(exists).Op("||").Op("!").Id(sawNull))
	return val{v: jen.Id(res), ok: andOK(cloneOK(arr.ok), ok), t: types.BooleanType}
}

// aggregateArray compiles aggregate(arr, start, (acc, x) -> merge[, acc ->
// finish]): acc starts as start, becomes merge for each element in order,
// and the result is finish(acc) (acc without finish).
func (c *exprCompiler) aggregateArray(b *block, e *sql.Call, arr val) val {
	merge := e.Args[2].(*sql.Lambda)
	zt := e.Args[1].ResultType()
	if !sql.ArrayAggregateCompiles(e) {
		// Same type but for nullability inside it: the Go types differ.
		uncompilable("aggregate with a start value of type %s and a merge lambda of type %s", zt, merge.Body.ResultType())
	}
	zero := c.compile(b, e.Args[1])
	acc, accOK := b.fn.tmp("acc"), b.fn.tmp("accOK")
	zok := jen.True()
	if zero.ok != nil {
		zok = zero.ok
	}
	b.add(jen.Var().Id(acc).Add(c.reg.baseType(zt)).Op("=").Add(zero.v), jen.Id(accOK).Op(":=").Add(zok))
	accVal := val{v: jen.Id(acc), ok: jen.Id(accOK), t: zt}
	x := b.fn.tmp("x")
	body, r, used := c.lambdaBody(b, merge, []val{accVal, element(x, *arr.t.Elem, arr.t.ContainsNull)})
	rok := jen.True()
	if r.ok != nil {
		rok = r.ok
	}
	body.add(jen.List(jen.Id(acc), jen.Id(accOK)).Op("=").List(r.v, rok))
	// for range arr when the merge lambda ignores the element (a constant
	// merge, aggregate(arr, 0, 100)): `for _, _ :=` does not compile.
	loop := jen.For(jen.Range().Add(arr.v.Clone()))
	if len(used) > 1 && used[1] && mentions(body.stmts, x) {
		loop = jen.For(jen.List(jen.Id("_"), jen.Id(x)).Op(":=").Range().Add(arr.v.Clone()))
	}
	b.add(ifValid(arr.ok, loop.Block(body.stmts...))...)
	res := accVal
	if len(e.Args) == 4 {
		fb, fr, _ := c.lambdaBody(b, e.Args[3].(*sql.Lambda), []val{accVal})
		b.add(fb.stmts...)
		res = b.bind(fr)
	}
	return val{v: res.v, ok: andOK(cloneOK(arr.ok), res.ok), t: e.Type}
}

// arraySort compiles array_sort(arr): a sorted copy, ascending with NULL
// elements last (Spark's default comparator); and array_sort(arr, (l, r)
// -> cmp): a copy sorted stably by the comparator (Spark sorts with
// java.util.Arrays.sort, a stable merge sort), where a NULL comparison is
// an error (Spark's COMPARATOR_RETURNS_NULL).
func (c *exprCompiler) arraySort(b *block, e *sql.Call, arr val) val {
	out := b.fn.tmp("out")
	b.add(jen.Var().Id(out).Add(c.reg.baseType(e.Type)))
	if len(e.Args) == 1 {
		fn := "ArraySort"
		if arr.t.ContainsNull {
			fn = "ArraySortNullsLast"
		}
		b.add(ifValid(arr.ok, jen.Id(out).Op("=").Qual(pkgSQLFn, fn).Call(arr.v.Clone()))...)
		return val{v: jen.Id(out), ok: cloneOK(arr.ok), t: e.Type}
	}
	f := e.Args[1].(*sql.Lambda)
	l, r, sortErr := b.fn.tmp("l"), b.fn.tmp("r"), b.fn.tmp("sortErr")
	// Inside the comparator a failure is recorded and reported after the
	// sort, as the closure cannot return the row's error.
	cb := b.sub()
	cb.onFail = func(cause jen.Code) jen.Code {
		return jen.Block(jen.If(jen.Id(sortErr).Op("==").Nil()).Block(jen.Id(sortErr).Op("=").Add(cause)), jen.Return(jen.Lit(0)))
	}
	elem := func(x string) val { return element(x, *arr.t.Elem, arr.t.ContainsNull) }
	body, res, _ := c.lambdaBody(cb, f, []val{elem(l), elem(r)})
	if res.ok != nil {
		body.add(jen.If(jen.Op("!").Add(res.ok.Clone())).Block(body.fail(jen.Qual(pkgSQLFn, "ErrComparatorReturnsNull").Call(jen.Id(l), jen.Id(r)))))
	}
	body.add(jen.Return(jen.Int().Call(res.v)))
	et := c.reg.goType(*arr.t.Elem, arr.t.ContainsNull)
	cmp := jen.Func().Params(jen.Id(l).Add(et.Clone()), jen.Id(r).Add(et)).Int().Block(body.stmts...)
	b.add(jen.Var().Id(sortErr).Error())
	b.add(ifValid(arr.ok,
		jen.Id(out).Op("=").Qual("slices", "Clone").Call(arr.v.Clone()),
		jen.Qual("slices", "SortStableFunc").Call(jen.Id(out), cmp),
	)...)
	b.add(jen.If(jen.Id(sortErr).Op("!=").Nil()).Block(b.fail(jen.Id(sortErr))))
	return val{v: jen.Id(out), ok: cloneOK(arr.ok), t: e.Type}
}
