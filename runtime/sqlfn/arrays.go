package sqlfn

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds the array and map functions of Spark's
// collectionOperations.scala. An array of a type whose elements may be
// NULL is a []types.Null[T]; the helpers that treat NULL elements
// specially have a Nullable variant for it. Results are new slices, never
// aliases of an argument.

// maxArrayLength is the longest array a function may build: Spark's
// ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH.
const maxArrayLength = math.MaxInt32 - 15

// nullKey and nanKey stand for a NULL element and for NaN (which equals
// itself in Spark) in ArrayDistinct's set.
type (
	nullKey struct{}
	nanKey  struct{}
)

// distinctKey returns a comparable key that is equal for two elements
// exactly when Spark's array_distinct considers them equal (NaN equals
// NaN, -0.0 equals 0.0, NULLs are equal); ok is false for elements that
// are not comparable in Go (arrays, maps, binary).
func distinctKey(v any) (any, bool) {
	switch x := v.(type) {
	case float64:
		if x != x {
			return nanKey{}, true
		}
		return x + 0, true // -0.0 + 0 is 0.0
	case float32:
		if x != x {
			return nanKey{}, true
		}
		return x + 0, true
	case string, int8, int16, int32, int64, bool, types.Decimal, types.Date, types.Timestamp:
		return x, true
	}
	rv := reflect.ValueOf(v)
	if isNullType(rv.Type()) {
		if !rv.FieldByName("Valid").Bool() {
			return nullKey{}, true
		}
		return distinctKey(rv.FieldByName("V").Interface())
	}
	if rv.Comparable() && rv.Kind() != reflect.Struct {
		return v, true
	}
	return nil, false
}

// ArrayDistinct returns array_distinct(arr): the elements without
// duplicates, in order of first occurrence, one NULL kept. Elements are T
// or types.Null[T].
func ArrayDistinct[E any](arr []E) []E {
	out := make([]E, 0, len(arr))
	seen := make(map[any]struct{}, len(arr))
	for _, x := range arr {
		k, hashable := distinctKey(x)
		if !hashable {
			// Nested values: compare with those kept.
			if !slices.ContainsFunc(out, func(y E) bool { return Compare(x, y) == 0 }) {
				out = append(out, x)
			}
			continue
		}
		if _, dup := seen[k]; !dup {
			seen[k] = struct{}{}
			out = append(out, x)
		}
	}
	return out
}

// ArrayJoin returns array_join(arr, sep) for an array without NULLs.
func ArrayJoin(arr []string, sep string) string { return strings.Join(arr, sep) }

// ArrayJoinNullable returns array_join(arr, sep[, repl]): NULL elements
// are skipped, or replaced by repl when hasRepl.
func ArrayJoinNullable(arr []types.Null[string], sep, repl string, hasRepl bool) string {
	var b strings.Builder
	first := true
	for _, x := range arr {
		s := x.V
		if !x.Valid {
			if !hasRepl {
				continue
			}
			s = repl
		}
		if !first {
			b.WriteString(sep)
		}
		first = false
		b.WriteString(s)
	}
	return b.String()
}

// ArrayMax returns array_max(arr); ok is false (NULL) for an empty array.
func ArrayMax[T any](arr []T) (T, bool) { return extreme(arr, 1) }

// ArrayMin returns array_min(arr); ok is false (NULL) for an empty array.
func ArrayMin[T any](arr []T) (T, bool) { return extreme(arr, -1) }

// ArrayMaxNullable returns array_max(arr) over its non-NULL elements; ok
// is false (NULL) when there are none.
func ArrayMaxNullable[T any](arr []types.Null[T]) (T, bool) { return extremeNullable(arr, 1) }

// ArrayMinNullable returns array_min(arr) over its non-NULL elements; ok
// is false (NULL) when there are none.
func ArrayMinNullable[T any](arr []types.Null[T]) (T, bool) { return extremeNullable(arr, -1) }

func extreme[T any](arr []T, sign int) (T, bool) {
	var best T
	for i, x := range arr {
		if i == 0 || Compare(x, best)*sign > 0 {
			best = x
		}
	}
	return best, len(arr) > 0
}

func extremeNullable[T any](arr []types.Null[T], sign int) (T, bool) {
	var best T
	found := false
	for _, x := range arr {
		if x.Valid && (!found || Compare(x.V, best)*sign > 0) {
			best, found = x.V, true
		}
	}
	return best, found
}

