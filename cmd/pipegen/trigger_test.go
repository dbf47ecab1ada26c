package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
)

// lifeSpecLimited is lifeSpecV1 with one file per micro-batch.
var lifeSpecLimited = strings.Replace(lifeSpecV1, "files: {path: landing, format: json}",
	"files: {path: landing, format: json, max_files_per_trigger: 1}", 1)

// tableState returns a table's latest version and row count (-1, 0 when
// it does not exist yet).
func tableState(t testing.TB, dir, table string) (version, rows int64) {
	t.Helper()
	snap, err := delta.Load(filepath.Join(dir, "warehouse", "main", "s", table))
	if errors.Is(err, delta.ErrNoTable) {
		return -1, 0
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range snap.Files {
		var st struct{ NumRecords int64 }
		json.Unmarshal([]byte(f.Stats), &st)
		rows += st.NumRecords
	}
	return snap.Version, rows
}

// waitFor polls cond every 10ms for up to a minute.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startProgram starts bin in dir; the returned function waits for it to
// exit and returns its exit code and stderr.
func startProgram(t testing.TB, dir, bin string, args ...string) (*exec.Cmd, func() (int, string)) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	wait := func() (int, string) {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return ee.ExitCode(), stderr.String()
			}
			if err != nil {
				t.Fatal(err)
			}
			return 0, stderr.String()
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			t.Fatalf("the program did not exit within a minute of the signal\n%s", stderr.String())
			return -1, ""
		}
	}
	return cmd, wait
}

// TestSignalFinishesTheMicroBatch sends SIGTERM (then, in a second run,
// SIGINT) while a streaming flow works through a backlog one file per
// micro-batch: the running micro-batch commits, nothing new starts, the
// lock is released and the program exits 0; the next run ingests the rest,
// so every row lands exactly once.
func TestSignalFinishesTheMicroBatch(t *testing.T) {
	dir := t.TempDir()
	bin := buildSpec(t, writeSpec(t, dir, "pipeline.yaml", lifeSpecLimited))
	const files = 200
	for i := range files {
		landFile(t, dir, fmt.Sprintf("f%04d.json", i), fmt.Sprintf(`{"id":%d,"grp":"g%d","amount":1}`, i, i%7))
	}
	total := int64(0)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		_, before := tableState(t, dir, "events")
		cmd, wait := startProgram(t, dir, bin, "run")
		waitFor(t, "a micro-batch to commit", func() bool {
			_, rows := tableState(t, dir, "events")
			return rows > before
		})
		cmd.Process.Signal(sig)
		code, stderr := wait()
		if code != 0 || !strings.Contains(stderr, "stopping after the running micro-batches commit") {
			t.Fatalf("%v: exit %d\n%s", sig, code, stderr)
		}
		_, rows := tableState(t, dir, "events")
		if rows <= before || rows >= files {
			t.Fatalf("%v: the table holds %d rows (before %d): the signal should stop the backlog part way", sig, rows, before)
		}
		total = rows
		// The update ended CANCELED, the view's flow did not start.
		events := mustRunProgram(t, dir, bin, "events").stdout
		if !strings.Contains(events, "is STOPPING.") || !strings.Contains(events, "is CANCELED.") || !strings.Contains(events, "Flow 'totals' is STOPPED.") {
			t.Errorf("%v: events lack STOPPING, CANCELED or totals STOPPED:\n%s", sig, events)
		}
	}
	// The lock was released: the next run starts at once and drains the rest.
	res := mustRunProgram(t, dir, bin, "run")
	if _, rows := tableState(t, dir, "events"); rows != files {
		t.Fatalf("after the last run the table holds %d rows, want %d (had %d)\n%s", rows, files, total, res.stderr)
	}
	got := showRows(t, dir, bin, "totals")
	sum := 0
	for _, line := range got[1:] {
		var g string
		var n, tot int
		fmt.Sscanf(strings.ReplaceAll(line, ",", " "), "%s %d %d", &g, &n, &tot)
		sum += n
		if n != tot {
			t.Errorf("group %s: %d rows but total %d: a row was ingested twice", g, n, tot)
		}
	}
	if sum != files {
		t.Errorf("totals count %d rows, want %d", sum, files)
	}
}

