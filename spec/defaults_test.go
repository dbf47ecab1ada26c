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
datasets:
  t: {kind: streaming_table, query: "SELECT * FROM STREAM(j)"}
`
	p, diags := LoadBytes("defaults.yaml", []byte(src))
	if p == nil || diags.HasErrors() {
		t.Fatalf("the spec does not check: %v", diags)
	}
	j := p.Source("j")
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
		// the format options' defaults: TestSchemaListsFormats
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
