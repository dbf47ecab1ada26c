package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// aggregate compiles GROUP BY: a hash table from the group key to a struct
// of accumulators, filled while the input is produced, then one output row
// per group in order of first appearance. Memory is bounded by the number of
// groups (and, for DISTINCT aggregates and collect_*, their distinct
// values), never by the number of input rows.
//
// GROUPING SETS, ROLLUP and CUBE fold each input row into one group per
// grouping set: the group columns left out of the set are NULL in its key,
// and the key also holds the set's number, so that a NULL of the data and
// a NULL of a left-out column form different groups (Spark's
// spark_grouping_id).
func (pc *planCompiler) aggregate(b *block, p *sql.Aggregate, consume consumer) {
	state := pc.fn.tmp("acc")
	var stateFields []jen.Code
	for j, a := range p.Aggs {
		stateFields = append(stateFields, pc.aggFields(j, a)...)
	}
	// A group column Go cannot compare (a MAP, or an ARRAY or STRUCT
	// holding one) is keyed by sqlfn.GroupKey, its canonical string, and
	// its first value is kept in the group's state for the output.
	opaque := map[int]bool{}
	if p.GroupingSets == nil && !pc.statefulOp(p) {
		for i, g := range p.Groups {
			if t := g.ResultType(); !sql.Comparable(t) {
				opaque[i] = true
				stateFields = append(stateFields, jen.Id(groupField(i)).Add(pc.reg.baseType(t)), jen.Id(groupField(i)+"OK").Bool())
			}
		}
	}
	b.add(jen.Type().Id(state).Struct(stateFields...))

	global := len(p.Groups) == 0 && p.GroupingSets == nil
	sets := p.GroupingSets
	if sets == nil {
		all := make([]int, len(p.Groups))
		for i := range all {
			all[i] = i
		}
		sets = [][]int{all}
	}
	withSets := p.GroupingSets != nil
	groups, order := pc.fn.tmp("groups"), pc.fn.tmp("order")
	// With a row-wise input and mergeable aggregates, each worker of a
	// concurrent scan fills its own table (parts), merged afterwards.
	// A stateful streaming aggregation keeps that shape even when its
	// input is read sequentially: the saved state seeds the merge.
	parallel := (concurrentSafe(p.Input) || pc.statefulOp(p)) && p.Mergeable() && !withSets
	parts, part := pc.fn.tmp("parts"), pc.fn.tmp("part")
	var key *tuple
	if global {
		if parallel {
			b.add(jen.Id(parts).Op(":=").Qual(pkgRuntime, "NewLocals").Call(
				jen.Func().Params().Op("*").Id(state).Block(jen.Return(jen.Op("&").Id(state).Values()))))
		} else {
			b.add(jen.Id(groups).Op(":=").Op("&").Id(state).Values())
		}
	}
	wm := ""
	if pc.statefulOp(p) {
		wm = pc.currentWatermark(b)
	}
	pc.produce(b, p.Input, parallel && concurrentSafe(p.Input), func(rb *block, cols []val) {
		ec := pc.exprs(cols)
		st := pc.fn.tmp("st")
		switch {
		case global && parallel:
			rb.add(jen.Id(st).Op(":=").Id(parts).Dot("Get").Call(pc.worker()))
		case global:
			rb.add(jen.Id(st).Op(":=").Id(groups))
		default:
			vals := make([]val, len(p.Groups))
			for i, g := range p.Groups {
				vals[i] = rb.bind(ec.compile(rb, g))
				if !sql.Comparable(vals[i].t) && !opaque[i] {
					uncompilable("GROUP BY a value of type %s", vals[i].t)
				}
			}
			if withSets {
				// One group per grouping set; the plain case below is the
				// single set of all group columns. A group column in no set
				// (GROUP BY a + b, k GROUPING SETS (k)) is computed unread.
				for _, v := range vals {
					markUsed(rb, v)
				}
				for setNo, set := range sets {
					keys := pc.setKey(vals, set, setNo, true)
					if key == nil {
						key = pc.declareTuple(b, "key", keys)
						pc.declareGroups(b, key, state, groups, order, false, part, parts)
					}
					sb := rb.sub()
					k := pc.fn.tmp("k")
					sb.add(jen.Id(k).Op(":=").Add(key.literal(keys)))
					sb.add(jen.Id(st).Op(":=").Id(groups).Index(jen.Id(k)))
					sb.add(jen.If(jen.Id(st).Op("==").Nil()).Block(
						jen.Id(st).Op("=").Op("&").Id(state).Values(),
						jen.Id(groups).Index(jen.Id(k)).Op("=").Id(st),
						jen.Id(order).Op("=").Append(jen.Id(order), jen.Id(k)),
					))
					for j, a := range p.Aggs {
						pc.aggUpdate(sb, ec, jen.Id(st), j, a)
					}
					rb.add(jen.Block(sb.stmts...))
				}
				return
			}
			keys := vals
			var keep []jen.Code // the opaque group values, kept in a new group's state
			if len(opaque) > 0 {
				keys = append([]val(nil), vals...)
				for i := range opaque {
					keys[i] = val{v: jen.Qual(pkgSQLFn, "GroupKey").Call(vals[i].v.Clone()), ok: vals[i].ok, t: types.StringType}
					ok := jen.True()
					if vals[i].ok != nil {
						ok = vals[i].ok.Clone()
					}
					keep = append(keep, jen.Id(st).Dot(groupField(i)).Op("=").Add(vals[i].v.Clone()),
						jen.Id(st).Dot(groupField(i)+"OK").Op("=").Add(ok))
				}
			}
			if wm != "" {
				i := pc.stateful.TimeKey
				keys = append([]val(nil), vals...)
				keys[i] = pc.dropLate(rb, vals[i], pc.stateful.TimeKeyWindow, wm)
			}
			if key == nil {
				key = pc.declareTuple(b, "key", keys)
				pc.declareGroups(b, key, state, groups, order, parallel, part, parts)
			}
			tbl, ord := jen.Id(groups), jen.Id(order)
			if parallel {
				pt := pc.fn.tmp("pt")
				rb.add(jen.Id(pt).Op(":=").Id(parts).Dot("Get").Call(pc.worker()))
				tbl, ord = jen.Id(pt).Dot("groups"), jen.Id(pt).Dot("order")
			}
			k := pc.fn.tmp("k")
			rb.add(jen.Id(k).Op(":=").Add(key.literal(keys)))
			rb.add(jen.Id(st).Op(":=").Add(tbl.Clone()).Index(jen.Id(k)))
			rb.add(jen.If(jen.Id(st).Op("==").Nil()).Block(append([]jen.Code{
				jen.Id(st).Op("=").Op("&").Id(state).Values(),
				tbl.Clone().Index(jen.Id(k)).Op("=").Id(st),
				ord.Clone().Op("=").Append(ord.Clone(), jen.Id(k)),
			}, keep...)...))
		}
		for j, a := range p.Aggs {
			pc.aggUpdate(rb, ec, jen.Id(st), j, a)
		}
		if len(p.Aggs) == 0 { // SELECT 1 FROM t HAVING true: a group with nothing to update
			rb.add(jen.Id("_").Op("=").Id(st))
		}
	})
	if !global && key == nil { // the input produced no rows at all: declare an empty table
		gv := pc.groupVals(p)
		for i := range opaque {
			gv[i].t = types.StringType
		}
		key = pc.declareTuple(b, "key", pc.setKey(gv, sets[0], 0, withSets))
		pc.declareGroups(b, key, state, groups, order, parallel, part, parts)
	}
	if parallel {
		pc.seedAggregate(b, p, parts)
		pc.seedState(b, p, parts)
		pc.mergeParts(b, p, global, state, groups, order, parts)
		pc.keepAggregate(b, p, global, part, groups, order)
	}

	emit := b.sub()
	st := pc.fn.tmp("st")
	var out []val
	emitKey := ""
	if global {
		emit.add(jen.Id(st).Op(":=").Id(groups))
	} else {
		k := pc.fn.tmp("k")
		emitKey = k
		out = append(out, key.fields(jen.Id(k))[:len(p.Groups)]...)
		for i := range opaque {
			out[i] = val{v: jen.Id(st).Dot(groupField(i)), t: p.Groups[i].ResultType()}
			if p.Groups[i].IsNullable() {
				out[i].ok = jen.Id(st).Dot(groupField(i) + "OK")
			}
		}
		ev := pc.evictClosed(emit, p, key, state, k, st, groups)
		if ev == nil {
			emit.add(jen.Id(st).Op(":=").Id(groups).Index(jen.Id(k)))
		}
		defer func() {
			if ev != nil {
				pc.evictionLoop(b, ev, emit, k, part, groups, order)
				return
			}
			b.add(jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Id(order)).Block(emit.stmts...))
		}()
	}
	for j, a := range p.Aggs {
		if a.Func == "grouping" || a.Func == "grouping_id" {
			// Computed from the key's grouping-set number, not accumulated.
			out = append(out, emit.bind(groupingResult(p, sets, key.fields(jen.Id(emitKey))[len(p.Groups)], a)))
			continue
		}
		out = append(out, emit.bind(pc.aggResult(emit, jen.Id(st), j, a)))
	}
	// The consumer may read none of the accumulators (no aggregate, or
	// one the projection drops).
	emit.add(jen.Id("_").Op("=").Id(st))
	consume(emit, out)
	if global {
		b.add(jen.Block(emit.stmts...))
	}
}

