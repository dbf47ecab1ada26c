package sql

import "github.com/pipegen/pipegen/runtime/types"

// This file checks the higher-order functions over maps (Spark's
// higherOrderFunctions.scala): transform_values, transform_keys,
// map_filter and map_zip_with. Their lambda functions take the key and
// the value (map_zip_with: the key and both maps' values, NULL where a
// map lacks the key).

// mapHigherOrder checks fn when it is one of them; handled is false for
// the others. args holds the checked arguments that are not lambdas.
func (c *checker) mapHigherOrder(fn *Function, e *callExpr, args []Expr, ctx *exprCtx) (Expr, bool) {
	switch fn.Name {
	case "transform_values", "transform_keys", "map_filter", "map_zip_with":
	default:
		return nil, false
	}
	mt := args[0].ResultType()
	if mt.Kind != types.MapKind {
		c.errorAt(e.args[0], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "", "argument 1 of %s must be a MAP, not %s", fn.Name, mt)
		return bad, true
	}
	key := lambdaParam{what: "key", typ: *mt.Key}
	value := lambdaParam{what: "value", typ: *mt.Value, nullable: mt.ValueContainsNull}
	lam := func(i int, params []lambdaParam) *Lambda {
		return c.lambda(e.args[i].(*lambdaExpr), fn.Name, i, params, len(params), ctx)
	}
	var typ types.Type
	switch fn.Name {
	case "transform_values":
		f := lam(1, []lambdaParam{key, value})
		if f == nil {
			return bad, true
		}
		args[1] = f
		typ = types.MapOf(*mt.Key, f.Body.ResultType(), f.Body.IsNullable())
	case "transform_keys":
		f := lam(1, []lambdaParam{key, value})
		if f == nil {
			return bad, true
		}
		if kt := f.Body.ResultType(); !isAtomic(kt) {
			c.errorAt(lambdaBody(e.args[1]), "DATATYPE_MISMATCH.INVALID_MAP_KEY_TYPE", "", "the keys of a map cannot be of type %s", kt)
			return bad, true
		}
		args[1] = f
		typ = types.MapOf(f.Body.ResultType(), *mt.Value, mt.ValueContainsNull)
	case "map_filter":
		f := lam(1, []lambdaParam{key, value})
		if f == nil || !c.lambdaReturns(f, e.args[1], fn.Name, types.BooleanType) {
			return bad, true
		}
		args[1] = f
		typ = mt
	case "map_zip_with":
		m2 := args[1].ResultType()
		if m2.Kind != types.MapKind {
			c.errorAt(e.args[1], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "", "argument 2 of %s must be a MAP, not %s", fn.Name, m2)
			return bad, true
		}
		if !m2.Key.Equal(*mt.Key) {
			c.errorf(e.name.pos, e.end, "DATATYPE_MISMATCH.MAP_ZIP_WITH_DIFF_TYPES", "cast the keys of one map to the other's key type",
				"the maps of map_zip_with must have one key type, not %s and %s", *mt.Key, *m2.Key)
			return bad, true
		}
		f := lam(2, []lambdaParam{key, {what: "value", typ: *mt.Value, nullable: true}, {what: "value", typ: *m2.Value, nullable: true}})
		if f == nil {
			return bad, true
		}
		args[2] = f
		typ = types.MapOf(*mt.Key, f.Body.ResultType(), f.Body.IsNullable())
	}
	return &Call{Func: fn.Name, Args: args, Type: typ, Nullable: fn.nullable(args), Pos: e.name.pos}, true
}
