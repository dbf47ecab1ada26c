package gen

import (
	"fmt"
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
	if c := sql.PlanNondeterministicCall(p); c != nil {
		return c.Func + "()"
	}
	return ""
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
