package spec

import (
	"fmt"
	"path/filepath"
)

// schemaFromLog gives a table source that declares no schema its table's
// schema, read from the table's Delta log through Options.TableSchema
// (the compiler does not read tables itself), with the parameters'
// defaults: the program is type-checked against the table as it is at
// build time, and the run checks the table still has those columns
// (runtime's checkTableSources). Without the option, or without the
// table, the source stays schema-less: reading it is an error
// (refsOf) that says where the table was looked for.
func (r *resolver) schemaFromLog(s *Source, d *SourceDecl, rl *rel) {
	rl.noSchema = true
	if r.opts.TableSchema == nil {
		return
	}
	defaults := map[string]string{}
	for name, p := range r.params {
		defaults[name] = p.DefaultText()
	}
	n := s.Table
	ref := TableRef{Catalog: n.Catalog.Expand(defaults), Schema: n.Schema.Expand(defaults), Table: n.Table.Expand(defaults)}
	if len(n.Path.Parts) > 0 {
		ref = TableRef{Path: n.Path.Expand(defaults)}
		if !filepath.IsAbs(ref.Path) {
			ref.Path = filepath.Join(filepath.Dir(d.Name.file.Path), ref.Path)
		}
	}
	schema, found, err := r.opts.TableSchema(ref)
	switch {
	case err != nil:
		r.errorf(d.Table.Pos, "", "declare schema: for the source, or fix the table", "source %q: table %s cannot be read: %v", s.Name, ref, err)
		rl.failed = true
	case !found:
		rl.noSchemaWhy = fmt.Sprintf(" (looked for %s)", ref)
	default:
		rl.noSchema = false
		s.Schema = schema
		s.SchemaFromLog = true
	}
}
