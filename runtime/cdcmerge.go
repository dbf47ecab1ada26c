package runtime

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/types"
)

// The merge logic of AUTO CDC flows (Databricks AUTO CDC, formerly APPLY
// CHANGES; DESIGN.md section 5), independent of storage.
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
// appendOrdered compare, column by column); of such changes only the
// highest counts, on every rerun and for every arrival order. A truncate
// (SCD1) at sequence t removes every key whose winning change has a
// sequence <= t, and later changes with a sequence <= t are ignored.

// cdcSpec is the runtime's non-generic view of an AUTO CDC flow.
type cdcSpec struct {
	flow   string
	target string
	// data are the columns the flow writes, in the target's order; schema
	// is the target's: data, then __START_AT and __END_AT for SCD2.
	data   types.Schema
	schema types.Schema
	// keys index data.
	keys []int
	// sequenceBy names the sequence_by columns (CDCRules).
	sequenceBy []string
	seqType    types.Type
	scd2       bool
	// tracked (SCD2) marks the data columns whose change opens a new
	// version; a change of the others updates the current version.
	tracked     []bool
	ignoreNulls bool
	// tombstoneTTL is how long an SCD1 delete is remembered.
	tombstoneTTL time.Duration
	// parts is the target's partitioning (cdcpartition.go); nil when it
	// has no partition columns.
	parts *cdcParts
}

// signature names what the stored rows and state of a target depend on:
// the key columns, the sequence type and the SCD type. A flow whose
// signature changed needs a full refresh of its target.
func (s *cdcSpec) signature() string {
	var b strings.Builder
	b.WriteString("keys(")
	for i, k := range s.keys {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(s.data[k].Name)
	}
	fmt.Fprintf(&b, ") sequence %s scd%d", s.seqType, map[bool]int{false: 1, true: 2}[s.scd2])
	return b.String()
}

// cdcRecord is one change as the merge keeps it.
type cdcRecord struct {
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

func (r *cdcRecord) seqKey() []byte { return r.order[:r.seqLen] }

// newRecord builds the record of an upsert (row != nil) or delete.
func (s *cdcSpec) newRecord(seq any, row []any, at int64) cdcRecord {
	order := appendOrdered(nil, seq, s.seqType)
	n := len(order)
	if row == nil {
		order = append(order, 1)
	} else {
		order = append(order, 0)
		for i, f := range s.data {
			order = appendOrdered(order, row[i], f.Type)
		}
	}
	return cdcRecord{order: order, seqLen: n, seq: seq, del: row == nil, at: at, row: row}
}

// cdcEntry is the state of one key: its records in change order, and the
// target rows they give (see rows).
type cdcEntry struct {
	key  []byte
	recs []cdcRecord
	rows [][]any
}

// cdcChange is one change of a micro-batch: its key's encoding and record.
// In a target partitioned by key columns, group names the key's partition
// (cdcParts.path) and pv holds its values; both are empty otherwise.
type cdcChange struct {
	key   []byte
	rec   cdcRecord
	group string
	pv    delta.PartitionValues
}

// cdfRow is one row of the change data feed: the target row and its
// _change_type.
type cdfRow struct {
	kind string
	row  []any
}

// sortRecords sorts records in change order and drops exact duplicates (a
// change delivered twice).
func sortRecords(recs []cdcRecord) []cdcRecord {
	slices.SortStableFunc(recs, func(a, b cdcRecord) int { return bytes.Compare(a.order, b.order) })
	return slices.CompactFunc(recs, func(a, b cdcRecord) bool { return bytes.Equal(a.order, b.order) })
}

// mergeKey returns the records of a key after applying changes (sorted,
// deduplicated) to old, with truncAt the sequence encoding at and below
// which changes are truncated (nil: none).
func (s *cdcSpec) mergeKey(old, changes []cdcRecord, truncAt []byte) []cdcRecord {
	truncated := func(r *cdcRecord) bool { return truncAt != nil && bytes.Compare(r.seqKey(), truncAt) <= 0 }
	if !s.scd2 {
		var cur *cdcRecord
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
		return []cdcRecord{*cur}
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
func (s *cdcSpec) rows(recs []cdcRecord) [][]any {
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
func (s *cdcSpec) sameTracked(a, b []any) bool {
	for i, f := range s.data {
		if s.tracked[i] && !sameValue(a[i], b[i], f.Type) {
			return false
		}
	}
	return true
}

func sameValue(a, b any, t types.Type) bool {
	return bytes.Equal(appendOrdered(nil, a, t), appendOrdered(nil, b, t))
}

func (s *cdcSpec) sameRow(a, b []any) bool {
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
func (s *cdcSpec) diff(out []cdfRow, old, cur [][]any) []cdfRow {
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
				out = append(out, cdfRow{delta.ChangeUpdatePreimage, o}, cdfRow{delta.ChangeUpdatePostimage, c})
			}
			break
		}
		if !found {
			out = append(out, cdfRow{delta.ChangeDelete, o})
		}
	}
	for j, c := range cur {
		if !used[j] {
			out = append(out, cdfRow{delta.ChangeInsert, c})
		}
	}
	return out
}

// leafMerge is the outcome of merging changes into the entries of a leaf.
type leafMerge struct {
	entries []cdcEntry // sorted by key, with their rows
	changes []cdfRow
}

// mergeLeaf applies changes (grouped by key, each group sorted and
// deduplicated; keys sorted) to a leaf's entries (sorted by key, with
// their rows). truncAt is the truncate watermark in force; retruncate says
// it rose in this batch, so every entry is re-examined. now (ms) dates the
// new records and drops the tombstones older than the retention.
func (s *cdcSpec) mergeLeaf(entries []cdcEntry, keys [][]byte, changes map[string][]cdcRecord, truncAt []byte, retruncate bool, now int64) leafMerge {
	var m leafMerge
	gcBefore := now - s.tombstoneTTL.Milliseconds()
	emit := func(e cdcEntry, recs []cdcRecord, touched bool) {
		rows := e.rows
		if touched {
			rows = s.rows(recs)
			m.changes = s.diff(m.changes, e.rows, rows)
		}
		if len(recs) == 0 || (!s.scd2 && recs[0].del && recs[0].at < gcBefore) {
			return // no state left, or a tombstone past its retention
		}
		m.entries = append(m.entries, cdcEntry{key: e.key, recs: recs, rows: rows})
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
			emit(cdcEntry{key: k}, s.mergeKey(nil, changes[string(k)], truncAt), true)
		default:
			e := entries[i]
			i, j = i+1, j+1
			emit(e, s.mergeKey(e.recs, changes[string(e.key)], truncAt), true)
		}
	}
	return m
}
