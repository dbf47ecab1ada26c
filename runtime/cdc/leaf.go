package cdc

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"

	"github.com/pipegen/pipegen/runtime/delta"
)

// Tags of a leaf's add action.
const (
	tagLo        = "pipegen.cdc.lo"
	tagHi        = "pipegen.cdc.hi"
	tagKeys      = "pipegen.cdc.keys"
	tagState     = "pipegen.cdc.state"
	tagTruncated = "pipegen.cdc.truncated"
	tagSpec      = "pipegen.cdc.spec"
	// tagRules holds the flow's Rules (JSON), tagFlow its name.
	tagRules = "pipegen.cdc.rules"
	tagFlow  = "pipegen.cdc.flow"
)

// Leaf is one leaf of a target's key-range index, as the tags of its data
// files describe it: its key range's lower bound, greatest key, key
// count, state file and live data files (one, or in a partitioned target
// one per partition its rows fall in; see partition.go).
type Leaf struct {
	// lo is the lower bound of the leaf's key range (the range ends below
	// the next leaf's lo) and hi its greatest key, as AppendOrdered
	// encodes the key columns; keys counts its keys.
	lo, hi []byte
	keys   int64
	state  string
	adds   []*delta.Add
	// group names the partition whose index the leaf belongs to in a
	// target partitioned by key columns ("" otherwise), pv its partition
	// values.
	group string
	pv    delta.PartitionValues
	// spec is the signature of the flow that wrote it (Spec.signature),
	// rules its Rules and flow its name ("" in files written before
	// pipegen recorded them).
	spec, rules, flow string
}

// Lo returns the lower bound of the leaf's key range, the key columns as
// AppendOrdered encodes them (empty: open below); the range ends below
// the next leaf's Lo in its index.
func (l *Leaf) Lo() []byte { return l.lo }

// Hi returns the leaf's greatest key (empty for a leaf without keys).
func (l *Leaf) Hi() []byte { return l.hi }

// Group returns the partition folder of the index the leaf belongs to in a
// target partitioned by key columns, "" otherwise.
func (l *Leaf) Group() string { return l.group }

// Files returns the add actions of the leaf's live data files.
func (l *Leaf) Files() []*delta.Add { return l.adds }

// Leaves returns the leaves of snap, the snapshot of AUTO CDC target table
// whose key columns are keys (indexes into snap.Schema), sorted by group
// and lower bound: the key-range index its files' tags describe. It fails
// as Store.Merge does on files written by another writer and on ranges
// that do not cover the keys once.
func Leaves(table string, snap *delta.Snapshot, keys []int) ([]*Leaf, error) {
	parts, err := newPartitioning(snap.Schema, snap.Metadata.PartitionColumns, keys)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", table, err)
	}
	leaves, _, err := loadLeaves(snap, parts, table, "")
	return leaves, err
}

// loadLeaves returns the leaves of the snapshot of table, an AUTO CDC
// target of flow partitioned as parts, sorted by group and lo, and the
// truncate watermark in force. A live file without pipegen's tags means
// another writer changed the table: the flow cannot continue without a
// full refresh.
func loadLeaves(snap *delta.Snapshot, parts *partitioning, table, flow string) ([]*Leaf, []byte, error) {
	var leaves []*Leaf
	var trunc []byte
	byState := map[string]*Leaf{}
	keyed := parts != nil && parts.keyed
	for i := range snap.Files {
		a := &snap.Files[i]
		name, ok := a.Tags[tagState]
		lo, err1 := hex.DecodeString(a.Tags[tagLo])
		hi, err2 := hex.DecodeString(a.Tags[tagHi])
		keys, err3 := strconv.ParseInt(a.Tags[tagKeys], 10, 64)
		if !ok || err1 != nil || err2 != nil || err3 != nil {
			return nil, nil, fmt.Errorf("table %s: data file %s was not written by AUTO CDC flow %s (the table was changed by another writer); "+
				"run a full refresh of %s: --full-refresh %s", table, a.Path, flow, table, table)
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
					table, l.adds[0].Path, a.Path, flow, name, table)
			}
			l.adds = append(l.adds, a)
			continue
		}
		l := &Leaf{lo: lo, hi: hi, keys: keys, state: name, adds: []*delta.Add{a}, pv: a.PartitionValues,
			spec: a.Tags[tagSpec], rules: a.Tags[tagRules], flow: a.Tags[tagFlow]}
		if keyed {
			l.group = parts.path(a.PartitionValues)
		}
		byState[name] = l
		leaves = append(leaves, l)
	}
	slices.SortFunc(leaves, func(a, b *Leaf) int {
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
				table, flow, table)
		}
	}
	return leaves, trunc, nil
}

// leafTags returns the tags of a leaf's data files.
func (st *Store) leafTags(lo []byte, entries []entry, state string, truncAt []byte) map[string]string {
	tags := map[string]string{
		tagLo:    hex.EncodeToString(lo),
		tagHi:    "",
		tagKeys:  strconv.Itoa(len(entries)),
		tagState: state,
		tagSpec:  st.Spec.signature(),
		tagRules: st.Spec.rules().encode(),
		tagFlow:  st.Spec.flow,
	}
	if len(entries) > 0 {
		tags[tagHi] = hex.EncodeToString(entries[len(entries)-1].key)
	}
	if truncAt != nil {
		tags[tagTruncated] = hex.EncodeToString(truncAt)
	}
	return tags
}
