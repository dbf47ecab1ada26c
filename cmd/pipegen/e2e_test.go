package main

// End-to-end tests in Go, for what a script cannot express: an independent
// oracle of the retail pipeline's results computed from the raw CSV files,
// crashes at fault points and at random instants followed by reruns, and
// two updates started together. They run the program of
// testdata/e2e/retail_batches (the retail example's pipeline, one file per
// micro-batch) on the example's daily files split into smaller ones.

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/delta/deltatest"
)

// retailDaily is the retail example's landing folder; its SOURCE.md gives
// the row counts the tests rely on.
const retailDaily = "../../examples/retail/data/daily"

// retailDays are the example's five daily files, in order.
var retailDays = []string{"2010-12-01", "2010-12-02", "2010-12-03", "2010-12-05", "2010-12-06"}

// retailDayRows are the data rows per daily file, from SOURCE.md.
var retailDayRows = map[string]int{"2010-12-01": 3108, "2010-12-02": 2109, "2010-12-03": 2202, "2010-12-05": 2725, "2010-12-06": 3878}

// partsPerDay is how many files each day is split into.
const partsPerDay = 3

// retailPart is one file of a split day: its name and its raw lines
// (header first).
type retailPart struct {
	name  string
	lines []string
}

var retailPartsOnce = sync.OnceValues(func() ([]retailPart, error) {
	var out []retailPart
	for _, day := range retailDays {
		data, err := os.ReadFile(filepath.Join(retailDaily, day+".csv"))
		if err != nil {
			return nil, err
		}
		// Split by lines only if no record spans lines (SOURCE.md: none does).
		recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", day, err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(lines) != len(recs) || len(lines)-1 != retailDayRows[day] {
			return nil, fmt.Errorf("%s: %d lines, %d records, SOURCE.md says %d rows", day, len(lines), len(recs), retailDayRows[day])
		}
		header, rows := lines[0], lines[1:]
		size := (len(rows) + partsPerDay - 1) / partsPerDay
		for k := 0; k < partsPerDay; k++ {
			chunk := rows[min(k*size, len(rows)):min((k+1)*size, len(rows))]
			out = append(out, retailPart{name: fmt.Sprintf("%s-%d.csv", day, k+1), lines: append([]string{header}, chunk...)})
		}
	}
	return out, nil
})

func retailParts(t testing.TB) []retailPart {
	t.Helper()
	return mustOnce(t, retailPartsOnce)
}

