package cdc

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/types"
)

// Storage of AUTO CDC targets.
//
// The target's data files are leaves of a key-range index: each file holds
// the rows of the keys in [lo, next leaf's lo), sorted by key, and names its
// range in the Delta add action's tags (pipegen.cdc.lo, .hi, .keys). A
// micro-batch routes each changed key to its leaf and rewrites only the
// leaves that hold changed keys, copy-on-write: one Delta commit removes
// their files and adds the new ones, with the change data feed files of the
// batch (cdc actions) and the flow's txn. New keys above the greatest key
// of a full leaf start a new leaf instead of rewriting it, so an
// insert-mostly feed rewrites little; a leaf over twice Store.LeafKeys
// keys is split.
//
// Each leaf has a state file beside it in the flow's checkpoint folder
// (cdc_state/, named by the pipegen.cdc.state tag): the records of its
// keys (see merge.go), tombstones included. State files are written
// before the commit that names them, so the table's log says at every
// version which state goes with which rows; a crash before the commit
// leaves only unreferenced files, removed by the next batch.

// DefaultLeafKeys is the leaf size, in keys, of a Store whose LeafKeys is
// 0.
const DefaultLeafKeys = 32768

// WriteRowsFunc writes rows of generic values in the canonical layout of
// schema into a new Parquet data file under the folder dir, named from
// prefix, worker and seq so that no two files of a batch attempt share a
// name (the runtime's data file writer, which names files as Spark does),
// made durable before it returns. It returns the file's name relative to
// dir and its size, row count and Delta statistics.
type WriteRowsFunc func(dir, prefix string, worker, seq int, schema types.Schema, rows [][]any) (string, parquetio.FileInfo, error)

// Store applies micro-batches of changes to one AUTO CDC target.
type Store struct {
	Spec *Spec
	// Table names the target (in messages); Path is its location.
	Table, Path string
	// StateDir is the folder of the flow's state files (the checkpoint's
	// cdc_state/).
	StateDir string
	// Prefix makes the names of the files one batch attempt writes unique.
	Prefix string
	// Now dates the batch: the add actions, and the records' application
	// time for the tombstone retention.
	Now time.Time
	// LeafKeys is the leaf size in keys (0: DefaultLeafKeys): a leaf is
	// split into leaves of about LeafKeys keys when it exceeds twice that;
	// new keys above a leaf of at least a quarter of it start a new leaf.
	LeafKeys int
	// WriteRows writes the data, state and change data files.
	WriteRows WriteRowsFunc
}

// Merged is what Store.Merge wrote for a micro-batch: the actions of the
// one Delta commit that applies it (a MERGE: Removes, Adds and the change
// data feed's Changes), with what they count. Nothing of it is visible
// until that commit: after a failed commit Discard removes the files,
// after a successful one Collect removes the state files the table no
// longer refers to.
type Merged struct {
	// Removes are the data files the batch rewrote, Adds those it wrote,
	// Changes its change data files (Delta cdc actions).
	Removes, Adds []delta.Add
	Changes       []delta.CDC
	// Upserted counts rows inserted or updated in the target (change data
	// feed insert and update_postimage rows); Deleted the rows removed.
	Upserted, Deleted int64
	// RemovedBytes are the bytes of Removes and AddedBytes of Adds;
	// StateBytes and ChangeBytes those of the state and change files
	// written.
	RemovedBytes, AddedBytes int64
	StateBytes, ChangeBytes  int64
	// LeavesBefore and LeavesAfter count the target's leaves.
	LeavesBefore, LeavesAfter int

	st      *Store
	results []rewriteResult
	live    map[string]bool
}

// leafKeys returns the store's leaf size.
func (st *Store) leafKeys() int {
	if st.LeafKeys > 0 {
		return st.LeafKeys
	}
	return DefaultLeafKeys
}

// rewrite is the rewrite of one leaf (or the creation of one).
type rewrite struct {
	leaf *Leaf // nil: a new leaf starting at lo
	lo   []byte
	keys [][]byte
	// pv are the partition values of an empty leaf's file (nil for an
	// unpartitioned target); keepEmpty keeps the leaf when it has no keys
	// left (the first leaf of an index that must not vanish).
	pv        delta.PartitionValues
	keepEmpty bool
}

// rewriteResult is what a job wrote.
type rewriteResult struct {
	adds    []delta.Add
	states  []string
	change  []delta.CDC
	changes []feedRow
	bytes   int64
	state   int64
	leaves  int
}

