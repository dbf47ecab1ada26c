package runtime

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/parquet-go/parquet-go"

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
// insert-mostly feed rewrites little; a leaf over cdcMaxLeafKeys keys is
// split.
//
// Each leaf has a state file beside it in the flow's checkpoint folder
// (cdc_state/, named by the pipegen.cdc.state tag): the records of its
// keys (see cdcmerge.go), tombstones included. State files are written
// before the commit that names them, so the table's log says at every
// version which state goes with which rows; a crash before the commit
// leaves only unreferenced files, removed by the next batch.

// Tags of a leaf's add action.
const (
	tagLo        = "pipegen.cdc.lo"
	tagHi        = "pipegen.cdc.hi"
	tagKeys      = "pipegen.cdc.keys"
	tagState     = "pipegen.cdc.state"
	tagTruncated = "pipegen.cdc.truncated"
	tagSpec      = "pipegen.cdc.spec"
	// tagRules holds the flow's CDCRules (JSON), tagFlow its name.
	tagRules = "pipegen.cdc.rules"
	tagFlow  = "pipegen.cdc.flow"
)

// Leaf sizes, in keys: a leaf is split into leaves of about cdcLeafKeys
// keys when it exceeds twice that; new keys above a leaf of at least a
// quarter of it start a new leaf.
var cdcLeafKeys = 32768

// cdcLeaf is one leaf: its key range's lower bound, greatest key, key
// count, state file and live data files (one, or in a partitioned target
// one per partition its rows fall in; see cdcpartition.go). group names
// the partition whose index the leaf belongs to in a target partitioned by
// key columns ("" otherwise) and pv its partition values.
type cdcLeaf struct {
	lo, hi []byte
	keys   int64
	state  string
	adds   []*delta.Add
	group  string
	pv     delta.PartitionValues
	// spec is the signature of the flow that wrote it (cdcSpec.signature),
	// rules its CDCRules and flow its name ("" in files written before
	// pipegen recorded them).
	spec, rules, flow string
}

// cdcStore applies micro-batches of changes to one AUTO CDC target.
type cdcStore struct {
	spec     *cdcSpec
	h        *tableHandle
	stateDir string
	// prefix makes the names of the files one batch attempt writes unique.
	prefix string
	now    time.Time
}

// cdcOutcome is what applying a batch did.
type cdcOutcome struct {
	// upserted counts rows inserted or updated in the target (CDF
	// insert and update_postimage rows); deleted the rows removed.
	upserted, deleted int64
	// removedFiles and removedBytes are the data files the batch rewrote;
	// addedFiles and addedBytes those it wrote (state and change files
	// not included, see stateBytes and changeBytes).
	removedFiles, addedFiles  int
	removedBytes, addedBytes  int64
	stateBytes, changeBytes   int64
	leavesBefore, leavesAfter int
}

// cdcJob is the rewrite of one leaf (or the creation of one).
type cdcJob struct {
	leaf *cdcLeaf // nil: a new leaf starting at lo
	lo   []byte
	keys [][]byte
	// pv are the partition values of an empty leaf's file (nil for an
	// unpartitioned target); keepEmpty keeps the leaf when it has no keys
	// left (the first leaf of an index that must not vanish).
	pv        delta.PartitionValues
	keepEmpty bool
}

// cdcJobResult is what a job wrote.
type cdcJobResult struct {
	adds    []delta.Add
	states  []string
	change  []delta.CDC
	changes []cdfRow
	bytes   int64
	state   int64
	leaves  int
}

