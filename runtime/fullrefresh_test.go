package runtime

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestInterruptedFullRefreshIsFinished: a full refresh whose intent
// (full_refresh.json) a crash left behind is finished by the next update,
// whatever that update's selection, and a table of the intent that the
// pipeline no longer defines is ignored instead of failing every update.
func TestInterruptedFullRefreshIsFinished(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Now().Add(-time.Hour)
	landOrders(t, dir, "landing/history", "h1.json", t0, 1, 2)
	landOrders(t, dir, "landing/live", "l1.json", t0, 10)
	p := backfillPipeline()
	mustRun(t, p, dir, RunOptions{})
	table := tablePath(dir, "orders")
	want := tableRows(t, table, -1)
	if len(want) != 3 {
		t.Fatalf("first update wrote %q", want)
	}
	// The crash: the intent names orders and a table since removed; orders'
	// checkpoints are already gone.
	storage := filepath.Join(dir, "warehouse", "_pipelines", p.Name)
	if err := os.WriteFile(filepath.Join(storage, "full_refresh.json"), []byte(`["dropped_table", "orders"]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(storage, "checkpoints")); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, p, dir, RunOptions{})
	if got := tableRows(t, table, -1); !slices.Equal(got, want) {
		t.Errorf("after the interrupted full refresh is finished: %q, want %q\n%s", got, want, out)
	}
	if _, err := os.Stat(filepath.Join(storage, "full_refresh.json")); !os.IsNotExist(err) {
		t.Errorf("the intent is still there: %v", err)
	}
}
