package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/cdc/cdctest"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// refSourceSchema is the change feed of the reference example (table A).
var refSourceSchema = types.Schema{
	{Name: "userId", Type: types.IntType, Nullable: true},
	{Name: "name", Type: types.StringType, Nullable: true},
	{Name: "city", Type: types.StringType, Nullable: true},
	{Name: "operation", Type: types.StringType, Nullable: true},
	{Name: "sequenceNum", Type: types.LongType, Nullable: true},
}

// refPipeline is the reference example as a pipeline: source users_cdc (a
// folder of JSON-lines files, one per micro-batch) applied by flow
// users_flow into table users, as SCD type 1 or 2, as the generated code of
// spec/testdata/auto_cdc does.
func refPipeline(scd2, trackExceptCity bool, exps []Expectation[[]any]) (*Pipeline, *Table[[]any]) {
	return refPipelineWith(scd2, trackExceptCity, exps, nil)
}

// refPipelineWith is refPipeline with edit (if not nil) applied to the
// flow and its AUTO CDC settings.
func refPipelineWith(scd2, trackExceptCity bool, exps []Expectation[[]any], edit func(*Flow, *AutoCDC[[]any, []any])) (*Pipeline, *Table[[]any]) {
	schema := cdctest.Schema(scd2)
	src := jsonSource("users_cdc", "landing", refSourceSchema)
	target := &Table[[]any]{Name: "users", Kind: StreamingTable, Codec: anyCodec(schema), Expectations: exps,
		Properties: map[string]string{delta.ChangeDataFeedProperty: "true"}}
	a := &AutoCDC[[]any, []any]{
		Source: src, Target: target, Keys: []string{"userId"},
		SequenceBy: []string{"sequenceNum"}, SequenceType: types.LongType, SCDType: 1,
		Change: func(w *Worker, s *[]any, out *[]any) (ChangeKind, any, error) {
			r := *s
			o := make([]any, len(schema))
			copy(o, r[:3])
			*out = o
			switch r[3] {
			case "DELETE":
				return Delete, r[4], nil
			case "TRUNCATE":
				return Truncate, r[4], nil
			}
			return Upsert, r[4], nil
		},
	}
	if scd2 {
		a.SCDType = 2
		if trackExceptCity {
			a.TrackHistory = []string{"userId", "name"}
		}
	}
	flow := &Flow{Name: "users_flow", Target: target, Kind: ChangeFlow, Inputs: []Input{{Relation: src, Streaming: true}},
		Definition: "users_flow", Run: func(ctx *FlowContext) error { return ApplyChanges(ctx, a) }}
	if edit != nil {
		edit(flow, a)
	}
	return &Pipeline{Name: "cdc", Catalog: "main", Schema: "default", Sources: []Source{src}, Datasets: []Dataset{target}, Flows: []*Flow{flow}}, target
}

