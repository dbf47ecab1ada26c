package statecodec

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// The shapes of a saved state as generated code declares them: a
// GROUP_AGGREGATE view's part (groups and their order) whose accumulators
// hold sets of every compact element kind and of a DECIMAL, numbers of
// every width, NULL-able values, bytes, arrays and a pointer.
type goldenAcc struct {
	A0    Set[string]
	A1    int64
	A1OK  bool
	A2    types.Decimal
	A2OK  bool
	A3    types.Null[types.Timestamp]
	Days  Set[types.Date]
	Times Set[types.Timestamp]
	Ints  Set[int32]
	Flags Set[bool]
	Money Set[types.Decimal]
	Empty Set[int64]
	Small int8
	Mid   int16
	Word  uint32
	F32   float32
	F64   float64
	Raw   []byte
	Names map[string]struct{}
	Order []string
	Fixed [2]int16
	First *goldenKey
}

type goldenKey struct {
	F0   types.Date
	F0OK bool
	F1   string
	F1OK bool
}

type goldenPart struct {
	groups map[goldenKey]*goldenAcc
	order  []goldenKey
}

// goldenSignature is the type description at the head of the golden
// state: kinds and field names only (Set's m, raw and n included).
const goldenSignature = "{groups:map[{F0:int32;F0OK:bool;F1:string;F1OK:bool;}]*{" +
	"A0:{m:map[string]{};raw:[]uint8;n:int;};A1:int64;A1OK:bool;A2:{Hi:int64;Lo:uint64;};A2OK:bool;A3:{V:int64;Valid:bool;};" +
	"Days:{m:map[int32]{};raw:[]uint8;n:int;};Times:{m:map[int64]{};raw:[]uint8;n:int;};Ints:{m:map[int32]{};raw:[]uint8;n:int;};" +
	"Flags:{m:map[bool]{};raw:[]uint8;n:int;};Money:{m:map[{Hi:int64;Lo:uint64;}]{};raw:[]uint8;n:int;};Empty:{m:map[int64]{};raw:[]uint8;n:int;};" +
	"Small:int8;Mid:int16;Word:uint32;F32:float32;F64:float64;Raw:[]uint8;Names:map[string]{};Order:[]string;Fixed:[2]int16;First:*{F0:int32;F0OK:bool;F1:string;F1OK:bool;};};order:[]{F0:int32;F0OK:bool;F1:string;F1OK:bool;};}"

// goldenState is the value of testdata/state.golden. Its maps and sets
// hold one entry each, so that its encoding is one byte sequence
// (goldenSets has sets of several elements).
func goldenState() *goldenPart {
	k := goldenKey{F0: 19000, F0OK: true, F1: "naïve", F1OK: true}
	acc := &goldenAcc{A1: -7, A1OK: true, A2: types.Decimal{Hi: -1, Lo: 12345}, A2OK: true,
		A3:    types.Null[types.Timestamp]{V: 1_700_000_000_000_000, Valid: true},
		Small: -128, Mid: 32767, Word: 4_000_000_000, F32: 1.5e-7, F64: -0.25,
		Raw: []byte{0, 255, 7}, Names: map[string]struct{}{"o-1": {}}, Order: []string{"o-1", ""},
		Fixed: [2]int16{-1, 2}, First: &goldenKey{F1: "eu"}}
	acc.A0.Add("é")
	acc.Days.Add(-3)
	acc.Times.Add(-1_000_000)
	acc.Ints.Add(-2147483648)
	acc.Flags.Add(true)
	acc.Money.Add(types.DecimalFromInt64(125))
	return &goldenPart{groups: map[goldenKey]*goldenAcc{k: acc}, order: []goldenKey{k}}
}

// goldenSets is the value of testdata/sets.golden: sets of several
// elements, whose encoded order only a decoded set keeps.
type goldenSets struct {
	Names Set[string]
	Days  Set[types.Date]
	Ints  Set[int64]
	Flags Set[bool]
}

