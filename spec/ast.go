package spec

import "gopkg.in/yaml.v3"

// This file is the spec's syntax tree: the YAML as written, every node with
// its position, nothing resolved yet. Load builds it after the document has
// passed the JSON Schema, so the shapes below are the schema's; each field's
// `yaml` tag names its key, and decode (decode.go) fills the fields by their
// tags (TestSyntaxTreeTagsCoverSchema keeps tags and schema in step).

// File is one loaded YAML file of a pipeline.
type File struct {
	// Path is the file's path as given (libraries: joined with the main
	// file's directory).
	Path string
	// Src is the file's content.
	Src []byte
	// Library is true for files listed under `libraries:`.
	Library bool

	root  *yaml.Node
	lines []string // Src split into lines, without line breaks
}

func (f *File) pos(n *yaml.Node) Pos {
	if n == nil {
		return Pos{File: f.Path}
	}
	return Pos{File: f.Path, Line: n.Line, Col: n.Column}
}

// Str is a string scalar of the spec: its value and where it is written.
// A Str whose Pos has Line 0 was absent.
type Str struct {
	Value string
	Pos   Pos

	node *yaml.Node
	file *File
	// parent and shift are set for a part of a scalar (a part of a dotted
	// name): its offsets are those of parent plus shift.
	parent *Str
	shift  int
}

// Set reports whether the scalar was written in the spec.
func (s Str) Set() bool { return s.Pos.Line != 0 }

// Bool is a boolean scalar of the spec.
type Bool struct {
	Value bool
	Pos   Pos
}

// Set reports whether the scalar was written in the spec.
func (b Bool) Set() bool { return b.Pos.Line != 0 }

// Int is an integer scalar of the spec.
type Int struct {
	Value int64
	Pos   Pos
}

// Set reports whether the scalar was written in the spec.
func (i Int) Set() bool { return i.Pos.Line != 0 }

// StrList is a YAML sequence of strings (or, where the schema allows it, a
// single string; Scalar is then true).
type StrList struct {
	Items  []Str
	Pos    Pos
	Scalar bool
}

// Set reports whether the list was written in the spec.
func (l StrList) Set() bool { return l.Pos.Line != 0 }

// SpecAST is a whole pipeline as written: the main file's settings plus the
// sources, datasets and flows of the main file and its libraries, in file
// order.
type SpecAST struct {
	Files           []*File        // main file first
	Pipeline        Str            `yaml:"pipeline"`
	Description     Str            `yaml:"description"`
	Parameters      []*ParamDecl   `yaml:"parameters,named"`
	Checks          []Str          `yaml:"checks"`
	Catalog         Str            `yaml:"catalog"`
	Schema          Str            `yaml:"schema"`
	Trigger         *TriggerDecl   `yaml:"trigger"`
	SessionTimeZone Str            `yaml:"session_time_zone"`
	Libraries       []Str          `yaml:"libraries"`
	Sources         []*SourceDecl  `yaml:"sources,named"`
	Datasets        []*DatasetDecl `yaml:"datasets,named"`
	Flows           []*FlowDecl    `yaml:"flows,named"`
}

// ParamDecl is one entry of `parameters:`.
type ParamDecl struct {
	Name        Str
	Type        Str `yaml:"type"`
	Default     Str `yaml:"default"` // the default as written; DefaultTag says how YAML typed it
	DefaultTag  string
	Description Str `yaml:"description"`
}

// TriggerDecl is the pipeline's `trigger:`.
type TriggerDecl struct {
	Pos      Pos
	Mode     Str // available_now or once; empty when Interval is set
	Interval Str `yaml:"interval"`
}

// SourceDecl is one entry of `sources:`.
type SourceDecl struct {
	Name              Str
	Files             *FilesDecl `yaml:"files"`
	Table             Str        `yaml:"table"`
	Schema            Str        `yaml:"schema"`
	RescuedDataColumn Str        `yaml:"rescued_data_column"`
	// NoRescuedData is set by rescued_data_column: false.
	NoRescuedData bool
}

