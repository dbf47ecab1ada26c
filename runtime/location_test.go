package runtime

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestStorageDir(t *testing.T) {
	for _, c := range []struct{ warehouse, storage, want string }{
		{"wh", "", filepath.Join("wh", "_pipelines", "orders")},
		{"", "", filepath.Join("warehouse", "_pipelines", "orders")},
		{"wh", "state", "state"},
		{"", "state", "state"},
	} {
		if got := StorageDir(c.warehouse, c.storage, "orders"); got != c.want {
			t.Errorf("StorageDir(%q, %q, orders) = %q, want %q", c.warehouse, c.storage, got, c.want)
		}
	}
}

// TestEventsDefaultWarehouse runs an update and reads its event log with
// no warehouse given to either: both use ./warehouse (events used to look
// in ./_pipelines when the warehouse was empty).
func TestEventsDefaultWarehouse(t *testing.T) {
	t.Chdir(t.TempDir())
	p := &Pipeline{Name: "empty"}
	var stderr bytes.Buffer
	if err := Run(p, RunOptions{Stderr: &stderr}, trigger{}); err != nil {
		t.Fatalf("update failed: %v\n%s", err, stderr.String())
	}
	var out bytes.Buffer
	if err := Events(p, RunOptions{}, "", true, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"event_type":"create_update"`) {
		t.Errorf("events with no warehouse printed no create_update event of the update:\n%s", out.String())
	}
}
