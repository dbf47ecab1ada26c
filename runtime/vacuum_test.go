package runtime

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/cdc/cdctest"
	"github.com/pipegen/pipegen/runtime/delta"
)

// TestVacuumRefusesShortRetention: a --retain below a table's
// delta.deletedFileRetentionDuration is refused before anything is
// removed, naming each table, its retention and the override; a table
// whose own retention is short enough is not named.
func TestVacuumRefusesShortRetention(t *testing.T) {
	for _, c := range []struct {
		retention string // the table's delta.deletedFileRetentionDuration
		refused   bool
	}{{"", true}, {"interval 1 day", false}} {
		dir := t.TempDir()
		landOrders(t, dir, "landing/history", "h1.json", time.Now().Add(-time.Hour), 1)
		landOrders(t, dir, "landing/live", "l1.json", time.Now().Add(-time.Hour), 2)
		p := backfillPipeline()
		if c.retention != "" {
			p.Datasets[0].(*Table[[]any]).Properties = map[string]string{"delta.deletedFileRetentionDuration": c.retention}
		}
		mustRun(t, p, dir, RunOptions{})
		orphan := filepath.Join(tablePath(dir, "orders"), "part-orphan.snappy.parquet")
		if err := os.WriteFile(orphan, []byte("left by a crashed write"), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-48 * time.Hour)
		os.Chtimes(orphan, old, old)
		retain := 24 * time.Hour
		err := Vacuum(p, RunOptions{Warehouse: filepath.Join(dir, "warehouse")}, VacuumOptions{Retain: &retain}, io.Discard)
		_, statErr := os.Stat(orphan)
		if !c.refused {
			if err != nil || statErr == nil {
				t.Errorf("vacuum --retain 24h of a table that keeps files %s: %v (orphan kept: %v)", c.retention, err, statErr == nil)
			}
			continue
		}
		want := "--retain 24h0m0s is shorter than the retention of table orders (delta.deletedFileRetentionDuration = 168h0m0s)"
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--allow-short-retention") {
			t.Errorf("vacuum --retain 24h: %v, want %q and the override", err, want)
		}
		if statErr != nil {
			t.Errorf("the refused vacuum removed a file: %v", statErr)
		}
	}
}

// TestVacuumedChangeFeedNamesTheFix: a change-feed reader that was behind
// when a vacuum with a short retention removed the `_change_data` files
// it needs fails naming the table to fully refresh; that full refresh
// recovers it.
func TestVacuumedChangeFeedNamesTheFix(t *testing.T) {
	build := func() *Pipeline {
		p, users := refPipeline(false, false, nil)
		feedSchema := append(slices.Clone(users.Codec.Schema), delta.ChangeFeedSchema(nil)...)
		changes := &Table[[]any]{Name: "user_changes", Kind: StreamingTable, Codec: anyCodec(feedSchema)}
		in := Readable[[]any](&ChangeFeed[[]any]{Table: users, Codec: anyCodec(feedSchema)})
		p.Datasets = append(p.Datasets, changes)
		p.Flows = append(p.Flows, &Flow{Name: "user_changes", Target: changes, Kind: AppendFlow, Definition: "changes",
			Inputs: []Input{{Relation: in, Streaming: true, ChangeFeed: true}}, Run: copyFlow(in, feedSchema, changes, nil)})
		return p
	}
	dir := t.TempDir()
	landFiles(t, dir, 0, [][]cdctest.Change{cdctest.Feed[:4]})
	mustRun(t, build(), dir, RunOptions{})
	// users advances (a merge: update and delete, written as change data
	// files) while the reader is left behind.
	landFiles(t, dir, 1, [][]cdctest.Change{cdctest.Feed[4:]})
	mustRun(t, build(), dir, RunOptions{Refresh: []string{"users"}})
	cdc, _ := filepath.Glob(filepath.Join(tablePath(dir, "users"), "_change_data", "*"))
	if len(cdc) == 0 {
		t.Fatal("the merge wrote no change data files")
	}
	time.Sleep(10 * time.Millisecond)
	zero := time.Duration(0)
	if err := Vacuum(build(), RunOptions{Warehouse: filepath.Join(dir, "warehouse")}, VacuumOptions{Retain: &zero, AllowShortRetention: true}, io.Discard); err != nil {
		t.Fatal(err)
	}
	_, err := runPipeline(t, build(), dir, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "VACUUM may have deleted") || !strings.Contains(err.Error(), "run --full-refresh user_changes") {
		t.Fatalf("reader behind a vacuum: %v, want the files named missing and the fix --full-refresh user_changes", err)
	}
	mustRun(t, build(), dir, RunOptions{FullRefresh: []string{"user_changes"}})
	if got := tableRows(t, tablePath(dir, "user_changes"), -1); len(got) != 3 {
		t.Errorf("after the full refresh the reader holds %q, want the 3 users of the snapshot as inserts", got)
	}
}
