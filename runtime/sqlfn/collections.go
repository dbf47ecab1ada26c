package sqlfn

import "github.com/pipegen/pipegen/runtime/types"

// ArrayAt returns arr[i] for SQL's arr[i] subscript (0-based); ok is false
// when i is out of range (INVALID_ARRAY_INDEX under ANSI semantics).
func ArrayAt[T any](arr []T, i int32) (T, bool) {
	if i < 0 || int(i) >= len(arr) {
		var zero T
		return zero, false
	}
	return arr[i], true
}

// ElementAt returns element_at(arr, i): 1-based, negative i counts from the
// end (-1 is the last element); ok is false for 0 and out of range indexes
// (Spark's ElementAt in ANSI mode; try_element_at makes them NULL).
func ElementAt[T any](arr []T, i int32) (T, bool) {
	n := int64(len(arr))
	j := int64(i)
	switch {
	case j > 0 && j <= n:
		return arr[j-1], true
	case j < 0 && -j <= n:
		return arr[n+j], true
	}
	var zero T
	return zero, false
}

// MapGet returns the value of key in m (map[key] and element_at(map, key));
// ok is false when the key is absent, which is NULL in Spark. Keys compare
// with SQL equality: NaN equals NaN.
func MapGet[K comparable, V any](m []types.KV[K, V], key K) (V, bool) {
	for _, kv := range m {
		if kv.Key == key || kv.Key != kv.Key && key != key {
			return kv.Value, true
		}
	}
	var zero V
	return zero, false
}

// ArrayContains returns array_contains(arr, v) with Spark's NULL rules:
// found is true when an element equals v (Compare's equality: NaN equals
// NaN); known is false — the result is NULL — when v is not found and arr
// holds a NULL element. Elements are T or types.Null[T].
func ArrayContains[E, T any](arr []E, v T) (found, known bool) {
	sawNull := false
	for _, e := range arr {
		switch x := any(e).(type) {
		case types.Null[T]:
			if !x.Valid {
				sawNull = true
			} else if Compare(x.V, v) == 0 {
				return true, true
			}
		case T:
			if Compare(x, v) == 0 {
				return true, true
			}
		}
	}
	return false, !sawNull
}
