package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// window compiles a Window: the input rows are kept with their PARTITION
// BY and ORDER BY values, sorted by them (stably: rows equal in both keep
// their input order), and for each partition every call is computed into
// a slice before the partition's rows are passed on with the results.
// Memory is bounded by the input's rows, as in Spark's WindowExec.
func (pc *planCompiler) window(b *block, p *sql.Window, consume consumer) {
	nIn := len(p.Input.Output())
	nP := len(p.PartitionBy)
	rows := pc.fn.tmp("wrows")
	var tt *tuple
	pc.produce(b, p.Input, false, func(rb *block, cols []val) {
		ec := pc.exprs(cols)
		all := append([]val(nil), cols...)
		for _, e := range p.PartitionBy {
			all = append(all, rb.bind(ec.compile(rb, e)))
		}
		for _, k := range p.OrderBy {
			all = append(all, rb.bind(ec.compile(rb, k.Expr)))
		}
		if tt == nil {
			tt = pc.declareTuple(b, "wrow", all)
			b.add(jen.Var().Id(rows).Index().Id(tt.name))
		}
		rb.add(jen.Id(rows).Op("=").Append(jen.Id(rows), tt.literal(all)))
	})
	// Sort by the partition keys (any consistent order), then the ORDER BY.
	var cmp []jen.Code
	for i := 0; i < nP; i++ {
		cmp = append(cmp, pc.compareStmts(tt.fields(jen.Id("a"))[nIn+i], tt.fields(jen.Id("c"))[nIn+i], false, true)...)
	}
	for i, k := range p.OrderBy {
		cmp = append(cmp, pc.compareStmts(tt.fields(jen.Id("a"))[nIn+nP+i], tt.fields(jen.Id("c"))[nIn+nP+i], k.Descending, k.NullsFirst)...)
	}
	cmp = append(cmp, jen.Return(jen.Lit(0)))
	b.add(jen.Qual("slices", "SortStableFunc").Call(jen.Id(rows), jen.Func().Params(jen.List(jen.Id("a"), jen.Id("c")).Id(tt.name)).Int().Block(cmp...)))

	start, end, part, n := pc.fn.tmp("start"), pc.fn.tmp("end"), pc.fn.tmp("part"), pc.fn.tmp("n")
	row := func(i jen.Code) []val { return tt.fields(jen.Id(part).Index(i)) }
	// same(i, j) reports equal keys [from, to) of rows i and j (NULLs equal).
	same := func(i, j jen.Code, from, to int) *jen.Statement {
		var cond *jen.Statement
		for k := from; k < to; k++ {
			eq := pc.equalVals(row(i)[k], row(j)[k])
			if cond == nil {
				cond = eq
			} else {
				cond = cond.Op("&&").Add(eq)
			}
		}
		if cond == nil {
			return jen.True()
		}
		return jen.Parens(cond)
	}
	pb := b.sub()
	pb.add(jen.Id(part).Op(":=").Id(rows).Index(jen.Id(start), jen.Id(end)))
	pb.add(jen.Id(n).Op(":=").Len(jen.Id(part)))
	pb.add(jen.Id("_").Op("=").Id(n))
	peer := func(i, j jen.Code) *jen.Statement { return same(i, j, nIn+nP, nIn+nP+len(p.OrderBy)) }
	results := make([]val, len(p.Calls))
	for k, w := range p.Calls {
		results[k] = pc.windowCall(pb, p, k, w, part, n, row, peer)
	}
	i := pc.fn.tmp("i")
	emit := pb.sub()
	out := append([]val(nil), row(jen.Id(i))[:nIn]...)
	for _, r := range results {
		x := val{v: r.v.Clone().Index(jen.Id(i)), t: r.t}
		if r.ok != nil {
			x.ok = r.ok.Clone().Index(jen.Id(i))
		}
		out = append(out, x)
	}
	consume(emit, out)
	pb.add(jen.For(jen.Id(i).Op(":=").Range().Id(part)).Block(emit.stmts...))
	b.add(jen.For(jen.List(jen.Id(start), jen.Id(end)).Op(":=").List(jen.Lit(0), jen.Lit(0)), jen.Id(start).Op("<").Len(jen.Id(rows)), jen.Id(start).Op("=").Id(end)).Block(
		append([]jen.Code{
			jen.Id(end).Op("=").Id(start).Op("+").Lit(1),
			jen.For(jen.Id(end).Op("<").Len(jen.Id(rows)).Op("&&").Add(pc.samePartition(tt, rows, start, end, nIn, nP))).Block(jen.Id(end).Op("++")),
		}, pb.stmts...)...))
}

