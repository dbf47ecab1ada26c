package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/spec"
	"github.com/pipegen/pipegen/spec/sql"
)

// Incremental refresh of materialized views: spec chooses the technique a
// materialized view's query allows (spec.Flow.Refresh, spec/refresh.go);
// the generator renders it into runtime.Flow and, for GROUP_AGGREGATE,
// generates the calls that seed the merge of the aggregation's partial
// states with the saved state (runtime.SeedAggregate) and hand the merged
// state back (runtime.KeepAggregate).

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
	if r := fl.Refresh; r.Technique != "" {
		d[jen.Id("Incremental")] = jen.Lit(string(r.Technique))
	} else {
		d[jen.Id("NotIncremental")] = jen.Lit(r.Reason)
	}
}

// seedAggregate and keepAggregate emit the calls around the merge of a
// GROUP_AGGREGATE flow's partial states; see the comment above.
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
