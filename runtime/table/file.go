package table

import (
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/types"
)

// File is a data file to read: its path, Delta partition values and
// deletion vector, and how its table's files are read (column mapping).
type File struct {
	// Path is the file's location; Size its size in bytes (the add's size).
	Path            string
	Size            int64
	partitionValues map[string]string
	stats           string // the add's statistics JSON, "" if none
	dv              *delta.DeletionVector
	layout          *delta.FileLayout
}

// Open opens the file for reading as schema (logical column names): its
// partition values filled in, its columns found by physical name or id
// under column mapping, the rows its deletion vector deletes left out.
func (f File) Open(schema types.Schema) (*delta.FileReader, error) {
	return f.layout.Open(f.Path, f.partitionValues, f.dv, schema)
}

// FileOf is the File of add action a of the table at location table,
// whose files are read as layout says (delta.Snapshot.Layout).
func FileOf(table string, layout *delta.FileLayout, a delta.Add) File {
	return File{Path: delta.FilePath(table, a.Path), Size: a.Size, partitionValues: a.PartitionValues, stats: a.Stats, dv: a.DeletionVector, layout: layout}
}
