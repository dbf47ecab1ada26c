package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec"
	"github.com/pipegen/pipegen/spec/sql"
)

// Stateful streaming flows (spec.Flow.Stateful, sql.FindStateful): the
// scan of the watermarked stream reports every event time it reads
// (Worker.ObserveEventTime); the stateful operator drops and counts the
// rows whose event time, or window end, is at or below the watermark in
// effect (runtime.EventTimeWatermark), starts from the state the previous
// micro-batch saved, and once its input is read asks for the new
// watermark (runtime.AdvanceWatermark), emits what it closes, forgets
// what it no longer needs and hands the rest to the runtime
// (runtime.KeepState), which saves it with the micro-batch.
//
//   - A window aggregation is the ordinary hash aggregation with
//     per-worker tables; the saved table seeds the merge
//     (runtime.SeedState), and the output loop writes and removes the
//     groups whose window end (or event time) is at or below the new
//     watermark, keeping the others in order of first appearance.
//   - DISTINCT keeps its set of rows; a row is written when first seen
//     and forgotten once the watermark passes its event time.
//   - QUALIFY row_number() OVER (PARTITION BY k ORDER BY ts) = 1 keeps,
//     per key written, the time it expires (first ts + delay, Spark's
//     dropDuplicatesWithinWatermark); a micro-batch writes for each new
//     key its row with the smallest ts (the first read among equals).

// statefulFields adds the Watermark of a stateful flow to its
// runtime.Flow literal.
func statefulFields(fl *spec.Flow, d jen.Dict) {
	st := fl.Stateful
	if st == nil {
		return
	}
	w := st.Stream.Watermark
	d[jen.Id("Watermark")] = jen.Op("&").Qual(pkgRuntime, "Watermark").Values(jen.Dict{
		jen.Id("Column"): jen.Lit(w.Name),
		jen.Id("Delay"):  jen.Lit(w.Delay),
		jen.Id("State"):  jen.Lit(fl.StateDefinition()),
		jen.Id("Shape"):  jen.Lit(fl.StateShape()),
		jen.Id("Types"): jen.Index().String().ValuesFunc(func(g *jen.Group) {
			for _, t := range fl.StateTypes() {
				g.Lit(t)
			}
		}),
	})
}

// observeEventTime emits, in the row loop of the scan p, the report of
// the row's event time when p is the flow's watermarked stream.
func (pc *planCompiler) observeEventTime(b *block, p *sql.Scan, cols []val) {
	if pc.stateful == nil || pc.stateful.Stream != p {
		return
	}
	ts := cols[p.Watermark.Column]
	b.add(ifValid(cloneOK(ts.ok), jen.Id("w").Dot("ObserveEventTime").Call(ts.v.Clone()))...)
}

// statefulOp reports whether p is the flow's stateful operator.
func (pc *planCompiler) statefulOp(p sql.Plan) bool {
	return pc.stateful != nil && pc.stateful.Op == p
}

// currentWatermark emits `wmN := runtime.EventTimeWatermark(ctx)` and
// returns the variable, the watermark late rows are checked against.
func (pc *planCompiler) currentWatermark(b *block) string {
	wm := pc.fn.tmp("wm")
	b.add(jen.Id(wm).Op(":=").Int64().Call(jen.Qual(pkgRuntime, "EventTimeWatermark").Call(jen.Id("ctx"))))
	return wm
}

// closeTime is the int64 Go expression of the instant (µs) at which the
// time key x closes: its window's end, or the event time itself. x must
// not be NULL.
func (pc *planCompiler) closeTime(x val, window bool) *jen.Statement {
	if !window {
		return jen.Int64().Call(x.v.Clone())
	}
	end := x.v.Clone().Dot(pc.reg.fieldName(x.t, 1))
	if x.t.Fields[1].Nullable {
		end = end.Dot("V")
	}
	return jen.Int64().Call(end)
}

// dropLate emits, in the code of one input row of the stateful operator,
// the skip of a row whose time key x is NULL or closed by the watermark
// wm (the variable of currentWatermark), counted.
func (pc *planCompiler) dropLate(b *block, x val, window bool, wm string) val {
	x = b.bind(x)
	if x.ok != nil {
		b.add(jen.If(jen.Op("!").Add(x.ok.Clone())).Block(
			jen.Qual(pkgRuntime, "NullEventTime").Call(pc.worker()),
			jen.Continue(),
		))
	}
	b.add(jen.If(pc.closeTime(x, window).Op("<=").Id(wm)).Block(
		jen.Qual(pkgRuntime, "LateRow").Call(pc.worker()),
		jen.Continue(),
	))
	return x
}

