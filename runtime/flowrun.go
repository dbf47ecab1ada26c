package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/storage"
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
	technique         string
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
	td := f.Target.tableDesc()
	var n int64
	for _, e := range r.expectations {
		for i, name := range td.expectations {
			if name == e.Name && e.Dataset == td.name && i < len(td.expectationActions) && td.expectationActions[i] == Warn {
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
func (ctx *FlowContext) finish(err error) ([]dataFile, []sinkCounts, error) {
	var files []dataFile
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

func (u *update) newContext(f *Flow, h *tableHandle, batch *batchPlan) *FlowContext {
	ctx := &FlowContext{u: u, flow: f, target: h, batch: batch, filePrefix: newID()}
	if batch != nil {
		ctx.metrics.skippedFiles.Add(batch.skipped)
		ctx.metrics.changedFiles.Add(batch.changed)
	}
	return ctx
}

// streamingInputs returns the names of the inputs a flow reads with STREAM,
// sorted: what its checkpoint was built for.
func streamingInputs(f *Flow) []string {
	var out []string
	for _, in := range f.Inputs {
		if in.Streaming {
			out = append(out, in.Relation.relationName())
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// batchPlan is what one micro-batch reads from each streaming input.
type batchPlan struct {
	// id is the micro-batch's number.
	id     int64
	files  map[string][]source.FileInfo
	tables map[string][]tableFile
	// feeds are the versions (From, To] of the tables read as change feeds.
	feeds map[string]versionRange
	// skipped counts the files of the batch left out because they are
	// gone (ignore_missing_files); changed those ingested again because
	// they changed since (allow_overwrites).
	skipped, changed int64
}

// runStreaming runs an append flow: micro-batches until the frontier frozen
// at the start of the update is drained (available_now), or one batch
// (once). Each batch's output and progress are committed atomically.
func (u *update) runStreaming(f *Flow, h *tableHandle) (flowResult, error) {
	var res flowResult
	inputs := streamingInputs(f)
	meta := checkpointMeta{Flow: f.Name, Definition: f.Definition, Inputs: inputs}
	if f.Watermark != nil {
		meta.StateDefinition, meta.StateShape, meta.StateTypes = f.Watermark.State, f.Watermark.Shape, f.Watermark.Types
	}
	cp, err := loadCheckpoint(u.checkpointDir(f), meta)
	if err != nil {
		return res, err
	}
	if !slices.Equal(cp.meta.Inputs, inputs) {
		return res, fmt.Errorf("the sources of flow %s changed since its checkpoint (was %s, now %s): a full refresh of %s is required: run with --full-refresh %s",
			f.Name, strings.Join(cp.meta.Inputs, ", "), strings.Join(inputs, ", "), h.name, h.name)
	}
	if cp.committed >= 0 && meta.StateDefinition != "" && cp.meta.StateDefinition != "" && cp.meta.StateDefinition != meta.StateDefinition {
		// The saved state (windows or keys, and their aggregates) was
		// built by the old query; Structured Streaming does not allow a
		// stateful operator to change across restarts either. Other
		// changes (filters, projections, expectations, the delay) keep it,
		// and so does a widening of the values it holds (a widened source
		// column), which the state's load upcasts.
		why := errors.New("its window, keys or aggregates changed")
		if cp.meta.StateShape == "" {
			why = errors.New("its window, keys or aggregates, or the type of a column its state holds, changed; the checkpoint predates the record of its state's types")
		} else if cp.meta.StateShape == meta.StateShape {
			why = StateWidening(cp.meta.StateTypes, meta.StateTypes)
		}
		if why != nil {
			return res, fmt.Errorf("the stateful operator of flow %s changed since its checkpoint (%v), so the state the old query built does not apply: a full refresh of %s is required: run with --full-refresh %s",
				f.Name, why, h.name, h.name)
		}
	}
	if cp.meta.Definition != f.Definition {
		u.log.emit(event{Type: "flow_definition", Origin: origin{Flow: f.Name, Dataset: h.name},
			Message: fmt.Sprintf("Flow %s's query changed: rows already in %s stay; new input is processed with the new query (a full refresh recomputes everything).", f.Name, h.name)})
	}
	if cp.meta.Definition != f.Definition || cp.meta.StateDefinition != meta.StateDefinition || cp.meta.StateShape != meta.StateShape || !slices.Equal(cp.meta.StateTypes, meta.StateTypes) {
		cp.meta.Definition, cp.meta.StateDefinition, cp.meta.StateShape, cp.meta.StateTypes = f.Definition, meta.StateDefinition, meta.StateShape, meta.StateTypes
		if err := writeFileAtomic(filepath.Join(cp.dir, "metadata.json"), mustJSON(cp.meta)); err != nil {
			return res, err
		}
	}
	if err := u.verifyCheckpoint(f, h, cp); err != nil {
		return res, err
	}
	if cp.created {
		if err := cp.saveMeta(); err != nil {
			return res, err
		}
	}
	if err := h.ensure(f.Target.tableDesc()); err != nil {
		return res, err
	}
	// Freeze the frontier of every table input now.
	frontier := map[string]int64{}
	for _, in := range f.Inputs {
		if !in.Streaming {
			continue
		}
		name := in.Relation.relationName()
		if th, ok := u.handles[name]; ok {
			v, err := th.latestVersion()
			if err != nil {
				return res, fmt.Errorf("read %s: %w", name, err)
			}
			frontier[name] = v
		}
	}
	changed, err := u.checkIngestedFiles(f, cp)
	if err != nil {
		return res, err
	}
	res.changed += changed
	res.backlogFiles, res.backlogBytes, err = u.backlog(cp)
	if err != nil {
		return res, err
	}
	if res.backlogFiles > 0 {
		u.flowEvent(f, statusRunning, &res, nil)
	}
	bar := startProgress(u.stderr, f.Name, res.backlogBytes)
	defer bar.finish()
	for {
		off := cp.pending
		if off != nil {
			done, err := h.batchCommitted(cp.meta.ID, off.Batch)
			if err != nil {
				return res, err
			}
			if done {
				if err := cp.commit(off); err != nil {
					return res, err
				}
				continue
			}
		} else {
			off, err = u.planBatch(f, cp, frontier)
			if err != nil {
				return res, err
			}
			if off == nil {
				break
			}
			if err := cp.writeOffsets(off); err != nil {
				return res, err
			}
			faultPoint("after-offsets")
			cp.pending = off
		}
		before := res.bytes
		if err := u.runBatch(f, h, cp, off, &res); err != nil {
			return res, err
		}
		bar.add(res.bytes - before)
		if u.trigger.once || u.stopRequested() {
			break
		}
	}
	// What is left: files that arrived after the frontier was frozen, or
	// the rest of the backlog under trigger once.
	res.backlogFiles, res.backlogBytes, err = u.backlog(cp)
	return res, err
}

// backlog returns the files and bytes of the streaming file inputs not yet
// read by the flow, in the update's frozen listing.
func (u *update) backlog(cp *checkpoint) (files, bytes int64, err error) {
	for _, name := range cp.meta.Inputs {
		if _, ok := u.sources[name]; !ok {
			continue
		}
		pending, err := u.unseenFiles(name, cp.seen[name])
		if err != nil {
			return 0, 0, err
		}
		for _, f := range pending {
			files++
			bytes += f.Size
		}
		if u.metrics != nil {
			waiting, err := u.pendingFiles(name, cp.seen[name], true)
			if err != nil {
				return 0, 0, err
			}
			var wb int64
			for _, f := range waiting {
				wb += f.Size
			}
			u.metrics.recordBacklog(name, cp.meta.Flow, int64(len(waiting)), wb)
		}
	}
	return files, bytes, nil
}

// planBatch chooses the next micro-batch of a streaming flow, or nil when
// no input has anything new.
func (u *update) planBatch(f *Flow, cp *checkpoint, frontier map[string]int64) (*batchOffsets, error) {
	off := &batchOffsets{Batch: cp.committed + 1, Inputs: map[string]inputOffset{}}
	any := false
	for _, name := range cp.meta.Inputs {
		if info, ok := u.sources[name]; ok {
			pending, err := u.unseenFiles(name, cp.seen[name])
			if err != nil {
				return nil, err
			}
			if len(pending) == 0 {
				continue
			}
			first := cp.committed < 0 && len(cp.seen[name]) == 0
			if first && !info.IncludeExisting {
				off.Inputs[name] = inputOffset{Files: toSeen(pending), Skip: true}
				any = true
				continue
			}
			batch := pending
			if !u.trigger.once {
				batch, _ = source.NextBatch(pending, info.Limits)
			}
			off.Inputs[name] = inputOffset{Files: toSeen(batch)}
			any = true
			continue
		}
		last, read := cp.versions[name]
		to := frontier[name]
		if to < 0 {
			continue // the upstream table does not exist yet
		}
		if !read {
			off.Inputs[name] = inputOffset{Versions: &versionRange{From: -1, To: to}}
			any = true
		} else if last < to {
			off.Inputs[name] = inputOffset{Versions: &versionRange{From: last, To: to}}
			any = true
		}
	}
	if !any {
		return nil, nil
	}
	return off, nil
}

func toSeen(files []source.FileInfo) []seenFile {
	out := make([]seenFile, len(files))
	for i, f := range files {
		out[i] = seenFile{Path: f.Path, Size: f.Size, ModTime: int64(f.ModificationTime) / 1000}
	}
	return out
}

// resolveBatch turns a batch's offsets into the files to read, or, for an
// input f reads as a change feed, the versions whose changes to read.
func (u *update) resolveBatch(f *Flow, cp *checkpoint, off *batchOffsets) (*batchPlan, error) {
	plan := &batchPlan{id: off.Batch, files: map[string][]source.FileInfo{}, tables: map[string][]tableFile{}, feeds: map[string]versionRange{}}
	for name, in := range off.Inputs {
		if in.Skip {
			continue
		}
		if len(in.Files) > 0 {
			paths := make([]string, len(in.Files))
			for i, sf := range in.Files {
				paths[i] = sf.Path
				if st, ok := cp.seen[name][sf.Path]; ok {
					// Ingested before, changed since (allow_overwrites).
					size, mtime := st.parts()
					u.fileChanged(f, name, sf.Path, "since it was ingested (allow_overwrites: it is ingested again)", size, mtime, sf.Size, sf.ModTime)
					plan.changed++
				}
			}
			files, missing, err := u.filesByPath(name, paths)
			if err != nil {
				return nil, err
			}
			if len(missing) > 0 {
				if !u.sources[name].IgnoreMissingFiles {
					return nil, missingFileError(name, missing[0], off.Batch)
				}
				for _, p := range missing {
					u.skipFile(f, name, p, "the file is gone (deleted after it was listed)")
				}
				plan.skipped += int64(len(missing))
			}
			plan.files[name] = files
			continue
		}
		if in.Versions != nil && readsChangeFeed(f, name) {
			plan.feeds[name] = *in.Versions
			continue
		}
		if in.Versions != nil {
			th, err := u.handle(name)
			if err != nil {
				return nil, err
			}
			files, err := th.filesBetween(in.Versions.From, in.Versions.To)
			if err != nil {
				return nil, err
			}
			plan.tables[name] = files
		}
	}
	return plan, nil
}

// notAppendReader adds to the error of a streaming read of a table that
// changed by other means than appends (notAppendError) the table that
// reads it and the command that rebuilds that table; other errors are
// returned as they are.
func notAppendReader(err error, f *Flow, h *tableHandle) error {
	var nae *notAppendError
	if !errors.As(err, &nae) {
		return err
	}
	return fmt.Errorf("%w: %s streams from it (flow %s): run with --full-refresh %s", err, h.name, f.Name, h.name)
}

// runBatch runs one micro-batch and commits its output with the flow's txn.
func (u *update) runBatch(f *Flow, h *tableHandle, cp *checkpoint, off *batchOffsets, res *flowResult) error {
	if f.Kind == ChangeFlow {
		return u.runChangeBatch(f, h, cp, off, res)
	}
	plan, err := u.resolveBatch(f, cp, off)
	err = notAppendReader(err, f, h)
	var nae *notAppendError
	if errors.As(err, &nae) && h.desc != nil && !h.desc.resetAllowed() {
		// The way out the message gives is closed for this table.
		return fmt.Errorf("%w; %s has pipelines.reset.allowed = false, so a full refresh cannot rebuild it: set the property to true for the update that runs --full-refresh %s",
			err, h.name, h.name)
	}
	if err != nil {
		return err
	}
	ctx := u.newContext(f, h, plan)
	if err := u.loadStreamState(f, cp, ctx); err != nil {
		return err
	}
	err = f.Run(ctx)
	files, counts, err := ctx.finish(err)
	if err != nil {
		return err
	}
	if err := u.saveStreamState(f, cp, off, ctx); err != nil {
		return err
	}
	faultPoint("after-data-files")
	if err := h.commitAppend(files, flowTxn(f, cp, off), "STREAMING UPDATE", map[string]any{
		"outputMode": "Append", "queryId": cp.meta.ID, "epochId": off.Batch,
	}); err != nil {
		return err
	}
	faultPoint("after-commit")
	if err := cp.commit(off); err != nil {
		return fmt.Errorf("checkpoint of flow %s: %w", f.Name, err)
	}
	if f.Watermark != nil {
		if err := pruneStreamState(stateDir(cp), off.Batch); err != nil {
			return err
		}
	}
	res.add(ctx, counts, expectationNames(f.Target), h.name)
	return nil
}

func expectationNames(d Dataset) []string { return d.tableDesc().expectations }

// mvState is what a materialized view's last refresh read, kept in the
// flow's checkpoint folder: an update whose definition and inputs are the
// same is a no-op.
type mvState struct {
	Definition string `json:"definition"`
	// Params identifies the parameter values of the refresh: a query that
	// uses ${param} means something else when the value changes.
	Params    string            `json:"params,omitempty"`
	Inputs    map[string]string `json:"inputs"`
	Refreshes int64             `json:"refreshes"`
	FlowID    string            `json:"flowId"`
	// StateFile is the aggregation state saved by the last refresh, for a
	// GROUP_AGGREGATE refresh (see incremental.go).
	StateFile string `json:"stateFile,omitempty"`
}

// runComplete refreshes a materialized view: recompute from snapshots of
// its inputs and replace the table's contents in one commit, unless
// neither the definition nor any input changed.
func (u *update) runComplete(f *Flow, h *tableHandle) (flowResult, error) {
	var res flowResult
	dir := u.checkpointDir(f)
	var state mvState
	statePath := filepath.Join(dir, "refresh.json")
	if err := readJSON(statePath, &state); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if !isCorrupt(err) {
			return res, err
		}
		// A damaged record of the last refresh: recompute, as when
		// none is recorded (the view is replaced whole).
		u.log.emit(event{Type: "flow_progress", Level: "WARN", Origin: origin{Flow: f.Name, Dataset: h.name},
			Message: fmt.Sprintf("The refresh record of %s is damaged (%v): %s is recomputed.", f.Name, err, h.name)})
		state = mvState{}
	}
	sig, err := u.inputSignature(f)
	if err != nil {
		return res, err
	}
	exists, err := h.exists()
	if err != nil {
		return res, err
	}
	repartition := ""
	if exists {
		if repartition, err = h.partitioningChange(f.Target.tableDesc()); err != nil {
			return res, err
		}
	}
	reason := ""
	switch {
	case !exists:
		reason = "the table does not exist yet"
	case repartition != "":
		reason = "its partition columns change (" + repartition + ")"
	case state.Definition == "":
		reason = "no previous refresh is recorded"
	case state.Definition != f.Definition:
		reason = "the definition changed"
	case state.Params != u.paramsDigest():
		reason = "a parameter changed"
	case !mapsEqual(state.Inputs, sig):
		reason = "an input changed: " + strings.Join(changedInputs(state.Inputs, sig), ", ")
	case f.Nondeterministic != "":
		reason = "the query calls " + f.Nondeterministic + ", whose result changes with every update"
	}
	if reason == "" {
		res.technique = "NO_OP"
		u.planning(f, "NO_OP", "no input and no part of the definition changed since the last refresh")
		return res, nil
	}
	if state.FlowID == "" {
		state.FlowID = newID()
	}
	incr, reason, err := u.planIncremental(f, h, &state, sig, reason)
	if err != nil {
		return res, err
	}
	res.technique = incr.technique
	u.planning(f, incr.technique, reason)
	ctx := u.newContext(f, h, nil)
	if incr.technique != "COMPLETE_RECOMPUTE" {
		ctx.incr = incr
	}
	err = f.Run(ctx)
	files, counts, err := ctx.finish(err)
	if errors.Is(err, errAggStateDamaged) {
		// The view is replaced whole: recompute it.
		res.technique = "COMPLETE_RECOMPUTE"
		u.planning(f, res.technique, err.Error())
		ctx = u.newContext(f, h, nil)
		err = f.Run(ctx)
		files, counts, err = ctx.finish(err)
		incr.technique = res.technique
	}
	if err != nil {
		return res, err
	}
	stateFile, err := u.saveAggState(f, &state, ctx.keptState)
	if err != nil {
		return res, err
	}
	faultPoint("mid-mv-replace")
	// After a crash between the last refresh's commit and refresh.json
	// (or with a refresh.json older than the table), the table holds
	// refresh state.Refreshes already: this one (recomputed, as
	// planIncremental saw) takes the next number.
	if v, err := h.txnVersion(state.FlowID); err != nil {
		return res, err
	} else if v >= state.Refreshes {
		state.Refreshes = v + 1
	}
	txn := &txnAction{AppID: state.FlowID, Version: state.Refreshes}
	if incr.technique == "APPEND_ONLY" {
		err = h.commitAppend(files, txn, "WRITE", map[string]any{"mode": "Append", "technique": "APPEND_ONLY"})
	} else {
		err = h.commitReplace(f.Target.tableDesc(), files, txn)
	}
	if err != nil {
		return res, err
	}
	faultPoint("after-commit")
	old := state.StateFile
	state.Definition, state.Params, state.Inputs, state.StateFile = f.Definition, u.paramsDigest(), sig, stateFile
	state.Refreshes++
	if err := writeFileAtomic(statePath, mustJSON(state)); err != nil {
		return res, err
	}
	if old != "" && old != stateFile {
		storage.Remove(filepath.Join(dir, old))
	}
	res.add(ctx, counts, expectationNames(f.Target), h.name)
	return res, nil
}

// paramsDigest identifies the bound parameter values ("" when the pipeline
// has no parameters). Any change recomputes every materialized view: the
// runtime does not know which parameters a query uses.
func (u *update) paramsDigest() string {
	if len(u.params.values) == 0 {
		return ""
	}
	return digest(formatParams(u.params))
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func changedInputs(old, cur map[string]string) []string {
	var out []string
	for k, v := range cur {
		if old[k] != v {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// inputSignature identifies the state of every input of a batch flow: a
// table's version (with its table id, so a re-created table differs), a
// file source's listing.
func (u *update) inputSignature(f *Flow) (map[string]string, error) {
	sig := map[string]string{}
	for _, in := range f.Inputs {
		name := in.Relation.relationName()
		if _, ok := u.sources[name]; ok {
			files, err := u.listFiles(name)
			if err != nil {
				return nil, err
			}
			sig[name] = listingDigest(files)
			continue
		}
		h, err := u.handle(name)
		if err != nil {
			return nil, err
		}
		s, err := h.signature()
		if err != nil {
			return nil, err
		}
		sig[name] = s
	}
	return sig, nil
}

// listingDigest summarises a folder listing: names, sizes and times.
func listingDigest(files []source.FileInfo) string {
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "%s\x00%d\x00%d\n", f.Path, f.Size, f.ModificationTime)
	}
	return digest(b.String())
}

// onceState records that a once flow ran since its target's last full
// refresh.
type onceState struct {
	FlowID string    `json:"flowId"`
	Done   bool      `json:"done"`
	At     time.Time `json:"at"`
}

// runOnce runs a once flow: a batch query appended in the first update
// after its target was created or fully refreshed, IDLE afterwards.
func (u *update) runOnce(f *Flow, h *tableHandle) (flowResult, error) {
	var res flowResult
	path := filepath.Join(u.checkpointDir(f), "once.json")
	var st onceState
	if err := readJSON(path, &st); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, err
	}
	if st.FlowID == "" {
		// A new flow, or once.json was lost: the table's log says which.
		_, id, err := flowCommits(h, f.Name, "", -1)
		if err != nil {
			return res, fmt.Errorf("%s is missing and %w: nothing was written; run with --full-refresh %s", path, err, h.name)
		}
		st.FlowID = id
		if id == "" {
			st.FlowID = newID()
		}
		if err := writeFileAtomic(path, mustJSON(st)); err != nil {
			return res, err
		}
	}
	if !st.Done {
		if err := h.ensure(f.Target.tableDesc()); err != nil {
			return res, err
		}
		// A crash after the commit and before once.json: the table says.
		done, err := h.batchCommitted(st.FlowID, 0)
		if err != nil {
			return res, err
		}
		if !done {
			ctx := u.newContext(f, h, nil)
			err = f.Run(ctx)
			files, counts, err := ctx.finish(err)
			if err != nil {
				return res, err
			}
			if err := h.commitAppend(files, &txnAction{AppID: st.FlowID, Version: 0, Progress: &flowCommitRecord{Flow: f.Name, QueryID: st.FlowID}}, "WRITE", map[string]any{"mode": "Append", "flow": f.Name}); err != nil {
				return res, err
			}
			faultPoint("after-commit")
			res.add(ctx, counts, expectationNames(f.Target), h.name)
		}
		st.Done, st.At = true, time.Now().UTC()
		return res, writeFileAtomic(path, mustJSON(st))
	}
	res.idle = true
	return res, nil
}

// fullRefresh truncates the selected tables and resets their flows'
// checkpoints. The intent is written first and removed last, so a crash in
// between is finished by the next update instead of leaving a table whose
// checkpoint and contents disagree. It returns the tables it reset: those
// asked for and those of an interrupted full refresh.
func (u *update) fullRefresh(tables []string) ([]string, error) {
	intent := u.storagePath("full_refresh.json")
	var pending []string
	if err := readJSON(intent, &pending); err != nil && !errors.Is(err, fs.ErrNotExist) {
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
	if err := writeFileAtomic(intent, mustJSON(tables)); err != nil {
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
		if err := h.truncate(u.dataset(name).tableDesc()); err != nil {
			return nil, fmt.Errorf("full refresh of %s: %w", name, err)
		}
		u.log.emit(event{Type: "flow_progress", Origin: origin{Dataset: name},
			Message: fmt.Sprintf("Table %s was reset for a full refresh.", name)})
		faultPoint("mid-full-refresh")
	}
	return tables, storage.Remove(intent)
}

// planning reports the refresh technique of a materialized view.
func (u *update) planning(f *Flow, technique, reason string) {
	u.log.emit(event{Type: "planning_information", Origin: origin{Flow: f.Name, Dataset: f.Target.DatasetName()},
		Message: fmt.Sprintf("Flow %s is refreshed with %s: %s.", f.Name, technique, reason),
		Details: map[string]any{"planning_information": map[string]any{
			"technique_information": []map[string]any{{
				"maintenance_type": "MAINTENANCE_TYPE_" + technique,
				"is_chosen":        true,
				"reason":           reason,
			}},
		}}})
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
	ev := event{Type: "flow_progress", Origin: origin{Flow: f.Name, Dataset: f.Target.DatasetName()},
		Message: fmt.Sprintf("Flow '%s' is %s.", f.Name, status),
		Details: map[string]any{"flow_progress": fp}}
	if err != nil {
		ev.Level = "ERROR"
		ev.Error = errorDetails(err)
		if status == statusSkipped {
			ev.Level = "WARN"
			ev.Message = fmt.Sprintf("Flow '%s' is SKIPPED: %v.", f.Name, err)
			ev.Error = nil
		}
	}
	u.log.emit(ev)
}

// defineGraph reports every dataset and flow definition at the start of
// the update.
func (u *update) defineGraph() {
	for _, d := range u.p.Datasets {
		td := d.tableDesc()
		h := u.handles[td.name]
		u.log.emit(event{Type: "dataset_definition", Origin: origin{Dataset: td.name},
			Message: fmt.Sprintf("Dataset %s is defined as a %s.", td.name, strings.ReplaceAll(string(td.kind), "_", " ")),
			Details: map[string]any{"dataset_definition": map[string]any{
				"dataset_type": strings.ToUpper(string(td.kind)), "location": h.path,
				"schema": td.columns.String(), "expectations": td.expectations, "comment": td.comment,
			}}})
	}
	for _, f := range u.p.Flows {
		var inputs []string
		for _, in := range f.Inputs {
			inputs = append(inputs, in.Relation.relationName())
		}
		u.log.emit(event{Type: "flow_definition", Origin: origin{Flow: f.Name, Dataset: f.Target.DatasetName()},
			Message: fmt.Sprintf("Flow '%s' is defined as %s.", f.Name, f.Kind),
			Details: map[string]any{"flow_definition": map[string]any{
				"output_dataset": f.Target.DatasetName(), "input_datasets": inputs, "flow_type": f.Kind.flowType(),
			}}})
	}
}
