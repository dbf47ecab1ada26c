package gen

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/spec"
	"github.com/pipegen/pipegen/spec/sql"
)

// Incremental refresh of materialized views (Databricks' refresh
// techniques). pipegen tells the runtime, per materialized view flow,
// which technique the query's shape allows when its input only received
// appends since the last refresh:
//
//   - APPEND_ONLY: the query is row-wise over one table (projections,
//     filters, generators; no aggregation, join, DISTINCT, ORDER BY or
//     LIMIT): the new rows' results are appended.
//   - GROUP_AGGREGATE: the query is a top-level aggregation (GROUP BY, or
//     a global aggregate) whose input is row-wise over one table and whose
//     aggregates are decomposable over appends (count, count_if, sum, avg
//     as sum and count, min, max, bool_and, bool_or, and their DISTINCT
//     forms, the distinct values kept in the state); what follows the
//     aggregation (HAVING, expressions of aggregates, ORDER BY, LIMIT) is
//     recomputed from the state. The generated code seeds its merge of
//     partial states with the saved state (runtime.SeedAggregate) and hands
//     the merged state back (runtime.KeepAggregate).
//
// Otherwise the flow is always recomputed (COMPLETE_RECOMPUTE) and the
// reason is generated with it. Non-deterministic expressions (rand(),
// uuid(), current_timestamp()...) rule out both techniques.

// decomposable are the aggregates GROUP_AGGREGATE maintains, with or
// without DISTINCT.
var decomposable = map[string]bool{
	"count": true, "count_if": true, "sum": true, "avg": true, "mean": true, "min": true, "max": true,
	"bool_and": true, "every": true, "bool_or": true, "some": true, "any": true,
}

// mvTechnique returns the incremental technique a materialized view flow
// allows, its top-level aggregation for GROUP_AGGREGATE, or "" and the
// reason it is always recomputed.
func mvTechnique(fl *spec.Flow) (technique string, agg *sql.Aggregate, reason string) {
	if fl.Kind != spec.CompleteFlow || fl.Plan == nil {
		return "", nil, "not a materialized view"
	}
	if e := nondeterministic(fl.Plan); e != "" {
		return "", nil, "non-deterministic expression " + e
	}
	tables := 0
	for _, in := range fl.Inputs {
		if in.Source != nil && in.Source.Files != nil {
			return "", nil, fmt.Sprintf("it reads the file source %s directly", in.Name)
		}
		tables++
	}
	if tables != 1 {
		return "", nil, fmt.Sprintf("it reads %d tables (joins and unions are recomputed)", tables)
	}
	if hasSubquery(fl.Plan) {
		return "", nil, "it has a subquery (recomputed with the query)"
	}
	top := fl.Plan
	for {
		switch p := top.(type) {
		case *sql.Project:
			top = p.Input
			continue
		case *sql.Filter:
			top = p.Input
			continue
		case *sql.Sort:
			top = p.Input
			continue
		case *sql.Limit:
			top = p.Input
			continue
		}
		break
	}
	if a, ok := top.(*sql.Aggregate); ok {
		if a.GroupingSets != nil {
			return "", nil, "unsupported operator: GROUPING SETS, ROLLUP or CUBE"
		}
		if op := notRowWise(a.Input); op != "" {
			return "", nil, "unsupported operator below the aggregation: " + op
		}
		for _, c := range a.Aggs {
			if !decomposable[c.Func] {
				return "", nil, fmt.Sprintf("aggregate %s is not decomposable", c.Func)
			}
		}
		if !concurrentSafe(a.Input) || !mergeable(a) {
			return "", nil, "the aggregation's partial states cannot be merged"
		}
		return "GROUP_AGGREGATE", a, ""
	}
	if op := notRowWise(fl.Plan); op != "" {
		return "", nil, "unsupported operator: " + op
	}
	return "APPEND_ONLY", nil, ""
}

// notRowWise returns the first operator of p that is not row-wise over a
// single scan, or "".
func notRowWise(p sql.Plan) string {
	switch p := p.(type) {
	case *sql.Scan:
		return ""
	case *sql.Project:
		return notRowWise(p.Input)
	case *sql.Filter:
		return notRowWise(p.Input)
	case *sql.Generate:
		return notRowWise(p.Input)
	case *sql.Aggregate:
		return "aggregation"
	case *sql.Join:
		return "JOIN"
	case *sql.Union:
		return "UNION"
	case *sql.Distinct:
		return "DISTINCT"
	case *sql.Sort:
		return "ORDER BY"
	case *sql.Limit:
		return "LIMIT"
	case *sql.Values:
		return "VALUES"
	case *sql.Window:
		return "window function"
	}
	// A node without a name here: its kind, without Go's package path.
	return strings.ToLower(strings.TrimPrefix(fmt.Sprintf("%T", p), "*sql."))
}

