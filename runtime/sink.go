package runtime

import (
	"bufio"
	"fmt"
	"path/filepath"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/types"
)

// maxRowsPerFile bounds the rows of one data file a worker writes.
const maxRowsPerFile = 1 << 20

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
	file  *dataFileWriter
	files []dataFile

	// part splits the rows of a partitioned table (nil when it is not);
	// parts are the partitions' open files by partition key, partOrder
	// the same in order of first row; seq numbers the sink's files.
	part      *partitioner
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

// dataFile is a finished data file, ready for a Delta add action.
type dataFile struct {
	path  string // absolute
	rel   string // relative to the table root, slash-separated
	size  int64
	rows  int64
	stats string
	// partitionValues are the file's partition values (nil for a table
	// without partition columns).
	partitionValues map[string]string
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
		dir:   target.path,
		c: sinkCounts{
			passed: make([]int64, len(t.Expectations)),
			failed: make([]int64, len(t.Expectations)),
		},
	}
	s.part, s.partErr = newPartitioner(t.Codec.Schema, t.PartitionBy)
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
		f, err := newDataFile(s.dir, s.w.ctx.filePrefix, s.w.id, len(s.files), s.table.Codec.Schema)
		if err != nil {
			return err
		}
		s.file = f
	}
	if err := s.file.write(s.rows); err != nil {
		return err
	}
	s.vals, s.ends = s.vals[:0], s.ends[:0]
	if s.file.rows >= maxRowsPerFile {
		df, err := s.file.finish()
		if err != nil {
			return err
		}
		s.files = append(s.files, df)
		s.file = nil
	}
	return nil
}

func (s *Sink[T]) close() ([]dataFile, error) {
	if err := s.flush(); err != nil {
		return nil, err
	}
	if s.file != nil {
		df, err := s.file.finish()
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
		s.file.discard()
		s.file = nil
	}
	s.discardPartitions()
	for _, f := range s.files {
		storage.Remove(f.path)
	}
	s.files = nil
}

func (s *Sink[T]) counts() sinkCounts { return s.c }

// dataFileWriter is one Parquet data file being written.
type dataFileWriter struct {
	path, rel string
	// partitionValues go to the finished dataFile.
	partitionValues map[string]string
	f               storage.Writer
	buf             *bufio.Writer
	w               *parquetio.Writer
	rows            int64
}

// newDataFile creates a data file in the table folder dir, named as Spark
// names them: part-<worker>-<prefix>-<seq>.snappy.parquet, where prefix is
// unique to the flow run.
func newDataFile(dir, prefix string, worker, seq int, schema types.Schema) (*dataFileWriter, error) {
	rel := fmt.Sprintf("part-%05d-%s-c%03d.snappy.parquet", worker, prefix, seq)
	path := filepath.Join(dir, rel)
	f, err := storage.CreateFile(path, storage.Exclusive)
	if err != nil {
		return nil, err
	}
	buf := bufio.NewWriterSize(f, 1<<20)
	return &dataFileWriter{path: path, rel: rel, f: f, buf: buf, w: parquetio.NewWriter(buf, schema, parquetio.WriterOptions{})}, nil
}

// write appends rows to the file.
func (d *dataFileWriter) write(rows []parquet.Row) error {
	if err := d.w.Write(rows); err != nil {
		return fmt.Errorf("write %s: %w", d.path, err)
	}
	d.rows += int64(len(rows))
	return nil
}

// finish completes the file and makes it durable and visible (Commit): a
// commit must never name a file that is not complete in the storage.
func (d *dataFileWriter) finish() (dataFile, error) {
	info, err := d.w.Close()
	if err == nil {
		err = d.buf.Flush()
	}
	if err == nil {
		err = d.f.Commit()
	}
	if err != nil {
		d.f.Abort()
		return dataFile{}, fmt.Errorf("write %s: %w", d.path, err)
	}
	return dataFile{path: d.path, rel: d.rel, size: info.Size, rows: info.NumRecords, stats: info.Stats, partitionValues: d.partitionValues}, nil
}

func (d *dataFileWriter) discard() {
	d.f.Abort()
}

// StringValue returns a Parquet BYTE_ARRAY value holding s without copying
// it; the value is only valid while s is (generated shredding code uses it
// for rows the sink writes before they go out of use).
func StringValue(s string) parquet.Value {
	return parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(s), len(s)))
}

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
