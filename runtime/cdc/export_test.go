package cdc

import (
	"bytes"
	"slices"
)

// MemTable is an AUTO CDC target kept in memory as one leaf: the merge
// logic without storage, for the tests of package cdc_test.
type MemTable struct {
	spec    *Spec
	entries []entry
	trunc   []byte
}

// FeedRow is one change data feed row a merge gave.
type FeedRow struct {
	Kind string
	Row  []any
}

// NewMemTable returns an empty target of the flow s.
func NewMemTable(s *Spec) *MemTable { return &MemTable{spec: s} }

// Apply merges the batch b at now (ms) and returns its change data feed.
func (m *MemTable) Apply(b *Batch, now int64) []FeedRow {
	byKey := map[string][]record{}
	var keys [][]byte
	for _, c := range b.changes {
		k := string(c.key)
		if _, ok := byKey[k]; !ok {
			keys = append(keys, c.key)
		}
		byKey[k] = append(byKey[k], c.rec)
	}
	for k, recs := range byKey {
		byKey[k] = sortRecords(recs)
	}
	slices.SortFunc(keys, bytes.Compare)
	retruncate := b.trunc != nil && bytes.Compare(b.trunc, m.trunc) > 0
	if retruncate {
		m.trunc = b.trunc
	}
	r := m.spec.mergeLeaf(m.entries, keys, byKey, m.trunc, retruncate, now)
	m.entries = r.entries
	out := make([]FeedRow, len(r.changes))
	for i, c := range r.changes {
		out[i] = FeedRow{c.kind, c.row}
	}
	return out
}

// Rows returns the target's rows.
func (m *MemTable) Rows() [][]any {
	var out [][]any
	for _, e := range m.entries {
		out = append(out, e.rows...)
	}
	return out
}
