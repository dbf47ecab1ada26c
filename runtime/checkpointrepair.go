package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/table"
)

// A streaming flow's progress is kept twice: in its checkpoint folder and
// in its target table. Every micro-batch's commit carries the Delta txn
// action {appId: flow id, version: batch id} and, in
// commitInfo.pipegenProgress, the record of what the batch read (the
// checkpoint.CommitRecord: the flow's name and id, the batch, the files of each
// file source with their size and modification time, the table versions
// of each table input). Before a flow runs, its checkpoint is checked
// against the table (verifyCheckpoint): a checkpoint that is lost, cut
// short or behind the table is rebuilt from the table's log, so the
// update goes on with no file read twice; when the log cannot rebuild it
// (commits cleaned up after delta.logRetentionDuration, or written by a
// pipegen that kept no record), or the table is behind the checkpoint,
// the update stops before it writes, naming the flow and the full refresh
// that resets it.

// flowTxn is the txn of micro-batch off of the flow of cp, with its record.
func flowTxn(f *Flow, cp *checkpoint.Stream, off *checkpoint.Offsets) *table.Txn {
	return &table.Txn{AppID: cp.Meta.ID, Version: off.Batch,
		Progress: &checkpoint.CommitRecord{Flow: f.Name, QueryID: cp.Meta.ID, Batch: off.Batch, Inputs: off.Inputs}}
}

// verifyCheckpoint checks the checkpoint of streaming flow f against its
// target table h and rebuilds it from the table's log when it is lost,
// damaged or behind the table. It returns an error, before anything is
// written to the table, when neither holds.
func (u *update) verifyCheckpoint(f *Flow, h *table.Handle, cp *checkpoint.Stream) error {
	s, err := h.Meta()
	if err != nil {
		return err
	}
	refuse := func(format string, args ...any) error {
		// runFlows names the flow before the message.
		return fmt.Errorf("%s: nothing was written; run with --full-refresh %s to recompute %s from all its input",
			fmt.Sprintf(format, args...), h.Name, h.Name)
	}
	if s == nil {
		if cp.Committed >= 0 {
			return refuse("its checkpoint records micro-batches 0 to %d but table %s does not exist (deleted?)", cp.Committed, h.Name)
		}
		return nil
	}
	if cp.Created {
		// A new flow, or a checkpoint whose metadata was lost: the
		// table's log says which.
		recs, id, err := flowCommits(h, f.Name, "", -1)
		if errors.Is(err, errLogCleanedUp) {
			// A new flow on an old table, or the checkpoint of one whose
			// commits have expired: the table's transactions tell.
			if others := u.unclaimedTxns(h, s); len(others) > 0 {
				return refuse("it has no checkpoint, and table %s holds the progress of %d flow run(s) no checkpoint claims (application id %s) while %v: if this flow wrote them, its checkpoint was lost",
					h.Name, len(others), others[0], err)
			}
			err = nil
		}
		if err != nil {
			return refuse("its checkpoint has no metadata.json and %v", err)
		}
		if id == "" {
			return nil // a new flow: nothing of it is in the table
		}
		why := "metadata.json is missing"
		if len(cp.Damage) > 0 {
			why = strings.Join(cp.Damage, "; ")
		}
		return u.rebuildCheckpoint(f, h, cp, id, recs, why)
	}
	tableV, ok := s.TxnVersion(cp.Meta.ID)
	if !ok {
		tableV = -1
	}
	if tableV < cp.Committed {
		return refuse("its checkpoint records micro-batches 0 to %d but table %s holds only %s (the table was restored from an older copy, or the checkpoint belongs to another table)",
			cp.Committed, h.Name, batchesUpTo(tableV))
	}
	why := strings.Join(cp.Damage, "; ")
	crashAfterCommit := tableV == cp.Committed+1 && cp.Pending != nil && cp.Pending.Batch == tableV
	if tableV > cp.Committed && !crashAfterCommit {
		if why != "" {
			why += "; "
		}
		why += fmt.Sprintf("commits/ records micro-batches up to %d but table %s holds %s", cp.Committed, h.Name, batchesUpTo(tableV))
	}
	if why == "" {
		return nil
	}
	recs, _, err := flowCommits(h, f.Name, cp.Meta.ID, tableV)
	if err != nil {
		return refuse("its checkpoint is damaged (%s) and %v", why, err)
	}
	return u.rebuildCheckpoint(f, h, cp, cp.Meta.ID, recs, why)
}

func batchesUpTo(v int64) string {
	if v < 0 {
		return "none of them"
	}
	return fmt.Sprintf("micro-batches 0 to %d", v)
}

