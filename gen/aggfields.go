package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// distinctMatters reports whether a's DISTINCT changes its result: not for
// min, max, bit_and and bit_or, which a repeated value leaves as they are.
func distinctMatters(a *sql.AggCall) bool { return a.DistinctMatters() }

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

func accName(j int, suffix string) string { return fmt.Sprintf("A%d%s", j, suffix) }

// aggFields declares the accumulator fields of aggregate j.
func (pc *planCompiler) aggFields(j int, a *sql.AggCall) []jen.Code {
	f := func(suffix string, t jen.Code) jen.Code { return jen.Id(accName(j, suffix)).Add(t) }
	argT := func(i int) types.Type { return a.Args[i].ResultType() }
	if distinctMatters(a) {
		// DISTINCT: the set of distinct non-NULL argument values.
		// sql.Uncompilable admits count, sum, avg, mean and bit_xor, over
		// one comparable argument or (count) a tuple of them.
		if a.DistinctTuple() {
			return []jen.Code{f("", jen.Qual(pkgRuntime, "Set").Types(pc.distinctTuple(a)))}
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
		// Counts keys are Go's ordered types (sql.CountsKey).
		t := argT(0)
		return []jen.Code{f("", jen.Qual(pkgSQLFn, "Counts").Types(pc.reg.baseType(t)))}
	case "min_by", "max_by":
		return []jen.Code{f("", pc.reg.baseType(a.Type)), f("OK", jen.Bool()), f("By", pc.reg.baseType(argT(1))), f("Set", jen.Bool())}
	case "collect_set":
		elem := *a.Type.Elem // sql.Comparable (sql.Uncompilable)
		return []jen.Code{f("", pc.reg.baseType(a.Type)), f("Seen", jen.Map(pc.setKeyType(elem)).Struct())}
	}
	panic(&UnsupportedError{Pos: a.Pos, What: "aggregate function " + a.Func})
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

// distinctTuple is the set key type of count(DISTINCT a, b, ...) (an
// aggregate a.DistinctTuple holds for), a Go struct of the arguments' set
// keys (fields F0, F1, ...).
func (pc *planCompiler) distinctTuple(a *sql.AggCall) jen.Code {
	fields := make([]jen.Code, len(a.Args))
	for i, x := range a.Args {
		t := x.ResultType()
		fields[i] = jen.Id(fmt.Sprintf("F%d", i)).Add(pc.setKeyType(t))
	}
	return jen.Struct(fields...)
}
