package schema

import (
	"fmt"
	"sort"
	"strings"
)

// docSection is one section of docs/spec.md: heading, $defs name ("" for
// the root) and an introduction.
type docSection struct{ title, def, intro string }

// docSections are the schema objects docs/spec.md describes, in order. The
// options of a format not listed here (files.format's enum, whose names
// runtime/source's registry fixes) get a section after the last options
// section (formatSections), so a new format needs no change here.
var docSections = []docSection{
	{"Top level", "", "The main spec file."},
	{"Parameters", "parameter", "Each entry of `parameters:`, by name. Refer to a parameter as `${name}` in any string, and as a value in SQL (`amount > ${min_amount}`); `$${` writes a literal `${`."},
	{"Sources", "source", "Each entry of `sources:`, by name. A file source exposes, besides its declared columns, the rescued-data column (STRING) and a hidden `_metadata` column `STRUCT<file_path: STRING, file_name: STRING, file_size: BIGINT, file_modification_time: TIMESTAMP>` that only explicit references (`_metadata.file_path`) read."},
	{"Files", "files", "A source's `files:`."},
	{"JSON options", "json_options", "`files.json:` (format json)."},
	{"CSV options", "csv_options", "`files.csv:` (format csv). `header` defaults to true: with a declared schema, that is what a folder of CSV exports holds."},
	{"Parquet options", "parquet_options", "`files.parquet:` (format parquet)."},
	{"Datasets", "dataset", "Each entry of `datasets:`, by name."},
	{"Expectations", "expectation", "Each item of a dataset's `expectations:`."},
	{"Flows", "flow", "Each entry of `flows:`, by name."},
	{"Watermark", "watermark", "A dataset's or flow's `watermark:`."},
	{"AUTO CDC", "auto_cdc", "A flow's `auto_cdc:`."},
	{"Library files", "library", "Each file listed under `libraries:`."},
}

// Markdown returns the reference of the spec format (docs/spec.md),
// generated from the schema's descriptions so that the docs, the editor
// hover texts and the validator never disagree.
func Markdown() (string, error) {
	doc, err := Document()
	if err != nil {
		return "", err
	}
	defs, _ := doc["$defs"].(map[string]any)
	var b strings.Builder
	b.WriteString(docIntro)
	for _, s := range formatSections(defs) {
		obj := doc
		if s.def != "" {
			obj, _ = defs[s.def].(map[string]any)
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", s.title, s.intro)
		if d, _ := obj["description"].(string); d != "" && s.def != "" {
			fmt.Fprintf(&b, "\n%s\n", d)
		}
		props, _ := obj["properties"].(map[string]any)
		if len(props) == 0 {
			continue
		}
		req := map[string]bool{}
		if r, ok := obj["required"].([]any); ok {
			for _, k := range r {
				req[fmt.Sprint(k)] = true
			}
		}
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.SliceStable(keys, func(i, j int) bool {
			if req[keys[i]] != req[keys[j]] {
				return req[keys[i]]
			}
			return keys[i] < keys[j]
		})
		b.WriteString("\n| key | type | description |\n| --- | --- | --- |\n")
		for _, k := range keys {
			p, _ := props[k].(map[string]any)
			name := "`" + k + "`"
			if req[k] {
				name += " (required)"
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", name, typeText(p, defs), cell(describe(p, defs)))
		}
	}
	return b.String(), nil
}

// formatSections returns docSections with a section for the options of
// each format of files.format's enum that docSections does not describe,
// "Text options" for `text`, after the last options section.
func formatSections(defs map[string]any) []docSection {
	listed := map[string]bool{}
	last := 0
	for i, s := range docSections {
		if strings.HasSuffix(s.def, "_options") {
			listed[s.def] = true
			last = i
		}
	}
	var extra []docSection
	files, _ := defs["files"].(map[string]any)
	props, _ := files["properties"].(map[string]any)
	format, _ := props["format"].(map[string]any)
	enum, _ := format["enum"].([]any)
	for _, v := range enum {
		name := fmt.Sprint(v)
		if def := name + "_options"; !listed[def] && defs[def] != nil && name != "" {
			title := strings.ToUpper(name[:1]) + name[1:] + " options"
			extra = append(extra, docSection{title, def, fmt.Sprintf("`files.%s:` (format %s).", name, name)})
		}
	}
	out := append([]docSection(nil), docSections[:last+1]...)
	out = append(out, extra...)
	return append(out, docSections[last+1:]...)
}

// describe returns a property's description, or that of the definition it
// refers to.
func describe(p map[string]any, defs map[string]any) string {
	if d, _ := p["description"].(string); d != "" {
		return d
	}
	if ref, ok := p["$ref"].(string); ok {
		if d, ok := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any); ok {
			s, _ := d["description"].(string)
			return s
		}
	}
	return ""
}

// typeText renders a property's JSON type for the reference.
func typeText(p map[string]any, defs map[string]any) string {
	if ref, ok := p["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/$defs/")
		switch name {
		case "identifier":
			return "name"
		case "sql":
			return "SQL"
		case "duration":
			return "duration"
		case "size":
			return "size"
		case "sources", "datasets", "flows":
			return "map of " + strings.TrimSuffix(name, "s")
		}
		if strings.HasSuffix(name, "_options") {
			return "options" // a format's options block
		}
		return name
	}
	if e, ok := p["enum"].([]any); ok {
		var vs []string
		for _, v := range e {
			vs = append(vs, fmt.Sprintf("`%v`", v))
		}
		return strings.Join(vs, " \\| ")
	}
	if _, ok := p["anyOf"]; ok {
		return "`available_now` \\| `once` \\| `{interval: duration}`"
	}
	if alts, ok := p["oneOf"].([]any); ok {
		// e.g. rescued_data_column: a name or false
		var vs []string
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok {
				if c, ok := m["const"]; ok {
					vs = append(vs, fmt.Sprintf("`%v`", c))
				} else {
					vs = append(vs, typeText(m, defs))
				}
			}
		}
		return strings.Join(vs, " \\| ")
	}
	switch t := p["type"].(type) {
	case string:
		if t == "array" {
			if it, ok := p["items"].(map[string]any); ok {
				if _, ok := it["$ref"].(string); ok {
					return "list of " + typeText(it, defs)
				}
			}
			return "list of strings"
		}
		if t == "object" {
			if ap, ok := p["additionalProperties"].(map[string]any); ok {
				if r, ok := ap["$ref"].(string); ok {
					return "map of " + strings.TrimPrefix(r, "#/$defs/")
				}
			}
			return "map"
		}
		return t
	case []any:
		var ts []string
		for _, x := range t {
			ts = append(ts, fmt.Sprint(x))
		}
		return strings.Join(ts, " or ")
	}
	return ""
}