// flowCommits reads the records of flow's commits from table h's log,
// newest first, back to the flow's first micro-batch: those of query id,
// or, when id is "", of the flow's latest query id after the table's last
// reset (a full refresh), which it returns ("" when there is none). last
// is the flow's last batch in the table when known (-1 otherwise). It
// fails when a commit the rebuild needs was cleaned up or has no record.
func flowCommits(h *table.Handle, flow, id string, last int64) (map[int64]*checkpoint.CommitRecord, string, error) {
	recs := map[int64]*checkpoint.CommitRecord{}
	if id != "" && last < 0 {
		return recs, id, nil // the table holds no batch of the query
	}
	latest, err := h.LatestVersion()
	if err != nil {
		return nil, "", err
	}
	complete := func() bool {
		if id == "" || last < 0 {
			return false
		}
		for b := int64(0); b <= last; b++ {
			if recs[b] == nil {
				return false
			}
		}
		return true
	}
	for v := latest; v >= 0 && !complete(); v-- {
		c, err := delta.ReadCommit(h.Path, v)
		if errors.Is(err, fs.ErrNotExist) {
			if id == "" {
				// The flow's commits, if any, were cleaned up.
				return nil, "", errLogCleanedUp
			}
			return nil, "", fmt.Errorf("table %s's log no longer holds commit %d (cleaned up after delta.logRetentionDuration), which the rebuild needs", h.Name, v)
		}
		if err != nil {
			return nil, "", err
		}
		var info *delta.CommitInfo
		var txn *delta.Txn
		for _, a := range c.Actions {
			if a.CommitInfo != nil {
				info = a.CommitInfo
			}
			if a.Txn != nil && (id == "" || a.Txn.AppID == id) {
				txn = a.Txn
			}
		}
		var rec *checkpoint.CommitRecord
		if info != nil && len(info.Progress) > 0 {
			var r checkpoint.CommitRecord
			if json.Unmarshal(info.Progress, &r) == nil && r.Flow == flow {
				rec = &r
			}
		}
		if id == "" {
			if rec == nil {
				if info != nil && isReset(info) && txn == nil {
					return nil, "", nil // the table was reset after any commit of the flow
				}
				continue
			}
			id = rec.QueryID
			if last < 0 {
				last = rec.Batch
			}
		}
		if rec != nil && rec.QueryID == id {
			recs[rec.Batch] = rec
			continue
		}
		if txn != nil && txn.AppID == id {
			return nil, "", fmt.Errorf("commit %d of table %s (micro-batch %d) was written without a record of the files it read (by an earlier pipegen)", v, h.Name, txn.Version)
		}
	}
	if id != "" && !complete() {
		for b := int64(0); b <= last; b++ {
			if recs[b] == nil {
				return nil, "", fmt.Errorf("table %s's log has no commit of micro-batch %d", h.Name, b)
			}
		}
	}
	return recs, id, nil
}

// errLogCleanedUp is flowCommits' error when the log was cleaned up
// before any commit of the flow was found.
var errLogCleanedUp = errors.New("the table's log was cleaned up (delta.logRetentionDuration) before any commit of the flow")

// retiredPath is the list of the application ids of checkpoints a full
// refresh removed: their txn actions stay in the table (Delta keeps them),
// but no flow's progress is lost with them.
func (u *update) retiredPath() string { return u.storagePath("checkpoints", "_retired.json") }

// retireCheckpoint adds the ids of f's checkpoint to the retired list,
// before a full refresh removes it.
func (u *update) retireCheckpoint(f *Flow) error {
	ids := checkpoint.IDs(u.checkpointDir(f))
	if len(ids) == 0 {
		return nil
	}
	var retired []string
	if err := checkpoint.ReadJSON(u.retiredPath(), &retired); err != nil && !errors.Is(err, fs.ErrNotExist) && !checkpoint.IsCorrupt(err) {
		return err
	}
	retired = append(retired, ids...)
	sort.Strings(retired)
	return checkpoint.WriteJSON(u.retiredPath(), slices.Compact(retired))
}

// unclaimedTxns returns the application ids of s's txn actions that no
// flow writing table h claims in its checkpoint, and no full refresh
// retired: the progress of a flow whose checkpoint was lost.
func (u *update) unclaimedTxns(h *table.Handle, s *delta.Snapshot) []string {
	claimed := map[string]bool{}
	var retired []string
	checkpoint.ReadJSON(u.retiredPath(), &retired)
	for _, id := range retired {
		claimed[id] = true
	}
	for _, f := range u.p.Flows {
		if f.Target.DatasetName() == h.Name {
			for _, id := range checkpoint.IDs(u.checkpointDir(f)) {
				claimed[id] = true
			}
		}
	}
	var out []string
	for id := range s.Txns {
		if !claimed[id] {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// isReset reports whether a commit replaced a table's contents: a full
// refresh's truncation.
func isReset(info *delta.CommitInfo) bool {
	return strings.HasPrefix(info.Operation, "CREATE OR REPLACE")
}

// rebuildCheckpoint replaces the checkpoint of f with what the records of
// its commits say, keeping the flow's id (checkpoint.Stream.Rebuild), and
// reports it.
func (u *update) rebuildCheckpoint(f *Flow, h *table.Handle, cp *checkpoint.Stream, id string, recs map[int64]*checkpoint.CommitRecord, why string) error {
	files, err := cp.Rebuild(id, recs)
	if err != nil {
		return err
	}
	msg := fmt.Sprintf("The checkpoint of flow %s was rebuilt from table %s's log (%s): micro-batches 0 to %d, %d files; no file is read twice.",
		f.Name, h.Name, why, cp.Committed, files)
	u.log.Emit(eventlog.Event{Type: "flow_progress", Level: "WARN", Origin: eventlog.Origin{Flow: f.Name, Dataset: h.Name}, Message: msg,
		Details: map[string]any{"checkpoint_rebuilt": map[string]any{"reason": why, "last_batch": cp.Committed, "files": files}}})
	fmt.Fprintf(u.stderr, "flow %s: checkpoint rebuilt from %s's log (%s)\n", f.Name, h.Name, why)
	return nil
}
