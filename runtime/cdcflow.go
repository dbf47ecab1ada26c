package runtime

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/cdc"
	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/table"
	"github.com/pipegen/pipegen/runtime/types"
)

// ChangeKind says what one row of an AUTO CDC change feed does to the
// target.
type ChangeKind uint8

// Change kinds (Databricks AUTO CDC).
const (
	// Upsert inserts the row, or replaces the key's row (SCD1) or opens or
	// updates its current version (SCD2).
	Upsert ChangeKind = iota
	// Delete removes the key's row (SCD1) or closes its current version
	// (SCD2): the row matched apply_as_deletes.
	Delete
	// Truncate removes every row sequenced at or before it (SCD1 only): the
	// row matched apply_as_truncates.
	Truncate
)

// TombstoneTTLProperty is the table property that sets how long, in
// seconds, an SCD type 1 AUTO CDC target remembers a deleted key so that a
// late upsert with a lower sequence cannot bring it back (Databricks'
// property of the same name). DefaultTombstoneTTL applies without it.
const TombstoneTTLProperty = "pipelines.cdc.tombstoneGCThresholdInSeconds"

// DefaultTombstoneTTL is pipegen's tombstone retention: 7 days, Delta's
// default retention of removed files (delta.deletedFileRetentionDuration).
// A tombstone is dropped when its leaf is next rewritten after that.
const DefaultTombstoneTTL = cdc.DefaultTombstoneTTL

// AutoCDC is an AUTO CDC flow as generated code declares it (Databricks
// AUTO CDC, formerly APPLY CHANGES INTO): Source is the change feed, read
// as a stream; each row is one change, applied to Target by key in
// sequence order as SCD type 1 or 2. See runtime/cdc: merge.go for the
// semantics and store.go for the storage.
type AutoCDC[S, T any] struct {
	Source Readable[S]
	Target *Table[T]
	// Keys name the key columns of Target.
	Keys []string
	// SequenceBy names the source's sequence_by columns (for messages);
	// SequenceType is the sequence value's type: the column's, or a STRUCT
	// of the columns' for several.
	SequenceBy   []string
	SequenceType types.Type
	// SCDType is 1 or 2; an SCD type 2 Target ends with __START_AT and
	// __END_AT of SequenceType.
	SCDType           int
	IgnoreNullUpdates bool
	// TrackHistory (SCD2) names the columns whose change opens a new
	// version; nil means every column.
	TrackHistory []string
	// Change reads one change row s: it fills out's written columns and
	// returns the change's kind and sequence value (a generic value, see
	// SequenceValue and SequenceStruct; nil for NULL).
	Change func(w *Worker, s *S, out *T) (ChangeKind, any, error)
}

// SequenceValue returns a nullable column's value as a sequence value: nil
// for NULL, else its Go value.
func SequenceValue[V any](v types.Null[V]) any {
	if !v.Valid {
		return nil
	}
	return v.V
}

// SequenceStruct returns the sequence value of several sequence_by
// columns (a STRUCT compared field by field).
func SequenceStruct(values ...any) any { return parquetio.Struct(values) }

// cdcBatch is what a CDC flow's run collected from its micro-batch.
type cdcBatch struct {
	spec   *cdc.Spec
	batch  *cdc.Batch
	counts []sinkCounts
}

// spec returns the non-generic description of the flow.
func (a *AutoCDC[S, T]) spec(ctx *FlowContext) (*cdc.Spec, error) {
	ttl := DefaultTombstoneTTL
	if v, ok := ctx.target.Desc.Properties[TombstoneTTLProperty]; ok {
		secs, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || secs < 0 {
			return nil, fmt.Errorf("table %s: property %s = %q is not a number of seconds", a.Target.Name, TombstoneTTLProperty, v)
		}
		ttl = time.Duration(secs) * time.Second
	}
	return cdc.NewSpec(cdc.Config{Flow: ctx.flow.Name, Target: a.Target.Name, Schema: a.Target.Codec.Schema, Keys: a.Keys,
		SequenceBy: a.SequenceBy, SequenceType: a.SequenceType, SCD2: a.SCDType == 2, IgnoreNullUpdates: a.IgnoreNullUpdates,
		TrackHistory: a.TrackHistory, TombstoneTTL: ttl, PartitionBy: a.Target.PartitionBy})
}

// cdcWorker is one scan worker's share of a micro-batch.
type cdcWorker struct {
	dec    *parquetio.Decoder
	row    parquet.Row
	at     string // the file being read
	n      int64  // rows read from it so far
	batch  *cdc.Batch
	counts sinkCounts
}

