package sqlfn

import (
	"fmt"
	"math"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

func TestArraySort(t *testing.T) {
	in := []float64{3, math.NaN(), -1, math.Inf(1), 0}
	got := ArraySort(in)
	if s := fmt.Sprint(got); s != "[-1 0 3 +Inf NaN]" {
		t.Errorf("ArraySort = %s, want NaN after +Inf (Spark's ordering)", s)
	}
	if in[0] != 3 {
		t.Errorf("ArraySort sorted its input in place: %v", in)
	}
	nulls := []types.Null[string]{types.Some("b"), {}, types.Some("B"), types.Some("a"), {}}
	var out []string
	for _, x := range ArraySortNullsLast(nulls) {
		out = append(out, formatElement(x))
	}
	if s := fmt.Sprint(out); s != "['B' 'a' 'b' NULL NULL]" {
		t.Errorf("ArraySortNullsLast = %s, want binary order with NULLs last", s)
	}
	err := ErrComparatorReturnsNull(types.Null[int32]{}, types.Some(int32(5)))
	if want := "[COMPARATOR_RETURNS_NULL] the comparator has returned NULL for a comparison between NULL and 5"; err.Error()[:len(want)] != want {
		t.Errorf("ErrComparatorReturnsNull = %v", err)
	}
}