const goldenSetsSignature = "{Names:{m:map[string]{};raw:[]uint8;n:int;};Days:{m:map[int32]{};raw:[]uint8;n:int;};" +
	"Ints:{m:map[int64]{};raw:[]uint8;n:int;};Flags:{m:map[bool]{};raw:[]uint8;n:int;};}"

// TestStateGolden reads states saved by an earlier pipegen (testdata/*.golden,
// never rewritten: checkpoints on disk hold such bytes): each decodes to
// the value it was written from and encodes back byte for byte, and
// goldenState's fresh encoding is its golden file.
func TestStateGolden(t *testing.T) {
	if sig := typeSignature(reflect.TypeFor[goldenPart]()); sig != goldenSignature {
		t.Errorf("type signature\n got %s\nwant %s", sig, goldenSignature)
	}
	if sig := typeSignature(reflect.TypeFor[goldenSets]()); sig != goldenSetsSignature {
		t.Errorf("type signature\n got %s\nwant %s", sig, goldenSetsSignature)
	}
	data := readGolden(t, "state.golden")
	fresh, err := Encode(goldenState())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, data) {
		t.Errorf("encoding goldenState:\n got %x\nwant %x", fresh, data)
	}
	var got goldenPart
	if err := Decode(data, &got); err != nil {
		t.Fatal(err)
	}
	if again, err := Encode(&got); err != nil || !bytes.Equal(again, data) {
		t.Errorf("re-encoding the golden state: %v\n got %x\nwant %x", err, again, data)
	}
	want := goldenState()
	g, w := got.groups[want.order[0]], want.groups[want.order[0]]
	if len(got.groups) != 1 || !slices.Equal(got.order, want.order) || g == nil {
		t.Fatalf("groups %v, order %v", got.groups, got.order)
	}
	if !sameSet(&g.A0, &w.A0) || !sameSet(&g.Days, &w.Days) || !sameSet(&g.Times, &w.Times) || !sameSet(&g.Ints, &w.Ints) ||
		!sameSet(&g.Flags, &w.Flags) || !sameSet(&g.Money, &w.Money) || g.Empty.Len() != 0 {
		t.Errorf("sets differ: %+v", g)
	}
	for _, a := range []*goldenAcc{g, w} {
		a.A0, a.Days, a.Times, a.Ints, a.Flags, a.Money = Set[string]{}, Set[types.Date]{}, Set[types.Timestamp]{}, Set[int32]{}, Set[bool]{}, Set[types.Decimal]{}
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("decoded\n%+v\nwant\n%+v", g, w)
	}

	data = readGolden(t, "sets.golden")
	var sets goldenSets
	if err := Decode(data, &sets); err != nil {
		t.Fatal(err)
	}
	if again, err := Encode(&sets); err != nil || !bytes.Equal(again, data) {
		t.Errorf("re-encoding the golden sets: %v\n got %x\nwant %x", err, again, data)
	}
	ws := newGoldenSets()
	if !sameSet(&sets.Names, &ws.Names) || !sameSet(&sets.Days, &ws.Days) || !sameSet(&sets.Ints, &ws.Ints) || !sameSet(&sets.Flags, &ws.Flags) {
		t.Errorf("sets %v %v %v %v", sets.Names.Keys(), sets.Days.Keys(), sets.Ints.Keys(), sets.Flags.Keys())
	}
}

func newGoldenSets() *goldenSets {
	var s goldenSets
	for _, n := range []string{"b", "a", "", "é"} {
		s.Names.Add(n)
	}
	s.Days.Add(-3)
	s.Days.Add(19000)
	s.Ints.Add(-1 << 63)
	s.Ints.Add(0)
	s.Ints.Add(1<<63 - 1)
	s.Flags.Add(true)
	s.Flags.Add(false)
	return &s
}

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sameSet reports whether a and b hold the same elements.
func sameSet[K comparable](a, b *Set[K]) bool {
	if a.Len() != b.Len() {
		return false
	}
	ok := true
	a.Each(func(k K) { ok = ok && b.Has(k) })
	return ok
}