// landFiles writes one JSON-lines file per batch into dir/landing, with
// increasing modification times so that they are ingested in this order
// after the n files already there.
func landFiles(t testing.TB, dir string, n int, batches [][]cdctest.Change) int {
	t.Helper()
	base := time.Now().Add(-time.Hour)
	for _, b := range batches {
		var rows []map[string]any
		for _, c := range b {
			m := map[string]any{"operation": c.Op, "sequenceNum": c.Seq}
			if c.Op != "TRUNCATE" {
				m["userId"] = c.UserID
			}
			if c.Name != "" {
				m["name"] = c.Name
			}
			if c.City != "" {
				m["city"] = c.City
			}
			rows = append(rows, m)
		}
		path := filepath.Join(dir, "landing", fmt.Sprintf("%03d.json", n))
		writeJSONLines(t, path, rows)
		mt := base.Add(time.Duration(n) * time.Second)
		if err := os.Chtimes(path, mt, mt); err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}

// changeFeedRows replays the table's change data feed from its first
// version and returns the rows it leaves, sorted, with the number of
// commits that carried cdc actions.
func changeFeedRows(t testing.TB, table string) ([]string, int) {
	t.Helper()
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := delta.ReadChangeFeed(table, 0, -1, snap.Schema)
	if err != nil {
		t.Fatal(err)
	}
	live := cdctest.RowBag{}
	for _, r := range rows {
		live.Apply(t, r[len(snap.Schema)].(string), parquetio.FormatRow(r[:len(snap.Schema)], snap.Schema))
	}
	out := live.Rows()
	commits, err := delta.ReadCommits(table, -1, -1)
	if err != nil {
		t.Fatal(err)
	}
	withCDC := 0
	for _, c := range commits {
		for _, a := range c.Actions {
			if a.CDC != nil {
				withCDC++
				break
			}
		}
	}
	return out, withCDC
}

// TestCDCFlowEverySplitAcrossUpdates runs the reference example as a
// pipeline, with the input cut into files (micro-batches) and the files
// into updates at random, in random arrival orders, with leaves of a few
// keys so that merges route keys across several files and split them.
//
// The target is also partitioned by a column that is not a key (city: an
// SCD1 key's row moves between partitions, an SCD2 key's history spans
// several) and by the key (each partition has its own leaves): the rows
// are the same, laid out as the protocol says and read alike by DuckDB's
// log replay.
func TestCDCFlowEverySplitAcrossUpdates(t *testing.T) {
	defer func(n int) { cdcLeafKeys = n }(cdcLeafKeys)
	for _, tc := range cdctest.Cases {
		for _, by := range [][]string{nil, {"city"}, {"userId"}} {
			name := tc.Name
			if by != nil {
				name += "/partition_by_" + by[0]
			}
			t.Run(name, func(t *testing.T) { testCDCFlowSplits(t, tc.Name, tc.SCD2, tc.TrackCity, tc.Feed, tc.Want, by) })
		}
	}
}

// testCDCFlowSplits is one case of TestCDCFlowEverySplitAcrossUpdates:
// three runs of feed cut at random, the target partitioned by by.
func testCDCFlowSplits(t *testing.T, name string, scd2, trackCity bool, feed []cdctest.Change, want []string, by []string) {
	tc := struct {
		scd2, trackCity bool
		feed            []cdctest.Change
		want            []string
	}{scd2, trackCity, feed, want}
	rng := rand.New(rand.NewPCG(7, uint64(len(name))))
	for run := 0; run < 3; run++ {
		cdcLeafKeys = []int{1, 4, 32768}[run]
		order := slices.Clone(tc.feed)
		if run > 0 {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		batches := cdctest.Splits(order, uint(rng.IntN(1<<(len(order)-1))))
		dir := t.TempDir()
		p, target := refPipeline(tc.scd2, tc.trackCity, nil)
		target.PartitionBy = by
		n := 0
		for len(batches) > 0 {
			k := 1 + rng.IntN(len(batches))
			n = landFiles(t, dir, n, batches[:k])
			batches = batches[k:]
			mustRun(t, p, dir, RunOptions{})
		}
		table := tablePath(dir, "users")
		got := tableRows(t, table, -1)
		if !slices.Equal(got, cdctest.Sorted(tc.want)) {
			t.Fatalf("order %v (%d files):\n got %q\nwant %q", order, n, got, cdctest.Sorted(tc.want))
		}
		if tc.scd2 {
			cdctest.CheckHistory(t, got)
		}
		cdctest.CheckLeaves(t, table)
		feed, withCDC := changeFeedRows(t, table)
		if !slices.Equal(feed, got) || withCDC == 0 {
			t.Fatalf("the change data feed (%d commits with cdc actions) replays to %q, the table holds %q", withCDC, feed, got)
		}
		// Re-running with no new input commits nothing.
		v, _ := delta.LatestVersion(table)
		mustRun(t, p, dir, RunOptions{})
		if v2, _ := delta.LatestVersion(table); v2 != v {
			t.Fatalf("an update without new input committed versions %d..%d", v+1, v2)
		}
		if by != nil {
			checkPartitionedLayout(t, table, by)
			if run == 1 {
				deltatest.Check(t, table, -1)
			}
		}
	}
}

func TestCDCFlowTableFormat(t *testing.T) {
	dir := t.TempDir()
	p, _ := refPipeline(true, false, nil)
	landFiles(t, dir, 0, cdctest.Splits(cdctest.Feed, 0b1000))
	mustRun(t, p, dir, RunOptions{})
	table := tablePath(dir, "users")
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Protocol.MinReaderVersion != 1 || snap.Protocol.MinWriterVersion != 4 || !delta.ChangeDataFeedEnabled(snap.Metadata.Configuration) {
		t.Errorf("protocol %+v, configuration %v: want reader 1, writer 4 and %s=true", snap.Protocol, snap.Metadata.Configuration, delta.ChangeDataFeedProperty)
	}
	if got := snap.Schema.String(); got != "userId INT, name STRING, city STRING, __START_AT BIGINT, __END_AT BIGINT" {
		t.Errorf("schema %s", got)
	}
	// The second batch updates keys of the first: a copy-on-write commit
	// with removes, adds and cdc actions and the flow's txn.
	c, err := delta.ReadCommit(table, snap.Version)
	if err != nil {
		t.Fatal(err)
	}
	var adds, removes, cdcs, txns int
	for _, a := range c.Actions {
		switch {
		case a.Add != nil:
			adds++
		case a.Remove != nil:
			removes++
		case a.CDC != nil:
			cdcs++
			if !strings.HasPrefix(a.CDC.Path, delta.ChangeDataDir+"/") {
				t.Errorf("cdc file %s is not in %s/", a.CDC.Path, delta.ChangeDataDir)
			}
		case a.Txn != nil:
			txns++
		}
	}
	if adds == 0 || removes == 0 || cdcs == 0 || txns != 1 {
		t.Errorf("last commit: %d adds, %d removes, %d cdc, %d txn", adds, removes, cdcs, txns)
	}
	// The change feed of the second batch: update pairs for 123 and 125.
	rows, err := delta.ReadChangeFeed(table, snap.Version, snap.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, parquetio.FormatRow(r[:6], append(slices.Clone(snap.Schema), types.Field{Name: "_change_type", Type: types.StringType})))
	}
	slices.Sort(got)
	want := []string{
		"123 | Isabel | Chihuahua | 5 | 6 | insert",
		"123 | Isabel | Monterrey | 1 | 5 | update_postimage",
		"123 | Isabel | Monterrey | 1 | NULL | update_preimage",
		"125 | Mercedes | Guadalajara | 6 | NULL | insert",
		"125 | Mercedes | Mexicali | 5 | 6 | insert",
		"125 | Mercedes | Tijuana | 2 | 5 | update_postimage",
		"125 | Mercedes | Tijuana | 2 | NULL | update_preimage",
	}
	if !slices.Equal(got, want) {
		t.Errorf("change feed of version %d:\n  %s", snap.Version, strings.Join(got, "\n  "))
	}
	// DuckDB reads the same rows.
	deltatest.Check(t, table, -1)
}

func TestCDCFlowNullKeyOrSequenceFailsTheBatch(t *testing.T) {
	for _, tc := range []struct {
		row  map[string]any
		want string
	}{
		{map[string]any{"name": "x", "operation": "INSERT", "sequenceNum": 9}, `flow users_flow: key column "userId" is NULL in `},
		{map[string]any{"userId": 7, "operation": "INSERT"}, `flow users_flow: sequence_by column "sequenceNum" is NULL in `},
	} {
		dir := t.TempDir()
		p, _ := refPipeline(false, false, nil)
		landFiles(t, dir, 0, [][]cdctest.Change{cdctest.Feed[:2]})
		mustRun(t, p, dir, RunOptions{})
		table := tablePath(dir, "users")
		before := tableRows(t, table, -1)
		v, _ := delta.LatestVersion(table)
		// A second file: one good change, then the bad one on line 3 (after
		// a blank line).
		path := filepath.Join(dir, "landing", "001.json")
		writeJSONLines(t, path, []map[string]any{{"userId": 124, "name": "Raul", "city": "Puebla", "operation": "UPDATE", "sequenceNum": 3}})
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString("\n")
		f.Close()
		data, _ := os.ReadFile(path)
		writeJSONLines(t, path+".tmp", []map[string]any{tc.row})
		bad, _ := os.ReadFile(path + ".tmp")
		os.Remove(path + ".tmp")
		os.WriteFile(path, append(data, bad...), 0o644)
		out, err := runPipeline(t, p, dir, RunOptions{})
		if err == nil {
			t.Fatalf("the update succeeded:\n%s", out)
		}
		if !strings.Contains(err.Error(), tc.want+path+":3 (record 2)") || !strings.Contains(err.Error(), "nothing of this micro-batch was committed") {
			t.Errorf("error %q, want it to contain %q", err, tc.want+path+":3 (record 2)")
		}
		if v2, _ := delta.LatestVersion(table); v2 != v || !slices.Equal(tableRows(t, table, -1), before) {
			t.Errorf("the failed batch committed (version %d -> %d)", v, v2)
		}
	}
}

func TestCDCFlowExpectationsAndEvents(t *testing.T) {
	dir := t.TempDir()
	exps := []Expectation[[]any]{
		{Name: "known_city", Text: "city IS NOT NULL", Action: Drop, Check: func(r *[]any, _ *Params) (types.Null[bool], error) {
			return types.Some((*r)[2] != nil), nil
		}},
		{Name: "short_name", Text: "length(name) < 8", Action: Warn, Check: func(r *[]any, _ *Params) (types.Null[bool], error) {
			if (*r)[1] == nil {
				return types.Null[bool]{}, nil
			}
			return types.Some(len((*r)[1].(string)) < 8), nil
		}},
	}
	p, _ := refPipeline(false, false, exps)
	feed := append(slices.Clone(cdctest.Feed), cdctest.NewChange(127, "Ana", "", "INSERT", 3))
	landFiles(t, dir, 0, [][]cdctest.Change{feed})
	mustRun(t, p, dir, RunOptions{})
	if got := tableRows(t, tablePath(dir, "users"), -1); !slices.Equal(got, cdctest.B) {
		t.Errorf("rows %q, want %q (127 dropped)", got, cdctest.B)
	}
	evs := events(t, dir, "cdc")
	done := flowProgress(evs, "users_flow", statusCompleted)
	if len(done) != 1 {
		t.Fatalf("%d COMPLETED events", len(done))
	}
	m := done[0]["metrics"].(map[string]any)
	// 124, 125, 126 inserted; 123 inserted then deleted within the batch
	// leaves no row (the table changed by inserts only).
	if m["num_upserted_rows"] != 3.0 || m["num_deleted_rows"] != 0.0 || m["num_output_rows"] != 3.0 {
		t.Errorf("metrics %v", m)
	}
	dq := done[0]["data_quality"].(map[string]any)
	if dq["dropped_records"] != 1.0 {
		t.Errorf("data_quality %v", dq)
	}
	exp := fmt.Sprint(dq["expectations"])
	// Upserts only: 7 rows, one without a city; "Mercedes" is 8 letters
	// (3 rows fail short_name) and the delete is not checked.
	for _, want := range []string{"failed_records:1 name:known_city passed_records:7", "failed_records:3 name:short_name passed_records:5"} {
		if !strings.Contains(exp, want) {
			t.Errorf("expectations %s lack %s", exp, want)
		}
	}
	var flowType string
	for _, ev := range evs {
		if ev["event_type"] == "flow_definition" {
			flowType = fmt.Sprint(ev["details"].(map[string]any)["flow_definition"].(map[string]any)["flow_type"])
		}
	}
	if flowType != "CHANGE" {
		t.Errorf("flow_type %q, want CHANGE", flowType)
	}
	// A second update deletes 124.
	landFiles(t, dir, 1, [][]cdctest.Change{{cdctest.NewChange(124, "", "", "DELETE", 7)}})
	mustRun(t, p, dir, RunOptions{})
	done = flowProgress(events(t, dir, "cdc"), "users_flow", statusCompleted)
	if m := done[len(done)-1]["metrics"].(map[string]any); m["num_deleted_rows"] != 1.0 || m["num_upserted_rows"] != 0.0 {
		t.Errorf("second update's metrics %v", m)
	}
}

func TestCDCFlowFailExpectationCommitsNothing(t *testing.T) {
	dir := t.TempDir()
	exps := []Expectation[[]any]{{Name: "no_lily", Text: "name <> 'Lily'", Action: Fail, Check: func(r *[]any, _ *Params) (types.Null[bool], error) {
		return types.Some((*r)[1] != "Lily"), nil
	}}}
	p, _ := refPipeline(false, false, exps)
	landFiles(t, dir, 0, [][]cdctest.Change{cdctest.Feed})
	out, err := runPipeline(t, p, dir, RunOptions{})
	var ee *ExpectationError
	if !errors.As(err, &ee) && (err == nil || !strings.Contains(err.Error(), `expectation "no_lily"`)) {
		t.Fatalf("error %v, want the no_lily expectation's\n%s", err, out)
	}
	if err == nil || !strings.Contains(err.Error(), "row: [126, Lily, Cancun]") {
		t.Errorf("error %v does not show the row", err)
	}
	if v, _ := delta.LatestVersion(tablePath(dir, "users")); v != 0 {
		t.Errorf("the table has version %d; only its creation should be committed", v)
	}
}

func TestCDCFlowFullRefreshResetsState(t *testing.T) {
	dir := t.TempDir()
	p, _ := refPipeline(false, false, nil)
	landFiles(t, dir, 0, [][]cdctest.Change{cdctest.Feed[:5]}) // 123 deleted at 6
	mustRun(t, p, dir, RunOptions{})
	mustRun(t, p, dir, RunOptions{FullRefresh: []string{"users"}})
	got := tableRows(t, tablePath(dir, "users"), -1)
	want := []string{"124 | Raul | Oaxaca", "125 | Mercedes | Tijuana", "126 | Lily | Cancun"}
	if !slices.Equal(got, want) {
		t.Errorf("after a full refresh: %q, want %q", got, want)
	}
	states, _ := os.ReadDir(filepath.Join(dir, "warehouse", "_pipelines", "cdc", "checkpoints", "users_flow", "cdc_state"))
	snap, _ := delta.Load(tablePath(dir, "users"))
	if len(states) != len(snap.Files) {
		t.Errorf("%d state files for %d leaves: unreferenced state files were not removed", len(states), len(snap.Files))
	}
}

// checkPartitionedLayout checks the files of a table partitioned by by as
// the protocol lays them out: every add, remove and cdc action of every
// commit has a value for each partition column and lies in its Hive-style
// folder, and no data or change file holds a partition column.
func checkPartitionedLayout(t testing.TB, table string, by []string) {
	t.Helper()
	commits, err := delta.ReadCommits(table, -1, -1)
	if err != nil {
		t.Fatal(err)
	}
	check := func(kind, path string, pv delta.PartitionValues, mustExist bool) {
		if len(pv) != len(by) {
			t.Fatalf("%s %s has partition values %v, want one for each of %v", kind, path, pv, by)
		}
		dir := filepath.Join(table, delta.PartitionPath(by, pv))
		if kind == "cdc" {
			dir = filepath.Join(table, delta.ChangeDataDir, delta.PartitionPath(by, pv))
		}
		p := delta.FilePath(table, path)
		if filepath.Dir(p) != dir {
			t.Fatalf("%s %s is not in folder %s", kind, path, dir)
		}
		if !mustExist {
			return
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fs, err := parquetio.FileSchema(p, bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range by {
			if fs.Index(c) >= 0 {
				t.Fatalf("%s %s holds partition column %s", kind, path, c)
			}
		}
	}
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]bool{}
	for _, f := range snap.Files {
		live[f.Path] = true
	}
	for _, c := range commits {
		for _, a := range c.Actions {
			switch {
			case a.Add != nil:
				check("add", a.Add.Path, a.Add.PartitionValues, live[a.Add.Path])
			case a.Remove != nil:
				check("remove", a.Remove.Path, a.Remove.PartitionValues, false)
			case a.CDC != nil:
				check("cdc", a.CDC.Path, a.CDC.PartitionValues, true)
			}
		}
	}
}

func TestCDCFlowChangedKeysOrTypeNeedsFullRefresh(t *testing.T) {
	dir := t.TempDir()
	scd1, _ := refPipeline(false, false, nil)
	landFiles(t, dir, 0, [][]cdctest.Change{cdctest.Feed[:4]})
	mustRun(t, scd1, dir, RunOptions{})
	scd2, _ := refPipeline(true, false, nil)
	landFiles(t, dir, 1, [][]cdctest.Change{cdctest.Feed[4:]})
	_, err := runPipeline(t, scd2, dir, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "changed its keys, sequence or SCD type (was keys(userId) sequence BIGINT scd1, now keys(userId) sequence BIGINT scd2)") ||
		!strings.Contains(err.Error(), "--full-refresh users") {
		t.Fatalf("switching the SCD type: error %v", err)
	}
	mustRun(t, scd2, dir, RunOptions{FullRefresh: []string{"users"}})
	if got := tableRows(t, tablePath(dir, "users"), -1); !slices.Equal(got, cdctest.Sorted(cdctest.D)) {
		t.Errorf("after the full refresh: %q", got)
	}
}

// TestCDCFlowAcrossDeltaCheckpoints merges more micro-batches than the
// table's checkpoint interval, so that the leaves' tags are read back from
// a Parquet checkpoint, and checks the table against the last change of
// each key.
func TestCDCFlowAcrossDeltaCheckpoints(t *testing.T) {
	defer func(n int) { cdcLeafKeys = n }(cdcLeafKeys)
	cdcLeafKeys = 2
	dir := t.TempDir()
	p, _ := refPipeline(false, false, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	last := map[int32]cdctest.Change{}
	var batches [][]cdctest.Change
	for i := 0; i < 25; i++ {
		c := cdctest.Change{UserID: int32(100 + rng.IntN(8)), Name: fmt.Sprintf("n%d", i), City: "c", Op: "UPSERT", Seq: int64(i + 1)}
		if rng.IntN(4) == 0 {
			c.Op, c.Name, c.City = "DELETE", "", ""
		}
		last[c.UserID] = c
		batches = append(batches, []cdctest.Change{c})
	}
	landFiles(t, dir, 0, batches)
	mustRun(t, p, dir, RunOptions{})
	table := tablePath(dir, "users")
	if _, ok, err := delta.ReadLastCheckpoint(table); err != nil || !ok {
		t.Fatalf("no checkpoint was written (%v); the test needs one", err)
	}
	var want []string
	for id, c := range last {
		if c.Op != "DELETE" {
			want = append(want, fmt.Sprintf("%d | %s | c", id, c.Name))
		}
	}
	slices.Sort(want)
	if got := tableRows(t, table, -1); !slices.Equal(got, want) {
		t.Errorf("after %d batches: %q, want %q", len(batches), got, want)
	}
	cdctest.CheckLeaves(t, table)
}

// TestCDCFlowPartitionedRewritesTouchedPartitions: a target partitioned by
// its key rewrites only the files of the partitions a micro-batch changes;
// one partitioned by another column rewrites the leaf, in every partition
// its rows are in.
func TestCDCFlowPartitionedRewritesTouchedPartitions(t *testing.T) {
	for _, tc := range []struct {
		by   string
		scd2 bool
		// want are the folders of the files the second batch removes.
		want []string
	}{
		{"userId", false, []string{"userId=125"}},
		{"userId", true, []string{"userId=125"}},
		{"city", false, []string{"city=Cancun", "city=Monterrey", "city=Oaxaca", "city=Tijuana"}},
	} {
		t.Run(fmt.Sprintf("%s/scd2=%v", tc.by, tc.scd2), func(t *testing.T) {
			dir := t.TempDir()
			p, target := refPipeline(tc.scd2, false, nil)
			target.PartitionBy = []string{tc.by}
			n := landFiles(t, dir, 0, [][]cdctest.Change{cdctest.Feed[:4]})
			mustRun(t, p, dir, RunOptions{})
			landFiles(t, dir, n, [][]cdctest.Change{{cdctest.NewChange(125, "Mercedes", "Tijuana", "UPDATE", 3)}})
			mustRun(t, p, dir, RunOptions{})
			table := tablePath(dir, "users")
			v, _ := delta.LatestVersion(table)
			c, err := delta.ReadCommit(table, v)
			if err != nil {
				t.Fatal(err)
			}
			var removed []string
			for _, a := range c.Actions {
				if a.Remove != nil {
					removed = append(removed, path.Dir(a.Remove.Path))
				}
			}
			slices.Sort(removed)
			if !slices.Equal(removed, tc.want) {
				t.Errorf("the second batch removed files in %q, want %q", removed, tc.want)
			}
			checkPartitionedLayout(t, table, []string{tc.by})
			cdctest.CheckLeaves(t, table)
		})
	}
}

// TestCDCFlowChangedPartitioningNeedsFullRefresh: partitioning an existing
// AUTO CDC target fails the update before it writes, naming
// --full-refresh; the full refresh lays the target out by the new columns.
func TestCDCFlowChangedPartitioningNeedsFullRefresh(t *testing.T) {
	dir := t.TempDir()
	p, _ := refPipeline(false, false, nil)
	landFiles(t, dir, 0, [][]cdctest.Change{cdctest.Feed})
	mustRun(t, p, dir, RunOptions{})
	table := tablePath(dir, "users")
	v, _ := delta.LatestVersion(table)
	p2, target := refPipeline(false, false, nil)
	target.PartitionBy = []string{"city"}
	_, err := runPipeline(t, p2, dir, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "table users: its partition columns change from none to (city)") || !strings.Contains(err.Error(), "--full-refresh users") {
		t.Fatalf("err = %v", err)
	}
	if v2, _ := delta.LatestVersion(table); v2 != v {
		t.Fatalf("the refused update committed versions %d..%d", v+1, v2)
	}
	mustRun(t, p2, dir, RunOptions{FullRefresh: []string{"users"}})
	if got := tableRows(t, table, -1); !slices.Equal(got, cdctest.Sorted(cdctest.B)) {
		t.Fatalf("after the full refresh: %q", got)
	}
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range snap.Files {
		if !strings.HasPrefix(f.Path, "city=") {
			t.Errorf("file %s is not in a partition folder", f.Path)
		}
	}
	cdctest.CheckLeaves(t, table)
}
