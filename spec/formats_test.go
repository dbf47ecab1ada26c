package spec

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/schema"
)

// TestFormatOptionsHaveFields: every option of a typed format of
// source.Formats has a field of its kind in the Files model, and every
// field of the format's option struct is one option's, so the registry
// and the model cannot drift; every other format is generic: it has a
// reader (source.Format.Open), boolean defaults are true or false, and
// its options, none of which has a field, are kept in Files.Options.
func TestFormatOptionsHaveFields(t *testing.T) {
	var fs Files
	structs := map[FileFormat]any{FormatJSON: &fs.JSON, FormatCSV: &fs.CSV, FormatParquet: &fs.Parquet}
	generic := 0
	for _, f := range source.Formats {
		ff := FileFormat(f.Name)
		st, ok := structs[ff]
		if ok == ff.Generic() || ok != ff.typed() {
			t.Errorf("format %s: typed %v, generic %v, has an option struct %v", f.Name, ff.typed(), ff.Generic(), ok)
		}
		if !ok {
			generic++
			if f.Open == nil {
				t.Errorf("format %s has neither an option struct in Files nor a generic reader (source.Format.Open)", f.Name)
			}
			g := Files{Format: ff}
			g.setFormatDefaults()
			for _, o := range f.Options {
				if fs.optionField(ff, o.Name) != nil {
					t.Errorf("generic format %s option %s has a typed field", f.Name, o.Name)
				}
				if v, ok := g.Options[o.Name]; !ok || v != o.Default {
					t.Errorf("generic format %s option %s: Options holds %q (present %v), want the default %q", f.Name, o.Name, v, ok, o.Default)
				}
				if o.Kind == source.BoolOption && o.Default != "true" && o.Default != "false" {
					t.Errorf("%s option %s: default %q is not true or false", f.Name, o.Name, o.Default)
				}
			}
			if len(g.Options) != len(f.Options) {
				t.Errorf("generic format %s: Options holds %v, the format has %d options", f.Name, g.Options, len(f.Options))
			}
			continue
		}
		if f.Open != nil {
			t.Errorf("format %s has a generated decoder and a generic reader: the generator would use only the decoder", f.Name)
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
	if len(structs)+generic != len(source.Formats) {
		t.Errorf("source.Formats has %d formats, the Files model option structs for %d and %d are generic", len(source.Formats), len(structs), generic)
	}
	if generic == 0 {
		t.Error("no generic format: the generic path (Files.Options, runtime.DecodeRows) is untested")
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

// TestFormatDefaultsApplied: a source of each format that writes no
// options holds the registry's defaults, in its typed fields or, for a
// generic format, in Files.Options; a written option replaces its default
// and leaves the others.
func TestFormatDefaultsApplied(t *testing.T) {
	var b strings.Builder
	b.WriteString("pipeline: defaults\nsources:\n")
	var names []string
	var datasets strings.Builder
	for _, f := range source.Formats {
		schema := `, schema: "a STRING"`
		if f.Columns != nil {
			schema = "" // the format's own columns
		}
		fmt.Fprintf(&b, "  s_%s: {files: {path: %s, format: %s}%s}\n", f.Name, f.Name, f.Name, schema)
		names = append(names, "s_"+f.Name)
		fmt.Fprintf(&datasets, "  t_%s: {kind: streaming_table, query: \"SELECT * FROM STREAM(s_%s)\"}\n", f.Name, f.Name)
	}
	b.WriteString("  written: {files: {path: w, format: text, text: {line_sep: \";\"}}}\n")
	b.WriteString("datasets:\n" + datasets.String())
	fmt.Fprintf(&b, "  w: {kind: streaming_table, query: \"SELECT * FROM STREAM(written)\"}\n")
	p, diags := LoadBytes("defaults.yaml", []byte(b.String()))
	if p == nil || diags.HasErrors() {
		t.Fatalf("the spec does not check: %v\n%s", diags, b.String())
	}
	for _, name := range names {
		fs := p.Source(name).Files
		for _, o := range fs.Format.Info().Options {
			if got, ok := fs.optionValue(o.Name); !ok || got != o.Default {
				t.Errorf("source %s (%s): %s is %q, want the default %q", name, fs.Format, o.Name, got, o.Default)
			}
		}
		if fs.Format.Generic() != (fs.Options != nil) {
			t.Errorf("source %s (%s): Options %v", name, fs.Format, fs.Options)
		}
	}
	if got := p.Source("written").Files.Options; !maps.Equal(got, map[string]string{"line_sep": ";", "wholetext": "false"}) {
		t.Errorf("written options: %v", got)
	}
}
