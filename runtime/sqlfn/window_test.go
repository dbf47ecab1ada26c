package sqlfn

import (
	"fmt"
	"testing"
)

func frameText(f *Frames) string {
	s := ""
	for i := range f.Lo {
		s += fmt.Sprintf("[%d,%d)", f.Lo[i], f.Hi[i])
	}
	return s
}

// TestRangeFrames checks RANGE frames with offsets, in both directions,
// with NULL keys first or last (they are each other's frame).
func TestRangeFrames(t *testing.T) {
	var f Frames
	// Ascending keys 1 2 2 5, NULLs last: 1 PRECEDING AND CURRENT ROW.
	RangeFrames(&f, []int64{1, 2, 2, 5, 0}, []bool{true, true, true, true, false}, false,
		Bound[int64]{Kind: Preceding, Offset: 1}, Bound[int64]{Kind: CurrentRow})
	if got, want := frameText(&f), "[0,1)[0,3)[0,3)[3,4)[4,5)"; got != want {
		t.Errorf("asc: %s, want %s", got, want)
	}
	// Descending keys 5 2 2 1 with a NULL first: CURRENT ROW AND 3 FOLLOWING.
	RangeFrames(&f, []int64{0, 5, 2, 2, 1}, []bool{false, true, true, true, true}, true,
		Bound[int64]{Kind: CurrentRow}, Bound[int64]{Kind: Following, Offset: 3})
	if got, want := frameText(&f), "[0,1)[1,4)[2,5)[2,5)[4,5)"; got != want {
		t.Errorf("desc: %s, want %s", got, want)
	}
	// UNBOUNDED PRECEDING AND 1 PRECEDING over doubles.
	RangeFrames(&f, []float64{0.5, 1, 2.5}, []bool{true, true, true}, false,
		Bound[float64]{Kind: UnboundedPreceding}, Bound[float64]{Kind: Preceding, Offset: 1})
	if got, want := frameText(&f), "[0,0)[0,0)[0,2)"; got != want {
		t.Errorf("unbounded: %s, want %s", got, want)
	}
	f.RowFrames(4, Bound[int64]{Kind: Preceding, Offset: 1}, Bound[int64]{Kind: Following, Offset: 1})
	if got, want := frameText(&f), "[0,2)[0,3)[1,4)[2,4)"; got != want {
		t.Errorf("rows: %s, want %s", got, want)
	}
	keys := []int{1, 1, 2, 3, 3}
	f.PeerFrames(5, UnboundedPreceding, CurrentRow, func(i, j int) bool { return keys[i] == keys[j] })
	if got, want := frameText(&f), "[0,2)[0,2)[0,3)[0,5)[0,5)"; got != want {
		t.Errorf("peers: %s, want %s", got, want)
	}
}

// TestNTile checks ntile's buckets: sizes differ by at most one, the
// larger first, and each row has its own bucket when there are more
// buckets than rows.
func TestNTile(t *testing.T) {
	for _, tt := range []struct {
		n, k int
		want string
	}{
		{10, 3, "1 1 1 1 2 2 2 3 3 3 "},
		{3, 5, "1 2 3 "},
		{4, 4, "1 2 3 4 "},
	} {
		got := ""
		for i := range tt.n {
			got += fmt.Sprint(NTile(i, tt.n, tt.k), " ")
		}
		if got != tt.want {
			t.Errorf("ntile(%d) of %d rows: %s, want %s", tt.k, tt.n, got, tt.want)
		}
	}
}
