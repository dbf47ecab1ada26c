package sql

import "testing"

// TestAggCapsAreConsistent checks the aggregate capability flags of the
// function table: only aggregates have them, and what merges with
// DISTINCT or refreshes incrementally merges without DISTINCT too (the
// generator's merge of partial states is the same code).
func TestAggCapsAreConsistent(t *testing.T) {
	for _, f := range Functions() {
		if f.Agg != 0 && f.Kind != AggregateFunc {
			t.Errorf("%s has aggregate capabilities but is not an aggregate", f.Name)
		}
		if f.Agg&(AggMergeableDistinct|AggDecomposable) != 0 && f.Agg&AggMergeable == 0 {
			t.Errorf("%s is AggMergeableDistinct or AggDecomposable but not AggMergeable", f.Name)
		}
	}
	for _, tc := range []struct {
		call                    AggCall
		mergeable, decomposable bool
	}{
		{AggCall{Func: "count"}, true, true},
		{AggCall{Func: "count", Distinct: true}, true, true},
		{AggCall{Func: "bool_or", Distinct: true}, false, true},
		{AggCall{Func: "collect_list"}, true, false},
		{AggCall{Func: "stddev"}, false, false},
		{AggCall{Func: "no_such_aggregate"}, false, false},
	} {
		if got := tc.call.Mergeable(); got != tc.mergeable {
			t.Errorf("%+v.Mergeable() = %v, want %v", tc.call, got, tc.mergeable)
		}
		if got := tc.call.Decomposable(); got != tc.decomposable {
			t.Errorf("%+v.Decomposable() = %v, want %v", tc.call, got, tc.decomposable)
		}
	}
}
