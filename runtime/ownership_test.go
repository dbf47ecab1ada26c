package runtime

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/table"
)

// tableState is what a refused update must leave untouched: the table's
// latest version, its rows and the files under its folder.
func tableState(t *testing.T, table string) (int64, []string, []string) {
	t.Helper()
	v, err := delta.LatestVersion(table)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(table, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return nil
	})
	return v, tableRows(t, table, -1), files
}

func tableConfiguration(t *testing.T, table string) map[string]string {
	t.Helper()
	s, err := delta.LoadMetadata(table)
	if err != nil {
		t.Fatal(err)
	}
	return s.Metadata.Configuration
}

func storageID(t *testing.T, storage string) string {
	t.Helper()
	var id pipelineIdentity
	if err := checkpoint.ReadJSON(filepath.Join(storage, "pipeline.json"), &id); err != nil {
		t.Fatal(err)
	}
	return id.ID
}

// ownedOrders runs a first update of regionFlows("eu") (pipeline
// "regions", table orders with properties) over two landed orders; it
// returns the test folder, the pipeline and the files' time.
func ownedOrders(t *testing.T, properties map[string]string) (string, *Pipeline, time.Time) {
	t.Helper()
	dir := t.TempDir()
	t0 := time.Now().Add(-time.Hour)
	landOrders(t, dir, "landing/eu", "e1.json", t0, 1, 2)
	p := regionFlows("eu")
	p.Datasets[0].(*Table[[]any]).Properties = properties
	mustRun(t, p, dir, RunOptions{})
	return dir, p, t0
}

// TestTableOwnership: the first pipeline to write a table owns it
// (pipelines.pipelineId, from its storage's pipeline.json); another
// pipeline, or the same one with another storage, is refused before it
// writes anything, with a message naming the table and the owner; the
// owner's later updates go on.
func TestTableOwnership(t *testing.T) {
	dir, p, t0 := ownedOrders(t, nil)
	orders := tablePath(dir, "orders")
	ownerStorage := filepath.Join(dir, "warehouse", "_pipelines", "regions")
	id := storageID(t, ownerStorage)
	conf := tableConfiguration(t, orders)
	if conf[table.PipelineIDProperty] != id || conf[table.PipelineNameProperty] != "regions" {
		t.Fatalf("table configuration %v, want %s=%s and %s=regions", conf, table.PipelineIDProperty, id, table.PipelineNameProperty)
	}
	v, rows, files := tableState(t, orders)

	other := regionFlows("eu")
	other.Name = "other"
	otherStorage := filepath.Join(dir, "other-storage")
	for _, c := range []struct {
		name string
		p    *Pipeline
		opts RunOptions
	}{
		{"another pipeline", other, RunOptions{}},
		{"same pipeline, another storage", p, RunOptions{Storage: otherStorage}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := runPipeline(t, c.p, dir, c.opts)
			if err == nil {
				t.Fatalf("update wrote a table another pipeline owns:\n%s", out)
			}
			msg := err.Error()
			for _, want := range []string{"[TABLE_OWNED_BY_ANOTHER_PIPELINE] table orders (", "managed by pipeline regions (id " + id + ")",
				"nothing was written", "--storage", "--full-refresh orders"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message lacks %q:\n%s", want, msg)
				}
			}
			gv, grows, gfiles := tableState(t, orders)
			if gv != v || !slices.Equal(grows, rows) || !slices.Equal(gfiles, files) {
				t.Errorf("the refused update changed the table: version %d→%d, rows %q→%q, files %q→%q", v, gv, rows, grows, files, gfiles)
			}
		})
	}
	if storageID(t, otherStorage) == id {
		t.Fatalf("another storage got the same pipeline id")
	}

	// The owner goes on: a new file is read once, nothing is duplicated.
	landOrders(t, dir, "landing/eu", "e2.json", t0, 3)
	mustRun(t, p, dir, RunOptions{})
	if got, want := tableRows(t, orders, -1), []string{"1 | 10 | eu", "2 | 20 | eu", "3 | 30 | eu"}; !slices.Equal(got, want) {
		t.Errorf("owner's next update: %q, want %q", got, want)
	}
	if storageID(t, ownerStorage) != id {
		t.Errorf("the pipeline id changed between updates")
	}
}