// samePartition is the condition that rows[start] and rows[end] have
// equal partition keys.
func (pc *planCompiler) samePartition(tt *tuple, rows, start, end string, nIn, nP int) *jen.Statement {
	a, c := tt.fields(jen.Id(rows).Index(jen.Id(start))), tt.fields(jen.Id(rows).Index(jen.Id(end)))
	cond := jen.True()
	for k := nIn; k < nIn+nP; k++ {
		cond = cond.Op("&&").Add(pc.equalVals(a[k], c[k]))
	}
	return jen.Parens(cond)
}

// equalVals is the condition that two values of one type are equal, NULL
// equal to NULL (grouping equality: NaN equals NaN).
func (pc *planCompiler) equalVals(a, c val) *jen.Statement {
	eq := pc.exprs(nil).compare(a, c, "==")
	if a.ok == nil {
		return jen.Parens(eq)
	}
	return jen.Parens(a.ok.Clone().Op("==").Add(c.ok.Clone()).Op("&&").Parens(jen.Op("!").Add(a.ok.Clone()).Op("||").Add(eq)))
}

// compareStmts emits the statements of a sort comparator returning on the
// first difference between a and c, in the given direction and NULL order.
func (pc *planCompiler) compareStmts(a, c val, desc, nullsFirst bool) []jen.Code {
	sign := 1
	if desc {
		sign = -1
	}
	nullFirst := -1
	if !nullsFirst {
		nullFirst = 1
	}
	var out []jen.Code
	if a.ok != nil {
		out = append(out, jen.If(a.ok.Clone().Op("!=").Add(c.ok.Clone())).Block(
			jen.If(a.ok.Clone()).Block(jen.Return(jen.Lit(-nullFirst))),
			jen.Return(jen.Lit(nullFirst)),
		))
	}
	ec := pc.exprs(nil)
	return append(out, jen.If(ec.compare(a, c, "<")).Block(jen.Return(jen.Lit(-sign))),
		jen.If(ec.compare(c, a, "<")).Block(jen.Return(jen.Lit(sign))))
}