// stateSchema returns the columns of a state file.
func (s *Spec) stateSchema() types.Schema {
	out := types.Schema{
		{Name: "__cdc_key", Type: types.BinaryType},
		{Name: "__cdc_delete", Type: types.BooleanType},
		{Name: "__cdc_applied_at", Type: types.TimestampType},
		{Name: "__cdc_sequence", Type: s.seqType, Nullable: true},
	}
	for _, f := range s.data {
		f.Nullable = true
		out = append(out, f)
	}
	return out
}

// stateColumns is the number of bookkeeping columns before the data
// columns of a state file. A record's change order is not stored: it
// follows from its sequence, kind and row (newRecord).
const stateColumns = 4

// Merge merges the changes of b into the target whose latest snapshot is
// snap: it reads the state of the leaves that hold changed keys, merges
// (merge.go), and writes their new data files, state files and change
// data files. The caller commits the result's actions in one Delta commit
// (with the flow's txn), then calls Collect; or Discard when the commit
// fails. Merge fails, having written nothing that stays, when the
// target's files were written by another writer or flow, or under keys,
// sequence, SCD type or Rules that conflict with the flow's (each error
// names the table and the full refresh that resolves it), or when a state
// file is missing or damaged.
func (st *Store) Merge(snap *delta.Snapshot, b *Batch) (*Merged, error) {
	changes, trunc := b.changes, b.trunc
	out := &Merged{st: st}
	leaves, truncAt, err := loadLeaves(snap, st.Spec.parts, st.Table, st.Spec.flow)
	if err != nil {
		return nil, err
	}
	for _, l := range leaves {
		if sig := st.Spec.signature(); l.spec != "" && l.spec != sig {
			return nil, fmt.Errorf("table %s: AUTO CDC flow %s changed its keys, sequence or SCD type (was %s, now %s); its rows and state follow the old ones: run a full refresh: --full-refresh %s",
				st.Table, st.Spec.flow, l.spec, sig, st.Table)
		}
		// A leaf's state is in the checkpoint of the flow that wrote it:
		// another flow (a new one, or the same renamed) has none for it.
		if l.flow != "" && l.flow != st.Spec.flow {
			return nil, fmt.Errorf("table %s: its rows were applied by AUTO CDC flow %s, not by flow %s: a new or renamed flow into an existing AUTO CDC target has no state for the rows already applied; nothing was written: run a full refresh: --full-refresh %s (or keep the flow's old name)",
				st.Table, l.flow, st.Spec.flow, st.Table)
		}
		if err := st.checkLeafRules(l.rules); err != nil {
			return nil, err
		}
	}
	out.LeavesBefore = len(leaves)
	byKey := map[string][]record{}
	groups := map[string]*keyIndex{}
	group := func(name string, pv delta.PartitionValues) *keyIndex {
		g := groups[name]
		if g == nil {
			g = &keyIndex{pv: pv}
			groups[name] = g
		}
		return g
	}
	for _, c := range changes {
		k := string(c.key)
		if _, ok := byKey[k]; !ok {
			g := group(c.group, c.pv)
			g.keys = append(g.keys, c.key)
		}
		byKey[k] = append(byKey[k], c.rec)
	}
	for k, recs := range byKey {
		byKey[k] = sortRecords(recs)
	}
	for _, l := range leaves {
		g := group(l.group, l.pv)
		g.leaves = append(g.leaves, l)
	}
	retruncate := trunc != nil && bytes.Compare(trunc, truncAt) > 0
	if retruncate {
		truncAt = trunc
		if st.Spec.parts == nil || !st.Spec.parts.keyed {
			group("", nil) // the watermark needs a leaf (keyed: see carrier)
		}
	}
	var jobs []rewrite
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		g := groups[name]
		slices.SortFunc(g.keys, bytes.Compare)
		jobs = append(jobs, st.plan(g, retruncate)...)
	}
	results := make([]rewriteResult, len(jobs))
	if err := parallel(len(jobs), func(i int) error {
		r, err := st.run(i, jobs[i], byKey, truncAt, retruncate)
		results[i] = r
		return err
	}); err != nil {
		out.results = results
		out.Discard()
		return nil, err
	}
	if j, ok := st.carrier(leaves, jobs, results, truncAt); ok {
		// Every leaf of a target partitioned by keys is gone, but the
		// truncate watermark must stay: an empty leaf keeps it.
		r, err := st.run(len(jobs), j, byKey, truncAt, false)
		jobs, results = append(jobs, j), append(results, r)
		if err != nil {
			out.results = results
			out.Discard()
			return nil, err
		}
	}
	out.results = results
	live := map[string]bool{}
	rewritten := map[*Leaf]bool{}
	leavesAfter := 0
	for i, j := range jobs {
		if j.leaf != nil {
			for _, a := range j.leaf.adds {
				out.Removes = append(out.Removes, *a)
				out.RemovedBytes += a.Size
			}
			rewritten[j.leaf] = true
		}
		r := results[i]
		out.Adds = append(out.Adds, r.adds...)
		leavesAfter += r.leaves
		for _, s := range r.states {
			live[s] = true
		}
		for _, c := range r.change {
			out.Changes = append(out.Changes, c)
			out.ChangeBytes += c.Size
		}
		out.AddedBytes += r.bytes
		out.StateBytes += r.state
		for _, c := range r.changes {
			switch c.kind {
			case delta.ChangeInsert, delta.ChangeUpdatePostimage:
				out.Upserted++
			case delta.ChangeDelete:
				out.Deleted++
			}
		}
	}
	for _, l := range leaves {
		if !rewritten[l] {
			live[l.state] = true
			leavesAfter++
		}
	}
	out.LeavesAfter = leavesAfter
	out.live = live
	return out, nil
}

