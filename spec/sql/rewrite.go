package sql

import "github.com/pipegen/pipegen/runtime/types"

// This file rewrites checked expressions: replacing sub-expressions
// (aggregates and grouped expressions by references to an Aggregate's
// output, column indexes when a join condition is split) while keeping
// every node's nullability consistent with its new children.

// aggRef stands for an aggregate call while a SELECT item is checked over
// the aggregate's input; lowerAgg replaces it by a reference to the
// Aggregate's output. It never appears in a returned plan.
type aggRef struct {
	call *AggCall
	name string // the output column name, e.g. "sum(amount)"
	end  int    // the end offset of the call, for errors found when lowering
}

func (e *aggRef) ResultType() types.Type { return e.call.Type }
func (e *aggRef) IsNullable() bool       { return e.call.Nullable }
func (*aggRef) exprNode()                {}

// errExpr stands for an expression that failed to check (the error is
// reported); expressions over it are not checked further.
type errExpr struct{}

func (*errExpr) ResultType() types.Type { return types.Type{} }
func (*errExpr) IsNullable() bool       { return true }
func (*errExpr) exprNode()              {}

var bad Expr = &errExpr{}

// isBad reports whether e failed to check.
func isBad(e Expr) bool {
	_, ok := e.(*errExpr)
	return ok || e == nil
}

// children returns e's direct sub-expressions.
func children(e Expr) []Expr {
	switch e := e.(type) {
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.L, e.R}
	case *Cast:
		return []Expr{e.X}
	case *Call:
		return e.Args
	case *Case:
		var out []Expr
		for _, w := range e.Whens {
			out = append(out, w.Cond, w.Then)
		}
		if e.Else != nil {
			out = append(out, e.Else)
		}
		return out
	case *In:
		return append([]Expr{e.X}, e.List...)
	case *Subquery:
		if e.X != nil {
			return []Expr{e.X}
		}
	case *Like:
		return []Expr{e.X, e.Pattern}
	case *IsNull:
		return []Expr{e.X}
	case *FieldRef:
		return []Expr{e.X}
	case *Subscript:
		return []Expr{e.X, e.Index}
	case *Lambda:
		return []Expr{e.Body}
	case *winRef:
		return winChildren(e)
	}
	return nil
}

// withChildren returns a copy of e with its sub-expressions replaced by
// kids (in the order children returns them) and its nullability derived
// again from them.
func withChildren(e Expr, kids []Expr) Expr {
	switch e := e.(type) {
	case *Unary:
		n := *e
		n.X = kids[0]
		return &n
	case *Binary:
		n := *e
		n.L, n.R = kids[0], kids[1]
		n.Nullable = n.Op != NullSafeEq && (n.L.IsNullable() || n.R.IsNullable())
		return &n
	case *Cast:
		n := *e
		n.X = kids[0]
		n.Nullable = n.Try || n.X.IsNullable()
		return &n
	case *Call:
		n := *e
		n.Args = kids
		if f := LookupFunction(n.Func); f != nil {
			n.Nullable = f.nullable(kids)
		}
		return &n
	case *Case:
		n := *e
		n.Whens = make([]When, len(e.Whens))
		for i := range e.Whens {
			n.Whens[i] = When{Cond: kids[2*i], Then: kids[2*i+1]}
		}
		if e.Else != nil {
			n.Else = kids[len(kids)-1]
		}
		n.Nullable = caseNullable(n.Whens, n.Else)
		return &n
	case *Subquery:
		if len(kids) == 0 {
			return e
		}
		n := *e
		n.X = kids[0]
		return &n
	case *In:
		n := *e
		n.X, n.List = kids[0], kids[1:]
		n.Nullable = anyNullable(kids)
		return &n
	case *Like:
		n := *e
		n.X, n.Pattern = kids[0], kids[1]
		n.Nullable = n.X.IsNullable() || n.Pattern.IsNullable()
		return &n
	case *IsNull:
		n := *e
		n.X = kids[0]
		return &n
	case *FieldRef:
		n := *e
		n.X = kids[0]
		n.Nullable = n.X.IsNullable() || n.X.ResultType().Fields[n.Index].Nullable
		return &n
	case *Subscript:
		n := *e
		n.X, n.Index = kids[0], kids[1]
		return &n
	case *Lambda:
		n := *e
		n.Body = kids[0]
		return &n
	case *winRef:
		return winWithChildren(e, kids)
	}
	return e
}

// mapExpr rebuilds e bottom-up: f is offered every node first; when it
// returns a replacement, the node's children are not visited.
func mapExpr(e Expr, f func(Expr) (Expr, bool)) Expr {
	if r, ok := f(e); ok {
		return r
	}
	kids := children(e)
	if len(kids) == 0 {
		return e
	}
	newKids := make([]Expr, len(kids))
	changed := false
	for i, k := range kids {
		newKids[i] = mapExpr(k, f)
		changed = changed || newKids[i] != k
	}
	if !changed {
		return e
	}
	return withChildren(e, newKids)
}

// shiftColumns returns e with every column index i replaced by i+delta.
func shiftColumns(e Expr, delta int) Expr {
	if delta == 0 {
		return e
	}
	return mapExpr(e, func(x Expr) (Expr, bool) {
		if c, ok := x.(*ColumnRef); ok {
			n := *c
			n.Index += delta
			return &n, true
		}
		return nil, false
	})
}

// columnRange returns the smallest and largest column index e reads;
// ok is false when it reads none.
func columnRange(e Expr) (lo, hi int, ok bool) {
	Walk(e, func(x Expr) bool {
		if c, isCol := x.(*ColumnRef); isCol {
			if !ok || c.Index < lo {
				lo = c.Index
			}
			if !ok || c.Index > hi {
				hi = c.Index
			}
			ok = true
		}
		return true
	})
	return lo, hi, ok
}

// deterministic reports whether e calls no nondeterministic function.
func deterministic(e Expr) bool { return NondeterministicCall(e, false) == nil }

func anyNullable(es []Expr) bool {
	for _, e := range es {
		if e.IsNullable() {
			return true
		}
	}
	return false
}

func caseNullable(whens []When, els Expr) bool {
	if els == nil || els.IsNullable() {
		return true
	}
	for _, w := range whens {
		if w.Then.IsNullable() {
			return true
		}
	}
	return false
}
