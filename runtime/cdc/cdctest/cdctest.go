// Package cdctest holds what the tests of AUTO CDC share between package
// cdc (the merge without storage) and package runtime (the flow run as a
// pipeline): the reference example of the Databricks documentation ("SCD
// type 1 and SCD type 2 processing", transcribed in the team's
// cases/auto-cdc.md) with its expected results, the cuts of a feed into
// micro-batches, and checks of SCD type 2 history, of change data feeds
// and of the leaves of a target's key-range index. Only tests import it.
package cdctest

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/cdc"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/types"
)

// Change is one row of the example's change feed (table A).
type Change struct {
	UserID int32
	Name   string // "" is NULL
	City   string
	Op     string // INSERT, UPDATE, UPSERT, DELETE or TRUNCATE
	Seq    int64
}

// NewChange returns a Change (Op INSERT, UPDATE, UPSERT, DELETE or
// TRUNCATE; "" is NULL for name and city).
func NewChange(userID int32, name, city, op string, seq int64) Change {
	return Change{UserID: userID, Name: name, City: city, Op: op, Seq: seq}
}

// Feed is table A, the example's change feed.
var Feed = []Change{
	{124, "Raul", "Oaxaca", "INSERT", 1},
	{123, "Isabel", "Monterrey", "INSERT", 1},
	{125, "Mercedes", "Tijuana", "INSERT", 2},
	{126, "Lily", "Cancun", "INSERT", 2},
	{123, "", "", "DELETE", 6},
	{125, "Mercedes", "Guadalajara", "UPDATE", 6},
	{125, "Mercedes", "Mexicali", "UPDATE", 5},
	{123, "Isabel", "Chihuahua", "UPDATE", 5},
}

// Truncate is the truncate row of result C.
var Truncate = Change{0, "", "", "TRUNCATE", 3}

// The expected rows of tables B to E, as parquetio.FormatRow writes them.
var (
	// B is SCD type 1.
	B = []string{"124 | Raul | Oaxaca", "125 | Mercedes | Guadalajara", "126 | Lily | Cancun"}
	// C is SCD type 1 with Truncate.
	C = []string{"125 | Mercedes | Guadalajara"}
	// D is SCD type 2.
	D = []string{
		"123 | Isabel | Monterrey | 1 | 5",
		"123 | Isabel | Chihuahua | 5 | 6",
		"124 | Raul | Oaxaca | 1 | NULL",
		"125 | Mercedes | Tijuana | 2 | 5",
		"125 | Mercedes | Mexicali | 5 | 6",
		"125 | Mercedes | Guadalajara | 6 | NULL",
		"126 | Lily | Cancun | 2 | NULL",
	}
	// E is SCD type 2 with track_history_except_columns: [city].
	E = []string{
		"123 | Isabel | Chihuahua | 1 | 6",
		"124 | Raul | Oaxaca | 1 | NULL",
		"125 | Mercedes | Guadalajara | 2 | NULL",
		"126 | Lily | Cancun | 2 | NULL",
	}
)

// Cases are the results B to E: the flow's settings, its input and the
// expected rows.
var Cases = []struct {
	Name string
	// SCD2 selects SCD type 2; TrackCity is table E's
	// track_history_except_columns: [city].
	SCD2, TrackCity bool
	Feed            []Change
	Want            []string
}{
	{"B_scd1", false, false, Feed, B},
	{"C_scd1_truncate", false, false, append(slices.Clone(Feed), Truncate), C},
	{"D_scd2", true, false, Feed, D},
	{"E_scd2_track_except_city", true, true, Feed, E},
}

// Data are the target's written columns: keys userId; sequence_by
// sequenceNum and except_columns operation and sequenceNum.
var Data = types.Schema{
	{Name: "userId", Type: types.IntType, Nullable: true},
	{Name: "name", Type: types.StringType, Nullable: true},
	{Name: "city", Type: types.StringType, Nullable: true},
}

// Schema returns the target's schema: Data, then for SCD type 2
// __START_AT and __END_AT (BIGINT, the type of sequenceNum).
func Schema(scd2 bool) types.Schema {
	if !scd2 {
		return Data
	}
	return append(slices.Clone(Data),
		types.Field{Name: "__START_AT", Type: types.LongType, Nullable: true},
		types.Field{Name: "__END_AT", Type: types.LongType, Nullable: true})
}

// Sorted returns a sorted copy of rows.
func Sorted(rows []string) []string {
	out := slices.Clone(rows)
	slices.Sort(out)
	return out
}

// Splits cuts feed into consecutive micro-batches at the set bits of mask
// (bit i: a batch ends after row i).
func Splits(feed []Change, mask uint) [][]Change {
	var out [][]Change
	start := 0
	for i := range feed {
		if i == len(feed)-1 || mask&(1<<i) != 0 {
			out = append(out, feed[start:i+1])
			start = i + 1
		}
	}
	return out
}

// RowBag is a multiset of rows, as text, that a change data feed is
// replayed into.
type RowBag map[string]int

// Apply applies one change data feed row of kind (delta.ChangeInsert, ...);
// it fails the test when the feed removes a row the bag does not hold.
func (b RowBag) Apply(t testing.TB, kind, row string) {
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

// Rows returns the bag's rows, sorted.
func (b RowBag) Rows() []string {
	var out []string
	for r, n := range b {
		for range n {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

// CheckHistory checks the SCD2 invariants of rows (FormatRow text whose
// last two columns are __START_AT and __END_AT, keyed by the first): at
// most one open row per key and no two versions of a key whose intervals
// overlap.
func CheckHistory(t testing.TB, rows []string) {
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

// CheckLeaves checks that the data files of the AUTO CDC target at table,
// keyed by its first column, partition the key space as their tags say:
// the first leaf starts at the lowest key, the leaves' lower bounds
// increase, and each file holds only keys of its range, sorted, up to its
// greatest key; in a target partitioned by its key, each leaf's files are
// in its partition.
func CheckLeaves(t testing.TB, table string) {
	t.Helper()
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	leaves, err := cdc.Leaves("test", snap, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	by := snap.Metadata.PartitionColumns
	keyed := len(by) > 0 && !slices.ContainsFunc(by, func(c string) bool { return !strings.EqualFold(c, snap.Schema[0].Name) })
	for i, l := range leaves {
		next := i+1 < len(leaves) && leaves[i+1].Group() == l.Group()
		first := i == 0 || leaves[i-1].Group() != l.Group()
		for _, a := range l.Files() {
			r, err := delta.OpenFile(table, by, a.Path, a.PartitionValues, snap.Schema)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := r.ReadAll()
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			var prev []byte
			for _, row := range rows {
				k := cdc.AppendOrdered(nil, row[0], snap.Schema[0].Type)
				if (!first && bytes.Compare(k, l.Lo()) < 0) || (next && bytes.Compare(k, leaves[i+1].Lo()) >= 0) || bytes.Compare(k, l.Hi()) > 0 || bytes.Compare(k, prev) < 0 {
					t.Fatalf("leaf %d (lo %x, hi %x) holds key %v out of its range or order", i, l.Lo(), l.Hi(), row[0])
				}
				if keyed && delta.PartitionPath(by, a.PartitionValues) != l.Group() {
					t.Fatalf("leaf %d of partition %s has file %s in another partition", i, l.Group(), a.Path)
				}
				prev = k
			}
		}
	}
}
