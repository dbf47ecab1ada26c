package sql

import (
	"fmt"
	"strings"
)

// This file is the recursive-descent parser for Spark SQL queries and
// expressions (SqlBaseParser.g4's query, relation and expression rules, the
// subset pipegen supports). A syntax error abandons the current clause or
// SELECT item; the parser skips to the next one and goes on, so several
// errors can be reported at once.

// maxDepth bounds the nesting of expressions and queries.
const maxDepth = 300

type parser struct {
	text  string
	toks  []token
	i     int
	errs  []*Error
	depth int
	// open[i] is the number of parentheses open before token i.
	open []int
	// named holds, per SELECT being parsed (innermost last), the OVER
	// clauses that name a window of its WINDOW clause.
	named [][]*windowSpec
}

// bailout is the panic value that abandons a clause after a syntax error;
// guard recovers it. No other panic is recovered.
type bailout struct{}

func newParser(text string) *parser {
	toks, errs := lex(text)
	open := make([]int, len(toks)+1)
	for i, t := range toks {
		open[i+1] = open[i]
		switch {
		case t.isOp("("):
			open[i+1]++
		case t.isOp(")"):
			open[i+1]--
		}
	}
	return &parser{text: text, toks: toks, errs: errs, open: open}
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) peekAt(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// accept consumes the keyword kw when it is next.
func (p *parser) accept(kw string) bool {
	if p.peek().is(kw) {
		p.i++
		return true
	}
	return false
}

// acceptOp consumes the operator op when it is next.
func (p *parser) acceptOp(op string) bool {
	if p.peek().isOp(op) {
		p.i++
		return true
	}
	return false
}

func (p *parser) expect(kw string) token {
	t := p.peek()
	if !t.is(kw) {
		p.fail(t, "expected "+kw)
	}
	return p.advance()
}

func (p *parser) expectOp(op string) token {
	t := p.peek()
	if !t.isOp(op) {
		p.fail(t, "expected '"+op+"'")
	}
	return p.advance()
}

// errorAt records an error without abandoning the clause.
func (p *parser) errorAt(pos, end int, code, hint, format string, args ...any) {
	p.errs = append(p.errs, &Error{Offset: pos, End: end, Code: code, Message: fmt.Sprintf(format, args...), Hint: hint})
}

// fail records a syntax error at t and abandons the current clause.
func (p *parser) fail(t token, hint string) {
	if t.kind != tIllegal {
		msg := "syntax error at or near " + t.describe()
		if t.kind == tEOF {
			msg = "syntax error at end of input"
		}
		p.errs = append(p.errs, &Error{Offset: t.pos, End: t.end, Code: "PARSE_SYNTAX_ERROR", Message: msg, Hint: hint})
	}
	panic(bailout{})
}

// guard runs f; after a syntax error in it, it skips to the next token
// outside the parentheses f opened for which stop reports true, or to the
// parenthesis that closes one opened before f, or to the end.
func (p *parser) guard(stop func(token) bool, f func()) {
	depth := p.depth
	open := p.open[p.i]
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.depth = depth
			p.skipTo(open, stop)
		}
	}()
	f()
}

func (p *parser) skipTo(open int, stop func(token) bool) {
	brackets := 0
	for {
		t := p.peek()
		level := p.open[p.i]
		switch {
		case t.kind == tEOF:
			return
		case t.isOp("["):
			brackets++
		case t.isOp("]"):
			brackets = max(brackets-1, 0)
		case t.isOp(")") && level <= open:
			return
		case level == open && brackets == 0 && stop(t):
			return
		}
		p.advance()
	}
}

// clauseKeywords start a clause of a query; error recovery stops at them.
var clauseKeywords = map[string]bool{
	"FROM": true, "WHERE": true, "GROUP": true, "HAVING": true, "QUALIFY": true,
	"WINDOW": true, "ORDER": true, "LIMIT": true, "OFFSET": true, "UNION": true,
	"INTERSECT": true, "EXCEPT": true, "MINUS": true, "SELECT": true,
}

func isClauseStart(t token) bool {
	return t.isOp(";") || t.kind == tWord && clauseKeywords[strings.ToUpper(t.val)]
}

func isItemEnd(t token) bool { return t.isOp(",") || isClauseStart(t) }

