package source

import (
	"io"
	"path"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/types"
)

// The names of the file formats, as a spec writes them (`files.format`).
const (
	JSON    = "json"    // JSON lines (one JSON value per line), Spark's json source
	CSV     = "csv"     // CSV (RFC 4180), Spark's csv source
	Parquet = "parquet" // Apache Parquet, read by runtime/parquetio
)

// Format describes a file format that file sources read. Formats is the one
// list of them: the spec's loader and resolver take the format names, the
// option names and their defaults from it, `pipegen infer` the file name
// extensions, and a test checks the JSON Schema (`format`'s enum and the
// `<name>_options` objects) against it.
type Format struct {
	// Name is the format's name in a spec: `files.format`, and the key of
	// its options block (`files.csv: {...}`).
	Name string
	// Extensions are the file name extensions, lower case with the dot,
	// that `pipegen infer` takes for this format (after ".gz" or ".zst" is
	// removed).
	Extensions []string
	// Options are the reader's options, in the order the docs list them.
	Options []FormatOption

	// Open is the format's generic reader, for every format but JSON,
	// CSV and Parquet (which generated, schema-specialised decoders read;
	// Open is nil for them): it returns a reader of file f's bytes in
	// that yields rows in the canonical layout of schema (the source's
	// declared columns), taking the format's options by name
	// ("line_sep" → "\r\n"), every option present with the registry's
	// default applied, and the update's decoding options (on_malformed,
	// schema_evolution, the session time zone). Generated code reads such
	// a format with runtime.DecodeRows, whatever it is, so a new format is
	// a row here and a reader beside it. Errors name the file.
	Open func(f FileInfo, in io.Reader, schema types.Schema, options map[string]string, opts Options) (RowReader, error)
	// Columns, when not nil, are the columns every file of the format
	// has, as Spark's text source always has `value STRING`: a source of
	// the format may leave out `schema:` and then has these columns; a
	// declared schema must have as many columns of the same types (the
	// names are free, as Spark lets `.schema("line STRING")` rename
	// `value`). Such a format never finds an unknown or mistyped value,
	// so its sources have no rescued-data column and no schema evolution.
	Columns types.Schema
	// CheckOptions, when not nil, checks the options a spec writes
	// (name → value as written, only those written; the JSON Schema has
	// checked names and kinds) the way the reader will take them: it
	// returns the name of an option it refuses and why.
	CheckOptions func(options map[string]string) (name string, err error)
}

// RowReader reads the rows of one file for a format's generic reader
// (Format.Open). Each row is a parquet.Row in the canonical layout of the
// schema it was opened for (package parquetio's layout: a value per leaf
// column, with its levels), the representation a source's generated
// RowCodec assembles into its row struct.
type RowReader interface {
	// ReadRows reads up to len(rows) rows into rows (reusing their
	// capacity) and returns how many it read; the values' bytes stay
	// valid until the next call. After the last row it returns io.EOF
	// (possibly with n > 0); another error names the file.
	ReadRows(rows []parquet.Row) (n int, err error)
}

// RescuingReader is a RowReader that rescues values: Rescued returns the
// rescued-data value of row i of the last ReadRows call
// ({"column":value,...}, Databricks Auto Loader's form, without
// "_file_path", which runtime.DecodeRows adds), or "" for none.
type RescuingReader interface {
	RowReader
	Rescued(i int) string
}

// OptionKind is the type of a format option's value.
type OptionKind uint8

// Option kinds.
const (
	StringOption OptionKind = iota // any string (the spec checks some further)
	BoolOption                     // true or false
)

// FormatOption is one option of a format's reader.
type FormatOption struct {
	// Name is the option's name in a spec, Spark's name in snake case
	// ("date_format" for dateFormat).
	Name string
	Kind OptionKind
	// Default is the value the option has when a spec does not write it:
	// "true" or "false" for a BoolOption. An empty string option means
	// "none" (no comment character, ISO 8601 timestamps, ...).
	Default string
}

// Formats are the file formats, with their options and defaults (Spark's,
// except where the JSON Schema's descriptions say otherwise and why).
var Formats = []Format{
	{Name: JSON, Extensions: []string{".json", ".jsonl", ".ndjson"}, Options: []FormatOption{
		{Name: "date_format", Default: "yyyy-MM-dd"},
		{Name: "timestamp_format"},
		{Name: "allow_comments", Kind: BoolOption, Default: "false"},
		{Name: "allow_single_quotes", Kind: BoolOption, Default: "true"},
		{Name: "allow_unquoted_field_names", Kind: BoolOption, Default: "false"},
		{Name: "allow_numeric_leading_zeros", Kind: BoolOption, Default: "false"},
		{Name: "allow_non_numeric_numbers", Kind: BoolOption, Default: "true"},
		{Name: "primitives_as_string", Kind: BoolOption, Default: "false"},
	}},
	{Name: CSV, Extensions: []string{".csv", ".tsv"}, Options: []FormatOption{
		{Name: "header", Kind: BoolOption, Default: "true"},
		{Name: "delimiter", Default: ","},
		{Name: "quote", Default: `"`},
		{Name: "escape", Default: `"`},
		{Name: "comment"},
		{Name: "null_value"},
		{Name: "empty_value"},
		{Name: "nan_value", Default: "NaN"},
		{Name: "date_format", Default: "yyyy-MM-dd"},
		{Name: "timestamp_format"},
		{Name: "ignore_leading_white_space", Kind: BoolOption, Default: "false"},
		{Name: "ignore_trailing_white_space", Kind: BoolOption, Default: "false"},
		{Name: "multi_line", Kind: BoolOption, Default: "true"},
		{Name: "encoding", Default: "UTF-8"},
	}},
	{Name: Parquet, Extensions: []string{".parquet", ".parq"}, Options: []FormatOption{
		{Name: "int96_as_timestamp", Kind: BoolOption, Default: "true"},
	}},
	{Name: Text, Extensions: []string{".txt", ".log"}, Options: []FormatOption{
		{Name: "wholetext", Kind: BoolOption, Default: "false"},
		{Name: "line_sep"},
	}, Open: openText, Columns: textColumns, CheckOptions: checkTextOptions},
}

// LookupFormat returns the format named name (as a spec writes it).
func LookupFormat(name string) (*Format, bool) {
	for i := range Formats {
		if Formats[i].Name == name {
			return &Formats[i], true
		}
	}
	return nil, false
}

// FormatNames returns the formats' names, in the order of Formats, joined
// for messages: "json, csv or parquet".
func FormatNames() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = f.Name
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// FormatOfFile returns the name of the format whose extension the file
// name has (ignoring case, after a ".gz" or ".zst" suffix), or "".
func FormatOfFile(name string) string {
	name = strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(name), ".gz"), ".zst")
	ext := path.Ext(name)
	for _, f := range Formats {
		for _, e := range f.Extensions {
			if e == ext {
				return f.Name
			}
		}
	}
	return ""
}

// Option returns the format's option named name.
func (f *Format) Option(name string) (FormatOption, bool) {
	for _, o := range f.Options {
		if o.Name == name {
			return o, true
		}
	}
	return FormatOption{}, false
}
