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
			if t := g.ResultType(); !comparable(t) {
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
	parallel := (concurrentSafe(p.Input) || pc.statefulOp(p)) && mergeable(p) && !withSets
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
				if !comparable(vals[i].t) && !opaque[i] {
					panic(&UnsupportedError{What: "GROUP BY a value of type " + vals[i].t.String()})
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

// mergeable reports whether every aggregate of p can be computed as
// partial states merged afterwards.
func mergeable(p *sql.Aggregate) bool {
	for _, a := range p.Aggs {
		if a.Distinct {
			switch a.Func {
			case "count", "sum", "avg", "mean", "min", "max":
				continue
			}
			return false
		}
		switch a.Func {
		case "count", "count_if", "sum", "avg", "mean", "min", "max", "first", "last", "any_value",
			"first_value", "last_value", "bool_and", "every", "bool_or", "some", "any",
			"collect_list", "array_agg", "collect_set":
		default:
			return false
		}
	}
	return true
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

// distinctMatters reports whether a's DISTINCT changes its result: not for
// min, max, bit_and and bit_or, which a repeated value leaves as they are.
func distinctMatters(a *sql.AggCall) bool {
	switch a.Func {
	case "min", "max", "bit_and", "bit_or":
		return false
	}
	return a.Distinct
}

// bitOps maps the bitwise aggregates to their Go operator.
var bitOps = map[string]string{"bit_and": "&", "bit_or": "|", "bit_xor": "^"}

// onOverflow is what an overflowing sum of aggregate j does: try_sum and
// try_avg mark the group's result NULL (Spark's TRY eval mode: NULL from
// then on), the others fail the row with ARITHMETIC_OVERFLOW.
func (pc *planCompiler) onOverflow(b *block, acc func(string) *jen.Statement, a *sql.AggCall, t types.Type) jen.Code {
	if a.Func == "try_sum" || a.Func == "try_avg" {
		return acc("Over").Op("=").True()
	}
	return b.fail(jen.Qual(pkgSQLFn, "ErrArithmeticOverflow").Call(jen.Lit(t.String())))
}

// distinctOrder reports whether a DISTINCT aggregate keeps its distinct
// values in order of first appearance besides the set: only a floating-point
// sum or average does, so that its rounding does not depend on the set's
// iteration order. count(DISTINCT x) and exact sums keep just the set.
func distinctOrder(a *sql.AggCall) bool {
	switch a.Func {
	case "sum", "avg", "mean":
		return a.Args[0].ResultType().IsFloating()
	}
	return false
}

// aggMerge emits the code folding the partial accumulator src of
// aggregate j into dst.
func (pc *planCompiler) aggMerge(b *block, dst, src *jen.Statement, j int, a *sql.AggCall) []jen.Code {
	d := func(suffix string) *jen.Statement { return dst.Clone().Dot(accName(j, suffix)) }
	s := func(suffix string) *jen.Statement { return src.Clone().Dot(accName(j, suffix)) }
	if distinctMatters(a) {
		argT := a.Args[0].ResultType()
		if !distinctOrder(a) {
			return []jen.Code{d("").Dot("Union").Call(jen.Op("&").Add(s("")))}
		}
		x := pc.fn.tmp("x")
		return []jen.Code{
			jen.For(jen.List(jen.Id("_"), jen.Id(x)).Op(":=").Range().Add(s("Order"))).Block(
				jen.If(jen.Op("!").Add(d("")).Dot("Has").Call(setKey(argT, jen.Id(x)))).Block(
					d("").Dot("Add").Call(setKey(argT, jen.Id(x))),
					d("Order").Op("=").Append(d("Order"), jen.Id(x)),
				),
			),
		}
	}
	switch a.Func {
	case "count", "count_if":
		return []jen.Code{d("").Op("+=").Add(s(""))}
	case "sum":
		var add []jen.Code
		switch a.Type.Kind {
		case types.LongKind, types.IntervalKind, types.YearMonthIntervalKind:
			add = pc.checkedAdd(b, d(""), s(""), "Add", a.Type)
		case types.DecimalKind:
			add = pc.decimalAccumulate(b, d(""), a.Type.Scale, val{v: s(""), t: a.Type}, a.Type)
		default:
			add = []jen.Code{d("").Op("+=").Add(s(""))}
		}
		return []jen.Code{jen.If(s("OK")).Block(append(add, d("OK").Op("=").True())...)}
	case "avg", "mean":
		var add []jen.Code
		if a.Type.Kind == types.DecimalKind {
			sumT := types.DecimalOf(types.MaxDecimalPrecision, a.Args[0].ResultType().Scale)
			add = pc.decimalAccumulate(b, d(""), sumT.Scale, val{v: s(""), t: sumT}, sumT)
		} else if a.Type.IsInterval() {
			add = pc.checkedAdd(b, d(""), s(""), "Add", a.Type)
		} else {
			add = []jen.Code{d("").Op("+=").Add(s(""))}
		}
		return append(add, d("N").Op("+=").Add(s("N")))
	case "min", "max":
		op := "<"
		if a.Func == "max" {
			op = ">"
		}
		ec := pc.exprs(nil)
		better := ec.compare(val{v: s(""), t: a.Type}, val{v: d(""), t: a.Type}, op)
		return []jen.Code{jen.If(s("OK").Op("&&").Parens(jen.Op("!").Add(d("OK")).Op("||").Add(better))).Block(
			jen.List(d(""), d("OK")).Op("=").List(s(""), jen.True()))}
	case "first", "any_value", "first_value":
		return []jen.Code{jen.If(jen.Op("!").Add(d("Set")).Op("&&").Add(s("Set"))).Block(
			jen.List(d(""), d("OK"), d("Set")).Op("=").List(s(""), s("OK"), jen.True()))}
	case "last", "last_value":
		return []jen.Code{jen.If(s("Set")).Block(
			jen.List(d(""), d("OK"), d("Set")).Op("=").List(s(""), s("OK"), jen.True()))}
	case "bool_and", "every":
		return []jen.Code{jen.If(s("OK")).Block(
			jen.List(d(""), d("OK")).Op("=").List(jen.Parens(jen.Op("!").Add(d("OK")).Op("||").Add(d(""))).Op("&&").Add(s("")), jen.True()))}
	case "bool_or", "some", "any":
		return []jen.Code{jen.If(s("OK")).Block(
			jen.List(d(""), d("OK")).Op("=").List(d("").Op("||").Add(s("")), jen.True()))}
	case "collect_list", "array_agg":
		return []jen.Code{d("").Op("=").Append(d(""), s("").Op("..."))}
	case "collect_set":
		x, seen := pc.fn.tmp("x"), pc.fn.tmp("seen")
		elem := jen.Id(x)
		if a.Type.ContainsNull {
			elem = jen.Id(x).Dot("V")
		}
		return []jen.Code{
			jen.If(d("Seen").Op("==").Nil()).Block(d("Seen").Op("=").Map(pc.setKeyType(*a.Type.Elem)).Struct().Values()),
			jen.For(jen.List(jen.Id("_"), jen.Id(x)).Op(":=").Range().Add(s(""))).Block(
				jen.If(jen.List(jen.Id("_"), jen.Id(seen)).Op(":=").Add(d("Seen")).Index(setKey(*a.Type.Elem, elem.Clone())), jen.Op("!").Id(seen)).Block(
					d("Seen").Index(setKey(*a.Type.Elem, elem.Clone())).Op("=").Struct().Values(),
					d("").Op("=").Append(d(""), jen.Id(x)),
				),
			),
		}
	}
	panic(&UnsupportedError{Pos: a.Pos, What: "merging aggregate " + a.Func})
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

func accName(j int, suffix string) string { return fmt.Sprintf("A%d%s", j, suffix) }

// aggFields declares the accumulator fields of aggregate j.
func (pc *planCompiler) aggFields(j int, a *sql.AggCall) []jen.Code {
	f := func(suffix string, t jen.Code) jen.Code { return jen.Id(accName(j, suffix)).Add(t) }
	argT := func(i int) types.Type { return a.Args[i].ResultType() }
	if distinctMatters(a) {
		// DISTINCT: the set of distinct non-NULL argument values.
		switch a.Func {
		case "count", "sum", "avg", "mean", "bit_xor":
		default:
			panic(&UnsupportedError{Pos: a.Pos, What: "DISTINCT in " + a.Func})
		}
		if t := pc.distinctTuple(a); t != nil {
			return []jen.Code{f("", jen.Qual(pkgRuntime, "Set").Types(t))}
		}
		if len(a.Args) != 1 || !comparable(argT(0)) {
			panic(&UnsupportedError{Pos: a.Pos, What: "DISTINCT aggregate " + a.Func + " over these arguments"})
		}
		set := jen.Qual(pkgRuntime, "Set").Types(pc.setKeyType(argT(0)))
		if !distinctOrder(a) {
			return []jen.Code{f("", set)}
		}
		return []jen.Code{f("", set), f("Order", jen.Index().Add(pc.reg.baseType(argT(0))))}
	}
	switch a.Func {
	case "grouping", "grouping_id":
		return nil // read from the key's grouping-set number
	case "count", "count_if":
		return []jen.Code{f("", jen.Int64())}
	case "sum", "bit_and", "bit_or", "bit_xor":
		return []jen.Code{f("", pc.reg.baseType(a.Type)), f("OK", jen.Bool())}
	case "try_sum":
		return []jen.Code{f("", pc.reg.baseType(a.Type)), f("OK", jen.Bool()), f("Over", jen.Bool())}
	case "avg", "mean", "try_avg":
		sumT := jen.Float64()
		if a.Type.Kind == types.DecimalKind {
			sumT = jen.Qual(pkgTypes, "Decimal")
		} else if a.Type.IsInterval() {
			sumT = pc.reg.baseType(a.Type)
		}
		if a.Func == "try_avg" {
			return []jen.Code{f("", sumT), f("N", jen.Int64()), f("Over", jen.Bool())}
		}
		return []jen.Code{f("", sumT), f("N", jen.Int64())}
	case "min", "max", "first", "last", "any_value", "first_value", "last_value":
		return []jen.Code{f("", pc.reg.baseType(a.Type)), f("OK", jen.Bool()), f("Set", jen.Bool())}
	case "bool_and", "every", "bool_or", "some", "any":
		return []jen.Code{f("", jen.Bool()), f("OK", jen.Bool())}
	case "collect_list", "array_agg":
		return []jen.Code{f("", pc.reg.baseType(a.Type))}
	case "stddev", "stddev_pop", "variance", "var_pop":
		return []jen.Code{f("", jen.Qual(pkgSQLFn, "Moments"))}
	case "corr", "covar_pop", "covar_samp":
		return []jen.Code{f("", jen.Qual(pkgSQLFn, "CoMoments"))}
	case "regr_count", "regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy", "regr_r2", "regr_slope", "regr_intercept":
		return []jen.Code{f("", jen.Qual(pkgSQLFn, "Regr"))}
	case "approx_count_distinct":
		return []jen.Code{f("", jen.Qual(pkgSQLFn, "HLL"))}
	case "percentile", "median", "percentile_approx", "percentile_cont", "percentile_disc", "mode":
		t := argT(0)
		switch {
		case t.Kind == types.DecimalKind:
			panic(&UnsupportedError{Pos: a.Pos, What: a.Func + " of " + t.String()})
		case !t.IsNumeric() && !t.IsInterval() && t.Kind != types.StringKind && t.Kind != types.DateKind && t.Kind != types.TimestampKind && t.Kind != types.TimestampNTZKind:
			// Counts keys are Go's ordered types.
			panic(&UnsupportedError{Pos: a.Pos, What: a.Func + " of " + t.String()})
		}
		return []jen.Code{f("", jen.Qual(pkgSQLFn, "Counts").Types(pc.reg.baseType(t)))}
	case "min_by", "max_by":
		return []jen.Code{f("", pc.reg.baseType(a.Type)), f("OK", jen.Bool()), f("By", pc.reg.baseType(argT(1))), f("Set", jen.Bool())}
	case "collect_set":
		elem := *a.Type.Elem
		if !comparable(elem) {
			panic(&UnsupportedError{Pos: a.Pos, What: "collect_set over " + elem.String()})
		}
		return []jen.Code{f("", pc.reg.baseType(a.Type)), f("Seen", jen.Map(pc.setKeyType(elem)).Struct())}
	}
	panic(&UnsupportedError{Pos: a.Pos, What: "aggregate function " + a.Func})
}

// aggUpdate emits the code folding one input row into aggregate j.
func (pc *planCompiler) aggUpdate(b *block, ec *exprCompiler, st *jen.Statement, j int, a *sql.AggCall) {
	if a.Func == "grouping" || a.Func == "grouping_id" {
		return // read from the key's grouping-set number
	}
	acc := func(suffix string) *jen.Statement { return st.Clone().Dot(accName(j, suffix)) }
	ub := b.sub()
	args := make([]val, len(a.Args))
	for i, x := range a.Args {
		if c, isCall := x.(*sql.Call); isCall && c.Func == "array" && i > 0 {
			continue // percentile_approx's percentages, read where used
		}
		if _, lit := x.(*sql.Literal); lit {
			args[i] = ec.compile(ub, x) // constants (percentages) are read where used
			continue
		}
		if a.Func == "count" && !a.Distinct {
			// count reads only its arguments' validity; a value the
			// argument bound on the way (1 + NULL's sum) is left unused.
			args[i] = ec.compile(ub, x)
			if isSimple(args[i].v) {
				ub.add(jen.Id("_").Op("=").Add(args[i].v.Clone()))
			} else {
				args[i] = ub.bind(args[i])
				ub.add(jen.Id("_").Op("=").Add(args[i].v.Clone()))
			}
			continue
		}
		args[i] = ub.bind(ec.compile(ub, x))
	}
	switch {
	case distinctMatters(a) && len(args) > 1:
		// count(DISTINCT a, b, ...): the distinct tuples of the rows where
		// all are not NULL (Spark's Count of several children).
		fields := jen.Dict{}
		for i, x := range args {
			fields[jen.Id(fmt.Sprintf("F%d", i))] = setKey(x.t, x.v.Clone())
		}
		put := acc("").Dot("Add").Call(jen.Add(pc.distinctTuple(a)).Values(fields))
		if ok := okAnd(args...); ok != nil {
			ub.add(jen.If(ok).Block(put))
		} else {
			ub.add(put)
		}
	case distinctMatters(a):
		x := args[0]
		key := setKey(x.t, x.v.Clone())
		if !distinctOrder(a) {
			if x.ok == nil {
				ub.add(acc("").Dot("Add").Call(key))
			} else {
				ub.add(jen.If(x.ok.Clone()).Block(acc("").Dot("Add").Call(key)))
			}
		} else {
			ub.add(jen.If(okCond(x.ok, jen.Op("!").Add(acc("")).Dot("Has").Call(key))).Block(
				acc("").Dot("Add").Call(key.Clone()),
				acc("Order").Op("=").Append(acc("Order"), x.v.Clone()),
			))
		}
	case a.Func == "count":
		if len(args) == 0 {
			ub.add(acc("").Op("++"))
		} else if ok := okAnd(args...); ok == nil {
			ub.add(acc("").Op("++"))
		} else {
			ub.add(jen.If(ok).Block(acc("").Op("++")))
		}
	case a.Func == "count_if":
		ub.add(jen.If(okCond(args[0].ok, args[0].v.Clone())).Block(acc("").Op("++")))
	case a.Func == "sum" || a.Func == "try_sum":
		x := args[0]
		var add []jen.Code
		over := pc.onOverflow(ub, acc, a, a.Type)
		switch a.Type.Kind {
		case types.LongKind:
			add = pc.addOr(acc(""), jen.Int64().Call(x.v.Clone()), "Add", over)
		case types.IntervalKind, types.YearMonthIntervalKind:
			add = pc.addOr(acc(""), x.v.Clone(), "Add", over)
		case types.DecimalKind:
			add = pc.decimalAddOr(acc(""), a.Type.Scale, x, a.Type, over)
		default:
			add = []jen.Code{acc("").Op("+=").Add(pc.reg.baseType(a.Type)).Call(x.v.Clone())}
		}
		add = append(add, acc("OK").Op("=").True())
		if x.ok != nil {
			ub.add(jen.If(x.ok.Clone()).Block(add...))
		} else {
			ub.add(add...)
		}
	case a.Func == "avg" || a.Func == "mean" || a.Func == "try_avg":
		x := args[0]
		var add []jen.Code
		if a.Type.Kind == types.DecimalKind {
			sumT := types.DecimalOf(types.MaxDecimalPrecision, x.t.Scale)
			add = pc.decimalAddOr(acc(""), x.t.Scale, x, sumT, pc.onOverflow(ub, acc, a, sumT))
		} else if a.Type.IsInterval() {
			add = pc.addOr(acc(""), x.v.Clone(), "Add", pc.onOverflow(ub, acc, a, a.Type))
		} else {
			add = []jen.Code{acc("").Op("+=").Float64().Call(x.v.Clone())}
		}
		add = append(add, acc("N").Op("++"))
		if x.ok != nil {
			ub.add(jen.If(x.ok.Clone()).Block(add...))
		} else {
			ub.add(add...)
		}
	case a.Func == "min" || a.Func == "max":
		x := args[0]
		op := "<"
		if a.Func == "max" {
			op = ">"
		}
		cur := val{v: acc(""), t: a.Type}
		better := ec.compare(x, cur, op)
		ub.add(jen.If(okCond(x.ok, jen.Parens(jen.Op("!").Add(acc("OK")).Op("||").Add(better)))).Block(
			jen.List(acc(""), acc("OK")).Op("=").List(x.v.Clone(), jen.True())))
	case a.Func == "first" || a.Func == "any_value" || a.Func == "first_value":
		x := args[0]
		okv := jen.True()
		if x.ok != nil {
			okv = x.ok.Clone()
		}
		set := jen.If(jen.Op("!").Add(acc("Set"))).Block(
			jen.List(acc(""), acc("OK"), acc("Set")).Op("=").List(x.v.Clone(), okv, jen.True()))
		ub.add(ignoringNulls(a, x, set))
	case a.Func == "last" || a.Func == "last_value":
		x := args[0]
		okv := jen.True()
		if x.ok != nil {
			okv = x.ok.Clone()
		}
		ub.add(ignoringNulls(a, x, jen.List(acc(""), acc("OK"), acc("Set")).Op("=").List(x.v.Clone(), okv, jen.True())))
	case a.Func == "bool_and" || a.Func == "every":
		x := args[0]
		ub.add(jen.If(okCond(x.ok, jen.True())).Block(
			jen.List(acc(""), acc("OK")).Op("=").List(jen.Parens(jen.Op("!").Add(acc("OK")).Op("||").Add(acc(""))).Op("&&").Add(x.v.Clone()), jen.True())))
	case a.Func == "bool_or" || a.Func == "some" || a.Func == "any":
		x := args[0]
		ub.add(jen.If(okCond(x.ok, jen.True())).Block(
			jen.List(acc(""), acc("OK")).Op("=").List(acc("").Op("||").Add(x.v.Clone()), jen.True())))
	case bitOps[a.Func] != "":
		x := args[0]
		ub.add(jen.If(okCond(x.ok, jen.True())).Block(
			jen.If(acc("OK")).Block(acc("").Op(bitOps[a.Func] + "=").Add(x.v.Clone())).Else().Block(
				jen.List(acc(""), acc("OK")).Op("=").List(x.v.Clone(), jen.True()))))
	case a.Func == "stddev" || a.Func == "stddev_pop" || a.Func == "variance" || a.Func == "var_pop":
		x := args[0]
		ub.add(jen.If(okCond(x.ok, jen.True())).Block(acc("").Dot("Add").Call(x.v.Clone())))
	case a.Func == "corr" || a.Func == "covar_pop" || a.Func == "covar_samp" || regrMethods[a.Func] != "":
		x, y := args[0], args[1]
		ub.add(jen.If(okCond(okAnd(x, y), jen.True())).Block(acc("").Dot("Add").Call(x.v.Clone(), y.v.Clone())))
	case a.Func == "approx_count_distinct":
		x := args[0]
		var h *jen.Statement
		if x.t.Kind == types.DecimalKind {
			h = jen.Qual(pkgSQLFn, "XxHash64Decimal").Call(x.v.Clone(), jen.Lit(x.t.Precision), jen.Qual(pkgSQLFn, "HashSeed"))
		} else {
			h = jen.Qual(pkgSQLFn, "XxHash64").Call(x.v.Clone(), jen.Qual(pkgSQLFn, "HashSeed"))
		}
		ub.add(jen.If(okCond(x.ok, jen.True())).Block(acc("").Dot("Add").Call(h)))
	case a.Func == "percentile" || a.Func == "median" || a.Func == "percentile_approx" || a.Func == "percentile_cont" || a.Func == "percentile_disc" || a.Func == "mode":
		x := args[0]
		ub.add(jen.If(okCond(x.ok, jen.True())).Block(acc("").Dot("Add").Call(x.v.Clone())))
	case a.Func == "min_by" || a.Func == "max_by":
		x, by := args[0], args[1]
		op := "<"
		if a.Func == "max_by" {
			op = ">"
		}
		better := ec.compare(by, val{v: acc("By"), t: by.t}, op)
		okv := jen.True()
		if x.ok != nil {
			okv = x.ok.Clone()
		}
		ub.add(jen.If(okCond(by.ok, jen.Parens(jen.Op("!").Add(acc("Set")).Op("||").Add(better)))).Block(
			jen.List(acc(""), acc("OK"), acc("By"), acc("Set")).Op("=").List(x.v.Clone(), okv, by.v.Clone(), jen.True())))
	case a.Func == "collect_list" || a.Func == "array_agg":
		x := args[0]
		ub.add(jen.If(okCond(x.ok, jen.True())).Block(acc("").Op("=").Append(acc(""), ec.wrap(val{v: x.v, t: x.t}, a.Type.ContainsNull))))
	case a.Func == "collect_set":
		x := args[0]
		ub.add(jen.If(acc("Seen").Op("==").Nil()).Block(acc("Seen").Op("=").Map(pc.setKeyType(x.t)).Struct().Values()))
		seen := pc.fn.tmp("seen")
		ub.add(jen.List(jen.Id("_"), jen.Id(seen)).Op(":=").Add(acc("Seen")).Index(setKey(x.t, x.v.Clone())))
		ub.add(jen.If(okCond(x.ok, jen.Op("!").Id(seen))).Block(
			acc("Seen").Index(setKey(x.t, x.v.Clone())).Op("=").Struct().Values(),
			acc("").Op("=").Append(acc(""), ec.wrap(val{v: x.v, t: x.t}, a.Type.ContainsNull)),
		))
	default:
		panic(&UnsupportedError{Pos: a.Pos, What: "aggregate function " + a.Func})
	}
	if a.Filter != nil {
		cb := b.sub()
		cond := ec.cond(cb, a.Filter)
		b.add(cb.stmts...)
		b.add(jen.If(cond).Block(ub.stmts...))
		return
	}
	b.add(ub.stmts...)
}

// setKeyType is the Go key type of a set of distinct values of t (DISTINCT
// aggregates, collect_set): FLOAT and DOUBLE by their normalized bits, so
// that NaN equals NaN and -0.0 equals 0.0 as in Spark.
func (pc *planCompiler) setKeyType(t types.Type) jen.Code {
	switch t.Kind {
	case types.DoubleKind:
		return jen.Uint64()
	case types.FloatKind:
		return jen.Uint32()
	}
	return pc.reg.baseType(t)
}

// setKey is the key of value v of type t in a set of setKeyType(t).
func setKey(t types.Type, v jen.Code) *jen.Statement {
	switch t.Kind {
	case types.DoubleKind:
		return jen.Qual(pkgSQLFn, "FloatKey").Call(v)
	case types.FloatKind:
		return jen.Qual(pkgSQLFn, "Float32Key").Call(v)
	}
	return jen.Add(v)
}

// ignoringNulls guards the update of first, last or any_value with the
// value's validity when the call's second argument is true (Spark's
// ignoreNulls: a NULL row leaves the result as it is).
func ignoringNulls(a *sql.AggCall, x val, update jen.Code) jen.Code {
	if len(a.Args) < 2 || x.ok == nil {
		return update
	}
	if l, ok := a.Args[1].(*sql.Literal); !ok || l.Value != true {
		return update
	}
	return jen.If(x.ok.Clone()).Block(update)
}

// checkedAdd emits acc = acc + x for BIGINT with an ANSI overflow check.
func (pc *planCompiler) checkedAdd(b *block, acc, x jen.Code, op string, t types.Type) []jen.Code {
	return pc.addOr(acc, x, op, b.fail(jen.Qual(pkgSQLFn, "ErrArithmeticOverflow").Call(jen.Lit(t.String()))))
}

// addOr emits acc = acc op x for integers and intervals, running
// overflow instead when the result overflows (acc is then left as is).
func (pc *planCompiler) addOr(acc, x jen.Code, op string, overflow jen.Code) []jen.Code {
	s, good := pc.fn.tmp("s"), pc.fn.tmp("good")
	return []jen.Code{
		jen.List(jen.Id(s), jen.Id(good)).Op(":=").Qual(pkgSQLFn, op).Call(acc, x),
		jen.If(jen.Op("!").Id(good)).Block(overflow),
		jen.Add(acc).Op("=").Id(s),
	}
}

// decimalAccumulate emits acc = acc + x for a DECIMAL sum of type t.
func (pc *planCompiler) decimalAccumulate(b *block, acc jen.Code, accScale int, x val, t types.Type) []jen.Code {
	return pc.decimalAddOr(acc, accScale, x, t, b.fail(jen.Qual(pkgSQLFn, "ErrArithmeticOverflow").Call(jen.Lit(t.String()))))
}

// decimalAddOr emits acc = acc + x for a DECIMAL sum of type t, running
// overflow instead when the sum does not fit t.
func (pc *planCompiler) decimalAddOr(acc jen.Code, accScale int, x val, t types.Type, overflow jen.Code) []jen.Code {
	s, good := pc.fn.tmp("s"), pc.fn.tmp("good")
	return []jen.Code{
		jen.List(jen.Id(s), jen.Id(good)).Op(":=").Qual(pkgSQLFn, "DecimalAdd").Call(acc, jen.Lit(accScale), x.v.Clone(), jen.Lit(x.t.Scale), jen.Lit(t.Precision), jen.Lit(t.Scale)),
		jen.If(jen.Op("!").Id(good)).Block(overflow),
		jen.Add(acc).Op("=").Id(s),
	}
}

// aggResult returns the final value of aggregate j for one group.
func (pc *planCompiler) aggResult(b *block, st *jen.Statement, j int, a *sql.AggCall) val {
	acc := func(suffix string) *jen.Statement { return st.Clone().Dot(accName(j, suffix)) }
	if distinctMatters(a) {
		switch a.Func {
		case "count":
			return val{v: jen.Int64().Call(acc("").Dot("Len").Call()), t: a.Type}
		case "bit_xor":
			// XOR of the distinct values: the order does not matter.
			x, it := pc.fn.tmp("xor"), pc.fn.tmp("x")
			b.add(jen.Var().Id(x).Add(pc.reg.baseType(a.Type)))
			b.add(jen.For(jen.List(jen.Id("_"), jen.Id(it)).Op(":=").Range().Add(acc("")).Dot("Keys").Call()).Block(jen.Id(x).Op("^=").Id(it)))
			return val{v: jen.Id(x), ok: acc("").Dot("Len").Call().Op(">").Lit(0), t: a.Type}
		case "sum", "avg", "mean":
			argT := a.Args[0].ResultType()
			// Fold the distinct values in order of first appearance.
			sum, n := pc.fn.tmp("sum"), pc.fn.tmp("n")
			it := pc.fn.tmp("x")
			body := []jen.Code{jen.Id(n).Op("++")}
			sumT := a.Type
			if a.Func != "sum" && !a.Type.IsInterval() {
				sumT = types.DoubleType
				if a.Type.Kind == types.DecimalKind {
					sumT = types.DecimalOf(types.MaxDecimalPrecision, argT.Scale)
				}
			}
			switch sumT.Kind {
			case types.LongKind:
				body = append(body, pc.checkedAdd(b, jen.Id(sum), jen.Int64().Call(jen.Id(it)), "Add", sumT)...)
			case types.IntervalKind, types.YearMonthIntervalKind:
				body = append(body, pc.checkedAdd(b, jen.Id(sum), jen.Id(it), "Add", sumT)...)
			case types.DecimalKind:
				body = append(body, pc.decimalAccumulate(b, jen.Id(sum), sumT.Scale, val{v: jen.Id(it), t: argT}, sumT)...)
			default:
				body = append(body, jen.Id(sum).Op("+=").Add(pc.reg.baseType(sumT)).Call(jen.Id(it)))
			}
			b.add(jen.Var().Id(sum).Add(pc.reg.baseType(sumT)), jen.Var().Id(n).Int64())
			if distinctOrder(a) {
				b.add(jen.For(jen.List(jen.Id("_"), jen.Id(it)).Op(":=").Range().Add(acc("Order"))).Block(body...))
			} else {
				// An exact sum does not depend on the order of its terms.
				b.add(jen.For(jen.List(jen.Id("_"), jen.Id(it)).Op(":=").Range().Add(acc("")).Dot("Keys").Call()).Block(body...))
			}
			if a.Func == "sum" {
				return val{v: jen.Id(sum), ok: jen.Id(n).Op(">").Lit(0), t: a.Type}
			}
			return pc.avgOf(b, jen.Id(sum), jen.Id(n), sumT, a.Type)
		}
	}
	switch a.Func {
	case "count", "count_if":
		return val{v: acc(""), t: a.Type}
	case "try_sum":
		return val{v: acc(""), ok: acc("OK").Op("&&").Op("!").Add(acc("Over")), t: a.Type}
	case "try_avg":
		sumT := types.DoubleType
		if a.Type.Kind == types.DecimalKind {
			sumT = types.DecimalOf(types.MaxDecimalPrecision, a.Args[0].ResultType().Scale)
		}
		r := pc.avgOf(b, acc(""), acc("N"), sumT, a.Type)
		r.ok = jen.Parens(r.ok).Op("&&").Op("!").Add(acc("Over"))
		return r
	case "bit_and", "bit_or", "bit_xor":
		return val{v: acc(""), ok: acc("OK"), t: a.Type}
	case "sum", "min", "max", "first", "last", "any_value", "first_value", "last_value",
		"bool_and", "every", "bool_or", "some", "any":
		return val{v: acc(""), ok: acc("OK"), t: a.Type}
	case "avg", "mean":
		sumT := types.DoubleType
		if a.Type.Kind == types.DecimalKind {
			sumT = types.DecimalOf(types.MaxDecimalPrecision, a.Args[0].ResultType().Scale)
		}
		return pc.avgOf(b, acc(""), acc("N"), sumT, a.Type)
	case "collect_list", "array_agg", "collect_set":
		return val{v: acc(""), t: a.Type}
	case "stddev", "stddev_pop", "variance", "var_pop", "corr", "covar_pop", "covar_samp":
		method := map[string]string{"stddev": "StddevSamp", "stddev_pop": "StddevPop", "variance": "VarSamp", "var_pop": "VarPop",
			"corr": "Corr", "covar_pop": "CovarPop", "covar_samp": "CovarSamp"}[a.Func]
		v, ok := pc.fn.tmp("v"), pc.fn.tmp("ok")
		b.add(jen.List(jen.Id(v), jen.Id(ok)).Op(":=").Add(acc("")).Dot(method).Call())
		return val{v: jen.Id(v), ok: jen.Id(ok), t: a.Type}
	case "regr_count":
		return val{v: acc("").Dot("Count").Call(), t: a.Type}
	case "regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy", "regr_r2", "regr_slope", "regr_intercept":
		v, ok := pc.fn.tmp("v"), pc.fn.tmp("ok")
		b.add(jen.List(jen.Id(v), jen.Id(ok)).Op(":=").Add(acc("")).Dot(regrMethods[a.Func]).Call())
		return val{v: jen.Id(v), ok: jen.Id(ok), t: a.Type}
	case "approx_count_distinct":
		return val{v: acc("").Dot("Estimate").Call(), t: a.Type}
	case "percentile", "median", "percentile_approx", "percentile_cont", "percentile_disc", "mode":
		var p jen.Code
		switch {
		case a.Func == "median":
			p = jen.Lit(0.5)
		case a.Func == "mode":
		case a.Type.Kind == types.ArrayKind:
			// percentile_approx(x, array(p1, ...)): the percentages are literals.
			var ps []jen.Code
			for _, x := range a.Args[1].(*sql.Call).Args {
				ps = append(ps, jen.Lit(x.(*sql.Literal).Value.(float64)))
			}
			p = jen.Index().Float64().Values(ps...)
		default:
			p = jen.Lit(a.Args[1].(*sql.Literal).Value.(float64))
		}
		fn := map[string]string{"percentile": "Percentile", "median": "Percentile", "percentile_cont": "Percentile",
			"percentile_approx": "PercentileApprox", "percentile_disc": "PercentileDisc", "mode": "ModeSpark"}[a.Func]
		if l, isLit := modeOrder(a); isLit && l {
			// mode(x, true), mode() WITHIN GROUP (ORDER BY x [DESC]).
			fn, p = "ModeOrdered", jen.Lit(a.Desc)
		}
		if a.Type.Kind == types.ArrayKind {
			fn = "PercentileApproxArray"
		}
		callArgs := []jen.Code{jen.Op("&").Add(acc(""))}
		if p != nil {
			callArgs = append(callArgs, p)
		}
		v, ok := pc.fn.tmp("v"), pc.fn.tmp("ok")
		b.add(jen.List(jen.Id(v), jen.Id(ok)).Op(":=").Qual(pkgSQLFn, fn).Call(callArgs...))
		return val{v: jen.Id(v), ok: jen.Id(ok), t: a.Type}
	case "min_by", "max_by":
		return val{v: acc(""), ok: acc("OK").Op("&&").Add(acc("Set")), t: a.Type}
	}
	panic(&UnsupportedError{Pos: a.Pos, What: "aggregate function " + a.Func})
}

// modeOrder reports whether mode's ties go by order: mode(x, true) and
// mode() WITHIN GROUP (the checker makes its second argument a constant).
func modeOrder(a *sql.AggCall) (bool, bool) {
	if a.Func != "mode" || len(a.Args) < 2 {
		return false, false
	}
	l, ok := a.Args[1].(*sql.Literal)
	return l != nil && l.Value == true, ok
}

// avgOf returns sum / n as type t (NULL when n is 0).
func (pc *planCompiler) avgOf(b *block, sum, n jen.Code, sumT, t types.Type) val {
	ok := jen.Add(n).Op(">").Lit(0)
	if t.IsInterval() {
		// The sum divided by the count, rounded HALF_UP (Spark's
		// DivideYMInterval / DivideDTInterval); it cannot overflow.
		v := pc.fn.tmp("avg")
		b.add(jen.Var().Id(v).Add(pc.reg.baseType(t)))
		b.add(jen.If(ok.Clone()).Block(jen.List(jen.Id(v), jen.Id("_")).Op("=").Qual(pkgSQLFn, "Div"+kindSuffix(t)+"Int").Call(sum, n)))
		return val{v: jen.Id(v), ok: ok, t: t}
	}
	if t.Kind != types.DecimalKind {
		v := pc.fn.tmp("avg")
		b.add(jen.Var().Id(v).Float64())
		b.add(jen.If(ok.Clone()).Block(jen.Id(v).Op("=").Add(sum).Op("/").Float64().Call(n)))
		return val{v: jen.Id(v), ok: ok, t: t}
	}
	v := pc.fn.tmp("avg")
	b.add(jen.Var().Id(v).Qual(pkgTypes, "Decimal"))
	b.add(jen.If(ok.Clone()).Block(jen.Id(v).Op("=").Qual(pkgSQLFn, "DecimalAvg").Call(sum, jen.Lit(sumT.Scale), n, jen.Lit(t.Precision), jen.Lit(t.Scale))))
	return val{v: jen.Id(v), ok: ok, t: t}
}

// regrMethods maps the linear-regression aggregates to the sqlfn.Regr
// method giving their result.
var regrMethods = map[string]string{"regr_count": "Count", "regr_avgx": "AvgX", "regr_avgy": "AvgY",
	"regr_sxx": "SXX", "regr_syy": "SYY", "regr_sxy": "SXY", "regr_r2": "R2", "regr_slope": "Slope", "regr_intercept": "Intercept"}

// distinctTuple is the set key type of count(DISTINCT a, b, ...), a Go
// struct of the arguments' set keys (fields F0, F1, ...), or nil for
// another aggregate or an argument that cannot be a key.
func (pc *planCompiler) distinctTuple(a *sql.AggCall) jen.Code {
	if a.Func != "count" || len(a.Args) < 2 {
		return nil
	}
	fields := make([]jen.Code, len(a.Args))
	for i, x := range a.Args {
		t := x.ResultType()
		if !comparable(t) {
			return nil
		}
		fields[i] = jen.Id(fmt.Sprintf("F%d", i)).Add(pc.setKeyType(t))
	}
	return jen.Struct(fields...)
}

// groupField names the state field keeping the value of group column i
// when Go cannot compare its type (its key is sqlfn.GroupKey's string).
func groupField(i int) string { return fmt.Sprintf("G%d", i) }
