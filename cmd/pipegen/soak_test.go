package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
)

// TestSoakLongLivedPipeline is the long-life benchmark of the retail
// example (`make soak`; PIPEGEN_SOAK=1, PIPEGEN_SOAK_UPDATES=N, default
// 10,000): N updates, each ingesting one new small CSV file, as cron would
// run them for years. It reports the wall and CPU time of a no-op update
// (no new file) of a fresh pipeline after 10 updates and of the long-lived
// one after N, each the median of 15 runs of the program (taken at the end,
// alternating, so both see the same machine), and checks the state a long life leaves: every row ingested
// once, tables opened through checkpoints, a processed-file record that
// holds one line per file and nothing per run. The figures are reported,
// not asserted (tests never assert timings); the goal is a ratio within 2.
// PIPEGEN_SOAK_DIR=dir keeps the long-lived pipeline in dir, and a later
// run resumes it from the files its landing folder holds.
func TestSoakLongLivedPipeline(t *testing.T) {
	if os.Getenv("PIPEGEN_SOAK") == "" {
		t.Skip("soak: run with make soak (PIPEGEN_SOAK=1)")
	}
	n := 10000
	if s := os.Getenv("PIPEGEN_SOAK_UPDATES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 10 {
			t.Fatalf("PIPEGEN_SOAK_UPDATES=%q: want a number >= 10", s)
		}
	}
	bin := buildSpec(t, filepath.Join("..", "..", "examples", "retail", "pipeline.yaml"))
	header, lines := lifeRetailLines(t)
	const perFile = 3
	// runUpdates lands files day-(from+1)..day-to in dir/landing, running
	// one update for each.
	runUpdates := func(dir string, from, to int, started time.Time) {
		landing := filepath.Join(dir, "landing")
		for i := from + 1; i <= to; i++ {
			var b strings.Builder
			b.WriteString(header + "\n")
			for j := range perFile {
				b.WriteString(lines[((i-1)*perFile+j)%len(lines)] + "\n")
			}
			if err := os.WriteFile(filepath.Join(landing, fmt.Sprintf("day-%05d.csv", i)), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			res := mustRunProgram(t, dir, bin, soakRunArgs(dir)...)
			if !strings.Contains(res.stderr, fmt.Sprintf("order_lines_bronze: %d rows in", perFile)) {
				t.Fatalf("update %d did not ingest its file:\n%s", i, res.stderr)
			}
			if i%1000 == 0 {
				t.Logf("%d updates in %s", i, time.Since(started).Round(time.Second))
			}
		}
	}
	started := time.Now()
	// The baseline: a fresh pipeline after 10 updates.
	base := t.TempDir()
	os.MkdirAll(filepath.Join(base, "landing"), 0o755)
	runUpdates(base, 0, 10, started)

	// The long life, in PIPEGEN_SOAK_DIR when set (kept, and resumed from
	// the files it already holds), else in a temporary directory.
	dir := os.Getenv("PIPEGEN_SOAK_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	landing := filepath.Join(dir, "landing")
	if err := os.MkdirAll(landing, 0o755); err != nil {
		t.Fatal(err)
	}
	done, _ := filepath.Glob(filepath.Join(landing, "day-*.csv"))
	if len(done) > n {
		t.Fatalf("%s already holds %d updates, more than %d", dir, len(done), n)
	}
	if len(done) > 0 {
		// The last update may have been cut short: one update finishes it.
		t.Logf("resuming %s after %d updates", dir, len(done))
		mustRunProgram(t, dir, bin, soakRunArgs(dir)...)
	}
	runUpdates(dir, len(done), n, started)
	// Both no-op figures are taken now, alternating, so that they see the
	// same machine.
	var walls10, cpus10, wallsN, cpusN []time.Duration
	for range 15 {
		w, c := soakNoOp(t, bin, base, "after 10 updates")
		walls10, cpus10 = append(walls10, w), append(cpus10, c)
		w, c = soakNoOp(t, bin, dir, fmt.Sprintf("after %d updates", n))
		wallsN, cpusN = append(wallsN, w), append(cpusN, c)
	}
	after10, cpu10, afterN, cpuN := median(walls10), median(cpus10), median(wallsN), median(cpusN)
	t.Logf("no-op update of the retail example, median of 15: wall %.1f ms after 10 updates, %.1f ms after %d updates (ratio %.2f); "+
		"CPU %.1f ms and %.1f ms (ratio %.2f); the updates took %s",
		lifeMillis(after10), lifeMillis(afterN), n, float64(afterN)/float64(after10),
		lifeMillis(cpu10), lifeMillis(cpuN), float64(cpuN)/float64(cpu10), time.Since(started).Round(time.Second))

	// Every row once.
	bronze := filepath.Join(dir, "wh", "main", "retail", "order_lines_bronze")
	snap, err := delta.Load(bronze)
	if err != nil {
		t.Fatal(err)
	}
	var rows int64
	for _, f := range snap.Files {
		var st struct{ NumRecords int64 }
		fmt.Sscanf(f.Stats, `{"numRecords":%d`, &st.NumRecords)
		rows += st.NumRecords
	}
	if rows != int64(n*perFile) || snap.Version != int64(n) {
		t.Errorf("bronze holds %d rows at version %d, want %d rows at version %d", rows, snap.Version, n*perFile, n)
	}
	// Opened through a checkpoint: _last_checkpoint is at most 10 behind.
	lc, ok, err := delta.ReadLastCheckpoint(bronze)
	if err != nil || !ok || snap.Version-lc.Version >= 10 {
		t.Errorf("bronze _last_checkpoint %+v (%v, %v) at version %d", lc, ok, err, snap.Version)
	}
	// The processed-file record: one entry per file, nothing per run.
	cp := filepath.Join(dir, "wh", "_pipelines", "retail", "checkpoints", "order_lines_bronze")
	compacts, _ := os.ReadDir(filepath.Join(cp, "compact"))
	offsets, _ := os.ReadDir(filepath.Join(cp, "offsets"))
	if len(compacts) != 1 || len(offsets) > 21 {
		t.Errorf("checkpoint of order_lines_bronze: %d compactions, %d offsets files; want 1 and at most 21", len(compacts), len(offsets))
	}
	if len(compacts) == 1 {
		data, _ := os.ReadFile(filepath.Join(cp, "compact", compacts[0].Name()))
		if got := strings.Count(string(data), "day-"); got > n || got < n-10 {
			t.Errorf("the compacted processed-file record names %d files, want about %d", got, n)
		}
		t.Logf("processed-file record: %d bytes for %d files", len(data), n)
	}
}

// soakRunArgs are the arguments of an update of the soak's pipeline in dir.
func soakRunArgs(dir string) []string {
	return []string{"run", "--warehouse", "wh", "--param", "landing=" + filepath.Join(dir, "landing")}
}

// soakNoOp runs a no-op update of the pipeline in dir and returns its
// wall and CPU (user + system) time; CPU time is the steadier figure on a
// shared machine.
func soakNoOp(t *testing.T, bin, dir, label string) (wall, cpu time.Duration) {
	t.Helper()
	cmd := exec.Command(bin, soakRunArgs(dir)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PIPEGEN_FAULT=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", label, err, stderr.String())
	}
	wall = time.Since(start)
	if !strings.Contains(stderr.String(), "order_lines_bronze: 0 rows in") || !strings.Contains(stderr.String(), "NO_OP") {
		t.Fatalf("%s: the no-op update did something:\n%s", label, stderr.String())
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func lifeMillis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// lifeRetailLines returns the header and the data lines of the retail
// example's daily files.
func lifeRetailLines(t testing.TB) (string, []string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "retail", "data", "daily", "*.csv"))
	var header string
	var lines []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		first := true
		for sc.Scan() {
			if first {
				header, first = sc.Text(), false
				continue
			}
			if strings.TrimSpace(sc.Text()) != "" {
				lines = append(lines, sc.Text())
			}
		}
		fh.Close()
	}
	if len(lines) == 0 {
		t.Fatal("no retail data lines")
	}
	return header, lines
}
