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

// Load runs every stage on the spec at path: load → schema validate →
// resolve → check. The pipeline is nil when any diagnostic is an error;
// the diagnostics are sorted by position.
func Load(path string) (*Pipeline, Diagnostics) {
	return resolveLoaded(LoadAST(path))
}

// LoadBytes is Load for a main file held in memory; path names it in
// diagnostics and anchors relative library paths.
func LoadBytes(path string, src []byte) (*Pipeline, Diagnostics) {
	return resolveLoaded(LoadASTBytes(path, src))
}

// resolveLoaded runs the stages after loading.
func resolveLoaded(ast *SpecAST, diags Diagnostics) (*Pipeline, Diagnostics) {
	if ast == nil {
		return nil, diags
	}
	p, more := Resolve(ast)
	diags = append(diags, more...)
	diags.Sort()
	return p, diags
}