// groupingResult returns grouping(col) or grouping_id() of the group
// whose grouping-set number is setNo (the last field of its key). Spark's
// grouping ID has one bit per group column, the first column the most
// significant, set when the column is left out of the row's set (so NULL
// there is a subtotal, not data); grouping(col) is that column's bit as a
// TINYINT. The checker allows them only with grouping sets.
func groupingResult(p *sql.Aggregate, sets [][]int, setNo val, a *sql.AggCall) val {
	n := len(p.Groups)
	ids := make([]jen.Code, len(sets))
	for s, set := range sets {
		id := int64(1)<<n - 1
		for _, i := range set {
			id &^= 1 << (n - 1 - i)
		}
		ids[s] = jen.Lit(id)
	}
	gid := jen.Index().Int64().Values(ids...).Index(setNo.v)
	if a.Func == "grouping_id" {
		return val{v: gid, t: a.Type}
	}
	col := sql.FormatExpr(a.Args[0])
	for i, g := range p.Groups {
		if sql.FormatExpr(g) == col {
			return val{v: jen.Int8().Call(jen.Parens(gid.Op(">>").Lit(n - 1 - i)).Op("&").Lit(1)), t: a.Type}
		}
	}
	panic(&UnsupportedError{Pos: a.Pos, What: "grouping() of a column that is not grouped"})
}

