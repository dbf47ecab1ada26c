package runtime

import (
	"fmt"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/table"
)

// shredBatch is how many rows a sink shreds before handing them to the
// Parquet writer.
const shredBatch = 1024

// Sink writes the rows a worker produces for its flow's target table:
// expectations first, then Parquet data files in the table's folder. The
// files become part of the table only when the flow commits.
type Sink[T any] struct {
	w     *Worker
	table *Table[T]
	dir   string

	vals  parquet.Row   // shredded values of the pending rows
	rows  []parquet.Row // pending rows, slices of vals
	ends  []int
	file  *table.FileWriter
	files []table.DataFile

	// part splits the rows of a partitioned table (nil when it is not);
	// parts are the partitions' open files by partition key, partOrder
	// the same in order of first row; seq numbers the sink's files.
	part      *table.Partitioner
	parts     map[string]*partitionFile
	partOrder []*partitionFile
	keyBuf    []byte
	seq       int
	partErr   error

	c sinkCounts
}

// sinkCounts are what a sink counted: rows written and dropped, and per
// expectation the rows that passed and failed.
type sinkCounts struct {
	written, dropped int64
	passed, failed   []int64
}

// Out returns the worker's sink for its flow's target table t.
func Out[T any](w *Worker, t *Table[T]) *Sink[T] {
	if s, ok := w.sink.(*Sink[T]); ok {
		return s
	}
	target := w.ctx.target
	s := &Sink[T]{
		w:     w,
		table: t,
		dir:   target.Path,
		c: sinkCounts{
			passed: make([]int64, len(t.Expectations)),
			failed: make([]int64, len(t.Expectations)),
		},
	}
	s.part, s.partErr = table.NewPartitioner(t.Codec.Schema, t.PartitionBy)
	w.sink = s
	return s
}

// ExpectationError is the error of a `fail` expectation: the rule, the
// dataset and the offending row.
type ExpectationError struct {
	Dataset, Name, Text string
	Row                 string
}

func (e *ExpectationError) Error() string {
	return fmt.Sprintf("expectation %q (%s) on dataset %s failed; nothing of this micro-batch was committed\n  row: %s",
		e.Name, e.Text, e.Dataset, e.Row)
}

// ErrNotNull is the error of a NULL value for a NOT NULL column of a table
// (Delta's NOT NULL constraint, DELTA_NOT_NULL_CONSTRAINT_VIOLATED).
func ErrNotNull(table, column string) error {
	return fmt.Errorf("[DELTA_NOT_NULL_CONSTRAINT_VIOLATED] NULL value for NOT NULL column %s of table %s; "+
		"drop such rows with an expectation (%s IS NOT NULL, on_violation: drop) or declare the column nullable", column, table, column)
}

// Emit writes one row, after checking the table's expectations: a row that
// violates a `drop` expectation is not written, one that violates a `fail`
// expectation returns an *ExpectationError.
func (s *Sink[T]) Emit(r *T) error {
	if drop, err := s.table.check(r, s.w.ctx.Params(), &s.c); drop || err != nil {
		return err
	}
	s.vals = s.table.Codec.Shred(r, s.vals)
	s.ends = append(s.ends, len(s.vals))
	s.c.written++
	if len(s.ends) >= shredBatch {
		return s.flush()
	}
	return nil
}

// flush hands the pending rows to the current data file.
func (s *Sink[T]) flush() error {
	if len(s.ends) == 0 {
		return nil
	}
	if s.partErr != nil {
		return fmt.Errorf("table %s: %w", s.table.Name, s.partErr)
	}
	if s.part != nil {
		return s.flushPartitioned()
	}
	s.rows = s.rows[:0]
	start := 0
	for _, end := range s.ends {
		s.rows = append(s.rows, s.vals[start:end:end])
		start = end
	}
	if s.file == nil {
		f, err := table.NewFileWriter(s.dir, s.w.ctx.filePrefix, s.w.id, len(s.files), s.table.Codec.Schema)
		if err != nil {
			return err
		}
		s.file = f
	}
	if err := s.file.Write(s.rows); err != nil {
		return err
	}
	s.vals, s.ends = s.vals[:0], s.ends[:0]
	if s.file.Rows() >= table.MaxRowsPerFile {
		df, err := s.file.Finish()
		if err != nil {
			return err
		}
		s.files = append(s.files, df)
		s.file = nil
	}
	return nil
}

func (s *Sink[T]) close() ([]table.DataFile, error) {
	if err := s.flush(); err != nil {
		return nil, err
	}
	if s.file != nil {
		df, err := s.file.Finish()
		if err != nil {
			return nil, err
		}
		s.files = append(s.files, df)
		s.file = nil
	}
	if err := s.finishPartitions(); err != nil {
		return nil, err
	}
	return s.files, nil
}

// abort removes the data files written so far (the flow failed; nothing
// was committed, so no reader can see them).
func (s *Sink[T]) abort() {
	if s.file != nil {
		s.file.Discard()
		s.file = nil
	}
	s.discardPartitions()
	for _, f := range s.files {
		storage.Remove(f.Path)
	}
	s.files = nil
}

func (s *Sink[T]) counts() sinkCounts { return s.c }

// StringValue returns a Parquet BYTE_ARRAY value holding s without copying
// it; the value is only valid while s is (generated shredding code uses it
// for rows the sink writes before they go out of use).
func StringValue(s string) parquet.Value {
	return parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(s), len(s)))
}

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