// stateSchema returns the columns of a state file.
func (s *cdcSpec) stateSchema() types.Schema {
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

// loadLeaves returns the leaves of the snapshot sorted by lo and the
// truncate watermark in force. A live file without pipegen's tags means
// another writer changed the table: the flow cannot continue without a
// full refresh.
func (st *cdcStore) loadLeaves(snap *delta.Snapshot) ([]*cdcLeaf, []byte, error) {
	var leaves []*cdcLeaf
	var trunc []byte
	byState := map[string]*cdcLeaf{}
	keyed := st.spec.parts != nil && st.spec.parts.keyed
	for i := range snap.Files {
		a := &snap.Files[i]
		name, ok := a.Tags[tagState]
		lo, err1 := hex.DecodeString(a.Tags[tagLo])
		hi, err2 := hex.DecodeString(a.Tags[tagHi])
		keys, err3 := strconv.ParseInt(a.Tags[tagKeys], 10, 64)
		if !ok || err1 != nil || err2 != nil || err3 != nil {
			return nil, nil, fmt.Errorf("table %s: data file %s was not written by AUTO CDC flow %s (the table was changed by another writer); "+
				"run a full refresh of %s: --full-refresh %s", st.h.name, a.Path, st.spec.flow, st.h.name, st.h.name)
		}
		if t, ok := a.Tags[tagTruncated]; ok {
			b, err := hex.DecodeString(t)
			if err == nil && bytes.Compare(b, trunc) > 0 {
				trunc = b
			}
		}
		if l := byState[name]; l != nil {
			// One more partition of a leaf's rows.
			if !bytes.Equal(l.lo, lo) || !bytes.Equal(l.hi, hi) {
				return nil, nil, fmt.Errorf("table %s: data files %s and %s of AUTO CDC flow %s share state %s but not a key range; run a full refresh: --full-refresh %s",
					st.h.name, l.adds[0].Path, a.Path, st.spec.flow, name, st.h.name)
			}
			l.adds = append(l.adds, a)
			continue
		}
		l := &cdcLeaf{lo: lo, hi: hi, keys: keys, state: name, adds: []*delta.Add{a}, pv: a.PartitionValues,
			spec: a.Tags[tagSpec], rules: a.Tags[tagRules], flow: a.Tags[tagFlow]}
		if keyed {
			l.group = st.spec.parts.path(a.PartitionValues)
		}
		byState[name] = l
		leaves = append(leaves, l)
	}
	slices.SortFunc(leaves, func(a, b *cdcLeaf) int {
		if c := cmp.Compare(a.group, b.group); c != 0 {
			return c
		}
		return bytes.Compare(a.lo, b.lo)
	})
	for i, l := range leaves {
		first := i == 0 || leaves[i-1].group != l.group
		// In keyed mode a partition's first leaf may have been emptied and
		// dropped: its successor's range then stretches down (plan).
		if (first && len(l.lo) != 0 && !keyed) || (!first && bytes.Equal(l.lo, leaves[i-1].lo)) {
			return nil, nil, fmt.Errorf("table %s: the key ranges of AUTO CDC flow %s's data files do not cover the keys once; run a full refresh: --full-refresh %s",
				st.h.name, st.spec.flow, st.h.name)
		}
	}
	return leaves, trunc, nil
}

// apply merges a micro-batch of changes (key, record) and a truncate
// watermark (nil: no truncate in the batch) into the table and commits the
// result with txn in one Delta commit.
func (st *cdcStore) apply(changes []cdcChange, trunc []byte, txn *txnAction, params map[string]any) (cdcOutcome, error) {
	var out cdcOutcome
	snap, err := st.h.snapshot()
	if err != nil {
		return out, err
	}
	if snap == nil {
		return out, fmt.Errorf("table %s does not exist at %s", st.h.name, st.h.path)
	}
	leaves, truncAt, err := st.loadLeaves(snap)
	if err != nil {
		return out, err
	}
	for _, l := range leaves {
		if sig := st.spec.signature(); l.spec != "" && l.spec != sig {
			return out, fmt.Errorf("table %s: AUTO CDC flow %s changed its keys, sequence or SCD type (was %s, now %s); its rows and state follow the old ones: run a full refresh: --full-refresh %s",
				st.h.name, st.spec.flow, l.spec, sig, st.h.name)
		}
		// A leaf's state is in the checkpoint of the flow that wrote it:
		// another flow (a new one, or the same renamed) has none for it.
		if l.flow != "" && l.flow != st.spec.flow {
			return out, fmt.Errorf("table %s: its rows were applied by AUTO CDC flow %s, not by flow %s: a new or renamed flow into an existing AUTO CDC target has no state for the rows already applied; nothing was written: run a full refresh: --full-refresh %s (or keep the flow's old name)",
				st.h.name, l.flow, st.spec.flow, st.h.name)
		}
		if err := st.checkLeafRules(l.rules); err != nil {
			return out, err
		}
	}
	out.leavesBefore = len(leaves)
	byKey := map[string][]cdcRecord{}
	groups := map[string]*cdcGroup{}
	group := func(name string, pv delta.PartitionValues) *cdcGroup {
		g := groups[name]
		if g == nil {
			g = &cdcGroup{pv: pv}
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
		if st.spec.parts == nil || !st.spec.parts.keyed {
			group("", nil) // the watermark needs a leaf (keyed: see carrier)
		}
	}
	var jobs []cdcJob
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		g := groups[name]
		slices.SortFunc(g.keys, bytes.Compare)
		jobs = append(jobs, st.plan(g, retruncate)...)
	}
	results := make([]cdcJobResult, len(jobs))
	if err := parallel(len(jobs), func(i int) error {
		r, err := st.run(i, jobs[i], byKey, truncAt, retruncate)
		results[i] = r
		return err
	}); err != nil {
		st.discard(results)
		return out, err
	}
	if j, ok := st.carrier(leaves, jobs, results, truncAt); ok {
		// Every leaf of a target partitioned by keys is gone, but the
		// truncate watermark must stay: an empty leaf keeps it.
		r, err := st.run(len(jobs), j, byKey, truncAt, false)
		jobs, results = append(jobs, j), append(results, r)
		if err != nil {
			st.discard(results)
			return out, err
		}
	}
	var removes, adds []delta.Add
	var cdcs []delta.CDC
	live := map[string]bool{}
	rewritten := map[*cdcLeaf]bool{}
	leavesAfter := 0
	for i, j := range jobs {
		if j.leaf != nil {
			for _, a := range j.leaf.adds {
				removes = append(removes, *a)
				out.removedFiles++
				out.removedBytes += a.Size
			}
			rewritten[j.leaf] = true
		}
		r := results[i]
		adds = append(adds, r.adds...)
		leavesAfter += r.leaves
		for _, s := range r.states {
			live[s] = true
		}
		for _, c := range r.change {
			cdcs = append(cdcs, c)
			out.changeBytes += c.Size
		}
		out.addedFiles += len(r.adds)
		out.addedBytes += r.bytes
		out.stateBytes += r.state
		for _, c := range r.changes {
			switch c.kind {
			case delta.ChangeInsert, delta.ChangeUpdatePostimage:
				out.upserted++
			case delta.ChangeDelete:
				out.deleted++
			}
		}
	}
	for _, l := range leaves {
		if !rewritten[l] {
			live[l.state] = true
			leavesAfter++
		}
	}
	out.leavesAfter = leavesAfter
	faultPoint("after-data-files")
	if err := st.h.commitMerge(removes, adds, cdcs, txn, params); err != nil {
		st.discard(results)
		return out, err
	}
	faultPoint("after-commit")
	st.collect(live)
	return out, nil
}

// cdcGroup is one key-range index of a target: all its leaves, or in a
// target partitioned by key columns those of one partition; with the
// changed keys that fall in it.
type cdcGroup struct {
	pv     delta.PartitionValues
	leaves []*cdcLeaf // sorted by lo
	keys   [][]byte   // sorted
}

// plan chooses the leaves of a group to rewrite or create for its keys.
func (st *cdcStore) plan(g *cdcGroup, retruncate bool) []cdcJob {
	keyed := st.spec.parts != nil && st.spec.parts.keyed
	pv := g.pv
	if st.spec.parts != nil && !keyed {
		pv = st.spec.parts.null
	}
	leaves, keys := g.leaves, g.keys
	if len(leaves) == 0 {
		if len(keys) == 0 && !retruncate {
			return nil
		}
		return []cdcJob{{lo: nil, keys: keys, pv: pv, keepEmpty: !keyed}}
	}
	byLeaf := make([][][]byte, len(leaves))
	for _, k := range keys {
		i := sort.Search(len(leaves), func(i int) bool { return bytes.Compare(leaves[i].lo, k) > 0 }) - 1
		byLeaf[max(i, 0)] = append(byLeaf[max(i, 0)], k)
	}
	var jobs []cdcJob
	for i, l := range leaves {
		ks := byLeaf[i]
		lo := l.lo
		if i == 0 {
			lo = nil // the first leaf's range is open below
		}
		switch {
		case len(ks) == 0 && !retruncate:
		case !retruncate && l.keys >= int64(cdcLeafKeys/4) && bytes.Compare(ks[0], l.hi) > 0:
			// Only new keys above a well-filled leaf: start a leaf.
			jobs = append(jobs, cdcJob{lo: ks[0], keys: ks, pv: pv})
		default:
			jobs = append(jobs, cdcJob{leaf: l, lo: lo, keys: ks, pv: pv, keepEmpty: i == 0 && !keyed})
		}
	}
	return jobs
}

// carrier returns the job of an empty leaf when a batch leaves a target
// partitioned by key columns without leaves while a truncate watermark is
// in force (the watermark is kept in the leaves' tags).
func (st *cdcStore) carrier(leaves []*cdcLeaf, jobs []cdcJob, results []cdcJobResult, truncAt []byte) (cdcJob, bool) {
	if truncAt == nil || st.spec.parts == nil || !st.spec.parts.keyed {
		return cdcJob{}, false
	}
	n := len(leaves)
	for i, j := range jobs {
		if j.leaf != nil {
			n--
		}
		n += results[i].leaves
	}
	return cdcJob{pv: st.spec.parts.null, keepEmpty: true}, n == 0
}

// run merges one job's keys into its leaf and writes the resulting leaves
// (several when it grew past the split size, none when a leaf other than
// the first is left empty) and the job's change data file.
func (st *cdcStore) run(n int, j cdcJob, byKey map[string][]cdcRecord, truncAt []byte, retruncate bool) (cdcJobResult, error) {
	var r cdcJobResult
	var entries []cdcEntry
	if j.leaf != nil && j.leaf.state != "" {
		var err error
		if entries, err = st.readState(j.leaf.state); err != nil {
			return r, err
		}
	}
	m := st.spec.mergeLeaf(entries, j.keys, byKey, truncAt, retruncate, st.now.UnixMilli())
	r.changes = m.changes
	chunks := splitEntries(m.entries, cdcLeafKeys)
	if len(chunks) == 0 && j.keepEmpty {
		chunks = [][]cdcEntry{nil} // the first leaf stays, even empty
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
		if fi, err := storage.StatFile(filepath.Join(st.stateDir, state)); err == nil {
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
func splitEntries(entries []cdcEntry, size int) [][]cdcEntry {
	if len(entries) == 0 {
		return nil
	}
	if len(entries) <= 2*size {
		return [][]cdcEntry{entries}
	}
	n := (len(entries) + size - 1) / size
	var out [][]cdcEntry
	for i := 0; i < n; i++ {
		out = append(out, entries[i*len(entries)/n:(i+1)*len(entries)/n])
	}
	return out
}

// writeLeaf writes a leaf's state file and data files (one, or one per
// partition of its rows; pv are the partition values of an empty leaf's
// file) and returns the data files' add actions, tagged with the leaf's
// range and state. The adds returned were written even with an error.
func (st *cdcStore) writeLeaf(job, chunk int, lo []byte, entries []cdcEntry, truncAt []byte, pv delta.PartitionValues) ([]delta.Add, string, error) {
	state, err := st.writeState(job, chunk, entries)
	if err != nil {
		return nil, state, err
	}
	var rows [][]any
	for _, e := range entries {
		rows = append(rows, e.rows...)
	}
	parts := []*cdcPartRows{{pv: pv, rows: rows}}
	schema := st.spec.schema
	if p := st.spec.parts; p != nil {
		if parts, err = p.split(rows, nil); err != nil {
			return nil, state, fmt.Errorf("table %s: %w", st.h.name, err)
		}
		if len(parts) == 0 {
			parts = []*cdcPartRows{{pv: pv, dir: p.path(pv)}}
		}
		schema = p.data
	}
	var adds []delta.Add
	for _, part := range parts {
		df, err := writeRows(filepath.Join(st.h.path, part.dir), st.prefix, job, chunk, schema, part.rows)
		if err != nil {
			return adds, state, err
		}
		rel := df.rel
		if part.dir != "" {
			rel = part.dir + "/" + rel
		}
		add := delta.NewAdd(rel, part.pv, parquetio.FileInfo{Size: df.size, NumRecords: df.rows, Stats: df.stats}, st.now)
		add.Tags = st.leafTags(lo, entries, state, truncAt)
		adds = append(adds, add)
	}
	return adds, state, nil
}

// leafTags returns the tags of a leaf's data files.
func (st *cdcStore) leafTags(lo []byte, entries []cdcEntry, state string, truncAt []byte) map[string]string {
	tags := map[string]string{
		tagLo:    hex.EncodeToString(lo),
		tagHi:    "",
		tagKeys:  strconv.Itoa(len(entries)),
		tagState: state,
		tagSpec:  st.spec.signature(),
		tagRules: st.spec.rules().encode(),
		tagFlow:  st.spec.flow,
	}
	if len(entries) > 0 {
		tags[tagHi] = hex.EncodeToString(entries[len(entries)-1].key)
	}
	if truncAt != nil {
		tags[tagTruncated] = hex.EncodeToString(truncAt)
	}
	return tags
}

// writeRows writes rows of generic values in the canonical layout of
// schema into a new data file under dir.
func writeRows(dir, prefix string, worker, seq int, schema types.Schema, rows [][]any) (dataFile, error) {
	f, err := newDataFile(dir, prefix, worker, seq, schema)
	if err != nil {
		return dataFile{}, err
	}
	enc := parquetio.NewEncoder(schema)
	var vals parquet.Row
	ends := make([]int, 0, shredBatch)
	batch := make([]parquet.Row, 0, shredBatch)
	for i, r := range rows {
		var err error
		if vals, err = enc.Append(vals, r); err != nil {
			f.discard()
			return dataFile{}, fmt.Errorf("write %s: row %d: %w", f.path, i, err)
		}
		ends = append(ends, len(vals))
		if len(ends) < shredBatch && i < len(rows)-1 {
			continue
		}
		start := 0
		for _, end := range ends {
			batch = append(batch, vals[start:end:end])
			start = end
		}
		if err := f.write(batch); err != nil {
			f.discard()
			return dataFile{}, err
		}
		vals, ends, batch = vals[:0], ends[:0], batch[:0]
	}
	return f.finish()
}

// writeState writes the state file of a leaf and returns its name.
func (st *cdcStore) writeState(job, chunk int, entries []cdcEntry) (string, error) {
	var rows [][]any
	for _, e := range entries {
		for _, r := range e.recs {
			row := make([]any, stateColumns, stateColumns+len(st.spec.data))
			row[0], row[1], row[2], row[3] = e.key, r.del, types.Timestamp(r.at*1000), r.seq
			if r.row != nil {
				row = append(row, r.row...)
			} else {
				row = row[:stateColumns+len(st.spec.data)]
			}
			rows = append(rows, row)
		}
	}
	df, err := writeRows(st.stateDir, st.prefix, job, chunk, st.spec.stateSchema(), rows)
	if err != nil {
		return "", err
	}
	return df.rel, nil
}

// readState reads a leaf's state file into entries sorted by key.
func (st *cdcStore) readState(name string) ([]cdcEntry, error) {
	path := filepath.Join(st.stateDir, name)
	fh, err := storage.OpenFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("table %s: the AUTO CDC state file %s of flow %s is missing: most likely the flow is new or renamed and writes into an existing target "+
			"(the state of the rows already applied is in the old flow's checkpoint), or the pipeline's storage was removed; nothing was written: run a full refresh: --full-refresh %s",
			st.h.name, path, st.spec.flow, st.h.name)
	}
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	schema := st.spec.stateSchema()
	damaged := func(err error) error {
		return fmt.Errorf("the AUTO CDC state of flow %s is damaged (%w); it cannot be rebuilt from table %s: nothing was written: run a full refresh: --full-refresh %s",
			st.spec.flow, err, st.h.name, st.h.name)
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
	var out []cdcEntry
	for _, row := range rows {
		key, _ := row[0].([]byte)
		del, _ := row[1].(bool)
		at, _ := row[2].(types.Timestamp)
		var data []any
		if !del {
			data = row[stateColumns:]
		}
		rec := st.spec.newRecord(row[3], data, int64(at)/1000)
		if n := len(out); n > 0 && bytes.Equal(out[n-1].key, key) {
			out[n-1].recs = append(out[n-1].recs, rec)
			continue
		}
		out = append(out, cdcEntry{key: key, recs: []cdcRecord{rec}})
	}
	for i := range out {
		out[i].rows = st.spec.rows(out[i].recs)
	}
	return out, nil
}

// writeChanges writes a job's change data feed rows to a file of
// `_change_data/` (one per partition of a partitioned target, in the
// partition's folder below it, as Spark writes them): the target's columns
// but the partition columns, and _change_type.
func (st *cdcStore) writeChanges(job int, changes []cdfRow) ([]delta.CDC, error) {
	schema := st.spec.schema
	rows := make([][]any, len(changes))
	kinds := make([]any, len(changes))
	for i, c := range changes {
		rows[i], kinds[i] = c.row, c.kind
	}
	parts := []*cdcPartRows{{pv: delta.PartitionValues{}, rows: rows, extra: kinds}}
	if p := st.spec.parts; p != nil {
		var err error
		if parts, err = p.split(rows, kinds); err != nil {
			return nil, fmt.Errorf("table %s: %w", st.h.name, err)
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
		df, err := writeRows(filepath.Join(st.h.path, filepath.FromSlash(dir)), "cdc-"+st.prefix, job, 0, schema, part.rows)
		if err != nil {
			return out, err
		}
		out = append(out, delta.CDC{Path: delta.EncodePath(dir + "/" + df.rel), PartitionValues: part.pv, Size: df.size})
	}
	return out, nil
}

// discard removes the files of a batch that will not be committed.
func (st *cdcStore) discard(results []cdcJobResult) {
	for _, r := range results {
		for _, a := range r.adds {
			storage.Remove(delta.FilePath(st.h.path, a.Path))
		}
		for _, s := range r.states {
			storage.Remove(filepath.Join(st.stateDir, s))
		}
		for _, c := range r.change {
			storage.Remove(delta.FilePath(st.h.path, c.Path))
		}
	}
}

// collect removes the state files the table no longer refers to: those of
// rewritten leaves and of batch attempts that never committed.
func (st *cdcStore) collect(live map[string]bool) {
	store := storage.At(st.stateDir)
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

// commitMerge commits a copy-on-write rewrite of some files with its
// change data files and the flow's txn. It fails when the files it removes
// are no longer live.
func (h *tableHandle) commitMerge(removes, adds []delta.Add, changes []delta.CDC, txn *txnAction, params map[string]any) error {
	opts := delta.WriteOptions{Operation: "MERGE", OperationParameters: params, Changes: changes}
	return h.commitExisting(opts, txn, true, func(s *delta.Snapshot, opts delta.WriteOptions) error {
		_, err := delta.ReplaceFiles(h.path, s, removes, adds, opts)
		return err
	})
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
