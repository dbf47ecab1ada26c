package cdc_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/cdc"
	"github.com/pipegen/pipegen/runtime/cdc/cdctest"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// The merge tests run the AUTO CDC reference example of the Databricks
// documentation (cdctest) in memory, in every order and split.

// refSpec returns the spec of the example's flow: keys userId, sequence_by
// sequenceNum, except_columns operation and sequenceNum; trackExceptCity
// is table E's track_history_except_columns: [city].
func refSpec(t testing.TB, scd2, trackExceptCity, ignoreNulls bool, ttl time.Duration) *cdc.Spec {
	c := cdc.Config{Flow: "users", Target: "users", Schema: cdctest.Schema(scd2), Keys: []string{"userId"},
		SequenceBy: []string{"sequenceNum"}, SequenceType: types.LongType, SCD2: scd2, IgnoreNullUpdates: ignoreNulls, TombstoneTTL: ttl}
	if trackExceptCity {
		c.TrackHistory = []string{"userId", "name"}
	}
	s, err := cdc.NewSpec(c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// batchOf converts rows of table A into a micro-batch.
func batchOf(t testing.TB, s *cdc.Spec, feed []cdctest.Change, now int64) *cdc.Batch {
	b := s.NewBatch()
	for _, c := range feed {
		if c.Op == "TRUNCATE" {
			b.Truncate(c.Seq)
			continue
		}
		data := []any{c.UserID, nullable(c.Name), nullable(c.City)}
		var err error
		if c.Op == "DELETE" {
			err = b.Delete(c.Seq, data, now)
		} else {
			err = b.Upsert(c.Seq, data, now)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// memTable is an AUTO CDC target kept in memory as one leaf: the merge
// logic without storage. replica applies each batch's change data feed to
// the previous rows, to check that the feed describes the table.
type memTable struct {
	spec    *cdc.Spec
	schema  types.Schema
	t       *cdc.MemTable
	replica cdctest.RowBag
	changes int
}

func newMemTable(s *cdc.Spec, scd2 bool) *memTable {
	return &memTable{spec: s, schema: cdctest.Schema(scd2), t: cdc.NewMemTable(s), replica: cdctest.RowBag{}}
}

func (m *memTable) apply(t testing.TB, feed []cdctest.Change, now int64) {
	changes := m.t.Apply(batchOf(t, m.spec, feed, now), now)
	m.changes += len(changes)
	for _, c := range changes {
		m.replica.Apply(t, c.Kind, parquetio.FormatRow(c.Row, m.schema))
	}
}

func (m *memTable) rows() []string {
	var out []string
	for _, r := range m.t.Rows() {
		out = append(out, parquetio.FormatRow(r, m.schema))
	}
	slices.Sort(out)
	return out
}

// permutations calls fn with every order of feed (Heap's algorithm).
func permutations(feed []cdctest.Change, fn func([]cdctest.Change)) {
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

func TestCDCReferenceEveryOrderAndSplit(t *testing.T) {
	for _, tc := range cdctest.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(tc.Name))))
			want := cdctest.Sorted(tc.Want)
			check := func(order []cdctest.Change, mask uint) {
				m := newMemTable(refSpec(t, tc.SCD2, tc.TrackCity, false, cdc.DefaultTombstoneTTL), tc.SCD2)
				now := time.Now().UnixMilli()
				for _, b := range cdctest.Splits(order, mask) {
					m.apply(t, b, now)
				}
				got := m.rows()
				if !slices.Equal(got, want) {
					t.Fatalf("order %v split %b:\n got %q\nwant %q", order, mask, got, want)
				}
				if r := m.replica.Rows(); !slices.Equal(r, got) {
					t.Fatalf("order %v split %b: the change data feed gives %q, the table %q", order, mask, r, got)
				}
				if tc.SCD2 {
					cdctest.CheckHistory(t, got)
				}
				// Re-delivering changes already applied changes nothing.
				before := m.changes
				m.apply(t, order[:1+rng.IntN(len(order))], now)
				if again := m.rows(); !slices.Equal(again, want) || m.changes != before {
					t.Fatalf("order %v: re-delivering changes gave %q and %d feed rows", order, again, m.changes-before)
				}
			}
			// Every split of the listed order into consecutive batches.
			for mask := uint(0); mask < 1<<(len(tc.Feed)-1); mask++ {
				check(tc.Feed, mask)
			}
			// Every arrival order (a sample of them with the truncate row),
			// each cut at random.
			n := 0
			permutations(tc.Feed, func(order []cdctest.Change) {
				n++
				if len(tc.Feed) > 8 && rng.IntN(20) != 0 {
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
	feed := []cdctest.Change{
		cdctest.NewChange(1, "a", "x", "UPSERT", 5),
		cdctest.NewChange(1, "b", "x", "UPSERT", 5),
		cdctest.NewChange(2, "a", "x", "UPSERT", 5),
		cdctest.NewChange(2, "", "", "DELETE", 5),
		cdctest.NewChange(3, "z", "y", "UPSERT", 4),
	}
	for _, scd2 := range []bool{false, true} {
		var first []string
		permutations(feed, func(order []cdctest.Change) {
			for mask := uint(0); mask < 1<<(len(order)-1); mask++ {
				m := newMemTable(refSpec(t, scd2, false, false, cdc.DefaultTombstoneTTL), scd2)
				for _, b := range cdctest.Splits(order, mask) {
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
	feed := []cdctest.Change{
		cdctest.NewChange(1, "Ana", "Lima", "INSERT", 1),
		cdctest.NewChange(1, "", "Quito", "UPDATE", 2),
		cdctest.NewChange(1, "Eva", "", "UPDATE", 3),
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
			m := newMemTable(refSpec(t, tc.scd2, false, true, cdc.DefaultTombstoneTTL), tc.scd2)
			for _, b := range cdctest.Splits(feed, mask) {
				m.apply(t, b, 0)
			}
			if got := m.rows(); !slices.Equal(got, tc.want) {
				t.Errorf("scd2=%t split %b: %q, want %q", tc.scd2, mask, got, tc.want)
			}
		}
	}
}

func TestCDCNoOpUpdateWritesNoVersion(t *testing.T) {
	m := newMemTable(refSpec(t, true, false, false, cdc.DefaultTombstoneTTL), true)
	m.apply(t, []cdctest.Change{cdctest.NewChange(1, "Ana", "Lima", "INSERT", 1)}, 0)
	before := m.changes
	m.apply(t, []cdctest.Change{cdctest.NewChange(1, "Ana", "Lima", "UPDATE", 2)}, 0)
	if got := m.rows(); !slices.Equal(got, []string{"1 | Ana | Lima | 1 | NULL"}) || m.changes != before {
		t.Errorf("an update that changes nothing: %q, %d change feed rows", got, m.changes-before)
	}
}

func TestCDCTombstoneRetention(t *testing.T) {
	day := int64(24 * time.Hour / time.Millisecond)
	m := newMemTable(refSpec(t, false, false, false, 2*24*time.Hour), false)
	m.apply(t, []cdctest.Change{cdctest.NewChange(1, "", "", "DELETE", 10)}, 0)
	// A late upsert within the retention cannot bring the key back.
	m.apply(t, []cdctest.Change{cdctest.NewChange(1, "Ana", "Lima", "INSERT", 5)}, day)
	if got := m.rows(); len(got) != 0 {
		t.Fatalf("resurrected within the retention: %q", got)
	}
	// Past the retention the tombstone is dropped when the leaf is next
	// rewritten; a late upsert after that is applied.
	m.apply(t, []cdctest.Change{cdctest.NewChange(2, "Eva", "Quito", "INSERT", 1)}, 3*day)
	m.apply(t, []cdctest.Change{cdctest.NewChange(1, "Ana", "Lima", "INSERT", 5)}, 3*day)
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
			a, b := cdc.AppendOrdered(nil, c.vals[i-1], c.t), cdc.AppendOrdered(nil, c.vals[i], c.t)
			if bytes.Compare(a, b) >= 0 {
				t.Errorf("%s: %v does not sort below %v", c.t, c.vals[i-1], c.vals[i])
			}
		}
	}
	if !bytes.Equal(cdc.AppendOrdered(nil, 0.0, types.DoubleType), cdc.AppendOrdered(nil, math.Copysign(0, -1), types.DoubleType)) {
		t.Error("-0.0 and 0.0 differ")
	}
}