// setKey returns the key values of grouping set number setNo: the group
// values in the set, NULL for the others (every column nullable, so that
// all sets share one key type), and with grouping sets the set's number.
func (pc *planCompiler) setKey(vals []val, set []int, setNo int, withSets bool) []val {
	if !withSets {
		return vals
	}
	ec := pc.exprs(nil)
	in := map[int]bool{}
	for _, i := range set {
		in[i] = true
	}
	keys := make([]val, 0, len(vals)+1)
	for i, v := range vals {
		switch {
		case !in[i]:
			keys = append(keys, val{v: ec.zero(v.t), ok: jen.False(), t: v.t})
		case v.ok == nil:
			keys = append(keys, val{v: v.v, ok: jen.True(), t: v.t})
		default:
			keys = append(keys, v)
		}
	}
	return append(keys, val{v: jen.Lit(setNo), t: types.IntType})
}

// declareGroups declares the hash table of a grouped aggregation: groups
// (key → accumulators) and order (keys by first appearance), and with
// parallel the per-worker part type and parts.
func (pc *planCompiler) declareGroups(b *block, key *tuple, state, groups, order string, parallel bool, part, parts string) {
	if parallel {
		b.add(jen.Type().Id(part).Struct(
			jen.Id("groups").Map(jen.Id(key.name)).Op("*").Id(state),
			jen.Id("order").Index().Id(key.name),
		))
		b.add(jen.Id(parts).Op(":=").Qual(pkgRuntime, "NewLocals").Call(
			jen.Func().Params().Op("*").Id(part).Block(jen.Return(jen.Op("&").Id(part).Values(jen.Dict{
				jen.Id("groups"): jen.Map(jen.Id(key.name)).Op("*").Id(state).Values(),
			})))))
		b.add(jen.Var().Id(groups).Map(jen.Id(key.name)).Op("*").Id(state))
	} else {
		b.add(jen.Id(groups).Op(":=").Map(jen.Id(key.name)).Op("*").Id(state).Values())
	}
	b.add(jen.Var().Id(order).Index().Id(key.name))
}

