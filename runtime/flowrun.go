package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/refresh"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/table"
)

// runFlow runs one flow to completion for this update and reports it.
func (u *update) runFlow(f *Flow) error {
	h, err := u.handle(f.Target.DatasetName())
	if err != nil {
		return err
	}
	started := time.Now()
	u.flowEvent(f, statusStarting, nil, nil)
	u.flowEvent(f, statusRunning, nil, nil)
	var res flowResult
	switch f.Kind {
	case AppendFlow, ChangeFlow:
		res, err = u.runStreaming(f, h)
	case CompleteFlow:
		res, err = u.runComplete(f, h)
	case OnceFlow:
		res, err = u.runOnce(f, h)
	default:
		err = fmt.Errorf("flow kind %s is not supported by this runtime", f.Kind)
	}
	res.seconds = since(started)
	if err != nil {
		u.flowEvent(f, statusFailed, &res, err)
		fmt.Fprintf(u.stderr, "flow %s: FAILED after %.2fs: %v\n", f.Name, res.seconds, err)
		return err
	}
	status := statusCompleted
	if res.idle {
		status = statusIdle
	}
	u.flowEvent(f, status, &res, nil)
	fmt.Fprintln(u.stderr, res.line(f))
	return nil
}

// flowResult sums what a flow did in this update.
type flowResult struct {
	batches     int64
	inputRows   int64
	outputRows  int64
	droppedRows int64
	files       int64
	bytes       int64
	rescued     int64
	malformed   int64
	// changed and skipped count files that changed while read, or since
	// ingested (allow_overwrites), and files skipped (ignore_*_files).
	changed, skipped int64
	// pruned counts the table files a filter ruled out unopened.
	pruned       int64
	backlogFiles int64
	backlogBytes int64
	expectations []expectationResult
	// upserted and deleted count the target rows an AUTO CDC flow
	// inserted or updated, and deleted.
	upserted, deleted int64
	technique         refresh.Technique
	idle              bool
	seconds           float64
	// stateful sums a stateful flow's late rows, duplicates and state.
	stateful statefulResult
}

// expectationResult is one expectation's counts, as in data_quality.
type expectationResult struct {
	Name    string `json:"name"`
	Dataset string `json:"dataset"`
	Passed  int64  `json:"passed_records"`
	Failed  int64  `json:"failed_records"`
}

// line is the progress line printed when a flow completes.
func (r *flowResult) line(f *Flow) string {
	if r.idle {
		return fmt.Sprintf("flow %s: idle (already ran; runs again after a full refresh of %s)", f.Name, f.Target.DatasetName())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "flow %s: %d rows in, %d out", f.Name, r.inputRows, r.outputRows)
	if f.Kind == ChangeFlow {
		fmt.Fprintf(&b, " (%d upserted, %d deleted)", r.upserted, r.deleted)
	}
	if r.droppedRows > 0 {
		fmt.Fprintf(&b, ", %d dropped", r.droppedRows)
	}
	if w := r.warned(f); w > 0 {
		fmt.Fprintf(&b, ", %d warned", w)
	}
	if r.files > 0 {
		fmt.Fprintf(&b, ", %d files (%s)", r.files, humanBytes(r.bytes))
	}
	if r.pruned > 0 {
		fmt.Fprintf(&b, ", %d files pruned by the filter", r.pruned)
	}
	if r.rescued > 0 {
		fmt.Fprintf(&b, ", %d rows with rescued data", r.rescued)
	}
	if r.changed > 0 {
		fmt.Fprintf(&b, ", %d files changed (see the event log)", r.changed)
	}
	if r.skipped > 0 {
		fmt.Fprintf(&b, ", %d files skipped (see the event log)", r.skipped)
	}
	if r.technique != "" {
		fmt.Fprintf(&b, ", %s", r.technique)
	}
	if r.batches > 1 {
		fmt.Fprintf(&b, ", %d micro-batches", r.batches)
	}
	r.stateful.describe(&b)
	fmt.Fprintf(&b, ", %.2fs", r.seconds)
	return b.String()
}

