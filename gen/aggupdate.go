package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

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
