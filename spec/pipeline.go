// Package spec is pipegen's front end: it loads a pipeline spec (YAML, plus
// the library files it lists) into a syntax tree with positions, validates
// it against the JSON Schema of package schema, resolves names, parameters
// and the dataset/flow graph with Spark Declarative Pipelines' rules,
// type-checks every query with package sql in topological order, and
// returns the checked model (model.go) that the code generator consumes.
//
// Every stage reports Diagnostics (file:line:col, SDP error class as the
// code), collects all it can and never panics on user input.
package spec

import "github.com/pipegen/pipegen/runtime/types"

// Load runs every stage on the spec at path: load → schema validate →
// resolve → check. The pipeline is nil when any diagnostic is an error;
// the diagnostics are sorted by position.
func Load(path string) (*Pipeline, Diagnostics) {
	return LoadWith(path, Options{})
}

// LoadWith is Load with options.
func LoadWith(path string, opts Options) (*Pipeline, Diagnostics) {
	ast, diags := LoadAST(path)
	return resolveLoaded(ast, diags, opts)
}

// Options configure loading.
type Options struct {
	// TableSchema, when set, gives the schema of an existing Delta table,
	// for table sources that declare none (the schema comes from the
	// table's log, as Databricks takes it from the catalog). ref names the
	// table with parameters expanded to their defaults. found is false
	// when no table is there; err is a table that cannot be read.
	TableSchema func(ref TableRef) (schema types.Schema, found bool, err error)
	// SchemaLog, when set, gives the columns a schema_evolution:
	// add_new_columns file source's files gained, as recorded by the
	// pipeline's program (its schema log: runtime.ReadSchemaLog), as a DDL
	// schema; they are appended to the declared schema, nullable, so the
	// program built next reads them, and a declared column it names with
	// a type the declared one widens to (types.Widens) takes that type.
	// found is false when none are recorded.
	SchemaLog func(pipeline, source string) (ddl string, found bool, err error)
}

// TableRef is a table source's table with parameters expanded: Catalog,
// Schema and Table, or Path (absolute) for delta.`path`.
type TableRef struct {
	Catalog, Schema, Table string
	Path                   string
}

// String returns catalog.schema.table or delta.`path`.
func (r TableRef) String() string {
	if r.Path != "" {
		return "delta.`" + r.Path + "`"
	}
	return r.Catalog + "." + r.Schema + "." + r.Table
}

// LoadBytes is Load for a main file held in memory; path names it in
// diagnostics and anchors relative library paths.
func LoadBytes(path string, src []byte) (*Pipeline, Diagnostics) {
	ast, diags := LoadASTBytes(path, src)
	return resolveLoaded(ast, diags, Options{})
}

// resolveLoaded runs the stages after loading.
func resolveLoaded(ast *SpecAST, diags Diagnostics, opts Options) (*Pipeline, Diagnostics) {
	if ast == nil {
		return nil, diags
	}
	p, more := resolveWith(ast, opts)
	diags = append(diags, more...)
	diags.Sort()
	return p, diags
}