// windowCall emits the computation of call k for the partition part (of
// n rows) and returns its results: v indexes a slice of values, ok (when
// the result may be NULL) a slice of validity flags.
func (pc *planCompiler) windowCall(b *block, p *sql.Window, k int, w *sql.WindowCall, part, n string, row func(jen.Code) []val, peer func(i, j jen.Code) *jen.Statement) val {
	nIn := len(p.Input.Output())
	res, ok := pc.fn.tmp("res"), pc.fn.tmp("resOK")
	b.add(jen.Id(res).Op(":=").Make(jen.Index().Add(pc.reg.baseType(w.Type)), jen.Id(n)))
	out := val{v: jen.Id(res), t: w.Type}
	if w.Nullable {
		b.add(jen.Id(ok).Op(":=").Make(jen.Index().Bool(), jen.Id(n)))
		out.ok = jen.Id(ok)
	}
	i := pc.fn.tmp("i")
	set := func(blk *block, x val) {
		blk.add(jen.Id(res).Index(jen.Id(i)).Op("=").Add(x.v))
		if w.Nullable {
			okv := jen.True()
			if x.ok != nil {
				okv = x.ok
			}
			blk.add(jen.Id(ok).Index(jen.Id(i)).Op("=").Add(okv))
		}
	}
	// argAt compiles argument a of the call over row j of the partition.
	argAt := func(blk *block, a int, j jen.Code) val {
		return blk.bind(pc.exprs(row(j)[:nIn]).compile(blk, w.Args[a]))
	}
	loop := func(body ...jen.Code) { b.add(jen.For(jen.Id(i).Op(":=").Range().Id(part)).Block(body...)) }
	switch w.Func {
	case "row_number":
		loop(jen.Id(res).Index(jen.Id(i)).Op("=").Int32().Call(jen.Id(i).Op("+").Lit(1)))
		return out
	case "rank", "dense_rank", "percent_rank":
		r := pc.fn.tmp("r")
		b.add(jen.Id(r).Op(":=").Int32().Call(jen.Lit(0)))
		next := jen.Id(r).Op("=").Int32().Call(jen.Id(i).Op("+").Lit(1))
		if w.Func == "dense_rank" {
			next = jen.Id(r).Op("++")
		}
		var value jen.Code = jen.Id(r)
		if w.Func == "percent_rank" {
			value = jen.Lit(0.0)
		}
		body := []jen.Code{jen.If(jen.Id(i).Op("==").Lit(0).Op("||").Op("!").Add(peer(jen.Id(i).Op("-").Lit(1), jen.Id(i)))).Block(next)}
		if w.Func == "percent_rank" {
			body = append(body, jen.If(jen.Id(n).Op(">").Lit(1)).Block(
				jen.Id(res).Index(jen.Id(i)).Op("=").Float64().Call(jen.Id(r).Op("-").Lit(1)).Op("/").Float64().Call(jen.Id(n).Op("-").Lit(1))))
		} else {
			body = append(body, jen.Id(res).Index(jen.Id(i)).Op("=").Add(value))
		}
		loop(body...)
		return out
	case "cume_dist":
		last := pc.fn.tmp("last")
		b.add(jen.Id(last).Op(":=").Id(n))
		b.add(jen.For(jen.Id(i).Op(":=").Id(n).Op("-").Lit(1), jen.Id(i).Op(">=").Lit(0), jen.Id(i).Op("--")).Block(
			jen.If(jen.Id(i).Op("<").Id(n).Op("-").Lit(1).Op("&&").Op("!").Add(peer(jen.Id(i), jen.Id(i).Op("+").Lit(1)))).Block(
				jen.Id(last).Op("=").Id(i).Op("+").Lit(1)),
			jen.Id(res).Index(jen.Id(i)).Op("=").Float64().Call(jen.Id(last)).Op("/").Float64().Call(jen.Id(n)),
		))
		return out
	case "ntile":
		buckets := w.Args[0].(*sql.Literal).Value.(int32)
		loop(jen.Id(res).Index(jen.Id(i)).Op("=").Qual(pkgSQLFn, "NTile").Call(jen.Id(i), jen.Id(n), jen.Lit(int(buckets))))
		return out
	case "lag", "lead":
		off := int(w.Args[1].(*sql.Literal).Value.(int32))
		j := pc.fn.tmp("j")
		hit, miss := b.sub(), b.sub()
		set(hit, argAt(hit, 0, jen.Id(j)))
		set(miss, argAt(miss, 2, jen.Id(i)))
		pos := jen.Id(i).Op("-").Lit(off)
		inRange := jen.Id(j).Op(">=").Lit(0)
		if w.Func == "lead" {
			pos = jen.Id(i).Op("+").Lit(off)
			inRange = jen.Id(j).Op("<").Id(n)
		}
		loop(jen.Id(j).Op(":=").Add(pos), jen.If(inRange).Block(hit.stmts...).Else().Block(miss.stmts...))
		return out
	}
	frames := pc.frames(b, p, w, part, n, row)
	lo, hi := jen.Id(frames).Dot("Lo").Index(jen.Id(i)), jen.Id(frames).Dot("Hi").Index(jen.Id(i))
	switch w.Func {
	case "first", "last", "any_value", "nth_value":
		// The n-th row of the frame, counted from its start (first, nth) or
		// its end (last); with ignoreNulls only rows whose value is not NULL count.
		ignoreNulls := false
		flag := 1
		if w.Func == "nth_value" {
			flag = 2
		}
		if len(w.Args) > flag {
			ignoreNulls, _ = w.Args[flag].(*sql.Literal).Value.(bool)
		}
		nth := 1
		if w.Func == "nth_value" {
			nth = int(w.Args[1].(*sql.Literal).Value.(int32))
		}
		j, seen := pc.fn.tmp("j"), pc.fn.tmp("seen")
		scan := b.sub()
		x := argAt(scan, 0, jen.Id(j))
		take := b.sub()
		set(take, x)
		take.add(jen.Break())
		count := []jen.Code{jen.Id(seen).Op("++"), jen.If(jen.Id(seen).Op("==").Lit(nth)).Block(take.stmts...)}
		if ignoreNulls && x.ok != nil {
			scan.add(jen.If(x.ok.Clone()).Block(count...))
		} else {
			scan.add(count...)
		}
		var iter jen.Code = jen.For(jen.Id(j).Op(":=").Add(lo.Clone()), jen.Id(j).Op("<").Add(hi.Clone()), jen.Id(j).Op("++")).Block(scan.stmts...)
		if w.Func == "last" {
			iter = jen.For(jen.Id(j).Op(":=").Add(hi.Clone()).Op("-").Lit(1), jen.Id(j).Op(">=").Add(lo.Clone()), jen.Id(j).Op("--")).Block(scan.stmts...)
		}
		loop(jen.Id(seen).Op(":=").Lit(0), iter)
		return out
	}
	pc.windowAggregate(b, k, w, frames, part, i, set, row, nIn)
	return out
}

