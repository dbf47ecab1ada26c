package runtime

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pipegen/pipegen/runtime/storage"
)

// The metrics file of `run --metrics-file PATH`: Prometheus' text
// exposition format (version 0.0.4), written at the end of every update to
// a temporary file in PATH's folder and renamed over PATH, the node
// exporter textfile collector's convention (a scrape never sees half a
// file). Counters (_total) add up across updates: each update adds its
// figures to those of the file it replaces, so they grow across cron runs
// as Prometheus expects (deleting the file is a counter reset). Gauges
// describe the last update.

// metricFamily describes one metric: its name, type and help text.
type metricFamily struct {
	name, typ, help string
}

var metricFamilies = []metricFamily{
	{"pipegen_update_duration_seconds", "gauge", "Duration of the last update in seconds."},
	{"pipegen_update_success", "gauge", "1 when the last update completed, 0 when it failed or was canceled."},
	{"pipegen_update_timestamp_seconds", "gauge", "Unix time at which the last update ended."},
	{"pipegen_last_success_timestamp_seconds", "gauge", "Unix time at which the last successful update ended."},
	{"pipegen_updates_total", "counter", "Updates that ended, by result (completed, failed, canceled)."},
	{"pipegen_flow_input_rows_total", "counter", "Rows a flow read."},
	{"pipegen_flow_output_rows_total", "counter", "Rows a flow wrote to its target."},
	{"pipegen_flow_dropped_rows_total", "counter", "Rows a flow's drop expectations removed."},
	{"pipegen_expectation_failed_records_total", "counter", "Rows that violated an expectation, by its action (warn: kept; drop: removed; fail: stopped the flow)."},
	{"pipegen_source_backlog_files", "gauge", "Files of a file source that wait after the last update: not yet read by every flow reading the source, or younger than its min_file_age."},
	{"pipegen_source_backlog_bytes", "gauge", "Bytes of those files."},
	{"pipegen_table_version", "gauge", "The Delta version of a table after the last update (-1: no table yet)."},
}

// updateMetrics collects an update's figures for the metrics file.
type updateMetrics struct {
	mu sync.Mutex
	// samples maps a sample key (name{labels}) to its value this update.
	samples map[string]float64
	// backlog holds, per source, the backlog each flow reading it saw
	// last (files, bytes).
	backlog map[string]map[string][2]int64
}

func newUpdateMetrics() *updateMetrics {
	return &updateMetrics{samples: map[string]float64{}, backlog: map[string]map[string][2]int64{}}
}

// sampleKey renders name{k="v",...} with the labels in the given order and
// values escaped as the text format requires.
func sampleKey(name string, labels ...string) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('{')
	for i := 0; i+1 < len(labels); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(labels[i])
		b.WriteString(`="`)
		b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(labels[i+1]))
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

func (m *updateMetrics) add(key string, v float64) {
	m.mu.Lock()
	m.samples[key] += v
	m.mu.Unlock()
}

func (m *updateMetrics) set(key string, v float64) {
	m.mu.Lock()
	m.samples[key] = v
	m.mu.Unlock()
}

// recordFlowMetrics records a flow's figures once it ended (COMPLETED or FAILED).
func (u *update) recordFlowMetrics(f *Flow, res *flowResult) {
	m := u.metrics
	if m == nil || res == nil {
		return
	}
	p, ds := u.p.Name, f.Target.DatasetName()
	m.add(sampleKey("pipegen_flow_input_rows_total", "pipeline", p, "flow", f.Name, "dataset", ds), float64(res.inputRows))
	m.add(sampleKey("pipegen_flow_output_rows_total", "pipeline", p, "flow", f.Name, "dataset", ds), float64(res.outputRows))
	m.add(sampleKey("pipegen_flow_dropped_rows_total", "pipeline", p, "flow", f.Name, "dataset", ds), float64(res.droppedRows))
	for _, e := range res.expectations {
		action := "warn"
		if d := u.dataset(e.Dataset); d != nil {
			td := d.datasetDesc()
			for i, n := range td.expectations {
				if n == e.Name && i < len(td.expectationActions) {
					action = string(td.expectationActions[i])
				}
			}
		}
		m.add(sampleKey("pipegen_expectation_failed_records_total", "pipeline", p, "dataset", e.Dataset, "expectation", e.Name, "action", action), float64(e.Failed))
	}
}