// nondeterministic returns the first non-deterministic function call of
// the plan's expressions, as "name()", or "".
func nondeterministic(p sql.Plan) string {
	found := ""
	var expr func(e sql.Expr)
	expr = func(e sql.Expr) {
		if e == nil || found != "" {
			return
		}
		if c, ok := e.(*sql.Call); ok {
			if f := sql.LookupFunction(c.Func); f != nil && f.Nondeterministic {
				found = c.Func + "()"
				return
			}
		}
		subExprs(e, expr)
	}
	var plan func(p sql.Plan)
	plan = func(p sql.Plan) {
		switch p := p.(type) {
		case *sql.Project:
			for _, e := range p.Exprs {
				expr(e)
			}
			plan(p.Input)
		case *sql.Filter:
			expr(p.Cond)
			plan(p.Input)
		case *sql.Aggregate:
			for _, e := range p.Groups {
				expr(e)
			}
			for _, a := range p.Aggs {
				for _, e := range a.Args {
					expr(e)
				}
				expr(a.Filter)
			}
			plan(p.Input)
		case *sql.Sort:
			plan(p.Input)
		case *sql.Limit:
			plan(p.Input)
		case *sql.Generate:
			for _, e := range []sql.Expr{p.Arg} {
				expr(e)
			}
			plan(p.Input)
		case *sql.Distinct:
			plan(p.Input)
		case *sql.Join:
			expr(p.Residual)
			for _, e := range append(append([]sql.Expr(nil), p.LeftKeys...), p.RightKeys...) {
				expr(e)
			}
			plan(p.Left)
			plan(p.Right)
		case *sql.Union:
			for _, in := range p.Inputs {
				plan(in)
			}
		}
	}
	plan(p)
	return found
}

// incrementalFields are the runtime.Flow fields that tell the runtime a
// materialized view's refresh techniques.
func incrementalFields(fl *spec.Flow, d jen.Dict) {
	if fl.Kind != spec.CompleteFlow {
		return
	}
	if e := nondeterministic(fl.Plan); e != "" {
		d[jen.Id("Nondeterministic")] = jen.Lit(e)
	}
	technique, _, reason := mvTechnique(fl)
	if technique != "" {
		d[jen.Id("Incremental")] = jen.Lit(technique)
	} else {
		d[jen.Id("NotIncremental")] = jen.Lit(reason)
	}
}

// seedAggregate and keepAggregate emit the calls around the merge of a
// GROUP_AGGREGATE flow's partial states; see the package comment above.
func (pc *planCompiler) seedAggregate(b *block, p *sql.Aggregate, parts string) {
	if p != pc.incrAgg {
		return
	}
	b.add(jen.If(jen.Err().Op(":=").Qual(pkgRuntime, "SeedAggregate").Call(jen.Id("ctx"), jen.Id(parts)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
}

func (pc *planCompiler) keepAggregate(b *block, p *sql.Aggregate, global bool, part, groups, order string) {
	if p != pc.incrAgg {
		return
	}
	v := jen.Id(groups)
	if !global {
		v = jen.Op("&").Id(part).Values(jen.Dict{jen.Id("groups"): jen.Id(groups), jen.Id("order"): jen.Id(order)})
	}
	b.add(jen.If(jen.Err().Op(":=").Qual(pkgRuntime, "KeepAggregate").Call(jen.Id("ctx"), v), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
}

var exprType = reflect.TypeFor[sql.Expr]()

// subExprs calls fn with each expression directly inside e (the fields
// of its node of type sql.Expr or []sql.Expr, found by reflection so that
// new node types are covered).
func subExprs(e sql.Expr, fn func(sql.Expr)) {
	v := reflect.ValueOf(e)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	var visit func(f reflect.Value)
	visit = func(f reflect.Value) {
		switch {
		case f.Type() == exprType || f.Type().Implements(exprType) && f.Kind() == reflect.Pointer:
			if !f.IsNil() {
				fn(f.Interface().(sql.Expr))
			}
		case f.Kind() == reflect.Slice:
			for i := 0; i < f.Len(); i++ {
				visit(f.Index(i))
			}
		case f.Kind() == reflect.Struct:
			for i := 0; i < f.NumField(); i++ {
				if f.Type().Field(i).IsExported() {
					visit(f.Field(i))
				}
			}
		}
	}
	for i := 0; i < v.NumField(); i++ {
		if v.Type().Field(i).IsExported() {
			visit(v.Field(i))
		}
	}
}
