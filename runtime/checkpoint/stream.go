// Package checkpoint keeps a flow's progress between updates, under
// <storage>/checkpoints/<flow>/: the micro-batches of a streaming flow
// (Stream: metadata, write-ahead offsets, commit marks, the compacted
// processed-file record), the record of a materialized view's last refresh
// (Refresh) and of a once flow's run (Once), and the JSON files of a
// pipeline's storage, written whole or not at all (ReadJSON, WriteJSON).
// Every byte goes through runtime/storage.
//
// A streaming flow's checkpoint is a folder:
//
//	metadata.json      the flow's id (the Delta txn appId), definition and inputs
//	offsets/<N>.json   written before micro-batch N runs: what it reads
//	commits/<N>.json   written after micro-batch N is committed to the table
//	compact/<N>.seen   every compactEvery batches: all files seen through N
//	                   (see writeCompact; compact/<N>.json before 0.9)
//
// This is Structured Streaming's checkpoint design (offsets as a
// write-ahead log, commits as the record of completion, a compacted file
// log for file sources). The table commit of batch N carries a Delta `txn`
// action {appId: id, version: N} and the batch's CommitRecord, so after a
// crash between the table commit and commits/N the table itself says the
// batch is done, and a lost checkpoint can be rebuilt from the table's log
// (Stream.Rebuild; the runtime's checkpointrepair.go decides when).
package checkpoint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"time"

	"github.com/pipegen/pipegen/runtime/storage"
)

// compactEvery is how often the seen-files record is compacted.
const compactEvery = 10

// keepBatches is how many old offsets/commits files are kept behind a
// compaction, for inspection.
const keepBatches = 10

// Meta is metadata.json: what the checkpoint belongs to.
type Meta struct {
	// ID is the flow's id: the appId of the Delta txn actions of its
	// commits, and the queryId of their CommitRecord.
	ID string `json:"id"`
	// Flow is the flow's name.
	Flow string `json:"flow"`
	// Definition is the flow's definition hash (spec.Flow.Definition).
	Definition string `json:"definition"`
	// StateDefinition is the Watermark.State of a stateful flow.
	StateDefinition string `json:"stateDefinition,omitempty"`
	// StateShape and StateTypes are the Watermark.Shape and Types.
	StateShape string   `json:"stateShape,omitempty"`
	StateTypes []string `json:"stateTypes,omitempty"`
	// Inputs are the names of the streamed inputs, in the flow's order.
	Inputs []string `json:"inputs"`
	// Created is when the checkpoint was created (UTC).
	Created time.Time `json:"created"`
}

// Offsets is offsets/<N>.json: what micro-batch N reads, by input name.
type Offsets struct {
	Batch  int64            `json:"batchId"`
	Inputs map[string]Input `json:"inputs"`
}

// Input is one streaming input's share of a micro-batch: the files of a
// file source, or the table versions (From, To] of a table.
type Input struct {
	Files []File `json:"files,omitempty"`
	// Skip marks files recorded without being read
	// (include_existing_files: false).
	Skip bool `json:"skip,omitempty"`
	// Versions are the table versions read: (From, To]; From is -1 when
	// the table is read from its first version.
	Versions *VersionRange `json:"versions,omitempty"`
}