// frames emits the computation of the frames of w's rows in part and
// returns the variable holding them (a sqlfn.Frames).
func (pc *planCompiler) frames(b *block, p *sql.Window, w *sql.WindowCall, part, n string, row func(jen.Code) []val) string {
	f := pc.fn.tmp("frames")
	b.add(jen.Var().Id(f).Qual(pkgSQLFn, "Frames"))
	nIn, nP := len(p.Input.Output()), len(p.PartitionBy)
	fr := w.Frame
	offset := func(fb sql.FrameBound, kind *jen.Statement) jen.Code {
		var off jen.Code = jen.Lit(0)
		if fb.Offset != nil {
			off = pc.exprs(nil).literal(fb.Offset.Value, fb.Offset.Type).v
		}
		return jen.Qual(pkgSQLFn, "Bound").Types(kind).Values(jen.Dict{
			jen.Id("Kind"):   jen.Lit(int(fb.Kind)),
			jen.Id("Offset"): kind.Clone().Call(off),
		})
	}
	switch {
	case fr.Rows:
		b.add(jen.Id(f).Dot("RowFrames").Call(jen.Id(n), offset(fr.Start, jen.Int64()), offset(fr.End, jen.Int64())))
	case fr.Start.Offset == nil && fr.End.Offset == nil:
		ii, jj := pc.fn.tmp("i"), pc.fn.tmp("j")
		var cond *jen.Statement
		for k := range p.OrderBy {
			eq := pc.equalVals(row(jen.Id(ii))[nIn+nP+k], row(jen.Id(jj))[nIn+nP+k])
			if cond == nil {
				cond = eq
			} else {
				cond = cond.Op("&&").Add(eq)
			}
		}
		if cond == nil {
			cond = jen.True()
		}
		b.add(jen.Id(f).Dot("PeerFrames").Call(jen.Id(n), jen.Lit(int(fr.Start.Kind)), jen.Lit(int(fr.End.Kind)),
			jen.Func().Params(jen.List(jen.Id(ii), jen.Id(jj)).Int()).Bool().Block(jen.Return(cond))))
	default:
		// RANGE with offsets over the one ORDER BY value, as int64 (integers,
		// days, microseconds) or float64.
		key := p.OrderBy[0]
		kt := key.Expr.ResultType()
		num := jen.Int64()
		if kt.IsFloating() || kt.Kind == types.DecimalKind {
			num = jen.Float64()
		}
		keys, valid, i := pc.fn.tmp("keys"), pc.fn.tmp("valid"), pc.fn.tmp("i")
		kv := row(jen.Id(i))[nIn+nP]
		conv := num.Clone().Call(kv.v.Clone())
		if kt.Kind == types.DecimalKind {
			conv = kv.v.Clone().Dot("Float64").Call(jen.Lit(kt.Scale))
		}
		fill := []jen.Code{jen.Id(keys).Index(jen.Id(i)).Op("=").Add(conv)}
		if kv.ok != nil {
			fill = append(fill, jen.Id(valid).Index(jen.Id(i)).Op("=").Add(kv.ok.Clone()))
		} else {
			fill = append(fill, jen.Id(valid).Index(jen.Id(i)).Op("=").True())
		}
		b.add(
			jen.Id(keys).Op(":=").Make(jen.Index().Add(num.Clone()), jen.Id(n)),
			jen.Id(valid).Op(":=").Make(jen.Index().Bool(), jen.Id(n)),
			jen.For(jen.Id(i).Op(":=").Range().Id(part)).Block(fill...),
			jen.Qual(pkgSQLFn, "RangeFrames").Call(jen.Op("&").Id(f), jen.Id(keys), jen.Id(valid), jen.Lit(key.Descending),
				offset(fr.Start, num.Clone()), offset(fr.End, num.Clone())),
		)
	}
	return f
}

