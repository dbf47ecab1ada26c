package runtime

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/cdc/cdctest"
	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/table"
	"github.com/pipegen/pipegen/runtime/types"
)

// Faults of the pipeline's storage folder between two updates: each part
// of it is deleted or damaged in turn, and the second update either
// leaves the rows of an uninterrupted run or refuses before it writes,
// naming the flow or file and the way out.

// faultPipeline: orders files (one per micro-batch) are copied into
// bronze, bronze streams into silver (a table input), totals is a
// materialized view over bronze, and the users AUTO CDC flow applies the
// reference change feed.
func faultPipeline() *Pipeline {
	p, _ := refPipeline(false, false, nil)
	p.Name = "faults"
	orders := jsonSource("orders_src", "orders", orderSchema)
	bronze := &Table[[]any]{Name: "bronze", Kind: StreamingTable, Codec: anyCodec(orderSchema)}
	silver := &Table[[]any]{Name: "silver", Kind: StreamingTable, Codec: anyCodec(orderSchema)}
	totalsSchema := types.Schema{{Name: "orders", Type: types.LongType}, {Name: "amount", Type: types.LongType}}
	totals := &Table[[]any]{Name: "totals", Kind: MaterializedView, Codec: anyCodec(totalsSchema)}
	p.Sources = append(p.Sources, orders)
	p.Datasets = append(p.Datasets, bronze, silver, totals)
	p.Flows = append(p.Flows,
		&Flow{Name: "bronze", Target: bronze, Kind: AppendFlow, Definition: "bronze", Inputs: []Input{{Relation: orders, Streaming: true}},
			Run: copyFlow(orders, orderSchema, bronze, nil)},
		&Flow{Name: "silver", Target: silver, Kind: AppendFlow, Definition: "silver", Inputs: []Input{{Relation: bronze, Streaming: true}},
			Run: copyFlow(bronze, orderSchema, silver, nil)},
		&Flow{Name: "totals", Target: totals, Kind: CompleteFlow, Definition: "totals", Inputs: []Input{{Relation: bronze}},
			Run: func(ctx *FlowContext) error {
				var n, sum int64
				if err := Scan(ctx, bronze, ScanOptions{}, func(w *Worker, rows [][]any) error {
					for _, r := range rows {
						n++
						sum += r[1].(int64)
					}
					return nil
				}); err != nil {
					return err
				}
				row := []any{n, sum}
				return Out(ctx.Worker(), totals).Emit(&row)
			}},
	)
	return p
}

// faultTables are the tables of faultPipeline.
var faultTables = []string{"bronze", "silver", "totals", "users"}

// landFaultInput lands the input of update n (0 or 1): 22 order files
// (so that bronze's checkpoint is compacted at batch 19 and the offsets of
// batches before 9 are pruned) and the first change feed file, then two
// order files and the rest.
func landFaultInput(t *testing.T, dir string, n int) {
	t0 := time.Now().Add(-2 * time.Hour)
	from, to := 0, 22
	if n == 1 {
		from, to = 22, 24
	}
	for i := from; i < to; i++ {
		landOrders(t, dir, "orders", fmt.Sprintf("o%02d.json", i), t0.Add(time.Duration(i)*time.Minute), 10*i+1, 10*i+2)
	}
	if n == 0 {
		landFiles(t, dir, 0, [][]cdctest.Change{cdctest.Feed[:4]})
	} else {
		landFiles(t, dir, 1, [][]cdctest.Change{cdctest.Feed[4:]})
	}
}

// faultRows returns the rows of every table of faultPipeline, by table.
func faultRows(t *testing.T, dir string) map[string][]string {
	out := map[string][]string{}
	for _, name := range faultTables {
		out[name] = tableRows(t, tablePath(dir, name), -1)
	}
	return out
}

func rowCounts(rows map[string][]string) string {
	var parts []string
	for _, name := range faultTables {
		parts = append(parts, fmt.Sprintf("%s %d", name, len(rows[name])))
	}
	return strings.Join(parts, ", ")
}