// FilesDecl is a source's `files:`.
type FilesDecl struct {
	Pos                  Pos
	Path                 Str                  `yaml:"path"`
	Format               Str                  `yaml:"format"`
	Options              []*FormatOptionsDecl // the json:, csv: and parquet: sections written
	MaxFilesPerTrigger   Int                  `yaml:"max_files_per_trigger"`
	MaxBytesPerTrigger   Str                  `yaml:"max_bytes_per_trigger"` // a size as written: "512mb" or "1048576"
	IncludeExistingFiles Bool                 `yaml:"include_existing_files"`
	AllowOverwrites      Bool                 `yaml:"allow_overwrites"`
	PathGlobFilter       Str                  `yaml:"path_glob_filter"`
	MinFileAge           Str                  `yaml:"min_file_age"` // a Go duration as written
	IgnoreCorruptFiles   Bool                 `yaml:"ignore_corrupt_files"`
	IgnoreMissingFiles   Bool                 `yaml:"ignore_missing_files"`
	OnMalformed          Str                  `yaml:"on_malformed"`
	SchemaEvolution      Str                  `yaml:"schema_evolution"`
}

// FormatOptionsDecl is one format's option section (`csv: {...}`).
type FormatOptionsDecl struct {
	Format Str // the section's key: a format name of source.Formats (json, csv, ...)
	Values []KeyValue
}

// KeyValue is one key and scalar value of a mapping (options, properties).
type KeyValue struct {
	Key   Str
	Value Str
	Tag   string // the value's YAML tag: !!str, !!int, !!bool, ...
}

// DatasetDecl is one entry of `datasets:`.
type DatasetDecl struct {
	Name         Str
	Kind         Str                `yaml:"kind"`
	Comment      Str                `yaml:"comment"`
	Properties   []KeyValue         `yaml:"properties"`
	PartitionBy  StrList            `yaml:"partition_by"`
	Schema       Str                `yaml:"schema"`
	Query        Str                `yaml:"query"`
	Expectations []*ExpectationDecl `yaml:"expectations"`
	// ReadChangeFeed makes the dataset's query read the tables it streams
	// as their change data feed.
	ReadChangeFeed Bool `yaml:"read_change_feed"`
	// Watermark is the event-time watermark of the stream the query reads.
	Watermark *WatermarkDecl `yaml:"watermark"`
}

// WatermarkDecl is a dataset's or flow's `watermark:`, the spec's form of
// the SQL clause WATERMARK column DELAY OF interval.
type WatermarkDecl struct {
	Pos    Pos
	Column Str `yaml:"column"`
	Delay  Str `yaml:"delay"`
}

// ExpectationDecl is one entry of a dataset's `expectations:`.
type ExpectationDecl struct {
	Pos         Pos
	Name        Str `yaml:"name"`
	Expr        Str `yaml:"expr"`
	OnViolation Str `yaml:"on_violation"`
}

// FlowDecl is one entry of `flows:`.
type FlowDecl struct {
	Name    Str
	Target  Str          `yaml:"target"`
	Query   Str          `yaml:"query"`
	Once    Bool         `yaml:"once"`
	Comment Str          `yaml:"comment"`
	AutoCDC *AutoCDCDecl `yaml:"auto_cdc"`
	// ReadChangeFeed makes the flow's query read the tables it streams as
	// their change data feed.
	ReadChangeFeed Bool `yaml:"read_change_feed"`
	// Watermark is the event-time watermark of the stream the query reads.
	Watermark *WatermarkDecl `yaml:"watermark"`
}

// AutoCDCDecl is a flow's `auto_cdc:`.
type AutoCDCDecl struct {
	Pos                       Pos
	Source                    Str     `yaml:"source"`
	Keys                      StrList `yaml:"keys"`
	SequenceBy                StrList `yaml:"sequence_by"`
	IgnoreNullUpdates         Bool    `yaml:"ignore_null_updates"`
	ApplyAsDeletes            Str     `yaml:"apply_as_deletes"`
	ApplyAsTruncates          Str     `yaml:"apply_as_truncates"`
	Columns                   StrList `yaml:"columns"`
	ExceptColumns             StrList `yaml:"except_columns"`
	SCDType                   Int     `yaml:"scd_type"`
	TrackHistoryColumns       StrList `yaml:"track_history_columns"`
	TrackHistoryExceptColumns StrList `yaml:"track_history_except_columns"`
}
