package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/spec/sql"
)

// join compiles a hash join: the build side is read first into a slice of
// rows and a map from its equi-join key to row indexes, then the probe side
// is produced and looks each row up. NULL keys never match. The residual
// condition is checked on each candidate pair. RIGHT joins build the left
// side; FULL joins remember which build rows matched and emit the others at
// the end. Joins without equi-keys compare every pair.
func (pc *planCompiler) join(b *block, p *sql.Join, concurrent bool, consume consumer) {
	buildLeft := p.Kind == sql.RightJoin
	build, probe := p.Right, p.Left
	buildKeys, probeKeys := p.RightKeys, p.LeftKeys
	if buildLeft {
		build, probe = p.Left, p.Right
		buildKeys, probeKeys = p.LeftKeys, p.RightKeys
	}
	nLeft := len(p.Left.Output())
	buildCols := build.Output()

	rows, index := pc.fn.tmp("built"), pc.fn.tmp("index")
	var row, key *tuple
	full := p.Kind == sql.FullJoin
	matched := pc.fn.tmp("matched")

	pc.produce(b, build, false, func(rb *block, cols []val) {
		if row == nil {
			row = pc.declareTuple(b, "row", cols)
			b.add(jen.Var().Id(rows).Index().Id(row.name))
		}
		if len(buildKeys) == 0 {
			rb.add(jen.Id(rows).Op("=").Append(jen.Id(rows), row.literal(cols)))
			return
		}
		ec := pc.exprs(cols)
		keys := make([]val, len(buildKeys))
		for i, k := range buildKeys {
			keys[i] = rb.bind(ec.compile(rb, k))
			if !sql.Comparable(keys[i].t) {
				uncompilable("a join key of type %s", keys[i].t)
			}
		}
		if key == nil {
			key = pc.declareTuple(b, "key", nonNull(keys))
			b.add(jen.Id(index).Op(":=").Map(jen.Id(key.name)).Index().Int32().Values())
		}
		add := []jen.Code{
			jen.Id(index).Index(key.literal(nonNull(keys))).Op("=").Append(jen.Id(index).Index(key.literal(nonNull(keys))), jen.Int32().Call(jen.Len(jen.Id(rows)))),
		}
		// Rows with a NULL key are kept (for FULL and RIGHT joins' unmatched
		// output) but never indexed.
		if ok := okAnd(keys...); ok != nil {
			rb.add(jen.If(ok).Block(add...))
		} else {
			rb.add(add...)
		}
		rb.add(jen.Id(rows).Op("=").Append(jen.Id(rows), row.literal(cols)))
	})
	if row == nil { // the build side's plan produced no code path (cannot happen for valid plans)
		panic(&UnsupportedError{What: "join with an empty build side"})
	}
	if full {
		b.add(jen.Id(matched).Op(":=").Make(jen.Index().Bool(), jen.Len(jen.Id(rows))))
	}

	pc.produce(b, probe, concurrent && !full, func(rb *block, cols []val) {
		// found records a match where unmatched probe rows are emitted.
		needFound := p.Kind == sql.LeftJoin || p.Kind == sql.RightJoin || p.Kind == sql.FullJoin || p.Kind == sql.LeftAntiJoin
		found := pc.fn.tmp("found")
		if needFound {
			rb.add(jen.Id(found).Op(":=").False())
		}
		bi := pc.fn.tmp("bi")
		br := row.fields(jen.Id(rows).Index(jen.Id(bi)))
		pair := func() []val {
			if buildLeft {
				return append(append([]val(nil), br...), cols...)
			}
			return append(append([]val(nil), cols...), br...)
		}
		match := rb.sub()
		// The build row may go unread (a semi join, or a query that reads
		// only probe columns); Go rejects an unused loop variable.
		match.add(jen.Id("_").Op("=").Id(bi))
		if p.Residual != nil {
			ec := pc.exprs(pair())
			cond := ec.cond(match, p.Residual)
			match.add(jen.If(jen.Op("!").Parens(cond)).Block(jen.Continue()))
		}
		if needFound {
			match.add(jen.Id(found).Op("=").True())
		}
		if full {
			match.add(jen.Id(matched).Index(jen.Id(bi)).Op("=").True())
		}
		switch p.Kind {
		case sql.LeftSemiJoin:
			consume(match, cols)
			match.add(jen.Break())
		case sql.LeftAntiJoin:
			match.add(jen.Break())
		default:
			consume(match, pair())
		}
		var loop jen.Code
		if len(probeKeys) == 0 {
			loop = jen.For(jen.Id(bi).Op(":=").Range().Id(rows)).Block(match.stmts...)
		} else {
			ec := pc.exprs(cols)
			keys := make([]val, len(probeKeys))
			for i, k := range probeKeys {
				keys[i] = rb.bind(ec.compile(rb, k))
			}
			lookup := jen.For(jen.List(jen.Id("_"), jen.Id(bi)).Op(":=").Range().Id(index).Index(key.literal(nonNull(keys)))).Block(match.stmts...)
			if ok := okAnd(keys...); ok != nil {
				loop = jen.If(ok).Block(lookup)
			} else {
				loop = lookup
			}
		}
		rb.add(loop)
		switch p.Kind {
		case sql.LeftJoin, sql.RightJoin, sql.FullJoin:
			nulls := pc.nullVals(buildCols)
			var out []val
			if buildLeft {
				out = append(nulls, cols...)
			} else {
				out = append(append([]val(nil), cols...), nulls...)
			}
			miss := rb.sub()
			consume(miss, out)
			rb.add(jen.If(jen.Op("!").Id(found)).Block(miss.stmts...))
		case sql.LeftAntiJoin:
			miss := rb.sub()
			consume(miss, cols)
			rb.add(jen.If(jen.Op("!").Id(found)).Block(miss.stmts...))
		}
	})

	if full {
		// Build rows that matched nothing, with NULLs for the left side.
		bi := pc.fn.tmp("bi")
		rest := b.sub()
		out := append(pc.nullVals(p.Left.Output()[:nLeft]), row.fields(jen.Id(rows).Index(jen.Id(bi)))...)
		consume(rest, out)
		b.add(jen.For(jen.Id(bi).Op(":=").Range().Id(rows)).Block(
			append([]jen.Code{jen.If(jen.Id(matched).Index(jen.Id(bi))).Block(jen.Continue())}, rest.stmts...)...))
	}
}

// nonNull returns xs as values known not to be NULL (used once the key's
// validity has been checked).
func nonNull(xs []val) []val {
	out := make([]val, len(xs))
	for i, x := range xs {
		out[i] = val{v: x.v, t: x.t}
	}
	return out
}

// nullVals returns NULL values for the given columns (the missing side of an
// outer join).
func (pc *planCompiler) nullVals(cols []sql.Column) []val {
	out := make([]val, len(cols))
	ec := pc.exprs(nil)
	for i, c := range cols {
		out[i] = val{v: ec.zero(c.Type), ok: jen.False(), t: c.Type}
	}
	return out
}
