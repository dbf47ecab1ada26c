package cdc

import (
	"bytes"
	"slices"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/types"
)

// The merge logic of AUTO CDC flows (Databricks AUTO CDC, formerly APPLY
// CHANGES; DESIGN.md section 5), independent of storage (store.go).
//
// Every key of the target has a state: the records of the changes that
// decide its rows. For SCD type 1 that is the winning change (the highest
// in change order; a delete is kept as a tombstone). For SCD type 2 it is
// every change of the key, one per sequence value, and the key's history
// rows are a function of that set (fold). So the table depends only on
// the set of changes received, not on how they were split into
// micro-batches or in which order they arrived: a late change is ignored
// (SCD1, being below the winner) or spliced into the history (SCD2, being
// one more member of the set).
//
// Change order. Changes compare by sequence value first. Changes of one key
// with equal sequence values are ordered deterministically: a delete sorts
// above an upsert, and upserts by their written values (as the encodings of
// AppendOrdered compare, column by column); of such changes only the
// highest counts, on every rerun and for every arrival order. A truncate
// (SCD1) at sequence t removes every key whose winning change has a
// sequence <= t, and later changes with a sequence <= t are ignored.

// record is one change as the merge keeps it.
type record struct {
	// order is the change order's sort key: the sequence value's encoding
	// (seqLen bytes), the kind, then the row's encoding.
	order  []byte
	seqLen int
	seq    any
	del    bool
	// at is when the change was applied, in ms since the epoch (tombstone
	// retention).
	at int64
	// row holds the data columns; nil for a delete.
	row []any
}

func (r *record) seqKey() []byte { return r.order[:r.seqLen] }

// newRecord builds the record of an upsert (row != nil) or delete.
func (s *Spec) newRecord(seq any, row []any, at int64) record {
	order := AppendOrdered(nil, seq, s.seqType)
	n := len(order)
	if row == nil {
		order = append(order, 1)
	} else {
		order = append(order, 0)
		for i, f := range s.data {
			order = AppendOrdered(order, row[i], f.Type)
		}
	}
	return record{order: order, seqLen: n, seq: seq, del: row == nil, at: at, row: row}
}

// entry is the state of one key: its records in change order, and the
// target rows they give (see rows).
type entry struct {
	key  []byte
	recs []record
	rows [][]any
}

// change is one change of a micro-batch (batch.go): its key's encoding
// and record. In a target partitioned by key columns, group names the
// key's partition (partitioning.path) and pv holds its values; both are
// empty otherwise.
type change struct {
	key   []byte
	rec   record
	group string
	pv    delta.PartitionValues
}

// feedRow is one row of the change data feed: the target row and its
// _change_type.
type feedRow struct {
	kind string
	row  []any
}

// sortRecords sorts records in change order and drops exact duplicates (a
// change delivered twice).
func sortRecords(recs []record) []record {
	slices.SortStableFunc(recs, func(a, b record) int { return bytes.Compare(a.order, b.order) })
	return slices.CompactFunc(recs, func(a, b record) bool { return bytes.Equal(a.order, b.order) })
}

