package gen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// TestPruneTerms checks which conjuncts of a filter become file-skipping
// terms: only those the runtime can judge soundly.
func TestPruneTerms(t *testing.T) {
	long := types.Type{Kind: types.LongKind}
	str := types.Type{Kind: types.StringKind}
	date := types.Type{Kind: types.DateKind}
	dbl := types.Type{Kind: types.DoubleKind}
	scan := &sql.Scan{Name: "t", Columns: []sql.Column{
		{Name: "id", Type: long, Nullable: true}, {Name: "s", Type: str, Nullable: true},
		{Name: "d", Type: date, Nullable: true}, {Name: "x", Type: dbl, Nullable: true},
		{Name: "_metadata", Type: str, Hidden: true},
	}}
	col := func(i int) *sql.ColumnRef {
		c := scan.Columns[i]
		return &sql.ColumnRef{Index: i, Name: c.Name, Type: c.Type, Nullable: c.Nullable}
	}
	lit := func(v any, t types.Type) *sql.Literal { return &sql.Literal{Value: v, Type: t} }
	bin := func(op sql.BinaryOp, l, r sql.Expr) *sql.Binary { return &sql.Binary{Op: op, L: l, R: r} }
	intLit := lit(int32(6), types.Type{Kind: types.IntKind})
	for _, tc := range []struct {
		cond sql.Expr
		want string // the rendered terms, "" for none
	}{
		{bin(sql.Eq, col(0), lit(int64(5), long)), `{Class: "int", Column: "id", Op: "=", Values: []any{int64(5)}}`},
		{bin(sql.Lt, lit(int64(5), long), col(0)), `{Class: "int", Column: "id", Op: ">", Values: []any{int64(5)}}`},
		{bin(sql.GtEq, col(0), &sql.Cast{X: intLit, Type: long}), `{Class: "int", Column: "id", Op: ">=", Values: []any{int64(6)}}`},
		{&sql.IsNull{X: col(1)}, `{Class: "string", Column: "s", Op: "is null"}`},
		{&sql.In{X: col(2), List: []sql.Expr{lit(types.Date(1), date), lit(types.Date(2), date)}}, `{Class: "date", Column: "d", Op: "in", Values: []any{int64(1), int64(2)}}`},
		{bin(sql.And, bin(sql.Eq, col(1), lit("a", str)), bin(sql.Gt, col(0), lit(int64(1), long))),
			`{Class: "string", Column: "s", Op: "=", Values: []any{"a"}} {Class: "int", Column: "id", Op: ">", Values: []any{int64(1)}}`},
		// never terms: OR, NOT, NOT IN, IS NOT NULL, NULL, <>, an unsupported
		// type, a hidden column, a cast of the column that is not widening, a
		// literal of another type, an IN with a non-literal
		{bin(sql.Or, bin(sql.Eq, col(0), lit(int64(1), long)), bin(sql.Eq, col(0), lit(int64(2), long))), ""},
		{&sql.Unary{Op: sql.Not, X: bin(sql.Eq, col(0), lit(int64(1), long))}, ""},
		{&sql.In{X: col(0), List: []sql.Expr{lit(int64(1), long)}, Not: true}, ""},
		{&sql.IsNull{X: col(0), Not: true}, ""},
		{bin(sql.Eq, col(0), lit(nil, long)), ""},
		{bin(sql.NotEq, col(0), lit(int64(1), long)), ""},
		{bin(sql.Eq, col(3), lit(1.5, dbl)), ""},
		{bin(sql.Eq, col(4), lit("a", str)), ""},
		{bin(sql.Eq, &sql.Cast{X: col(1), Type: long}, lit(int64(1), long)), ""},
		{bin(sql.Eq, col(2), lit("2024-01-01", str)), ""},
		{&sql.In{X: col(0), List: []sql.Expr{lit(int64(1), long), col(0)}}, ""},
	} {
		var got []string
		for _, c := range pruneTerms(scan, tc.cond) {
			s := fmt.Sprintf("%#v", jen.Index().Id("T").Values(c))
			s = strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimPrefix(s, "[]T{"), "}")), " ")
			got = append(got, strings.ReplaceAll(strings.ReplaceAll(s, "{ ", "{"), ", }", "}"))
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%#v:\n got %s\nwant %s", tc.cond, g, tc.want)
		}
	}
}
