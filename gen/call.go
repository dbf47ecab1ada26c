package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// call compiles a scalar function call.
func (c *exprCompiler) call(b *block, e *sql.Call) val {
	if d, ok := sql.Desugar(e); ok {
		call, isCall := d.(*sql.Call)
		if !isCall {
			return c.compile(b, d)
		}
		e = call
	}
	switch e.Func {
	case "coalesce", "nvl", "ifnull":
		return c.coalesce(b, e)
	case "date_part":
		return c.datePart(b, e)
	case "concat":
		return c.concat(b, e)
	case "concat_ws":
		return c.concatWS(b, e)
	case "greatest", "least":
		return c.extreme(b, e)
	case "current_timestamp", "now":
		return val{v: jen.Add(c.ctx).Dot("CurrentTimestamp").Call(), t: e.Type}
	case "current_date", "curdate":
		return val{v: jen.Add(c.ctx).Dot("CurrentDate").Call(), t: e.Type}
	case "struct", "named_struct":
		return c.makeStruct(b, e)
	case "array":
		return c.makeArray(b, e)
	case "size", "cardinality", "array_size":
		x := c.compile(b, e.Args[0])
		return val{v: jen.Int32().Call(jen.Len(x.v)), ok: x.ok, t: e.Type}
	case "element_at", "try_element_at": // of an array; of a map: Desugar
		return c.elementAt(b, e)
	case "array_contains":
		return c.arrayContains(b, e)
	case "transform", "filter", "exists", "forall", "aggregate", "array_sort", "zip_with",
		"transform_values", "transform_keys", "map_filter", "map_zip_with":
		return c.higherOrder(b, e)
	case "parse_url", "try_parse_url":
		return c.nullOrFail(b, e, "ParseURL", e.Func == "try_parse_url")
	case "conv":
		return c.nullOrFail(b, e, "Conv", false)
	case "format_string":
		return c.formatString(b, e)
	case "hash", "xxhash64":
		return c.hash(b, e)
	case "window":
		return c.timeWindow(b, e)
	case "assert_true":
		// The row fails unless the condition (coalesce(cond, FALSE)) holds;
		// the value is always NULL.
		x := b.bind(c.compile(b, e.Args[0]))
		holds := x.v.Clone()
		if x.ok != nil {
			holds = jen.Add(x.ok.Clone()).Op("&&").Add(x.v.Clone())
		}
		b.add(jen.If(jen.Op("!").Parens(holds)).Block(c.fail(b,
			jen.Qual(pkgSQLFn, "ErrFunction").Call(jen.Lit(e.Func), jen.Index().Any().Values(jen.False())))))
		return val{v: jen.Struct().Values(), ok: jen.False(), t: e.Type}
	case "rand":
		return val{v: jen.Qual("math/rand/v2", "Float64").Call(), t: e.Type}
	}
	if v, ok := c.moreCall(b, e); ok {
		return v
	}
	if v, ok := c.collection(b, e); ok {
		return v
	}
	fn := sql.LookupFunction(e.Func)
	if fn == nil || fn.Impl.Kind == sql.ImplInline || fn.Impl.Kind == sql.ImplNone {
		// ImplNone: sql.Uncompilable; ImplInline: a case above.
		uncompilable("function %s", e.Func)
	}
	impl := fn.Impl
	args := make([]val, len(e.Args))
	for i, a := range e.Args {
		args[i] = b.bind(c.compile(b, a))
	}
	name, ok := fn.Helper(e)
	if !ok {
		uncompilable("function %s of %s", e.Func, args[0].t)
	}
	goArgs := make([]jen.Code, 0, len(args)+3)
	for _, a := range args {
		goArgs = append(goArgs, a.v.Clone())
		if a.t.Kind == types.DecimalKind {
			goArgs = append(goArgs, jen.Lit(a.t.Scale))
		}
	}
	if e.Type.Kind == types.DecimalKind {
		goArgs = append(goArgs, jen.Lit(e.Type.Precision), jen.Lit(e.Type.Scale))
	}
	ok2 := okAnd(args...)
	switch impl.Kind {
	case sql.ImplStrict:
		return val{v: jen.Qual(pkgSQLFn, name).Call(goArgs...), ok: ok2, t: e.Type}
	case sql.ImplNullOnFail:
		v, good := b.fn.tmp("v"), b.fn.tmp("good")
		b.add(jen.List(jen.Id(v), jen.Id(good)).Op(":=").Qual(pkgSQLFn, name).Call(goArgs...))
		return val{v: jen.Id(v), ok: andOK(ok2, jen.Id(good)), t: e.Type}
	}
	v, good := b.fn.tmp("v"), b.fn.tmp("good")
	b.add(jen.List(jen.Id(v), jen.Id(good)).Op(":=").Qual(pkgSQLFn, name).Call(goArgs...))
	b.add(jen.If(okCond(ok2, jen.Op("!").Id(good))).Block(c.fail(b,
		jen.Qual(pkgSQLFn, "ErrFunction").Call(jen.Lit(e.Func), jen.Index().Any().Values(goArgs...)))))
	return val{v: jen.Id(v), ok: ok2, t: e.Type}
}