// keyIndex is one key-range index of a target: all its leaves, or in a
// target partitioned by key columns those of one partition; with the
// changed keys that fall in it.
type keyIndex struct {
	pv     delta.PartitionValues
	leaves []*Leaf  // sorted by lo
	keys   [][]byte // sorted
}

// plan chooses the leaves of a group to rewrite or create for its keys.
func (st *Store) plan(g *keyIndex, retruncate bool) []rewrite {
	keyed := st.Spec.parts != nil && st.Spec.parts.keyed
	pv := g.pv
	if st.Spec.parts != nil && !keyed {
		pv = st.Spec.parts.null
	}
	leaves, keys := g.leaves, g.keys
	if len(leaves) == 0 {
		if len(keys) == 0 && !retruncate {
			return nil
		}
		return []rewrite{{lo: nil, keys: keys, pv: pv, keepEmpty: !keyed}}
	}
	byLeaf := make([][][]byte, len(leaves))
	for _, k := range keys {
		i := sort.Search(len(leaves), func(i int) bool { return bytes.Compare(leaves[i].lo, k) > 0 }) - 1
		byLeaf[max(i, 0)] = append(byLeaf[max(i, 0)], k)
	}
	var jobs []rewrite
	for i, l := range leaves {
		ks := byLeaf[i]
		lo := l.lo
		if i == 0 {
			lo = nil // the first leaf's range is open below
		}
		switch {
		case len(ks) == 0 && !retruncate:
		case !retruncate && l.keys >= int64(st.leafKeys()/4) && bytes.Compare(ks[0], l.hi) > 0:
			// Only new keys above a well-filled leaf: start a leaf.
			jobs = append(jobs, rewrite{lo: ks[0], keys: ks, pv: pv})
		default:
			jobs = append(jobs, rewrite{leaf: l, lo: lo, keys: ks, pv: pv, keepEmpty: i == 0 && !keyed})
		}
	}
	return jobs
}

// carrier returns the job of an empty leaf when a batch leaves a target
// partitioned by key columns without leaves while a truncate watermark is
// in force (the watermark is kept in the leaves' tags).
func (st *Store) carrier(leaves []*Leaf, jobs []rewrite, results []rewriteResult, truncAt []byte) (rewrite, bool) {
	if truncAt == nil || st.Spec.parts == nil || !st.Spec.parts.keyed {
		return rewrite{}, false
	}
	n := len(leaves)
	for i, j := range jobs {
		if j.leaf != nil {
			n--
		}
		n += results[i].leaves
	}
	return rewrite{pv: st.Spec.parts.null, keepEmpty: true}, n == 0
}