// notAlias lists the words that cannot be an alias without AS (Spark's
// strict non-reserved keywords plus the words that continue a query).
var notAlias = map[string]bool{
	"FROM": true, "WHERE": true, "GROUP": true, "HAVING": true, "QUALIFY": true, "WINDOW": true,
	"ORDER": true, "LIMIT": true, "OFFSET": true, "UNION": true, "INTERSECT": true, "EXCEPT": true,
	"MINUS": true, "SELECT": true, "AS": true, "JOIN": true, "INNER": true, "LEFT": true,
	"RIGHT": true, "FULL": true, "CROSS": true, "NATURAL": true, "SEMI": true, "ANTI": true,
	"ON": true, "USING": true, "LATERAL": true, "AND": true, "OR": true, "NOT": true, "IS": true,
	"IN": true, "BETWEEN": true, "LIKE": true, "ILIKE": true, "RLIKE": true, "REGEXP": true,
	"CASE": true, "WHEN": true, "THEN": true, "ELSE": true, "END": true, "ESCAPE": true,
	"DIV": true, "CLUSTER": true, "DISTRIBUTE": true, "SORT": true, "PIVOT": true,
	"UNPIVOT": true, "TABLESAMPLE": true, "WITH": true, "VALUES": true, "OVER": true,
	"ASC": true, "DESC": true, "FOR": true,
}

// reservedWords are Spark's reserved keywords in ANSI mode (SQL:2016's,
// https://spark.apache.org/docs/latest/sql-ref-ansi-compliance.html#sql-keywords):
// they cannot name a table. Every other keyword (NULLS, FIRST, WINDOW,
// YEAR, VALUE, ...) is non-reserved and can, as in Spark.
var reservedWords = map[string]bool{
	"ALL": true, "AND": true, "ANY": true, "AS": true, "AUTHORIZATION": true, "BOTH": true,
	"CASE": true, "CAST": true, "CHECK": true, "COLLATE": true, "COLUMN": true, "CONSTRAINT": true,
	"CREATE": true, "CROSS": true, "CURRENT_DATE": true, "CURRENT_TIME": true,
	"CURRENT_TIMESTAMP": true, "CURRENT_USER": true, "DISTINCT": true, "ELSE": true, "END": true,
	"ESCAPE": true, "EXCEPT": true, "FALSE": true, "FETCH": true, "FOR": true, "FOREIGN": true,
	"FROM": true, "FULL": true, "GRANT": true, "GROUP": true, "HAVING": true, "IN": true,
	"INNER": true, "INTERSECT": true, "INTO": true, "IS": true, "JOIN": true, "LATERAL": true,
	"LEADING": true, "LEFT": true, "NATURAL": true, "NOT": true, "NULL": true, "OFFSET": true,
	"ON": true, "ONLY": true, "OR": true, "ORDER": true, "OUTER": true, "OVERLAPS": true,
	"PRIMARY": true, "REFERENCES": true, "RIGHT": true, "SELECT": true, "SESSION_USER": true,
	"SOME": true, "TABLE": true, "THEN": true, "TIME": true, "TO": true, "TRAILING": true,
	"UNION": true, "UNIQUE": true, "UNKNOWN": true, "USER": true, "USING": true, "WHEN": true,
	"WHERE": true, "WITH": true,
}

// notName lists the words that cannot start a column name in an expression.
var notName = map[string]bool{
	"FROM": true, "WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true,
	"UNION": true, "INTERSECT": true, "EXCEPT": true, "SELECT": true, "AS": true, "JOIN": true,
	"ON": true, "USING": true, "AND": true, "OR": true, "IS": true, "IN": true, "BETWEEN": true,
	"LIKE": true, "ILIKE": true, "RLIKE": true, "WHEN": true, "THEN": true, "ELSE": true,
	"END": true, "DISTINCT": true, "WITH": true, "QUALIFY": true,
}

func upper(t token) string { return strings.ToUpper(t.val) }

// canAlias reports whether t may be an alias written without AS.
func canAlias(t token) bool {
	return t.kind == tQuoted || t.kind == tWord && !notAlias[upper(t)]
}

// ident reads an identifier (a word or a backquoted name).
func (p *parser) ident(what string) ident {
	t := p.peek()
	if t.kind != tWord && t.kind != tQuoted {
		p.fail(t, "expected "+what)
	}
	p.advance()
	return ident{name: t.val, pos: t.pos, end: t.end}
}

func (p *parser) nest() {
	p.depth++
	if p.depth > maxDepth {
		t := p.peek()
		p.errs = append(p.errs, &Error{Offset: t.pos, End: t.end, Code: "PARSE_SYNTAX_ERROR",
			Message: "query is nested too deeply", Hint: fmt.Sprintf("nest at most %d levels", maxDepth)})
		panic(bailout{})
	}
}

func (p *parser) unnest() { p.depth-- }

// parseTop parses a whole text with f and then requires the end of input.
func (p *parser) parseTop(f func()) {
	p.guard(func(token) bool { return false }, func() {
		f()
		p.acceptOp(";")
		if t := p.peek(); t.kind != tEOF {
			p.fail(t, "expected end of input")
		}
	})
}