// SortArray returns sort_array(arr, asc) for an array without NULLs.
func SortArray[T any](arr []T, asc bool) []T {
	out := slices.Clone(arr)
	if asc {
		slices.SortStableFunc(out, Compare[T])
	} else {
		slices.SortStableFunc(out, func(a, b T) int { return Compare(b, a) })
	}
	return out
}

// SortArrayNullable returns sort_array(arr, asc): ascending with NULLs
// first, or descending with NULLs last (Spark's SortArray).
func SortArrayNullable[T any](arr []types.Null[T], asc bool) []types.Null[T] {
	out := slices.Clone(arr)
	slices.SortStableFunc(out, func(a, b types.Null[T]) int {
		c := 0
		switch {
		case !a.Valid && !b.Valid:
		case !a.Valid:
			c = -1
		case !b.Valid:
			c = 1
		default:
			c = Compare(a.V, b.V)
		}
		if !asc {
			c = -c
		}
		return c
	})
	return out
}

// Flatten returns flatten(arr) for an array of arrays that holds no NULL array.
func Flatten[T any](arr [][]T) []T {
	n := 0
	for _, a := range arr {
		n += len(a)
	}
	out := make([]T, 0, n)
	for _, a := range arr {
		out = append(out, a...)
	}
	return out
}

// FlattenNullable returns flatten(arr); ok is false (NULL) when one of the
// arrays is NULL.
func FlattenNullable[T any](arr []types.Null[[]T]) ([]T, bool) {
	inner := make([][]T, len(arr))
	for i, a := range arr {
		if !a.Valid {
			return nil, false
		}
		inner[i] = a.V
	}
	return Flatten(inner), true
}

// Slice returns slice(arr, start, length): length elements from the
// 1-based start, a negative start counting from the end; past the end it
// is shorter or empty. Start 0 and a negative length are Spark's errors
// INVALID_PARAMETER_VALUE.START and .LENGTH.
func Slice[T any](arr []T, start, length int32) ([]T, error) {
	switch {
	case start == 0:
		return nil, &Error{Class: "INVALID_PARAMETER_VALUE.START",
			Message: "the start of slice must be a positive or a negative position, not 0", Hint: "the first element is at 1, the last at -1"}
	case length < 0:
		return nil, &Error{Class: "INVALID_PARAMETER_VALUE.LENGTH",
			Message: "the length of slice must not be negative, got " + strconv.Itoa(int(length))}
	}
	n := int64(len(arr))
	from := int64(start) - 1
	if start < 0 {
		from = n + int64(start)
	}
	if from < 0 || from >= n {
		return []T{}, nil
	}
	to := min(from+int64(length), n)
	return slices.Clone(arr[from:to]), nil
}

// SequenceInt returns sequence(start, stop[, step]) of integers: from
// start to stop inclusive by step (by 1 or -1 when !hasStep). A step that
// does not lead from start to stop, and an array longer than Spark's
// maximum, are errors (INVALID_PARAMETER_VALUE).
func SequenceInt[T Integer](start, stop, step T, hasStep bool) ([]T, error) {
	out, ok := sequenceInt(start, stop, step, hasStep)
	if !ok {
		return nil, errSequence(FormatValue(start), FormatValue(stop), FormatValue(step))
	}
	return out, nil
}

func errSequence(start, stop, step string) error {
	return &Error{Class: "INVALID_PARAMETER_VALUE",
		Message: "illegal sequence boundaries: " + start + " to " + stop + " by " + step,
		Hint:    "the step must lead from start to stop (negative to count down), and the array hold at most 2147483632 elements"}
}

func sequenceInt[T Integer](start, stop, step T, hasStep bool) ([]T, bool) {
	if !hasStep {
		step = 1
		if start > stop {
			step = -1
		}
	}
	if start == stop {
		return []T{start}, true
	}
	if step == 0 || (step > 0) != (start < stop) {
		return nil, false
	}
	// Count in int64 steps: (stop-start)/step + 1, without overflow.
	span := float64(stop) - float64(start)
	n := int64(span/float64(step)) + 1
	if n > maxArrayLength || n < 0 {
		return nil, false
	}
	out := make([]T, 0, n)
	for v := int64(start); ; v += int64(step) {
		if step > 0 && v > int64(stop) || step < 0 && v < int64(stop) {
			break
		}
		out = append(out, T(v))
	}
	return out, true
}