// run merges one job's keys into its leaf and writes the resulting leaves
// (several when it grew past the split size, none when a leaf other than
// the first is left empty) and the job's change data file.
func (st *Store) run(n int, j rewrite, byKey map[string][]record, truncAt []byte, retruncate bool) (rewriteResult, error) {
	var r rewriteResult
	var entries []entry
	if j.leaf != nil && j.leaf.state != "" {
		var err error
		if entries, err = st.readState(j.leaf.state); err != nil {
			return r, err
		}
	}
	m := st.Spec.mergeLeaf(entries, j.keys, byKey, truncAt, retruncate, st.Now.UnixMilli())
	r.changes = m.changes
	chunks := splitEntries(m.entries, st.leafKeys())
	if len(chunks) == 0 && j.keepEmpty {
		chunks = [][]entry{nil} // the first leaf stays, even empty
	}
	r.leaves = len(chunks)
	for c, chunk := range chunks {
		lo := j.lo
		if c > 0 {
			lo = chunk[0].key
		}
		adds, state, err := st.writeLeaf(n, c, lo, chunk, truncAt, j.pv)
		for _, add := range adds {
			r.adds = append(r.adds, add)
			r.bytes += add.Size
		}
		if state != "" {
			r.states = append(r.states, state)
		}
		if err != nil {
			return r, err
		}
		if fi, err := storage.StatFile(storage.Join(st.StateDir, state)); err == nil {
			r.state += fi.Size
		}
	}
	if len(m.changes) > 0 {
		var err error
		if r.change, err = st.writeChanges(n, m.changes); err != nil {
			return r, err
		}
	}
	return r, nil
}

// splitEntries cuts entries into leaves of about size keys when there are
// more than twice as many.
func splitEntries(entries []entry, size int) [][]entry {
	if len(entries) == 0 {
		return nil
	}
	if len(entries) <= 2*size {
		return [][]entry{entries}
	}
	n := (len(entries) + size - 1) / size
	var out [][]entry
	for i := 0; i < n; i++ {
		out = append(out, entries[i*len(entries)/n:(i+1)*len(entries)/n])
	}
	return out
}

// writeLeaf writes a leaf's state file and data files (one, or one per
// partition of its rows; pv are the partition values of an empty leaf's
// file) and returns the data files' add actions, tagged with the leaf's
// range and state. The adds returned were written even with an error.
func (st *Store) writeLeaf(job, chunk int, lo []byte, entries []entry, truncAt []byte, pv delta.PartitionValues) ([]delta.Add, string, error) {
	state, err := st.writeState(job, chunk, entries)
	if err != nil {
		return nil, state, err
	}
	var rows [][]any
	for _, e := range entries {
		rows = append(rows, e.rows...)
	}
	parts := []*partRows{{pv: pv, rows: rows}}
	schema := st.Spec.schema
	if p := st.Spec.parts; p != nil {
		if parts, err = p.split(rows, nil); err != nil {
			return nil, state, fmt.Errorf("table %s: %w", st.Table, err)
		}
		if len(parts) == 0 {
			parts = []*partRows{{pv: pv, dir: p.path(pv)}}
		}
		schema = p.data
	}
	var adds []delta.Add
	for _, part := range parts {
		rel, info, err := st.WriteRows(storage.Join(st.Path, part.dir), st.Prefix, job, chunk, schema, part.rows)
		if err != nil {
			return adds, state, err
		}
		if part.dir != "" {
			rel = part.dir + "/" + rel
		}
		add := delta.NewAdd(rel, part.pv, info, st.Now)
		add.Tags = st.leafTags(lo, entries, state, truncAt)
		adds = append(adds, add)
	}
	return adds, state, nil
}

// writeState writes the state file of a leaf and returns its name.
func (st *Store) writeState(job, chunk int, entries []entry) (string, error) {
	var rows [][]any
	for _, e := range entries {
		for _, r := range e.recs {
			row := make([]any, stateColumns, stateColumns+len(st.Spec.data))
			row[0], row[1], row[2], row[3] = e.key, r.del, types.Timestamp(r.at*1000), r.seq
			if r.row != nil {
				row = append(row, r.row...)
			} else {
				row = row[:stateColumns+len(st.Spec.data)]
			}
			rows = append(rows, row)
		}
	}
	rel, _, err := st.WriteRows(st.StateDir, st.Prefix, job, chunk, st.Spec.stateSchema(), rows)
	if err != nil {
		return "", err
	}
	return rel, nil
}

