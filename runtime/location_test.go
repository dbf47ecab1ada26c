package runtime

import (
	"bytes"
	"os"
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
	if err := Run(p, RunOptions{Stderr: &stderr}, Trigger{}); err != nil {
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

// TestRunDocsStateDefaults checks that docs/run.md states the defaults of
// --warehouse and --storage as DefaultWarehouse and StorageDir give them.
func TestRunDocsStateDefaults(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "run.md"))
	if err != nil {
		t.Fatal(err)
	}
	for flag, want := range map[string]string{
		"--warehouse DIR": "(default `" + DefaultWarehouse + "`",
		"--storage DIR":   "(default `" + filepath.ToSlash(StorageDir("<warehouse>", "", "<pipeline>")) + "`)",
	} {
		var row string
		for _, line := range strings.Split(string(doc), "\n") {
			if strings.HasPrefix(line, "| `"+flag+"`") {
				row = line
			}
		}
		if !strings.Contains(row, want) {
			t.Errorf("docs/run.md's row of %s does not say %s: %q", flag, want, row)
		}
	}
}
