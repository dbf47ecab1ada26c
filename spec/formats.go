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
// the option's kind by the JSON Schema).
func (fs *Files) setOption(f FileFormat, name, v string) {
	switch p := fs.optionField(f, name).(type) {
	case *string:
		*p = v
	case *bool:
		*p = v == "true"
	default:
		panic(fmt.Sprintf("spec: format %s option %s has no field in Files", f, name)) // TestFormatOptionsHaveFields
	}
}

// setFormatDefaults gives every format's options their defaults
// (source.Formats), so that a Files value holds them whatever its format.
func (fs *Files) setFormatDefaults() {
	for _, f := range source.Formats {
		for _, o := range f.Options {
			fs.setOption(FileFormat(f.Name), o.Name, o.Default)
		}
	}
}
