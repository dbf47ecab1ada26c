package cdc

import (
	"fmt"
	"slices"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// Partitioned AUTO CDC targets.
//
// A partitioned target's files follow the protocol as every partitioned
// table's do (partition.go): Hive-style folders, partitionValues on every
// add, remove and cdc action, the partition columns left out of the data
// and change files. How the key-range leaves of store.go meet the
// partitions depends on the keys:
//
//   - keyed: every partition column is a key column, so all the rows of a
//     key lie in one partition, for ever. Each partition then has its own
//     leaves (its own key-range index, the first leaf's range open below),
//     every leaf's rows are in one file of its partition, and a
//     micro-batch rewrites only files of the partitions its changes touch.
//   - otherwise a key's rows can move between partitions (an SCD1 update
//     of a partition column) or span several (SCD2 history): the leaves
//     form one index over all keys, as in an unpartitioned target, and a
//     leaf's rows are written as one file per partition they fall in, all
//     carrying the leaf's tags; rewriting the leaf rewrites those files.
//
// A leaf with no rows (its keys all deleted, tombstones kept) still needs
// one add to name its state: an empty file in its partition (keyed) or in
// the partition whose values are all NULL.

// partitioning is how an AUTO CDC target's rows are partitioned.
type partitioning struct {
	columns []string     // the partition columns, in partition order
	types   []types.Type // their types
	idx     []int        // their index in the target's schema
	data    types.Schema // the data files' schema: the target's without them
	keep    []int        // the target's columns the data files hold
	keyed   bool         // every partition column is a key column
	null    delta.PartitionValues
}

// newPartitioning returns the partitioning of an AUTO CDC target of schema s
// (keys index s) by the columns by, or nil when by is empty.
func newPartitioning(s types.Schema, by []string, keys []int) (*partitioning, error) {
	if len(by) == 0 {
		return nil, nil
	}
	p := &partitioning{keyed: true, null: delta.PartitionValues{}}
	for _, c := range by {
		i := s.Index(c)
		if i < 0 {
			return nil, fmt.Errorf("partition column %q is not a column of the table", c)
		}
		p.columns = append(p.columns, s[i].Name)
		p.types = append(p.types, s[i].Type)
		p.idx = append(p.idx, i)
		p.null[s[i].Name] = ""
		if !slices.Contains(keys, i) {
			p.keyed = false
		}
	}
	for i, f := range s {
		if !slices.Contains(p.idx, i) {
			p.data = append(p.data, f)
			p.keep = append(p.keep, i)
		}
	}
	return p, nil
}

// values returns the serialized partition values of row (the target's
// columns, or at least those up to the last partition column).
func (p *partitioning) values(row []any) (delta.PartitionValues, error) {
	pv := make(delta.PartitionValues, len(p.columns))
	for j, i := range p.idx {
		s, err := parquetio.FormatPartitionValue(row[i], p.types[j])
		if err != nil {
			return nil, fmt.Errorf("partition column %s: %w", p.columns[j], err)
		}
		pv[p.columns[j]] = s
	}
	return pv, nil
}

// path returns the folder, relative to the table root, of the partition
// with values pv; it also names the partition's leaves in keyed mode.
func (p *partitioning) path(pv delta.PartitionValues) string {
	return delta.PartitionPath(p.columns, pv)
}

// strip returns row without its partition columns.
func (p *partitioning) strip(row []any) []any {
	out := make([]any, len(p.keep), len(p.keep)+1)
	for j, i := range p.keep {
		out[j] = row[i]
	}
	return out
}

// partRows are the rows of one partition, in the order given.
type partRows struct {
	pv   delta.PartitionValues
	dir  string
	rows [][]any // without the partition columns
	// extra are values appended to each row (the change type of a change
	// file's rows), parallel to rows; nil when none.
	extra []any
}

// split groups rows (the target's columns) by partition, in the order of
// each partition's first row; extra (nil or parallel to rows) is kept
// beside each row.
func (p *partitioning) split(rows [][]any, extra []any) ([]*partRows, error) {
	var out []*partRows
	byDir := map[string]*partRows{}
	for i, r := range rows {
		pv, err := p.values(r)
		if err != nil {
			return nil, err
		}
		dir := p.path(pv)
		g := byDir[dir]
		if g == nil {
			g = &partRows{pv: pv, dir: dir}
			byDir[dir] = g
			out = append(out, g)
		}
		g.rows = append(g.rows, p.strip(r))
		if extra != nil {
			g.extra = append(g.extra, extra[i])
		}
	}
	return out, nil
}
