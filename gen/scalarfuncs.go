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
