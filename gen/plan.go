package gen

import (
	"bytes"
	"fmt"
	"regexp"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// relInfo is what the plan compiler needs to know about a relation a Scan
// reads: the Go variable holding its runtime definition, its row struct and
// the Go field of each column.
type relInfo struct {
	varName string    // e.g. "rawOrders"
	row     *goStruct // the row struct
}

// planCompiler compiles a checked plan into Go statements with the
// produce/consume model: each operator produces its rows by handing the
// values of its output columns to the code of the operator above it, so a
// chain of filters and projections becomes straight-line code inside one
// loop, and only aggregations, joins, sorts and DISTINCT hold rows.
type planCompiler struct {
	reg  *typeRegistry
	fn   *funcScope
	rels map[string]*relInfo
	// feeds are the tables read as change data feeds (read_change_feed):
	// a streaming scan of one reads its changes (see cdc.go).
	feeds map[string]*relInfo
	// scanDepth counts the scan callbacks being generated; code generated
	// at depth 0 runs outside any scan and uses the flow's sequential
	// worker, which usesWorker records.
	scanDepth  int
	usesWorker bool
	// incrAgg is the top-level aggregation of a materialized view refreshed
	// with GROUP_AGGREGATE (spec.Flow.Refresh; see refresh.go), or nil.
	incrAgg *sql.Aggregate
	// stateful is the stateful operator of a streaming flow with a
	// watermark (see statefulop.go), or nil.
	stateful *sql.Stateful
	// subq holds the locals of the flow's uncorrelated subqueries, set
	// before the flow's rows are produced (subquery.go).
	subq map[*sql.Subquery]*subqVars
	// prune holds the file-skipping terms (runtime.PruneTerm literals) of
	// the filter over the next scan, which takes and clears them.
	prune []jen.Code
}

// worker returns the Go expression of the *runtime.Worker in scope where
// code is being generated.
func (pc *planCompiler) worker() jen.Code {
	if pc.scanDepth == 0 {
		pc.usesWorker = true
	}
	return jen.Id("w")
}

// consumer emits, into b, the code that handles one row whose column values
// are cols.
type consumer func(b *block, cols []val)

// concurrentSafe reports whether every operator between a Scan and the
// root handles rows independently, so that the scan's callback may run on
// several workers at once. Build sides of joins are read sequentially
// before the probe starts and are read-only afterwards.
func concurrentSafe(p sql.Plan) bool {
	switch p := p.(type) {
	case *sql.Scan, *sql.Values:
		return true
	case *sql.Filter:
		return concurrentSafe(p.Input)
	case *sql.Project:
		return concurrentSafe(p.Input)
	case *sql.Generate:
		return concurrentSafe(p.Input)
	case *sql.Union:
		for _, in := range p.Inputs {
			if !concurrentSafe(in) {
				return false
			}
		}
		return !p.Distinct
	case *sql.Join:
		switch p.Kind {
		case sql.InnerJoin, sql.LeftJoin, sql.LeftSemiJoin, sql.LeftAntiJoin, sql.CrossJoin:
			return concurrentSafe(p.Left)
		}
	}
	return false
}

// produce emits into b the code producing p's rows, calling consume for the
// row-handling code. concurrent says whether the driving scan may run its
// callback on several workers.
func (pc *planCompiler) produce(b *block, p sql.Plan, concurrent bool, consume consumer) {
	switch p := p.(type) {
	case *sql.Scan:
		pc.scan(b, p, concurrent, consume)
	case *sql.Values:
		pc.values(b, p, consume)
	case *sql.Filter:
		if s, ok := p.Input.(*sql.Scan); ok && !s.Streaming {
			pc.prune = pruneTerms(s, p.Cond)
		}
		pc.produce(b, p.Input, concurrent, func(b *block, cols []val) {
			ec := pc.exprs(cols)
			cond := ec.cond(b, p.Cond)
			inner := b.sub()
			consume(inner, cols)
			b.add(jen.If(cond).Block(inner.stmts...))
		})
	case *sql.Project:
		pc.produce(b, p.Input, concurrent, func(b *block, cols []val) {
			ec := pc.exprs(cols)
			out := make([]val, len(p.Exprs))
			for i, e := range p.Exprs {
				out[i] = b.bind(ec.compile(b, e))
				markUsed(b, out[i]) // the consumer may not read it
			}
			consume(b, out)
		})
	case *sql.Generate:
		pc.generateRows(b, p, concurrent, consume)
	case *sql.Window:
		if pc.statefulOp(p) {
			pc.dedupWithinWatermark(b, p, consume)
			return
		}
		pc.window(b, p, consume)
	case *sql.Aggregate:
		pc.aggregate(b, p, consume)
	case *sql.Join:
		pc.join(b, p, concurrent, consume)
	case *sql.Union:
		if p.Distinct {
			pc.distinct(b, p.Inputs, p.Columns, consume)
			return
		}
		for _, in := range p.Inputs {
			pc.produce(b, in, concurrent, consume)
		}
	case *sql.Distinct:
		pc.distinctOf(b, []sql.Plan{p.Input}, p.Output(), pc.statefulOp(p), consume)
	case *sql.Sort:
		pc.sort(b, p, nil, consume)
	case *sql.Limit:
		if s, ok := p.Input.(*sql.Sort); ok {
			pc.sort(b, s, &p.N, consume)
			return
		}
		pc.limit(b, p, consume)
	default:
		panic(&UnsupportedError{What: fmt.Sprintf("operator %T", p)})
	}
}

func (pc *planCompiler) exprs(cols []val) *exprCompiler {
	return &exprCompiler{reg: pc.reg, cols: cols, ctx: jen.Id("ctx"), params: jen.Id("ctx").Dot("Params").Call(), subq: pc.subq}
}

// scan reads a source or a table: its micro-batch when Streaming, its
// snapshot otherwise.
func (pc *planCompiler) scan(b *block, p *sql.Scan, concurrent bool, consume consumer) {
	rel := pc.rels[p.Name]
	if f := pc.feeds[p.Name]; f != nil && p.Streaming && len(p.Columns) == len(f.row.fields) {
		rel = f
	}
	if rel == nil {
		panic(fmt.Sprintf("gen: scan of unknown relation %q", p.Name))
	}
	prune := pc.prune
	pc.prune = nil
	rows, r := pc.fn.tmp("rows"), pc.fn.tmp("r")
	cols := make([]val, len(p.Columns))
	for i, c := range p.Columns {
		f := rel.row.fields[i]
		sel := jen.Id(r).Dot(f.name)
		if c.Nullable {
			cols[i] = val{v: sel.Clone().Dot("V"), ok: sel.Clone().Dot("Valid"), t: c.Type, whole: sel.Clone()}
		} else {
			cols[i] = val{v: sel, t: c.Type}
		}
	}
	body := b.sub()
	// Errors raised while computing a row name the input row.
	body.rowErr = func(cause jen.Code) jen.Code { return jen.Id("w").Dot("RowError").Call(cause, jen.Id(r)) }
	pc.scanDepth++
	pc.observeEventTime(body, p, cols)
	consume(body, cols)
	pc.scanDepth--
	opts := jen.Dict{}
	if p.Streaming {
		opts[jen.Id("Streaming")] = jen.True()
	}
	if concurrent {
		opts[jen.Id("Concurrent")] = jen.True()
	}
	if len(prune) > 0 && !p.Streaming {
		opts[jen.Id("Prune")] = jen.Index().Qual(pkgRuntime, "PruneTerm").Values(prune...)
	}
	// A query that reads no column (count(*), a constant) must not
	// declare the row variable: Go rejects unused variables.
	loop := jen.For(jen.Range().Id(rows)).Block(body.stmts...)
	if mentions(body.stmts, r) {
		loop = jen.For(jen.Id("i").Op(":=").Range().Id(rows)).Block(
			append([]jen.Code{jen.Id(r).Op(":=").Op("&").Id(rows).Index(jen.Id("i"))}, body.stmts...)...,
		)
	}
	b.add(jen.If(jen.Err().Op(":=").Qual(pkgRuntime, "Scan").Call(
		jen.Id("ctx"), jen.Id(rel.varName), jen.Qual(pkgRuntime, "ScanOptions").Values(opts),
		jen.Func().Params(jen.Id("w").Op("*").Qual(pkgRuntime, "Worker"), jen.Id(rows).Index().Id(rel.row.name)).Error().Block(
			loop,
			jen.Return(jen.Nil()),
		),
	), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
}

// mentions reports whether the statements use the Go identifier id (a
// fresh temporary of the function scope, so a textual match is exact). It
// answers true when the statements cannot be rendered on their own.
func mentions(stmts []jen.Code, id string) bool {
	var buf bytes.Buffer
	if err := jen.Block(stmts...).Render(&buf); err != nil {
		return true
	}
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(id) + `\b`).Match(buf.Bytes())
}

// goIdent matches a Go identifier: a local of the generated code.
var goIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// markUsed keeps Go from rejecting the locals holding x when the consumer
// does not read them (a column the query drops, the hidden columns of a
// USING join): `_ = v`.
func markUsed(b *block, x val) {
	for _, s := range []*jen.Statement{x.v, x.ok} {
		if s == nil {
			continue
		}
		if str := fmt.Sprintf("%#v", s); goIdent.MatchString(str) && str != "nil" && str != "true" && str != "false" {
			b.add(jen.Id("_").Op("=").Add(s.Clone()))
		}
	}
}

// values produces the rows of an inline table.
func (pc *planCompiler) values(b *block, p *sql.Values, consume consumer) {
	for _, row := range p.Rows {
		rb := b.sub()
		ec := pc.exprs(nil)
		cols := make([]val, len(row))
		for i, e := range row {
			// A column the query does not read is still evaluated (it
			// may fail, as in Spark).
			cols[i] = rb.bind(ec.compile(rb, e))
			markUsed(rb, cols[i])
		}
		consume(rb, cols)
		b.add(jen.Block(rb.stmts...))
	}
}

// tuple is a local struct type holding the values of some columns, used as
// a hash key or to keep rows of a join's build side, a sort or a DISTINCT.
// FLOAT and DOUBLE values are held as their normalized bits
// (sqlfn.FloatKey), so that as keys NaN equals NaN and -0.0 equals 0.0, as
// Spark's grouping, DISTINCT and join keys treat them. A field that may be
// NULL where the type is declared has a validity flag F<i>OK beside it.
// The type is declared from the input's first code path, which may know a
// column is valid where a later path does not (the matched side of an
// outer join, one VALUES row): such a field gains a flag F<i>Null when a
// literal first holds a value that may be NULL; the literals written
// before leave it false (not NULL).
type tuple struct {
	name  string
	types []types.Type
	// nullable[i] says whether field i has a flag; nullFlag[i] that the
	// flag is F<i>Null (added later) rather than F<i>OK.
	nullable []bool
	nullFlag []bool
	goTypes  []jen.Code
	// decl is the emitted declaration, rewritten in place when a field
	// gains its flag.
	decl *jen.Statement
}

// declareTuple emits `type <name> struct{...}` for the given values.
func (pc *planCompiler) declareTuple(b *block, prefix string, xs []val) *tuple {
	t := &tuple{name: pc.fn.tmp(prefix), decl: &jen.Statement{}}
	for _, x := range xs {
		t.types = append(t.types, x.t)
		t.nullable = append(t.nullable, x.ok != nil)
		t.nullFlag = append(t.nullFlag, false)
		ft := pc.reg.baseType(x.t)
		switch x.t.Kind {
		case types.DoubleKind:
			ft = jen.Uint64()
		case types.FloatKind:
			ft = jen.Uint32()
		}
		t.goTypes = append(t.goTypes, ft)
	}
	t.render()
	b.add(t.decl)
	return t
}

// flag names field i's flag.
func (t *tuple) flag(i int) string {
	if t.nullFlag[i] {
		return fmt.Sprintf("F%dNull", i)
	}
	return fmt.Sprintf("F%dOK", i)
}

// render (re)writes the tuple's declaration.
func (t *tuple) render() {
	fields := make([]jen.Code, 0, 2*len(t.types))
	for i := range t.types {
		fields = append(fields, jen.Id(fmt.Sprintf("F%d", i)).Add(t.goTypes[i]))
		if t.nullable[i] {
			fields = append(fields, jen.Id(t.flag(i)).Bool())
		}
	}
	*t.decl = *jen.Type().Id(t.name).Struct(fields...)
}

// literal returns a composite literal of the tuple holding xs.
func (t *tuple) literal(xs []val) *jen.Statement {
	d := jen.Dict{}
	for i, x := range xs {
		v := x.v.Clone()
		switch {
		case x.ok != nil && !isFalse(x.ok):
			// The value of a NULL is unspecified (an expression's result
			// slot may hold anything): key it as the zero value, so that
			// NULLs group, deduplicate and compare as one.
			v = jen.Qual(pkgSQLFn, "IfValid").Call(x.ok.Clone(), v)
		case x.ok != nil && x.v != nil:
			// A NULL known at generation time (a folded VALUES row, 3 +
			// NULL) holds the value computed without the NULL: zero too.
			v = jen.Qual(pkgSQLFn, "IfValid").Call(jen.False(), v)
		}
		switch t.types[i].Kind {
		case types.DoubleKind:
			v = jen.Qual(pkgSQLFn, "FloatKey").Call(v)
		case types.FloatKind:
			v = jen.Qual(pkgSQLFn, "Float32Key").Call(v)
		}
		d[jen.Id(fmt.Sprintf("F%d", i))] = v
		switch {
		case t.nullable[i] && t.nullFlag[i] && x.ok != nil:
			d[jen.Id(t.flag(i))] = jen.Op("!").Parens(x.ok.Clone())
		case t.nullable[i] && t.nullFlag[i]:
		case t.nullable[i] && x.ok == nil:
			d[jen.Id(t.flag(i))] = jen.True()
		case t.nullable[i]:
			d[jen.Id(t.flag(i))] = x.ok.Clone()
		case x.ok != nil:
			t.nullable[i], t.nullFlag[i] = true, true
			t.render()
			d[jen.Id(t.flag(i))] = jen.Op("!").Parens(x.ok.Clone())
		}
	}
	return jen.Id(t.name).Values(d)
}

// fields returns the values of a tuple held in the Go expression v. Call
// it once every literal of the tuple is written (the flags are known).
func (t *tuple) fields(v jen.Code) []val {
	out := make([]val, len(t.types))
	for i := range t.types {
		f := jen.Add(v).Dot(fmt.Sprintf("F%d", i))
		switch t.types[i].Kind {
		case types.DoubleKind:
			f = jen.Qual("math", "Float64frombits").Call(f)
		case types.FloatKind:
			f = jen.Qual("math", "Float32frombits").Call(f)
		}
		out[i] = val{v: f, t: t.types[i]}
		switch {
		case t.nullFlag[i]:
			out[i].ok = jen.Op("!").Add(v).Dot(t.flag(i))
		case t.nullable[i]:
			out[i].ok = jen.Add(v).Dot(t.flag(i))
		}
	}
	return out
}

// distinct passes on each distinct row once, in order of first appearance.
// With several inputs (UNION) one set spans them all; its key type
// follows the output columns (cols), nullable where any input is.
func (pc *planCompiler) distinct(b *block, inputs []sql.Plan, cols []sql.Column, consume consumer) {
	pc.distinctOf(b, inputs, cols, false, consume)
}

// distinctOf is distinct; with stateful, the flow's stateful
// deduplication (see statefulop.go).
func (pc *planCompiler) distinctOf(b *block, inputs []sql.Plan, cols []sql.Column, stateful bool, consume consumer) {
	seen := pc.fn.tmp("seen")
	shape := make([]val, len(cols))
	for i, c := range cols {
		if !sql.Comparable(c.Type) {
			uncompilable("DISTINCT over a column of type %s", c.Type)
		}
		shape[i] = val{t: c.Type}
		if c.Nullable {
			shape[i].ok = jen.False()
		}
	}
	tt := pc.declareTuple(b, "row", shape)
	b.add(jen.Id(seen).Op(":=").Map(jen.Id(tt.name)).Struct().Values())
	wm := ""
	if stateful {
		wm = pc.distinctState(b, seen)
	}
	for _, in := range inputs {
		pc.produce(b, in, false, func(rb *block, cols []val) {
			if stateful {
				cols = append([]val(nil), cols...)
				i := pc.stateful.TimeKey
				cols[i] = pc.dropLate(rb, cols[i], pc.stateful.TimeKeyWindow, wm)
			}
			k := pc.fn.tmp("k")
			rb.add(jen.Id(k).Op(":=").Add(tt.literal(cols)))
			inner := rb.sub()
			inner.add(jen.Id(seen).Index(jen.Id(k)).Op("=").Struct().Values())
			consume(inner, cols)
			if !stateful {
				rb.add(jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Id(seen).Index(jen.Id(k)), jen.Op("!").Id("dup")).Block(inner.stmts...))
				return
			}
			// A stateful deduplication counts what it drops
			// (numDroppedDuplicateRows).
			rb.add(jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Id(seen).Index(jen.Id(k)), jen.Id("dup")).Block(
				jen.Qual(pkgRuntime, "DuplicateRow").Call(pc.worker()),
			).Else().Block(inner.stmts...))
		})
	}
	if stateful {
		pc.distinctEvict(b, tt, seen)
	}
}

