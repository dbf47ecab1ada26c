package sql

import (
	"strconv"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file types the collection functions whose result depends on the
// element, key and value types of their arguments (ResCollection), after
// the function table's argument rules have been applied. Semantics are
// Spark's collectionOperations.scala. It may replace an argument by its
// implicit cast (array_join's elements to STRING, sequence's step).

// collectionType returns the result type of a collection function call,
// reporting an error (ok false) for arguments the function does not take.
func (c *checker) collectionType(fn *Function, args []Expr, asts []astExpr) (types.Type, bool) {
	t0 := args[0].ResultType()
	fail := func(i int, format string, a ...any) (types.Type, bool) {
		c.errorAt(asts[i], "DATATYPE_MISMATCH", "", "argument %d of %s "+format, append([]any{i + 1, fn.Name}, a...)...)
		return types.Type{}, false
	}
	if t, ok, handled := c.moreCollectionType(fn, args, asts); handled {
		return t, ok
	}
	switch fn.Name {
	case "array_distinct":
		if !orderable(*t0.Elem) {
			return fail(0, "cannot hold values of type %s: they cannot be compared", *t0.Elem)
		}
		return t0, true
	case "array_join":
		e := *t0.Elem
		if e.Kind != types.StringKind {
			if !isAtomic(e) && e.Kind != types.VoidKind {
				return fail(0, "must be an array of STRING (or of values cast to STRING), not %s", t0)
			}
			args[0] = c.castTo(args[0], types.ArrayOf(types.StringType, t0.ContainsNull), asts[0])
		}
		return types.StringType, true
	case "array_max", "array_min", "sort_array":
		if !orderable(*t0.Elem) {
			return fail(0, "cannot hold values of type %s: they cannot be ordered", *t0.Elem)
		}
		if fn.Name == "sort_array" {
			return t0, true
		}
		return *t0.Elem, true
	case "flatten":
		if t0.Elem.Kind != types.ArrayKind {
			return fail(0, "must be an array of arrays, not %s", t0)
		}
		return *t0.Elem, true
	case "slice":
		return t0, true
	case "arrays_zip":
		fields := make([]types.Field, len(args))
		for i, a := range args {
			t := a.ResultType()
			if t.Kind != types.ArrayKind {
				return fail(i, "must be an ARRAY, not %s", t)
			}
			// Spark names a field after a column argument, else by its position.
			name := strconv.Itoa(i)
			if r, ok := a.(*ColumnRef); ok {
				name = r.Name
			}
			fields[i] = types.Field{Name: name, Type: *t.Elem, Nullable: true}
		}
		return types.ArrayOf(types.StructOf(fields...), false), true
	case "map_keys", "map_values":
		if t0.Kind != types.MapKind {
			return fail(0, "must be a MAP, not %s", t0)
		}
		if fn.Name == "map_keys" {
			return types.ArrayOf(*t0.Key, false), true
		}
		return types.ArrayOf(*t0.Value, t0.ValueContainsNull), true
	case "map_from_arrays":
		t1 := args[1].ResultType()
		if !isAtomic(*t0.Elem) {
			return fail(0, "must be an array of keys of an atomic type, not %s", t0)
		}
		return types.MapOf(*t0.Elem, *t1.Elem, t1.ContainsNull), true
	case "sequence":
		return c.sequenceType(fn, args, asts)
	case "to_json":
		if k := t0.Kind; k != types.StructKind && k != types.ArrayKind && k != types.MapKind {
			return fail(0, "must be a STRUCT, an ARRAY or a MAP, not %s", t0)
		}
		return types.StringType, true
	case "from_json":
		return c.fromJSONType(args[1].(*Literal).Value.(string), asts[1])
	}
	return fn.Type, true
}

// sequenceType types sequence(start, stop[, step]): integers with an
// integral step, or dates and timestamps with an INTERVAL step (a DATE
// step must be whole days).
func (c *checker) sequenceType(fn *Function, args []Expr, asts []astExpr) (types.Type, bool) {
	t := args[0].ResultType()
	switch {
	case t.IsIntegral():
		if len(args) == 3 {
			st := args[2].ResultType()
			if !st.IsIntegral() && st.Kind != types.VoidKind {
				c.errorAt(asts[2], "DATATYPE_MISMATCH", "", "the step of a sequence of %s must be an integer, not %s", t, st)
				return types.Type{}, false
			}
			w, _ := tightestCommon(t, st)
			if !w.Equal(t) {
				c.errorAt(asts[2], "DATATYPE_MISMATCH", "cast the start and stop to "+w.String(), "the step of a sequence of %s must fit %s, not be %s", t, t, st)
				return types.Type{}, false
			}
			args[2] = c.castTo(args[2], t, asts[2])
		}
	case t.Kind == types.DateKind || t.Kind == types.TimestampKind:
		if len(args) == 3 {
			if st := args[2].ResultType(); st.Kind != types.IntervalKind {
				c.errorAt(asts[2], "DATATYPE_MISMATCH", "write the step as INTERVAL 1 DAY", "the step of a sequence of %s must be an INTERVAL, not %s", t, st)
				return types.Type{}, false
			}
		}
	default:
		c.errorAt(asts[0], "DATATYPE_MISMATCH", "", "sequence needs integers, dates or timestamps, not %s", t)
		return types.Type{}, false
	}
	return types.ArrayOf(t, false), true
}

// collectionNullable is the nullability of a NullCollection function.
func collectionNullable(name string, args []Expr) bool {
	switch name {
	case "flatten":
		// NULL when the array is, or when one of its arrays is.
		return args[0].IsNullable() || args[0].ResultType().ContainsNull
	}
	return anyNullable(args)
}

// fromJSONType is the type of from_json's schema argument: a type (STRUCT<...>,
// ARRAY<...>, MAP<...>, ...) or a column list 'a INT, b STRING' (a STRUCT),
// as Spark's DataType.fromDDL reads it.
func (c *checker) fromJSONType(ddl string, at astExpr) (types.Type, bool) {
	if t, errs := ParseType(ddl); errs == nil {
		return asNullable(t), true
	}
	s, errs := ParseSchema(ddl)
	if errs != nil {
		c.errorAt(at, "INVALID_SCHEMA", "write the schema as 'a INT, b STRING' or as a type such as ARRAY<STRUCT<a: INT>>",
			"the schema of from_json does not parse: %s", errs[0].Message)
		return types.Type{}, false
	}
	fields := make([]types.Field, len(s))
	for i, f := range s {
		fields[i] = f
	}
	return asNullable(types.StructOf(fields...)), true
}

// asNullable is t with every field, element and value nullable (Spark's
// DataType.asNullable: from_json reads whatever the JSON holds).
func asNullable(t types.Type) types.Type {
	switch t.Kind {
	case types.ArrayKind:
		return types.ArrayOf(asNullable(*t.Elem), true)
	case types.MapKind:
		return types.MapOf(asNullable(*t.Key), asNullable(*t.Value), true)
	case types.StructKind:
		fields := make([]types.Field, len(t.Fields))
		for i, f := range t.Fields {
			f.Type, f.Nullable = asNullable(f.Type), true
			fields[i] = f
		}
		return types.StructOf(fields...)
	}
	return t
}

// jsonPath checks x:path over a JSON string: a call of the internal
// function json_path (a STRING, NULL when the path finds nothing).
func (c *checker) jsonPath(e *jsonPathExpr, ctx *exprCtx) Expr {
	x := c.expr(e.x, ctx)
	if isBad(x) {
		return bad
	}
	if t := x.ResultType(); t.Kind != types.StringKind && t.Kind != types.VoidKind {
		c.errorf(e.colonPos, e.end, "DATATYPE_MISMATCH", "the : operator reads JSON strings; use . for struct fields",
			"the : operator needs a STRING, not %s", t)
		return bad
	}
	x = c.castTo(x, types.StringType, e.x)
	path := &Literal{Value: e.path, Type: types.StringType}
	return &Call{Func: "json_path", Args: []Expr{x, path}, Type: types.StringType, Nullable: true, Pos: e.colonPos}
}
