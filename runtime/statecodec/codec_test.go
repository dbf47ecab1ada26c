package statecodec

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// The shapes generated aggregations keep: unexported part fields, a map
// from a key struct to pointers of accumulators with sets (struct{}
// values), insertion-order slices, NULL-able values and decimals.
type testKey struct {
	F0   types.Date
	F0OK bool
	F1   string
}

type testAcc struct {
	A0      int64
	A0OK    bool
	A1      types.Decimal
	A2      map[string]struct{}
	A2Order []string
	A3      float64
	A4      types.Null[types.Timestamp]
	A5      []byte
	A6      *testAcc
}

type testPart struct {
	groups map[testKey]*testAcc
	order  []testKey
}

func TestAggStateRoundTrip(t *testing.T) {
	in := &testPart{groups: map[testKey]*testAcc{}}
	for i, k := range []testKey{{F0: 19000, F0OK: true, F1: "eu"}, {F1: ""}, {F0: -3, F0OK: true, F1: "naïve"}} {
		in.groups[k] = &testAcc{A0: int64(i*1000 - 7), A0OK: i != 1, A1: types.Decimal{Hi: -1, Lo: 12345}, A3: -0.5 * float64(i),
			A2: map[string]struct{}{"o-1": {}, "o-" + k.F1: {}}, A2Order: []string{"o-1", "o-" + k.F1},
			A4: types.Null[types.Timestamp]{V: 1_700_000_000_000_000, Valid: i == 2}, A5: []byte{byte(i), 0, 255}}
		in.order = append(in.order, k)
	}
	in.groups[in.order[0]].A6 = &testAcc{A0: 42}
	data, err := Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	out := &testPart{}
	if err := Decode(data, out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip:\n%+v\n%+v", in, out)
	}
	// State of another shape is refused, as is a damaged one.
	type otherPart struct {
		groups map[testKey]*testAcc
		order  []string
	}
	if err := Decode(data, &otherPart{}); err == nil || !strings.Contains(err.Error(), "another definition") {
		t.Errorf("decoding into another type: %v", err)
	}
	if err := Decode(data[:len(data)-3], &testPart{}); err == nil {
		t.Error("a truncated state was accepted")
	}
	// A global aggregate's state is the accumulator itself.
	acc := &testAcc{A0: 3}
	data, _ = Encode(acc)
	var back testAcc
	if err := Decode(data, &back); err != nil || back.A0 != 3 || back.A2 != nil {
		t.Errorf("accumulator: %+v, %v", back, err)
	}
}

// BenchmarkAggState encodes and decodes the state of a count(DISTINCT)
// over a million values in 50,000 groups, the benchmark job's view.
func BenchmarkAggState(b *testing.B) {
	in := &testPart{groups: map[testKey]*testAcc{}}
	for g := range 50000 {
		k := testKey{F1: "c-" + strings.Repeat("x", g%7) + string(rune('a'+g%26)) + strconv.Itoa(g)}
		acc := &testAcc{A2: map[string]struct{}{}}
		for j := range 20 {
			s := "o-" + strconv.Itoa(g*20+j)
			acc.A2[s] = struct{}{}
			acc.A2Order = append(acc.A2Order, s)
		}
		in.groups[k] = acc
		in.order = append(in.order, k)
	}
	b.ResetTimer()
	for range b.N {
		data, err := Encode(in)
		if err != nil {
			b.Fatal(err)
		}
		if err := Decode(data, &testPart{}); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
	}
}

// TestAggStateWidened reads a state saved with INT, FLOAT and a set of
// INT into the BIGINT, DOUBLE and set of BIGINT a widened column gives the
// rebuilt program, values unchanged; without widened, or into a type that
// is not a widening of the saved one, the state is refused.
func TestAggStateWidened(t *testing.T) {
	type narrow struct {
		max   int32
		ok    bool
		f     float32
		list  []int32
		set   Set[int32]
		name  string
		small map[int8]int16
	}
	type wide struct {
		max   int64
		ok    bool
		f     float64
		list  []int64
		set   Set[int64]
		name  string
		small map[int64]int32
	}
	in := narrow{max: -2147483648, ok: true, f: 1.5e-7, list: []int32{5, -9, 2147483647}, name: "a", small: map[int8]int16{-128: 32767}}
	in.set.Add(5)
	in.set.Add(-3)
	data, err := Encode(&in)
	if err != nil {
		t.Fatal(err)
	}
	var out wide
	if err := DecodeAs(data, &out, true); err != nil {
		t.Fatal(err)
	}
	if out.max != -2147483648 || !out.ok || out.f != float64(float32(1.5e-7)) || !reflect.DeepEqual(out.list, []int64{5, -9, 2147483647}) ||
		out.name != "a" || !reflect.DeepEqual(out.small, map[int64]int32{-128: 32767}) || out.set.Len() != 2 || !out.set.Has(5) || !out.set.Has(-3) {
		t.Errorf("widened state = %+v", out)
	}
	if err := Decode(data, &out); err == nil {
		t.Error("a narrower state decoded without widened")
	}
	// Back to narrower, or to another kind, is no widening.
	back, err := Encode(&out)
	if err != nil {
		t.Fatal(err)
	}
	var n narrow
	if err := DecodeAs(back, &n, true); err == nil {
		t.Error("a wider state decoded into narrower types")
	}
	one, err := Encode(&struct{ n int32 }{7})
	if err != nil {
		t.Fatal(err)
	}
	var o struct{ n string }
	if err := DecodeAs(one, &o, true); err == nil {
		t.Error("an INT state decoded into a STRING")
	}
}
