// Package sql is pipegen's front end for the Spark SQL SELECT subset: a
// lexer and parser (Spark SQL grammar, ANSI mode), and a checker that
// resolves names against the pipeline's sources and datasets, applies Spark's
// type coercion rules and produces a typed Plan (plan.go) for the code
// generator.
//
// Positions are byte offsets into the SQL text given to the parser; package
// spec maps them to file:line:col inside the YAML scalar the text came from.
package sql

import (
	"errors"

	"github.com/pipegen/pipegen/runtime/types"
)

// Error is one diagnostic inside a SQL text.
type Error struct {
	// Offset is the byte offset of the offending token in the SQL text;
	// End, when greater than Offset, is the offset just past it.
	Offset, End int
	// Code is the Spark / SDP error class when one exists, e.g.
	// "UNRESOLVED_COLUMN", "PARSE_SYNTAX_ERROR", "DATATYPE_MISMATCH".
	Code string
	// Message is lower-case, without a trailing period, and names the thing:
	// `column "amout" does not exist`.
	Message string
	// Hint says what to do, e.g. `did you mean "amount"?`; may be empty.
	Hint string
}

func (e *Error) Error() string {
	if e.Hint != "" {
		return e.Message + " (" + e.Hint + ")"
	}
	return e.Message
}

// TableRef is one relation a query reads, as written.
type TableRef struct {
	// Parts are the identifier's parts as written: ["t"], ["s", "t"] or
	// ["c", "s", "t"], unquoted.
	Parts []string
	// Streaming is true for STREAM(name) (and STREAM name).
	Streaming bool
	// Watermark is true when a WATERMARK clause follows the name.
	Watermark bool
	// Offset and End delimit the name in the SQL text.
	Offset, End int
}

// Query is a parsed SELECT statement (an AST; see Check for the typed form).
type Query struct {
	text string
	// ast is set by the parser.
	ast any
}

// Text returns the SQL text the query was parsed from.
func (q *Query) Text() string { return q.text }

// ParseQuery parses a query (SELECT ..., WITH ... SELECT ..., VALUES ...,
// set operations). It returns every syntax error it can find; q is nil when
// the text does not parse.
func ParseQuery(text string) (q *Query, errs []*Error) {
	p := newParser(text)
	var stmt *queryStmt
	p.parseTop(func() { stmt = p.parseQueryStmt() })
	if len(p.errs) > 0 {
		return nil, sortErrors(p.errs)
	}
	return &Query{text: text, ast: stmt}, nil
}

// References returns the relations q reads, in order of appearance, without
// names bound by its WITH clauses. Relations read by subqueries (in FROM,
// IN, EXISTS or scalar subqueries) are included. A `${param}` part of a
// name is kept as written, e.g. ["${source_catalog}", "crm", "customers"].
func (q *Query) References() []TableRef {
	stmt, ok := q.ast.(*queryStmt)
	if !ok {
		return nil
	}
	var refs []TableRef
	collectQueryRefs(stmt, nil, &refs)
	return refs
}

// ParsedExpr is a parsed scalar expression (an expectation or a check).
type ParsedExpr struct {
	text string
	ast  any
}

// ParseExpr parses a scalar expression such as `amount > 0 AND id IS NOT NULL`.
func ParseExpr(text string) (*ParsedExpr, []*Error) {
	p := newParser(text)
	var e astExpr
	p.parseTop(func() {
		if p.peek().kind == tEOF {
			p.fail(p.peek(), "expected an expression")
		}
		e = p.parseExpr()
	})
	if len(p.errs) > 0 {
		return nil, sortErrors(p.errs)
	}
	return &ParsedExpr{text: text, ast: e}, nil
}

// Text returns the SQL text the expression was parsed from.
func (e *ParsedExpr) Text() string { return e.text }

// RelationKind says what a name in FROM refers to.
type RelationKind uint8

// Relation kinds.
const (
	SourceRelation RelationKind = iota
	StreamingTableRelation
	MaterializedViewRelation
	TemporaryViewRelation
)

// Relation is what a Catalog returns for a name.
type Relation struct {
	// Name is the source's or dataset's name in the spec.
	Name string
	Kind RelationKind
	// Columns are the relation's columns; file sources include the hidden
	// _metadata column.
	Columns []Column
	// View is the checked plan of a temporary view, inlined where it is read.
	View Plan
	// StreamColumns, when set, are the columns of STREAM(name) when they
	// differ from Columns: a table read as its change data feed has three
	// more (_change_type, _commit_version, _commit_timestamp).
	StreamColumns []Column
}

// Catalog resolves the names a query uses.
type Catalog interface {
	// Relation resolves a table name (1 to 3 parts, as written); nil when
	// there is no such source or dataset.
	Relation(parts []string) *Relation
	// Param returns the type of the pipeline parameter name.
	Param(name string) (types.Type, bool)
}

// ErrNotImplemented was returned by the stubs while the package was being
// built; no function returns it any more.
var ErrNotImplemented = errors.New("sql: not implemented")
