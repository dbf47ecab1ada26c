package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/spec/sql"
)

// This file compiles the functions of spec/sql/scalarfuncs.go that have
// no single sqlfn helper: get, elt and the array functions that add or
// remove elements.

// moreCall compiles e when it is one of those functions.
func (c *exprCompiler) moreCall(b *block, e *sql.Call) (val, bool) {
	switch e.Func {
	case "get":
		x := b.bind(c.compile(b, e.Args[0]))
		i := b.bind(c.compile(b, e.Args[1]))
		v, found := b.fn.tmp("v"), b.fn.tmp("found")
		b.add(jen.List(jen.Id(v), jen.Id(found)).Op(":=").Qual(pkgSQLFn, "ArrayAt").Call(x.v.Clone(), i.v.Clone()))
		return c.unwrapElem(val{v: jen.Id(v), ok: andOK(okAnd(x, i), jen.Id(found)), t: *x.t.Elem}, x.t.ContainsNull, b), true
	case "elt":
		return c.elt(b, e), true
	case "regexp_substr":
		x, re := b.bind(c.compile(b, e.Args[0])), b.bind(c.compile(b, e.Args[1]))
		ok := okAnd(x, re)
		v, found, good := b.fn.tmp("v"), b.fn.tmp("found"), b.fn.tmp("good")
		b.add(jen.List(jen.Id(v), jen.Id(found), jen.Id(good)).Op(":=").Qual(pkgSQLFn, "RegexpSubstr").Call(x.v.Clone(), re.v.Clone()))
		b.add(jen.If(okCond(ok, jen.Op("!").Id(good))).Block(c.fail(b,
			jen.Qual(pkgSQLFn, "ErrFunction").Call(jen.Lit(e.Func), jen.Index().Any().Values(x.v.Clone(), re.v.Clone())))))
		return val{v: jen.Id(v), ok: andOK(ok, jen.Id(found)), t: e.Type}, true
	case "array_append", "array_prepend", "array_insert":
		return c.arrayAdd(b, e), true
	case "array_compact":
		x := b.bind(c.compile(b, e.Args[0]))
		if !x.t.ContainsNull {
			return val{v: x.v, ok: x.ok, t: e.Type}, true
		}
		return val{v: jen.Qual(pkgSQLFn, "ArrayCompact").Call(x.v.Clone()), ok: cloneOK(x.ok), t: e.Type}, true
	}
	return val{}, false
}

// elt compiles elt(n, s1, s2, ...): only the chosen string is evaluated;
// an index outside 1..count fails the row.
func (c *exprCompiler) elt(b *block, e *sql.Call) val {
	n := b.bind(c.compile(b, e.Args[0]))
	v, ok := b.fn.tmp("v"), b.fn.tmp("ok")
	b.add(jen.Var().Id(v).String(), jen.Var().Id(ok).Bool())
	var cases []jen.Code
	for i, a := range e.Args[1:] {
		blk := b.sub()
		x := c.compile(blk, a)
		okv := jen.True()
		if x.ok != nil {
			okv = x.ok
		}
		blk.add(jen.List(jen.Id(v), jen.Id(ok)).Op("=").List(x.v, okv))
		cases = append(cases, jen.Case(jen.Lit(int32(i+1))).Block(blk.stmts...))
	}
	cases = append(cases, jen.Default().Block(c.fail(b, jen.Qual(pkgSQLFn, "ErrElt").Call(n.v.Clone(), jen.Lit(len(e.Args)-1)))))
	b.add(ifValid(n.ok, jen.Switch(n.v.Clone()).Block(cases...))...)
	return val{v: jen.Id(v), ok: jen.Id(ok), t: e.Type}
}

// arrayAdd compiles array_append, array_prepend and array_insert; the
// checker has given the array and the value one element type.
func (c *exprCompiler) arrayAdd(b *block, e *sql.Call) val {
	arr := b.bind(c.compile(b, e.Args[0]))
	item := b.bind(c.compile(b, e.Args[len(e.Args)-1]))
	nullable := e.Type.ContainsNull
	a := arr.v.Clone()
	if nullable && !arr.t.ContainsNull {
		a = jen.Qual(pkgSQLFn, "NullableElems").Call(a)
	}
	x := c.wrap(item, nullable)
	switch e.Func {
	case "array_append":
		return val{v: jen.Qual(pkgSQLFn, "ArrayAppend").Call(a, x), ok: cloneOK(arr.ok), t: e.Type}
	case "array_prepend":
		return val{v: jen.Qual(pkgSQLFn, "ArrayPrepend").Call(a, x), ok: cloneOK(arr.ok), t: e.Type}
	}
	pos := b.bind(c.compile(b, e.Args[1]))
	return c.errorHelper(b, e.Type, okAnd(arr, pos), "ArrayInsert", a, pos.v.Clone(), x)
}

// zipWith compiles zip_with(a, b, (x, y) -> f): out[i] = f(a[i], b[i])
// for i below the longer length, an element past the end of its array
// being NULL; NULL when either array is.
func (c *exprCompiler) zipWith(b *block, e *sql.Call, left val) val {
	right := b.bind(c.compile(b, e.Args[1]))
	f := e.Args[2].(*sql.Lambda)
	out, n, i := b.fn.tmp("out"), b.fn.tmp("n"), b.fn.tmp("i")
	loop := b.sub()
	names := []string{b.fn.tmp("x"), b.fn.tmp("y")}
	arrs := []val{left, right}
	xs := make([]val, 2)
	for k, name := range names {
		xs[k] = element(name, *arrs[k].t.Elem, true)
	}
	body, r, _ := c.lambdaBody(loop, f, xs[:len(f.Params)])
	set := jen.Id(out).Index(jen.Id(i)).Op("=").Add(c.wrap(r, e.Type.ContainsNull))
	uses := append(append([]jen.Code(nil), body.stmts...), set)
	var stmts []jen.Code
	for k, name := range names {
		if !mentions(uses, name) {
			continue
		}
		a := arrs[k]
		elem := a.v.Clone().Index(jen.Id(i))
		if !a.t.ContainsNull {
			elem = jen.Qual(pkgTypes, "Some").Call(elem)
		}
		stmts = append(stmts, jen.Var().Id(name).Add(c.reg.goType(*a.t.Elem, true)),
			jen.If(jen.Id(i).Op("<").Len(a.v.Clone())).Block(jen.Id(name).Op("=").Add(elem)))
	}
	stmts = append(stmts, uses...)
	b.add(jen.Var().Id(out).Add(c.reg.baseType(e.Type)))
	ok := okAnd(left, right)
	b.add(ifValid(ok,
		jen.Id(n).Op(":=").Max(jen.Len(left.v.Clone()), jen.Len(right.v.Clone())),
		jen.Id(out).Op("=").Make(c.reg.baseType(e.Type), jen.Id(n)),
		jen.For(jen.Id(i).Op(":=").Lit(0), jen.Id(i).Op("<").Id(n), jen.Id(i).Op("++")).Block(stmts...))...)
	return val{v: jen.Id(out), ok: ok, t: e.Type}
}
