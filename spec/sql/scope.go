package sql

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file resolves column names: a scope lists the columns an expression
// can see (the output of the plan below it, column i being ColumnRef i),
// with the qualifiers they can be named by.

// scopeCol is one column of a scope.
type scopeCol struct {
	// qual is the qualifier the column can be named with: a table alias,
	// or the table name as written (matched as a suffix: orders.amount and
	// commerce.orders.amount both name a column of commerce.orders).
	qual []string
	Column
	// qualOnly columns resolve only when qualified (the two sides' key
	// columns of a USING join, which `*` shows once, merged).
	qualOnly bool
	// starPos, when not 0, orders the column in `qual.*`: the (1-based)
	// position it had before a USING join moved the keys first, so that
	// t.* lists t's columns in t's order, as in Spark.
	starPos int
}

// scope is the columns visible to expressions over one plan's output.
type scope struct {
	cols []scopeCol
}

// newScope builds the scope of a plan's output, every column qualified by qual.
func newScope(out []Column, qual []string) *scope {
	s := &scope{cols: make([]scopeCol, len(out))}
	for i, c := range out {
		s.cols[i] = scopeCol{qual: qual, Column: c}
	}
	return s
}

// columns returns the scope's columns as plan columns.
func (s *scope) columns() []Column {
	out := make([]Column, len(s.cols))
	for i, c := range s.cols {
		out[i] = c.Column
	}
	return out
}

// qualMatches reports whether the written qualifier q names full.
func qualMatches(full []string, q []ident) bool {
	if len(q) > len(full) {
		return false
	}
	off := len(full) - len(q)
	for i, p := range q {
		if !strings.EqualFold(full[off+i], p.name) {
			return false
		}
	}
	return true
}

func (c scopeCol) qualified() string {
	if len(c.qual) == 0 {
		return c.Name
	}
	return strings.Join(append(append([]string{}, c.qual...), c.Name), ".")
}

// resolveError is a failed resolution, reported by the caller.
type resolveError struct {
	code, msg, hint string
}

// resolve finds the column a name chain starts with. It tries the longest
// qualifier first (t.col, s.t.col, c.s.t.col), then an unqualified column;
// the parts after the column are struct fields. It returns the column's
// index and the number of parts the table qualifier and column took.
func (s *scope) resolve(parts []ident) (int, int, *resolveError) {
	for k := min(len(parts)-1, 3); k >= 0; k-- {
		col := parts[k].name
		var found []int
		for i, c := range s.cols {
			if !strings.EqualFold(c.Name, col) {
				continue
			}
			if k == 0 && c.qualOnly || k > 0 && !qualMatches(c.qual, parts[:k]) {
				continue
			}
			found = append(found, i)
		}
		switch {
		case len(found) == 1:
			return found[0], k + 1, nil
		case len(found) > 1:
			names := make([]string, len(found))
			for i, f := range found {
				names[i] = s.cols[f].qualified()
			}
			return 0, k + 1, &resolveError{code: "AMBIGUOUS_REFERENCE",
				msg:  fmt.Sprintf("reference %q is ambiguous: it could be %s", joinIdents(parts[:k+1]), strings.Join(names, " or ")),
				hint: "qualify it with the table name or alias"}
		}
	}
	name := joinIdents(parts)
	return 0, 0, &resolveError{code: "UNRESOLVED_COLUMN", msg: fmt.Sprintf("column %q does not exist", name), hint: s.hint(parts)}
}

// hint suggests a column for an unresolved name.
func (s *scope) hint(parts []ident) string {
	var cands []string
	for _, c := range s.cols {
		if c.Hidden && !strings.HasPrefix(strings.ToLower(parts[0].name), "_") {
			continue
		}
		if !c.qualOnly {
			cands = append(cands, c.Name)
		}
		if len(c.qual) > 0 {
			cands = append(cands, c.qual[len(c.qual)-1]+"."+c.Name)
		}
	}
	written := joinIdents(parts)
	if len(parts) > 1 {
		written = joinIdents(parts[:2])
	}
	if s := suggest(written, cands); s != "" {
		return fmt.Sprintf("did you mean %q?", s)
	}
	var visible []string
	for _, c := range s.cols {
		if !c.Hidden && !c.qualOnly {
			visible = append(visible, c.Name)
		}
	}
	switch {
	case len(visible) == 0:
		return "the query reads no columns here"
	case len(visible) <= 12:
		return "available columns: " + strings.Join(visible, ", ")
	}
	return ""
}

func joinIdents(ids []ident) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = id.name
	}
	return strings.Join(names, ".")
}

// qualHint suggests a table qualifier for an unknown t.*.
func (s *scope) qualHint(qual []ident) string {
	var quals []string
	seen := map[string]bool{}
	for _, c := range s.cols {
		if len(c.qual) > 0 && !seen[strings.ToLower(c.qual[len(c.qual)-1])] {
			seen[strings.ToLower(c.qual[len(c.qual)-1])] = true
			quals = append(quals, c.qual[len(c.qual)-1])
		}
	}
	if s := suggest(joinIdents(qual), quals); s != "" {
		return fmt.Sprintf("did you mean %q?", s)
	}
	if len(quals) == 0 {
		return "the query reads no named tables here"
	}
	return "tables: " + strings.Join(quals, ", ")
}

// starColumns returns the indexes `*` (qual empty) or `qual.*` expands to:
// visible columns in order; qual.* includes the qualified-only key copies
// of a USING join.
func (s *scope) starColumns(qual []ident) []int {
	var out []int
	for i, c := range s.cols {
		if c.Hidden || len(qual) == 0 && c.qualOnly || len(qual) > 0 && !qualMatches(c.qual, qual) {
			continue
		}
		out = append(out, i)
	}
	if len(qual) > 0 && len(out) > 1 {
		for _, i := range out {
			if s.cols[i].starPos == 0 {
				return out
			}
		}
		slices.SortStableFunc(out, func(a, b int) int { return s.cols[a].starPos - s.cols[b].starPos })
	}
	return out
}

// structField resolves a field of a STRUCT type by name.
func structField(t types.Type, name ident) (int, *resolveError) {
	if t.Kind != types.StructKind {
		return 0, &resolveError{code: "INVALID_EXTRACT_BASE_FIELD_TYPE",
			msg: fmt.Sprintf("cannot read field %q of a %s value", name.name, t)}
	}
	i := t.FieldIndex(name.name)
	if i < 0 {
		names := make([]string, len(t.Fields))
		for j, f := range t.Fields {
			names[j] = f.Name
		}
		hint := ""
		if s := suggest(name.name, names); s != "" {
			hint = fmt.Sprintf("did you mean %q?", s)
		}
		return 0, &resolveError{code: "FIELD_NOT_FOUND", msg: fmt.Sprintf("field %q does not exist in %s", name.name, t), hint: hint}
	}
	return i, nil
}