func TestStorageFaults(t *testing.T) {
	clean := t.TempDir()
	landFaultInput(t, clean, 0)
	mustRun(t, faultPipeline(), clean, RunOptions{})
	landFaultInput(t, clean, 1)
	mustRun(t, faultPipeline(), clean, RunOptions{})
	want := faultRows(t, clean)
	if len(want["bronze"]) != 48 || len(want["silver"]) != 48 {
		t.Fatalf("uninterrupted run: %s", rowCounts(want))
	}
	t.Logf("uninterrupted run: %s", rowCounts(want))

	cp := func(flow string, elem ...string) string {
		return filepath.Join(append([]string{"warehouse", "_pipelines", "faults", "checkpoints", flow}, elem...)...)
	}
	storage := filepath.Join("warehouse", "_pipelines", "faults")
	// Each fault: what is done to the storage between the updates, and
	// the message a refusal must carry ("" when the update must go on
	// with the rows of the uninterrupted run).
	type fault struct {
		name   string
		do     func(t *testing.T, dir string)
		refuse []string
	}
	rm := func(rel string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
				t.Fatalf("the fault needs %s: %v", rel, err)
			}
			if err := os.RemoveAll(filepath.Join(dir, rel)); err != nil {
				t.Fatal(err)
			}
		}
	}
	both := func(fs ...func(t *testing.T, dir string)) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			for _, f := range fs {
				f(t, dir)
			}
		}
	}
	// cut truncates a file (the newest match of a glob) to half its size,
	// or at its last complete line but two when lines is set.
	cut := func(glob string, lines bool) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			m, _ := filepath.Glob(filepath.Join(dir, glob))
			if len(m) == 0 {
				t.Fatalf("no file %s", glob)
			}
			sort.Strings(m)
			path := m[len(m)-1]
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n := len(data) / 2
			if lines {
				s := strings.TrimSuffix(string(data), "\n")
				for range 2 {
					s = s[:strings.LastIndexByte(s, '\n')]
				}
				n = len(s) + 1
			}
			if err := os.WriteFile(path, data[:n], 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	garbage := func(rel string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, rel), []byte("garbage\x00\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// expire removes the commits of table before its last Delta
	// checkpoint, as log cleanup does after delta.logRetentionDuration.
	expire := func(table string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			lc, ok, err := delta.ReadLastCheckpoint(tablePath(dir, table))
			if err != nil || !ok {
				t.Fatalf("no checkpoint of %s: %v", table, err)
			}
			for v := int64(0); v < lc.Version; v++ {
				os.Remove(delta.CommitPath(tablePath(dir, table), v))
			}
		}
	}
	faults := []fault{
		{"pipeline.json deleted", rm(filepath.Join(storage, "pipeline.json")), []string{"bronze", "--full-refresh"}},
		{"pipeline.json overwritten with garbage", garbage(filepath.Join(storage, "pipeline.json")), []string{"pipeline.json", "restore it from a backup"}},
		{"lock deleted", rm(filepath.Join(storage, "lock")), nil},
		{"lock overwritten with garbage", garbage(filepath.Join(storage, "lock")), nil},
		{"event_log/ deleted", rm(filepath.Join(storage, "event_log")), nil},
		{"event_log/<last>.jsonl cut in half", cut(filepath.Join(storage, "event_log", "*.jsonl"), false), nil},
		{"checkpoints/ deleted", rm(filepath.Join(storage, "checkpoints")), []string{"users_flow", "--full-refresh users"}},
		{"checkpoints/bronze deleted", rm(cp("bronze")), nil},
		{"checkpoints/bronze/metadata.json deleted", rm(cp("bronze", "metadata.json")), nil},
		{"checkpoints/bronze/metadata.json cut in half", cut(cp("bronze", "metadata.json"), false), nil},
		{"checkpoints/bronze/offsets deleted", rm(cp("bronze", "offsets")), nil},
		{"checkpoints/bronze/commits deleted", rm(cp("bronze", "commits")), nil},
		{"checkpoints/bronze/offsets and commits deleted", both(rm(cp("bronze", "offsets")), rm(cp("bronze", "commits"))), nil},
		{"checkpoints/bronze: only metadata.json kept", both(rm(cp("bronze", "offsets")), rm(cp("bronze", "commits")), rm(cp("bronze", "compact"))), nil},
		{"checkpoints/bronze/compact/19.seen deleted", rm(cp("bronze", "compact", "19.seen")), nil},
		{"checkpoints/bronze/compact/19.seen cut at a line", cut(cp("bronze", "compact", "19.seen"), true), nil},
		{"checkpoints/bronze/compact/19.seen cut in half", cut(cp("bronze", "compact", "19.seen"), false), nil},
		{"checkpoints/bronze/offsets/<last> garbage", garbage(cp("bronze", "offsets", "21.json")), nil},
		{"checkpoints/silver deleted", rm(cp("silver")), nil},
		{"checkpoints/silver/commits deleted", rm(cp("silver", "commits")), nil},
		{"checkpoints/silver/metadata.json deleted", rm(cp("silver", "metadata.json")), nil},
		{"checkpoints/totals/refresh.json deleted", rm(cp("totals", "refresh.json")), nil},
		{"checkpoints/totals/refresh.json garbage", garbage(cp("totals", "refresh.json")), nil},
		{"checkpoints/totals/refresh.json older than the table (refreshes: 0)", func(t *testing.T, dir string) {
			path := filepath.Join(dir, cp("totals", "refresh.json"))
			var st checkpoint.Refresh
			if err := checkpoint.ReadJSON(path, &st); err != nil || st.Refreshes != 1 {
				t.Fatalf("refresh.json: %+v, %v", st, err)
			}
			st.Refreshes = 0
			if err := checkpoint.WriteJSON(path, st); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"checkpoints/users_flow deleted", rm(cp("users_flow")), []string{"users_flow", "--full-refresh users"}},
		{"checkpoints/users_flow/metadata.json deleted", rm(cp("users_flow", "metadata.json")), nil},
		{"checkpoints/users_flow/commits deleted", rm(cp("users_flow", "commits")), nil},
		{"checkpoints/users_flow/cdc_state deleted", rm(cp("users_flow", "cdc_state")), []string{"users_flow", "--full-refresh users"}},
		{"checkpoints/users_flow/cdc_state/<file> cut in half", cut(cp("users_flow", "cdc_state", "*"), false), []string{"users_flow", "--full-refresh users"}},
		{"storage folder deleted", rm(storage), []string{"bronze", "--full-refresh"}},
		{"bronze's log cleaned up", expire("bronze"), nil},
		{"bronze's log cleaned up, then checkpoints/bronze deleted", both(expire("bronze"), rm(cp("bronze"))), []string{"flow bronze", "no longer holds commit", "--full-refresh bronze"}},
	}
	for _, fl := range faults {
		t.Run(strings.NewReplacer("/", "_", " ", "_").Replace(fl.name), func(t *testing.T) {
			dir := t.TempDir()
			landFaultInput(t, dir, 0)
			mustRun(t, faultPipeline(), dir, RunOptions{})
			fl.do(t, dir)
			landFaultInput(t, dir, 1)
			out, err := runPipeline(t, faultPipeline(), dir, RunOptions{})
			if fl.refuse == nil {
				if err != nil {
					t.Fatalf("update after the fault failed: %v\n%s", err, out)
				}
				got := faultRows(t, dir)
				for _, name := range faultTables {
					if !slices.Equal(got[name], want[name]) {
						t.Errorf("%s after the fault:\n got %q\nwant %q", name, got[name], want[name])
					}
				}
				t.Logf("FAULT %s | update 2 ok | %s", fl.name, rowCounts(got))
				return
			}
			if err == nil {
				t.Fatalf("update after the fault succeeded; want a refusal naming %q\n%s\nrows: %s", fl.refuse, out, rowCounts(faultRows(t, dir)))
			}
			for _, s := range fl.refuse {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("refusal %q does not name %q", err, s)
				}
			}
			// A refused update leaves the state as it found it: the next
			// one is refused the same way.
			if _, again := runPipeline(t, faultPipeline(), dir, RunOptions{}); again == nil {
				t.Fatalf("a second update after the refusal succeeded")
			}
			// The way out the refusal names: a full refresh of the table.
			opts := RunOptions{FullRefresh: []string{"users"}}
			if strings.Contains(err.Error(), "--full-refresh bronze") {
				// silver streams from bronze: it is rebuilt too.
				opts = RunOptions{FullRefresh: []string{"bronze", "silver"}, Refresh: []string{"totals", "users"}}
			}
			if strings.Contains(err.Error(), "TABLE_OWNED_BY_ANOTHER_PIPELINE") {
				opts = RunOptions{FullRefreshAll: true}
			}
			if strings.Contains(err.Error(), "restore it from a backup") {
				t.Logf("FAULT %s | refused: %v", fl.name, err)
				return
			}
			mustRun(t, faultPipeline(), dir, opts)
			got := faultRows(t, dir)
			for _, name := range faultTables {
				if !slices.Equal(got[name], want[name]) {
					t.Errorf("%s after the refusal and --full-refresh %v:\n got %q\nwant %q", name, opts.FullRefresh, got[name], want[name])
				}
			}
			t.Logf("FAULT %s | refused: %v | after --full-refresh %v (all: %v): %s", fl.name, err, opts.FullRefresh, opts.FullRefreshAll, rowCounts(got))
		})
	}
}