// coalesce returns the first non-NULL argument, evaluating the rest only
// when needed.
func (c *exprCompiler) coalesce(b *block, e *sql.Call) val {
	// Each argument is compiled once, inside the branch where the ones
	// before it were NULL.
	if !e.Args[0].IsNullable() {
		return c.compile(b, e.Args[0]) // never NULL: the rest is never evaluated
	}
	// A result that is never NULL (a later argument never is) has no
	// ok variable: its reader may not ask for one, and Go refuses a
	// variable that is only assigned.
	v, ok := b.fn.tmp("v"), b.fn.tmp("ok")
	b.add(jen.Var().Id(v).Add(c.reg.baseType(e.Type)))
	if e.Nullable {
		b.add(jen.Var().Id(ok).Bool())
	}
	var tail []jen.Code
	for i := len(e.Args) - 1; i >= 0; i-- {
		blk := b.sub()
		x := c.compile(blk, e.Args[i])
		set := jen.Id(v).Op("=").Add(x.v)
		if e.Nullable {
			set = jen.List(jen.Id(v), jen.Id(ok)).Op("=").List(x.v, jen.True())
		}
		switch {
		case x.ok == nil:
			blk.add(set)
		case len(tail) == 0:
			blk.add(jen.If(x.ok).Block(set))
		default:
			blk.add(jen.If(x.ok).Block(set).Else().Block(tail...))
		}
		tail = blk.stmts
	}
	b.add(tail...)
	if !e.Nullable {
		return val{v: jen.Id(v), t: e.Type}
	}
	return val{v: jen.Id(v), ok: jen.Id(ok), t: e.Type}
}

// concat joins strings; NULL if any argument is NULL.
func (c *exprCompiler) concat(b *block, e *sql.Call) val {
	if len(e.Args) == 0 {
		return val{v: jen.Lit(""), t: e.Type}
	}
	args := make([]val, len(e.Args))
	var sum *jen.Statement
	for i, a := range e.Args {
		args[i] = b.bind(c.compile(b, a))
		if i == 0 {
			sum = args[i].v.Clone()
		} else {
			sum = sum.Op("+").Add(args[i].v.Clone())
		}
	}
	return val{v: sum, ok: okAnd(args...), t: e.Type}
}

// concatWS joins the non-NULL strings with a separator (NULL separator → NULL).
func (c *exprCompiler) concatWS(b *block, e *sql.Call) val {
	sep := b.bind(c.compile(b, e.Args[0]))
	parts := make([]jen.Code, 0, len(e.Args)-1)
	for _, a := range e.Args[1:] {
		x := b.bind(c.compile(b, a))
		parts = append(parts, c.wrap(x, true))
	}
	return val{v: jen.Qual(pkgSQLFn, "ConcatWS").Call(append([]jen.Code{sep.v.Clone()}, parts...)...), ok: cloneOK(sep.ok), t: e.Type}
}

// extreme compiles greatest and least: NULL arguments are skipped; NULL
// only when all are NULL.
func (c *exprCompiler) extreme(b *block, e *sql.Call) val {
	op := ">"
	if e.Func == "least" {
		op = "<"
	}
	v, ok := b.fn.tmp("v"), b.fn.tmp("ok")
	b.add(jen.Var().Id(v).Add(c.reg.baseType(e.Type)), jen.Var().Id(ok).Bool())
	for _, a := range e.Args {
		x := b.bind(c.compile(b, a))
		better := c.compare(x, val{v: jen.Id(v), t: e.Type}, op)
		b.add(jen.If(okCond(x.ok, jen.Parens(jen.Op("!").Id(ok).Op("||").Add(better)))).Block(
			jen.List(jen.Id(v), jen.Id(ok)).Op("=").List(x.v.Clone(), jen.True())))
	}
	return val{v: jen.Id(v), ok: jen.Id(ok), t: e.Type}
}

// makeStruct compiles struct(a, b) and named_struct('a', x, 'b', y).
func (c *exprCompiler) makeStruct(b *block, e *sql.Call) val {
	vals := e.Args
	if e.Func == "named_struct" {
		vals = nil
		for i := 1; i < len(e.Args); i += 2 {
			vals = append(vals, e.Args[i])
		}
	}
	s := c.reg.structFor(e.Type, "Struct")
	d := jen.Dict{}
	for i, a := range vals {
		x := b.bind(c.compile(b, a))
		d[jen.Id(s.fields[i].name)] = c.wrap(x, s.fields[i].nullable)
	}
	return val{v: jen.Id(s.name).Values(d), t: e.Type}
}

