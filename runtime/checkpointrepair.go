package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/storage"
)

// A streaming flow's progress is kept twice: in its checkpoint folder and
// in its target table. Every micro-batch's commit carries the Delta txn
// action {appId: flow id, version: batch id} and, in
// commitInfo.pipegenProgress, the record of what the batch read (the
// flowCommitRecord: the flow's name and id, the batch, the files of each
// file source with their size and modification time, the table versions
// of each table input). Before a flow runs, its checkpoint is checked
// against the table (verifyCheckpoint): a checkpoint that is lost, cut
// short or behind the table is rebuilt from the table's log, so the
// update goes on with no file read twice; when the log cannot rebuild it
// (commits cleaned up after delta.logRetentionDuration, or written by a
// pipegen that kept no record), or the table is behind the checkpoint,
// the update stops before it writes, naming the flow and the full refresh
// that resets it.

// flowCommitRecord is commitInfo.pipegenProgress of a flow's commit.
type flowCommitRecord struct {
	Flow    string                 `json:"flow"`
	QueryID string                 `json:"queryId"`
	Batch   int64                  `json:"batchId"`
	Inputs  map[string]inputOffset `json:"inputs,omitempty"`
}

func mustJSONCompact(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own plain structs are marshalled
	}
	return b
}

// flowTxn is the txn of micro-batch off of the flow of cp, with its record.
func flowTxn(f *Flow, cp *checkpoint, off *batchOffsets) *txnAction {
	return &txnAction{AppID: cp.meta.ID, Version: off.Batch,
		Progress: &flowCommitRecord{Flow: f.Name, QueryID: cp.meta.ID, Batch: off.Batch, Inputs: off.Inputs}}
}

