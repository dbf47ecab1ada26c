package spec

import (
	"fmt"

	"github.com/pipegen/pipegen/runtime/source"
)

// FileFormat is the format of a file source's files: the name of one of
// source.Formats, the one list of formats, their options and defaults.
type FileFormat string

// File formats.
const (
	FormatJSON    FileFormat = source.JSON    // JSON lines
	FormatCSV     FileFormat = source.CSV     // CSV (RFC 4180)
	FormatParquet FileFormat = source.Parquet // Parquet
)

// String returns the format's spelling in the spec.
func (f FileFormat) String() string { return string(f) }

// Info returns the format's entry in source.Formats (nil for a format
// that is not one).
func (f FileFormat) Info() *source.Format {
	info, _ := source.LookupFormat(string(f))
	return info
}

// Generic reports whether f is read by its registry entry's generic reader
// (source.Format.Open; the generated code calls runtime.DecodeRows with
// the row codec): every registered format but JSON, CSV and Parquet. Its
// options are kept by name in Files.Options; the typed formats' options
// are fields of Files.JSON, Files.CSV and Files.Parquet (optionField).
func (f FileFormat) Generic() bool {
	info := f.Info()
	return info != nil && info.Open != nil && !f.typed()
}

// typed reports whether f's options are fields of a typed struct of Files.
func (f FileFormat) typed() bool {
	return f == FormatJSON || f == FormatCSV || f == FormatParquet
}

// optionField returns the field of the Files model that holds option name
// of format f: a *string for a source.StringOption, a *bool for a
// source.BoolOption; nil when the format has no such option. It is the
// one mapping between source.Formats' option names and the model's typed
// option structs (TestFormatOptionsHaveFields checks that it covers both).
func (fs *Files) optionField(f FileFormat, name string) any {
	var fields map[string]any
	switch f {
	case FormatJSON:
		j := &fs.JSON
		fields = map[string]any{
			"date_format": &j.DateFormat, "timestamp_format": &j.TimestampFormat,
			"allow_comments": &j.AllowComments, "allow_single_quotes": &j.AllowSingleQuotes,
			"allow_unquoted_field_names": &j.AllowUnquotedFieldNames, "allow_numeric_leading_zeros": &j.AllowNumericLeadingZeros,
			"allow_non_numeric_numbers": &j.AllowNonNumericNumbers, "primitives_as_string": &j.PrimitivesAsString,
		}
	case FormatCSV:
		c := &fs.CSV
		fields = map[string]any{
			"header": &c.Header, "delimiter": &c.Delimiter, "quote": &c.Quote, "escape": &c.Escape, "comment": &c.Comment,
			"null_value": &c.NullValue, "empty_value": &c.EmptyValue, "nan_value": &c.NaNValue,
			"date_format": &c.DateFormat, "timestamp_format": &c.TimestampFormat,
			"ignore_leading_white_space": &c.IgnoreLeadingWhiteSpace, "ignore_trailing_white_space": &c.IgnoreTrailingWhiteSpace,
			"multi_line": &c.MultiLine, "encoding": &c.Encoding,
		}
	case FormatParquet:
		fields = map[string]any{"int96_as_timestamp": &fs.Parquet.Int96AsTimestamp}
	}
	return fields[name]
}

// setOption sets option o of format f to value v (already checked to be of
// the option's kind by the JSON Schema): in its typed field, or in
// Files.Options for a generic format.
func (fs *Files) setOption(f FileFormat, name, v string) {
	if !f.typed() {
		if fs.Options == nil {
			fs.Options = map[string]string{}
		}
		fs.Options[name] = v
		return
	}
	switch p := fs.optionField(f, name).(type) {
	case *string:
		*p = v
	case *bool:
		*p = v == "true"
	default:
		panic(fmt.Sprintf("spec: format %s option %s has no field in Files", f, name)) // TestFormatOptionsHaveFields
	}
}

// setFormatDefaults gives every typed format's options their defaults
// (source.Formats), so that a Files value holds them whatever its format,
// and Options the defaults of fs.Format's when it is generic.
func (fs *Files) setFormatDefaults() {
	for _, f := range source.Formats {
		if ff := FileFormat(f.Name); ff.typed() || ff == fs.Format {
			for _, o := range f.Options {
				fs.setOption(ff, o.Name, o.Default)
			}
		}
	}
}

// optionValue returns option name of fs's format as the registry writes
// values ("true"/"false" for a BoolOption), and whether it has one.
func (fs *Files) optionValue(name string) (string, bool) {
	if !fs.Format.typed() {
		v, ok := fs.Options[name]
		return v, ok
	}
	switch v := fs.optionField(fs.Format, name).(type) {
	case *string:
		return *v, true
	case *bool:
		if *v {
			return "true", true
		}
		return "false", true
	}
	return "", false
}
