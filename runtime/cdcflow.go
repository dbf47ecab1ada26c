package runtime

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/storage"
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
const DefaultTombstoneTTL = delta.DefaultDeletedFileRetention

// AutoCDC is an AUTO CDC flow as generated code declares it (Databricks
// AUTO CDC, formerly APPLY CHANGES INTO): Source is the change feed, read
// as a stream; each row is one change, applied to Target by key in
// sequence order as SCD type 1 or 2. See cdcmerge.go for the semantics and
// cdcstore.go for the storage.
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
	spec    *cdcSpec
	changes []cdcChange
	trunc   []byte
	counts  []sinkCounts
}

// spec returns the non-generic description of the flow.
func (a *AutoCDC[S, T]) spec(ctx *FlowContext) (*cdcSpec, error) {
	schema := a.Target.Codec.Schema
	s := &cdcSpec{flow: ctx.flow.Name, target: a.Target.Name, schema: schema, seqType: a.SequenceType, sequenceBy: a.SequenceBy,
		scd2: a.SCDType == 2, ignoreNulls: a.IgnoreNullUpdates, tombstoneTTL: DefaultTombstoneTTL}
	s.data = schema
	if s.scd2 {
		n := len(schema)
		if n < 2 || schema[n-2].Name != "__START_AT" || schema[n-1].Name != "__END_AT" {
			return nil, fmt.Errorf("SCD type 2 target %s must end with __START_AT and __END_AT", s.target)
		}
		s.data = schema[:n-2]
	}
	for _, k := range a.Keys {
		i := s.data.Index(k)
		if i < 0 {
			return nil, fmt.Errorf("key column %s is not a column of %s", k, s.target)
		}
		s.keys = append(s.keys, i)
	}
	s.tracked = make([]bool, len(s.data))
	for i := range s.tracked {
		s.tracked[i] = a.TrackHistory == nil
	}
	for _, c := range a.TrackHistory {
		i := s.data.Index(c)
		if i < 0 {
			return nil, fmt.Errorf("history column %s is not a column of %s", c, s.target)
		}
		s.tracked[i] = true
	}
	for _, f := range s.data {
		if strings.HasPrefix(f.Name, "__cdc_") {
			return nil, fmt.Errorf("column %s of %s: names starting with __cdc_ are reserved for AUTO CDC's state; rename the column", f.Name, s.target)
		}
	}
	if v, ok := ctx.target.desc.properties[TombstoneTTLProperty]; ok {
		secs, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || secs < 0 {
			return nil, fmt.Errorf("table %s: property %s = %q is not a number of seconds", s.target, TombstoneTTLProperty, v)
		}
		s.tombstoneTTL = time.Duration(secs) * time.Second
	}
	var err error
	if s.parts, err = newCDCParts(schema, a.Target.PartitionBy, s.keys); err != nil {
		return nil, fmt.Errorf("table %s: %w", s.target, err)
	}
	return s, nil
}

// cdcWorker is one scan worker's share of a micro-batch.
type cdcWorker struct {
	dec     *parquetio.Decoder
	row     parquet.Row
	at      string // the file being read
	n       int64  // rows read from it so far
	changes []cdcChange
	trunc   []byte
	counts  sinkCounts
	// parts interns the partition values of the changes' keys (a target
	// partitioned by key columns), by partition folder.
	parts map[string]delta.PartitionValues
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
			st = &cdcWorker{dec: parquetio.NewDecoder(spec.schema), counts: sinkCounts{
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
				if enc := appendOrdered(nil, seq, spec.seqType); bytes.Compare(enc, st.trunc) > 0 {
					st.trunc = enc
				}
				continue
			}
			st.row = a.Target.Codec.Shred(&out, st.row[:0])
			vals, err := st.dec.Decode(st.row)
			if err != nil {
				return err
			}
			data := vals[:len(spec.data)]
			for _, k := range spec.keys {
				if data[k] == nil {
					return a.nullError(ctx, st, "key column", spec.data[k].Name, &rows[i])
				}
			}
			var row []any
			if kind == Upsert {
				drop, err := a.Target.check(&out, ctx.Params(), &st.counts)
				if err != nil {
					return err
				}
				if drop {
					continue
				}
				row = data
			}
			st.counts.written++
			c := cdcChange{key: appendTuple(nil, data, spec.data, spec.keys), rec: spec.newRecord(seq, row, now)}
			if p := spec.parts; p != nil && p.keyed {
				if c.group, c.pv, err = st.partition(p, data); err != nil {
					return fmt.Errorf("table %s: %w", spec.target, err)
				}
			}
			st.changes = append(st.changes, c)
		}
		return nil
	})
	if err != nil {
		return err
	}
	b := &cdcBatch{spec: spec}
	for _, st := range workers {
		b.changes = append(b.changes, st.changes...)
		if bytes.Compare(st.trunc, b.trunc) > 0 {
			b.trunc = st.trunc
		}
		b.counts = append(b.counts, st.counts)
	}
	ctx.cdc = b
	return nil
}

// partition returns the partition folder and values of a change's key
// columns (data), interned per worker.
func (st *cdcWorker) partition(p *cdcParts, data []any) (string, delta.PartitionValues, error) {
	pv, err := p.values(data)
	if err != nil {
		return "", nil, err
	}
	dir := p.path(pv)
	if old, ok := st.parts[dir]; ok {
		return dir, old, nil
	}
	if st.parts == nil {
		st.parts = map[string]delta.PartitionValues{}
	}
	st.parts[dir] = pv
	return dir, pv, nil
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
// committed with the flow's txn (see cdcStore.apply).
func (u *update) runChangeBatch(f *Flow, h *tableHandle, cp *checkpoint.Stream, off *checkpoint.Offsets, res *flowResult) error {
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
	st := &cdcStore{spec: b.spec, h: h, stateDir: filepath.Join(u.checkpointDir(f), "cdc_state"), prefix: ctx.filePrefix, now: time.Now()}
	keys := make([]string, len(b.spec.keys))
	for i, k := range b.spec.keys {
		keys[i] = b.spec.data[k].Name
	}
	out, err := st.apply(b.changes, b.trunc, flowTxn(f, cp, off), map[string]any{
		"predicate": "AUTO CDC KEYS (" + strings.Join(keys, ", ") + ")", "flow": f.Name, "queryId": cp.Meta.ID, "epochId": off.Batch,
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
	res.add(ctx, b.counts, expectationNames(f.Target), h.name)
	res.outputRows += out.upserted + out.deleted
	res.upserted += out.upserted
	res.deleted += out.deleted
	return nil
}