// VersionRange is the Delta versions (From, To] a micro-batch reads.
type VersionRange struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// File identifies an ingested file: its "file:" URI, size in bytes and
// modification time.
type File struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"modificationTime"` // ms since the epoch
}

// CommitRecord is commitInfo.pipegenProgress of a flow's table commit:
// the flow's name and id (QueryID, the txn appId), the micro-batch, and
// what it read (the Inputs of its Offsets). A once flow's commit records
// no inputs.
type CommitRecord struct {
	Flow    string           `json:"flow"`
	QueryID string           `json:"queryId"`
	Batch   int64            `json:"batchId"`
	Inputs  map[string]Input `json:"inputs,omitempty"`
}

// Stream is a streaming flow's checkpoint as loaded.
type Stream struct {
	// Dir is the checkpoint's folder.
	Dir string
	// Meta is metadata.json.
	Meta Meta
	// Committed is the last committed batch (-1 when none).
	Committed int64
	// Pending holds the offsets of batch Committed+1 when they were
	// written but the batch was not committed (a crash).
	Pending *Offsets
	// Seen are the files of each file source read (or skipped) by
	// committed batches.
	Seen map[string]FileSet
	// Versions is the last table version read per table input.
	Versions map[string]int64
	// Created is set when metadata.json was absent (or corrupt): a new
	// flow, or a lost checkpoint; SaveMeta writes it.
	Created bool
	// Damage says what is missing or corrupt in the checkpoint as loaded.
	Damage []string
}

// Load reads the checkpoint in dir. When dir holds no metadata.json (or a
// corrupt one), it is a new checkpoint, not yet written: meta, the new
// flow's (with its fresh ID), stamped with the time, and Created set.
// A damaged or incomplete checkpoint is loaded as far as it goes and says
// what is wrong in Damage: the caller rebuilds it from the flow's table
// (Rebuild) or refuses to run; only I/O errors are returned.
func Load(dir string, meta Meta) (*Stream, error) {
	cp := &Stream{Dir: dir, Committed: -1, Seen: map[string]FileSet{}, Versions: map[string]int64{}}
	data, err := storage.ReadFile(storage.Join(dir, "metadata.json"))
	if err == nil {
		if jerr := json.Unmarshal(data, &cp.Meta); jerr != nil || cp.Meta.ID == "" {
			cp.Damage = append(cp.Damage, fmt.Sprintf("metadata.json is corrupt (%v)", jerr))
			cp.Meta = Meta{}
			err = fs.ErrNotExist
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		meta.Created = time.Now().UTC()
		cp.Meta = meta
		cp.Created = true
		// What else is left of a checkpoint whose metadata was lost is
		// of no use without the id; the table's log says the rest. The
		// caller writes metadata.json (SaveMeta) once it knows the flow
		// is new, so that a refused update leaves the same state.
		return cp, nil
	case err != nil:
		return nil, fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	commits, err := batchNumbers(storage.Join(dir, "commits"), ".json")
	if err != nil {
		return nil, err
	}
	if len(commits) > 0 {
		cp.Committed = commits[len(commits)-1]
	}
	// Seen files: the newest compaction at or before the last commit, then
	// every offsets file after it, each batch in turn.
	next := int64(0) // the first batch whose files are not known yet
	compacts, err := compactions(dir)
	if err != nil {
		return nil, err
	}
	for i := len(compacts) - 1; i >= 0; i-- {
		if compacts[i].batch <= cp.Committed {
			if err := cp.readCompact(compacts[i].path); err != nil {
				cp.Damage = append(cp.Damage, err.Error())
				cp.Seen, cp.Versions = map[string]FileSet{}, map[string]int64{}
				break
			}
			next = compacts[i].batch + 1
			break
		}
	}
	offsets, err := batchNumbers(storage.Join(dir, "offsets"), ".json")
	if err != nil {
		return nil, err
	}
	for _, n := range offsets {
		if n < next || n > cp.Committed+1 {
			continue
		}
		var o Offsets
		if err := ReadJSON(storage.Join(dir, "offsets", batchName(n)), &o); err != nil {
			cp.Damage = append(cp.Damage, err.Error())
			break
		}
		if n == cp.Committed+1 {
			cp.Pending = &o
			continue
		}
		if n != next {
			break // a gap: reported below
		}
		cp.apply(&o)
		next++
	}
	if next <= cp.Committed {
		cp.Damage = append(cp.Damage, fmt.Sprintf("the record of the files read by micro-batches %d to %d is missing (offsets/ or compact/)", next, cp.Committed))
	}
	return cp, nil
}

// SaveMeta writes metadata.json from Meta and clears Created.
func (cp *Stream) SaveMeta() error {
	if err := WriteJSON(storage.Join(cp.Dir, "metadata.json"), cp.Meta); err != nil {
		return fmt.Errorf("checkpoint %s: %w", cp.Dir, err)
	}
	cp.Created = false
	return nil
}

// apply records a committed batch's offsets as read.
func (cp *Stream) apply(o *Offsets) {
	for input, off := range o.Inputs {
		if len(off.Files) > 0 {
			m := cp.Seen[input]
			if m == nil {
				m = FileSet{}
				cp.Seen[input] = m
			}
			for _, f := range off.Files {
				m[f.Path] = MakeStamp(f.Size, f.ModTime)
			}
		}
		if off.Versions != nil {
			cp.Versions[input] = off.Versions.To
		}
	}
}

// WriteOffsets records batch o before it runs (offsets/<N>.json).
func (cp *Stream) WriteOffsets(o *Offsets) error {
	return WriteJSON(storage.Join(cp.Dir, "offsets", batchName(o.Batch)), o)
}

// Commit records batch o as committed (commits/<N>.json), after its table
// commit, compacting the seen-files record every compactEvery batches.
func (cp *Stream) Commit(o *Offsets) error {
	cp.apply(o)
	cp.Committed = o.Batch
	cp.Pending = nil
	rec := map[string]any{"batchId": o.Batch, "committedAt": time.Now().UTC()}
	if err := WriteJSON(storage.Join(cp.Dir, "commits", batchName(o.Batch)), rec); err != nil {
		return err
	}
	if (o.Batch+1)%compactEvery == 0 {
		return cp.compact()
	}
	return nil
}

// compact writes the seen-files record through the last committed batch and
// removes offsets and commits older than keepBatches behind it, and older
// compactions.
func (cp *Stream) compact() error {
	if err := cp.writeCompact(cp.compactPath()); err != nil {
		return err
	}
	compacts, err := compactions(cp.Dir)
	if err != nil {
		return err
	}
	for _, c := range compacts {
		if c.batch < cp.Committed {
			storage.Remove(c.path)
		}
	}
	for _, sub := range []string{"offsets", "commits"} {
		nums, err := batchNumbers(storage.Join(cp.Dir, sub), ".json")
		if err != nil {
			return err
		}
		for _, n := range nums {
			if n < cp.Committed-keepBatches {
				storage.Remove(storage.Join(cp.Dir, sub, batchName(n)))
			}
		}
	}
	return nil
}

// compactPath is the compacted record through the last committed batch.
func (cp *Stream) compactPath() string {
	return storage.Join(cp.Dir, "compact", strconv.FormatInt(cp.Committed, 10)+seenExt)
}

// Rebuild replaces the checkpoint with what the records of the flow's
// table commits say (recs, by micro-batch), under the flow id id: the
// files read by the micro-batches recorded and the table versions read.
// What is left on disk is replaced: metadata, a compaction through the
// last batch and its commit mark; offsets, and marks of later batches
// (never committed), are dropped, so the next batch is planned afresh. It
// returns the number of files the records name.
func (cp *Stream) Rebuild(id string, recs map[int64]*CommitRecord) (files int, err error) {
	batches := make([]int64, 0, len(recs))
	for b := range recs {
		batches = append(batches, b)
	}
	sort.Slice(batches, func(i, j int) bool { return batches[i] < batches[j] })
	cp.Meta.ID = id
	cp.Seen, cp.Versions = map[string]FileSet{}, map[string]int64{}
	cp.Committed, cp.Pending, cp.Damage, cp.Created = -1, nil, nil, false
	for _, b := range batches {
		r := recs[b]
		cp.apply(&Offsets{Batch: b, Inputs: r.Inputs})
		cp.Committed = b
		for _, in := range r.Inputs {
			files += len(in.Files)
		}
	}
	if err := cp.SaveMeta(); err != nil {
		return 0, err
	}
	for _, sub := range []string{"offsets", "commits"} {
		nums, err := batchNumbers(storage.Join(cp.Dir, sub), ".json")
		if err != nil {
			return 0, err
		}
		for _, n := range nums {
			if n > cp.Committed || sub == "offsets" {
				storage.Remove(storage.Join(cp.Dir, sub, batchName(n)))
			}
		}
	}
	compacts, err := compactions(cp.Dir)
	if err != nil {
		return 0, err
	}
	for _, c := range compacts {
		storage.Remove(c.path)
	}
	if cp.Committed >= 0 {
		if err := cp.writeCompact(cp.compactPath()); err != nil {
			return 0, err
		}
		rec := map[string]any{"batchId": cp.Committed, "rebuilt": true}
		if err := WriteJSON(storage.Join(cp.Dir, "commits", batchName(cp.Committed)), rec); err != nil {
			return 0, err
		}
	}
	return files, nil
}

func batchName(n int64) string { return strconv.FormatInt(n, 10) + ".json" }

// batchNumbers lists the batch numbers of the N<ext> files in dir, sorted.
func batchNumbers(dir, ext string) ([]int64, error) {
	entries, err := storage.At(dir).List("", storage.ListOptions{Shallow: true, NamesOnly: true})
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, e := range entries {
		name := e.Name()
		if path.Ext(name) != ext {
			continue
		}
		n, err := strconv.ParseInt(name[:len(name)-len(ext)], 10, 64)
		if err == nil {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}
