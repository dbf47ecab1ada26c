package runtime

import (
	"fmt"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/table"
)

// maxOpenPartitionFiles bounds the data files a sink keeps open at once
// when its rows fall into many partitions: past it, the open files are
// finished and the next rows of a partition start a new file (Spark's
// writer sorts by partition for the same reason).
const maxOpenPartitionFiles = 32

// partitionFile is the open data file of one partition of a sink, with
// the rows pending for it.
type partitionFile struct {
	values delta.PartitionValues
	dir    string // relative to the table root
	file   *table.FileWriter
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
		s.keyBuf = s.part.Key(s.keyBuf[:0], row)
		pf := s.parts[string(s.keyBuf)]
		if pf == nil {
			pv, err := s.part.Values(row)
			if err != nil {
				return fmt.Errorf("table %s: %w", s.table.Name, err)
			}
			pf = &partitionFile{values: pv, dir: s.part.Dir(pv)}
			if s.parts == nil {
				s.parts = map[string]*partitionFile{}
			}
			s.parts[string(s.keyBuf)] = pf
			s.partOrder = append(s.partOrder, pf)
		}
		pf.vals = s.part.DataRow(pf.vals, row)
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
			f, err := table.NewFileWriter(storage.Join(s.dir, pf.dir), s.w.ctx.filePrefix, s.w.id, s.seq, s.part.DataSchema())
			if err != nil {
				return err
			}
			s.seq++
			f.Partition(pf.dir, pf.values)
			pf.file = f
			open++
		}
		if err := pf.file.Write(pf.rows); err != nil {
			return err
		}
		pf.vals, pf.ends = pf.vals[:0], pf.ends[:0]
		if pf.file.Rows() >= table.MaxRowsPerFile {
			df, err := pf.file.Finish()
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
		df, err := pf.file.Finish()
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
			pf.file.Discard()
			pf.file = nil
		}
	}
}
