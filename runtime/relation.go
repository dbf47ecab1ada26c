package runtime

import (
	"io"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/table"
	"github.com/pipegen/pipegen/runtime/types"
)

// RowCodec converts between a generated row struct T and rows in the
// canonical Parquet layout of Schema (see package parquetio). Generated code
// supplies both directions, specialised to the struct.
type RowCodec[T any] struct {
	// Schema is the table's schema; T has one field per column, in order.
	Schema types.Schema
	// Shred appends r's values to row, ordered by leaf column, and returns
	// the extended row.
	Shred func(r *T, row parquet.Row) parquet.Row
	// Assemble fills r from a canonical row. Strings and byte slices are
	// copied into a (they must not alias the row's buffers, which the
	// Parquet reader reuses).
	Assemble func(row parquet.Row, r *T, a *Arena) error
}

// FileDecoder decodes one file of a file source into rows of T, handing
// them to emit in chunks (emit may keep the chunk: the decoder must not
// reuse it). It returns the decoder's counts; a *source.DecodeError when
// on_malformed is fail and a record is malformed.
type FileDecoder[T any] func(f source.FileInfo, r io.Reader, opts source.Options, emit func(rows []T) error) (source.Stats, error)

// FileSource is a landing folder of files of one of source.Formats (JSON
// lines, CSV, Parquet, text; DESIGN.md section 2; Databricks Auto Loader
// semantics: each file is ingested once, hidden and temporary files are
// skipped, malformed records go to the rescued-data column).
type FileSource[T any] struct {
	Name string
	// Path is the folder, as written in the spec (may hold ${param}).
	// Relative paths are resolved against the run's base directory.
	Path   string
	Format string // the name of one of source.Formats: "json", "csv", "parquet", "text", ...
	// MaxFilesPerTrigger and MaxBytesPerTrigger bound a micro-batch (0 means
	// no bound); at least one file is always taken.
	MaxFilesPerTrigger int
	MaxBytesPerTrigger int64
	// IncludeExistingFiles false skips the files present at the first update.
	IncludeExistingFiles bool
	// AllowOverwrites ingests a file again, once per change, when its size
	// or modification time changed since it was ingested (Auto Loader's
	// cloudFiles.allowOverwrites); every file of the folder is stat-ed at
	// each update.
	AllowOverwrites bool
	// PathGlobFilter keeps only the files whose name matches this glob
	// (Spark's pathGlobFilter, with {a,b} alternation); "" keeps all.
	PathGlobFilter string
	// MinFileAge, in nanoseconds, leaves files modified less than this
	// before the update started for a later update (0: none).
	MinFileAge int64
	// IgnoreCorruptFiles and IgnoreMissingFiles skip a file that cannot be
	// read, or is gone, recording it as skipped (Spark's
	// ignoreCorruptFiles and ignoreMissingFiles); otherwise the update
	// fails naming the file.
	IgnoreCorruptFiles bool
	IgnoreMissingFiles bool
	// OnMalformed is what decoders do with malformed records.
	OnMalformed source.OnMalformed
	// NewColumns is what a decoder does with a field (JSON), header name
	// (CSV) or column (Parquet) the schema does not declare
	// (schema_evolution).
	NewColumns source.NewColumns
	// Schema are the columns of T: the declared ones, the rescued-data
	// column and the hidden _metadata column.
	Schema types.Schema
	// Decode is the generated decoder for Format.
	Decode FileDecoder[T]
}

// SourceName implements Source.
func (s *FileSource[T]) SourceName() string { return s.Name }

// TableSource is an existing Delta table the pipeline reads but does not
// write (`table: catalog.schema.name` in the spec).
type TableSource[T any] struct {
	Name string
	// Table is the three-part name as written (may hold ${param}); the table
	// lives at <warehouse>/<catalog>/<schema>/<name>.
	Table string
	Codec RowCodec[T]
}

// SourceName implements Source.
func (s *TableSource[T]) SourceName() string { return s.Name }

