package spec

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/schema"
)

// TestSyntaxTreeTagsCoverSchema checks that every key the JSON Schema
// allows in a mapping has a tagged field in the syntax-tree type decode
// fills (or is read by that type's afterDecode), and that no tag names a
// key the schema does not have: a key added to one and not the other is
// caught here, not by a spec whose setting is silently ignored.
func TestSyntaxTreeTagsCoverSchema(t *testing.T) {
	doc, err := schema.Document()
	if err != nil {
		t.Fatal(err)
	}
	defs := doc["$defs"].(map[string]any)
	props := func(def map[string]any) []string {
		var keys []string
		for k := range def["properties"].(map[string]any) {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return keys
	}
	cases := []struct {
		def   string
		of    map[string]any
		typ   reflect.Type
		extra []string // keys afterDecode reads
	}{
		{def: "(root)", of: doc, typ: reflect.TypeFor[SpecAST]()},
		{def: "library", typ: reflect.TypeFor[SpecAST]()},
		{def: "parameter", typ: reflect.TypeFor[ParamDecl]()},
		{def: "source", typ: reflect.TypeFor[SourceDecl]()},
		{def: "files", typ: reflect.TypeFor[FilesDecl](), extra: formatKeys()},
		{def: "dataset", typ: reflect.TypeFor[DatasetDecl]()},
		{def: "expectation", typ: reflect.TypeFor[ExpectationDecl]()},
		{def: "flow", typ: reflect.TypeFor[FlowDecl]()},
		{def: "watermark", typ: reflect.TypeFor[WatermarkDecl]()},
		{def: "auto_cdc", typ: reflect.TypeFor[AutoCDCDecl]()},
	}
	for _, c := range cases {
		def := c.of
		if def == nil {
			def = defs[c.def].(map[string]any)
		}
		tags := map[string]bool{}
		for i := range c.typ.NumField() {
			if name, _, _ := strings.Cut(c.typ.Field(i).Tag.Get("yaml"), ","); name != "" {
				tags[name] = true
			}
		}
		for _, k := range c.extra {
			tags[k] = true
		}
		inSchema := map[string]bool{}
		for _, k := range props(def) {
			inSchema[k] = true
			if !tags[k] {
				t.Errorf("schema %s allows %q, but %s has no field tagged yaml:%q: the setting would be ignored", c.def, k, c.typ.Name(), k)
			}
		}
		if c.def == "library" {
			continue // a library holds a part of the root's keys
		}
		for k := range tags {
			if !inSchema[k] {
				t.Errorf("%s has a field tagged yaml:%q, which schema %s does not allow", c.typ.Name(), k, c.def)
			}
		}
	}
}

// formatKeys are the registered format names, the keys of a files
// source's option sections.
func formatKeys() []string {
	var names []string
	for _, f := range source.Formats {
		names = append(names, f.Name)
	}
	return names
}