// seedState emits the seeding of a stateful aggregation's merge with the
// state of the previous micro-batch.
func (pc *planCompiler) seedState(b *block, p *sql.Aggregate, parts string) {
	if !pc.statefulOp(p) {
		return
	}
	b.add(jen.If(jen.Err().Op(":=").Qual(pkgRuntime, "SeedState").Call(jen.Id("ctx"), jen.Id(parts)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
}

// aggEviction names the locals of a stateful aggregation's output loop.
type aggEviction struct {
	wm, kept, removed string
	// empty is an empty table of the aggregation's types.
	empty jen.Code
}

// evictClosed emits, at the top of the output loop of a stateful
// aggregation over the keys (k, of tuple type key), the skip of a group
// its window does not close yet (kept in order), then the lookup of its
// accumulators st (of type state) and its removal from groups. It returns
// nil, emitting nothing, for other aggregations.
func (pc *planCompiler) evictClosed(emit *block, p *sql.Aggregate, key *tuple, state, k, st, groups string) *aggEviction {
	if !pc.statefulOp(p) {
		return nil
	}
	ev := &aggEviction{wm: pc.fn.tmp("wm"), kept: pc.fn.tmp("kept"), removed: pc.fn.tmp("removed"),
		empty: jen.Map(jen.Id(key.name)).Op("*").Id(state).Values()}
	x := key.fields(jen.Id(k))[pc.stateful.TimeKey]
	closed := pc.closeTime(x, pc.stateful.TimeKeyWindow).Op("<=").Id(ev.wm)
	if x.ok != nil {
		// Rows with a NULL time key were dropped; a NULL key never closes.
		closed = x.ok.Clone().Op("&&").Add(closed)
	}
	emit.add(
		jen.If(jen.Op("!").Parens(closed)).Block(
			jen.Id(ev.kept).Op("=").Append(jen.Id(ev.kept), jen.Id(k)),
			jen.Continue(),
		),
		jen.Id(st).Op(":=").Id(groups).Index(jen.Id(k)),
		jen.Delete(jen.Id(groups), jen.Id(k)),
		jen.Id(ev.removed).Op("++"),
	)
	return ev
}

// evictionLoop emits the output loop of a stateful aggregation: the new
// watermark, the loop over order (whose body is emit, from evictClosed),
// and the hand-over of the groups left to runtime.KeepState (a table,
// never nil, so that the next micro-batch can merge into it).
func (pc *planCompiler) evictionLoop(b *block, ev *aggEviction, emit *block, k, part, groups, order string) {
	b.add(
		jen.If(jen.Id(groups).Op("==").Nil()).Block(jen.Id(groups).Op("=").Add(ev.empty)),
		jen.Id(ev.wm).Op(":=").Int64().Call(jen.Qual(pkgRuntime, "AdvanceWatermark").Call(jen.Id("ctx"))),
		jen.Id(ev.kept).Op(":=").Id(order).Index(jen.Empty(), jen.Lit(0)),
		jen.Id(ev.removed).Op(":=").Lit(0),
		jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Id(order)).Block(emit.stmts...),
		jen.Id(order).Op("=").Id(ev.kept),
		jen.Qual(pkgRuntime, "KeepState").Call(jen.Id("ctx"),
			jen.Op("&").Id(part).Values(jen.Dict{jen.Id("groups"): jen.Id(groups), jen.Id("order"): jen.Id(order)}),
			jen.Len(jen.Id(order)), jen.Id(ev.removed)),
	)
}

// distinctState emits, once the set seen of a stateful DISTINCT is
// declared, the load of the previous micro-batch's set, and returns the
// watermark variable late rows are checked against.
func (pc *planCompiler) distinctState(b *block, seen string) string {
	wm := pc.currentWatermark(b)
	b.add(jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Qual(pkgRuntime, "LoadState").Call(jen.Id("ctx"), jen.Op("&").Id(seen)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	return wm
}

// distinctEvict emits, after a stateful DISTINCT read its input, the
// removal of the rows of seen (of tuple type tt) the new watermark
// closes, and the hand-over of the rest to runtime.KeepState.
func (pc *planCompiler) distinctEvict(b *block, tt *tuple, seen string) {
	wm, removed, k := pc.fn.tmp("wm"), pc.fn.tmp("removed"), pc.fn.tmp("k")
	x := tt.fields(jen.Id(k))[pc.stateful.TimeKey]
	closed := pc.closeTime(x, pc.stateful.TimeKeyWindow).Op("<=").Id(wm)
	if x.ok != nil {
		closed = x.ok.Clone().Op("&&").Add(closed)
	}
	b.add(
		jen.Id(wm).Op(":=").Int64().Call(jen.Qual(pkgRuntime, "AdvanceWatermark").Call(jen.Id("ctx"))),
		jen.Id(removed).Op(":=").Lit(0),
		jen.For(jen.Id(k).Op(":=").Range().Id(seen)).Block(
			jen.If(closed).Block(jen.Delete(jen.Id(seen), jen.Id(k)), jen.Id(removed).Op("++")),
		),
		jen.Qual(pkgRuntime, "KeepState").Call(jen.Id("ctx"), jen.Op("&").Id(seen), jen.Len(jen.Id(seen)), jen.Id(removed)),
	)
}

// dedupWithinWatermark compiles the row_number Window of a
// DeduplicationWithinWatermark (the Filter above it keeps row number 1,
// the only one this produces): see the comment at the top of the file.
func (pc *planCompiler) dedupWithinWatermark(b *block, w *sql.Window, consume consumer) {
	wm := pc.currentWatermark(b)
	seen, cands, times, ckeys, best := pc.fn.tmp("seen"), pc.fn.tmp("cands"), pc.fn.tmp("times"), pc.fn.tmp("ckeys"), pc.fn.tmp("best")
	var keyT, rowT *tuple
	pc.produce(b, w.Input, false, func(rb *block, cols []val) {
		ec := pc.exprs(cols)
		ts := pc.dropLate(rb, ec.compile(rb, w.OrderBy[0].Expr), false, wm)
		keys := make([]val, len(w.PartitionBy))
		for i, e := range w.PartitionBy {
			keys[i] = rb.bind(ec.compile(rb, e))
			if !sql.Comparable(keys[i].t) {
				uncompilable("PARTITION BY a value of type %s", keys[i].t)
			}
		}
		if keyT == nil {
			keyT, rowT = pc.declareTuple(b, "key", keys), pc.declareTuple(b, "row", cols)
			b.add(
				jen.Id(seen).Op(":=").Map(jen.Id(keyT.name)).Int64().Values(),
				jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Qual(pkgRuntime, "LoadState").Call(jen.Id("ctx"), jen.Op("&").Id(seen)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.Var().Id(cands).Index().Id(rowT.name),
				jen.Var().Id(times).Index().Int64(),
				jen.Var().Id(ckeys).Index().Id(keyT.name),
				jen.Id(best).Op(":=").Map(jen.Id(keyT.name)).Int().Values(),
			)
		}
		k, j := pc.fn.tmp("k"), pc.fn.tmp("j")
		t := jen.Int64().Call(ts.v.Clone())
		rb.add(
			jen.Id(k).Op(":=").Add(keyT.literal(keys)),
			jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Id(seen).Index(jen.Id(k)), jen.Id("dup")).Block(
				jen.Qual(pkgRuntime, "DuplicateRow").Call(pc.worker()),
				jen.Continue(),
			),
			jen.If(jen.List(jen.Id(j), jen.Id("dup")).Op(":=").Id(best).Index(jen.Id(k)), jen.Id("dup")).Block(
				jen.Qual(pkgRuntime, "DuplicateRow").Call(pc.worker()),
				jen.If(t.Clone().Op("<").Id(times).Index(jen.Id(j))).Block(
					jen.List(jen.Id(cands).Index(jen.Id(j)), jen.Id(times).Index(jen.Id(j))).Op("=").List(rowT.literal(cols), t.Clone()),
				),
				jen.Continue(),
			),
			jen.Id(best).Index(jen.Id(k)).Op("=").Len(jen.Id(cands)),
			jen.Id(cands).Op("=").Append(jen.Id(cands), rowT.literal(cols)),
			jen.Id(times).Op("=").Append(jen.Id(times), t.Clone()),
			jen.Id(ckeys).Op("=").Append(jen.Id(ckeys), jen.Id(k)),
		)
	})
	if keyT == nil {
		panic(&UnsupportedError{What: "a deduplication whose input produces no rows"})
	}
	// Write each new key's row; the key is a duplicate until the
	// watermark reaches its event time plus the delay.
	i, c := pc.fn.tmp("i"), pc.fn.tmp("c")
	body := b.sub()
	body.add(jen.Id(seen).Index(jen.Id(ckeys).Index(jen.Id(i))).Op("=").Id(times).Index(jen.Id(i)).Op("+").Lit(pc.stateful.Stream.Watermark.Delay))
	rn := w.Calls[0]
	one := pc.exprs(nil).compile(body, &sql.Literal{Value: int32(1), Type: types.IntType})
	if rn.Type.Kind == types.LongKind {
		one = pc.exprs(nil).compile(body, &sql.Literal{Value: int64(1), Type: types.LongType})
	}
	consume(body, append(rowT.fields(jen.Id(c)), one))
	b.add(jen.For(jen.List(jen.Id(i), jen.Id(c)).Op(":=").Range().Id(cands)).Block(body.stmts...))
	wm1, removed, k, exp := pc.fn.tmp("wm"), pc.fn.tmp("removed"), pc.fn.tmp("k"), pc.fn.tmp("exp")
	b.add(
		jen.Id(wm1).Op(":=").Int64().Call(jen.Qual(pkgRuntime, "AdvanceWatermark").Call(jen.Id("ctx"))),
		jen.Id(removed).Op(":=").Lit(0),
		jen.For(jen.List(jen.Id(k), jen.Id(exp)).Op(":=").Range().Id(seen)).Block(
			jen.If(jen.Id(exp).Op("<=").Id(wm1)).Block(jen.Delete(jen.Id(seen), jen.Id(k)), jen.Id(removed).Op("++")),
		),
		jen.Qual(pkgRuntime, "KeepState").Call(jen.Id("ctx"), jen.Op("&").Id(seen), jen.Len(jen.Id(seen)), jen.Id(removed)),
	)
}

// aggOver returns the stateful aggregation that reads g directly, or nil.
func (pc *planCompiler) aggOver(g *sql.Generate) *sql.Aggregate {
	if a, ok := pc.stateful.Op.(*sql.Aggregate); ok && a.Input == sql.Plan(g) {
		return a
	}
	return nil
}

// slidingWindows compiles a Generate of Func "window": for each input
// row, a loop over the sliding windows holding its timestamp, newest
// first (none for a NULL timestamp).
func (pc *planCompiler) slidingWindows(b *block, p *sql.Generate, concurrent bool, consume consumer) {
	call, ok := p.Arg.(*sql.Call)
	if !ok || call.Func != "window" {
		panic(fmt.Sprintf("gen: window Generate over %T", p.Arg))
	}
	size, slide, offset := sql.WindowSpec(call)
	pc.produce(b, p.Input, concurrent, func(rb *block, cols []val) {
		ec := pc.exprs(cols)
		ts := rb.bind(ec.compile(rb, call.Args[0]))
		start := pc.fn.tmp("ws")
		st := pc.reg.structFor(call.Type, "Struct")
		some := func(x jen.Code) jen.Code { return jen.Qual(pkgTypes, "Some").Call(x) }
		end := jen.Id(start).Op("+").Qual(pkgTypes, "Timestamp").Call(jen.Lit(size))
		win := val{v: jen.Id(st.name).Values(jen.Dict{
			jen.Id(st.fields[0].name): some(jen.Id(start)),
			jen.Id(st.fields[1].name): some(end.Clone()),
		}), t: call.Type}
		loop := rb.sub()
		consume(loop, append(append([]val(nil), cols...), loop.bind(win)))
		if pc.stateful != nil && pc.aggOver(p) != nil && ts.ok != nil {
			// The rows of a stateful aggregation without an event time
			// are counted, not lost silently.
			rb.add(jen.If(jen.Op("!").Add(ts.ok.Clone())).Block(jen.Qual(pkgRuntime, "NullEventTime").Call(pc.worker())))
		}
		rb.add(ifValid(cloneOK(ts.ok), jen.For(
			jen.Id(start).Op(":=").Qual(pkgSQLFn, "WindowStart").Call(ts.v.Clone(), jen.Lit(slide), jen.Lit(offset)),
			end.Clone().Op(">").Add(ts.v.Clone()),
			jen.Id(start).Op("-=").Qual(pkgTypes, "Timestamp").Call(jen.Lit(slide)),
		).Block(loop.stmts...))...)
	})
}