// ExpectationAction is what happens to a row that violates an expectation.
type ExpectationAction string

// Expectation actions (SDP / Databricks expectations).
const (
	// Warn keeps the row and counts the violation.
	Warn ExpectationAction = "warn"
	// Drop removes the row and counts it.
	Drop ExpectationAction = "drop"
	// Fail stops the flow's micro-batch without committing anything and
	// fails the update, naming the rule and the row.
	Fail ExpectationAction = "fail"
)

// Expectation is a named data-quality rule on a dataset. Only TRUE passes:
// NULL is a violation, as in Delta CHECK constraints.
type Expectation[T any] struct {
	Name   string
	Text   string // the SQL expression as written
	Action ExpectationAction
	// Check evaluates the rule on a row with the update's parameters (an
	// expectation may use ${param}); an error is an expression that failed
	// at run time (ANSI), which fails the flow.
	Check func(r *T, p *Params) (types.Null[bool], error)
}

// Table is a streaming table or a materialized view the pipeline writes.
type Table[T any] struct {
	Name string
	Kind DatasetKind
	// Catalog, Schema and Table name the table (may hold ${param}); it
	// lives at <warehouse>/<catalog>/<schema>/<table>.
	Catalog, Schema, Table string
	Comment                string
	Properties             map[string]string
	PartitionBy            []string
	Codec                  RowCodec[T]
	Expectations           []Expectation[T]
}

// DatasetName implements Dataset.
func (t *Table[T]) DatasetName() string { return t.Name }

// Arena holds copies of strings and byte slices read from Parquet pages. It
// hands out memory that is never written again, so values stay valid as
// long as they are referenced; a full slab is replaced, never reused.
type Arena struct {
	buf []byte
}

const arenaSlab = 256 << 10

// Bytes returns a copy of b that lives in the arena.
func (a *Arena) Bytes(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	if cap(a.buf)-len(a.buf) < len(b) {
		a.buf = make([]byte, 0, max(arenaSlab, len(b)))
	}
	start := len(a.buf)
	a.buf = append(a.buf, b...)
	return a.buf[start:len(a.buf):len(a.buf)]
}

// String returns b as a string copied into the arena.
func (a *Arena) String(b []byte) string {
	c := a.Bytes(b)
	if len(c) == 0 {
		return ""
	}
	return unsafeString(c)
}

// datasetDesc is the runtime's non-generic view of a Table: the
// descriptor of its table and its expectations.
type datasetDesc struct {
	*table.Desc
	expectations []string
	// expectationActions are the expectations' actions, in the same order.
	expectationActions []ExpectationAction
}

func (t *Table[T]) datasetDesc() *datasetDesc {
	d := &datasetDesc{Desc: &table.Desc{
		Name: t.Name, Kind: t.Kind, Catalog: t.Catalog, Schema: t.Schema, Table: t.Table,
		Comment: t.Comment, Properties: t.Properties, PartitionBy: t.PartitionBy, Columns: t.Codec.Schema,
	}}
	if d.Table == "" {
		d.Table = t.Name
	}
	for _, e := range t.Expectations {
		d.expectations = append(d.expectations, e.Name)
		d.expectationActions = append(d.expectationActions, e.Action)
	}
	return d
}

func (s *TableSource[T]) tableName() string { return s.Table }

func (s *FileSource[T]) fileInfo() FileSourceInfo {
	return FileSourceInfo{
		Name: s.Name,
		Dir:  s.Path,
		Limits: source.Limits{
			MaxFiles: s.MaxFilesPerTrigger,
			MaxBytes: s.MaxBytesPerTrigger,
		},
		IncludeExisting:    s.IncludeExistingFiles,
		AllowOverwrites:    s.AllowOverwrites,
		PathGlobFilter:     s.PathGlobFilter,
		MinFileAge:         time.Duration(s.MinFileAge),
		IgnoreCorruptFiles: s.IgnoreCorruptFiles,
		IgnoreMissingFiles: s.IgnoreMissingFiles,
	}
}