// isFalse reports whether a Go expression is the constant false.
func isFalse(s *jen.Statement) bool { return fmt.Sprintf("%#v", s) == "false" }

// limit passes on the first N rows.
func (pc *planCompiler) limit(b *block, p *sql.Limit, consume consumer) {
	n := pc.fn.tmp("n")
	b.add(jen.Var().Id(n).Int64())
	pc.produce(b, p.Input, false, func(rb *block, cols []val) {
		inner := rb.sub()
		inner.add(jen.Id(n).Op("++"))
		consume(inner, cols)
		rb.add(jen.If(jen.Id(n).Op("<").Lit(p.N)).Block(inner.stmts...))
	})
}

// sort collects the rows, orders them by the sort keys (NULLS FIRST/LAST as
// given) and passes them on; with limit only the first *limit rows.
func (pc *planCompiler) sort(b *block, p *sql.Sort, limit *int64, consume consumer) {
	rows := pc.fn.tmp("sorted")
	var tt *tuple
	var nkeys int
	pc.produce(b, p.Input, false, func(rb *block, cols []val) {
		ec := pc.exprs(cols)
		all := append([]val(nil), cols...)
		for _, k := range p.Keys {
			all = append(all, rb.bind(ec.compile(rb, k.Expr)))
		}
		nkeys = len(p.Keys)
		if tt == nil {
			tt = pc.declareTuple(b, "row", all)
			b.add(jen.Var().Id(rows).Index().Id(tt.name))
		}
		rb.add(jen.Id(rows).Op("=").Append(jen.Id(rows), tt.literal(all)))
	})
	ncols := len(tt.types) - nkeys
	// Comparator: keys in order, NULL placement, direction.
	var cmp []jen.Code
	for i, k := range p.Keys {
		a := tt.fields(jen.Id("a"))[ncols+i]
		c := tt.fields(jen.Id("c"))[ncols+i]
		sign := 1
		if k.Descending {
			sign = -1
		}
		nullFirst := -1
		if !k.NullsFirst {
			nullFirst = 1
		}
		if a.ok != nil {
			cmp = append(cmp, jen.If(a.ok.Clone().Op("!=").Add(c.ok.Clone())).Block(
				jen.If(a.ok.Clone()).Block(jen.Return(jen.Lit(-nullFirst))),
				jen.Return(jen.Lit(nullFirst)),
			))
		}
		ec := pc.exprs(nil)
		cmp = append(cmp, jen.If(ec.compare(a, c, "<")).Block(jen.Return(jen.Lit(-sign))),
			jen.If(ec.compare(c, a, "<")).Block(jen.Return(jen.Lit(sign))))
	}
	cmp = append(cmp, jen.Return(jen.Lit(0)))
	b.add(jen.Qual("slices", "SortStableFunc").Call(jen.Id(rows), jen.Func().Params(jen.List(jen.Id("a"), jen.Id("c")).Id(tt.name)).Int().Block(cmp...)))
	if limit != nil {
		b.add(jen.If(jen.Len(jen.Id(rows)).Op(">").Lit(int(*limit))).Block(jen.Id(rows).Op("=").Id(rows).Index(jen.Empty(), jen.Lit(int(*limit)))))
	}
	body := b.sub()
	it := pc.fn.tmp("s")
	consume(body, tt.fields(jen.Id(it))[:ncols])
	b.add(jen.For(jen.List(jen.Id("_"), jen.Id(it)).Op(":=").Range().Id(rows)).Block(body.stmts...))
}
