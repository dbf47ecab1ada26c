package sql

import (
	"github.com/pipegen/pipegen/runtime/types"
)

// This file rewrites INTERSECT and EXCEPT (MINUS) into operators the code
// generator already has, as Spark's optimizer rewrites the ALL forms
// (RewriteIntersectAll, RewriteExceptAll): the two inputs, each row
// tagged with a count of 1 for its side, are unioned and grouped by all
// the columns (grouping treats NULLs as equal, so rows compare null-safe,
// and NaN equals NaN), and each group keeps
//
//   - INTERSECT [DISTINCT]: one row when both sides have it;
//   - EXCEPT [DISTINCT]: one row when only the left side has it;
//   - INTERSECT ALL: least(l, r) copies, l and r its counts on each side;
//   - EXCEPT ALL: l - r copies when l > r.
//
// The copies are made by exploding sequence(1, n). The output columns are
// the left input's names with the types widened across both inputs.

// intersectExcept builds the plan of l INTERSECT|EXCEPT [ALL] r; l and r
// are already cast to cols.
func (c *checker) intersectExcept(s *setOpStmt, opText string, l, r Plan, cols []Column) Plan {
	end := s.pos + len(setOpNames[s.op])
	for _, p := range []Plan{l, r} {
		if readsStream(p) {
			c.errorf(s.pos, end, "UNSUPPORTED_FEATURE", "define the query as a materialized view (it reads the tables whole), or keep the rows of one stream with a LEFT ANTI JOIN (EXCEPT) or LEFT SEMI JOIN (INTERSECT) against a table",
				"%s is not supported over a stream (streaming tables): this query reads STREAM(...)", opText)
			return nil
		}
	}
	for _, col := range cols {
		if hasMapType(col.Type) {
			c.errorf(s.pos, end, "UNSUPPORTED_FEATURE.SET_OPERATION_ON_MAP_TYPE", "drop the column or convert it, e.g. map_entries(m)",
				"%s cannot compare column %q of type %s: maps cannot be compared", opText, col.Name, col.Type)
			return nil
		}
	}
	n := len(cols)
	one, zero := &Literal{Value: int64(1), Type: types.LongType}, &Literal{Value: int64(0), Type: types.LongType}
	tagged := func(p Plan, lt, rt *Literal) Plan {
		exprs := make([]Expr, 0, n+2)
		pcols := make([]Column, 0, n+2)
		for i, col := range p.Output() {
			exprs = append(exprs, &ColumnRef{Index: i, Name: col.Name, Type: col.Type, Nullable: col.Nullable})
			pcols = append(pcols, Column{Name: col.Name, Type: col.Type, Nullable: col.Nullable})
		}
		exprs = append(exprs, lt, rt)
		pcols = append(pcols, Column{Name: "vcol_l", Type: types.LongType}, Column{Name: "vcol_r", Type: types.LongType})
		return &Project{Input: p, Exprs: exprs, Columns: pcols}
	}
	ucols := append(append([]Column(nil), cols...), Column{Name: "vcol_l", Type: types.LongType}, Column{Name: "vcol_r", Type: types.LongType})
	union := &Union{Inputs: []Plan{tagged(l, one, zero), tagged(r, zero, one)}, Columns: ucols}

	groups := make([]Expr, n)
	for i, col := range cols {
		groups[i] = &ColumnRef{Index: i, Name: col.Name, Type: col.Type, Nullable: col.Nullable}
	}
	sum := func(i int) *AggCall {
		return &AggCall{Func: "sum", Args: []Expr{&ColumnRef{Index: i, Name: ucols[i].Name, Type: types.LongType}}, Type: types.LongType, Pos: s.pos}
	}
	acols := append(append([]Column(nil), cols...), Column{Name: "count_l", Type: types.LongType}, Column{Name: "count_r", Type: types.LongType})
	agg := &Aggregate{Input: union, Groups: groups, Aggs: []*AggCall{sum(n), sum(n + 1)}, Columns: acols}

	cl := &ColumnRef{Index: n, Name: "count_l", Type: types.LongType}
	cr := &ColumnRef{Index: n + 1, Name: "count_r", Type: types.LongType}
	bin := func(op BinaryOp, a, b Expr, t types.Type) Expr {
		return &Binary{Op: op, L: a, R: b, Type: t, Pos: s.pos}
	}
	var keep, copies Expr
	switch {
	case s.op == setIntersect:
		keep = bin(And, bin(Gt, cl, zero, types.BooleanType), bin(Gt, cr, zero, types.BooleanType), types.BooleanType)
		copies = &Call{Func: "least", Args: []Expr{cl, cr}, Type: types.LongType, Pos: s.pos}
	case s.all:
		keep = bin(Gt, cl, cr, types.BooleanType)
		copies = bin(Sub, cl, cr, types.LongType)
	default:
		keep = bin(And, bin(Gt, cl, zero, types.BooleanType), bin(Eq, cr, zero, types.BooleanType), types.BooleanType)
	}
	var p Plan = &Filter{Input: agg, Cond: keep}
	if s.all {
		seq := &Call{Func: "sequence", Args: []Expr{one, copies}, Type: types.ArrayOf(types.LongType, false), Pos: s.pos}
		p = &Generate{Input: p, Func: "explode", Arg: seq, Columns: append(append([]Column(nil), acols...), Column{Name: "col", Type: types.LongType})}
	}
	exprs := make([]Expr, n)
	for i, col := range cols {
		exprs[i] = &ColumnRef{Index: i, Name: col.Name, Type: col.Type, Nullable: col.Nullable}
	}
	return &Project{Input: p, Exprs: exprs, Columns: cols}
}

// hasMapType reports whether t is or holds a MAP.
func hasMapType(t types.Type) bool {
	switch t.Kind {
	case types.MapKind:
		return true
	case types.ArrayKind:
		return hasMapType(*t.Elem)
	case types.StructKind:
		for _, f := range t.Fields {
			if hasMapType(f.Type) {
				return true
			}
		}
	}
	return false
}