func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

const docIntro = `# pipegen spec reference

<!-- Generated from schema/pipegen.schema.json by TestSpecDocIsCurrent; edit the schema's descriptions, then run go test ./schema -run TestSpecDocIsCurrent -update. -->

A pipeline is one YAML file (plus the library files it lists). Its shape is
described by the JSON Schema that ` + "`pipegen schema`" + ` prints; point your editor at it
for completion and hover help:

` + "```yaml" + `
# yaml-language-server: $schema=./pipegen.schema.json
pipeline: orders
parameters:
  target_catalog: {default: main_dev}
catalog: ${target_catalog}
schema: commerce
sources:
  raw_orders:
    files: {path: landing/orders, format: json}
    schema: order_id STRING NOT NULL, amount DECIMAL(12,2), event_ts TIMESTAMP
datasets:
  orders_bronze:
    kind: streaming_table
    query: SELECT *, _metadata.file_path AS source_file FROM STREAM(raw_orders)
  daily_revenue:
    kind: materialized_view
    expectations:
      - {name: positive, expr: revenue >= 0, on_violation: fail}
    query: |
      SELECT to_date(event_ts) AS day, sum(amount) AS revenue
      FROM orders_bronze GROUP BY to_date(event_ts)
` + "```" + `

Semantics are those of Spark Declarative Pipelines and Databricks Lakeflow
Declarative Pipelines: queries are Spark SQL; ` + "`STREAM(x)`" + ` reads x incrementally and
plain ` + "`x`" + ` reads its current snapshot. A streaming table is written by streaming
queries (append flows, once flows, AUTO CDC); a materialized view by one batch
query; a temporary view is inlined where it is read. Names of sources, datasets
and flows share one namespace across all files; unqualified table names resolve
against ` + "`catalog`" + ` and ` + "`schema`" + `. ` + "`pipegen validate`" + ` reports every problem as
` + "`file:line:col: message [CODE]`" + `, with Spark's error class as the code where one exists.
`
