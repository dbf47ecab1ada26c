package spec

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/schema"
)

// TestSchemaStatesDefaults checks that every default the JSON Schema's
// descriptions (and so docs/spec.md, generated from them) state is the
// default the resolver applies: the values are taken from a spec that
// sets nothing, so each default is written once, in the resolver, and the
// docs are checked against it.
func TestSchemaStatesDefaults(t *testing.T) {
	src := `pipeline: defaults
sources:
  j: {files: {path: j, format: json}, schema: "a INT"}
  c: {files: {path: c, format: csv}, schema: "a INT"}
datasets:
  t: {kind: streaming_table, query: "SELECT * FROM STREAM(j) UNION ALL SELECT * FROM STREAM(c)"}
`
	p, diags := LoadBytes("defaults.yaml", []byte(src))
	if p == nil || diags.HasErrors() {
		t.Fatalf("the spec does not check: %v", diags)
	}
	j, c := p.Source("j"), p.Source("c")
	if j.Files.MaxFilesPerTrigger != source.DefaultMaxFilesPerTrigger {
		t.Errorf("max_files_per_trigger defaults to %d, want source.DefaultMaxFilesPerTrigger (%d), what the runtime's callers take", j.Files.MaxFilesPerTrigger, source.DefaultMaxFilesPerTrigger)
	}
	code := func(s string) string { return "`" + s + "`" }
	for _, d := range []struct {
		def, property string // where the schema describes it: $defs name ("" for the top level) and property
		value         string // the default, as the description writes it
	}{
		{"", "catalog", code(p.Catalog.String())},
		{"", "schema", code(p.Schema.String())},
		{"", "session_time_zone", code(p.SessionTimeZone)},
		{"source", "rescued_data_column", code(j.RescuedDataColumn)},
		{"files", "max_files_per_trigger", fmt.Sprint(j.Files.MaxFilesPerTrigger)},
		{"files", "include_existing_files", fmt.Sprint(j.Files.IncludeExistingFiles)},
		{"files", "allow_overwrites", fmt.Sprint(j.Files.AllowOverwrites)},
		{"files", "ignore_corrupt_files", fmt.Sprint(j.Files.IgnoreCorruptFiles)},
		{"files", "ignore_missing_files", fmt.Sprint(j.Files.IgnoreMissingFiles)},
		{"files", "min_file_age", fmt.Sprint(j.Files.MinFileAge.Seconds())},
		{"json_options", "allow_comments", fmt.Sprint(j.Files.JSON.AllowComments)},
		{"json_options", "allow_single_quotes", fmt.Sprint(j.Files.JSON.AllowSingleQuotes)},
		{"json_options", "allow_unquoted_field_names", fmt.Sprint(j.Files.JSON.AllowUnquotedFieldNames)},
		{"json_options", "allow_numeric_leading_zeros", fmt.Sprint(j.Files.JSON.AllowNumericLeadingZeros)},
		{"json_options", "allow_non_numeric_numbers", fmt.Sprint(j.Files.JSON.AllowNonNumericNumbers)},
		{"json_options", "date_format", code(j.Files.JSON.DateFormat)},
		{"csv_options", "header", fmt.Sprint(c.Files.CSV.Header)},
		{"csv_options", "delimiter", code(c.Files.CSV.Delimiter)},
		{"csv_options", "quote", code(c.Files.CSV.Quote)},
		{"csv_options", "escape", code(c.Files.CSV.Escape)},
		{"csv_options", "nan_value", code(c.Files.CSV.NaNValue)},
		{"csv_options", "date_format", code(c.Files.CSV.DateFormat)},
		{"csv_options", "ignore_leading_white_space", fmt.Sprint(c.Files.CSV.IgnoreLeadingWhiteSpace)},
		{"csv_options", "ignore_trailing_white_space", fmt.Sprint(c.Files.CSV.IgnoreTrailingWhiteSpace)},
		{"csv_options", "multi_line", fmt.Sprint(c.Files.CSV.MultiLine)},
		{"csv_options", "encoding", code(c.Files.CSV.Encoding)},
	} {
		desc := schemaDescription(t, d.def, d.property)
		if want := "Defaults to " + d.value; !strings.Contains(desc, want) {
			t.Errorf("the schema's description of %s.%s does not say %q, the resolver's default: %s", d.def, d.property, want, desc)
		}
	}
}

// schemaDescription returns the description of property of the schema's
// $defs entry def (the top level for "").
func schemaDescription(t *testing.T, def, property string) string {
	t.Helper()
	type object struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	var s struct {
		object
		Defs map[string]object `json:"$defs"`
	}
	if err := json.Unmarshal(schema.JSON, &s); err != nil {
		t.Fatal(err)
	}
	o := s.object
	if def != "" {
		o = s.Defs[def]
	}
	p, ok := o.Properties[property]
	if !ok {
		t.Fatalf("the schema has no property %s in %q", property, def)
	}
	return p.Description
}
