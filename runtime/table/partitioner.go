package table

import (
	"fmt"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// Partitioner splits the canonical rows of a partitioned table (Delta
// protocol, "Partitioned tables" of "Data Files"): the values of the
// partition columns go to the add action's partitionValues and name the
// file's Hive-style folder; the data file holds the other columns only, so
// its statistics leave the partition columns out, as Spark's do.
type Partitioner struct {
	columns []string     // the partition columns, in partition order
	types   []types.Type // their types
	leaf    []int        // their leaf column index in the table's layout
	maxDef  []int        // their maximum definition level (0: NOT NULL)
	remap   []int        // table leaf index -> data file leaf index, -1 for partition columns
	data    types.Schema // the data files' schema: the table's without the partition columns
}

// NewPartitioner returns the partitioner of a table of schema s
// partitioned by the columns by (names of top-level primitive columns of
// s), or nil when by is empty. It fails when a name of by is not a column
// of s or names a nested column.
func NewPartitioner(s types.Schema, by []string) (*Partitioner, error) {
	if len(by) == 0 {
		return nil, nil
	}
	p := &Partitioner{}
	isPart := make([]bool, len(s))
	for _, c := range by {
		i := s.Index(c)
		if i < 0 {
			return nil, fmt.Errorf("partition column %q is not a column of the table", c)
		}
		if s[i].Type.IsNested() {
			return nil, fmt.Errorf("partition column %q has nested type %s", c, s[i].Type)
		}
		isPart[i] = true
		p.columns = append(p.columns, s[i].Name)
		p.types = append(p.types, s[i].Type)
	}
	for i, f := range s {
		if !isPart[i] {
			p.data = append(p.data, f)
		}
	}
	leaves := parquetio.Leaves(s)
	p.remap = make([]int, len(leaves))
	p.leaf = make([]int, len(p.columns))
	p.maxDef = make([]int, len(p.columns))
	next := 0
	for _, l := range leaves {
		if !isPart[l.Column] {
			p.remap[l.Index] = next
			next++
			continue
		}
		p.remap[l.Index] = -1
		for j, c := range p.columns {
			if c == s[l.Column].Name {
				p.leaf[j], p.maxDef[j] = l.Index, l.MaxDef
			}
		}
	}
	return p, nil
}

// DataSchema returns the schema of the table's data files: the table's
// columns without the partition columns.
func (p *Partitioner) DataSchema() types.Schema { return p.data }

// Key appends to buf a key that identifies the partition of row (a
// canonical row of the table's layout) and returns it. Rows of one
// partition, and only those, have equal keys.
func (p *Partitioner) Key(buf []byte, row parquet.Row) []byte {
	for j, li := range p.leaf {
		v := row[li]
		if v.DefinitionLevel() < p.maxDef[j] {
			buf = append(buf, 0)
			continue
		}
		buf = append(buf, 1)
		buf = v.AppendBytes(buf)
		buf = append(buf, 0xff, 0)
	}
	return buf
}

// Values returns the partition values of row, serialized as the Delta
// protocol's partitionValues ("Partition Value Serialization").
func (p *Partitioner) Values(row parquet.Row) (delta.PartitionValues, error) {
	pv := make(delta.PartitionValues, len(p.columns))
	for j, li := range p.leaf {
		v := row[li]
		var x any
		if v.DefinitionLevel() >= p.maxDef[j] {
			var err error
			if x, err = parquetio.LeafValue(v, p.types[j]); err != nil {
				return nil, fmt.Errorf("partition column %s: %w", p.columns[j], err)
			}
		}
		s, err := parquetio.FormatPartitionValue(x, p.types[j])
		if err != nil {
			return nil, fmt.Errorf("partition column %s: %w", p.columns[j], err)
		}
		pv[p.columns[j]] = s
	}
	return pv, nil
}

// DataRow appends the values of row that the data file holds, renumbered
// to the data files' layout (DataSchema), to dst.
func (p *Partitioner) DataRow(dst, row parquet.Row) parquet.Row {
	for _, v := range row {
		if c := p.remap[v.Column()]; c >= 0 {
			dst = append(dst, v.Level(v.RepetitionLevel(), v.DefinitionLevel(), c))
		}
	}
	return dst
}

// Dir returns the folder, relative to the table root, of the partition
// with values pv (col=value/..., escaped as Spark's escapePathName).
func (p *Partitioner) Dir(pv delta.PartitionValues) string {
	return delta.PartitionPath(p.columns, pv)
}