// ApplyChanges runs an AUTO CDC flow's micro-batch: it reads the change
// rows of the batch, checks them (a NULL key or sequence fails the batch,
// naming the flow, the column, the input file and record; the target's
// expectations apply to upserts) and hands them to the runtime, which
// merges them into the target and commits the result with the flow's
// progress in one Delta commit. Nothing is written when it returns an
// error.
func ApplyChanges[S, T any](ctx *FlowContext, a *AutoCDC[S, T]) error {
	spec, err := a.spec(ctx)
	if err != nil {
		return err
	}
	now := time.Now().UnixMilli()
	var mu sync.Mutex
	workers := map[*Worker]*cdcWorker{}
	state := func(w *Worker) *cdcWorker {
		mu.Lock()
		defer mu.Unlock()
		st := workers[w]
		if st == nil {
			st = &cdcWorker{dec: parquetio.NewDecoder(a.Target.Codec.Schema), batch: spec.NewBatch(), counts: sinkCounts{
				passed: make([]int64, len(a.Target.Expectations)), failed: make([]int64, len(a.Target.Expectations))}}
			workers[w] = st
		}
		return st
	}
	err = Scan(ctx, a.Source, ScanOptions{Streaming: true, Concurrent: true}, func(w *Worker, rows []S) error {
		st := state(w)
		for i := range rows {
			if w.at != st.at {
				st.at, st.n = w.at, 0
			}
			st.n++
			var out T
			kind, seq, err := a.Change(w, &rows[i], &out)
			if err != nil {
				return err
			}
			if col := nullSequence(seq, a.SequenceBy); col != "" {
				return a.nullError(ctx, st, "sequence_by column", col, &rows[i])
			}
			if kind == Truncate {
				st.batch.Truncate(seq)
				continue
			}
			st.row = a.Target.Codec.Shred(&out, st.row[:0])
			vals, err := st.dec.Decode(st.row)
			if err != nil {
				return err
			}
			if col := spec.NullKey(vals); col != "" {
				return a.nullError(ctx, st, "key column", col, &rows[i])
			}
			if kind != Upsert {
				st.counts.written++
				if err := st.batch.Delete(seq, vals, now); err != nil {
					return err
				}
				continue
			}
			drop, err := a.Target.check(&out, ctx.Params(), &st.counts)
			if err != nil {
				return err
			}
			if drop {
				continue
			}
			st.counts.written++
			if err := st.batch.Upsert(seq, vals, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	b := &cdcBatch{spec: spec, batch: spec.NewBatch()}
	for _, st := range workers {
		b.batch.Append(st.batch)
		b.counts = append(b.counts, st.counts)
	}
	ctx.cdc = b
	return nil
}

// nullSequence returns the name of the sequence_by column that is NULL in
// seq, or "".
func nullSequence(seq any, names []string) string {
	if seq == nil {
		if len(names) > 0 {
			return names[0]
		}
		return "sequence_by"
	}
	if s, ok := seq.(parquetio.Struct); ok {
		for i, v := range s {
			if v == nil && i < len(names) {
				return names[i]
			}
		}
	}
	return ""
}

// nullError is the error of a change whose key or sequence is NULL: it
// names the flow, the column, the input file and the record (with its line
// for JSON-lines sources).
func (a *AutoCDC[S, T]) nullError(ctx *FlowContext, st *cdcWorker, what, col string, row *S) error {
	where := fmt.Sprintf("record %d of %s", st.n, st.at)
	if fs, ok := a.Source.(*FileSource[S]); ok && fs.Format == source.JSON {
		if line := jsonRecordLine(st.at, st.n); line > 0 {
			where = fmt.Sprintf("%s:%d (record %d)", st.at, line, st.n)
		}
	}
	return fmt.Errorf("%s %q is NULL in %s; AUTO CDC needs a key and a sequence value in every change: fix the row or filter it out upstream (nothing of this micro-batch was committed)\n  row: %s", what, col, where, formatRow(row))
}

// jsonRecordLine returns the 1-based line of the n-th record of a
// JSON-lines file (blank lines hold no record), or 0.
func jsonRecordLine(path string, n int64) int {
	f, err := storage.OpenFile(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<30)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.Trim(sc.Bytes(), " \t\r")
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		if len(b) == 0 {
			continue
		}
		if n--; n == 0 {
			return line
		}
	}
	return 0
}

// check applies t's expectations to r, counting passes and failures in c:
// drop reports a row that a `drop` expectation removes; a violated `fail`
// expectation returns an *ExpectationError. Only TRUE passes.
func (t *Table[T]) check(r *T, p *Params, c *sinkCounts) (drop bool, err error) {
	for i := range t.Expectations {
		e := &t.Expectations[i]
		res, err := e.Check(r, p)
		if err != nil {
			return false, fmt.Errorf("expectation %q on dataset %s: %w\n  row: %s", e.Name, t.Name, err, formatRow(r))
		}
		if res.Valid && res.V {
			c.passed[i]++
			continue
		}
		c.failed[i]++
		switch e.Action {
		case Drop:
			drop = true
		case Fail:
			return false, &ExpectationError{Dataset: t.Name, Name: e.Name, Text: e.Text, Row: formatRow(r)}
		}
	}
	if drop {
		c.dropped++
	}
	return drop, nil
}

// runChangeBatch runs one micro-batch of an AUTO CDC flow: the flow's
// function collects the changes, then they are merged into the target and
// committed with the flow's txn (see cdc.Store.Merge and applyCDC).
func (u *update) runChangeBatch(f *Flow, h *table.Handle, cp *checkpoint.Stream, off *checkpoint.Offsets, res *flowResult) error {
	plan, err := u.resolveBatch(f, cp, off)
	if err != nil {
		return notAppendReader(err, f, h)
	}
	ctx := u.newContext(f, h, plan)
	err = f.Run(ctx)
	if _, _, err = ctx.finish(err); err != nil {
		return err
	}
	b := ctx.cdc
	if b == nil {
		return errors.New("the flow's function did not call ApplyChanges")
	}
	st := newCDCStore(b.spec, h, storage.Join(u.checkpointDir(f), "cdc_state"), ctx.filePrefix)
	out, err := applyCDC(st, h, b.batch, flowTxn(f, cp, off), map[string]any{
		"predicate": "AUTO CDC KEYS (" + strings.Join(b.spec.KeyNames(), ", ") + ")", "flow": f.Name, "queryId": cp.Meta.ID, "epochId": off.Batch,
	})
	if err != nil {
		return err
	}
	if err := cp.Commit(off); err != nil {
		return fmt.Errorf("checkpoint of flow %s: %w", f.Name, err)
	}
	for i := range b.counts {
		b.counts[i].written = 0 // the target's row changes are counted below
	}
	res.add(ctx, b.counts, expectationNames(f.Target), h.Name)
	res.outputRows += out.Upserted + out.Deleted
	res.upserted += out.Upserted
	res.deleted += out.Deleted
	return nil
}

// cdcLeafKeys is the leaf size of AUTO CDC targets (cdc.Store.LeafKeys);
// tests lower it to route keys across many leaves.
var cdcLeafKeys = cdc.DefaultLeafKeys

// newCDCStore returns the store of an AUTO CDC target, its state files in
// stateDir, the files of this batch attempt named with prefix.
func newCDCStore(spec *cdc.Spec, h *table.Handle, stateDir, prefix string) *cdc.Store {
	return &cdc.Store{Spec: spec, Table: h.Name, Path: h.Path, StateDir: stateDir, Prefix: prefix, Now: time.Now(),
		LeafKeys: cdcLeafKeys, WriteRows: writeRows}
}

// applyCDC merges a micro-batch of changes into the target of h and
// commits the result with txn in one Delta commit (a MERGE with the
// change data files); nothing stays written when it fails.
func applyCDC(st *cdc.Store, h *table.Handle, b *cdc.Batch, txn *table.Txn, params map[string]any) (*cdc.Merged, error) {
	snap, err := h.Snapshot()
	if err != nil {
		return nil, err
	}
	if snap == nil {
		return nil, fmt.Errorf("table %s does not exist at %s", h.Name, h.Path)
	}
	m, err := st.Merge(snap, b)
	if err != nil {
		return nil, err
	}
	faultPoint("after-data-files")
	if err := h.CommitMerge(m.Removes, m.Adds, m.Changes, txn, params); err != nil {
		m.Discard()
		return nil, err
	}
	faultPoint("after-commit")
	m.Collect()
	return m, nil
}

// writeRows writes rows of generic values in the canonical layout of
// schema into a new data file under dir (cdc.WriteRowsFunc).
func writeRows(dir, prefix string, worker, seq int, schema types.Schema, rows [][]any) (string, parquetio.FileInfo, error) {
	f, err := table.NewFileWriter(dir, prefix, worker, seq, schema)
	if err != nil {
		return "", parquetio.FileInfo{}, err
	}
	enc := parquetio.NewEncoder(schema)
	var vals parquet.Row
	ends := make([]int, 0, shredBatch)
	batch := make([]parquet.Row, 0, shredBatch)
	for i, r := range rows {
		var err error
		if vals, err = enc.Append(vals, r); err != nil {
			f.Discard()
			return "", parquetio.FileInfo{}, fmt.Errorf("write %s: row %d: %w", f.Path(), i, err)
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
		if err := f.Write(batch); err != nil {
			f.Discard()
			return "", parquetio.FileInfo{}, err
		}
		vals, ends, batch = vals[:0], ends[:0], batch[:0]
	}
	df, err := f.Finish()
	if err != nil {
		return "", parquetio.FileInfo{}, err
	}
	return df.Rel, parquetio.FileInfo{Size: df.Size, NumRecords: df.Rows, Stats: df.Stats}, nil
}