// SequenceDate returns sequence(start, stop[, step]) of dates: step is a
// whole number of days (1 or -1 day when !hasStep). A step with a time
// part, a step that does not lead to stop, or too long a result are errors.
func SequenceDate(start, stop types.Date, step types.Interval, hasStep bool) ([]types.Date, error) {
	days := int32(1)
	if hasStep {
		days = int32(step / microsPerDay)
	} else if start > stop {
		days = -1
	}
	seq, ok := sequenceInt(int32(start), int32(stop), days, true)
	if !ok || hasStep && step%microsPerDay != 0 {
		return nil, errSequence(FormatDate(start), FormatDate(stop), FormatInterval(step))
	}
	out := make([]types.Date, len(seq))
	for i, d := range seq {
		out[i] = types.Date(d)
	}
	return out, nil
}

// SequenceTimestamp returns sequence(start, stop[, step]) of timestamps
// (a step of 1 or -1 day when !hasStep).
func SequenceTimestamp(start, stop types.Timestamp, step types.Interval, hasStep bool) ([]types.Timestamp, error) {
	st := int64(step)
	if !hasStep {
		st = microsPerDay
		if start > stop {
			st = -st
		}
	}
	seq, ok := sequenceInt(int64(start), int64(stop), st, true)
	if !ok {
		return nil, errSequence(FormatTimestamp(start), FormatTimestamp(stop), FormatInterval(types.Interval(st)))
	}
	out := make([]types.Timestamp, len(seq))
	for i, t := range seq {
		out[i] = types.Timestamp(t)
	}
	return out, nil
}

// MapKeys returns map_keys(m).
func MapKeys[K, V any](m []types.KV[K, V]) []K {
	out := make([]K, len(m))
	for i, kv := range m {
		out[i] = kv.Key
	}
	return out
}

// MapValues returns map_values(m).
func MapValues[K, V any](m []types.KV[K, V]) []V {
	out := make([]V, len(m))
	for i, kv := range m {
		out[i] = kv.Value
	}
	return out
}

// MapFromArrays returns map_from_arrays(keys, values). Keys are K or
// types.Null[K]; it fails with Spark's errors for arrays of different
// lengths, a NULL key (NULL_MAP_KEY) and a duplicate key
// (DUPLICATED_MAP_KEY, Spark's default spark.sql.mapKeyDedupPolicy).
func MapFromArrays[E, K, V any](keys []E, values []V, key func(E) (K, bool)) ([]types.KV[K, V], error) {
	if len(keys) != len(values) {
		return nil, &Error{Class: "INVALID_PARAMETER_VALUE",
			Message: "map_from_arrays needs arrays of one length: the keys have " + strconv.Itoa(len(keys)) + " elements, the values " + strconv.Itoa(len(values))}
	}
	out := make([]types.KV[K, V], len(keys))
	seen := make(map[any]struct{}, len(keys))
	for i, e := range keys {
		k, ok := key(e)
		if !ok {
			return nil, ErrNullMapKey()
		}
		dk, simple := distinctKey(k)
		if !simple {
			// An ARRAY, STRUCT or MAP key: its canonical encoding.
			dk = GroupKey(k)
		}
		if _, dup := seen[dk]; dup {
			return nil, ErrDuplicateMapKey(k)
		}
		seen[dk] = struct{}{}
		out[i] = types.KV[K, V]{Key: k, Value: values[i]}
	}
	return out, nil
}

// Key returns a key that is never NULL, for MapFromArrays.
func Key[K any](k K) (K, bool) { return k, true }

// NullableKey returns a key that may be NULL, for MapFromArrays.
func NullableKey[K any](k types.Null[K]) (K, bool) { return k.V, k.Valid }

// ErrNullMapKey is the row error of a map built with a NULL key: NULL_MAP_KEY.
func ErrNullMapKey() error {
	return &Error{Class: "NULL_MAP_KEY", Message: "cannot use NULL as a map key", Hint: "filter NULL keys out first, e.g. with filter(keys, k -> k IS NOT NULL)"}
}

// ErrDuplicateMapKey is the row error of a map built with a key twice:
// DUPLICATED_MAP_KEY.
func ErrDuplicateMapKey(k any) error {
	return &Error{Class: "DUPLICATED_MAP_KEY", Message: "duplicate map key " + FormatValue(k) + " was found",
		Hint: "make the keys distinct first, e.g. with array_distinct"}
}
