package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
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

// entry returns the key and value of the map entry held in the Go
// variable kv of a map of type t.
func entry(kv string, t types.Type) (key, value val) {
	key = val{v: jen.Id(kv).Dot("Key"), t: *t.Key}
	if t.ValueContainsNull {
		v := jen.Id(kv).Dot("Value")
		return key, val{v: v.Clone().Dot("V"), ok: v.Clone().Dot("Valid"), t: *t.Value, whole: v}
	}
	return key, val{v: jen.Id(kv).Dot("Value"), t: *t.Value}
}

// mapHigherOrder compiles transform_values, transform_keys, map_filter
// and map_zip_with into loops over the maps' entries.
func (c *exprCompiler) mapHigherOrder(b *block, e *sql.Call) val {
	m := b.bind(c.compile(b, e.Args[0]))
	mt := m.t
	kv, out := b.fn.tmp("kv"), b.fn.tmp("out")
	kvType := func(t types.Type) *jen.Statement {
		return jen.Qual(pkgTypes, "KV").Types(c.reg.goType(*t.Key, false), c.reg.goType(*t.Value, t.ValueContainsNull))
	}
	loop := func(body []jen.Code) jen.Code {
		return jen.For(jen.List(jen.Id("_"), jen.Id(kv)).Op(":=").Range().Add(m.v.Clone())).Block(body...)
	}
	switch e.Func {
	case "transform_values", "map_filter":
		k, v := entry(kv, mt)
		body, r, _ := c.lambdaBody(b, e.Args[1].(*sql.Lambda), []val{k, v})
		b.add(jen.Var().Id(out).Add(c.reg.baseType(e.Type)))
		if e.Func == "map_filter" {
			body.add(jen.If(isTrue(r)).Block(jen.Id(out).Op("=").Append(jen.Id(out), jen.Id(kv))))
		} else {
			body.add(jen.Id(out).Op("=").Append(jen.Id(out), kvType(e.Type).Values(jen.Dict{
				jen.Id("Key"): jen.Id(kv).Dot("Key"), jen.Id("Value"): c.wrap(r, e.Type.ValueContainsNull)})))
		}
		b.add(ifValid(m.ok, loop(body.stmts))...)
		return val{v: jen.Id(out), ok: cloneOK(m.ok), t: e.Type}
	case "transform_keys":
		k, v := entry(kv, mt)
		f := e.Args[1].(*sql.Lambda)
		body, r, _ := c.lambdaBody(b, f, []val{k, v})
		keyNullable := f.Body.IsNullable()
		keys, vals := b.fn.tmp("keys"), b.fn.tmp("vals")
		b.add(jen.Var().Id(keys).Index().Add(c.reg.goType(*e.Type.Key, keyNullable)),
			jen.Var().Id(vals).Index().Add(c.reg.goType(*mt.Value, mt.ValueContainsNull)))
		body.add(jen.Id(keys).Op("=").Append(jen.Id(keys), c.wrap(r, keyNullable)),
			jen.Id(vals).Op("=").Append(jen.Id(vals), jen.Id(kv).Dot("Value")))
		b.add(ifValid(m.ok, loop(body.stmts))...)
		keyFn := jen.Qual(pkgSQLFn, "Key").Types(c.reg.baseType(*e.Type.Key))
		if keyNullable {
			keyFn = jen.Qual(pkgSQLFn, "NullableKey").Types(c.reg.baseType(*e.Type.Key))
		}
		return c.errorHelper(b, e.Type, cloneOK(m.ok), "MapFromArrays", jen.Id(keys), jen.Id(vals), keyFn)
	}
	// map_zip_with
	m2 := b.bind(c.compile(b, e.Args[1]))
	keys, in1, in2, j, k := b.fn.tmp("keys"), b.fn.tmp("in1"), b.fn.tmp("in2"), b.fn.tmp("j"), b.fn.tmp("k")
	v1, v2 := b.fn.tmp("v1"), b.fn.tmp("v2")
	xs := []val{{v: jen.Id(k), t: *mt.Key}, element(v1, *mt.Value, true), element(v2, *m2.t.Value, true)}
	f := e.Args[2].(*sql.Lambda)
	body, r, _ := c.lambdaBody(b, f, xs[:len(f.Params)])
	set := jen.Id(out).Index(jen.Id(j)).Op("=").Add(kvType(e.Type).Values(jen.Dict{
		jen.Id("Key"): jen.Id(k), jen.Id("Value"): c.wrap(r, e.Type.ValueContainsNull)}))
	uses := append(append([]jen.Code(nil), body.stmts...), set)
	var stmts []jen.Code
	lhs := []jen.Code{jen.Id(keys), jen.Id("_"), jen.Id("_")}
	for n, side := range []struct {
		name, in string
		m        val
	}{{v1, in1, m}, {v2, in2, m2}} {
		if !mentions(uses, side.name) {
			continue
		}
		lhs[n+1] = jen.Id(side.in)
		vt := *side.m.t.Value
		elem := side.m.v.Clone().Index(jen.Id(side.in).Index(jen.Id(j))).Dot("Value")
		if !side.m.t.ValueContainsNull {
			elem = jen.Qual(pkgTypes, "Some").Call(elem)
		}
		stmts = append(stmts, jen.Var().Id(side.name).Add(c.reg.goType(vt, true)),
			jen.If(jen.Id(side.in).Index(jen.Id(j)).Op(">=").Lit(0)).Block(jen.Id(side.name).Op("=").Add(elem)))
	}
	stmts = append(stmts, uses...)
	ok := okAnd(m, m2)
	b.add(jen.Var().Id(out).Add(c.reg.baseType(e.Type)))
	b.add(ifValid(ok,
		jen.List(lhs...).Op(":=").Qual(pkgSQLFn, "MapZipKeys").Call(m.v.Clone(), m2.v.Clone()),
		jen.Id(out).Op("=").Make(c.reg.baseType(e.Type), jen.Len(jen.Id(keys))),
		jen.For(jen.List(jen.Id(j), jen.Id(k)).Op(":=").Range().Id(keys)).Block(stmts...))...)
	return val{v: jen.Id(out), ok: ok, t: e.Type}
}