// TestTxnNeverCommittedTwice commits a micro-batch whose transaction the
// table already holds, as a checkpoint behind its table would: the commit
// is refused and the table is unchanged.
func TestTxnNeverCommittedTwice(t *testing.T) {
	dir := t.TempDir()
	landOrders(t, dir, "landing/eu", "e1.json", time.Now().Add(-time.Hour), 1)
	landOrders(t, dir, "landing/eu", "e2.json", time.Now().Add(-time.Hour+time.Minute), 2)
	mustRun(t, regionFlows("eu"), dir, RunOptions{})
	var meta checkpoint.Meta
	if err := checkpoint.ReadJSON(filepath.Join(dir, "warehouse", "_pipelines", "regions", "checkpoints", "orders_eu", "metadata.json"), &meta); err != nil {
		t.Fatal(err)
	}
	orders := tablePath(dir, "orders")
	h := table.New("orders", orders, nil)
	before, _ := h.LatestVersion()
	for _, batch := range []int64{0, 1} {
		err := h.CommitAppend(nil, &table.Txn{AppID: meta.ID, Version: batch}, "STREAMING UPDATE", nil)
		if err == nil || !strings.Contains(err.Error(), "already holds transaction") {
			t.Errorf("batch %d again: error %v, want a refusal", batch, err)
		}
	}
	if after, _ := h.LatestVersion(); after != before {
		t.Errorf("the table moved from version %d to %d", before, after)
	}
	if err := h.CommitAppend(nil, &table.Txn{AppID: meta.ID, Version: 2}, "STREAMING UPDATE", nil); err != nil {
		t.Errorf("the next batch: %v", err)
	}
}

