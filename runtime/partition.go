package runtime

import (
	"fmt"
	"path/filepath"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// maxOpenPartitionFiles bounds the data files a sink keeps open at once
// when its rows fall into many partitions: past it, the open files are
// finished and the next rows of a partition start a new file (Spark's
// writer sorts by partition for the same reason).
const maxOpenPartitionFiles = 32

// partitioner splits the canonical rows of a partitioned table (protocol,
// "Partitioned tables" of "Data Files"): the values of the partition
// columns go to the add action's partitionValues and name the file's
// Hive-style folder; the data file holds the other columns only, so its
// statistics leave the partition columns out, as Spark's do.
type partitioner struct {
	columns []string     // the partition columns, in partition order
	types   []types.Type // their types
	leaf    []int        // their leaf column index in the table's layout
	maxDef  []int        // their maximum definition level (0: NOT NULL)
	remap   []int        // table leaf index -> data file leaf index, -1 for partition columns
	data    types.Schema // the data files' schema: the table's without the partition columns
}

// newPartitioner returns the partitioner of a table of schema s
// partitioned by the columns by (names of top-level primitive columns of
// s), or nil when by is empty.
func newPartitioner(s types.Schema, by []string) (*partitioner, error) {
	if len(by) == 0 {
		return nil, nil
	}
	p := &partitioner{}
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

// key appends to buf a key that identifies the partition of row (a
// canonical row of the table's layout) and returns it.
func (p *partitioner) key(buf []byte, row parquet.Row) []byte {
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

// values returns the serialized partition values of row.
func (p *partitioner) values(row parquet.Row) (delta.PartitionValues, error) {
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

// dataRow appends the values of row that the data file holds, renumbered
// to the data files' layout, to dst.
func (p *partitioner) dataRow(dst, row parquet.Row) parquet.Row {
	for _, v := range row {
		if c := p.remap[v.Column()]; c >= 0 {
			dst = append(dst, v.Level(v.RepetitionLevel(), v.DefinitionLevel(), c))
		}
	}
	return dst
}

// dir returns the folder, relative to the table root, of the partition
// with values pv.
func (p *partitioner) dir(pv delta.PartitionValues) string {
	return delta.PartitionPath(p.columns, pv)
}

// partitionFile is the open data file of one partition of a sink, with
// the rows pending for it.
type partitionFile struct {
	values delta.PartitionValues
	dir    string // relative to the table root
	file   *dataFileWriter
	vals   parquet.Row
	ends   []int
	rows   []parquet.Row
}

// flushPartitioned hands the sink's pending rows to the data files of
// their partitions.
func (s *Sink[T]) flushPartitioned() error {
	start := 0
	for _, end := range s.ends {
		row := s.vals[start:end:end]
		start = end
		s.keyBuf = s.part.key(s.keyBuf[:0], row)
		pf := s.parts[string(s.keyBuf)]
		if pf == nil {
			pv, err := s.part.values(row)
			if err != nil {
				return fmt.Errorf("table %s: %w", s.table.Name, err)
			}
			pf = &partitionFile{values: pv, dir: s.part.dir(pv)}
			if s.parts == nil {
				s.parts = map[string]*partitionFile{}
			}
			s.parts[string(s.keyBuf)] = pf
			s.partOrder = append(s.partOrder, pf)
		}
		pf.vals = s.part.dataRow(pf.vals, row)
		pf.ends = append(pf.ends, len(pf.vals))
	}
	s.vals, s.ends = s.vals[:0], s.ends[:0]
	open := 0
	for _, pf := range s.partOrder {
		if pf.file != nil {
			open++
		}
	}
	for _, pf := range s.partOrder {
		if len(pf.ends) == 0 {
			continue
		}
		pf.rows = pf.rows[:0]
		st := 0
		for _, end := range pf.ends {
			pf.rows = append(pf.rows, pf.vals[st:end:end])
			st = end
		}
		if pf.file == nil {
			if open >= maxOpenPartitionFiles {
				if err := s.finishPartitions(); err != nil {
					return err
				}
				open = 0
			}
			f, err := newDataFile(filepath.Join(s.dir, pf.dir), s.w.ctx.filePrefix, s.w.id, s.seq, s.part.data)
			if err != nil {
				return err
			}
			s.seq++
			f.rel = filepath.ToSlash(filepath.Join(pf.dir, f.rel))
			f.partitionValues = pf.values
			pf.file = f
			open++
		}
		if err := pf.file.write(pf.rows); err != nil {
			return err
		}
		pf.vals, pf.ends = pf.vals[:0], pf.ends[:0]
		if pf.file.rows >= maxRowsPerFile {
			df, err := pf.file.finish()
			if err != nil {
				return err
			}
			s.files = append(s.files, df)
			pf.file = nil
			open--
		}
	}
	return nil
}

// finishPartitions finishes every open partition file.
func (s *Sink[T]) finishPartitions() error {
	for _, pf := range s.partOrder {
		if pf.file == nil {
			continue
		}
		df, err := pf.file.finish()
		pf.file = nil
		if err != nil {
			return err
		}
		s.files = append(s.files, df)
	}
	return nil
}

// discardPartitions removes the partition files being written.
func (s *Sink[T]) discardPartitions() {
	for _, pf := range s.partOrder {
		if pf.file != nil {
			pf.file.discard()
			pf.file = nil
		}
	}
}