// mergeKey returns the records of a key after applying changes (sorted,
// deduplicated) to old, with truncAt the sequence encoding at and below
// which changes are truncated (nil: none).
func (s *Spec) mergeKey(old, changes []record, truncAt []byte) []record {
	truncated := func(r *record) bool { return truncAt != nil && bytes.Compare(r.seqKey(), truncAt) <= 0 }
	if !s.scd2 {
		var cur *record
		if len(old) > 0 && !truncated(&old[0]) {
			cur = &old[0]
		}
		for i := range changes {
			c := changes[i]
			if truncated(&c) || (cur != nil && bytes.Compare(c.order, cur.order) <= 0) {
				continue
			}
			if !c.del && s.ignoreNulls && cur != nil && !cur.del {
				c.row = fillNulls(c.row, cur.row)
			}
			cur = &c
		}
		if cur == nil {
			return nil
		}
		return []record{*cur}
	}
	all := sortRecords(append(slices.Clone(old), changes...))
	// One change per sequence value: the highest in change order.
	out := all[:0]
	for i, r := range all {
		if i+1 < len(all) && bytes.Equal(all[i+1].seqKey(), r.seqKey()) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// fillNulls returns row with its NULL values taken from prev
// (ignore_null_updates).
func fillNulls(row, prev []any) []any {
	out := slices.Clone(row)
	for i := range out {
		if out[i] == nil && i < len(prev) {
			out[i] = prev[i]
		}
	}
	return out
}

// rows returns the target rows a key's records give: SCD1 the winning
// upsert's row; SCD2 the key's versions, each the data columns then
// __START_AT and __END_AT (NULL for the current version).
func (s *Spec) rows(recs []record) [][]any {
	if !s.scd2 {
		if len(recs) == 0 || recs[0].del {
			return nil
		}
		return [][]any{recs[0].row}
	}
	var out [][]any
	var cur []any // the open version's row: data, start, end
	for _, r := range recs {
		if r.del {
			if cur != nil {
				cur[len(s.data)+1] = r.seq
				out = append(out, cur)
				cur = nil
			}
			continue
		}
		row := r.row
		if cur != nil && s.ignoreNulls {
			row = fillNulls(row, cur[:len(s.data)])
		}
		if cur != nil && s.sameTracked(cur, row) {
			copy(cur, row) // untracked columns change in place
			continue
		}
		if cur != nil {
			cur[len(s.data)+1] = r.seq
			out = append(out, cur)
		}
		cur = make([]any, len(s.data)+2)
		copy(cur, row)
		cur[len(s.data)] = r.seq
	}
	if cur != nil {
		out = append(out, cur)
	}
	return out
}

// sameTracked reports whether two rows agree on every tracked column.
func (s *Spec) sameTracked(a, b []any) bool {
	for i, f := range s.data {
		if s.tracked[i] && !sameValue(a[i], b[i], f.Type) {
			return false
		}
	}
	return true
}

func sameValue(a, b any, t types.Type) bool {
	return bytes.Equal(AppendOrdered(nil, a, t), AppendOrdered(nil, b, t))
}

func (s *Spec) sameRow(a, b []any) bool {
	for i, f := range s.schema {
		if !sameValue(a[i], b[i], f.Type) {
			return false
		}
	}
	return true
}

// diff appends to out the change data feed rows that turn a key's old rows
// into its new rows: SCD1 an insert, a delete or an update pair; SCD2 rows
// are matched by __START_AT (a version closed or changed in place is an
// update pair).
func (s *Spec) diff(out []feedRow, old, cur [][]any) []feedRow {
	match := func(a, b []any) bool {
		if !s.scd2 {
			return true // one row per key
		}
		n := len(s.data)
		return sameValue(a[n], b[n], s.seqType)
	}
	used := make([]bool, len(cur))
	for _, o := range old {
		found := false
		for j, c := range cur {
			if used[j] || !match(o, c) {
				continue
			}
			used[j], found = true, true
			if !s.sameRow(o, c) {
				out = append(out, feedRow{delta.ChangeUpdatePreimage, o}, feedRow{delta.ChangeUpdatePostimage, c})
			}
			break
		}
		if !found {
			out = append(out, feedRow{delta.ChangeDelete, o})
		}
	}
	for j, c := range cur {
		if !used[j] {
			out = append(out, feedRow{delta.ChangeInsert, c})
		}
	}
	return out
}

// leafMerge is the outcome of merging changes into the entries of a leaf.
type leafMerge struct {
	entries []entry // sorted by key, with their rows
	changes []feedRow
}

// mergeLeaf applies changes (grouped by key, each group sorted and
// deduplicated; keys sorted) to a leaf's entries (sorted by key, with
// their rows). truncAt is the truncate watermark in force; retruncate says
// it rose in this batch, so every entry is re-examined. now (ms) dates the
// new records and drops the tombstones older than the retention.
func (s *Spec) mergeLeaf(entries []entry, keys [][]byte, changes map[string][]record, truncAt []byte, retruncate bool, now int64) leafMerge {
	var m leafMerge
	gcBefore := now - s.tombstoneTTL.Milliseconds()
	emit := func(e entry, recs []record, touched bool) {
		rows := e.rows
		if touched {
			rows = s.rows(recs)
			m.changes = s.diff(m.changes, e.rows, rows)
		}
		if len(recs) == 0 || (!s.scd2 && recs[0].del && recs[0].at < gcBefore) {
			return // no state left, or a tombstone past its retention
		}
		m.entries = append(m.entries, entry{key: e.key, recs: recs, rows: rows})
	}
	i, j := 0, 0
	for i < len(entries) || j < len(keys) {
		var c int
		switch {
		case i == len(entries):
			c = 1
		case j == len(keys):
			c = -1
		default:
			c = bytes.Compare(entries[i].key, keys[j])
		}
		switch {
		case c < 0:
			e := entries[i]
			i++
			if !retruncate {
				emit(e, e.recs, false)
				continue
			}
			emit(e, s.mergeKey(e.recs, nil, truncAt), true)
		case c > 0:
			k := keys[j]
			j++
			emit(entry{key: k}, s.mergeKey(nil, changes[string(k)], truncAt), true)
		default:
			e := entries[i]
			i, j = i+1, j+1
			emit(e, s.mergeKey(e.recs, changes[string(e.key)], truncAt), true)
		}
	}
	return m
}