// TestLockedUpdateIsLogged starts updates while another process holds
// the pipeline's lock (here another open file of the same process): each
// is refused with ErrLocked and leaves its own event file, create_update
// then update_progress CANCELED with reason LOCKED and the holder.
func TestLockedUpdateIsLogged(t *testing.T) {
	dir := t.TempDir()
	landOrders(t, dir, "landing/eu", "e1.json", time.Now().Add(-time.Hour), 1)
	p := regionFlows("eu")
	mustRun(t, p, dir, RunOptions{})
	storage := filepath.Join(dir, "warehouse", "_pipelines", "regions")
	held, err := acquireLock(storage, "holder-update")
	if err != nil {
		t.Fatal(err)
	}
	defer held.release()
	for _, tr := range []Trigger{{}, {interval: time.Hour}} {
		var stderr strings.Builder
		err := Run(p, RunOptions{Warehouse: filepath.Join(dir, "warehouse"), BaseDir: dir, Stderr: &stderr}, tr)
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("trigger %v: error %v, want ErrLocked", tr, err)
		}
	}
	evs := events(t, dir, "regions")
	var refused []map[string]any
	for _, ev := range evs {
		up, _ := ev["details"].(map[string]any)["update_progress"].(map[string]any)
		if up["state"] == "CANCELED" && up["reason"] == "LOCKED" {
			refused = append(refused, up)
		}
	}
	if len(refused) != 2 {
		t.Fatalf("%d refused updates in the event log, want 2", len(refused))
	}
	for _, up := range refused {
		if h, _ := up["lock_holder"].(map[string]any); h["pid"] != float64(os.Getpid()) || h["update_id"] != "holder-update" {
			t.Errorf("lock holder %v, want this process and update holder-update", up["lock_holder"])
		}
	}
	if n := len(flowProgress(evs, "orders_eu", statusCompleted)); n != 1 {
		t.Errorf("%d completed flow runs, want the first update's only", n)
	}
}

