package runtime

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/cdc/cdctest"
	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
)

// Flows besides a table's default query (SDP's append and once flows):
// several named flows write one streaming table, each with its own
// checkpoint, and once flows backfill.

var orderSchema = types.Schema{
	{Name: "order_id", Type: types.IntType, Nullable: true},
	{Name: "amount", Type: types.LongType, Nullable: true},
}

// landOrders writes a JSON-lines file of orders (id, amount) with an
// explicit modification time.
func landOrders(t *testing.T, dir, folder, name string, at time.Time, ids ...int) {
	t.Helper()
	var rows []map[string]any
	for _, id := range ids {
		rows = append(rows, map[string]any{"order_id": id, "amount": id * 10})
	}
	path := filepath.Join(dir, folder, name)
	writeJSONLines(t, path, rows)
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

// regionFlows returns a pipeline whose table orders is fed by one append
// flow per region, each reading its own landing folder and adding a region
// column; the apac flow also writes a country column.
func regionFlows(regions ...string) *Pipeline {
	schema := append(slices.Clone(orderSchema), types.Field{Name: "region", Type: types.StringType, Nullable: true})
	if slices.Contains(regions, "apac") {
		schema = append(schema, types.Field{Name: "country", Type: types.StringType, Nullable: true})
	}
	orders := &Table[[]any]{Name: "orders", Kind: StreamingTable, Codec: anyCodec(schema)}
	p := &Pipeline{Name: "regions", Catalog: "main", Schema: "default", Datasets: []Dataset{orders}}
	for _, r := range regions {
		src := jsonSource(r, "landing/"+r, orderSchema)
		extra := map[string]any{"region": r}
		if r == "apac" {
			extra["country"] = "JP"
		}
		p.Sources = append(p.Sources, src)
		p.Flows = append(p.Flows, &Flow{Name: "orders_" + r, Target: orders, Kind: AppendFlow, Definition: r,
			Inputs: []Input{{Relation: src, Streaming: true}}, Run: copyFlow(src, orderSchema, orders, extra)})
	}
	return p
}

func TestAppendFlowsIntoOneTable(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Now().Add(-time.Hour)
	landOrders(t, dir, "landing/eu", "e1.json", t0, 1, 2)
	landOrders(t, dir, "landing/us", "u1.json", t0, 3)
	landOrders(t, dir, "landing/apac", "a1.json", t0, 7, 8) // present from the start, read only once its flow exists
	mustRun(t, regionFlows("eu", "us"), dir, RunOptions{})
	table := tablePath(dir, "orders")
	want := []string{"1 | 10 | eu", "2 | 20 | eu", "3 | 30 | us"}
	if got := tableRows(t, table, -1); !slices.Equal(got, want) {
		t.Fatalf("first update: %q, want %q", got, want)
	}
	// Each flow has its own checkpoint and its own txn in the table.
	ids := map[string]bool{}
	for _, f := range []string{"orders_eu", "orders_us"} {
		var meta checkpoint.Meta
		if err := checkpoint.ReadJSON(filepath.Join(dir, "warehouse", "_pipelines", "regions", "checkpoints", f, "metadata.json"), &meta); err != nil {
			t.Fatal(err)
		}
		ids[meta.ID] = true
	}
	snap, _ := delta.Load(table)
	if len(ids) != 2 || len(snap.Txns) != 2 {
		t.Fatalf("checkpoint ids %v, table txns %v: want one per flow", ids, snap.Txns)
	}
	// A new file of one region: only its flow reads it.
	landOrders(t, dir, "landing/eu", "e2.json", t0.Add(time.Minute), 4)
	mustRun(t, regionFlows("eu", "us"), dir, RunOptions{})
	want = append(want, "4 | 40 | eu")
	slices.Sort(want)
	if got := tableRows(t, table, -1); !slices.Equal(got, want) {
		t.Fatalf("second update: %q, want %q", got, want)
	}
	// A flow added later starts from the beginning of its source, without
	// touching the others, and its new column widens the table.
	before, _ := delta.Load(table)
	mustRun(t, regionFlows("eu", "us", "apac"), dir, RunOptions{})
	after, _ := delta.Load(table)
	for id, v := range before.Txns {
		if after.Txns[id] != v {
			t.Errorf("flow %s moved from batch %d to %d without new input", id, v, after.Txns[id])
		}
	}
	got := tableRows(t, table, -1)
	want = []string{"1 | 10 | eu | NULL", "2 | 20 | eu | NULL", "3 | 30 | us | NULL", "4 | 40 | eu | NULL", "7 | 70 | apac | JP", "8 | 80 | apac | JP"}
	if !slices.Equal(got, want) {
		t.Fatalf("after adding the apac flow: %q, want %q", got, want)
	}
	if s := after.Schema.String(); s != "order_id INT, amount BIGINT, region STRING, country STRING" {
		t.Errorf("schema %s", s)
	}
}

// backfillPipeline: table orders is fed by a streaming flow from live and
// a once flow reading the whole of history as a batch.
func backfillPipeline() *Pipeline {
	orders := &Table[[]any]{Name: "orders", Kind: StreamingTable, Codec: anyCodec(orderSchema)}
	live := jsonSource("live", "landing/live", orderSchema)
	history := jsonSource("history", "landing/history", orderSchema)
	backfill := func(ctx *FlowContext) error {
		return Scan(ctx, history, ScanOptions{}, func(w *Worker, rows [][]any) error {
			for _, r := range rows {
				if err := Out(w, orders).Emit(&r); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return &Pipeline{Name: "backfill", Catalog: "main", Schema: "default", Sources: []Source{live, history}, Datasets: []Dataset{orders},
		Flows: []*Flow{
			{Name: "orders", Target: orders, Kind: AppendFlow, Definition: "live", Inputs: []Input{{Relation: live, Streaming: true}}, Run: copyFlow(live, orderSchema, orders, nil)},
			{Name: "orders_backfill", Target: orders, Kind: OnceFlow, Definition: "history", Inputs: []Input{{Relation: history}}, Run: backfill},
		}}
}

func TestOnceFlowRunsOncePerFullRefresh(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Now().Add(-time.Hour)
	landOrders(t, dir, "landing/history", "h1.json", t0, 1, 2)
	landOrders(t, dir, "landing/live", "l1.json", t0, 10)
	p := backfillPipeline()
	out := mustRun(t, p, dir, RunOptions{})
	table := tablePath(dir, "orders")
	if got := tableRows(t, table, -1); !slices.Equal(got, []string{"1 | 10", "10 | 100", "2 | 20"}) {
		t.Fatalf("first update: %q\n%s", got, out)
	}
	// Later updates: the once flow is IDLE, even with new history files.
	landOrders(t, dir, "landing/history", "h2.json", t0.Add(time.Minute), 3)
	landOrders(t, dir, "landing/live", "l2.json", t0.Add(time.Minute), 11)
	out = mustRun(t, p, dir, RunOptions{})
	if got := tableRows(t, table, -1); !slices.Equal(got, []string{"1 | 10", "10 | 100", "11 | 110", "2 | 20"}) {
		t.Fatalf("second update: %q", got)
	}
	if !strings.Contains(out, "flow orders_backfill: idle") {
		t.Errorf("stderr does not report the once flow idle:\n%s", out)
	}
	evs := events(t, dir, "backfill")
	if n := len(flowProgress(evs, "orders_backfill", statusIdle)); n != 1 {
		t.Errorf("%d IDLE events of the once flow, want 1", n)
	}
	for _, ev := range evs {
		if ev["event_type"] != "flow_definition" {
			continue
		}
		fd := ev["details"].(map[string]any)["flow_definition"].(map[string]any)
		if o := ev["origin"].(map[string]any); o["flow_name"] == "orders_backfill" && fd["flow_type"] != "APPEND" {
			t.Errorf("once flow's flow_type %v, want APPEND", fd["flow_type"])
		}
	}
	// A full refresh of the target runs it again, over all of history.
	mustRun(t, p, dir, RunOptions{FullRefresh: []string{"orders"}})
	want := []string{"1 | 10", "10 | 100", "11 | 110", "2 | 20", "3 | 30"}
	if got := tableRows(t, table, -1); !slices.Equal(got, want) {
		t.Fatalf("after a full refresh: %q, want %q", got, want)
	}
	done := flowProgress(events(t, dir, "backfill"), "orders_backfill", statusCompleted)
	if len(done) != 2 {
		t.Errorf("the once flow completed %d times, want 2", len(done))
	}
	// Its record lost (once.json deleted), the table's log says it ran
	// since the last full refresh: it does not run again.
	if err := os.RemoveAll(filepath.Join(dir, "warehouse", "_pipelines", "backfill", "checkpoints", "orders_backfill")); err != nil {
		t.Fatal(err)
	}
	mustRun(t, p, dir, RunOptions{})
	if got := tableRows(t, table, -1); !slices.Equal(got, want) {
		t.Fatalf("after once.json was deleted: %q, want %q", got, want)
	}
}

// TestDownstreamOfCDCTarget reads an AUTO CDC target three ways: a
// materialized view recomputed from its snapshot, a streaming table that
// reads its change data feed, and a plain stream, which must fail at the
// first merge instead of skipping changes.
func TestDownstreamOfCDCTarget(t *testing.T) {
	build := func(plain bool) *Pipeline {
		p, users := refPipeline(false, false, nil)
		perCity := &Table[[]any]{Name: "users_per_city", Kind: MaterializedView, Codec: anyCodec(types.Schema{
			{Name: "city", Type: types.StringType, Nullable: true}, {Name: "users", Type: types.LongType}})}
		mv := &Flow{Name: "users_per_city", Target: perCity, Kind: CompleteFlow, Definition: "count", Inputs: []Input{{Relation: users}},
			Run: func(ctx *FlowContext) error {
				counts := map[any]int64{}
				if err := Scan(ctx, users, ScanOptions{}, func(w *Worker, rows [][]any) error {
					for _, r := range rows {
						counts[r[2]]++
					}
					return nil
				}); err != nil {
					return err
				}
				for city, n := range counts {
					row := []any{city, n}
					if err := Out(ctx.Worker(), perCity).Emit(&row); err != nil {
						return err
					}
				}
				return nil
			}}
		feedSchema := append(slices.Clone(users.Codec.Schema), delta.ChangeFeedSchema(nil)...)
		changes := &Table[[]any]{Name: "user_changes", Kind: StreamingTable, Codec: anyCodec(feedSchema)}
		in := Readable[[]any](&ChangeFeed[[]any]{Table: users, Codec: anyCodec(feedSchema)})
		input := Input{Relation: in, Streaming: true, ChangeFeed: true}
		if plain {
			changes.Codec = anyCodec(users.Codec.Schema)
			in, feedSchema = users, users.Codec.Schema
			input = Input{Relation: users, Streaming: true}
		}
		p.Datasets = append(p.Datasets, perCity, changes)
		p.Flows = append(p.Flows, mv, &Flow{Name: "user_changes", Target: changes, Kind: AppendFlow, Definition: "changes",
			Inputs: []Input{input}, Run: copyFlow(in, feedSchema, changes, nil)})
		return p
	}
	dir := t.TempDir()
	landFiles(t, dir, 0, [][]cdctest.Change{cdctest.Feed[:4]})
	mustRun(t, build(false), dir, RunOptions{})
	landFiles(t, dir, 1, [][]cdctest.Change{cdctest.Feed[4:]})
	mustRun(t, build(false), dir, RunOptions{})
	if got := tableRows(t, tablePath(dir, "users_per_city"), -1); !slices.Equal(got, []string{"Cancun | 1", "Guadalajara | 1", "Oaxaca | 1"}) {
		t.Errorf("materialized view after updates and deletes: %q", got)
	}
	var got []string
	for _, r := range tableRows(t, tablePath(dir, "user_changes"), -1) {
		f := strings.Split(r, " | ")
		got = append(got, strings.Join(f[:4], " | ")+" | v"+f[4])
	}
	want := []string{
		"123 | Isabel | Monterrey | insert | v1", "124 | Raul | Oaxaca | insert | v1", "125 | Mercedes | Tijuana | insert | v1", "126 | Lily | Cancun | insert | v1",
		"123 | Isabel | Monterrey | delete | v2",
		"125 | Mercedes | Tijuana | update_preimage | v2", "125 | Mercedes | Guadalajara | update_postimage | v2",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("change feed stream:\n got %q\nwant %q", got, want)
	}

	// A plain stream follows the inserts of the first merge, then fails
	// naming the table and the fix at the first update of rows.
	dir = t.TempDir()
	landFiles(t, dir, 0, [][]cdctest.Change{cdctest.Feed[:4]})
	mustRun(t, build(true), dir, RunOptions{})
	landFiles(t, dir, 1, [][]cdctest.Change{cdctest.Feed[4:]})
	_, err := runPipeline(t, build(true), dir, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "table users changed at version 2 by an operation that is not an append") {
		t.Errorf("a plain stream of the CDC target: error %v", err)
	}
}

// TestFileReadAsListed appends to a file after the update has listed it
// (when its micro-batch starts decoding it): the appended row is not read,
// as the file is ingested once, as listed.
func TestFileReadAsListed(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Now().Add(-time.Hour)
	landOrders(t, dir, "landing/eu", "e1.json", t0, 1, 2)
	p := regionFlows("eu")
	src := p.Sources[0].(*FileSource[[]any])
	decode := src.Decode
	src.Decode = func(f source.FileInfo, r io.Reader, o source.Options, emit func([][]any) error) (source.Stats, error) {
		fh, err := os.OpenFile(f.LocalPath, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(fh, `{"order_id": 3, "amount": 30}`)
		fh.Close()
		return decode(f, r, o, emit)
	}
	out := mustRun(t, p, dir, RunOptions{})
	if got, want := tableRows(t, tablePath(dir, "orders"), -1), []string{"1 | 10 | eu", "2 | 20 | eu"}; !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q: bytes appended after the listing were read", got, want)
	}
	// The change is reported: a warning event with both sizes, a count in
	// the flow's progress and its line.
	evs := events(t, dir, "regions")
	changed := eventDetails(evs, "changed_file")
	if len(changed) != 1 || changed[0]["path"] != source.FileURI(filepath.Join(dir, "landing/eu/e1.json")) ||
		changed[0]["new_size"].(float64) != changed[0]["old_size"].(float64)+float64(len(`{"order_id": 3, "amount": 30}`)+1) {
		t.Errorf("changed_file events %v, want one for e1.json grown by the appended line", changed)
	}
	done := flowProgress(evs, "orders_eu", statusCompleted)
	if m := done[len(done)-1]["metrics"].(map[string]any); m["changed_files"] != float64(1) {
		t.Errorf("metrics %v, want changed_files 1", m)
	}
	if !strings.Contains(out, "1 files changed") {
		t.Errorf("progress line does not count the changed file:\n%s", out)
	}
}

// eventDetails returns details[key] of the events that have it, in order.
func eventDetails(evs []map[string]any, key string) []map[string]any {
	var out []map[string]any
	for _, ev := range evs {
		d, _ := ev["details"].(map[string]any)
		if v, ok := d[key].(map[string]any); ok {
			out = append(out, v)
		}
	}
	return out
}
