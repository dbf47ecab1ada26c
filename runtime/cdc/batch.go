package cdc

import (
	"bytes"
	"fmt"

	"github.com/pipegen/pipegen/runtime/delta"
)

// Batch collects the changes of a micro-batch of an AUTO CDC flow, or of
// one scan worker's share of it (Append joins them), for Store.Merge. It
// is not safe for concurrent use. Rows are generic values (parquetio's
// representation) of the target's columns; only the written columns (not
// __START_AT and __END_AT) are read.
type Batch struct {
	spec    *Spec
	changes []change
	// trunc is the highest truncate's sequence encoding (nil: none).
	trunc []byte
	// parts interns the partition values of the changes' keys (a target
	// partitioned by key columns), by partition folder.
	parts map[string]delta.PartitionValues
}

// NewBatch returns an empty batch of the flow's changes.
func (s *Spec) NewBatch() *Batch { return &Batch{spec: s} }

// Len returns the number of upserts and deletes in the batch.
func (b *Batch) Len() int { return len(b.changes) }

// Upsert adds an upsert of row with sequence value seq (not NULL), applied
// at at (ms since the epoch: the retention of tombstones counts from it).
// The key columns of row must not be NULL (Spec.NullKey). It fails only
// when a partition value of the key cannot be serialized.
func (b *Batch) Upsert(seq any, row []any, at int64) error {
	data := row[:len(b.spec.data)]
	return b.add(data, b.spec.newRecord(seq, data, at))
}

// Delete adds a delete (apply_as_deletes) of the key of row with sequence
// value seq, as Upsert does; the other columns of row are not read.
func (b *Batch) Delete(seq any, row []any, at int64) error {
	return b.add(row[:len(b.spec.data)], b.spec.newRecord(seq, nil, at))
}

// Truncate records a truncate (apply_as_truncates, SCD type 1) at sequence
// value seq: every key whose winning change has a sequence at or below
// the batch's highest truncate is removed.
func (b *Batch) Truncate(seq any) {
	if enc := AppendOrdered(nil, seq, b.spec.seqType); bytes.Compare(enc, b.trunc) > 0 {
		b.trunc = enc
	}
}

// Append adds the changes and truncate of o, a batch of the same flow.
func (b *Batch) Append(o *Batch) {
	b.changes = append(b.changes, o.changes...)
	if bytes.Compare(o.trunc, b.trunc) > 0 {
		b.trunc = o.trunc
	}
}

func (b *Batch) add(data []any, rec record) error {
	s := b.spec
	c := change{key: appendTuple(nil, data, s.data, s.keys), rec: rec}
	if p := s.parts; p != nil && p.keyed {
		var err error
		if c.group, c.pv, err = b.partition(p, data); err != nil {
			return fmt.Errorf("table %s: %w", s.target, err)
		}
	}
	b.changes = append(b.changes, c)
	return nil
}

// partition returns the partition folder and values of a change's key
// columns (data), interned per batch.
func (b *Batch) partition(p *partitioning, data []any) (string, delta.PartitionValues, error) {
	pv, err := p.values(data)
	if err != nil {
		return "", nil, err
	}
	dir := p.path(pv)
	if old, ok := b.parts[dir]; ok {
		return dir, old, nil
	}
	if b.parts == nil {
		b.parts = map[string]delta.PartitionValues{}
	}
	b.parts[dir] = pv
	return dir, pv, nil
}