// windowAggregate emits an aggregate over each row's frame, with the
// accumulators of GROUP BY (aggregate.go). Frames that start at the
// partition's start and end no earlier than the previous row's (running
// totals, whole partitions) are folded incrementally; others are folded
// row by row.
func (pc *planCompiler) windowAggregate(b *block, k int, w *sql.WindowCall, frames string, part, i string, set func(*block, val), row func(jen.Code) []val, nIn int) {
	a := &sql.AggCall{Func: w.Func, Args: w.Args, Filter: w.Filter, Type: w.Type, Nullable: w.Nullable, Pos: w.Pos}
	state, st := pc.fn.tmp("wacc"), pc.fn.tmp("st")
	b.add(jen.Type().Id(state).Struct(pc.aggFields(k, a)...))
	b.add(jen.Var().Id(st).Id(state))
	j := pc.fn.tmp("j")
	update := b.sub()
	pc.aggUpdate(update, pc.exprs(row(jen.Id(j))[:nIn]), jen.Id(st), k, a)
	lo, hi := jen.Id(frames).Dot("Lo").Index(jen.Id(i)), jen.Id(frames).Dot("Hi").Index(jen.Id(i))
	result := b.sub()
	set(result, result.bind(pc.aggResult(result, jen.Id(st), k, a)))
	if w.Frame.Start.Kind == sql.UnboundedPreceding {
		done := pc.fn.tmp("done")
		b.add(jen.Id(done).Op(":=").Int32().Call(jen.Lit(0)))
		fold := append([]jen.Code{}, update.stmts...)
		if mentions(update.stmts, j) {
			fold = append([]jen.Code{jen.Id(j).Op(":=").Id(done)}, fold...)
		}
		body := []jen.Code{
			jen.For(jen.Id(done).Op("<").Add(hi.Clone())).Block(append(fold, jen.Id(done).Op("++"))...),
		}
		body = append(body, result.stmts...)
		b.add(jen.For(jen.Id(i).Op(":=").Range().Id(part)).Block(body...))
		return
	}
	body := []jen.Code{
		jen.Id(st).Op("=").Id(state).Values(),
		jen.For(jen.Id(j).Op(":=").Add(lo), jen.Id(j).Op("<").Add(hi), jen.Id(j).Op("++")).Block(update.stmts...),
	}
	body = append(body, result.stmts...)
	b.add(jen.For(jen.Id(i).Op(":=").Range().Id(part)).Block(body...))
}