// verifyCheckpoint checks the checkpoint of streaming flow f against its
// target table h and rebuilds it from the table's log when it is lost,
// damaged or behind the table. It returns an error, before anything is
// written to the table, when neither holds.
func (u *update) verifyCheckpoint(f *Flow, h *tableHandle, cp *checkpoint) error {
	s, err := h.meta()
	if err != nil {
		return err
	}
	refuse := func(format string, args ...any) error {
		// runFlows names the flow before the message.
		return fmt.Errorf("%s: nothing was written; run with --full-refresh %s to recompute %s from all its input",
			fmt.Sprintf(format, args...), h.name, h.name)
	}
	if s == nil {
		if cp.committed >= 0 {
			return refuse("its checkpoint records micro-batches 0 to %d but table %s does not exist (deleted?)", cp.committed, h.name)
		}
		return nil
	}
	if cp.created {
		// A new flow, or a checkpoint whose metadata was lost: the
		// table's log says which.
		recs, id, err := flowCommits(h, f.Name, "", -1)
		if errors.Is(err, errLogCleanedUp) {
			// A new flow on an old table, or the checkpoint of one whose
			// commits have expired: the table's transactions tell.
			if others := u.unclaimedTxns(h, s); len(others) > 0 {
				return refuse("it has no checkpoint, and table %s holds the progress of %d flow run(s) no checkpoint claims (application id %s) while %v: if this flow wrote them, its checkpoint was lost",
					h.name, len(others), others[0], err)
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
		if len(cp.damage) > 0 {
			why = strings.Join(cp.damage, "; ")
		}
		return u.rebuildCheckpoint(f, h, cp, id, recs, why)
	}
	tableV, ok := s.TxnVersion(cp.meta.ID)
	if !ok {
		tableV = -1
	}
	if tableV < cp.committed {
		return refuse("its checkpoint records micro-batches 0 to %d but table %s holds only %s (the table was restored from an older copy, or the checkpoint belongs to another table)",
			cp.committed, h.name, batchesUpTo(tableV))
	}
	why := strings.Join(cp.damage, "; ")
	crashAfterCommit := tableV == cp.committed+1 && cp.pending != nil && cp.pending.Batch == tableV
	if tableV > cp.committed && !crashAfterCommit {
		if why != "" {
			why += "; "
		}
		why += fmt.Sprintf("commits/ records micro-batches up to %d but table %s holds %s", cp.committed, h.name, batchesUpTo(tableV))
	}
	if why == "" {
		return nil
	}
	recs, _, err := flowCommits(h, f.Name, cp.meta.ID, tableV)
	if err != nil {
		return refuse("its checkpoint is damaged (%s) and %v", why, err)
	}
	return u.rebuildCheckpoint(f, h, cp, cp.meta.ID, recs, why)
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
func flowCommits(h *tableHandle, flow, id string, last int64) (map[int64]*flowCommitRecord, string, error) {
	recs := map[int64]*flowCommitRecord{}
	if id != "" && last < 0 {
		return recs, id, nil // the table holds no batch of the query
	}
	latest, err := h.latestVersion()
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
		c, err := delta.ReadCommit(h.path, v)
		if errors.Is(err, fs.ErrNotExist) {
			if id == "" {
				// The flow's commits, if any, were cleaned up.
				return nil, "", errLogCleanedUp
			}
			return nil, "", fmt.Errorf("table %s's log no longer holds commit %d (cleaned up after delta.logRetentionDuration), which the rebuild needs", h.name, v)
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
		var rec *flowCommitRecord
		if info != nil && len(info.Progress) > 0 {
			var r flowCommitRecord
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
			return nil, "", fmt.Errorf("commit %d of table %s (micro-batch %d) was written without a record of the files it read (by an earlier pipegen)", v, h.name, txn.Version)
		}
	}
	if id != "" && !complete() {
		for b := int64(0); b <= last; b++ {
			if recs[b] == nil {
				return nil, "", fmt.Errorf("table %s's log has no commit of micro-batch %d", h.name, b)
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
	ids := checkpointIDs(u.checkpointDir(f))
	if len(ids) == 0 {
		return nil
	}
	var retired []string
	if err := readJSON(u.retiredPath(), &retired); err != nil && !errors.Is(err, fs.ErrNotExist) && !isCorrupt(err) {
		return err
	}
	retired = append(retired, ids...)
	sort.Strings(retired)
	return writeFileAtomic(u.retiredPath(), mustJSON(slices.Compact(retired)))
}

// checkpointIDs returns the application ids a flow's checkpoint folder
// holds (metadata.json, once.json, refresh.json).
func checkpointIDs(dir string) []string {
	var ids []string
	var meta checkpointMeta
	if readJSON(filepath.Join(dir, "metadata.json"), &meta) == nil && meta.ID != "" {
		ids = append(ids, meta.ID)
	}
	var once onceState
	if readJSON(filepath.Join(dir, "once.json"), &once) == nil && once.FlowID != "" {
		ids = append(ids, once.FlowID)
	}
	var mv mvState
	if readJSON(filepath.Join(dir, "refresh.json"), &mv) == nil && mv.FlowID != "" {
		ids = append(ids, mv.FlowID)
	}
	return ids
}

// unclaimedTxns returns the application ids of s's txn actions that no
// flow writing table h claims in its checkpoint, and no full refresh
// retired: the progress of a flow whose checkpoint was lost.
func (u *update) unclaimedTxns(h *tableHandle, s *delta.Snapshot) []string {
	claimed := map[string]bool{}
	var retired []string
	readJSON(u.retiredPath(), &retired)
	for _, id := range retired {
		claimed[id] = true
	}
	for _, f := range u.p.Flows {
		if f.Target.DatasetName() == h.name {
			for _, id := range checkpointIDs(u.checkpointDir(f)) {
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
// its commits say, keeping the flow's id: the files read by micro-batches
// 0 to the last in the table, and the table versions read.
func (u *update) rebuildCheckpoint(f *Flow, h *tableHandle, cp *checkpoint, id string, recs map[int64]*flowCommitRecord, why string) error {
	batches := make([]int64, 0, len(recs))
	for b := range recs {
		batches = append(batches, b)
	}
	sort.Slice(batches, func(i, j int) bool { return batches[i] < batches[j] })
	cp.meta.ID = id
	cp.seen, cp.versions = map[string]seenSet{}, map[string]int64{}
	cp.committed, cp.pending, cp.damage, cp.created = -1, nil, nil, false
	files := 0
	for _, b := range batches {
		r := recs[b]
		cp.apply(&batchOffsets{Batch: b, Inputs: r.Inputs})
		cp.committed = b
		for _, in := range r.Inputs {
			files += len(in.Files)
		}
	}
	// The rebuilt record replaces what is left: metadata, a compaction
	// through the last batch, its commit mark; offsets and marks of later
	// batches (never committed) are dropped, so the next batch is
	// planned afresh.
	if err := cp.saveMeta(); err != nil {
		return err
	}
	for _, sub := range []string{"offsets", "commits"} {
		nums, err := batchNumbers(filepath.Join(cp.dir, sub), ".json")
		if err != nil {
			return err
		}
		for _, n := range nums {
			if n > cp.committed || sub == "offsets" {
				storage.Remove(filepath.Join(cp.dir, sub, batchName(n)))
			}
		}
	}
	compacts, err := compactions(cp.dir)
	if err != nil {
		return err
	}
	for _, c := range compacts {
		storage.Remove(c.path)
	}
	if cp.committed >= 0 {
		if err := cp.writeCompact(filepath.Join(cp.dir, "compact", strconv.FormatInt(cp.committed, 10)+seenExt)); err != nil {
			return err
		}
		rec := map[string]any{"batchId": cp.committed, "rebuilt": true}
		if err := writeFileAtomic(filepath.Join(cp.dir, "commits", batchName(cp.committed)), mustJSON(rec)); err != nil {
			return err
		}
	}
	msg := fmt.Sprintf("The checkpoint of flow %s was rebuilt from table %s's log (%s): micro-batches 0 to %d, %d files; no file is read twice.",
		f.Name, h.name, why, cp.committed, files)
	u.log.Emit(eventlog.Event{Type: "flow_progress", Level: "WARN", Origin: eventlog.Origin{Flow: f.Name, Dataset: h.name}, Message: msg,
		Details: map[string]any{"checkpoint_rebuilt": map[string]any{"reason": why, "last_batch": cp.committed, "files": files}}})
	fmt.Fprintf(u.stderr, "flow %s: checkpoint rebuilt from %s's log (%s)\n", f.Name, h.name, why)
	return nil
}
