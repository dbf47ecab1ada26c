package spec

import (
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// This file is the checked model of a pipeline, what the code generator
// consumes. Everything in it is resolved and settled: names are qualified,
// parameters typed, SQL type-checked into plans, columns typed, flows
// classified, the update order fixed and Go identifiers chosen (exported,
// unique in their scope, no keyword clashes), so package gen never
// recomputes any of it. Semantics are those of Spark Declarative Pipelines
// and Databricks Lakeflow Declarative Pipelines unless a comment says
// otherwise.

// Pipeline is one checked pipeline spec.
type Pipeline struct {
	// Name is the pipeline's name (`pipeline:`).
	Name        string
	Description string
	// File is the main spec file's path as given to Load; Files lists it
	// and then the library files, as given or joined with File's directory.
	File  string
	Files []string
	// Parameters are the pipeline's parameters in spec order.
	Parameters []*Parameter
	// Checks are asserted at the start of every update.
	Checks []*Check
	// Catalog and Schema are the defaults of unqualified dataset names
	// ("main" and "default" when the spec does not set them).
	Catalog, Schema Template
	Trigger         Trigger
	// SessionTimeZone is the IANA time zone of SQL evaluation ("UTC" by
	// default), Spark's spark.sql.session.timeZone.
	SessionTimeZone string
	// Sources in spec order (main file, then libraries in order).
	Sources []*Source
	// Tables are the streaming tables and materialized views, in update
	// order: every table comes after the tables its flows read.
	Tables []*Dataset
	// Views are the temporary views, in dependency order. They are not
	// stored: sql.Check inlines them into the plans that read them; they
	// are here for explain and lineage.
	Views []*Dataset
	// Flows are all flows in update order: a flow comes after every flow
	// that writes a table it reads. Within a table, its default flow comes
	// first, then named flows in spec order.
	Flows []*Flow
}

// Source returns the source named name, or nil.
func (p *Pipeline) Source(name string) *Source {
	for _, s := range p.Sources {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Dataset returns the table or view named name, or nil.
func (p *Pipeline) Dataset(name string) *Dataset {
	for _, ds := range [][]*Dataset{p.Tables, p.Views} {
		for _, d := range ds {
			if d.Name == name {
				return d
			}
		}
	}
	return nil
}

// Flow returns the flow named name, or nil.
func (p *Pipeline) Flow(name string) *Flow {
	for _, f := range p.Flows {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// ParamType is the type of a pipeline parameter.
type ParamType uint8

// Parameter types.
const (
	StringParam   ParamType = iota // Go string, SQL STRING
	IntParam                       // Go int64, SQL BIGINT
	BoolParam                      // Go bool, SQL BOOLEAN
	DurationParam                  // Go time.Duration, SQL INTERVAL DAY TO SECOND
)

var paramTypeNames = [...]string{"string", "int", "bool", "duration"}

// String returns the type's spelling in the spec.
func (t ParamType) String() string { return paramTypeNames[t] }

// SQLType returns the Spark type of a parameter of type t.
func (t ParamType) SQLType() types.Type {
	switch t {
	case IntParam:
		return types.LongType
	case BoolParam:
		return types.BooleanType
	case DurationParam:
		return types.IntervalType
	}
	return types.StringType
}

// Parameter is a value of the generated program, overridable at run time
// with `--param name=value`.
type Parameter struct {
	Name   string
	GoName string // unique among parameters
	Type   ParamType
	// Default is the value without `--param`: a string, int64, bool or
	// time.Duration by Type; nil when the parameter has no default and
	// must be given at run time.
	Default     any
	Description string
	Pos         Pos
}

// DefaultText returns the default as it would be written after --param
// (durations in Go syntax), or "" when there is none.
func (p *Parameter) DefaultText() string {
	switch v := p.Default.(type) {
	case string:
		return v
	case int64:
		return formatInt(v)
	case bool:
		if v {
			return "true"
		}
		return "false"
	case time.Duration:
		return v.String()
	}
	return ""
}

// Check is a pipeline-level assertion over parameters.
type Check struct {
	// Text is the SQL expression as written.
	Text string
	// Expr is the typed BOOLEAN expression; it reads parameters
	// (sql.ParamRef) only.
	Expr sql.Expr
	Pos  Pos
}

// Template is a string that may refer to parameters (`${name}`), expanded
// when the program runs. Parts alternate as written; a part is either
// literal text or a parameter reference.
type Template struct {
	Parts []TemplatePart
}

// TemplatePart is literal Text, or, when Param is set, the value of that
// parameter.
type TemplatePart struct {
	Text  string
	Param string
}

// Lit returns a Template of literal text.
func Lit(s string) Template {
	if s == "" {
		return Template{}
	}
	return Template{Parts: []TemplatePart{{Text: s}}}
}

// String returns the template as written, `${name}` included.
func (t Template) String() string {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Param != "" {
			b.WriteString("${" + p.Param + "}")
		} else {
			b.WriteString(strings.ReplaceAll(p.Text, "${", "$${"))
		}
	}
	return b.String()
}

// IsLiteral reports whether t refers to no parameter.
func (t Template) IsLiteral() bool {
	for _, p := range t.Parts {
		if p.Param != "" {
			return false
		}
	}
	return true
}

// Expand returns the template with each parameter replaced by
// values[name]; a parameter missing from values expands to "".
func (t Template) Expand(values map[string]string) string {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Param != "" {
			b.WriteString(values[p.Param])
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// TriggerMode says when flows advance.
type TriggerMode uint8

// Trigger modes (DESIGN.md, "trigger").
const (
	// AvailableNow processes the backlog present at the start of the
	// update, in micro-batches, then exits (the default).
	AvailableNow TriggerMode = iota
	// TriggerOnce runs one micro-batch per flow, then exits.
	TriggerOnce
	// TriggerInterval keeps running, one update per Interval.
	TriggerInterval
)

// Trigger is the pipeline's default trigger.
type Trigger struct {
	Mode     TriggerMode
	Interval time.Duration // TriggerInterval only
}

// TableName is a three-part table name; each part may refer to parameters.
// A table source may instead name its table by path, Spark's
// delta.`/path/to/table`: then Path is set (relative paths are relative to
// the spec's folder) and the parts are not.
type TableName struct {
	Catalog, Schema, Table Template
	Path                   Template
}

// String returns "catalog.schema.table" as written, or delta.`path`.
func (n TableName) String() string {
	if len(n.Path.Parts) > 0 {
		return "delta.`" + strings.ReplaceAll(n.Path.String(), "`", "``") + "`"
	}
	return n.Catalog.String() + "." + n.Schema.String() + "." + n.Table.String()
}

// Column is a column of a source, dataset or plan, with its Go field name.
type Column struct {
	Name string
	// GoName is the exported Go field name, unique within the relation.
	GoName   string
	Type     types.Type
	Nullable bool
	// Hidden columns (a file source's _metadata) are not part of `*`.
	Hidden  bool
	Comment string
}

// SQL returns the column as sql.Check sees it.
func (c Column) SQL() sql.Column {
	return sql.Column{Name: c.Name, Type: c.Type, Nullable: c.Nullable, Hidden: c.Hidden}
}

// SourceKind says where a source's rows come from.
type SourceKind uint8

// Source kinds.
const (
	FileSource  SourceKind = iota // a landing folder of files
	TableSource                   // an existing Delta table
)

// Source is an input the pipeline does not produce.
type Source struct {
	Name   string
	GoName string // unique among sources, tables and views
	Pos    Pos
	Kind   SourceKind
	// Files is set for file sources.
	Files *Files
	// Table is set for table sources: its qualified name, defaults from
	// the pipeline's catalog and schema.
	Table TableName
	// Schema is the declared schema, or for a table source declared
	// without one its table's schema read at build time (SchemaFromLog;
	// see Options.TableSchema); nil when that table was not found (no
	// query may read it then).
	Schema        types.Schema
	SchemaFromLog bool
	// RescuedDataColumn is the name of the STRING column that collects
	// values that do not fit Schema (file sources; "_rescued_data" by
	// default, Auto Loader's); "" when rescued_data_column: false (such
	// values are then NULL, and still counted).
	RescuedDataColumn string
	// Columns are the columns queries see: Schema's, then (file sources)
	// the rescued-data column, then the hidden _metadata column
	// STRUCT<file_path: STRING, file_name: STRING, file_size: BIGINT,
	// file_modification_time: TIMESTAMP>.
	Columns []Column
}

// SchemaEvolution says what a field the source's schema does not declare
// does: a field of a JSON record (top level or nested), a name of a CSV
// header, a column (or struct field) of a Parquet file.
type SchemaEvolution uint8

// Schema evolution modes (Auto Loader's names in snake case).
const (
	// RescueNewColumns puts the field in the rescued-data column (the
	// default, Auto Loader's rescue); Parquet columns not declared are not
	// read.
	RescueNewColumns SchemaEvolution = iota
	// FailOnNewColumns fails the update, naming the file, line and field.
	FailOnNewColumns
	// IgnoreNewColumns drops the field (Auto Loader's none).
	IgnoreNewColumns
	// AddNewColumns (Auto Loader's addNewColumns) stops the update at a
	// micro-batch holding new top-level columns, after the program
	// records them in the pipeline's schema log; building again adds them
	// to the source's schema (Options.SchemaLog).
	AddNewColumns
)

// OnMalformed says what a malformed record does.
type OnMalformed uint8

// Malformed-record policies.
const (
	// Rescue puts the record's unreadable values in the rescued-data
	// column and counts it (the default).
	Rescue OnMalformed = iota
	// FailOnMalformed fails the update.
	FailOnMalformed
)

// Files describes a file source: a landing folder ingested incrementally,
// each file once (Auto Loader semantics).
type Files struct {
	// Path is the folder as written; relative paths are relative to Dir.
	Path Template
	// Dir is the directory of the spec file that declares the source.
	Dir    string
	Format FileFormat
	// MaxFilesPerTrigger bounds the files of one micro-batch (default
	// source.DefaultMaxFilesPerTrigger).
	MaxFilesPerTrigger int
	// MaxBytesPerTrigger is a soft bound of the bytes of one micro-batch;
	// 0 means no bound.
	MaxBytesPerTrigger int64
	// IncludeExistingFiles says whether files present at the first update
	// are ingested (default true).
	IncludeExistingFiles bool
	// AllowOverwrites ingests a file again when its size or modification
	// time changed since it was ingested (cloudFiles.allowOverwrites).
	AllowOverwrites bool
	// PathGlobFilter is a glob matched against each file's name (Spark's
	// pathGlobFilter, with {a,b} alternation); files that do not match are
	// never listed. "" keeps every file.
	PathGlobFilter string
	// MinFileAge leaves files modified less than this before the update
	// started for a later update (0: none).
	MinFileAge time.Duration
	// IgnoreCorruptFiles and IgnoreMissingFiles skip (and record) a file
	// that cannot be read or is gone (Spark's ignoreCorruptFiles and
	// ignoreMissingFiles).
	IgnoreCorruptFiles bool
	IgnoreMissingFiles bool
	OnMalformed        OnMalformed
	// SchemaEvolution is what a field the schema does not declare does
	// (Auto Loader's cloudFiles.schemaEvolutionMode); for CSV it needs
	// a header.
	SchemaEvolution SchemaEvolution
	// Exactly the options of Format are meaningful; all hold their
	// defaults when not written.
	JSON    JSONOptions
	CSV     CSVOptions
	Parquet ParquetOptions
	// Options are the options of a generic format (FileFormat.Generic,
	// e.g. text), by their names in the spec (source.FormatOption.Name):
	// every option of the format, written or defaulted, as the spec
	// writes values ("true"/"false" for a BoolOption); nil for the typed
	// formats above. The generated code hands them to the format's reader.
	Options map[string]string
}

// JSONOptions are the JSON-lines reader's options, with Spark's meanings.
type JSONOptions struct {
	DateFormat               string // default "yyyy-MM-dd"
	TimestampFormat          string // "" means ISO 8601
	AllowComments            bool
	AllowSingleQuotes        bool // default true
	AllowUnquotedFieldNames  bool
	AllowNumericLeadingZeros bool
	AllowNonNumericNumbers   bool // default true
	PrimitivesAsString       bool
}

// CSVOptions are the CSV reader's options, with Spark's meanings.
type CSVOptions struct {
	Header                   bool   // default true
	Delimiter                string // default ","
	Quote                    string // default `"`; "" disables quoting
	Escape                   string // default `"` (RFC 4180 doubling)
	Comment                  string // "" means none
	NullValue                string // default ""
	EmptyValue               string // default ""
	NaNValue                 string // default "NaN"
	DateFormat               string // default "yyyy-MM-dd"
	TimestampFormat          string // "" means ISO 8601
	IgnoreLeadingWhiteSpace  bool
	IgnoreTrailingWhiteSpace bool
	MultiLine                bool   // default true
	Encoding                 string // default "UTF-8"
}

// ParquetOptions are the Parquet reader's options.
type ParquetOptions struct {
	Int96AsTimestamp bool // default true
}

// DatasetKind is the kind of a dataset.
type DatasetKind uint8

// Dataset kinds.
const (
	StreamingTable DatasetKind = iota
	MaterializedView
	TemporaryView
)

var datasetKindNames = [...]string{"streaming_table", "materialized_view", "temporary_view"}

// String returns the kind's spelling in the spec.
func (k DatasetKind) String() string { return datasetKindNames[k] }

// Dataset is a streaming table, materialized view or temporary view.
type Dataset struct {
	Name   string
	GoName string // unique among sources, tables and views
	Pos    Pos
	Kind   DatasetKind
	// Table is the qualified name (tables only): the pipeline's catalog
	// and schema, and Name.
	Table      TableName
	Comment    Template
	Properties []Property // in spec order
	// PartitionBy are indexes into Columns.
	PartitionBy []int
	// Columns is the dataset's schema: the declared one when given
	// (checked against the flows), else derived from the flows' plans (the
	// union by name of their outputs, in order of first appearance).
	Columns []Column
	// Declared reports whether the schema was declared in the spec.
	Declared     bool
	Expectations []*Expectation
	// Flows write the table: the default flow first. Empty for views.
	Flows []*Flow
	// View is the checked plan of a temporary view.
	View sql.Plan
	// Reads are the relations a view's query names, other views included
	// (tables: see their flows).
	Reads []Input
}

// Schema returns the dataset's columns as a types.Schema.
func (d *Dataset) Schema() types.Schema {
	s := make(types.Schema, len(d.Columns))
	for i, c := range d.Columns {
		s[i] = types.Field{Name: c.Name, Type: c.Type, Nullable: c.Nullable, Comment: c.Comment}
	}
	return s
}

// Property is a table property (Delta `configuration`).
type Property struct {
	Key   string
	Value Template
}

// Action is what a row that violates an expectation does.
type Action uint8

// Expectation actions.
const (
	Warn Action = iota // keep the row, count the violation (default)
	Drop               // drop the row, count it
	Fail               // fail the flow's batch and the update
)

var actionNames = [...]string{"warn", "drop", "fail"}

// String returns the action's spelling in the spec.
func (a Action) String() string { return actionNames[a] }

// Expectation is a named data-quality rule. Only TRUE passes: NULL is a
// violation, as in Delta CHECK constraints.
type Expectation struct {
	Name string
	Text string
	// Expr is the typed BOOLEAN expression over the dataset's Columns
	// (sql.ColumnRef indexes into Columns).
	Expr   sql.Expr
	Action Action
	Pos    Pos
}

// FlowKind is how a flow writes its target.
type FlowKind uint8

// Flow kinds (SDP's).
const (
	// AppendFlow is a streaming flow: each micro-batch of its streaming
	// inputs is appended to the streaming table.
	AppendFlow FlowKind = iota
	// CompleteFlow recomputes a materialized view from a batch query.
	CompleteFlow
	// OnceFlow runs its batch query once per full refresh and appends the
	// result (a backfill).
	OnceFlow
	// AutoCDCFlow applies a change feed to the table (AUTO CDC).
	AutoCDCFlow
)

var flowKindNames = [...]string{"append", "complete", "once", "auto_cdc"}

// String returns the kind's name as explain prints it.
func (k FlowKind) String() string { return flowKindNames[k] }

// Flow writes one table.
type Flow struct {
	Name   string
	GoName string // unique among flows
	Pos    Pos
	Target *Dataset
	Kind   FlowKind
	// Default is true for a table's own query (the flow has the table's
	// name).
	Default bool
	Comment string
	// SQL is the query text as written (not for AUTO CDC flows).
	SQL string
	// Plan is the checked plan of the query; its output columns match the
	// target's Columns by name (not for AUTO CDC flows).
	Plan sql.Plan
	// Inputs are the sources and tables the flow reads, temporary views
	// looked through, in order of first appearance: what the runtime
	// tracks (checkpoints, upstream versions).
	Inputs []Input
	// Reads are the relations the query names, temporary views included
	// (for lineage).
	Reads   []Input
	AutoCDC *AutoCDC
	// Stateful is the stateful operator of a streaming table flow whose
	// stream has a watermark (an aggregation by time window, a
	// deduplication), kept in the flow's checkpoint between micro-batches;
	// nil for a stateless flow.
	Stateful *sql.Stateful
	// Refresh is how a materialized view flow may refresh incrementally
	// (refresh.go); for other flows its Technique is "".
	Refresh RefreshPlan
	// text is the query as read from the spec, for SQLPos.
	text Str
}

// SQLPos returns the position in the spec of byte offset off of the flow's
// query text, where package sql and the code generator report problems;
// the flow's own position when off is negative or the flow has no query.
func (f *Flow) SQLPos(off int) Pos {
	if off < 0 || f.text.Value == "" {
		return f.Pos
	}
	return f.text.PosAt(off)
}

// Input is one relation a flow or view reads.
type Input struct {
	// Name is the source's or dataset's name.
	Name string
	// Streaming is true for STREAM(name): only rows added since the
	// flow's checkpoint are read. Otherwise the current snapshot.
	Streaming bool
	// ChangeFeed is true for STREAM(name) of a table read as its change
	// data feed (read_change_feed): its rows are the table's changes, with
	// the columns of Dataset.ChangeFeedColumns.
	ChangeFeed bool
	// Exactly one of Source and Dataset (a table, or a view in Reads) is
	// set.
	Source  *Source
	Dataset *Dataset
}

// AutoCDC is an AUTO CDC flow's settings, resolved to column indexes
// (Databricks "AUTO CDC", formerly APPLY CHANGES).
type AutoCDC struct {
	// Source is the change feed, always read as a stream.
	Source Input
	// SourceColumns are the change feed's visible columns; the indexes
	// below point into them unless said otherwise.
	SourceColumns []Column
	Keys          []int
	// SequenceBy orders the changes of a key; several columns compare as a
	// struct, in order. SequenceType is the single column's type or that
	// STRUCT.
	SequenceBy        []int
	SequenceType      types.Type
	IgnoreNullUpdates bool
	// ApplyAsDeletes and ApplyAsTruncates are BOOLEAN expressions over
	// SourceColumns; nil when absent.
	ApplyAsDeletes   sql.Expr
	ApplyAsTruncates sql.Expr
	// Columns are the source columns written to the target, in the
	// target's column order; SCD type 2 targets then have __START_AT and
	// __END_AT of SequenceType.
	Columns []int
	// SCDType is 1 or 2.
	SCDType int
	// TrackHistory (SCD type 2) are indexes into SourceColumns of the
	// columns whose change opens a new history row; nil means all of
	// Columns.
	TrackHistory []int
}
