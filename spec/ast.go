package spec

import "gopkg.in/yaml.v3"

// This file is the spec's syntax tree: the YAML as written, every node with
// its position, nothing resolved yet. Load builds it after the document has
// passed the JSON Schema, so the shapes below are the schema's.

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
	Files           []*File // main file first
	Pipeline        Str
	Description     Str
	Parameters      []*ParamDecl
	Checks          []Str
	Catalog         Str
	Schema          Str
	Trigger         *TriggerDecl
	SessionTimeZone Str
	Libraries       []Str
	Sources         []*SourceDecl
	Datasets        []*DatasetDecl
	Flows           []*FlowDecl
}

// ParamDecl is one entry of `parameters:`.
type ParamDecl struct {
	Name        Str
	Type        Str
	Default     Str // the default as written; DefaultTag says how YAML typed it
	DefaultTag  string
	Description Str
}

// TriggerDecl is the pipeline's `trigger:`.
type TriggerDecl struct {
	Pos      Pos
	Mode     Str // available_now or once; empty when Interval is set
	Interval Str
}

// SourceDecl is one entry of `sources:`.
type SourceDecl struct {
	Name              Str
	Files             *FilesDecl
	Table             Str
	Schema            Str
	RescuedDataColumn Str
	// NoRescuedData is set by rescued_data_column: false.
	NoRescuedData bool
}

// FilesDecl is a source's `files:`.
type FilesDecl struct {
	Pos                  Pos
	Path                 Str
	Format               Str
	Options              []*FormatOptionsDecl // the json:, csv: and parquet: sections written
	MaxFilesPerTrigger   Int
	MaxBytesPerTrigger   Str // a size as written: "512mb" or "1048576"
	IncludeExistingFiles Bool
	AllowOverwrites      Bool
	PathGlobFilter       Str
	MinFileAge           Str // a Go duration as written
	IgnoreCorruptFiles   Bool
	IgnoreMissingFiles   Bool
	OnMalformed          Str
	SchemaEvolution      Str
}

// FormatOptionsDecl is one format's option section (`csv: {...}`).
type FormatOptionsDecl struct {
	Format Str // the section's key: json, csv or parquet
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
	Kind         Str
	Comment      Str
	Properties   []KeyValue
	PartitionBy  StrList
	Schema       Str
	Query        Str
	Expectations []*ExpectationDecl
	// ReadChangeFeed makes the dataset's query read the tables it streams
	// as their change data feed.
	ReadChangeFeed Bool
	// Watermark is the event-time watermark of the stream the query reads.
	Watermark *WatermarkDecl
}

// WatermarkDecl is a dataset's or flow's `watermark:`, the spec's form of
// the SQL clause WATERMARK column DELAY OF interval.
type WatermarkDecl struct {
	Pos    Pos
	Column Str
	Delay  Str
}

// ExpectationDecl is one entry of a dataset's `expectations:`.
type ExpectationDecl struct {
	Pos         Pos
	Name        Str
	Expr        Str
	OnViolation Str
}

// FlowDecl is one entry of `flows:`.
type FlowDecl struct {
	Name    Str
	Target  Str
	Query   Str
	Once    Bool
	Comment Str
	AutoCDC *AutoCDCDecl
	// ReadChangeFeed makes the flow's query read the tables it streams as
	// their change data feed.
	ReadChangeFeed Bool
	// Watermark is the event-time watermark of the stream the query reads.
	Watermark *WatermarkDecl
}

// AutoCDCDecl is a flow's `auto_cdc:`.
type AutoCDCDecl struct {
	Pos                       Pos
	Source                    Str
	Keys                      StrList
	SequenceBy                StrList
	IgnoreNullUpdates         Bool
	ApplyAsDeletes            Str
	ApplyAsTruncates          Str
	Columns                   StrList
	ExceptColumns             StrList
	SCDType                   Int
	TrackHistoryColumns       StrList
	TrackHistoryExceptColumns StrList
}
