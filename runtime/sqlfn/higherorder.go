package sqlfn

import (
	"reflect"
	"slices"

	"github.com/pipegen/pipegen/runtime/types"
)

// ArraySort returns a sorted copy of arr, ascending by Compare: array_sort
// and sort_array on an array without NULL elements (Spark's ArraySort with
// its default comparator; NaN sorts after every other number).
func ArraySort[T any](arr []T) []T {
	out := slices.Clone(arr)
	slices.SortStableFunc(out, Compare[T])
	return out
}

// ArraySortNullsLast returns a sorted copy of arr, ascending by Compare
// with NULL elements last: array_sort(arr) without a comparator (Spark's
// default comparator).
func ArraySortNullsLast[T any](arr []types.Null[T]) []types.Null[T] {
	out := slices.Clone(arr)
	slices.SortStableFunc(out, func(a, b types.Null[T]) int {
		switch {
		case !a.Valid && !b.Valid:
			return 0
		case !a.Valid:
			return 1
		case !b.Valid:
			return -1
		}
		return Compare(a.V, b.V)
	})
	return out
}

// ErrComparatorReturnsNull is the row error of array_sort whose comparator
// returned NULL for the elements l and r (T or types.Null[T]):
// COMPARATOR_RETURNS_NULL (Spark 3.4 and later; before, NULL meant equal).
func ErrComparatorReturnsNull[T any](l, r T) error {
	return &Error{Class: "COMPARATOR_RETURNS_NULL",
		Message: "the comparator has returned NULL for a comparison between " + formatElement(l) + " and " + formatElement(r),
		Hint:    "make it return a negative integer for less than, 0 for equal and a positive integer for greater than, e.g. with coalesce"}
}

// formatElement renders an array element (T or types.Null[T]) with
// FormatValue; an invalid types.Null is NULL.
func formatElement(v any) string {
	rv := reflect.ValueOf(v)
	if rv.IsValid() && isNullType(rv.Type()) {
		if !rv.FieldByName("Valid").Bool() {
			return "NULL"
		}
		return FormatValue(rv.FieldByName("V").Interface())
	}
	return FormatValue(v)
}
