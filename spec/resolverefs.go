package spec

import (
	"regexp"
	"strings"
	_ "time/tzdata" // session_time_zone is checked wherever pipegen runs

	"github.com/pipegen/pipegen/spec/sql"
)

// parseQueries parses every query and resolves the names it reads.
func (r *resolver) parseQueries() {
	for _, rl := range r.relOrder {
		if rl.kind == relTV && rl.dsDecl.Query.Set() {
			rl.text = rl.dsDecl.Query
			var ok bool
			rl.query, rl.refs, ok = r.parseQuery(rl.text)
			if !ok {
				rl.failed = true
			}
		}
	}
	for _, fn := range r.flows {
		switch {
		case fn.cdc != nil:
			fn.refs = r.cdcSourceRef(fn)
		case fn.text.Set():
			var ok bool
			fn.query, fn.refs, ok = r.parseQuery(fn.text)
			if !ok {
				fn.failed = true
			}
		}
		if fn.failed && fn.target != nil {
			fn.target.failed = true
		}
	}
}

// parseQuery parses a query and resolves its references; ok is false when
// it has errors.
func (r *resolver) parseQuery(text Str) (*sql.Query, []ref, bool) {
	r.checkSQLParams(text)
	q, errs := sql.ParseQuery(text.Value)
	r.sqlErrors(text, 0, errs)
	if q == nil && len(errs) == 0 {
		r.errorf(text.Pos, "INTERNAL", "please report this", "the SQL parser returned neither a query nor an error")
	}
	if q == nil || len(errs) > 0 {
		return q, nil, false
	}
	refs, ok := r.resolveRefs(text, 0, q.References())
	return q, refs, ok
}

// resolveRefs binds table references to sources and datasets.
func (r *resolver) resolveRefs(text Str, shift int, trs []sql.TableRef) ([]ref, bool) {
	ok := true
	var refs []ref
	for _, tr := range trs {
		f := ref{TableRef: tr, text: text, shift: shift}
		f.rel = r.lookup(tr.Parts)
		name := strings.Join(tr.Parts, ".")
		switch {
		case f.rel == nil:
			var names []string
			for _, rl := range r.relOrder {
				names = append(names, rl.name)
			}
			hint := didYouMean(tr.Parts[len(tr.Parts)-1], names)
			if hint == "" {
				hint = "declare it under sources: or datasets:"
			}
			r.errorf(f.pos(), "TABLE_OR_VIEW_NOT_FOUND", hint, "table or view %q does not exist", name)
			ok = false
			continue
		case f.rel.noSchema:
			r.errorf(f.pos(), "", "add schema: to source "+f.rel.name+", or build where its table exists (pipegen --warehouse DIR)",
				"source %q is read but has no declared schema, and its table %s was not found%s", f.rel.name, f.rel.src.Table, f.rel.noSchemaWhy)
			ok = false
		}
		refs = append(refs, f)
	}
	return refs, ok
}

// lookup resolves a table name as written (1 to 3 parts): a source or
// dataset by its name, a dataset by its qualified name, or a table source
// by the table name it reads.
func (r *resolver) lookup(parts []string) *rel {
	if len(parts) == 0 {
		return nil
	}
	if len(parts) == 1 {
		return r.rels[strings.ToLower(parts[0])]
	}
	written := strings.Join(parts, ".")
	for _, rl := range r.relOrder {
		switch {
		case rl.src != nil && rl.src.Kind == TableSource:
			if n := rl.src.Table; len(n.Path.Parts) > 0 {
				if len(parts) == 2 && strings.EqualFold(parts[0], "delta") && parts[1] == n.Path.String() {
					return rl
				}
			} else if strings.EqualFold(written, n.String()) || len(parts) == 2 && strings.EqualFold(written, n.Schema.String()+"."+n.Table.String()) {
				return rl
			}
		case rl.ds != nil && rl.kind != relTV && strings.EqualFold(parts[len(parts)-1], rl.name):
			if strings.EqualFold(parts[len(parts)-2], r.p.Schema.String()) && (len(parts) == 2 || strings.EqualFold(parts[0], r.p.Catalog.String())) {
				return rl
			}
		}
	}
	return nil
}

var streamRE = regexp.MustCompile(`^(?i:(\s*stream\s*\(\s*)([^()\s]+)\s*\)\s*|(\s*stream\s+)([^()\s]+)\s*|(\s*)([^()\s]+)\s*)$`)

// cdcSourceRef resolves an auto_cdc source: `STREAM(name)`, `STREAM name`
// or `name`, always read as a stream.
func (r *resolver) cdcSourceRef(fn *flowNode) []ref {
	src := fn.cdc.Source
	r.checkSQLParams(src)
	m := streamRE.FindStringSubmatch(src.Value)
	if m == nil {
		r.errorf(src.Pos, "", "write STREAM(name) of a source or streaming table", "auto_cdc source %q is not a table name", src.Value)
		fn.failed = true
		return nil
	}
	var lead, name string
	for i := 1; i+1 < len(m); i += 2 {
		if m[i+1] != "" {
			lead, name = m[i], m[i+1]
		}
	}
	tr := sql.TableRef{Parts: strings.Split(name, "."), Streaming: true, Offset: len(lead), End: len(lead) + len(name)}
	refs, ok := r.resolveRefs(src, 0, []sql.TableRef{tr})
	if !ok {
		fn.failed = true
	}
	return refs
}
