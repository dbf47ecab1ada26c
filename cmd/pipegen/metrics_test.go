package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

const metricsSpec = `pipeline: shop
sources:
  raw:
    files: {path: landing, format: json, min_file_age: 1h}
    schema: id BIGINT, amount BIGINT
datasets:
  orders:
    kind: streaming_table
    expectations:
      - {name: small, expr: amount < 100, on_violation: warn}
      - {name: positive, expr: amount > 0, on_violation: drop}
      - {name: has_id, expr: id IS NOT NULL, on_violation: fail}
    query: SELECT id, amount FROM STREAM(raw)
  totals:
    kind: materialized_view
    query: SELECT count(*) AS n, sum(amount) AS total FROM orders
`

// TestMetricsFile runs three updates of a program with --metrics-file and
// reads the file with Prometheus' own text parser (expfmt): per-flow rows,
// expectation violations by action, the backlog of a source, table
// versions (the latest commit in the table's _delta_log), and counters
// that add up across updates while the last success time survives a
// failed update.
func TestMetricsFile(t *testing.T) {
	t.Setenv("PIPEGEN_CACHE", testBuildCache())
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pipeline.yaml", metricsSpec)
	write("landing/a.json", "{\"id\":1,\"amount\":5}\n{\"id\":2,\"amount\":150}\n{\"id\":3,\"amount\":-1}\n")
	b := "{\"id\":4,\"amount\":7}\n{\"id\":5,\"amount\":8}\n"
	write("landing/b.json", b)
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(dir, "landing/a.json"), old, old)
	var stderr bytes.Buffer
	bin, code := cachedBuild(&stderr, filepath.Join(dir, "pipeline.yaml"), locations{}, false)
	if code != exitOK {
		t.Fatalf("build: %s", stderr.String())
	}
	metrics := filepath.Join(dir, "textfile", "shop.prom")
	var lastOutput string
	os.MkdirAll(filepath.Dir(metrics), 0o755)
	update := func(wantOK bool, args ...string) map[string]*dto.MetricFamily {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"run", "--base-dir", dir, "--warehouse", filepath.Join(dir, "wh"), "--metrics-file", metrics}, args...)...)
		out, err := cmd.CombinedOutput()
		if (err == nil) != wantOK {
			t.Fatalf("update: %v, want ok=%v\n%s", err, wantOK, out)
		}
		lastOutput = string(out)
		entries, _ := os.ReadDir(filepath.Dir(metrics))
		if len(entries) != 1 {
			t.Errorf("the metrics folder holds %d files, want only shop.prom (no temporary file left)", len(entries))
		}
		f, err := os.Open(metrics)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var p expfmt.TextParser
		fams, err := p.TextToMetricFamilies(f)
		if err != nil {
			data, _ := os.ReadFile(metrics)
			t.Fatalf("metrics file does not parse: %v\n%s", err, data)
		}
		return fams
	}
	value := func(fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
		t.Helper()
		fam, ok := fams[name]
		if !ok {
			t.Fatalf("no metric %s", name)
		}
	next:
		for _, m := range fam.Metric {
			have := map[string]string{}
			for _, l := range m.Label {
				have[l.GetName()] = l.GetValue()
			}
			if have["pipeline"] != "shop" {
				t.Errorf("%s without pipeline=shop: %v", name, have)
			}
			for i := 0; i+1 < len(labels); i += 2 {
				if have[labels[i]] != labels[i+1] {
					continue next
				}
			}
			switch fam.GetType() {
			case dto.MetricType_COUNTER:
				if !strings.HasSuffix(name, "_total") {
					t.Errorf("counter %s does not end in _total", name)
				}
				return m.Counter.GetValue()
			case dto.MetricType_GAUGE:
				return m.Gauge.GetValue()
			}
		}
		t.Fatalf("no sample of %s with %v", name, labels)
		return 0
	}
	check := func(fams map[string]*dto.MetricFamily, want float64, name string, labels ...string) {
		t.Helper()
		if got := value(fams, name, labels...); got != want {
			t.Errorf("%s%v = %v, want %v", name, labels, got, want)
		}
	}
	latest := func(table string) float64 {
		entries, _ := os.ReadDir(filepath.Join(dir, "wh", "main", "default", table, "_delta_log"))
		v := -1
		for _, e := range entries {
			var n int
			if strings.HasSuffix(e.Name(), ".json") && len(e.Name()) == 25 {
				n = 0
				for _, c := range e.Name()[:20] {
					n = n*10 + int(c-'0')
				}
				v = max(v, n)
			}
		}
		return float64(v)
	}

	// 1: a.json; b.json waits (younger than min_file_age).
	m := update(true)
	if !strings.Contains(lastOutput, "flow orders: 3 rows in, 2 out, 1 dropped, 1 warned, 1 files") {
		t.Errorf("the progress line does not count the warn expectation's violation:\n%s", lastOutput)
	}
	check(m, 1, "pipegen_update_success")
	check(m, 3, "pipegen_flow_input_rows_total", "flow", "orders", "dataset", "orders")
	check(m, 2, "pipegen_flow_output_rows_total", "flow", "orders")
	check(m, 1, "pipegen_flow_dropped_rows_total", "flow", "orders")
	check(m, 1, "pipegen_expectation_failed_records_total", "expectation", "small", "action", "warn", "dataset", "orders")
	check(m, 1, "pipegen_expectation_failed_records_total", "expectation", "positive", "action", "drop")
	check(m, 0, "pipegen_expectation_failed_records_total", "expectation", "has_id", "action", "fail")
	check(m, 1, "pipegen_source_backlog_files", "source", "raw")
	check(m, float64(len(b)), "pipegen_source_backlog_bytes", "source", "raw")
	check(m, latest("orders"), "pipegen_table_version", "dataset", "orders")
	check(m, latest("totals"), "pipegen_table_version", "dataset", "totals")
	check(m, 1, "pipegen_updates_total", "result", "completed")
	if d := value(m, "pipegen_update_duration_seconds"); d <= 0 {
		t.Errorf("duration %v, want > 0", d)
	}
	success1 := value(m, "pipegen_last_success_timestamp_seconds")

	// 2: b.json, now old enough; counters add up.
	os.Chtimes(filepath.Join(dir, "landing/b.json"), old, old)
	m = update(true)
	check(m, 5, "pipegen_flow_input_rows_total", "flow", "orders")
	check(m, 4, "pipegen_flow_output_rows_total", "flow", "orders")
	check(m, 0, "pipegen_source_backlog_files", "source", "raw")
	check(m, 2, "pipegen_updates_total", "result", "completed")
	success2 := value(m, "pipegen_last_success_timestamp_seconds")
	if success2 < success1 {
		t.Errorf("last success went back from %v to %v", success1, success2)
	}

	// 3: a failed update keeps the last success time.
	write("landing/c.json", "{\"amount\":1}\n")
	os.Chtimes(filepath.Join(dir, "landing/c.json"), old, old)
	m = update(false)
	check(m, 0, "pipegen_update_success")
	check(m, success2, "pipegen_last_success_timestamp_seconds")
	check(m, 1, "pipegen_updates_total", "result", "failed")
	check(m, 2, "pipegen_updates_total", "result", "completed")
	check(m, 5, "pipegen_flow_input_rows_total", "flow", "orders")
}