// mustOnce returns the value of f (a sync.OnceValues) or fails t with
// its error.
func mustOnce[T any](t testing.TB, f func() (T, error)) T {
	t.Helper()
	v, err := f()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// land writes parts into dir/landing.
func land(t testing.TB, dir string, parts []retailPart) {
	t.Helper()
	landing := filepath.Join(dir, "landing")
	if err := os.MkdirAll(landing, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		if err := os.WriteFile(filepath.Join(landing, p.name), []byte(strings.Join(p.lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runResult is how a program run ended.
type runResult struct {
	code     int  // exit code; -1 when killed
	killed   bool // ended by SIGKILL
	stderr   string
	duration time.Duration
}

// program runs a generated program in a scenario folder: base dir is dir,
// the warehouse dir/wh.
type program struct {
	bin string
	dir string
}

func (p program) command(env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(p.bin, append(args, "--base-dir", p.dir, "--warehouse", filepath.Join(p.dir, "wh"))...)
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

func wait(cmd *exec.Cmd, stderr *bytes.Buffer, start time.Time) runResult {
	err := cmd.Wait()
	r := runResult{stderr: stderr.String(), duration: time.Since(start)}
	if err == nil {
		return r
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			r.killed = true
		}
		return r
	}
	r.code = -2
	r.stderr += err.Error()
	return r
}

// run runs `PROGRAM run args...` with the extra environment env.
func (p program) run(t testing.TB, env []string, args ...string) runResult {
	t.Helper()
	cmd := p.command(env, append([]string{"run"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return wait(cmd, &stderr, start)
}

// mustRun runs an update that must succeed.
func (p program) mustRun(t testing.TB, args ...string) runResult {
	t.Helper()
	r := p.run(t, nil, args...)
	if r.code != 0 {
		t.Fatalf("run %s: exit %d (killed %v)\n%s", strings.Join(args, " "), r.code, r.killed, r.stderr)
	}
	return r
}

// step is one update of a scenario: files to land first, then run flags.
type step struct {
	land []retailPart
	args []string
}

// retailSteps are the crash scenario: twelve files (four days), an update;
// the fifth day's three files, an update; a full refresh of every table.
func retailSteps(t testing.TB) []step {
	parts := retailParts(t)
	n := 4 * partsPerDay
	return []step{
		{land: parts[:n]},
		{land: parts[n:]},
		{args: []string{"--full-refresh-all"}},
	}
}

// reference is the state of the warehouse after each step of an
// uninterrupted run, and how long each step took.
type reference struct {
	states    []map[string][]string
	durations []time.Duration
}

var (
	refMu    sync.Mutex
	refCache = map[string]*reference{}
)

// referenceRun runs the retail steps without interruption (once per test
// binary and program) and checks the result against the oracle.
func referenceRun(t *testing.T, bin string, steps []step) *reference {
	t.Helper()
	return recordReference(t, bin, steps, func(i int, _ string, state map[string][]string) {
		// The once flow copies what the first update (and the full refresh
		// of step 3) found.
		once := landedParts(steps[:1])
		if i == 2 {
			once = landedParts(steps)
		}
		checkRetailOracle(t, fmt.Sprintf("reference step %d", i+1), state, landedParts(steps[:i+1]), once)
	})
}

// recordReference runs steps with bin without interruption (once per test
// binary and program), calls check with each step's index, the program's
// folder and the warehouse after it, and returns the states and times.
func recordReference(t *testing.T, bin string, steps []step, check func(i int, dir string, state map[string][]string)) *reference {
	t.Helper()
	refMu.Lock()
	defer refMu.Unlock()
	if ref := refCache[bin]; ref != nil {
		return ref
	}
	p := program{bin: bin, dir: t.TempDir()}
	ref := &reference{}
	for i, s := range steps {
		land(t, p.dir, s.land)
		r := p.mustRun(t, s.args...)
		ref.states = append(ref.states, warehouseRows(t, filepath.Join(p.dir, "wh")))
		ref.durations = append(ref.durations, r.duration)
		check(i, p.dir, ref.states[i])
	}
	refCache[bin] = ref
	return ref
}

func landedParts(steps []step) []retailPart {
	var out []retailPart
	for _, s := range steps {
		out = append(out, s.land...)
	}
	return out
}

// checkRetailOracle compares the tables of retail_batches with results
// computed here from the raw CSV lines: bronze and lines_per_file row
// counts per file, revenue_by_day_country row for row, and the lines the
// once flow copied from onceParts.
func checkRetailOracle(t *testing.T, what string, state map[string][]string, parts, onceParts []retailPart) {
	t.Helper()
	if got, want := len(state["main/retail/first_lines"]), bronzeRows(onceParts); got != want {
		t.Errorf("%s: first_lines has %d rows, want %d (the once flow's input)", what, got, want)
	}
	bronze := state["main/retail/order_lines_bronze"]
	wantBronze := bronzeRows(parts)
	var wantPerFile []string
	for _, p := range parts {
		wantPerFile = append(wantPerFile, fmt.Sprintf("%s | %d", p.name, len(p.lines)-1))
	}
	slices.Sort(wantPerFile)
	if len(bronze) != wantBronze {
		t.Errorf("%s: order_lines_bronze has %d rows, want %d", what, len(bronze), wantBronze)
	}
	if got := state["main/retail/lines_per_file"]; !slices.Equal(got, wantPerFile) {
		t.Errorf("%s: lines_per_file:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(wantPerFile, "\n  "))
	}
	silver, _, revenue := retailOracle(t, parts)
	if got := len(state["main/retail/order_lines_silver"]); got != silver {
		t.Errorf("%s: order_lines_silver has %d rows, want %d", what, got, silver)
	}
	if got := state["main/retail/revenue_by_day_country"]; !slices.Equal(got, revenue) {
		t.Errorf("%s: revenue_by_day_country differs from the oracle\n  extra:   %s\n  missing: %s", what,
			strings.Join(deltatest.Minus(got, revenue), "\n           "), strings.Join(deltatest.Minus(revenue, got), "\n           "))
	}
}

// retailOracle computes, from the raw CSV lines, how many order lines pass
// the silver expectations (a customer id, a positive quantity unless the
// invoice is a cancellation "C...", a positive price), how many customers
// they have, and the rows of revenue_by_day_country (date | country |
// distinct invoices | units | revenue), sorted, rendered as pipegen renders
// them.
func retailOracle(t *testing.T, parts []retailPart) (silver, customers int, revenue []string) {
	t.Helper()
	type key struct{ date, country string }
	type agg struct {
		invoices map[string]bool
		units    int64
		cents    int64
	}
	groups := map[key]*agg{}
	customerIDs := map[string]bool{}
	for _, p := range parts {
		recs, err := csv.NewReader(strings.NewReader(strings.Join(p.lines, "\n"))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs[1:] {
			invoice, qtyText, date, price, customer, country := r[0], r[3], r[4], r[5], r[6], r[7]
			qty, err := strconv.ParseInt(qtyText, 10, 64)
			if err != nil {
				t.Fatalf("%s: quantity %q", p.name, qtyText)
			}
			cents := parseCents(t, price)
			if customer == "" || !(qty > 0 || strings.HasPrefix(invoice, "C")) || cents <= 0 {
				continue
			}
			silver++
			customerIDs[customer] = true
			k := key{date[:10], country}
			g := groups[k]
			if g == nil {
				g = &agg{invoices: map[string]bool{}}
				groups[k] = g
			}
			g.invoices[invoice] = true
			g.units += qty
			g.cents += qty * cents
		}
	}
	for k, g := range groups {
		revenue = append(revenue, fmt.Sprintf("%s | %s | %d | %d | %s", k.date, k.country, len(g.invoices), g.units, formatCents(g.cents)))
	}
	slices.Sort(revenue)
	return silver, len(customerIDs), revenue
}

// parseCents parses a price with at most two decimals into cents.
func parseCents(t *testing.T, s string) int64 {
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > 2 {
		t.Fatalf("price %q has more than two decimals", s)
	}
	frac += strings.Repeat("0", 2-len(frac))
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		t.Fatalf("price %q: %v", s, err)
	}
	return n
}

func formatCents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// duckCheckAll has DuckDB read every table of the warehouse and compare.
func duckCheckAll(t *testing.T, warehouse string) {
	t.Helper()
	tables := deltatest.FindTables(warehouse)
	if len(tables) == 0 {
		t.Fatalf("no table under %s", warehouse)
	}
	deltatest.CheckAll(t, tables)
}

// faultCase is a crash at a fault point (see runtime/fault.go) in one step
// of the scenario.
type faultCase struct {
	step  int // 1-based
	fault string
	// rerun are the flags of the update that follows the crash (nil: the
	// interrupted update's own).
	rerun []string
	// soak marks the cases only `make soak` runs.
	soak bool
}

var faultCases = []faultCase{
	{step: 1, fault: "after-offsets@1"},
	{step: 1, fault: "after-data-files@1", soak: true},
	{step: 1, fault: "after-data-files@7"},
	{step: 1, fault: "after-commit@1", soak: true},  // the first micro-batch of bronze
	{step: 1, fault: "after-commit@10"},             // bronze's tenth batch: its checkpoint compacts
	{step: 1, fault: "after-commit@14", soak: true}, // silver's batch or a view's replace
	{step: 1, fault: "mid-mv-replace@1"},
	{step: 2, fault: "after-offsets@2", soak: true},
	{step: 2, fault: "after-commit@2"},
	{step: 2, fault: "mid-mv-replace@2", soak: true},
	{step: 3, fault: "mid-full-refresh@2", soak: true},
	{step: 3, fault: "mid-full-refresh@3", rerun: []string{}},
	// The tables of the interrupted full refresh are recomputed although
	// the next update selects another one.
	{step: 3, fault: "mid-full-refresh@2", rerun: []string{"--refresh", "lines_per_file"}},
	{step: 3, fault: "after-commit@5", soak: true},
}

// TestCrashAtFaultPoints stops the program (SIGKILL) at each injected fault
// point, reruns the interrupted update without the fault, finishes the
// scenario, and compares every table after every step with an
// uninterrupted run: nothing lost, nothing twice. `make soak` runs more
// points (TestSoakFaultPoints).
func TestCrashAtFaultPoints(t *testing.T) { crashAtFaultPoints(t, false) }

// TestSoakFaultPoints is TestCrashAtFaultPoints with every case; it runs
// with PIPEGEN_SOAK=1 (make soak).
func TestSoakFaultPoints(t *testing.T) {
	if os.Getenv("PIPEGEN_SOAK") == "" {
		t.Skip("set PIPEGEN_SOAK=1 (make soak) to crash at every fault case")
	}
	crashAtFaultPoints(t, true)
}

func crashAtFaultPoints(t *testing.T, soak bool) {
	bin := buildSpec(t, "testdata/e2e/retail_batches/pipeline.yaml")
	steps := retailSteps(t)
	ref := referenceRun(t, bin, steps)
	runFaultCases(t, bin, steps, ref, faultCases, soak, func(t *testing.T, p program) {
		// The killed run's lock is left behind and reclaimed.
		if _, err := os.Stat(filepath.Join(p.dir, "wh", "_pipelines", "retail_batches", "lock")); err != nil {
			t.Fatal(err)
		}
	})
}

// runFaultCases runs the scenario once per fault case (soak cases only
// with soak), in parallel: the case's step runs with PIPEGEN_FAULT set and
// must be killed there; afterKill (may be nil) inspects what the kill
// left; the step is rerun (with tc.rerun's flags when set) and the
// scenario finished, every table compared after every step with the
// uninterrupted run ref, and the final warehouse read by DuckDB.
func runFaultCases(t *testing.T, bin string, steps []step, ref *reference, cases []faultCase, soak bool, afterKill func(t *testing.T, p program)) {
	for _, tc := range cases {
		if tc.soak && !soak {
			continue
		}
		name := fmt.Sprintf("step%d/%s", tc.step, tc.fault)
		if tc.rerun != nil {
			name += "/" + strings.Join(tc.rerun, "")
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := program{bin: bin, dir: t.TempDir()}
			for i, s := range steps {
				land(t, p.dir, s.land)
				args := s.args
				if i+1 == tc.step {
					r := p.run(t, []string{"PIPEGEN_FAULT=" + tc.fault}, s.args...)
					if !r.killed {
						t.Fatalf("the fault %s was not reached in step %d (exit %d)\n%s", tc.fault, tc.step, r.code, r.stderr)
					}
					if afterKill != nil {
						afterKill(t, p)
					}
					if tc.rerun != nil {
						args = tc.rerun
					}
				}
				p.mustRun(t, args...)
				if d := diffWarehouses(ref.states[i], warehouseRows(t, filepath.Join(p.dir, "wh"))); d != "" {
					t.Fatalf("after step %d, the warehouse differs from an uninterrupted run:\n%s", i+1, d)
				}
			}
			duckCheckAll(t, filepath.Join(p.dir, "wh"))
		})
	}
}

// randomKills runs the retail scenario with killScenarios.
func randomKills(t *testing.T, kills int, seed uint64) {
	bin := buildSpec(t, "testdata/e2e/retail_batches/pipeline.yaml")
	steps := retailSteps(t)
	ref := referenceRun(t, bin, steps)
	killScenarios(t, bin, steps, ref, kills, seed)
}

// killScenarios runs steps, killing each update at random instants
// (uniform over 1.2 times the update's uninterrupted duration in ref)
// until it completes, kills times in all, and compares every step with
// the uninterrupted run; the first scenario's tables are also read by
// DuckDB.
func killScenarios(t *testing.T, bin string, steps []step, ref *reference, kills int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	t.Logf("seed %d", seed)
	killed, scenarios := 0, 0
	for killed < kills {
		scenarios++
		p := program{bin: bin, dir: t.TempDir()}
		for i, s := range steps {
			land(t, p.dir, s.land)
			for attempt := 0; ; attempt++ {
				if attempt > 100 {
					t.Fatalf("step %d did not complete in 100 attempts", i+1)
				}
				cmd := p.command(nil, append([]string{"run"}, s.args...)...)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				start := time.Now()
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				if killed < kills {
					delay := time.Duration(rng.Float64() * 1.2 * float64(ref.durations[i]))
					timer := time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
					defer timer.Stop()
				}
				r := wait(cmd, &stderr, start)
				if r.killed {
					killed++
					continue
				}
				if r.code != 0 {
					t.Fatalf("step %d, after %d kills: exit %d\n%s", i+1, attempt, r.code, r.stderr)
				}
				break
			}
			got := warehouseRows(t, filepath.Join(p.dir, "wh"))
			if d := diffWarehouses(ref.states[i], got); d != "" {
				t.Fatalf("scenario %d, after step %d (%d kills so far), the warehouse differs from an uninterrupted run:\n%s", scenarios, i+1, killed, d)
			}
		}
		if scenarios == 1 {
			duckCheckAll(t, filepath.Join(p.dir, "wh"))
		}
	}
	t.Logf("%d kills over %d scenarios", killed, scenarios)
}

// TestRetailExampleOracle runs examples/retail on its first four daily
// files, then on the fifth, and compares the silver row count, the
// customers counted by customer_metrics and revenue_by_day_country row for
// row with results computed here from the raw CSV files.
func TestRetailExampleOracle(t *testing.T) {
	bin := buildSpec(t, "../../examples/retail/pipeline.yaml")
	p := program{bin: bin, dir: t.TempDir()}
	var landed []retailPart
	for _, days := range [][]string{retailDays[:4], retailDays[4:]} {
		var parts []retailPart
		for _, day := range days {
			data, err := os.ReadFile(filepath.Join(retailDaily, day+".csv"))
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, retailPart{name: day + ".csv", lines: strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")})
		}
		land(t, p.dir, parts)
		landed = append(landed, parts...)
		p.mustRun(t, "--param", "landing="+filepath.Join(p.dir, "landing"))
		state := warehouseRows(t, filepath.Join(p.dir, "wh"))
		what := fmt.Sprintf("after %s", days[len(days)-1])
		silver, customers, revenue := retailOracle(t, landed)
		if got := len(state["main/retail/order_lines_bronze"]); got != bronzeRows(landed) {
			t.Errorf("%s: order_lines_bronze has %d rows, want %d", what, got, bronzeRows(landed))
		}
		if got := len(state["main/retail/order_lines_silver"]); got != silver {
			t.Errorf("%s: order_lines_silver has %d rows, want %d", what, got, silver)
		}
		if got := len(state["main/retail/customer_metrics"]); got != customers {
			t.Errorf("%s: customer_metrics has %d rows, want %d customers", what, got, customers)
		}
		if got := state["main/retail/revenue_by_day_country"]; !slices.Equal(got, revenue) {
			t.Errorf("%s: revenue_by_day_country differs from the oracle\n  extra:   %s\n  missing: %s", what,
				strings.Join(deltatest.Minus(got, revenue), "\n           "), strings.Join(deltatest.Minus(revenue, got), "\n           "))
		}
	}
	duckCheckAll(t, filepath.Join(p.dir, "wh"))
}

func bronzeRows(parts []retailPart) int {
	n := 0
	for _, p := range parts {
		n += len(p.lines) - 1
	}
	return n
}

// TestCrashRandomKills kills updates at random instants a few times; `make
// soak` runs many more (TestSoakRandomKills).
func TestCrashRandomKills(t *testing.T) {
	randomKills(t, 5, uint64(time.Now().UnixNano()))
}

// TestSoakRandomKills is TestCrashRandomKills with many kills; it runs
// with PIPEGEN_SOAK=1 (make soak).
func TestSoakRandomKills(t *testing.T) {
	if os.Getenv("PIPEGEN_SOAK") == "" {
		t.Skip("set PIPEGEN_SOAK=1 (make soak) to run 300 random kills")
	}
	randomKills(t, 300, uint64(time.Now().UnixNano()))
}

// TestFrontierFrozenAtStart lands files while an update runs (the update
// is stopped right after its first micro-batch is planned): they wait for
// the next update (trigger available_now), which takes exactly them.
func TestFrontierFrozenAtStart(t *testing.T) {
	bin := buildSpec(t, "testdata/e2e/retail_batches/pipeline.yaml")
	steps := retailSteps(t)
	ref := referenceRun(t, bin, steps)
	p := program{bin: bin, dir: t.TempDir()}
	land(t, p.dir, steps[0].land)
	cmd := p.command([]string{"PIPEGEN_FAULT=after-offsets@1:stop"}, "run")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitStopped(t, cmd.Process.Pid)
	land(t, p.dir, steps[1].land)
	cmd.Process.Signal(syscall.SIGCONT)
	if r := wait(cmd, &stderr, start); r.code != 0 {
		t.Fatalf("update: exit %d\n%s", r.code, r.stderr)
	}
	if d := diffWarehouses(ref.states[0], warehouseRows(t, filepath.Join(p.dir, "wh"))); d != "" {
		t.Fatalf("files landed during the update were read by it:\n%s", d)
	}
	p.mustRun(t)
	if d := diffWarehouses(ref.states[1], warehouseRows(t, filepath.Join(p.dir, "wh"))); d != "" {
		t.Fatalf("the next update did not take exactly the files landed meanwhile:\n%s", d)
	}
}

// waitStopped waits until the process pid is stopped (state T in
// /proc/<pid>/stat).
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			t.Fatalf("the update ended before its fault point: %v", err)
		}
		if i := bytes.LastIndexByte(data, ')'); i >= 0 && bytes.HasPrefix(data[i+1:], []byte(" T")) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the update did not reach its fault point in 60s")
}

// lockMessage is what a second update prints.
const lockMessage = "another update holds the pipeline's lock"

// TestTwoUpdatesTogether starts two updates of one pipeline at the same
// instant: one runs, the other exits at once with status 1 and the lock
// message, and the tables hold each row once.
func TestTwoUpdatesTogether(t *testing.T) {
	bin := buildSpec(t, "testdata/e2e/retail_batches/pipeline.yaml")
	steps := retailSteps(t)
	ref := referenceRun(t, bin, steps)

	t.Run("held", func(t *testing.T) {
		// Deterministic: the first update is stopped while it holds the
		// lock, the second starts then.
		p := program{bin: bin, dir: t.TempDir()}
		land(t, p.dir, steps[0].land)
		first := p.command(nil, "run")
		var firstErr bytes.Buffer
		first.Stderr = &firstErr
		start := time.Now()
		if err := first.Start(); err != nil {
			t.Fatal(err)
		}
		lockFile := filepath.Join(p.dir, "wh", "_pipelines", "retail_batches", "lock")
		pid := fmt.Sprintf(`"pid":%d`, first.Process.Pid)
		for {
			data, _ := os.ReadFile(lockFile)
			if bytes.Contains(data, []byte(pid)) {
				break
			}
			if time.Since(start) > 30*time.Second {
				t.Fatalf("the first update did not take the lock: %q", data)
			}
			time.Sleep(time.Millisecond)
		}
		if err := first.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		second := p.run(t, nil)
		first.Process.Signal(syscall.SIGCONT)
		if second.code != 1 || !strings.Contains(second.stderr, lockMessage) || !strings.Contains(second.stderr, fmt.Sprintf("pid %d", first.Process.Pid)) {
			t.Errorf("second update: exit %d, stderr %q; want exit 1 and the lock message naming pid %d", second.code, second.stderr, first.Process.Pid)
		}
		if second.duration > 5*time.Second {
			t.Errorf("the second update took %v to give up; it must exit at once", second.duration)
		}
		if r := wait(first, &firstErr, start); r.code != 0 {
			t.Fatalf("first update: exit %d\n%s", r.code, r.stderr)
		}
		if d := diffWarehouses(ref.states[0], warehouseRows(t, filepath.Join(p.dir, "wh"))); d != "" {
			t.Fatalf("the warehouse differs from a single update:\n%s", d)
		}
		// The refused update has an event file of its own: its
		// create_update and update_progress CANCELED, reason LOCKED, with
		// the holder; the holder's file is whole and ends COMPLETED.
		logs, _ := filepath.Glob(filepath.Join(p.dir, "wh", "_pipelines", "retail_batches", "event_log", "*.jsonl"))
		if len(logs) != 2 {
			t.Fatalf("%d event logs, want 2: the update that ran and the refused one", len(logs))
		}
		var refused, ran int
		for _, l := range logs {
			data, err := os.ReadFile(l)
			if err != nil {
				t.Fatal(err)
			}
			var last map[string]any
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				if err := json.Unmarshal([]byte(line), &last); err != nil {
					t.Fatalf("%s: %v", l, err)
				}
			}
			up, _ := last["details"].(map[string]any)["update_progress"].(map[string]any)
			switch {
			case last["event_type"] == "update_progress" && up["state"] == "CANCELED" && up["reason"] == "LOCKED":
				holder, _ := up["lock_holder"].(map[string]any)
				if holder["pid"] != float64(first.Process.Pid) {
					t.Errorf("refused update's lock holder %v, want pid %d", holder, first.Process.Pid)
				}
				refused++
			case last["event_type"] == "update_progress" && up["state"] == "COMPLETED":
				ran++
			default:
				t.Errorf("%s ends with %v", l, last)
			}
		}
		if refused != 1 || ran != 1 {
			t.Errorf("%d refused and %d completed updates in the event log, want 1 and 1", refused, ran)
		}
	})

	t.Run("started-together", func(t *testing.T) {
		for attempt := 1; ; attempt++ {
			p := program{bin: bin, dir: t.TempDir()}
			land(t, p.dir, steps[0].land)
			var cmds [2]*exec.Cmd
			var errs [2]bytes.Buffer
			for i := range cmds {
				cmds[i] = p.command(nil, "run")
				cmds[i].Stderr = &errs[i]
			}
			start := time.Now()
			for _, c := range cmds {
				if err := c.Start(); err != nil {
					t.Fatal(err)
				}
			}
			var res [2]runResult
			for i, c := range cmds {
				res[i] = wait(c, &errs[i], start)
			}
			if d := diffWarehouses(ref.states[0], warehouseRows(t, filepath.Join(p.dir, "wh"))); d != "" {
				t.Fatalf("two updates started together: the warehouse differs from a single update:\n%s", d)
			}
			codes := []int{res[0].code, res[1].code}
			slices.Sort(codes)
			if slices.Equal(codes, []int{0, 1}) {
				loser := res[0]
				if loser.code == 0 {
					loser = res[1]
				}
				if !strings.Contains(loser.stderr, lockMessage) {
					t.Fatalf("the update that exited 1 did not say why: %q", loser.stderr)
				}
				return
			}
			if !slices.Equal(codes, []int{0, 0}) || attempt == 3 {
				t.Fatalf("exit codes %v, want one 0 and one 1\nfirst: %s\nsecond: %s", codes, res[0].stderr, res[1].stderr)
			}
			// Both ran, one after the other (the machine is busy): the
			// tables are still right; try again for an overlap.
			t.Logf("attempt %d: the updates did not overlap", attempt)
		}
	})
}
