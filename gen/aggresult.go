package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

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