// makeArray compiles array(a, b, ...).
func (c *exprCompiler) makeArray(b *block, e *sql.Call) val {
	items := make([]jen.Code, len(e.Args))
	for i, a := range e.Args {
		x := b.bind(c.compile(b, a))
		items[i] = c.wrap(x, e.Type.ContainsNull)
	}
	return val{v: c.reg.baseType(e.Type).Values(items...), t: e.Type}
}

// elementAt compiles element_at(array, i): 1-based, negative counts from
// the end, out of range is an error under ANSI semantics (0 always is,
// in try_element_at too).
func (c *exprCompiler) elementAt(b *block, e *sql.Call) val {
	x := b.bind(c.compile(b, e.Args[0]))
	i := b.bind(c.compile(b, e.Args[1]))
	ok := okAnd(x, i)
	v, found := b.fn.tmp("v"), b.fn.tmp("found")
	b.add(jen.List(jen.Id(v), jen.Id(found)).Op(":=").Qual(pkgSQLFn, "ElementAt").Call(x.v.Clone(), i.v.Clone()))
	if e.Func == "try_element_at" {
		// Index 0 is an error even here (Spark's ElementAt raises
		// INVALID_INDEX_OF_ZERO before try_element_at's NULL applies).
		b.add(jen.If(okCond(ok, jen.Add(i.v.Clone()).Op("==").Lit(0))).Block(c.fail(b, jen.Qual(pkgSQLFn, "ErrElementAtIndex").Call(i.v.Clone(), jen.Len(x.v.Clone())))))
		return c.unwrapElem(val{v: jen.Id(v), ok: andOK(ok, jen.Id(found)), t: *x.t.Elem}, x.t.ContainsNull, b)
	}
	b.add(jen.If(okCond(ok, jen.Op("!").Id(found))).Block(c.fail(b, jen.Qual(pkgSQLFn, "ErrElementAtIndex").Call(i.v.Clone(), jen.Len(x.v.Clone())))))
	return c.unwrapElem(val{v: jen.Id(v), ok: ok, t: *x.t.Elem}, x.t.ContainsNull, b)
}

// arrayContains compiles array_contains(arr, v) with Spark's NULL rules:
// NULL when v is NULL, or when v is not found and the array holds a NULL.
func (c *exprCompiler) arrayContains(b *block, e *sql.Call) val {
	x := b.bind(c.compile(b, e.Args[0]))
	y := b.bind(c.compile(b, e.Args[1]))
	v, found := b.fn.tmp("v"), b.fn.tmp("known")
	b.add(jen.List(jen.Id(v), jen.Id(found)).Op(":=").Qual(pkgSQLFn, "ArrayContains").Call(x.v.Clone(), y.v.Clone()))
	return val{v: jen.Id(v), ok: andOK(okAnd(x, y), jen.Id(found)), t: types.BooleanType}
}

// nullOrFail compiles a call of sqlfn.<fn>(args...) returning (value,
// null, ok): parse_url (NULL for a part the URL lacks, INVALID_URL for a
// URL java.net.URI refuses) and conv (NULL for a bad base, an overflow
// error). !ok fails the row, or is NULL when tolerate is set
// (try_parse_url).
func (c *exprCompiler) nullOrFail(b *block, e *sql.Call, fn string, tolerate bool) val {
	args := make([]val, len(e.Args))
	goArgs := make([]jen.Code, len(e.Args))
	for i, a := range e.Args {
		args[i] = b.bind(c.compile(b, a))
		goArgs[i] = args[i].v.Clone()
	}
	ok := okAnd(args...)
	v, null, good := b.fn.tmp("v"), b.fn.tmp("null"), b.fn.tmp("good")
	b.add(jen.List(jen.Id(v), jen.Id(null), jen.Id(good)).Op(":=").Qual(pkgSQLFn, fn).Call(goArgs...))
	if tolerate {
		return val{v: jen.Id(v), ok: andOK(ok, jen.Id(good).Op("&&").Op("!").Id(null)), t: e.Type}
	}
	b.add(jen.If(okCond(ok, jen.Op("!").Id(good))).Block(c.fail(b,
		jen.Qual(pkgSQLFn, "ErrFunction").Call(jen.Lit(e.Func), jen.Index().Any().Values(goArgs...)))))
	return val{v: jen.Id(v), ok: andOK(ok, jen.Op("!").Id(null)), t: e.Type}
}
