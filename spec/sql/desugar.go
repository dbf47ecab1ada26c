package sql

import "github.com/pipegen/pipegen/runtime/types"

// Desugar returns the form a compiler compiles a checked call in, when
// Spark defines the call by another expression or by another argument
// list of the same helper, and ok false when the call is compiled as it
// is. The checked plan keeps the call as written (its text is part of
// plan output and of a streaming flow's state identity); a compiler
// applies Desugar once, at the call, and compiles what it returns:
//
//	if(c, a, b), iff       CASE WHEN c THEN a ELSE b END
//	nvl2(x, a, b)          CASE WHEN x IS NOT NULL THEN a ELSE b END
//	nullif(a, b)           CASE WHEN a = b THEN NULL ELSE a END
//	positive(x)            x
//	element_at(m, k)       m[k] for a map (try_element_at too)
//	to_date(ts)            CAST(ts AS DATE) for a non-string argument (to_timestamp too)
//	trim(chars, s)         trim(s, chars): the runtime helper's order (ltrim, rtrim too)
//	round(x), bround(x)    round(x, 0)
//
// A result that is still a *Call (trim, round) is compiled by its
// function's helper; Desugar must not be applied to it again.
func Desugar(e *Call) (Expr, bool) {
	switch e.Func {
	case "if", "iff":
		return &Case{Whens: []When{{Cond: e.Args[0], Then: e.Args[1]}}, Else: e.Args[2], Type: e.Type, Nullable: e.Nullable}, true
	case "nvl2":
		return &Case{Whens: []When{{Cond: &IsNull{X: e.Args[0], Not: true}, Then: e.Args[1]}}, Else: e.Args[2], Type: e.Type, Nullable: e.Nullable}, true
	case "nullif":
		eq := &Binary{Op: Eq, L: e.Args[0], R: e.Args[1], Type: types.BooleanType}
		return &Case{Whens: []When{{Cond: eq, Then: &Literal{Type: e.Type}}}, Else: e.Args[0], Type: e.Type, Nullable: true}, true
	case "positive":
		// Unary plus: the (coerced) argument itself.
		return e.Args[0], true
	case "element_at", "try_element_at":
		if e.Args[0].ResultType().Kind == types.MapKind {
			return &Subscript{X: e.Args[0], Index: e.Args[1], Type: e.Type, Pos: e.Pos}, true
		}
	case "to_date", "to_timestamp":
		if len(e.Args) == 1 && e.Args[0].ResultType().Kind != types.StringKind {
			// to_date(ts) and to_timestamp(d) are casts, as in Spark.
			return &Cast{X: e.Args[0], Type: e.Type, Nullable: e.Nullable, Pos: e.Pos}, true
		}
	case "trim", "ltrim", "rtrim":
		if len(e.Args) == 2 {
			// Spark's trim(chars, str) is sqlfn's Trim(str, chars).
			return &Call{Func: e.Func, Args: []Expr{e.Args[1], e.Args[0]}, Type: e.Type, Nullable: e.Nullable, Pos: e.Pos}, true
		}
	case "round", "bround":
		if len(e.Args) == 1 {
			// round(x) is round(x, 0).
			return &Call{Func: e.Func, Args: []Expr{e.Args[0], &Literal{Value: int32(0), Type: types.IntType}}, Type: e.Type, Nullable: e.Nullable, Pos: e.Pos}, true
		}
	}
	return nil, false
}
