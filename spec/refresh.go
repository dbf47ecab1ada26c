package spec

import (
	"fmt"
	"strings"

	"github.com/pipegen/pipegen/runtime/refresh"
	"github.com/pipegen/pipegen/spec/sql"
)

// Incremental refresh of materialized views (Databricks' refresh
// techniques, runtime/refresh). The checked model says, per materialized
// view flow, which technique the query's shape allows when its input only
// received appends since the last refresh; the generator renders it into
// runtime.Flow and the runtime runs it:
//
//   - refresh.AppendOnly: the query is row-wise over one table
//     (projections, filters, generators; no aggregation, join, DISTINCT,
//     ORDER BY or LIMIT): the new rows' results are appended.
//   - refresh.GroupAggregate: the query is a top-level aggregation (GROUP
//     BY, or a global aggregate) whose input is row-wise over one table
//     and whose aggregates are decomposable over appends and mergeable
//     (their rows of the function table are sql.AggDecomposable and
//     sql.AggMergeable: count, count_if, sum, avg as sum and count, min,
//     max, bool_and, bool_or; the DISTINCT forms of those also
//     sql.AggMergeableDistinct, the distinct values kept in the state:
//     count, sum, avg, min, max); what follows
//     the aggregation (HAVING, expressions of aggregates, ORDER BY, LIMIT)
//     is recomputed from the state. The generated code seeds its merge of
//     partial states with the saved state (runtime.SeedAggregate) and
//     hands the merged state back (runtime.KeepAggregate).
//
// Otherwise the flow is always recomputed (refresh.CompleteRecompute) and
// the reason goes with it. Non-deterministic expressions (rand(), uuid(),
// current_timestamp()...) rule out both techniques.

// RefreshPlan is how a materialized view flow may refresh when its input
// only received appends since the last refresh.
type RefreshPlan struct {
	// Technique is refresh.AppendOnly or refresh.GroupAggregate; "" when
	// the view is always recomputed (refresh.CompleteRecompute).
	Technique refresh.Technique
	// Aggregate is, for refresh.GroupAggregate, the query's top-level
	// aggregation, whose merged partial states are kept between refreshes;
	// nil otherwise.
	Aggregate *sql.Aggregate
	// Reason says why the view is always recomputed, when Technique is "".
	Reason string
}

// refreshPlan returns the refresh plan of a flow: the technique a
// materialized view allows, or the reason it is always recomputed.
func refreshPlan(fl *Flow) RefreshPlan {
	always := func(format string, args ...any) RefreshPlan {
		return RefreshPlan{Reason: fmt.Sprintf(format, args...)}
	}
	if fl.Kind != CompleteFlow || fl.Plan == nil {
		return always("not a materialized view")
	}
	if c := sql.PlanNondeterministicCall(fl.Plan); c != nil {
		return always("non-deterministic expression %s()", c.Func)
	}
	tables := 0
	for _, in := range fl.Inputs {
		if in.Source != nil && in.Source.Files != nil {
			return always("it reads the file source %s directly", in.Name)
		}
		tables++
	}
	if tables != 1 {
		return always("it reads %d tables (joins and unions are recomputed)", tables)
	}
	if hasSubquery(fl.Plan) {
		return always("it has a subquery (recomputed with the query)")
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
			return always("unsupported operator: GROUPING SETS, ROLLUP or CUBE")
		}
		if op := notRowWise(a.Input); op != "" {
			return always("unsupported operator below the aggregation: %s", op)
		}
		for _, c := range a.Aggs {
			if !c.Decomposable() {
				return always("aggregate %s is not decomposable", c.Func)
			}
		}
		// The input is row-wise (above), so the scan's workers compute
		// partial states concurrently, which must merge.
		if !a.Mergeable() {
			return always("the aggregation's partial states cannot be merged")
		}
		return RefreshPlan{Technique: refresh.GroupAggregate, Aggregate: a}
	}
	if op := notRowWise(fl.Plan); op != "" {
		return always("unsupported operator: %s", op)
	}
	return RefreshPlan{Technique: refresh.AppendOnly}
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

// hasSubquery reports whether the expressions of p or of the plans below
// it hold a subquery.
func hasSubquery(p sql.Plan) bool {
	found := false
	sql.WalkPlans(p, func(q sql.Plan) {
		sql.WalkPlanExprs(q, func(e sql.Expr) bool {
			if _, ok := e.(*sql.Subquery); ok {
				found = true
			}
			return !found
		})
	})
	return found
}
