package spec

import "github.com/pipegen/pipegen/spec/sql"

// uncompilable reports the constructs of a checked query or expression
// that the code generator cannot compile (sql.Uncompilable), each at its
// position in text and named with where holds it ("flow orders"), as
// validate and build show them. They do not fail the dataset: its columns
// are known, so the queries that read it are checked too and every such
// construct of the pipeline is reported at once.
func (r *resolver) uncompilable(text Str, where string, errs []*sql.Error) {
	for _, e := range errs {
		e.Message = where + ": " + e.Message
	}
	r.sqlErrors(text, 0, errs)
}