// TestLostCheckpointWithExpiredLog: flow orders_eu's commits are all
// behind the table's last Delta checkpoint and cleaned up from its log;
// its checkpoint is then deleted. Nothing in the log names the flow any
// more, but the table's transactions hold an application id no
// checkpoint claims: the flow is refused instead of starting over. A
// flow added to the same table meanwhile starts normally, although the
// table also holds the txns of the flows' checkpoints before a full
// refresh.
func TestLostCheckpointWithExpiredLog(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Now().Add(-2 * time.Hour)
	landOrders(t, dir, "landing/eu", "e1.json", t0, 1)
	landOrders(t, dir, "landing/us", "u00.json", t0, 100)
	mustRun(t, regionFlows("eu", "us"), dir, RunOptions{})
	// A full refresh retires the flows' ids, whose txns stay in the table.
	mustRun(t, regionFlows("eu", "us"), dir, RunOptions{FullRefresh: []string{"orders"}})
	for i := 1; i <= 12; i++ {
		landOrders(t, dir, "landing/us", fmt.Sprintf("u%02d.json", i), t0.Add(time.Duration(i)*time.Minute), 100+i)
	}
	mustRun(t, regionFlows("eu", "us"), dir, RunOptions{})
	table := tablePath(dir, "orders")
	lc, ok, err := delta.ReadLastCheckpoint(table)
	if err != nil || !ok {
		t.Fatalf("no Delta checkpoint: %v", err)
	}
	for v := int64(0); v < lc.Version; v++ {
		os.Remove(delta.CommitPath(table, v))
	}
	// A new flow on the old table: its ids are all claimed.
	landOrders(t, dir, "landing/apac", "a1.json", t0, 7)
	mustRun(t, regionFlows("eu", "us", "apac"), dir, RunOptions{})
	rows := len(tableRows(t, table, -1))
	if rows != 15 {
		t.Fatalf("%d rows, want 15", rows)
	}
	if err := os.RemoveAll(filepath.Join(dir, "warehouse", "_pipelines", "regions", "checkpoints", "orders_eu")); err != nil {
		t.Fatal(err)
	}
	_, err = runPipeline(t, regionFlows("eu", "us", "apac"), dir, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "flow orders_eu") || !strings.Contains(err.Error(), "no checkpoint claims") || !strings.Contains(err.Error(), "--full-refresh orders") {
		t.Errorf("error %v, want orders_eu refused naming the unclaimed progress and --full-refresh orders", err)
	}
	if got := len(tableRows(t, table, -1)); got != rows {
		t.Errorf("%d rows after the refusal, want %d: e1.json was read again", got, rows)
	}
}