// readState reads a leaf's state file into entries sorted by key.
func (st *Store) readState(name string) ([]entry, error) {
	path := storage.Join(st.StateDir, name)
	fh, err := storage.OpenFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("table %s: the AUTO CDC state file %s of flow %s is missing: most likely the flow is new or renamed and writes into an existing target "+
			"(the state of the rows already applied is in the old flow's checkpoint), or the pipeline's storage was removed; nothing was written: run a full refresh: --full-refresh %s",
			st.Table, path, st.Spec.flow, st.Table)
	}
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	schema := st.Spec.stateSchema()
	damaged := func(err error) error {
		return fmt.Errorf("the AUTO CDC state of flow %s is damaged (%w); it cannot be rebuilt from table %s: nothing was written: run a full refresh: --full-refresh %s",
			st.Spec.flow, err, st.Table, st.Table)
	}
	r, err := parquetio.Open(path, fh, fh.Size(), schema, nil)
	if err != nil {
		return nil, damaged(err)
	}
	defer r.Close()
	rows, err := r.ReadAll()
	if err != nil {
		return nil, damaged(err)
	}
	var out []entry
	for _, row := range rows {
		key, _ := row[0].([]byte)
		del, _ := row[1].(bool)
		at, _ := row[2].(types.Timestamp)
		var data []any
		if !del {
			data = row[stateColumns:]
		}
		rec := st.Spec.newRecord(row[3], data, int64(at)/1000)
		if n := len(out); n > 0 && bytes.Equal(out[n-1].key, key) {
			out[n-1].recs = append(out[n-1].recs, rec)
			continue
		}
		out = append(out, entry{key: key, recs: []record{rec}})
	}
	for i := range out {
		out[i].rows = st.Spec.rows(out[i].recs)
	}
	return out, nil
}

// writeChanges writes a job's change data feed rows to a file of
// `_change_data/` (one per partition of a partitioned target, in the
// partition's folder below it, as Spark writes them): the target's columns
// but the partition columns, and _change_type.
func (st *Store) writeChanges(job int, changes []feedRow) ([]delta.CDC, error) {
	schema := st.Spec.schema
	rows := make([][]any, len(changes))
	kinds := make([]any, len(changes))
	for i, c := range changes {
		rows[i], kinds[i] = c.row, c.kind
	}
	parts := []*partRows{{pv: delta.PartitionValues{}, rows: rows, extra: kinds}}
	if p := st.Spec.parts; p != nil {
		var err error
		if parts, err = p.split(rows, kinds); err != nil {
			return nil, fmt.Errorf("table %s: %w", st.Table, err)
		}
		schema = p.data
	}
	schema = append(slices.Clone(schema), types.Field{Name: delta.ChangeTypeColumn, Type: types.StringType, Nullable: true})
	var out []delta.CDC
	for _, part := range parts {
		for i, r := range part.rows {
			part.rows[i] = append(slices.Clone(r), part.extra[i])
		}
		dir := delta.ChangeDataDir
		if part.dir != "" {
			dir += "/" + part.dir
		}
		rel, info, err := st.WriteRows(storage.Join(st.Path, dir), "cdc-"+st.Prefix, job, 0, schema, part.rows)
		if err != nil {
			return out, err
		}
		out = append(out, delta.CDC{Path: delta.EncodePath(dir + "/" + rel), PartitionValues: part.pv, Size: info.Size})
	}
	return out, nil
}

// Discard removes the files Merge wrote, when they will not be committed
// (the commit failed).
func (m *Merged) Discard() {
	st := m.st
	for _, r := range m.results {
		for _, a := range r.adds {
			storage.Remove(delta.FilePath(st.Path, a.Path))
		}
		for _, s := range r.states {
			storage.Remove(storage.Join(st.StateDir, s))
		}
		for _, c := range r.change {
			storage.Remove(delta.FilePath(st.Path, c.Path))
		}
	}
}

// Collect removes, once the commit of m's actions succeeded, the state
// files the table no longer refers to: those of rewritten leaves and of
// batch attempts that never committed. It is best effort: a file left
// behind is removed by the next batch.
func (m *Merged) Collect() {
	live := m.live
	store := storage.At(m.st.StateDir)
	entries, err := store.List("", storage.ListOptions{Shallow: true, NamesOnly: true})
	if err != nil {
		return
	}
	for _, e := range entries {
		if !live[e.Name()] {
			store.Delete(e.Name())
		}
	}
}

// parallel runs task(i) for i in [0, n) on up to GOMAXPROCS goroutines and
// returns the first error.
func parallel(n int, task func(i int) error) error {
	var (
		mu    sync.Mutex
		first error
		next  int
		wg    sync.WaitGroup
	)
	for w := 0; w < min(n, runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				if err := task(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return first
}
