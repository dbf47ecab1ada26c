package gen

import (
	"reflect"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// This file computes uncorrelated subqueries (sql.Subquery) once, at the
// start of the flow function, before the query's rows are produced: an IN
// subquery into a hash set of its non-NULL values with flags for a NULL
// and for any row, EXISTS into a flag, a scalar subquery into its value.
// The expressions then read those locals (the scans' callbacks only read
// them, so concurrent workers may share them).

// subqVars are the Go locals holding one subquery's result.
type subqVars struct {
	set     string // IN: map[key]struct{} of the non-NULL values
	key     *tuple // IN: the set's key type
	sawNull string // IN: the subquery had a NULL
	any     string // IN, EXISTS: the subquery had a row
	v, ok   string // scalar: the value and whether it is not NULL
}

// collectSubqueries returns the subqueries of p's expressions, not those
// inside the subqueries' own plans. It walks the plan's fields by
// reflection at generation time only.
func collectSubqueries(p sql.Plan) []*sql.Subquery {
	var out []*sql.Subquery
	seen := map[*sql.Subquery]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if v.IsNil() {
				return
			}
			if s, ok := v.Interface().(*sql.Subquery); ok {
				if !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
				if s.X != nil {
					walk(reflect.ValueOf(s.X))
				}
				return
			}
			if _, ok := v.Interface().(*types.Type); ok {
				return
			}
			walk(v.Elem())
		case reflect.Struct:
			if v.Type() == reflect.TypeOf(types.Type{}) {
				return
			}
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(p))
	return out
}

// prepareSubqueries emits into b the code computing every subquery of p
// (and first those of their own plans).
func (pc *planCompiler) prepareSubqueries(b *block, p sql.Plan) {
	for _, s := range collectSubqueries(p) {
		if pc.subq[s] != nil {
			continue
		}
		pc.prepareSubqueries(b, s.Plan)
		sv := &subqVars{}
		switch s.Kind {
		case sql.InSubquery:
			sv.any, sv.sawNull, sv.set = pc.fn.tmp("sqAny"), pc.fn.tmp("sqNull"), pc.fn.tmp("sqSet")
			b.add(jen.Var().Id(sv.any).Op(",").Id(sv.sawNull).Bool())
			// Only a nullable tested value reads the "had a row" flag: a
			// NOT NULL one (x IN (SELECT ...) with x a literal) leaves it
			// unread, which Go refuses.
			b.add(jen.Id("_").Op("=").Id(sv.any))
			first := true
			pc.produce(b, s.Plan, false, func(rb *block, cols []val) {
				x := cols[0]
				if first {
					sv.key = pc.declareTuple(b, "sqKey", []val{{v: x.v, t: x.t}})
					b.add(jen.Id(sv.set).Op(":=").Map(jen.Id(sv.key.name)).Struct().Values())
					first = false
				}
				rb.add(jen.Id(sv.any).Op("=").True())
				put := jen.Id(sv.set).Index(sv.key.literal([]val{{v: x.v, t: x.t}})).Op("=").Struct().Values()
				if x.ok != nil {
					rb.add(jen.If(x.ok.Clone()).Block(put).Else().Block(jen.Id(sv.sawNull).Op("=").True()))
				} else {
					rb.add(put)
				}
			})
			if first {
				// A plan that produces no row at all (its code path
				// never reaches the consumer): an empty set.
				sv.key = pc.declareTuple(b, "sqKey", []val{{v: jen.Nil(), t: s.X.ResultType()}})
				b.add(jen.Id(sv.set).Op(":=").Map(jen.Id(sv.key.name)).Struct().Values())
			}
		case sql.ExistsSubquery:
			sv.any = pc.fn.tmp("sqAny")
			b.add(jen.Var().Id(sv.any).Bool())
			pc.produce(b, s.Plan, false, func(rb *block, cols []val) {
				for _, c := range cols {
					markUsed(rb, c)
				}
				rb.add(jen.Id(sv.any).Op("=").True())
			})
		case sql.ScalarSubquery:
			sv.v, sv.ok, sv.any = pc.fn.tmp("sqV"), pc.fn.tmp("sqOK"), pc.fn.tmp("sqRows")
			b.add(jen.Var().Id(sv.v).Add(pc.reg.baseType(s.Type)))
			b.add(jen.Var().Id(sv.ok).Bool())
			b.add(jen.Var().Id(sv.any).Int())
			pc.produce(b, s.Plan, false, func(rb *block, cols []val) {
				x := cols[0]
				rb.add(jen.Id(sv.any).Op("++"))
				rb.add(jen.If(jen.Id(sv.any).Op(">").Lit(1)).Block(rb.fail(jen.Qual(pkgSQLFn, "ErrScalarSubqueryTooManyRows").Call())))
				rb.add(jen.Id(sv.v).Op("=").Add(x.v.Clone()))
				if x.ok != nil {
					rb.add(jen.Id(sv.ok).Op("=").Add(x.ok.Clone()))
				} else {
					rb.add(jen.Id(sv.ok).Op("=").True())
				}
			})
		}
		if pc.subq == nil {
			pc.subq = map[*sql.Subquery]*subqVars{}
		}
		pc.subq[s] = sv
	}
}

// subquery compiles a use of a subquery prepared by prepareSubqueries.
func (c *exprCompiler) subquery(b *block, e *sql.Subquery) val {
	sv := c.subq[e]
	if sv == nil {
		panic(&UnsupportedError{What: "a subquery in this position"})
	}
	switch e.Kind {
	case sql.ExistsSubquery:
		return val{v: jen.Id(sv.any), t: types.BooleanType}
	case sql.ScalarSubquery:
		return val{v: jen.Id(sv.v), ok: jen.Id(sv.ok), t: e.Type}
	}
	x := b.bind(c.compile(b, e.X))
	v, ok := b.fn.tmp("v"), b.fn.tmp("ok")
	// Found: TRUE. Not found: NULL when the subquery had a NULL, FALSE
	// otherwise. x NULL: NULL when the subquery had rows, else FALSE.
	b.add(jen.Var().Id(v).Bool())
	b.add(jen.Id(ok).Op(":=").True())
	probe := []jen.Code{
		jen.List(jen.Id("_"), jen.Id(v)).Op("=").Id(sv.set).Index(sv.key.literal([]val{{v: x.v, t: x.t}})),
		jen.If(jen.Op("!").Id(v).Op("&&").Id(sv.sawNull)).Block(jen.Id(ok).Op("=").False()),
	}
	if x.ok != nil {
		b.add(jen.If(x.ok.Clone()).Block(probe...).Else().Block(jen.Id(ok).Op("=").Op("!").Id(sv.any)))
	} else {
		b.add(probe...)
	}
	return val{v: jen.Id(v), ok: jen.Id(ok), t: types.BooleanType}
}
