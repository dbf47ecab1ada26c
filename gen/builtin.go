package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// This file compiles the scalar functions of the function table whose
// Impl is ImplInline and that take arguments of any type: format_string,
// hash, xxhash64, and window() for time buckets.

// formatString compiles format_string(fmt, args...): each argument is
// passed as any in Spark's internal form (nil for NULL, a DECIMAL as its
// text); a pattern Java's Formatter rejects fails the row.
func (c *exprCompiler) formatString(b *block, e *sql.Call) val {
	f := b.bind(c.compile(b, e.Args[0]))
	goArgs := []jen.Code{f.v.Clone()}
	for _, a := range e.Args[1:] {
		x := b.bind(c.compile(b, a))
		v := x.v.Clone()
		if x.t.Kind == types.DecimalKind {
			v = jen.Qual(pkgSQLFn, "CastDecimalString").Call(x.v.Clone(), jen.Lit(x.t.Scale))
		}
		if x.ok == nil {
			goArgs = append(goArgs, v)
			continue
		}
		arg := b.fn.tmp("arg")
		b.add(jen.Var().Id(arg).Any())
		b.add(jen.If(x.ok.Clone()).Block(jen.Id(arg).Op("=").Add(v)))
		goArgs = append(goArgs, jen.Id(arg))
	}
	v, good := b.fn.tmp("v"), b.fn.tmp("good")
	b.add(jen.List(jen.Id(v), jen.Id(good)).Op(":=").Qual(pkgSQLFn, "Printf").Call(goArgs...))
	b.add(jen.If(okCond(f.ok, jen.Op("!").Id(good))).Block(c.fail(b,
		jen.Qual(pkgSQLFn, "ErrFunction").Call(jen.Lit(e.Func), jen.Index().Any().Values(goArgs...)))))
	return val{v: jen.Id(v), ok: cloneOK(f.ok), t: e.Type}
}

// hash compiles hash(...) and xxhash64(...): each non-NULL argument is
// folded into the running hash, starting from seed 42.
func (c *exprCompiler) hash(b *block, e *sql.Call) val {
	fn, seedT := "Murmur3", jen.Int32()
	if e.Func == "xxhash64" {
		fn, seedT = "XxHash64", jen.Int64()
	}
	h := b.fn.tmp("h")
	b.add(jen.Id(h).Op(":=").Add(seedT).Call(jen.Qual(pkgSQLFn, "HashSeed")))
	for _, a := range e.Args {
		x := b.bind(c.compile(b, a))
		var step *jen.Statement
		if x.t.Kind == types.DecimalKind {
			step = jen.Id(h).Op("=").Qual(pkgSQLFn, fn+"Decimal").Call(x.v.Clone(), jen.Lit(x.t.Precision), jen.Id(h))
		} else {
			step = jen.Id(h).Op("=").Qual(pkgSQLFn, fn).Call(x.v.Clone(), jen.Id(h))
		}
		if x.ok != nil {
			b.add(jen.If(x.ok.Clone()).Block(step))
		} else {
			b.add(step)
		}
	}
	return val{v: jen.Id(h), t: e.Type}
}

// timeWindow compiles window(ts, duration[, slide[, start]]) into the
// STRUCT<start, end> of the tumbling window holding ts. The checker has
// validated the constant durations (sql.WindowDurations).
func (c *exprCompiler) timeWindow(b *block, e *sql.Call) val {
	size, offset, ok := sql.WindowDurations(e)
	if !ok {
		uncompilable("window() with a slide different from its duration")
	}
	ts := b.bind(c.compile(b, e.Args[0]))
	start := b.fn.tmp("start")
	b.add(jen.Id(start).Op(":=").Qual(pkgSQLFn, "WindowStart").Call(ts.v.Clone(), jen.Lit(size), jen.Lit(offset)))
	s := c.reg.structFor(e.Type, "Struct")
	some := func(x jen.Code) jen.Code { return jen.Qual(pkgTypes, "Some").Call(x) }
	v := jen.Id(s.name).Values(jen.Dict{
		jen.Id(s.fields[0].name): some(jen.Id(start)),
		jen.Id(s.fields[1].name): some(jen.Id(start).Op("+").Qual(pkgTypes, "Timestamp").Call(jen.Lit(size))),
	})
	return val{v: v, ok: cloneOK(ts.ok), t: e.Type}
}
