package spec

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/schema"
)

// TestFormatOptionsHaveFields: every option of source.Formats has a field
// of its kind in the Files model, and every field of the format's option
// struct is one option's, so the registry and the model cannot drift.
func TestFormatOptionsHaveFields(t *testing.T) {
	var fs Files
	structs := map[FileFormat]any{FormatJSON: &fs.JSON, FormatCSV: &fs.CSV, FormatParquet: &fs.Parquet}
	if len(structs) != len(source.Formats) {
		t.Fatalf("source.Formats has %d formats, the Files model option structs for %d", len(source.Formats), len(structs))
	}
	for _, f := range source.Formats {
		ff := FileFormat(f.Name)
		st, ok := structs[ff]
		if !ok {
			t.Errorf("format %s has no option struct in Files", f.Name)
			continue
		}
		seen := map[any]string{}
		for _, o := range f.Options {
			p := fs.optionField(ff, o.Name)
			switch p.(type) {
			case *string:
				if o.Kind != source.StringOption {
					t.Errorf("%s option %s: a string field for a non-string option", f.Name, o.Name)
				}
			case *bool:
				if o.Kind != source.BoolOption {
					t.Errorf("%s option %s: a bool field for a non-bool option", f.Name, o.Name)
				}
				if o.Default != "true" && o.Default != "false" {
					t.Errorf("%s option %s: default %q is not true or false", f.Name, o.Name, o.Default)
				}
			default:
				t.Errorf("%s option %s has no field in Files (optionField)", f.Name, o.Name)
				continue
			}
			if other, dup := seen[p]; dup {
				t.Errorf("%s options %s and %s share a field", f.Name, other, o.Name)
			}
			seen[p] = o.Name
		}
		if n := reflect.TypeOf(st).Elem().NumField(); n != len(seen) {
			t.Errorf("%s: the option struct has %d fields, source.Formats names %d options", f.Name, n, len(seen))
		}
	}
}

// TestSchemaListsFormats: the JSON Schema's `format` enum, its option
// blocks and their properties are source.Formats', and each option's
// description states the registry's default.
func TestSchemaListsFormats(t *testing.T) {
	type property struct {
		Description string `json:"description"`
		Enum        []any  `json:"enum"`
		Ref         string `json:"$ref"`
	}
	var s struct {
		Defs map[string]struct {
			Properties map[string]property `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schema.JSON, &s); err != nil {
		t.Fatal(err)
	}
	files := s.Defs["files"].Properties
	var names []any
	for _, f := range source.Formats {
		names = append(names, f.Name)
	}
	if got := files["format"].Enum; !slices.Equal(got, names) {
		t.Errorf("the schema's files.format enum is %v, source.Formats names %v", got, names)
	}
	for _, f := range source.Formats {
		def := f.Name + "_options"
		if got, want := files[f.Name].Ref, "#/$defs/"+def; got != want {
			t.Errorf("files.%s refers to %q, want %q", f.Name, got, want)
		}
		props := s.Defs[def].Properties
		var got, want []string
		for k := range props {
			got = append(got, k)
		}
		for _, o := range f.Options {
			want = append(want, o.Name)
			desc := props[o.Name].Description
			var says string
			switch {
			case o.Kind == source.BoolOption:
				says = "Defaults to " + o.Default
			case o.Default != "":
				says = "Defaults to `" + o.Default + "`"
			}
			if says != "" && !strings.Contains(desc, says) {
				t.Errorf("the schema's description of %s.%s does not say %q, the default of source.Formats: %s", def, o.Name, says, desc)
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("$defs.%s has properties %v, source.Formats' %s options are %v", def, got, f.Name, want)
		}
	}
}

// TestFormatDefaultsApplied: a source that writes no options holds the
// registry's defaults.
func TestFormatDefaultsApplied(t *testing.T) {
	src := `pipeline: defaults
sources:
  j: {files: {path: j, format: json}, schema: "a INT"}
  c: {files: {path: c, format: csv}, schema: "a INT"}
  q: {files: {path: q, format: parquet}, schema: "a INT"}
datasets:
  t: {kind: streaming_table, query: "SELECT * FROM STREAM(j) UNION ALL SELECT * FROM STREAM(c) UNION ALL SELECT * FROM STREAM(q)"}
`
	p, diags := LoadBytes("defaults.yaml", []byte(src))
	if p == nil || diags.HasErrors() {
		t.Fatalf("the spec does not check: %v", diags)
	}
	for _, name := range []string{"j", "c", "q"} {
		fs := p.Source(name).Files
		for _, o := range fs.Format.Info().Options {
			var got string
			switch v := fs.optionField(fs.Format, o.Name).(type) {
			case *string:
				got = *v
			case *bool:
				got = map[bool]string{true: "true", false: "false"}[*v]
			}
			if got != o.Default {
				t.Errorf("source %s (%s): %s is %q, want the default %q", name, fs.Format, o.Name, got, o.Default)
			}
		}
	}
}
