package statecodec

import (
	"bytes"
	"slices"
	"sort"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

type setState struct {
	Names Set[string]
	Days  Set[types.Date]
	Money Set[types.Decimal]
	Empty Set[int64]
}

func sortedKeysOf[K comparable](s *Set[K], less func(a, b K) int) []K {
	k := s.Keys()
	slices.SortFunc(k, less)
	return k
}

func TestSetStateRoundTrip(t *testing.T) {
	var st setState
	for _, n := range []string{"b", "a", "b", "", "é"} {
		st.Names.Add(n)
	}
	st.Days.Add(types.Date(19000))
	st.Days.Add(types.Date(-3))
	st.Money.Add(types.DecimalFromInt64(125))
	data, err := Encode(&st)
	if err != nil {
		t.Fatal(err)
	}
	var got setState
	if err := Decode(data, &got); err != nil {
		t.Fatal(err)
	}
	// Saved sets stay encoded until changed; their size is known.
	if got.Names.raw == nil || got.Names.Len() != 4 || got.Days.Len() != 2 || got.Money.Len() != 1 || got.Empty.Len() != 0 {
		t.Fatalf("decoded lens %d %d %d %d (raw %v)", got.Names.Len(), got.Days.Len(), got.Money.Len(), got.Empty.Len(), got.Names.raw != nil)
	}
	// Saving an untouched set copies its bytes: same encoding.
	again, err := Encode(&got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, data) {
		t.Error("re-encoding an untouched state changed it")
	}
	got.Names.Add("a")
	got.Names.Add("c")
	if got.Names.raw != nil {
		t.Error("a changed set is still encoded")
	}
	if k := sortedKeysOf(&got.Names, func(a, b string) int { return bytes.Compare([]byte(a), []byte(b)) }); !slices.Equal(k, []string{"", "a", "b", "c", "é"}) {
		t.Errorf("names %q", k)
	}
	days := got.Days.Keys()
	sort.Slice(days, func(i, j int) bool { return days[i] < days[j] })
	if !slices.Equal(days, []types.Date{-3, 19000}) {
		t.Errorf("days %v", days)
	}
	if !got.Money.Has(types.DecimalFromInt64(125)) {
		t.Error("decimal set lost its element")
	}
}

func TestSetUnion(t *testing.T) {
	var a, b, c Set[string]
	a.Add("x")
	b.Add("x")
	b.Add("y")
	c.Union(&b) // empty: takes b as it is
	a.Union(&c)
	if a.Len() != 2 || !a.Has("y") {
		t.Errorf("union has %v", a.Keys())
	}
}

func TestSetStateCorrupt(t *testing.T) {
	var st setState
	st.Names.Add("abc")
	data, err := Encode(&st)
	if err != nil {
		t.Fatal(err)
	}
	for cut := 1; cut < len(data); cut++ {
		var got setState
		if err := Decode(data[:cut], &got); err == nil {
			t.Errorf("a state cut at %d bytes was accepted", cut)
		}
	}
}