// TestFullRefreshTakesTableOver: a full refresh of a table by another
// pipeline truncates and recomputes it from that pipeline's input and
// records that pipeline as the owner; the former owner is then refused.
func TestFullRefreshTakesTableOver(t *testing.T) {
	dir, p, _ := ownedOrders(t, nil)
	orders := tablePath(dir, "orders")

	storage := filepath.Join(dir, "moved-storage")
	out := mustRun(t, p, dir, RunOptions{Storage: storage, FullRefresh: []string{"orders"}})
	if got, want := tableRows(t, orders, -1), []string{"1 | 10 | eu", "2 | 20 | eu"}; !slices.Equal(got, want) {
		t.Errorf("after the takeover: %q, want %q (each row once)\n%s", got, want, out)
	}
	if got, want := tableConfiguration(t, orders)[table.PipelineIDProperty], storageID(t, storage); got != want {
		t.Errorf("owner after the takeover %q, want %q", got, want)
	}
	mustRun(t, p, dir, RunOptions{Storage: storage})
	if _, err := runPipeline(t, p, dir, RunOptions{}); err == nil || !strings.Contains(err.Error(), "TABLE_OWNED_BY_ANOTHER_PIPELINE") {
		t.Errorf("the former owner's update: %v, want it refused", err)
	}
}

// TestTableWithoutOwnerIsAdopted: a table written before owners were
// recorded (no pipelines.pipelineId) is adopted by the next update that
// writes it, with a commit that changes no data and keeps the other
// properties; from then on other pipelines are refused.
func TestTableWithoutOwnerIsAdopted(t *testing.T) {
	dir, p, t0 := ownedOrders(t, map[string]string{"quality": "bronze"})
	orders := tablePath(dir, "orders")
	// Make it a table of before: drop the owner properties.
	s, err := delta.LoadMetadata(orders)
	if err != nil {
		t.Fatal(err)
	}
	m := s.Metadata
	m.Configuration = maps.Clone(m.Configuration)
	delete(m.Configuration, table.PipelineIDProperty)
	delete(m.Configuration, table.PipelineNameProperty)
	if _, err := delta.Append(orders, s, nil, delta.WriteOptions{Metadata: &m, Operation: "UNSET TBLPROPERTIES"}); err != nil {
		t.Fatal(err)
	}

	landOrders(t, dir, "landing/eu", "e2.json", t0, 3)
	out := mustRun(t, p, dir, RunOptions{})
	if got, want := tableRows(t, orders, -1), []string{"1 | 10 | eu", "2 | 20 | eu", "3 | 30 | eu"}; !slices.Equal(got, want) {
		t.Errorf("after adoption: %q, want %q\n%s", got, want, out)
	}
	conf := tableConfiguration(t, orders)
	if conf[table.PipelineIDProperty] != storageID(t, filepath.Join(dir, "warehouse", "_pipelines", "regions")) || conf["quality"] != "bronze" {
		t.Errorf("configuration after adoption: %v", conf)
	}
	other := regionFlows("eu")
	other.Name = "other"
	if _, err := runPipeline(t, other, dir, RunOptions{}); !errorContains(err, "TABLE_OWNED_BY_ANOTHER_PIPELINE") {
		t.Errorf("another pipeline after adoption: %v, want it refused", err)
	}
}

func errorContains(err error, s string) bool {
	return err != nil && strings.Contains(err.Error(), s)
}

// TestCorruptPipelineIdentity: a damaged pipeline.json fails the update
// with its path instead of minting a new id (which would orphan every
// table of the pipeline).
func TestCorruptPipelineIdentity(t *testing.T) {
	dir := t.TempDir()
	landOrders(t, dir, "landing/eu", "e1.json", time.Now().Add(-time.Hour), 1)
	p := regionFlows("eu")
	mustRun(t, p, dir, RunOptions{})
	path := filepath.Join(dir, "warehouse", "_pipelines", "regions", "pipeline.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := runPipeline(t, p, dir, RunOptions{})
	if !errorContains(err, path) || errors.Is(err, errUpdateFailed) {
		t.Errorf("update with a corrupt pipeline.json: %v", err)
	}
}
