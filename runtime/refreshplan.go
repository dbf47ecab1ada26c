package runtime

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/refresh"
	"github.com/pipegen/pipegen/runtime/statecodec"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/table"
)

// Incremental refresh of materialized views, with Databricks' technique
// names in the planning_information event: NO_OP (nothing changed; see
// runComplete), APPEND_ONLY and GROUP_AGGREGATE (the input only received
// appends since the last refresh and the query allows it: Flow.
// Incremental), COMPLETE_RECOMPUTE otherwise, with the reason.
//
// An incremental refresh reads only the data files the input's commits
// added since the version the last refresh read (the snapshot scans of
// the flow see those files: incrementalRun.addedFiles). APPEND_ONLY
// appends the query's rows for them; GROUP_AGGREGATE folds them into the
// aggregation state the last refresh saved and replaces the view with
// the rows of the whole state. The state is written (under a new name)
// before the view's commit, and refresh.json, which names it, after; a
// refresh interrupted in between leaves the table's txn version ahead of
// refresh.json, and the next refresh recomputes completely.

// incrementalRun is the plan of one materialized view refresh.
type incrementalRun struct {
	// technique is APPEND_ONLY, GROUP_AGGREGATE or COMPLETE_RECOMPUTE.
	technique refresh.Technique
	// files are, per table input, the files added since the last refresh.
	files map[string][]table.File
	// state is the aggregation state of the last refresh (GROUP_AGGREGATE).
	state []byte
}

// addedFiles returns the files an incremental refresh reads from table
// name instead of its snapshot; ok is false outside incremental refreshes.
func (r *incrementalRun) addedFiles(name string) ([]table.File, bool) {
	if r == nil || r.files == nil {
		return nil, false
	}
	f, ok := r.files[name]
	return f, ok
}

// planIncremental chooses how a materialized view whose definition or
// inputs changed is refreshed, and says why (reason is why it is not a
// no-op).
func (u *update) planIncremental(f *Flow, h *table.Handle, st *checkpoint.Refresh, sig map[string]string, reason string) (*incrementalRun, string, error) {
	complete := func(why string) (*incrementalRun, string, error) {
		return &incrementalRun{technique: refresh.CompleteRecompute}, why, nil
	}
	if !strings.HasPrefix(reason, "an input changed") {
		return complete(reason)
	}
	if f.Incremental == "" {
		return complete(reason + "; the query is not maintained incrementally: " + f.NotIncremental)
	}
	v, err := h.TxnVersion(st.FlowID)
	if err != nil {
		return nil, "", err
	}
	if v != st.Refreshes-1 {
		return complete("the previous refresh was interrupted before it recorded what it read")
	}
	run := &incrementalRun{technique: f.Incremental, files: map[string][]table.File{}}
	var changed []string
	for _, name := range sortedKeys(sig) {
		now, old := sig[name], st.Inputs[name]
		if now == old {
			run.files[name] = nil
			continue
		}
		changed = append(changed, name)
		run.files[name] = []table.File{} // read nothing unless commits added files
		if _, ok := u.sources[name]; ok {
			return complete(fmt.Sprintf("input %s is a file source whose listing changed", name))
		}
		oid, ov, ok1 := parseSignature(old)
		nid, nv, ok2 := parseSignature(now)
		if !ok1 || !ok2 || oid != nid || nv < ov {
			return complete(fmt.Sprintf("input %s was re-created or replaced", name))
		}
		th, err := u.handle(name)
		if err != nil {
			return nil, "", err
		}
		commits, err := delta.ReadCommits(th.Path, ov, nv)
		if err != nil {
			return complete(fmt.Sprintf("the commits of input %s since the last refresh cannot be read (%v)", name, err))
		}
		m, err := th.Meta()
		if err != nil || m == nil {
			return complete(fmt.Sprintf("the metadata of input %s cannot be read (%v)", name, err))
		}
		layout := m.Layout()
		for _, c := range commits {
			if !c.AppendOnly() {
				return complete(fmt.Sprintf("input %s is not append-only: version %d removed rows (%s)", name, c.Version, operationOf(c)))
			}
			for _, a := range c.Adds() {
				if a.DataChange {
					run.files[name] = append(run.files[name], table.FileOf(th.Path, layout, a))
				}
			}
		}
	}
	if run.technique == refresh.GroupAggregate {
		if st.StateFile == "" {
			return complete("no aggregation state was saved by the previous refresh")
		}
		data, err := storage.ReadFile(storage.Join(u.checkpointDir(f), st.StateFile))
		if errors.Is(err, fs.ErrNotExist) {
			return complete("the aggregation state of the previous refresh is missing")
		}
		if err != nil {
			return nil, "", err
		}
		run.state = data
	}
	return run, fmt.Sprintf("%s received only appends since the last refresh", strings.Join(changed, ", ")), nil
}

// saveAggState writes the aggregation state a refresh kept (if any) to a
// new file of the flow's checkpoint (written whole, synced, then renamed)
// and returns its name.
func (u *update) saveAggState(f *Flow, st *checkpoint.Refresh, kept any) (string, error) {
	if kept == nil {
		return "", nil
	}
	name := fmt.Sprintf("aggstate-%d.bin", st.Refreshes)
	err := storage.WriteFile(storage.Join(u.checkpointDir(f), name), func(w io.Writer) error {
		return statecodec.Write(w, kept)
	})
	if err != nil {
		return "", fmt.Errorf("flow %s: save aggregation state: %w", f.Name, err)
	}
	return name, nil
}

// parseSignature splits a table signature "id@version".
func parseSignature(s string) (id string, version int64, ok bool) {
	i := strings.LastIndexByte(s, '@')
	if i < 0 {
		return "", 0, false
	}
	v, err := strconv.ParseInt(s[i+1:], 10, 64)
	return s[:i], v, err == nil
}

func operationOf(c delta.CommitEntry) string {
	for _, a := range c.Actions {
		if a.CommitInfo != nil {
			return a.CommitInfo.Operation
		}
	}
	return "unknown operation"
}