// TestIntervalTrigger keeps a program running with --trigger
// interval=300ms: new data is picked up at the next boundary, intervals
// without new data commit nothing, and SIGINT ends it with exit 0 and the
// lock released.
func TestIntervalTrigger(t *testing.T) {
	dir := t.TempDir()
	bin := buildSpec(t, writeSpec(t, dir, "pipeline.yaml", lifeSpecV1))
	landFile(t, dir, "a.json", `{"id":1,"grp":"a","amount":10}`)
	cmd, wait := startProgram(t, dir, bin, "run", "--trigger", "interval=300ms")
	waitFor(t, "the first file", func() bool { _, rows := tableState(t, dir, "events"); return rows == 1 })
	landFile(t, dir, "b.json", `{"id":2,"grp":"a","amount":5}`, `{"id":3,"grp":"b","amount":1}`)
	waitFor(t, "the second file", func() bool { _, rows := tableState(t, dir, "events"); return rows == 3 })
	waitFor(t, "the view", func() bool { _, rows := tableState(t, dir, "totals"); return rows == 2 })
	v1, _ := tableState(t, dir, "events")
	m1, _ := tableState(t, dir, "totals")
	updates := func() int {
		m, _ := filepath.Glob(filepath.Join(dir, "warehouse", "_pipelines", "life", "event_log", "*.jsonl"))
		return len(m)
	}
	u1 := updates()
	time.Sleep(1200 * time.Millisecond)
	if u := updates(); u < u1+2 {
		t.Errorf("%d updates in 1.2s of a 300ms interval", u-u1)
	}
	if v, _ := tableState(t, dir, "events"); v != v1 {
		t.Errorf("intervals without new data committed to events: version %d -> %d", v1, v)
	}
	if v, _ := tableState(t, dir, "totals"); v != m1 {
		t.Errorf("intervals without new data committed to totals: version %d -> %d", m1, v)
	}
	// Another run cannot start while it holds the lock.
	if res := runProgram(t, dir, bin, "run"); res.code != 1 || !strings.Contains(res.stderr, "lock") {
		t.Errorf("a second run during the interval trigger: exit %d\n%s", res.code, res.stderr)
	}
	cmd.Process.Signal(os.Interrupt)
	code, stderr := wait()
	if code != 0 {
		t.Fatalf("SIGINT: exit %d\n%s", code, stderr)
	}
	// Each flow line says when and in which update (shortID: 8 hex digits).
	stamped := regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z update ([0-9a-f]{8}): flow events: `)
	ids := map[string]bool{}
	for _, m := range stamped.FindAllStringSubmatch(stderr, -1) {
		ids[m[1]] = true
	}
	if len(ids) < 2 || strings.Contains(stderr, "\nflow events:") {
		t.Errorf("interval trigger lines without a timestamp and update id (%d updates seen):\n%s", len(ids), stderr)
	}
	mustRunProgram(t, dir, bin, "run")
	if got := showRows(t, dir, bin, "totals"); strings.Join(got, ";") != "grp,n,total;a,2,15;b,1,1" {
		t.Errorf("totals %v", got)
	}
}

// TestIntervalExitStatusAfterFailures: an interval trigger keeps running
// when its updates fail (a fail expectation), and exits 1 on SIGTERM
// since the last update failed.
func TestIntervalExitStatusAfterFailures(t *testing.T) {
	dir := t.TempDir()
	spec := strings.Replace(lifeSpecV1, "    query: SELECT id, grp, amount FROM STREAM(raw)",
		"    expectations: [{name: positive, expr: amount > 0, on_violation: fail}]\n    query: SELECT id, grp, amount FROM STREAM(raw)", 1)
	bin := buildSpec(t, writeSpec(t, dir, "pipeline.yaml", spec))
	landFile(t, dir, "a.json", `{"id":1,"grp":"a","amount":-1}`)
	cmd, wait := startProgram(t, dir, bin, "run", "--trigger", "interval=200ms")
	// An update's event log file appears when it starts: count the
	// updates that have failed, so that SIGTERM does not stop the second
	// before it fails.
	failed := func() int {
		m, _ := filepath.Glob(filepath.Join(dir, "warehouse", "_pipelines", "life", "event_log", "*.jsonl"))
		n := 0
		for _, f := range m {
			if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), " is FAILED.") {
				n++
			}
		}
		return n
	}
	waitFor(t, "two failed updates", func() bool { return failed() >= 2 })
	cmd.Process.Signal(syscall.SIGTERM)
	code, stderr := wait()
	if code != 1 || !strings.Contains(stderr, `expectation "positive"`) {
		t.Errorf("SIGTERM after failed updates: exit %d, want 1\n%s", code, stderr)
	}
	// Every line says when, and each update's lines, its failure included
	// (with the offending row on a line of its own), which update.
	stampRe := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z `)
	failedRe := regexp.MustCompile(`(?m)^\S+Z update [0-9a-f]{8}: life: update failed: flow events: expectation "positive"`)
	rowRe := regexp.MustCompile(`(?m)^\S+Z update [0-9a-f]{8}:   row: \{id: 1, `)
	for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if !stampRe.MatchString(l) {
			t.Errorf("a line without its time: %q\n%s", l, stderr)
		}
	}
	if len(failedRe.FindAllString(stderr, -1)) < 2 || !rowRe.MatchString(stderr) || !strings.HasSuffix(stderr, "Z life: exit status 1: the last update failed (see above)\n") {
		t.Errorf("failed updates not reported with their update id, or no exit line:\n%s", stderr)
	}
}

// TestTriggerOnce runs one micro-batch per flow, ignoring
// max_files_per_trigger, as Spark's Trigger.Once.
func TestTriggerOnce(t *testing.T) {
	dir := t.TempDir()
	bin := buildSpec(t, writeSpec(t, dir, "pipeline.yaml", lifeSpecLimited))
	for i := range 4 {
		landFile(t, dir, fmt.Sprintf("f%d.json", i), fmt.Sprintf(`{"id":%d,"grp":"a","amount":1}`, i))
	}
	res := mustRunProgram(t, dir, bin, "run", "--trigger", "once")
	if !strings.Contains(res.stderr, "flow events: 4 rows in, 4 out, 4 files") || strings.Contains(res.stderr, "micro-batches") {
		t.Errorf("trigger once:\n%s", res.stderr)
	}
	if v, rows := tableState(t, dir, "events"); rows != 4 || v != 1 {
		t.Errorf("events at version %d with %d rows, want one commit after the create, 4 rows", v, rows)
	}
	// available_now honours the limit: two new files, two micro-batches.
	landFile(t, dir, "g1.json", `{"id":10,"grp":"a","amount":1}`)
	landFile(t, dir, "g2.json", `{"id":11,"grp":"a","amount":1}`)
	res = mustRunProgram(t, dir, bin, "run")
	if !strings.Contains(res.stderr, "flow events: 2 rows in, 2 out, 2 files") || !strings.Contains(res.stderr, "2 micro-batches") {
		t.Errorf("available_now:\n%s", res.stderr)
	}
}
