package main

// End-to-end tests of stateful streaming tables (testdata/e2e/stateful):
// window aggregations and deduplications bounded by event-time watermarks,
// over order events landed partly out of order (testdata/stateful_orders),
// compared after every update with oracles computed from the raw lines —
// DuckDB for the window aggregations and DISTINCT, a plain Go replay for
// the deduplication within the watermark — for several micro-batch
// splits; and crashes at the fault points and at random instants, which
// must leave exactly the tables of an uninterrupted run.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

const (
	statefulSpec = "testdata/e2e/stateful/pipeline.yaml"
	statefulData = "testdata/stateful_orders"
)

// statefulLanding is the landing order: the five-day chunks of the part
// files by number (part*3 + k), -1 for extra.jsonl. Swapped neighbours
// arrive after the watermark passed them, fully or partly by table.
var statefulLanding = []int{0, 1, 2, 3, 5, 4, 6, 7, 9, 8, 10, -1, 11, 12, 14, 13, 15, 16, 17}

// statefulFiles are the files in landing order, named so that their path
// order is their landing order (ties of modification time are broken by
// path).
var statefulFilesOnce = sync.OnceValues(func() ([]retailPart, error) {
	var chunks [][]string
	for part := 0; part < 6; part++ {
		data, err := os.ReadFile(filepath.Join(statefulData, fmt.Sprintf("part-%05d.jsonl", part)))
		if err != nil {
			return nil, err
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(lines) != 300 {
			return nil, fmt.Errorf("part %d has %d lines, SOURCE.md says 300", part, len(lines))
		}
		for k := 0; k < 3; k++ {
			chunks = append(chunks, lines[k*100:(k+1)*100])
		}
	}
	extra, err := os.ReadFile(filepath.Join(statefulData, "extra.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []retailPart
	for i, c := range statefulLanding {
		if c < 0 {
			out = append(out, retailPart{name: fmt.Sprintf("%02d-extra.jsonl", i), lines: strings.Split(strings.TrimSuffix(string(extra), "\n"), "\n")})
			continue
		}
		out = append(out, retailPart{name: fmt.Sprintf("%02d-part%d-%d.jsonl", i, c/3, c%3), lines: chunks[c]})
	}
	return out, nil
})

func statefulFiles(t testing.TB) []retailPart {
	t.Helper()
	return mustOnce(t, statefulFilesOnce)
}

// statefulUpdate is one update of a split: how many more files land
// first, and whether it runs with --trigger once (one micro-batch for all
// of them) or available_now (one micro-batch per file).
type statefulUpdate struct {
	files int
	once  bool
}

// statefulSplits are the micro-batch splits the results must hold for.
var statefulSplits = []struct {
	name    string
	updates []statefulUpdate
}{
	{"file_per_batch", []statefulUpdate{{files: 19}}},
	{"one_batch", []statefulUpdate{{files: 19, once: true}}},
	{"four_updates", []statefulUpdate{{files: 5}, {files: 6}, {files: 4}, {files: 4}}},
	{"batch_per_update", []statefulUpdate{{files: 5, once: true}, {files: 6, once: true}, {files: 4, once: true}, {files: 4, once: true}}},
}

// batchPlan says which micro-batch read each landed file: of the flows
// reading the source, and of customer_weeks (which reads orders_bronze:
// one micro-batch per update).
type batchPlan struct {
	files   []retailPart
	source  []int
	updates []int
}

// add records an update that landed files and ran with or without
// --trigger once.
func (p *batchPlan) add(files []retailPart, once bool) {
	next, update := 0, 0
	if n := len(p.source); n > 0 {
		next, update = p.source[n-1]+1, p.updates[n-1]+1
	}
	for i, f := range files {
		p.files = append(p.files, f)
		b := next + i
		if once {
			b = next
		}
		p.source = append(p.source, b)
		p.updates = append(p.updates, update)
	}
}

// TestStatefulTablesMatchOracles runs the pipeline over each split and
// compares every stateful table after every update with its oracle, and
// the late rows the flows counted with the oracle's.
func TestStatefulTablesMatchOracles(t *testing.T) {
	bin := buildSpec(t, statefulSpec)
	files := statefulFiles(t)
	for _, split := range statefulSplits {
		t.Run(split.name, func(t *testing.T) {
			t.Parallel()
			p := program{bin: bin, dir: t.TempDir()}
			var plan batchPlan
			landed := 0
			for i, u := range split.updates {
				batch := files[landed : landed+u.files]
				landed += u.files
				land(t, p.dir, batch)
				plan.add(batch, u.once)
				var args []string
				if u.once {
					args = []string{"--trigger", "once"}
				}
				p.mustRun(t, args...)
				checkStatefulOracle(t, fmt.Sprintf("after update %d", i+1), p.dir, warehouseRows(t, filepath.Join(p.dir, "wh")), &plan)
			}
			checkLateCounts(t, p, &plan)
			duckCheckAll(t, filepath.Join(p.dir, "wh"))
		})
	}
}

// checkStatefulOracle compares the stateful tables in state with the
// oracles for the files and micro-batches of plan.
func checkStatefulOracle(t *testing.T, what, dir string, state map[string][]string, plan *batchPlan) {
	t.Helper()
	for _, table := range []string{"revenue_6h", "orders_sliding", "distinct_orders", "customer_weeks", "first_order"} {
		path := filepath.Join(dir, "wh", "main", "orders", table)
		schema, _ := deltatest.PipegenRows(t, path, -1)
		var want []string
		if table == "first_order" {
			want = firstOrderOracle(t, plan, schema)
		} else {
			want = deltatest.QueryRows(t, dir, oracleQuery(table, plan), schema)
		}
		if got := state["main/orders/"+table]; !slices.Equal(got, want) {
			t.Errorf("%s: %s has %d rows, the oracle %d\n  extra:   %s\n  missing: %s", what, table, len(got), len(want),
				strings.Join(head(deltatest.Minus(got, want), 5), "\n           "), strings.Join(head(deltatest.Minus(want, got), 5), "\n           "))
		}
	}
}

// statefulTables are the window and deduplication tables with their
// watermark delay (µs), window duration and slide (µs, 0 for the
// deduplications), and whether their micro-batches are the updates.
var statefulTables = map[string]struct {
	delay, size, slide int64
	perUpdate          bool
}{
	"revenue_6h":      {delay: 2 * hour, size: 6 * hour, slide: 6 * hour},
	"orders_sliding":  {delay: 72 * hour, size: 24 * hour, slide: 12 * hour},
	"distinct_orders": {delay: 24 * hour},
	"first_order":     {delay: 48 * hour},
	"customer_weeks":  {delay: 96 * hour, size: 7 * 24 * hour, slide: 7 * 24 * hour, perUpdate: true},
}

const hour = int64(3_600_000_000)

// oracleRows is the DuckDB query of the rows read so far with their
// micro-batch b and event time us (µs), the watermark w in effect for each
// micro-batch and the final watermark: max(event time of earlier batches
// in whole milliseconds) minus the delay, never below the epoch (Spark's
// rules, spelled out independently of pipegen's code).
func oracleRows(table string, plan *batchPlan) string {
	tb := statefulTables[table]
	batches := plan.source
	if tb.perUpdate {
		batches = plan.updates
	}
	var values []string
	for i, f := range plan.files {
		values = append(values, fmt.Sprintf("('%s', %d)", f.name, batches[i]))
	}
	delayMs := tb.delay / 1000
	return fmt.Sprintf(`WITH batch(file, b) AS (VALUES %s),
raw AS (
  SELECT r.order_id, r.customer_id, r.amount, r.country, r.event_ts, epoch_us(r.event_ts) AS us, batch.b
  FROM read_json('landing/*.jsonl', filename = true, format = 'newline_delimited',
    columns = {order_id: 'VARCHAR', customer_id: 'VARCHAR', amount: 'DECIMAL(10,2)', country: 'VARCHAR', event_ts: 'TIMESTAMP'}) r
  JOIN batch ON parse_filename(r.filename) = batch.file
),
wm AS (
  SELECT b, greatest(0, coalesce((SELECT max(r2.us // 1000) FROM raw r2 WHERE r2.b < bs.b) - %d, 0)) * 1000 AS w
  FROM (SELECT DISTINCT b FROM batch) bs
),
final AS (SELECT greatest(0, coalesce(max(us // 1000) - %d, 0)) * 1000 AS fw FROM raw)
`, strings.Join(values, ", "), delayMs, delayMs)
}

// oracleQuery is the DuckDB query of a window or DISTINCT table: the
// (row, window) pairs whose window ends after the watermark of the row's
// micro-batch, grouped, for the windows the final watermark closed.
func oracleQuery(table string, plan *batchPlan) string {
	tb := statefulTables[table]
	q := oracleRows(table, plan)
	if table == "distinct_orders" {
		return q + `SELECT DISTINCT order_id, customer_id, event_ts FROM raw JOIN wm USING (b) WHERE us IS NOT NULL AND us > wm.w`
	}
	// The windows holding us: starts at multiples of the slide, the
	// latest at or before us, while start + size > us.
	q += fmt.Sprintf(`, pairs AS (
  SELECT raw.*, (us // %[2]d) * %[2]d - k * %[2]d AS ws FROM raw, range(0, %[3]d) t(k) WHERE us IS NOT NULL
),
live AS (
  SELECT p.* FROM pairs p JOIN wm USING (b) WHERE p.ws + %[1]d > p.us AND p.ws + %[1]d > wm.w
)
`, tb.size, tb.slide, (tb.size+tb.slide-1)/tb.slide)
	w := fmt.Sprintf(`{'start': make_timestamp(ws), 'end': make_timestamp(ws + %d)} AS w`, tb.size)
	switch table {
	case "revenue_6h":
		return q + `SELECT ` + w + `, country, count(*) AS orders, sum(amount) AS revenue, min(amount) AS smallest, max(event_ts) AS last_ts
FROM live, final WHERE ws + ` + fmt.Sprint(tb.size) + ` <= fw GROUP BY ws, country`
	case "orders_sliding":
		return q + `SELECT ` + w + `, count(*) AS orders, count(DISTINCT customer_id) AS customers
FROM live, final WHERE ws + ` + fmt.Sprint(tb.size) + ` <= fw GROUP BY ws`
	}
	return q + `SELECT ` + w + `, customer_id, count(*) AS orders, sum(amount) AS spent
FROM live, final WHERE ws + ` + fmt.Sprint(tb.size) + ` <= fw GROUP BY ws, customer_id`
}

// lateQuery is the DuckDB query of a table's late rows: (row, window)
// pairs whose window ends at or before the watermark of the row's
// micro-batch, or rows whose event time is at or before it.
func lateQuery(table string, plan *batchPlan) string {
	tb := statefulTables[table]
	q := oracleRows(table, plan)
	if tb.size == 0 {
		return q + `SELECT count(*) AS n FROM raw JOIN wm USING (b) WHERE us <= wm.w`
	}
	return q + fmt.Sprintf(`SELECT count(*) AS n FROM raw JOIN wm USING (b), range(0, %[3]d) t(k)
WHERE (us // %[2]d) * %[2]d - k * %[2]d + %[1]d > us AND (us // %[2]d) * %[2]d - k * %[2]d + %[1]d <= wm.w`,
		tb.size, tb.slide, (tb.size+tb.slide-1)/tb.slide)
}

// orderEvent is one raw line as the Go oracle reads it.
type orderEvent struct {
	OrderID    *string `json:"order_id"`
	CustomerID *string `json:"customer_id"`
	Amount     json.Number
	EventTS    *string `json:"event_ts"`
}

// firstOrderOracle replays QUALIFY row_number() OVER (PARTITION BY
// order_id ORDER BY event_ts) = 1 within the watermark over plan's
// micro-batches, as the docs state it: a row at or below the watermark is
// late; a key written before is a duplicate until the watermark reaches
// its event time plus the delay; among a micro-batch's rows of a new key
// the one with the smallest event time is written, the first read among
// equals. It returns the rows rendered for schema.
func firstOrderOracle(t *testing.T, plan *batchPlan, schema types.Schema) []string {
	t.Helper()
	delay := statefulTables["first_order"].delay
	expires := map[string]int64{}
	var watermark, maxMs int64
	seenAny := false
	var out []string
	for start := 0; start < len(plan.files); {
		end := start
		for end < len(plan.files) && plan.source[end] == plan.source[start] {
			end++
		}
		type cand struct {
			row []any
			us  int64
		}
		var order []string
		cands := map[string]*cand{}
		for _, f := range plan.files[start:end] {
			for _, line := range f.lines {
				var e orderEvent
				d := json.NewDecoder(strings.NewReader(line))
				d.UseNumber()
				if err := d.Decode(&e); err != nil {
					t.Fatal(err)
				}
				if e.EventTS == nil {
					continue
				}
				ts, err := time.Parse(time.RFC3339Nano, *e.EventTS)
				if err != nil {
					t.Fatal(err)
				}
				us := ts.UnixMicro()
				if us/1000 > maxMs || !seenAny {
					maxMs, seenAny = max(maxMs, us/1000), true
				}
				key := *e.OrderID
				if _, dup := expires[key]; us <= watermark || dup {
					continue
				}
				amount, ok := types.ParseDecimal(e.Amount.String(), 10, 2)
				if !ok {
					t.Fatalf("amount %s", e.Amount)
				}
				var customer any
				if e.CustomerID != nil {
					customer = *e.CustomerID
				}
				row := []any{key, customer, amount, types.Timestamp(us)}
				if c := cands[key]; c == nil {
					cands[key] = &cand{row, us}
					order = append(order, key)
				} else if us < c.us {
					*c = cand{row, us}
				}
			}
		}
		for _, key := range order {
			out = append(out, parquetio.FormatRow(cands[key].row, schema))
			expires[key] = cands[key].us + delay
		}
		// The micro-batch's rows advance the watermark; expired keys go.
		watermark = max(watermark, (maxMs-delay/1000)*1000)
		for key, exp := range expires {
			if exp <= watermark {
				delete(expires, key)
			}
		}
		start = end
	}
	slices.Sort(out)
	return out
}

// checkLateCounts compares the late rows each flow reported in its
// flow_progress events, summed over the updates, with the oracle's.
func checkLateCounts(t *testing.T, p program, plan *batchPlan) {
	t.Helper()
	cmd := p.command(nil, "events", "--json")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("events: %v", err)
	}
	late := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev struct {
			EventType string `json:"event_type"`
			Origin    struct {
				Flow string `json:"flow_name"`
			} `json:"origin"`
			Details struct {
				FlowProgress struct {
					Status  string             `json:"status"`
					Metrics map[string]float64 `json:"metrics"`
				} `json:"flow_progress"`
			} `json:"details"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.EventType == "flow_progress" && ev.Details.FlowProgress.Status == "COMPLETED" {
			late[ev.Origin.Flow] += ev.Details.FlowProgress.Metrics["num_late_rows_dropped"]
		}
	}
	for _, table := range []string{"revenue_6h", "orders_sliding", "distinct_orders", "customer_weeks", "first_order"} {
		rows := deltatest.QueryRows(t, p.dir, lateQuery(table, plan), types.Schema{{Name: "n", Type: types.LongType}})
		if want := rows[0]; fmt.Sprint(late[table]) != want {
			t.Errorf("flow %s counted %v late rows, the oracle %s", table, late[table], want)
		}
	}
}

// statefulSteps are the crash scenario: five files, an update; six more,
// an update; the other eight, an update with --trigger once; a full
// refresh of every table.
func statefulSteps(t testing.TB) []step {
	files := statefulFiles(t)
	return []step{
		{land: files[:5]},
		{land: files[5:11]},
		{land: files[11:], args: []string{"--trigger", "once"}},
		{args: []string{"--full-refresh-all"}},
	}
}

// statefulPlan is the batch plan of the crash scenario after step n (the
// full refresh reads every file again, one per micro-batch).
func statefulPlan(steps []step, n int) *batchPlan {
	var plan batchPlan
	if n == 3 {
		plan.add(landedParts(steps), false)
		return &plan
	}
	for i, s := range steps[:n+1] {
		plan.add(s.land, slices.Contains(s.args, "once"))
		_ = i
	}
	return &plan
}

// statefulReference runs the crash scenario without interruption (once
// per test binary) and checks every step against the oracles.
func statefulReference(t *testing.T, bin string, steps []step) *reference {
	t.Helper()
	return recordReference(t, bin, steps, func(i int, dir string, state map[string][]string) {
		checkStatefulOracle(t, fmt.Sprintf("reference step %d", i+1), dir, state, statefulPlan(steps, i))
	})
}

// statefulFaults are the crash cases: after-state is written by the
// stateful flows only, after its data files and before the table commit.
var statefulFaults = []faultCase{
	{step: 1, fault: "after-state@1"},
	{step: 1, fault: "after-state@9"},
	{step: 1, fault: "after-commit@3", soak: true},
	{step: 2, fault: "after-offsets@4"},
	{step: 2, fault: "after-data-files@6", soak: true},
	{step: 2, fault: "after-commit@13"},
	{step: 3, fault: "after-state@3"},
	{step: 3, fault: "after-commit@5", soak: true},
	{step: 4, fault: "mid-full-refresh@4"},
	{step: 4, fault: "after-state@30"},
}

// TestStatefulCrashAtFaultPoints stops the program (SIGKILL) at fault
// points of the stateful flows' micro-batches, reruns the interrupted
// update, finishes the scenario and compares every table after every step
// with an uninterrupted run. `make soak` runs every case.
func TestStatefulCrashAtFaultPoints(t *testing.T) {
	soak := os.Getenv("PIPEGEN_SOAK") != ""
	bin := buildSpec(t, statefulSpec)
	steps := statefulSteps(t)
	ref := statefulReference(t, bin, steps)
	runFaultCases(t, bin, steps, ref, statefulFaults, soak, nil)
}

// TestStatefulRandomKills kills the stateful scenario's updates at random
// instants (uniform over 1.2 times an uninterrupted update) until each
// completes, and compares every step with the uninterrupted run; with
// PIPEGEN_SOAK=1, 200 kills instead of 6.
func TestStatefulRandomKills(t *testing.T) {
	kills := 6
	if os.Getenv("PIPEGEN_SOAK") != "" {
		kills = 200
	}
	bin := buildSpec(t, statefulSpec)
	steps := statefulSteps(t)
	ref := statefulReference(t, bin, steps)
	killScenarios(t, bin, steps, ref, kills, uint64(time.Now().UnixNano()))
}

// TestStatefulStorageFaults damages the checkpoint of the stateful flows
// between the first two updates of the crash scenario: what the table's
// log can rebuild (the processed-file record, the batch marks) is rebuilt
// and the second update leaves the tables of an uninterrupted run; lost
// or damaged operator state stops the flow before it writes, naming the
// flow and the full refresh, which then recomputes the table.
func TestStatefulStorageFaults(t *testing.T) {
	bin := buildSpec(t, statefulSpec)
	steps := statefulSteps(t)
	ref := statefulReference(t, bin, steps)
	cp := func(elem ...string) string {
		return filepath.Join(append([]string{"wh", "_pipelines", "stateful", "checkpoints"}, elem...)...)
	}
	for _, tc := range []struct {
		name, path string
		cut        bool
		refuse     string // the table the refusal names; "" when the update goes on
	}{
		{name: "revenue_6h commits deleted", path: cp("revenue_6h", "commits")},
		{name: "revenue_6h offsets deleted", path: cp("revenue_6h", "offsets")},
		{name: "revenue_6h metadata.json deleted", path: cp("revenue_6h", "metadata.json")},
		{name: "customer_weeks commits deleted", path: cp("customer_weeks", "commits")},
		{name: "revenue_6h state deleted", path: cp("revenue_6h", "state"), refuse: "revenue_6h"},
		{name: "revenue_6h checkpoint deleted", path: cp("revenue_6h"), refuse: "revenue_6h"},
		{name: "distinct_orders state file cut", path: cp("distinct_orders", "state", "*.bin"), cut: true, refuse: "distinct_orders"},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			p := program{bin: bin, dir: t.TempDir()}
			land(t, p.dir, steps[0].land)
			p.mustRun(t)
			path := filepath.Join(p.dir, tc.path)
			if tc.cut {
				m, _ := filepath.Glob(path)
				if len(m) != 1 {
					t.Fatalf("state files %v, want one", m)
				}
				data, err := os.ReadFile(m[0])
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(m[0], data[:len(data)/2], 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				if _, err := os.Stat(path); err != nil {
					t.Fatal(err)
				}
				if err := os.RemoveAll(path); err != nil {
					t.Fatal(err)
				}
			}
			land(t, p.dir, steps[1].land)
			r := p.run(t, nil)
			if tc.refuse == "" {
				if r.code != 0 {
					t.Fatalf("update after the fault: exit %d\n%s", r.code, r.stderr)
				}
				if d := diffWarehouses(ref.states[1], warehouseRows(t, filepath.Join(p.dir, "wh"))); d != "" {
					t.Fatalf("tables after the fault differ from an uninterrupted run:\n%s", d)
				}
				t.Logf("FAULT %s: update 2 ok, tables equal the uninterrupted run", tc.name)
				return
			}
			if r.code == 0 || !strings.Contains(r.stderr, "--full-refresh "+tc.refuse) {
				t.Fatalf("update after the fault: exit %d, want a refusal naming --full-refresh %s\n%s", r.code, tc.refuse, r.stderr)
			}
			p.mustRun(t, "--full-refresh", tc.refuse)
			if d := diffWarehouses(ref.states[1], warehouseRows(t, filepath.Join(p.dir, "wh"))); d != "" {
				t.Fatalf("tables after --full-refresh %s differ from an uninterrupted run:\n%s", tc.refuse, d)
			}
			t.Logf("FAULT %s: refused (%s); after --full-refresh %s the tables equal the uninterrupted run", tc.name, firstLine(r.stderr, "--full-refresh"), tc.refuse)
		})
	}
}

// firstLine returns the first line of s that contains sub.
func firstLine(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
