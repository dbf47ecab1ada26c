package delta_test

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
)

func changeFeed(t *testing.T, table string, start, end int64) []string {
	t.Helper()
	snap, err := delta.LoadVersion(table, end)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := delta.ReadChangeFeed(table, start, end, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := delta.ChangeFeedSchema(snap.Schema)
	var out []string
	for _, r := range rows {
		out = append(out, parquetio.FormatRow(r, s))
	}
	slices.Sort(out)
	return out
}

func TestChangeFeedSimple(t *testing.T) {
	got := changeFeed(t, filepath.Join(tables, "delta-rs/simple_table_with_cdc"), 0, -1)
	want := []string{
		"0 | Mario | insert | 1 | 2022-12-25 10:01:12.835",
		"0 | Mario | update_preimage | 2 | 2022-12-25 10:01:15.765",
		"0 | Mino | update_postimage | 2 | 2022-12-25 10:01:15.765",
	}
	if !slices.Equal(got, want) {
		t.Errorf("change feed:\n  %s", strings.Join(got, "\n  "))
	}
}

func TestChangeFeedInsertsUpdatesDeletes(t *testing.T) {
	got := changeFeed(t, filepath.Join(tables, "delta-rs/cdf-table-non-partitioned"), 0, -1)
	counts := map[string]int{}
	for _, r := range got {
		counts[strings.Split(r, " | ")[7]]++
	}
	// Version 0 inserts 10 rows, versions 1 and 2 update 3 rows each, version 3
	// deletes Dennis, version 4 inserts 2 rows.
	want := map[string]int{"insert": 12, "update_preimage": 6, "update_postimage": 6, "delete": 1}
	if len(got) != 25 || !maps.Equal(counts, want) {
		t.Errorf("%d changes %v, want 25 %v", len(got), counts, want)
	}
	var deletes []string
	for _, r := range got {
		if strings.Contains(r, "| delete |") {
			deletes = append(deletes, r)
		}
	}
	if len(deletes) != 1 || !strings.HasPrefix(deletes[0], "7 | Dennis |") || !strings.Contains(deletes[0], "| delete | 3 |") {
		t.Errorf("deletes: %q", deletes)
	}
	// A range: only version 4's inserts.
	if got := changeFeed(t, filepath.Join(tables, "delta-rs/cdf-table-non-partitioned"), 4, 4); len(got) != 2 || !strings.Contains(got[0], "| insert | 4 |") {
		t.Errorf("version 4 changes: %q", got)
	}
}