// mergeParts merges the workers' partial tables into groups and order
// (for a global aggregate, into the single accumulator groups).
func (pc *planCompiler) mergeParts(b *block, p *sql.Aggregate, global bool, state, groups, order, parts string) {
	dst, src := pc.fn.tmp("dst"), pc.fn.tmp("src")
	var merge []jen.Code
	for j, a := range p.Aggs {
		merge = append(merge, pc.aggMerge(b, jen.Id(dst), jen.Id(src), j, a)...)
	}
	i := pc.fn.tmp("i")
	if global && len(merge) == 0 { // no aggregate to merge (SELECT 1 FROM t HAVING true)
		merge = append(merge, jen.Id("_").Op("=").Id(dst))
	}
	if global {
		b.add(jen.Id(groups).Op(":=").Op("&").Id(state).Values())
		b.add(jen.For(jen.List(jen.Id(i), jen.Id(src)).Op(":=").Range().Id(parts).Dot("All").Call()).Block(
			append([]jen.Code{
				jen.If(jen.Id(i).Op("==").Lit(0)).Block(jen.Id(groups).Op("=").Id(src), jen.Continue()),
				jen.Id(dst).Op(":=").Id(groups),
			}, merge...)...,
		))
		return
	}
	// The first table that exists is the base: a partial state saved
	// by a refresh that saw no rows has none (a nil map).
	pt, k := pc.fn.tmp("pt"), pc.fn.tmp("k")
	b.add(jen.For(jen.List(jen.Id("_"), jen.Id(pt)).Op(":=").Range().Id(parts).Dot("All").Call()).Block(
		jen.If(jen.Id(groups).Op("==").Nil()).Block(
			jen.Id(groups).Op(",").Id(order).Op("=").Id(pt).Dot("groups").Op(",").Id(pt).Dot("order"),
			jen.Continue(),
		),
		jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Id(pt).Dot("order")).Block(
			append([]jen.Code{
				jen.Id(src).Op(":=").Id(pt).Dot("groups").Index(jen.Id(k)),
				jen.Id(dst).Op(":=").Id(groups).Index(jen.Id(k)),
				jen.If(jen.Id(dst).Op("==").Nil()).Block(
					jen.Id(groups).Index(jen.Id(k)).Op("=").Id(src),
					jen.Id(order).Op("=").Append(jen.Id(order), jen.Id(k)),
					jen.Continue(),
				),
			}, merge...)...,
		),
	))
}

// groupVals returns placeholder values of the group expressions' types
// (used only to declare the key type when the input has no rows).
func (pc *planCompiler) groupVals(p *sql.Aggregate) []val {
	out := make([]val, len(p.Groups))
	for i, g := range p.Groups {
		out[i] = val{t: g.ResultType()}
		if g.IsNullable() {
			out[i].ok = jen.False()
		}
	}
	return out
}

// groupField names the state field keeping the value of group column i
// when Go cannot compare its type (its key is sqlfn.GroupKey's string).
func groupField(i int) string { return fmt.Sprintf("G%d", i) }
