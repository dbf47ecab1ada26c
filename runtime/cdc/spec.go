package cdc

import (
	"fmt"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/types"
)

// DefaultTombstoneTTL is how long an SCD type 1 target remembers a deleted
// key when its table property does not say (runtime.TombstoneTTLProperty,
// Databricks' pipelines.cdc.tombstoneGCThresholdInSeconds): 7 days,
// Delta's default retention of removed files
// (delta.deletedFileRetentionDuration).
const DefaultTombstoneTTL = delta.DefaultDeletedFileRetention

// Config describes an AUTO CDC flow (Databricks AUTO CDC, formerly APPLY
// CHANGES INTO) to NewSpec: its target and the settings of its AUTO CDC
// statement. Column names are the target's, matched case-insensitively.
type Config struct {
	// Flow and Target name the flow and its target table (for messages,
	// and Flow for the tags of the target's files).
	Flow, Target string
	// Schema is the target's: the written columns, then, for SCD type 2,
	// __START_AT and __END_AT of SequenceType.
	Schema types.Schema
	// Keys name the key columns.
	Keys []string
	// SequenceBy names the sequence_by columns; SequenceType is the
	// sequence value's type: the column's, or a STRUCT of the columns' for
	// several.
	SequenceBy   []string
	SequenceType types.Type
	// SCD2 selects SCD type 2 (history); SCD type 1 otherwise.
	SCD2 bool
	// IgnoreNullUpdates is ignore_null_updates: a NULL of an update keeps
	// the key's previous value.
	IgnoreNullUpdates bool
	// TrackHistory (SCD2) names the columns whose change opens a new
	// version (track_history_columns, or the complement of
	// track_history_except_columns); nil means every column.
	TrackHistory []string
	// TombstoneTTL is how long an SCD type 1 delete is remembered, so that
	// a late upsert with a lower sequence cannot bring the key back
	// (DefaultTombstoneTTL unless the target's property says).
	TombstoneTTL time.Duration
	// PartitionBy names the target's partition columns (partition.go).
	PartitionBy []string
}

// Spec is the checked, non-generic description of an AUTO CDC flow that
// Batch, Store and the merge work with. Make one with NewSpec.
type Spec struct {
	flow   string
	target string
	// data are the columns the flow writes, in the target's order; schema
	// is the target's: data, then __START_AT and __END_AT for SCD2.
	data   types.Schema
	schema types.Schema
	// keys index data.
	keys []int
	// sequenceBy names the sequence_by columns (Rules).
	sequenceBy []string
	seqType    types.Type
	scd2       bool
	// tracked (SCD2) marks the data columns whose change opens a new
	// version; a change of the others updates the current version.
	tracked     []bool
	ignoreNulls bool
	// tombstoneTTL is how long an SCD1 delete is remembered.
	tombstoneTTL time.Duration
	// parts is the target's partitioning (partition.go); nil when it has
	// no partition columns.
	parts *partitioning
}

// NewSpec checks c and returns the flow's Spec. It fails when an SCD type
// 2 schema does not end with __START_AT and __END_AT, when a key, history
// or partition column is not a column of the target, or when a written
// column's name starts with __cdc_ (reserved for the state files).
func NewSpec(c Config) (*Spec, error) {
	schema := c.Schema
	s := &Spec{flow: c.Flow, target: c.Target, schema: schema, seqType: c.SequenceType, sequenceBy: c.SequenceBy,
		scd2: c.SCD2, ignoreNulls: c.IgnoreNullUpdates, tombstoneTTL: c.TombstoneTTL}
	s.data = schema
	if s.scd2 {
		n := len(schema)
		if n < 2 || schema[n-2].Name != "__START_AT" || schema[n-1].Name != "__END_AT" {
			return nil, fmt.Errorf("SCD type 2 target %s must end with __START_AT and __END_AT", s.target)
		}
		s.data = schema[:n-2]
	}
	for _, k := range c.Keys {
		i := s.data.Index(k)
		if i < 0 {
			return nil, fmt.Errorf("key column %s is not a column of %s", k, s.target)
		}
		s.keys = append(s.keys, i)
	}
	s.tracked = make([]bool, len(s.data))
	for i := range s.tracked {
		s.tracked[i] = c.TrackHistory == nil
	}
	for _, col := range c.TrackHistory {
		i := s.data.Index(col)
		if i < 0 {
			return nil, fmt.Errorf("history column %s is not a column of %s", col, s.target)
		}
		s.tracked[i] = true
	}
	for _, f := range s.data {
		if strings.HasPrefix(f.Name, "__cdc_") {
			return nil, fmt.Errorf("column %s of %s: names starting with __cdc_ are reserved for AUTO CDC's state; rename the column", f.Name, s.target)
		}
	}
	var err error
	if s.parts, err = newPartitioning(schema, c.PartitionBy, s.keys); err != nil {
		return nil, fmt.Errorf("table %s: %w", s.target, err)
	}
	return s, nil
}

// KeyNames returns the names of the key columns, in key order.
func (s *Spec) KeyNames() []string {
	out := make([]string, len(s.keys))
	for i, k := range s.keys {
		out[i] = s.data[k].Name
	}
	return out
}

// NullKey returns the name of a key column that is NULL in row (a row of
// the target's columns, generic values), or "" when none is.
func (s *Spec) NullKey(row []any) string {
	for _, k := range s.keys {
		if row[k] == nil {
			return s.data[k].Name
		}
	}
	return ""
}

// signature names what the stored rows and state of a target depend on:
// the key columns, the sequence type and the SCD type. A flow whose
// signature changed needs a full refresh of its target.
func (s *Spec) signature() string {
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
