package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/refresh"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/statecodec"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/table"
)

// runComplete refreshes a materialized view: recompute from snapshots of
// its inputs and replace the table's contents in one commit, unless
// neither the definition nor any input changed.
func (u *update) runComplete(f *Flow, h *table.Handle) (flowResult, error) {
	var res flowResult
	dir := u.checkpointDir(f)
	var state checkpoint.Refresh
	statePath := storage.Join(dir, checkpoint.RefreshFile)
	if err := checkpoint.ReadJSON(statePath, &state); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if !checkpoint.IsCorrupt(err) {
			return res, err
		}
		// A damaged record of the last refresh: recompute, as when
		// none is recorded (the view is replaced whole).
		u.log.Emit(eventlog.Event{Type: "flow_progress", Level: "WARN", Origin: eventlog.Origin{Flow: f.Name, Dataset: h.Name},
			Message: fmt.Sprintf("The refresh record of %s is damaged (%v): %s is recomputed.", f.Name, err, h.Name)})
		state = checkpoint.Refresh{}
	}
	sig, err := u.inputSignature(f)
	if err != nil {
		return res, err
	}
	exists, err := h.Exists()
	if err != nil {
		return res, err
	}
	repartition := ""
	if exists {
		if repartition, err = h.PartitioningChange(f.Target.datasetDesc().Desc); err != nil {
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
		res.technique = refresh.NoOp
		u.planning(f, refresh.NoOp, "no input and no part of the definition changed since the last refresh")
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
	if incr.technique != refresh.CompleteRecompute {
		ctx.incr = incr
	}
	err = f.Run(ctx)
	files, counts, err := ctx.finish(err)
	if errors.Is(err, statecodec.ErrDamaged) {
		// The view is replaced whole: recompute it.
		res.technique = refresh.CompleteRecompute
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
	if v, err := h.TxnVersion(state.FlowID); err != nil {
		return res, err
	} else if v >= state.Refreshes {
		state.Refreshes = v + 1
	}
	txn := &table.Txn{AppID: state.FlowID, Version: state.Refreshes}
	if incr.technique == refresh.AppendOnly {
		err = h.CommitAppend(files, txn, "WRITE", map[string]any{"mode": "Append", "technique": string(refresh.AppendOnly)})
	} else {
		err = h.CommitReplace(f.Target.datasetDesc().Desc, files, txn)
	}
	if err != nil {
		return res, err
	}
	faultPoint("after-commit")
	old := state.StateFile
	state.Definition, state.Params, state.Inputs, state.StateFile = f.Definition, u.paramsDigest(), sig, stateFile
	state.Refreshes++
	if err := checkpoint.WriteJSON(statePath, state); err != nil {
		return res, err
	}
	if old != "" && old != stateFile {
		storage.Remove(storage.Join(dir, old))
	}
	res.add(ctx, counts, expectationNames(f.Target), h.Name)
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
		s, err := h.Signature()
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

// runOnce runs a once flow: a batch query appended in the first update
// after its target was created or fully refreshed, IDLE afterwards.
func (u *update) runOnce(f *Flow, h *table.Handle) (flowResult, error) {
	var res flowResult
	path := storage.Join(u.checkpointDir(f), checkpoint.OnceFile)
	var st checkpoint.Once
	if err := checkpoint.ReadJSON(path, &st); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, err
	}
	if st.FlowID == "" {
		// A new flow, or once.json was lost: the table's log says which.
		_, id, err := flowCommits(h, f.Name, "", -1)
		if err != nil {
			return res, fmt.Errorf("%s is missing and %w: nothing was written; run with --full-refresh %s", path, err, h.Name)
		}
		st.FlowID = id
		if id == "" {
			st.FlowID = newID()
		}
		if err := checkpoint.WriteJSON(path, st); err != nil {
			return res, err
		}
	}
	if !st.Done {
		if err := h.Ensure(f.Target.datasetDesc().Desc); err != nil {
			return res, err
		}
		// A crash after the commit and before once.json: the table says.
		done, err := h.BatchCommitted(st.FlowID, 0)
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
			if err := h.CommitAppend(files, &table.Txn{AppID: st.FlowID, Version: 0, Progress: &checkpoint.CommitRecord{Flow: f.Name, QueryID: st.FlowID}}, "WRITE", map[string]any{"mode": "Append", "flow": f.Name}); err != nil {
				return res, err
			}
			faultPoint("after-commit")
			res.add(ctx, counts, expectationNames(f.Target), h.Name)
		}
		st.Done, st.At = true, time.Now().UTC()
		return res, checkpoint.WriteJSON(path, st)
	}
	res.idle = true
	return res, nil
}

// planning reports the refresh technique of a materialized view.
func (u *update) planning(f *Flow, technique refresh.Technique, reason string) {
	u.log.Emit(eventlog.Event{Type: "planning_information", Origin: eventlog.Origin{Flow: f.Name, Dataset: f.Target.DatasetName()},
		Message: fmt.Sprintf("Flow %s is refreshed with %s: %s.", f.Name, technique, reason),
		Details: map[string]any{"planning_information": map[string]any{
			"technique_information": []map[string]any{{
				"maintenance_type": "MAINTENANCE_TYPE_" + string(technique),
				"is_chosen":        true,
				"reason":           reason,
			}},
		}}})
}
