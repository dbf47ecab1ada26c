package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// pruneTerms returns, as runtime.PruneTerm literals, the conjuncts of a
// filter over scan s that file skipping can use: `col op literal` (op one
// of = < <= > >=, either side), `col IN (literals)` and `col IS NULL`, on
// a top-level column of an integer, DATE, TIMESTAMP, TIMESTAMP_NTZ or
// STRING type, with literals of the same class of type (no cast between
// them). Other conjuncts are left to the row filter alone; the terms only
// let the runtime leave files unopened, the filter still runs on every row.
func pruneTerms(s *sql.Scan, cond sql.Expr) []jen.Code {
	var out []jen.Code
	var walk func(e sql.Expr)
	walk = func(e sql.Expr) {
		if b, ok := e.(*sql.Binary); ok && b.Op == sql.And {
			walk(b.L)
			walk(b.R)
			return
		}
		if t := pruneTerm(s, e); t != nil {
			out = append(out, t)
		}
	}
	walk(cond)
	return out
}

var pruneOps = map[sql.BinaryOp][2]string{
	sql.Eq: {"=", "="}, sql.Lt: {"<", ">"}, sql.LtEq: {"<=", ">="}, sql.Gt: {">", "<"}, sql.GtEq: {">=", "<="},
}

func pruneTerm(s *sql.Scan, e sql.Expr) jen.Code {
	col := func(x sql.Expr) (string, types.Type, bool) {
		// An integer column widened to the literal's type (int_col =
		// 5000000000) compares as the column itself.
		if c, ok := x.(*sql.Cast); ok && !c.Try && intBits(c.Type.Kind) > 0 {
			if r, ok := c.X.(*sql.ColumnRef); ok && intBits(r.Type.Kind) > 0 && intBits(r.Type.Kind) <= intBits(c.Type.Kind) {
				x = r
			}
		}
		c, ok := x.(*sql.ColumnRef)
		if !ok || c.Index < 0 || c.Index >= len(s.Columns) || s.Columns[c.Index].Hidden {
			return "", types.Type{}, false
		}
		return s.Columns[c.Index].Name, s.Columns[c.Index].Type, true
	}
	term := func(name string, t types.Type, op string, vals ...jen.Code) jen.Code {
		d := jen.Dict{jen.Id("Column"): jen.Lit(name), jen.Id("Op"): jen.Lit(op), jen.Id("Class"): jen.Lit(pruneClass(t))}
		if len(vals) > 0 {
			d[jen.Id("Values")] = jen.Index().Any().Values(vals...)
		}
		return jen.Values(d)
	}
	switch e := e.(type) {
	case *sql.IsNull:
		if name, t, ok := col(e.X); ok && !e.Not && pruneClass(t) != "" {
			return term(name, t, "is null")
		}
	case *sql.In:
		name, t, ok := col(e.X)
		if !ok || e.Not {
			return nil
		}
		var vals []jen.Code
		for _, x := range e.List {
			v := pruneLiteral(t, x)
			if v == nil {
				return nil
			}
			vals = append(vals, v)
		}
		return term(name, t, "in", vals...)
	case *sql.Binary:
		ops, ok := pruneOps[e.Op]
		if !ok {
			return nil
		}
		if name, t, ok := col(e.L); ok {
			if v := pruneLiteral(t, e.R); v != nil {
				return term(name, t, ops[0], v)
			}
		}
		if name, t, ok := col(e.R); ok {
			if v := pruneLiteral(t, e.L); v != nil {
				return term(name, t, ops[1], v)
			}
		}
	}
	return nil
}

// pruneLiteral is the constant of x, a non-NULL literal of the class of
// the column type t, as delta.PruneTerm holds it; nil otherwise.
func pruneLiteral(t types.Type, x sql.Expr) jen.Code {
	// An integer literal cast to another integer type (id >= 6 with id
	// BIGINT) is the literal, when it fits.
	if c, ok := x.(*sql.Cast); ok && intBits(c.Type.Kind) > 0 {
		if l, ok := c.X.(*sql.Literal); ok && intBits(l.Type.Kind) > 0 {
			if v, ok := l.IntValue(); ok && fitsBits(v, intBits(c.Type.Kind)) {
				x = &sql.Literal{Value: v, Type: c.Type}
			}
		}
	}
	l, ok := x.(*sql.Literal)
	if !ok || l.Value == nil {
		return nil
	}
	isInt := func(k types.Kind) bool { return intBits(k) > 0 }
	switch {
	case isInt(t.Kind) && isInt(l.Type.Kind):
		if v, ok := l.IntValue(); ok {
			return jen.Lit(v)
		}
	case t.Kind == types.StringKind && l.Type.Kind == types.StringKind:
		if v, ok := l.Value.(string); ok {
			return jen.Lit(v)
		}
	case t.Kind == types.DateKind && l.Type.Kind == types.DateKind:
		if v, ok := l.Value.(types.Date); ok {
			return jen.Lit(int64(v))
		}
	case (t.Kind == types.TimestampKind || t.Kind == types.TimestampNTZKind) && l.Type.Kind == t.Kind:
		if v, ok := l.Value.(types.Timestamp); ok {
			return jen.Lit(int64(v))
		}
	}
	return nil
}

// intBits is the width of an integer kind, 0 for other kinds.
func intBits(k types.Kind) int {
	switch k {
	case types.ByteKind:
		return 8
	case types.ShortKind:
		return 16
	case types.IntKind:
		return 32
	case types.LongKind:
		return 64
	}
	return 0
}

func fitsBits(v int64, bits int) bool {
	if bits >= 64 {
		return true
	}
	return v >= -(1<<(bits-1)) && v < 1<<(bits-1)
}

// pruneClass is the class a runtime.PruneTerm gives a column of type t
// (delta.PruneClass, which the runtime checks against the table's
// type), "" for types pruning ignores.
func pruneClass(t types.Type) string {
	switch {
	case intBits(t.Kind) > 0:
		return "int"
	case t.Kind == types.DateKind:
		return "date"
	case t.Kind == types.TimestampKind:
		return "timestamp"
	case t.Kind == types.TimestampNTZKind:
		return "timestamp_ntz"
	case t.Kind == types.StringKind:
		return "string"
	}
	return ""
}
