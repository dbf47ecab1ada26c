package table

import (
	"bufio"
	"fmt"
	"path"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/types"
)

// MaxRowsPerFile bounds the rows of one data file a worker writes: a sink
// finishes its file and starts another past it.
const MaxRowsPerFile = 1 << 20

// DataFile is a finished data file of a table, ready for a Delta add
// action (see Handle.CommitAppend, Handle.CommitReplace).
type DataFile struct {
	// Path is the file's location; Rel is its path relative to the table
	// root, slash-separated, as the add action names it.
	Path, Rel string
	// Size is the file's size in bytes, Rows its number of rows, and Stats
	// the add's statistics JSON (numRecords, minValues, maxValues,
	// nullCount).
	Size, Rows int64
	Stats      string
	// PartitionValues are the file's partition values, serialized as the
	// Delta protocol's partitionValues (nil for a table without partition
	// columns).
	PartitionValues map[string]string
}

// FileWriter is one Parquet data file of a table being written, in the
// canonical layout of its schema (package parquetio). Nothing reads it
// before a commit names the DataFile that Finish returns.
type FileWriter struct {
	path, rel string
	// partitionValues go to the finished DataFile.
	partitionValues map[string]string
	f               storage.Writer
	buf             *bufio.Writer
	w               *parquetio.Writer
	rows            int64
}

// NewFileWriter creates a data file in the table folder dir, named as
// Spark names them: part-<worker>-<prefix>-<seq>.snappy.parquet, where
// prefix is unique to the flow run (worker is five digits, seq three).
// The file is created exclusively (storage.Exclusive): a crash leaves at
// most a partial file that no commit names, which vacuum removes.
func NewFileWriter(dir, prefix string, worker, seq int, schema types.Schema) (*FileWriter, error) {
	rel := fmt.Sprintf("part-%05d-%s-c%03d.snappy.parquet", worker, prefix, seq)
	path := storage.Join(dir, rel)
	f, err := storage.CreateFile(path, storage.Exclusive)
	if err != nil {
		return nil, err
	}
	buf := bufio.NewWriterSize(f, 1<<20)
	return &FileWriter{path: path, rel: rel, f: f, buf: buf, w: parquetio.NewWriter(buf, schema, parquetio.WriterOptions{})}, nil
}

// Path returns the file's location.
func (d *FileWriter) Path() string { return d.path }

// Rows returns the number of rows written so far.
func (d *FileWriter) Rows() int64 { return d.rows }

// Partition records that the file belongs to the partition with values pv,
// whose folder dir (relative to the table root, delta.PartitionPath) the
// file was created in: the finished DataFile names the file relative to
// the table root and carries pv for its add action.
func (d *FileWriter) Partition(dir string, pv map[string]string) {
	d.rel = path.Join(dir, d.rel)
	d.partitionValues = pv
}

// Write appends rows, canonical rows of the file's schema, to the file.
func (d *FileWriter) Write(rows []parquet.Row) error {
	if err := d.w.Write(rows); err != nil {
		return fmt.Errorf("write %s: %w", d.path, err)
	}
	d.rows += int64(len(rows))
	return nil
}

// Finish completes the file and makes it durable and visible (Commit): a
// commit must never name a file that is not complete in the storage. On
// error the file is removed.
func (d *FileWriter) Finish() (DataFile, error) {
	info, err := d.w.Close()
	if err == nil {
		err = d.buf.Flush()
	}
	if err == nil {
		err = d.f.Commit()
	}
	if err != nil {
		d.f.Abort()
		return DataFile{}, fmt.Errorf("write %s: %w", d.path, err)
	}
	return DataFile{Path: d.path, Rel: d.rel, Size: info.Size, Rows: info.NumRecords, Stats: info.Stats, PartitionValues: d.partitionValues}, nil
}

// Discard removes the file being written.
func (d *FileWriter) Discard() {
	d.f.Abort()
}