// recordBacklog keeps the backlog flow saw of source.
func (m *updateMetrics) recordBacklog(source, flow string, files, bytes int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.backlog[source] == nil {
		m.backlog[source] = map[string][2]int64{}
	}
	m.backlog[source][flow] = [2]int64{files, bytes}
}

// writeMetrics writes the metrics file at the end of an update; result is
// completed, failed or canceled.
func (u *update) writeMetrics(path, result string) error {
	m := u.metrics
	p := u.p.Name
	end := time.Now()
	prev, err := readMetricsFile(path)
	if err != nil {
		return err
	}
	m.set(sampleKey("pipegen_update_duration_seconds", "pipeline", p), end.Sub(u.start).Seconds())
	success := 0.0
	if result == "completed" {
		success = 1
		m.set(sampleKey("pipegen_last_success_timestamp_seconds", "pipeline", p), float64(end.UnixMilli())/1000)
	} else if v, ok := prev[sampleKey("pipegen_last_success_timestamp_seconds", "pipeline", p)]; ok {
		m.set(sampleKey("pipegen_last_success_timestamp_seconds", "pipeline", p), v)
	}
	m.set(sampleKey("pipegen_update_success", "pipeline", p), success)
	m.set(sampleKey("pipegen_update_timestamp_seconds", "pipeline", p), float64(end.UnixMilli())/1000)
	for _, r := range []string{"completed", "failed", "canceled"} {
		v := 0.0
		if r == result {
			v = 1
		}
		m.add(sampleKey("pipegen_updates_total", "pipeline", p, "result", r), v)
	}
	for _, s := range u.p.Sources {
		if _, ok := u.sources[s.SourceName()]; !ok {
			continue
		}
		// A file waits while any flow reading the source has not read it:
		// the largest backlog of its flows.
		var files, bytes int64
		for _, fb := range m.backlog[s.SourceName()] {
			if fb[0] > files || (fb[0] == files && fb[1] > bytes) {
				files, bytes = fb[0], fb[1]
			}
		}
		m.set(sampleKey("pipegen_source_backlog_files", "pipeline", p, "source", s.SourceName()), float64(files))
		m.set(sampleKey("pipegen_source_backlog_bytes", "pipeline", p, "source", s.SourceName()), float64(bytes))
	}
	for _, d := range u.p.Datasets {
		h, ok := u.handles[d.DatasetName()]
		if !ok {
			continue
		}
		v, err := h.LatestVersion()
		if err != nil {
			return err
		}
		m.set(sampleKey("pipegen_table_version", "pipeline", p, "dataset", d.DatasetName()), float64(v))
	}
	// Counters continue from the file this one replaces.
	for k, v := range prev {
		if strings.HasSuffix(k[:strings.IndexByte(k, '{')], "_total") {
			m.samples[k] += v
		}
	}
	// A temporary file beside path (.<name>.*.tmp: the textfile collector
	// reads only *.prom) renamed over it.
	if err := storage.ReplaceFile(path, renderMetrics(m.samples)); err != nil {
		return fmt.Errorf("--metrics-file: %w", err)
	}
	return nil
}

// renderMetrics renders samples in the text format: each family's HELP and
// TYPE, then its samples sorted.
func renderMetrics(samples map[string]float64) []byte {
	byFamily := map[string][]string{}
	for k := range samples {
		name := k[:strings.IndexByte(k, '{')]
		byFamily[name] = append(byFamily[name], k)
	}
	var b bytes.Buffer
	for _, f := range metricFamilies {
		keys := byFamily[f.name]
		if len(keys) == 0 {
			continue
		}
		sort.Strings(keys)
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s %s\n", f.name, f.help, f.name, f.typ)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %s\n", k, formatMetricValue(samples[k]))
		}
	}
	return b.Bytes()
}

func formatMetricValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'f', -1, 64) // no exponent: 1796173807.808, not 1.796173807808e+09
}

// readMetricsFile reads the samples of an earlier metrics file (none when
// there is no file). Only lines this program writes are understood; a
// file that is not a metrics file is refused rather than replaced.
func readMetricsFile(path string) (map[string]float64, error) {
	out := map[string]float64{}
	f, err := storage.OpenFile(path)
	if errors.Is(err, storage.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--metrics-file: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		brace := strings.IndexByte(line, '{')
		if i < 0 || brace < 0 {
			return nil, fmt.Errorf("--metrics-file %s:%d: not a metrics file this program wrote: give another path", path, n)
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			return nil, fmt.Errorf("--metrics-file %s:%d: %v", path, n, err)
		}
		out[line[:i]] = v
	}
	return out, sc.Err()
}
