package runtime

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// The AUTO CDC reference example of the Databricks documentation ("SCD
// type 1 and SCD type 2 processing", transcribed in the team's
// cases/auto-cdc.md): table A is the change feed, tables B to E the
// expected results, copied here as values.

// refChange is one row of table A.
type refChange struct {
	userID int32
	name   string // "" is NULL
	city   string
	op     string
	seq    int64
}

var refFeed = []refChange{
	{124, "Raul", "Oaxaca", "INSERT", 1},
	{123, "Isabel", "Monterrey", "INSERT", 1},
	{125, "Mercedes", "Tijuana", "INSERT", 2},
	{126, "Lily", "Cancun", "INSERT", 2},
	{123, "", "", "DELETE", 6},
	{125, "Mercedes", "Guadalajara", "UPDATE", 6},
	{125, "Mercedes", "Mexicali", "UPDATE", 5},
	{123, "Isabel", "Chihuahua", "UPDATE", 5},
}

var refTruncate = refChange{0, "", "", "TRUNCATE", 3}

var (
	refB = []string{"124 | Raul | Oaxaca", "125 | Mercedes | Guadalajara", "126 | Lily | Cancun"}
	refC = []string{"125 | Mercedes | Guadalajara"}
	refD = []string{
		"123 | Isabel | Monterrey | 1 | 5",
		"123 | Isabel | Chihuahua | 5 | 6",
		"124 | Raul | Oaxaca | 1 | NULL",
		"125 | Mercedes | Tijuana | 2 | 5",
		"125 | Mercedes | Mexicali | 5 | 6",
		"125 | Mercedes | Guadalajara | 6 | NULL",
		"126 | Lily | Cancun | 2 | NULL",
	}
	refE = []string{
		"123 | Isabel | Chihuahua | 1 | 6",
		"124 | Raul | Oaxaca | 1 | NULL",
		"125 | Mercedes | Guadalajara | 2 | NULL",
		"126 | Lily | Cancun | 2 | NULL",
	}
)

func sorted(rows []string) []string {
	out := slices.Clone(rows)
	slices.Sort(out)
	return out
}

