package runtime

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/table"
)

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
	tables map[string][]table.File
	// feeds are the versions (From, To] of the tables read as change feeds.
	feeds map[string]checkpoint.VersionRange
	// skipped counts the files of the batch left out because they are
	// gone (ignore_missing_files); changed those ingested again because
	// they changed since (allow_overwrites).
	skipped, changed int64
}

// runStreaming runs an append flow: micro-batches until the frontier frozen
// at the start of the update is drained (available_now), or one batch
// (once). Each batch's output and progress are committed atomically.
func (u *update) runStreaming(f *Flow, h *table.Handle) (flowResult, error) {
	var res flowResult
	inputs := streamingInputs(f)
	meta := checkpoint.Meta{ID: newID(), Flow: f.Name, Definition: f.Definition, Inputs: inputs}
	if f.Watermark != nil {
		meta.StateDefinition, meta.StateShape, meta.StateTypes = f.Watermark.State, f.Watermark.Shape, f.Watermark.Types
	}
	cp, err := checkpoint.Load(u.checkpointDir(f), meta)
	if err != nil {
		return res, err
	}
	if !slices.Equal(cp.Meta.Inputs, inputs) {
		return res, fmt.Errorf("the sources of flow %s changed since its checkpoint (was %s, now %s): a full refresh of %s is required: run with --full-refresh %s",
			f.Name, strings.Join(cp.Meta.Inputs, ", "), strings.Join(inputs, ", "), h.Name, h.Name)
	}
	if cp.Committed >= 0 && meta.StateDefinition != "" && cp.Meta.StateDefinition != "" && cp.Meta.StateDefinition != meta.StateDefinition {
		// The saved state (windows or keys, and their aggregates) was
		// built by the old query; Structured Streaming does not allow a
		// stateful operator to change across restarts either. Other
		// changes (filters, projections, expectations, the delay) keep it,
		// and so does a widening of the values it holds (a widened source
		// column), which the state's load upcasts.
		why := errors.New("its window, keys or aggregates changed")
		if cp.Meta.StateShape == "" {
			why = errors.New("its window, keys or aggregates, or the type of a column its state holds, changed; the checkpoint predates the record of its state's types")
		} else if cp.Meta.StateShape == meta.StateShape {
			why = StateWidening(cp.Meta.StateTypes, meta.StateTypes)
		}
		if why != nil {
			return res, fmt.Errorf("the stateful operator of flow %s changed since its checkpoint (%v), so the state the old query built does not apply: a full refresh of %s is required: run with --full-refresh %s",
				f.Name, why, h.Name, h.Name)
		}
	}
	if cp.Meta.Definition != f.Definition {
		u.log.Emit(eventlog.Event{Type: "flow_definition", Origin: eventlog.Origin{Flow: f.Name, Dataset: h.Name},
			Message: fmt.Sprintf("Flow %s's query changed: rows already in %s stay; new input is processed with the new query (a full refresh recomputes everything).", f.Name, h.Name)})
	}
	if cp.Meta.Definition != f.Definition || cp.Meta.StateDefinition != meta.StateDefinition || cp.Meta.StateShape != meta.StateShape || !slices.Equal(cp.Meta.StateTypes, meta.StateTypes) {
		cp.Meta.Definition, cp.Meta.StateDefinition, cp.Meta.StateShape, cp.Meta.StateTypes = f.Definition, meta.StateDefinition, meta.StateShape, meta.StateTypes
		if err := cp.SaveMeta(); err != nil {
			return res, err
		}
	}
	if err := u.verifyCheckpoint(f, h, cp); err != nil {
		return res, err
	}
	if cp.Created {
		if err := cp.SaveMeta(); err != nil {
			return res, err
		}
	}
	if err := h.Ensure(f.Target.datasetDesc().Desc); err != nil {
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
			v, err := th.LatestVersion()
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
		off := cp.Pending
		if off != nil {
			done, err := h.BatchCommitted(cp.Meta.ID, off.Batch)
			if err != nil {
				return res, err
			}
			if done {
				if err := cp.Commit(off); err != nil {
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
			if err := cp.WriteOffsets(off); err != nil {
				return res, err
			}
			faultPoint("after-offsets")
			cp.Pending = off
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
func (u *update) backlog(cp *checkpoint.Stream) (files, bytes int64, err error) {
	for _, name := range cp.Meta.Inputs {
		if _, ok := u.sources[name]; !ok {
			continue
		}
		pending, err := u.unseenFiles(name, cp.Seen[name])
		if err != nil {
			return 0, 0, err
		}
		for _, f := range pending {
			files++
			bytes += f.Size
		}
		if u.metrics != nil {
			waiting, err := u.pendingFiles(name, cp.Seen[name], true)
			if err != nil {
				return 0, 0, err
			}
			var wb int64
			for _, f := range waiting {
				wb += f.Size
			}
			u.metrics.recordBacklog(name, cp.Meta.Flow, int64(len(waiting)), wb)
		}
	}
	return files, bytes, nil
}

// planBatch chooses the next micro-batch of a streaming flow, or nil when
// no input has anything new.
func (u *update) planBatch(f *Flow, cp *checkpoint.Stream, frontier map[string]int64) (*checkpoint.Offsets, error) {
	off := &checkpoint.Offsets{Batch: cp.Committed + 1, Inputs: map[string]checkpoint.Input{}}
	any := false
	for _, name := range cp.Meta.Inputs {
		if info, ok := u.sources[name]; ok {
			pending, err := u.unseenFiles(name, cp.Seen[name])
			if err != nil {
				return nil, err
			}
			if len(pending) == 0 {
				continue
			}
			first := cp.Committed < 0 && len(cp.Seen[name]) == 0
			if first && !info.IncludeExisting {
				off.Inputs[name] = checkpoint.Input{Files: toSeen(pending), Skip: true}
				any = true
				continue
			}
			batch := pending
			if !u.trigger.once {
				batch, _ = source.NextBatch(pending, info.Limits)
			}
			off.Inputs[name] = checkpoint.Input{Files: toSeen(batch)}
			any = true
			continue
		}
		last, read := cp.Versions[name]
		to := frontier[name]
		if to < 0 {
			continue // the upstream table does not exist yet
		}
		if !read {
			off.Inputs[name] = checkpoint.Input{Versions: &checkpoint.VersionRange{From: -1, To: to}}
			any = true
		} else if last < to {
			off.Inputs[name] = checkpoint.Input{Versions: &checkpoint.VersionRange{From: last, To: to}}
			any = true
		}
	}
	if !any {
		return nil, nil
	}
	return off, nil
}

func toSeen(files []source.FileInfo) []checkpoint.File {
	out := make([]checkpoint.File, len(files))
	for i, f := range files {
		out[i] = checkpoint.File{Path: f.Path, Size: f.Size, ModTime: int64(f.ModificationTime) / 1000}
	}
	return out
}

// resolveBatch turns a batch's offsets into the files to read, or, for an
// input f reads as a change feed, the versions whose changes to read.
func (u *update) resolveBatch(f *Flow, cp *checkpoint.Stream, off *checkpoint.Offsets) (*batchPlan, error) {
	plan := &batchPlan{id: off.Batch, files: map[string][]source.FileInfo{}, tables: map[string][]table.File{}, feeds: map[string]checkpoint.VersionRange{}}
	for name, in := range off.Inputs {
		if in.Skip {
			continue
		}
		if len(in.Files) > 0 {
			paths := make([]string, len(in.Files))
			for i, sf := range in.Files {
				paths[i] = sf.Path
				if st, ok := cp.Seen[name][sf.Path]; ok {
					// Ingested before, changed since (allow_overwrites).
					size, mtime := st.Parts()
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
			files, err := th.FilesBetween(in.Versions.From, in.Versions.To)
			if err != nil {
				return nil, err
			}
			plan.tables[name] = files
		}
	}
	return plan, nil
}

// notAppendReader adds to the error of a streaming read of a table that
// changed by other means than appends (table.NotAppendError) the table that
// reads it and the command that rebuilds that table; other errors are
// returned as they are.
func notAppendReader(err error, f *Flow, h *table.Handle) error {
	var nae *table.NotAppendError
	if !errors.As(err, &nae) {
		return err
	}
	return fmt.Errorf("%w: %s streams from it (flow %s): run with --full-refresh %s", err, h.Name, f.Name, h.Name)
}

// runBatch runs one micro-batch and commits its output with the flow's txn.
func (u *update) runBatch(f *Flow, h *table.Handle, cp *checkpoint.Stream, off *checkpoint.Offsets, res *flowResult) error {
	if f.Kind == ChangeFlow {
		return u.runChangeBatch(f, h, cp, off, res)
	}
	plan, err := u.resolveBatch(f, cp, off)
	err = notAppendReader(err, f, h)
	var nae *table.NotAppendError
	if errors.As(err, &nae) && h.Desc != nil && !h.Desc.ResetAllowed() {
		// The way out the message gives is closed for this table.
		return fmt.Errorf("%w; %s has pipelines.reset.allowed = false, so a full refresh cannot rebuild it: set the property to true for the update that runs --full-refresh %s",
			err, h.Name, h.Name)
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
	if err := h.CommitAppend(files, flowTxn(f, cp, off), "STREAMING UPDATE", map[string]any{
		"outputMode": "Append", "queryId": cp.Meta.ID, "epochId": off.Batch,
	}); err != nil {
		return err
	}
	faultPoint("after-commit")
	if err := cp.Commit(off); err != nil {
		return fmt.Errorf("checkpoint of flow %s: %w", f.Name, err)
	}
	if f.Watermark != nil {
		if err := pruneStreamState(stateDir(cp), off.Batch); err != nil {
			return err
		}
	}
	res.add(ctx, counts, expectationNames(f.Target), h.Name)
	return nil
}
