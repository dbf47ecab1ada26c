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