// refSpec returns the spec of the example's flow: keys userId, sequence_by
// sequenceNum, except_columns operation and sequenceNum; trackExceptCity
// is table E's track_history_except_columns: [city].
func refSpec(scd2, trackExceptCity bool) *cdcSpec {
	data := types.Schema{
		{Name: "userId", Type: types.IntType, Nullable: true},
		{Name: "name", Type: types.StringType, Nullable: true},
		{Name: "city", Type: types.StringType, Nullable: true},
	}
	s := &cdcSpec{flow: "users", target: "users", data: data, schema: data, keys: []int{0}, seqType: types.LongType,
		scd2: scd2, tracked: []bool{true, true, true}, tombstoneTTL: DefaultTombstoneTTL}
	if scd2 {
		s.schema = append(slices.Clone(data),
			types.Field{Name: "__START_AT", Type: types.LongType, Nullable: true},
			types.Field{Name: "__END_AT", Type: types.LongType, Nullable: true})
	}
	if trackExceptCity {
		s.tracked[2] = false
	}
	return s
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// changesOf converts rows of table A into a micro-batch.
func changesOf(s *cdcSpec, feed []refChange, now int64) ([]cdcChange, []byte) {
	var out []cdcChange
	var trunc []byte
	for _, c := range feed {
		if c.op == "TRUNCATE" {
			if enc := appendOrdered(nil, c.seq, s.seqType); bytes.Compare(enc, trunc) > 0 {
				trunc = enc
			}
			continue
		}
		data := []any{c.userID, nullable(c.name), nullable(c.city)}
		var row []any
		if c.op != "DELETE" {
			row = data
		}
		out = append(out, cdcChange{key: appendTuple(nil, data, s.data, s.keys), rec: s.newRecord(c.seq, row, now)})
	}
	return out, trunc
}

// memTable is an AUTO CDC target kept in memory as one leaf: the merge
// logic without storage. replica applies each batch's change data feed to
// the previous rows, to check that the feed describes the table.
type memTable struct {
	spec    *cdcSpec
	entries []cdcEntry
	trunc   []byte
	replica rowBag
	changes int
}

func newMemTable(s *cdcSpec) *memTable { return &memTable{spec: s, replica: rowBag{}} }

// rowBag is a multiset of rows, as text, that a change data feed is
// replayed into.
type rowBag map[string]int

// apply applies one change data feed row; it fails the test when the feed
// removes a row the bag does not hold.
func (b rowBag) apply(t testing.TB, kind, row string) {
	t.Helper()
	switch kind {
	case delta.ChangeInsert, delta.ChangeUpdatePostimage:
		b[row]++
	default:
		if b[row] == 0 {
			t.Fatalf("the change data feed has a %s of a row the table does not hold: %s", kind, row)
		}
		b[row]--
	}
}

// rows returns the bag's rows, sorted.
func (b rowBag) rows() []string {
	var out []string
	for r, n := range b {
		for range n {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

func (m *memTable) apply(t testing.TB, feed []refChange, now int64) {
	changes, trunc := changesOf(m.spec, feed, now)
	byKey := map[string][]cdcRecord{}
	for _, c := range changes {
		byKey[string(c.key)] = append(byKey[string(c.key)], c.rec)
	}
	var keys [][]byte
	for k, recs := range byKey {
		byKey[k] = sortRecords(recs)
		keys = append(keys, []byte(k))
	}
	slices.SortFunc(keys, bytes.Compare)
	retruncate := trunc != nil && bytes.Compare(trunc, m.trunc) > 0
	if retruncate {
		m.trunc = trunc
	}
	r := m.spec.mergeLeaf(m.entries, keys, byKey, m.trunc, retruncate, now)
	m.entries = r.entries
	m.changes += len(r.changes)
	for _, c := range r.changes {
		m.replica.apply(t, c.kind, parquetio.FormatRow(c.row, m.spec.schema))
	}
}

func (m *memTable) rows() []string {
	var out []string
	for _, e := range m.entries {
		for _, r := range e.rows {
			out = append(out, parquetio.FormatRow(r, m.spec.schema))
		}
	}
	slices.Sort(out)
	return out
}

// checkHistory checks the SCD2 invariants: at most one open row per key and
// no two versions of a key whose intervals overlap.
func checkHistory(t testing.TB, rows []string) {
	t.Helper()
	type interval struct{ start, end int64 }
	byKey := map[string][]interval{}
	for _, r := range rows {
		f := strings.Split(r, " | ")
		var iv interval
		fmt.Sscan(f[len(f)-2], &iv.start)
		iv.end = 1 << 62
		if f[len(f)-1] != "NULL" {
			fmt.Sscan(f[len(f)-1], &iv.end)
		}
		if iv.start >= iv.end {
			t.Errorf("empty or inverted interval: %s", r)
		}
		byKey[f[0]] = append(byKey[f[0]], iv)
	}
	for k, ivs := range byKey {
		open := 0
		for i, a := range ivs {
			if a.end == 1<<62 {
				open++
			}
			for _, b := range ivs[i+1:] {
				if a.start < b.end && b.start < a.end {
					t.Errorf("key %s: intervals [%d,%d) and [%d,%d) overlap", k, a.start, a.end, b.start, b.end)
				}
			}
		}
		if open > 1 {
			t.Errorf("key %s has %d open rows", k, open)
		}
	}
}

// splits cuts feed into consecutive micro-batches at the set bits of mask
// (bit i: a batch ends after row i).
func splits(feed []refChange, mask uint) [][]refChange {
	var out [][]refChange
	start := 0
	for i := range feed {
		if i == len(feed)-1 || mask&(1<<i) != 0 {
			out = append(out, feed[start:i+1])
			start = i + 1
		}
	}
	return out
}

// permutations calls fn with every order of feed (Heap's algorithm).
func permutations(feed []refChange, fn func([]refChange)) {
	a := slices.Clone(feed)
	c := make([]int, len(a))
	fn(a)
	for i := 0; i < len(a); {
		if c[i] < i {
			if i%2 == 0 {
				a[0], a[i] = a[i], a[0]
			} else {
				a[c[i]], a[i] = a[i], a[c[i]]
			}
			fn(a)
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

// refCases are the results B to E: the flow's settings, its input and the
// expected rows.
var refCases = []struct {
	name            string
	scd2, trackCity bool
	feed            []refChange
	want            []string
}{
	{"B_scd1", false, false, refFeed, refB},
	{"C_scd1_truncate", false, false, append(slices.Clone(refFeed), refTruncate), refC},
	{"D_scd2", true, false, refFeed, refD},
	{"E_scd2_track_except_city", true, true, refFeed, refE},
}

func TestCDCReferenceEveryOrderAndSplit(t *testing.T) {
	for _, tc := range refCases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(tc.name))))
			want := sorted(tc.want)
			check := func(order []refChange, mask uint) {
				m := newMemTable(refSpec(tc.scd2, tc.trackCity))
				now := time.Now().UnixMilli()
				for _, b := range splits(order, mask) {
					m.apply(t, b, now)
				}
				got := m.rows()
				if !slices.Equal(got, want) {
					t.Fatalf("order %v split %b:\n got %q\nwant %q", order, mask, got, want)
				}
				if r := m.replica.rows(); !slices.Equal(r, got) {
					t.Fatalf("order %v split %b: the change data feed gives %q, the table %q", order, mask, r, got)
				}
				if tc.scd2 {
					checkHistory(t, got)
				}
				// Re-delivering changes already applied changes nothing.
				before := m.changes
				m.apply(t, order[:1+rng.IntN(len(order))], now)
				if again := m.rows(); !slices.Equal(again, want) || m.changes != before {
					t.Fatalf("order %v: re-delivering changes gave %q and %d feed rows", order, again, m.changes-before)
				}
			}
			// Every split of the listed order into consecutive batches.
			for mask := uint(0); mask < 1<<(len(tc.feed)-1); mask++ {
				check(tc.feed, mask)
			}
			// Every arrival order (a sample of them with the truncate row),
			// each cut at random.
			n := 0
			permutations(tc.feed, func(order []refChange) {
				n++
				if len(tc.feed) > 8 && rng.IntN(20) != 0 {
					return
				}
				check(order, uint(rng.IntN(1<<(len(order)-1))))
			})
			if n < 40320 {
				t.Fatalf("%d orders, want at least 8!", n)
			}
		})
	}
}

func TestCDCTieBreakIsDeterministic(t *testing.T) {
	// Equal sequence values for one key: a delete beats an upsert, and of
	// two upserts the one whose values sort last wins, in every order.
	feed := []refChange{
		{1, "a", "x", "UPSERT", 5},
		{1, "b", "x", "UPSERT", 5},
		{2, "a", "x", "UPSERT", 5},
		{2, "", "", "DELETE", 5},
		{3, "z", "y", "UPSERT", 4},
	}
	for _, scd2 := range []bool{false, true} {
		var first []string
		permutations(feed, func(order []refChange) {
			for mask := uint(0); mask < 1<<(len(order)-1); mask++ {
				m := newMemTable(refSpec(scd2, false))
				for _, b := range splits(order, mask) {
					m.apply(t, b, 0)
				}
				got := m.rows()
				if first == nil {
					first = got
				} else if !slices.Equal(got, first) {
					t.Fatalf("scd2=%t order %v split %b: %q, other orders gave %q", scd2, order, mask, got, first)
				}
			}
		})
		want := []string{"1 | b | x", "3 | z | y"}
		if scd2 {
			want = []string{"1 | b | x | 5 | NULL", "3 | z | y | 4 | NULL"}
		}
		if !slices.Equal(first, want) {
			t.Errorf("scd2=%t: %q, want %q", scd2, first, want)
		}
	}
}

func TestCDCIgnoreNullUpdates(t *testing.T) {
	feed := []refChange{
		{1, "Ana", "Lima", "INSERT", 1},
		{1, "", "Quito", "UPDATE", 2},
		{1, "Eva", "", "UPDATE", 3},
	}
	for _, tc := range []struct {
		scd2 bool
		want []string
	}{
		{false, []string{"1 | Eva | Quito"}},
		{true, []string{"1 | Ana | Lima | 1 | 2", "1 | Ana | Quito | 2 | 3", "1 | Eva | Quito | 3 | NULL"}},
	} {
		// Within one batch and one change per batch alike.
		for _, mask := range []uint{0, 0b11} {
			s := refSpec(tc.scd2, false)
			s.ignoreNulls = true
			m := newMemTable(s)
			for _, b := range splits(feed, mask) {
				m.apply(t, b, 0)
			}
			if got := m.rows(); !slices.Equal(got, tc.want) {
				t.Errorf("scd2=%t split %b: %q, want %q", tc.scd2, mask, got, tc.want)
			}
		}
	}
}

func TestCDCNoOpUpdateWritesNoVersion(t *testing.T) {
	m := newMemTable(refSpec(true, false))
	m.apply(t, []refChange{{1, "Ana", "Lima", "INSERT", 1}}, 0)
	before := m.changes
	m.apply(t, []refChange{{1, "Ana", "Lima", "UPDATE", 2}}, 0)
	if got := m.rows(); !slices.Equal(got, []string{"1 | Ana | Lima | 1 | NULL"}) || m.changes != before {
		t.Errorf("an update that changes nothing: %q, %d change feed rows", got, m.changes-before)
	}
}

func TestCDCTombstoneRetention(t *testing.T) {
	day := int64(24 * time.Hour / time.Millisecond)
	s := refSpec(false, false)
	s.tombstoneTTL = 2 * 24 * time.Hour
	m := newMemTable(s)
	m.apply(t, []refChange{{1, "", "", "DELETE", 10}}, 0)
	// A late upsert within the retention cannot bring the key back.
	m.apply(t, []refChange{{1, "Ana", "Lima", "INSERT", 5}}, day)
	if got := m.rows(); len(got) != 0 {
		t.Fatalf("resurrected within the retention: %q", got)
	}
	// Past the retention the tombstone is dropped when the leaf is next
	// rewritten; a late upsert after that is applied.
	m.apply(t, []refChange{{2, "Eva", "Quito", "INSERT", 1}}, 3*day)
	m.apply(t, []refChange{{1, "Ana", "Lima", "INSERT", 5}}, 3*day)
	if got := m.rows(); !slices.Equal(got, []string{"1 | Ana | Lima", "2 | Eva | Quito"}) {
		t.Fatalf("after the retention: %q", got)
	}
}

func TestOrderedEncoding(t *testing.T) {
	cases := []struct {
		t    types.Type
		vals []any // ascending
	}{
		{types.LongType, []any{nil, int64(-1 << 63), int64(-5), int64(0), int64(7), int64(1<<63 - 1)}},
		{types.DoubleType, []any{nil, -1e300, -1.5, 0.0, 2.5, 1e300, math.Inf(1)}},
		{types.StringType, []any{nil, "", "a", "a\x00", "a\x00b", "ab", "b"}},
		{types.DecimalOf(20, 2), []any{types.DecimalFromInt64(-300), types.DecimalFromInt64(-1), types.DecimalFromInt64(0), types.Decimal{Hi: 1, Lo: 0}}},
		{types.StructOf(types.Field{Name: "a", Type: types.LongType, Nullable: true}, types.Field{Name: "b", Type: types.IntType, Nullable: true}),
			[]any{parquetio.Struct{int64(1), int32(9)}, parquetio.Struct{int64(2), int32(0)}, parquetio.Struct{int64(2), int32(1)}}},
	}
	for _, c := range cases {
		for i := 1; i < len(c.vals); i++ {
			a, b := appendOrdered(nil, c.vals[i-1], c.t), appendOrdered(nil, c.vals[i], c.t)
			if bytes.Compare(a, b) >= 0 {
				t.Errorf("%s: %v does not sort below %v", c.t, c.vals[i-1], c.vals[i])
			}
		}
	}
	if !bytes.Equal(appendOrdered(nil, 0.0, types.DoubleType), appendOrdered(nil, math.Copysign(0, -1), types.DoubleType)) {
		t.Error("-0.0 and 0.0 differ")
	}
}
