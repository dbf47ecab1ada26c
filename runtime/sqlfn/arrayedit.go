package sqlfn

import (
	"strconv"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file is Spark's functions that add or remove array elements
// (collectionOperations.scala: ArrayAppend, ArrayPrepend, ArrayInsert,
// ArrayCompact). The input array is never modified.

// ArrayAppend is array_append(arr, x).
func ArrayAppend[T any](arr []T, x T) []T {
	out := make([]T, len(arr)+1)
	copy(out, arr)
	out[len(arr)] = x
	return out
}

// ArrayPrepend is array_prepend(arr, x).
func ArrayPrepend[T any](arr []T, x T) []T {
	out := make([]T, len(arr)+1)
	out[0] = x
	copy(out[1:], arr)
	return out
}

// ArrayInsert is array_insert(arr, pos, x): x inserted before the 1-based
// position pos; a negative pos counts from the end, -1 placing x after the
// last element. A position past either end fills the gap with NULLs.
// Position 0 is INVALID_INDEX_OF_ZERO, a result of more than about 2^31
// elements COLLECTION_SIZE_LIMIT_EXCEEDED.
func ArrayInsert[E any](arr []types.Null[E], pos int32, x types.Null[E]) ([]types.Null[E], error) {
	n := int64(len(arr))
	var at int64 // 0-based index of x in the result
	switch {
	case pos == 0:
		return nil, &Error{Class: "INVALID_INDEX_OF_ZERO",
			Message: "the index 0 is invalid: an index shall be either < 0 or > 0 (the first element has index 1)"}
	case pos > 0:
		at = int64(pos) - 1
	default:
		at = n + int64(pos) + 1
	}
	size := max(n, at) + 1
	if at < 0 {
		size = n - at + 1
	}
	if size > maxArrayLength {
		return nil, &Error{Class: "COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER",
			Message: "array_insert at position " + strconv.Itoa(int(pos)) + " would build an array of " + strconv.FormatInt(size, 10) + " elements, more than " + strconv.Itoa(maxArrayLength)}
	}
	out := make([]types.Null[E], size)
	switch {
	case at < 0:
		// x, then -at NULLs, then the array.
		out[0] = x
		copy(out[1-at:], arr)
	case at >= n:
		copy(out, arr)
		out[at] = x
	default:
		copy(out, arr[:at])
		out[at] = x
		copy(out[at+1:], arr[at:])
	}
	return out, nil
}

// NullableElems returns arr's elements as nullable ones, for a result
// array that may hold NULLs built from one that does not.
func NullableElems[E any](arr []E) []types.Null[E] {
	out := make([]types.Null[E], len(arr))
	for i, e := range arr {
		out[i] = types.Some(e)
	}
	return out
}

// ArrayCompact is array_compact(arr): arr without its NULL elements.
func ArrayCompact[E any](arr []types.Null[E]) []E {
	out := make([]E, 0, len(arr))
	for _, e := range arr {
		if e.Valid {
			out = append(out, e.V)
		}
	}
	return out
}

// ErrElt is elt's error for an index outside 1..n (INVALID_ARRAY_INDEX).
func ErrElt(i int32, n int) error {
	return &Error{Class: "INVALID_ARRAY_INDEX",
		Message: "the index " + strconv.Itoa(int(i)) + " of elt is out of bounds: it has " + strconv.Itoa(n) + " strings to choose from"}
}

// MapZipKeys returns the keys of map_zip_with(m1, m2, ...): m1's keys in
// order, then m2's keys m1 lacks, with the index of each in m1 and in m2
// (-1 where the map lacks it). Keys compare as in MapGet.
func MapZipKeys[K comparable, V1, V2 any](m1 []types.KV[K, V1], m2 []types.KV[K, V2]) (keys []K, in1, in2 []int) {
	find2 := func(k K) int {
		for j, kv := range m2 {
			if kv.Key == k || kv.Key != kv.Key && k != k {
				return j
			}
		}
		return -1
	}
	used := make([]bool, len(m2))
	for i, kv := range m1 {
		j := find2(kv.Key)
		if j >= 0 {
			used[j] = true
		}
		keys, in1, in2 = append(keys, kv.Key), append(in1, i), append(in2, j)
	}
	for j, kv := range m2 {
		if !used[j] {
			keys, in1, in2 = append(keys, kv.Key), append(in1, -1), append(in2, j)
		}
	}
	return keys, in1, in2
}
