package sqlfn

import (
	"math"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// Spark groups maps with the same entries together whatever their order
// (group-by.sql: GROUP BY a over map(1, 2, 2, 3) and map(2, 3, 1, 2)),
// and normalizes NaN and -0.0.
func TestGroupKey(t *testing.T) {
	m := func(kvs ...int32) []types.KV[int32, int32] {
		var out []types.KV[int32, int32]
		for i := 0; i < len(kvs); i += 2 {
			out = append(out, types.KV[int32, int32]{Key: kvs[i], Value: kvs[i+1]})
		}
		return out
	}
	if GroupKey(m(1, 2, 2, 3)) != GroupKey(m(2, 3, 1, 2)) {
		t.Error("maps with the same entries in another order must group together")
	}
	if GroupKey(m(1, 2)) == GroupKey(m(1, 3)) || GroupKey(m(1, 2)) == GroupKey(m(1, 2, 2, 3)) {
		t.Error("maps with other entries must not group together")
	}
	arrays := [][][]types.KV[int32, int32]{{m(1, 2, 2, 3), m(1, 3)}, {m(2, 3, 1, 2), m(1, 3)}, {m(1, 3), m(2, 3, 1, 2)}}
	if GroupKey(arrays[0]) != GroupKey(arrays[1]) || GroupKey(arrays[0]) == GroupKey(arrays[2]) {
		t.Error("arrays of maps: element order matters, entry order does not")
	}
	if GroupKey([]float64{math.Copysign(0, -1), math.NaN()}) != GroupKey([]float64{0, -math.NaN()}) {
		t.Error("-0.0 and 0.0, and every NaN, group together")
	}
	if GroupKey([]string{"ab", "c"}) == GroupKey([]string{"a", "bc"}) {
		t.Error("strings must be delimited")
	}
	if _, err := MapFromArrays([][]int32{{1, 2}, {2, 3}}, []int32{2, 3}, Key[[]int32]); err != nil {
		t.Errorf("map with array keys: %v", err)
	}
	if _, err := MapFromArrays([][]int32{{1, 2}, {1, 2}}, []int32{2, 3}, Key[[]int32]); err == nil {
		t.Error("a duplicate array key must fail (DUPLICATED_MAP_KEY)")
	}
}