// warned counts the violations of the flow's warn expectations (rows
// kept and counted).
func (r *flowResult) warned(f *Flow) int64 {
	td := f.Target.datasetDesc()
	var n int64
	for _, e := range r.expectations {
		for i, name := range td.expectations {
			if name == e.Name && e.Dataset == td.Name && i < len(td.expectationActions) && td.expectationActions[i] == Warn {
				n += e.Failed
			}
		}
	}
	return n
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// add folds one micro-batch's metrics and sink counts into r.
func (r *flowResult) add(ctx *FlowContext, counts []sinkCounts, names []string, dataset string) {
	m := &ctx.metrics
	r.batches++
	r.inputRows += m.inputRows.Load()
	r.files += m.inputFiles.Load()
	r.bytes += m.inputBytes.Load()
	r.rescued += m.rescuedRows.Load()
	r.malformed += m.malformed.Load()
	r.changed += m.changedFiles.Load()
	r.skipped += m.skippedFiles.Load()
	r.pruned += m.prunedFiles.Load()
	if r.expectations == nil && len(names) > 0 {
		r.expectations = make([]expectationResult, len(names))
		for i, n := range names {
			r.expectations[i] = expectationResult{Name: n, Dataset: dataset}
		}
	}
	for _, c := range counts {
		r.outputRows += c.written
		r.droppedRows += c.dropped
		for i := range c.passed {
			r.expectations[i].Passed += c.passed[i]
			r.expectations[i].Failed += c.failed[i]
		}
	}
	r.stateful.add(ctx.stateful)
}

// finish closes every worker's sink: the data files of a successful run,
// to be committed. On failure (err != nil) it removes them.
func (ctx *FlowContext) finish(err error) ([]table.DataFile, []sinkCounts, error) {
	var files []table.DataFile
	var counts []sinkCounts
	for _, w := range ctx.workers {
		if w.sink == nil {
			continue
		}
		counts = append(counts, w.sink.counts())
		if err != nil {
			w.sink.abort()
			continue
		}
		fs, cerr := w.sink.close()
		if cerr != nil && err == nil {
			err = cerr
		}
		files = append(files, fs...)
	}
	if err != nil {
		for _, w := range ctx.workers {
			if w.sink != nil {
				w.sink.abort()
			}
		}
		return nil, counts, err
	}
	return files, counts, nil
}

func (u *update) newContext(f *Flow, h *table.Handle, batch *batchPlan) *FlowContext {
	ctx := &FlowContext{u: u, flow: f, target: h, batch: batch, filePrefix: newID()}
	if batch != nil {
		ctx.metrics.skippedFiles.Add(batch.skipped)
		ctx.metrics.changedFiles.Add(batch.changed)
	}
	return ctx
}

func expectationNames(d Dataset) []string { return d.datasetDesc().expectations }

// fullRefresh truncates the selected tables and resets their flows'
// checkpoints. The intent is written first and removed last, so a crash in
// between is finished by the next update instead of leaving a table whose
// checkpoint and contents disagree. It returns the tables it reset: those
// asked for and those of an interrupted full refresh.
func (u *update) fullRefresh(tables []string) ([]string, error) {
	intent := u.storagePath("full_refresh.json")
	var pending []string
	if err := checkpoint.ReadJSON(intent, &pending); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	// A table of an interrupted full refresh that the spec no longer
	// defines has nothing left to reset.
	pending = slices.DeleteFunc(pending, func(name string) bool { return u.dataset(name) == nil })
	tables = append(pending, tables...)
	sort.Strings(tables)
	tables = slices.Compact(tables)
	if len(tables) == 0 {
		return nil, nil
	}
	if err := checkpoint.WriteJSON(intent, tables); err != nil {
		return nil, err
	}
	u.progress("RESETTING")
	for _, name := range tables {
		for _, f := range u.p.Flows {
			if f.Target.DatasetName() != name {
				continue
			}
			if err := u.retireCheckpoint(f); err != nil {
				return nil, fmt.Errorf("full refresh of %s: %w", name, err)
			}
			if err := storage.RemoveAll(u.checkpointDir(f)); err != nil {
				return nil, fmt.Errorf("full refresh of %s: %w", name, err)
			}
		}
		h, err := u.handle(name)
		if err != nil {
			return nil, err
		}
		if err := h.Truncate(u.dataset(name).datasetDesc().Desc); err != nil {
			return nil, fmt.Errorf("full refresh of %s: %w", name, err)
		}
		u.log.Emit(eventlog.Event{Type: "flow_progress", Origin: eventlog.Origin{Dataset: name},
			Message: fmt.Sprintf("Table %s was reset for a full refresh.", name)})
		faultPoint("mid-full-refresh")
	}
	return tables, storage.Remove(intent)
}

// flowEvent reports a flow's status with its metrics.
func (u *update) flowEvent(f *Flow, status string, res *flowResult, err error) {
	if status == statusCompleted || status == statusFailed {
		u.recordFlowMetrics(f, res)
	}
	fp := map[string]any{"status": status}
	if res != nil {
		metrics := map[string]any{
			"num_output_rows": res.outputRows,
			"num_input_rows":  res.inputRows,
			"backlog_bytes":   res.backlogBytes,
			"backlog_files":   res.backlogFiles,
			"num_batches":     res.batches,
			"input_files":     res.files,
			"input_bytes":     res.bytes,
			"rescued_rows":    res.rescued,
			"malformed_rows":  res.malformed,
			"changed_files":   res.changed,
			"skipped_files":   res.skipped,
			"files_pruned":    res.pruned,
			"duration_s":      res.seconds,
		}
		if f.Kind == ChangeFlow {
			metrics["num_upserted_rows"], metrics["num_deleted_rows"] = res.upserted, res.deleted
		}
		res.stateful.report(fp, metrics)
		fp["metrics"] = metrics
		if res.expectations != nil || res.droppedRows > 0 {
			fp["data_quality"] = map[string]any{"dropped_records": res.droppedRows, "expectations": res.expectations}
		}
	}
	ev := eventlog.Event{Type: "flow_progress", Origin: eventlog.Origin{Flow: f.Name, Dataset: f.Target.DatasetName()},
		Message: fmt.Sprintf("Flow '%s' is %s.", f.Name, status),
		Details: map[string]any{"flow_progress": fp}}
	if err != nil {
		ev.Level = "ERROR"
		ev.Error = eventlog.ErrorOf(err)
		if status == statusSkipped {
			ev.Level = "WARN"
			ev.Message = fmt.Sprintf("Flow '%s' is SKIPPED: %v.", f.Name, err)
			ev.Error = nil
		}
	}
	u.log.Emit(ev)
}

// defineGraph reports every dataset and flow definition at the start of
// the update.
func (u *update) defineGraph() {
	for _, d := range u.p.Datasets {
		td := d.datasetDesc()
		h := u.handles[td.Name]
		u.log.Emit(eventlog.Event{Type: "dataset_definition", Origin: eventlog.Origin{Dataset: td.Name},
			Message: fmt.Sprintf("Dataset %s is defined as a %s.", td.Name, strings.ReplaceAll(string(td.Kind), "_", " ")),
			Details: map[string]any{"dataset_definition": map[string]any{
				"dataset_type": strings.ToUpper(string(td.Kind)), "location": h.Path,
				"schema": td.Columns.String(), "expectations": td.expectations, "comment": td.Comment,
			}}})
	}
	for _, f := range u.p.Flows {
		var inputs []string
		for _, in := range f.Inputs {
			inputs = append(inputs, in.Relation.relationName())
		}
		u.log.Emit(eventlog.Event{Type: "flow_definition", Origin: eventlog.Origin{Flow: f.Name, Dataset: f.Target.DatasetName()},
			Message: fmt.Sprintf("Flow '%s' is defined as %s.", f.Name, f.Kind),
			Details: map[string]any{"flow_definition": map[string]any{
				"output_dataset": f.Target.DatasetName(), "input_datasets": inputs, "flow_type": f.Kind.flowType(),
			}}})
	}
}
