package sql

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
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

// ---- queries ----

func (p *parser) parseQueryStmt() *queryStmt {
	p.nest()
	defer p.unnest()
	q := &queryStmt{pos: p.peek().pos}
	if p.accept("WITH") {
		if p.peek().is("RECURSIVE") {
			p.fail(p.peek(), "recursive WITH is not supported")
		}
		for {
			q.with = append(q.with, p.parseCTE())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	q.body = p.parseSetExpr()
	p.parseQueryTail(q)
	return q
}

func (p *parser) parseCTE() *cte {
	c := &cte{name: p.ident("a name for the WITH query")}
	if p.peek().isOp("(") {
		c.columns = p.identList()
	}
	p.accept("AS")
	p.expectOp("(")
	c.query = p.parseQueryStmt()
	p.expectOp(")")
	return c
}

// identList reads ( a, b, ... ).
func (p *parser) identList() []ident {
	p.expectOp("(")
	var ids []ident
	for {
		ids = append(ids, p.ident("a column name"))
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return ids
}

func (p *parser) parseSetExpr() queryBody {
	l := p.parseSetTerm()
	for {
		t := p.peek()
		var op setOpKind
		switch {
		case t.is("UNION"):
			op = setUnion
		case t.is("EXCEPT"), t.is("MINUS"):
			op = setExcept
		default:
			return l
		}
		p.advance()
		all := p.setQuantifier()
		r := p.parseSetTerm()
		l = &setOpStmt{pos: t.pos, op: op, all: all, l: l, r: r}
	}
}

// parseSetTerm parses INTERSECT chains, which bind tighter than UNION and
// EXCEPT in Spark.
func (p *parser) parseSetTerm() queryBody {
	l := p.parseQueryPrimary()
	for p.peek().is("INTERSECT") {
		t := p.advance()
		all := p.setQuantifier()
		r := p.parseQueryPrimary()
		l = &setOpStmt{pos: t.pos, op: setIntersect, all: all, l: l, r: r}
	}
	return l
}

func (p *parser) setQuantifier() bool {
	if p.accept("ALL") {
		return true
	}
	p.accept("DISTINCT")
	return false
}

func (p *parser) startsQuery(t token) bool {
	return t.is("SELECT") || t.is("WITH") || t.is("VALUES") || t.is("TABLE")
}

func (p *parser) parseQueryPrimary() queryBody {
	t := p.peek()
	switch {
	case t.is("SELECT"):
		return p.parseSelect()
	case t.is("VALUES"):
		v := p.parseValues()
		if !p.peek().is("AS") && !canAlias(p.peek()) {
			return v
		}
		// VALUES ... [AS] t(cols) as a query: Spark's inline table with its
		// alias, read as SELECT * FROM (VALUES ...) AS t(cols).
		ref := &subqueryRef{pos: t.pos, query: &queryStmt{pos: t.pos, body: v}}
		p.accept("AS")
		id := p.ident("an alias")
		ref.alias = &id
		if p.peek().isOp("(") {
			ref.columns = p.identList()
		}
		end := p.toks[max(p.i-1, 0)].end
		return &selectStmt{pos: t.pos, items: []*selectItem{{expr: &starExpr{pos: t.pos, end: end}, end: end}}, from: []fromItem{ref}}
	case t.is("TABLE"):
		p.advance()
		ref := p.parseTableName()
		return &selectStmt{pos: t.pos, items: []*selectItem{{expr: &starExpr{pos: t.pos, end: t.end}, end: t.end}}, from: []fromItem{ref}}
	case t.isOp("("):
		p.advance()
		q := p.parseQueryStmt()
		p.expectOp(")")
		return q
	}
	p.fail(t, "expected SELECT, VALUES or WITH")
	return nil
}

func (p *parser) parseQueryTail(q *queryStmt) {
	if p.peek().is("ORDER") {
		p.guard(isClauseStart, func() {
			p.advance()
			p.expect("BY")
			q.orderBy = p.parseOrderItems()
		})
	}
	if p.peek().is("SORT") || p.peek().is("CLUSTER") || p.peek().is("DISTRIBUTE") {
		p.guard(isClauseStart, func() { p.fail(p.peek(), "use ORDER BY") })
	}
	if p.peek().is("LIMIT") {
		p.guard(isClauseStart, func() {
			p.advance()
			if p.accept("ALL") {
				return
			}
			q.limit = p.parseExpr()
		})
	}
	if p.peek().is("OFFSET") {
		p.guard(isClauseStart, func() {
			p.advance()
			q.offset = p.parseExpr()
		})
	}
}

func (p *parser) parseOrderItems() []*orderItem {
	var items []*orderItem
	for {
		it := &orderItem{expr: p.parseExpr()}
		if p.accept("DESC") {
			it.desc = true
		} else {
			p.accept("ASC")
		}
		if p.accept("NULLS") {
			first := false
			if p.accept("FIRST") {
				first = true
			} else {
				p.expect("LAST")
			}
			it.nullsFirst = &first
		}
		items = append(items, it)
		if !p.acceptOp(",") {
			return items
		}
	}
}

func (p *parser) parseValues() *valuesStmt {
	v := &valuesStmt{pos: p.advance().pos}
	for {
		var row []astExpr
		if p.peek().isOp("(") && !p.startsQuery(p.peekAt(1)) {
			p.advance()
			for {
				row = append(row, p.parseExpr())
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(")")
		} else {
			row = []astExpr{p.parseExpr()}
		}
		v.rows = append(v.rows, row)
		v.ends = append(v.ends, p.toks[max(p.i-1, 0)].end)
		if !p.acceptOp(",") {
			return v
		}
	}
}

func (p *parser) parseSelect() *selectStmt {
	s := &selectStmt{pos: p.advance().pos}
	p.named = append(p.named, nil)
	defer func() { p.named = p.named[:len(p.named)-1] }()
	if p.accept("DISTINCT") {
		s.distinct = true
	} else if n := p.peekAt(1); !n.isOp(",") && !n.is("FROM") {
		// SELECT all, x reads a column named all (as Spark does).
		p.accept("ALL")
	}
	for {
		p.guard(isItemEnd, func() { s.items = append(s.items, p.parseSelectItem()) })
		if !p.acceptOp(",") {
			break
		}
	}
	if p.peek().is("FROM") {
		p.guard(isClauseStart, func() {
			p.advance()
			for {
				if p.peek().is("LATERAL") && p.lateralGenerator(1) {
					// FROM t, LATERAL explode(t.xs) [AS] e[(x)]: Spark's
					// generator in FROM, the same as LATERAL VIEW.
					s.lateral = append(s.lateral, p.parseLateralGenerator())
				} else {
					if len(s.lateral) > 0 {
						p.fail(p.peek(), "put the tables before the LATERAL generators: FROM a, b, LATERAL explode(a.xs) e")
					}
					s.from = append(s.from, p.parseJoinTree())
				}
				if !p.acceptOp(",") {
					break
				}
			}
		})
	}
	for p.peek().is("LATERAL") && p.peekAt(1).is("VIEW") {
		p.guard(isClauseStart, func() { s.lateral = append(s.lateral, p.parseLateralView()) })
	}
	if p.peek().is("LATERAL") {
		p.guard(isClauseStart, func() { p.fail(p.peek(), "expected LATERAL VIEW") })
	}
	for _, kw := range []string{"PIVOT", "UNPIVOT"} {
		if p.peek().is(kw) {
			p.unsupportedClause(kw, map[string]string{
				"PIVOT":   "aggregate one column per value instead: GROUP BY the other columns with sum(CASE WHEN k = 'v' THEN x END) AS v, ...",
				"UNPIVOT": "UNION ALL one SELECT per column, or LATERAL VIEW explode(map('a', a, 'b', b)) t AS k, v",
			}[kw])
		}
	}
	if p.peek().is("WHERE") {
		p.guard(isClauseStart, func() {
			p.advance()
			s.where = p.parseExpr()
		})
	}
	if p.peek().is("GROUP") {
		p.guard(isClauseStart, func() { s.groupBy = p.parseGroupBy() })
	}
	if p.peek().is("HAVING") {
		p.guard(isClauseStart, func() {
			p.advance()
			s.having = p.parseExpr()
		})
	}
	window := func() {
		if p.peek().is("WINDOW") {
			p.guard(isClauseStart, p.parseWindowClause)
		}
	}
	window()
	if p.peek().is("QUALIFY") {
		p.guard(isClauseStart, func() {
			p.advance()
			s.qualify = p.parseExpr()
		})
	}
	window() // Databricks puts WINDOW after QUALIFY, Spark before
	return s
}

// parseWindowClause parses `WINDOW name AS (spec) [, ...]` (a definition
// may be another window's name) and gives the OVER clauses of the
// current SELECT that name a window its specification. An OVER naming no
// window keeps its name, which the checker reports.
func (p *parser) parseWindowClause() {
	p.advance()
	defs := map[string]*windowSpec{}
	for {
		name := p.ident("a window name")
		p.expect("AS")
		t := p.peek()
		var w *windowSpec
		if t.isOp("(") {
			w, _ = p.parseWindowSpec(t.pos)
		} else {
			w = &windowSpec{pos: t.pos, name: p.ident("a window name or (").name}
		}
		key := strings.ToLower(name.name)
		if defs[key] != nil {
			p.errorAt(name.pos, name.end, "INVALID_SQL_SYNTAX", "give each window of the WINDOW clause its own name", "window %q is defined twice", name.name)
		}
		defs[key] = w
		if !p.acceptOp(",") {
			break
		}
	}
	// A definition that names another window takes its specification.
	var resolve func(w *windowSpec, seen int) *windowSpec
	resolve = func(w *windowSpec, seen int) *windowSpec {
		if w.name == "" || seen > len(defs) {
			return w
		}
		if d := defs[strings.ToLower(w.name)]; d != nil {
			return resolve(d, seen+1)
		}
		return w
	}
	for _, w := range p.named[len(p.named)-1] {
		if d := resolve(w, 0); d.name == "" {
			pos := w.pos
			*w = *d
			w.pos = pos
		}
	}
}

// lateralGenerator reports whether the tokens n ahead are a call of a
// generator function (LATERAL explode(...), not LATERAL (subquery)).
func (p *parser) lateralGenerator(n int) bool {
	t := p.peekAt(n)
	if t.kind != tWord || !p.peekAt(n+1).isOp("(") {
		return false
	}
	f := LookupFunction(t.val)
	return f != nil && f.Kind == GeneratorFunc
}

// parseLateralGenerator parses LATERAL generator(args) [[AS] table
// [(column, ...)]] in a FROM list, as the lateral view it is in Spark
// (without an alias the table is named after the generator).
func (p *parser) parseLateralGenerator() *lateralView {
	lv := &lateralView{pos: p.advance().pos}
	name := p.ident("a generator function such as explode")
	lv.call = p.parseCall(ident{name: strings.ToLower(name.name), pos: name.pos, end: name.end}).(*callExpr)
	lv.end = lv.call.end
	lv.table = ident{name: strings.ToLower(name.name), pos: name.pos, end: name.end}
	if p.accept("AS") || canAlias(p.peek()) {
		lv.table = p.ident("a table alias")
		lv.end = lv.table.end
		if p.peek().isOp("(") {
			lv.columns = p.identList()
			lv.end = p.toks[p.i-1].end
		}
	}
	return lv
}

// unsupportedClause reports the clause starting with keyword kw (and its
// parenthesized body) as not supported yet, with hint, and skips it.
func (p *parser) unsupportedClause(kw, hint string) {
	t := p.advance()
	end := t.end
	if p.peek().isOp("(") {
		depth := 0
		for p.peek().kind != tEOF {
			x := p.advance()
			end = x.end
			if x.isOp("(") {
				depth++
			} else if x.isOp(")") {
				if depth--; depth == 0 {
					break
				}
			}
		}
	}
	p.errorAt(t.pos, end, "UNSUPPORTED_FEATURE", hint, "%s is not supported yet", kw)
}

// parseLateralView parses LATERAL VIEW [OUTER] generator(args) table
// [[AS] column, ...] (Spark's lateralView rule).
func (p *parser) parseLateralView() *lateralView {
	lv := &lateralView{pos: p.advance().pos}
	p.expect("VIEW")
	lv.outer = p.accept("OUTER")
	name := p.ident("a generator function such as explode")
	call, ok := p.parseCall(ident{name: strings.ToLower(name.name), pos: name.pos, end: name.end}).(*callExpr)
	if !ok {
		p.fail(p.peek(), "expected a generator function call")
	}
	lv.call = call
	lv.end = call.end
	if !canAlias(p.peek()) || p.peek().is("AS") {
		p.fail(p.peek(), "expected a table alias after the generator (LATERAL VIEW explode(xs) t AS x)")
	}
	lv.table = p.ident("a table alias")
	lv.end = lv.table.end
	hasAS := p.accept("AS")
	if hasAS || canAlias(p.peek()) {
		for {
			id := p.ident("a column alias")
			lv.columns = append(lv.columns, id)
			lv.end = id.end
			if !p.acceptOp(",") {
				break
			}
		}
	}
	return lv
}

func (p *parser) parseSelectItem() *selectItem {
	var e astExpr
	if t := p.peek(); t.isOp("*") {
		p.advance()
		e = &starExpr{pos: t.pos, end: t.end}
	} else {
		e = p.parseExpr()
	}
	item := &selectItem{expr: e}
	if st, ok := e.(*starExpr); ok {
		if p.peek().is("EXCEPT") && p.peekAt(1).isOp("(") && !p.startsQuery(p.peekAt(2)) && !p.peekAt(2).isOp("(") {
			p.advance()
			p.advance()
			for {
				parts := []ident{p.ident("a column name")}
				for p.acceptOp(".") {
					parts = append(parts, p.ident("a field name"))
				}
				st.except = append(st.except, parts)
				if !p.acceptOp(",") {
					break
				}
			}
			st.end = p.expectOp(")").end
		}
		item.end = st.end
		return item
	}
	_, item.end = e.span()
	if p.accept("AS") {
		if p.peek().isOp("(") {
			// expr AS (a, b): the names of a generator's columns.
			item.aliases = p.identList()
			item.end = p.toks[p.i-1].end
			return item
		}
		id := p.ident("an alias")
		item.alias = &id
		item.end = id.end
	} else if canAlias(p.peek()) {
		id := p.ident("an alias")
		item.alias = &id
		item.end = id.end
	}
	return item
}

func (p *parser) parseGroupBy() *groupBy {
	g := &groupBy{pos: p.advance().pos}
	p.expect("BY")
	if n := p.peekAt(1); p.peek().is("ALL") && !n.isOp("(") && !n.isOp(".") && !n.isOp(",") {
		t := p.advance()
		g.all = true
		// A column named all takes precedence (the checker decides).
		g.exprs = []astExpr{&nameExpr{parts: []ident{{name: t.val, pos: t.pos, end: t.end}}}}
		return g
	}
	// Every item contributes a list of grouping sets; the clause's sets are
	// their cross product (Spark's semantics for GROUP BY a, ROLLUP(b, c)).
	product := [][]int{{}}
	grouping := false
	for {
		sets := p.parseGroupingItem(g, &grouping)
		var next [][]int
		for _, a := range product {
			for _, b := range sets {
				next = append(next, append(append([]int{}, a...), b...))
			}
		}
		product = next
		if !p.acceptOp(",") {
			break
		}
	}
	// Hive's GROUP BY a, b GROUPING SETS ((a), (a, b), ()): the plain list
	// gives the group columns (and their order, grouping_id's bits), the
	// sets name some of them (Spark's GroupingSets with user-given
	// expressions; a column in no set is NULL in every row).
	if t := p.peek(); !grouping && t.is("GROUPING") && p.peekAt(1).is("SETS") {
		plain := len(g.exprs)
		sets := p.parseGroupingItem(g, &grouping)
		// An ordinal names a SELECT item, which only the checker resolves:
		// an ordinal in a set, or a set item when the list has ordinals,
		// stays an expression of its own.
		exprs := g.exprs[:plain:plain]
		ordinals := slices.ContainsFunc(exprs, func(e astExpr) bool { _, ok := ordinal(e); return ok })
		for _, set := range sets {
			for k, i := range set {
				j := slices.IndexFunc(exprs, func(e astExpr) bool { return exprSQL(e) == exprSQL(g.exprs[i]) })
				if j < 0 {
					if _, ok := ordinal(g.exprs[i]); !ok && !ordinals {
						p.fail(t, "GROUPING SETS after GROUP BY "+exprSQL(g.exprs[0])+", ... may only name GROUP BY expressions, not "+exprSQL(g.exprs[i])+" (add it to the GROUP BY list)")
					}
					j = len(exprs)
					exprs = append(exprs, g.exprs[i])
				}
				set[k] = j
			}
		}
		g.exprs = exprs
		product = sets
	}
	// MySQL's GROUP BY a, b WITH ROLLUP (or WITH CUBE), which Spark accepts
	// as ROLLUP (a, b) (or CUBE (a, b)) over plain expressions.
	if t := p.peek(); t.is("WITH") && (p.peekAt(1).is("ROLLUP") || p.peekAt(1).is("CUBE")) {
		p.advance()
		kind := p.advance()
		if grouping {
			p.fail(kind, "WITH "+strings.ToUpper(kind.val)+" needs plain GROUP BY expressions, not GROUPING SETS, ROLLUP or CUBE")
		}
		elems := make([][]int, len(g.exprs))
		for i := range elems {
			elems[i] = []int{i}
		}
		grouping = true
		if kind.is("ROLLUP") {
			product = rollupSets(elems)
		} else {
			if len(elems) > 12 {
				p.fail(kind, "CUBE takes at most 12 elements")
			}
			product = cubeSets(elems)
		}
	}
	// Spark's GROUP BY a, b GROUPING SETS ((a), (b)): the grouping sets
	// are those listed, over the expressions before them.
	if t := p.peek(); t.is("GROUPING") && p.peekAt(1).is("SETS") && !grouping {
		product = p.parseGroupingItem(g, &grouping)
	}
	if grouping {
		g.sets = product
	}
	return g
}

// parseGroupingItem parses one GROUP BY item and returns its grouping sets
// as indexes into g.exprs.
func (p *parser) parseGroupingItem(g *groupBy, grouping *bool) [][]int {
	add := func(e astExpr) int {
		g.exprs = append(g.exprs, e)
		return len(g.exprs) - 1
	}
	// element parses e or (e, ...) or () into one set.
	element := func() []int {
		if p.peek().isOp("(") && !p.startsQuery(p.peekAt(1)) {
			save := p.i
			p.advance()
			if p.acceptOp(")") {
				return []int{}
			}
			var set []int
			for {
				set = append(set, add(p.parseExpr()))
				if !p.acceptOp(",") {
					break
				}
			}
			if p.acceptOp(")") {
				return set
			}
			// Not a list after all: an expression starting with '('.
			g.exprs = g.exprs[:len(g.exprs)-len(set)]
			p.i = save
		}
		return []int{add(p.parseExpr())}
	}
	t := p.peek()
	switch {
	case t.is("GROUPING") && p.peekAt(1).is("SETS"):
		*grouping = true
		p.advance()
		p.advance()
		p.expectOp("(")
		var sets [][]int
		for {
			sets = append(sets, element())
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
		return sets
	case (t.is("ROLLUP") || t.is("CUBE")) && p.peekAt(1).isOp("("):
		*grouping = true
		p.advance()
		p.advance()
		var elems [][]int
		for {
			at := p.peek()
			e := element()
			if len(e) == 0 {
				// Spark's parser: "Empty set in ROLLUP grouping sets is not
				// supported" (_LEGACY_ERROR_TEMP_0051).
				p.fail(at, "an empty set () is not allowed in "+strings.ToUpper(t.val)+" (the grand total is already one of its sets; write GROUPING SETS (...) to list sets yourself)")
			}
			elems = append(elems, e)
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
		if t.is("ROLLUP") {
			return rollupSets(elems)
		}
		if len(elems) > 12 {
			p.fail(t, "CUBE takes at most 12 elements")
		}
		return cubeSets(elems)
	}
	return [][]int{{add(p.parseExpr())}}
}

// rollupSets returns the prefixes of elems, longest first: for (a, b),
// (a, b), (a), ().
func rollupSets(elems [][]int) [][]int {
	var sets [][]int
	for n := len(elems); n >= 0; n-- {
		set := []int{}
		for _, e := range elems[:n] {
			set = append(set, e...)
		}
		sets = append(sets, set)
	}
	return sets
}

// cubeSets returns every subset of elems in Spark's order: for (a, b),
// (a, b), (a), (b), ().
func cubeSets(elems [][]int) [][]int {
	if len(elems) == 0 {
		return [][]int{{}}
	}
	rest := cubeSets(elems[1:])
	var out [][]int
	for _, r := range rest {
		out = append(out, append(append([]int{}, elems[0]...), r...))
	}
	return append(out, rest...)
}

// ---- FROM ----

func (p *parser) parseJoinTree() fromItem {
	l := p.parseTablePrimary()
	for {
		t := p.peek()
		kind, natural, ok := p.parseJoinType()
		if !ok {
			return l
		}
		j := &joinRef{pos: t.pos, kind: kind, natural: natural, l: l, explicitCross: kind == CrossJoin}
		j.r = p.parseTablePrimary()
		if !natural {
			switch {
			case p.accept("ON"):
				j.on = p.parseExpr()
			case p.accept("USING"):
				j.using = p.identList()
			}
		}
		l = j
	}
}

// parseJoinType consumes a join operator ([NATURAL] [INNER | CROSS | LEFT
// [OUTER | SEMI | ANTI] | RIGHT [OUTER] | FULL [OUTER] | SEMI | ANTI] JOIN).
func (p *parser) parseJoinType() (JoinKind, bool, bool) {
	t := p.peek()
	natural := false
	if t.is("NATURAL") {
		natural = true
		p.advance()
		t = p.peek()
	}
	kind := InnerJoin
	switch {
	case t.is("JOIN"):
	case t.is("INNER"):
		p.advance()
	case t.is("CROSS"):
		kind = CrossJoin
		p.advance()
	case t.is("LEFT"):
		p.advance()
		kind = LeftJoin
		switch {
		case p.accept("SEMI"):
			kind = LeftSemiJoin
		case p.accept("ANTI"):
			kind = LeftAntiJoin
		default:
			p.accept("OUTER")
		}
	case t.is("SEMI"):
		p.advance()
		kind = LeftSemiJoin
	case t.is("ANTI"):
		p.advance()
		kind = LeftAntiJoin
	case t.is("RIGHT"):
		p.advance()
		p.accept("OUTER")
		kind = RightJoin
	case t.is("FULL"):
		p.advance()
		p.accept("OUTER")
		kind = FullJoin
	default:
		if natural {
			p.fail(p.peek(), "expected JOIN")
		}
		return 0, false, false
	}
	if natural && kind == CrossJoin {
		p.fail(t, "NATURAL CROSS JOIN is not allowed")
	}
	p.expect("JOIN")
	if p.peek().is("LATERAL") {
		if p.lateralGenerator(1) {
			p.fail(p.peek(), "write the generator as FROM t, LATERAL explode(t.xs) e, or LATERAL VIEW explode(t.xs) e AS x")
		}
		p.fail(p.peek(), "LATERAL joins are not supported: JOIN a subquery without LATERAL, or use LATERAL VIEW for a generator")
	}
	return kind, natural, true
}

func (p *parser) parseTablePrimary() fromItem {
	t := p.peek()
	var item fromItem
	switch {
	case t.isOp("("):
		if p.parenQuery() {
			p.advance()
			q := p.parseQueryStmt()
			p.expectOp(")")
			item = &subqueryRef{pos: t.pos, query: q}
		} else {
			p.advance()
			j := p.parseJoinTree()
			p.expectOp(")")
			return p.aliasNotAllowed(j)
		}
	case t.is("VALUES"):
		v := p.parseValues()
		item = &subqueryRef{pos: t.pos, query: &queryStmt{pos: t.pos, body: v}}
	case t.is("LATERAL"):
		p.fail(t, "LATERAL subqueries are not supported: JOIN a subquery without LATERAL, or use LATERAL explode(...) for a generator")
	case t.is("STREAM") && (p.peekAt(1).isOp("(") || canAlias(p.peekAt(1)) || p.peekAt(1).kind == tParam):
		p.advance()
		var ref *tableRef
		if p.acceptOp("(") {
			ref = p.parseTableName()
			p.expectOp(")")
		} else {
			ref = p.parseTableName()
		}
		ref.streaming = true
		item = ref
	default:
		ref := p.parseTableName()
		switch {
		case isRangeCall(ref, p.peek()):
			item = p.parseRangeArgs(t)
		case p.peek().isOp("("):
			p.fail(p.peek(), "table-valued functions other than range are not supported")
		default:
			item = ref
		}
	}
	if p.peek().is("TABLESAMPLE") {
		p.unsupportedClause("TABLESAMPLE", "filter a sample with WHERE rand() < 0.1")
	}
	if p.watermarkAhead() {
		wm := p.parseWatermark()
		if ref, ok := item.(*tableRef); ok {
			ref.watermark = wm
		} else {
			p.errorAt(wm.pos, wm.end, "UNSUPPORTED_FEATURE", "put the WATERMARK clause after STREAM(name), inside the subquery",
				"a WATERMARK clause after a subquery is not supported")
		}
	}
	// [AS] alias [(columns)]
	var alias *ident
	if p.accept("AS") {
		id := p.ident("an alias")
		alias = &id
	} else if canAlias(p.peek()) {
		id := p.ident("an alias")
		alias = &id
	}
	var cols []ident
	if alias != nil && p.peek().isOp("(") {
		cols = p.identList()
	}
	if alias != nil && p.watermarkAhead() {
		p.fail(p.peek(), fmt.Sprintf("write the alias after the WATERMARK clause: ... WATERMARK column DELAY OF INTERVAL ... AS %s", alias.name))
	}
	switch it := item.(type) {
	case *tableRef:
		it.alias, it.columns = alias, cols
	case *subqueryRef:
		it.alias, it.columns = alias, cols
	}
	return item
}

func (p *parser) aliasNotAllowed(j fromItem) fromItem {
	if p.peek().is("AS") || canAlias(p.peek()) {
		p.fail(p.peek(), "a parenthesised join cannot have an alias")
	}
	return j
}

// parenQuery reports whether the '(' at the cursor opens a query.
func (p *parser) parenQuery() bool {
	n := 0
	for p.peekAt(n).isOp("(") {
		n++
	}
	return p.startsQuery(p.peekAt(n))
}

// parseTableName reads a 1- to 3-part table name; a part may be a
// `${param}`, kept as written.
func (p *parser) parseTableName() *tableRef {
	ref := &tableRef{pos: p.peek().pos}
	for {
		t := p.peek()
		switch t.kind {
		case tWord:
			if reservedWords[upper(t)] && len(ref.parts) == 0 {
				p.fail(t, fmt.Sprintf("expected a table name (%s is a reserved word: quote it as `%s` to use it as a name)", upper(t), t.val))
			}
			ref.parts = append(ref.parts, t.val)
		case tQuoted:
			ref.parts = append(ref.parts, t.val)
		case tParam:
			ref.parts = append(ref.parts, "${"+t.val+"}")
		default:
			p.fail(t, "expected a table name")
		}
		p.advance()
		ref.end = t.end
		if !p.peek().isOp(".") {
			break
		}
		p.advance()
	}
	if len(ref.parts) > 3 {
		p.errorAt(ref.pos, ref.end, "REQUIRES_SINGLE_PART_NAMESPACE", "write catalog.schema.table at most",
			"table name %q has %d parts", strings.Join(ref.parts, "."), len(ref.parts))
	}
	return ref
}

// ---- expressions ----

func (p *parser) parseExpr() astExpr {
	p.nest()
	defer p.unnest()
	return p.parseOr()
}

func (p *parser) parseOr() astExpr {
	l := p.parseAnd()
	for p.peek().is("OR") {
		t := p.advance()
		l = &binaryExpr{op: "OR", l: l, r: p.parseAnd(), opPos: t.pos}
	}
	return l
}

func (p *parser) parseAnd() astExpr {
	l := p.parseNot()
	for p.peek().is("AND") {
		t := p.advance()
		l = &binaryExpr{op: "AND", l: l, r: p.parseNot(), opPos: t.pos}
	}
	return l
}

func (p *parser) parseNot() astExpr {
	if t := p.peek(); t.is("NOT") || t.isOp("!") {
		p.advance()
		p.nest()
		defer p.unnest()
		return &unaryExpr{op: "NOT", x: p.parseNot(), pos: t.pos}
	}
	return p.parsePredicated()
}

// parseLikeQuantified parses the rest of x [NOT] LIKE|ILIKE ANY|SOME|ALL
// (p1, p2, ...), from the quantifier on; the list cannot be empty (Spark's
// grammar).
func (p *parser) parseLikeQuantified(x astExpr, not bool, op string, pos int) astExpr {
	q := upper(p.advance())
	if q == "SOME" {
		q = "ANY"
	}
	p.expectOp("(")
	if c := p.peek(); c.isOp(")") {
		p.fail(c, "expected something between '(' and ')': LIKE "+q+" needs at least one pattern")
	}
	lk := &likeExpr{x: x, not: not, op: op, pos: pos, quantifier: q}
	for {
		lk.patterns = append(lk.patterns, p.parseExpr())
		if !p.acceptOp(",") {
			break
		}
	}
	lk.end = p.expectOp(")").end
	return lk
}

// parsePredicated parses a value expression and at most one predicate
// (BETWEEN, IN, LIKE, IS ...) over it, as Spark's grammar does.
func (p *parser) parsePredicated() astExpr {
	x := p.parseComparison()
	not := false
	t := p.peek()
	if t.is("NOT") {
		n := p.peekAt(1)
		if n.is("BETWEEN") || n.is("IN") || n.is("LIKE") || n.is("ILIKE") || n.is("RLIKE") || n.is("REGEXP") {
			p.advance()
			not = true
			t = p.peek()
		}
	}
	switch {
	case t.is("BETWEEN"):
		p.advance()
		lo := p.parseComparison()
		p.expect("AND")
		hi := p.parseComparison()
		return &betweenExpr{x: x, lo: lo, hi: hi, not: not, pos: t.pos}
	case t.is("IN"):
		p.advance()
		p.expectOp("(")
		in := &inExpr{x: x, not: not, pos: t.pos}
		if p.startsQuery(p.peek()) {
			in.query = p.parseQueryStmt()
		} else {
			for {
				in.list = append(in.list, p.parseExpr())
				if !p.acceptOp(",") {
					break
				}
			}
		}
		in.end = p.expectOp(")").end
		return in
	case t.is("LIKE"), t.is("ILIKE"), t.is("RLIKE"), t.is("REGEXP"):
		p.advance()
		op := upper(t)
		if op == "REGEXP" {
			op = "RLIKE"
		}
		if n := p.peek(); (n.is("ANY") || n.is("ALL") || n.is("SOME")) && op != "RLIKE" {
			return p.parseLikeQuantified(x, not, op, t.pos)
		}
		lk := &likeExpr{x: x, not: not, op: op, pos: t.pos, pattern: p.parseComparison()}
		if op != "RLIKE" && p.accept("ESCAPE") {
			et := p.peek()
			if et.kind != tString || et.parts != nil {
				p.fail(et, "expected a one-character string after ESCAPE")
			}
			p.advance()
			lk.escape = &litExpr{typ: types.StringType, val: et.val, text: p.text[et.pos:et.end], pos: et.pos, end: et.end}
		}
		return lk
	case t.is("IS"):
		p.advance()
		is := &isExpr{x: x}
		is.not = p.accept("NOT")
		w := p.peek()
		switch {
		case w.is("NULL"), w.is("TRUE"), w.is("FALSE"), w.is("UNKNOWN"):
			is.what = upper(w)
			is.end = p.advance().end
		case w.is("DISTINCT"):
			p.advance()
			p.expect("FROM")
			is.what = "DISTINCT"
			is.y = p.parseComparison()
			_, is.end = is.y.span()
		default:
			p.fail(w, "expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM")
		}
		return is
	}
	return x
}

var comparisonOps = map[string]bool{"=": true, "==": true, "<>": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true, "<=>": true}

func (p *parser) parseComparison() astExpr {
	l := p.parseBitOr()
	for {
		t := p.peek()
		if t.kind != tOp || !comparisonOps[t.val] {
			return l
		}
		p.advance()
		l = &binaryExpr{op: t.val, l: l, r: p.parseBitOr(), opPos: t.pos}
	}
}

// binaryLevel parses a left-associative chain of the operators in ops over
// operands parsed by next.
func (p *parser) binaryLevel(next func() astExpr, ops ...string) astExpr {
	l := next()
	for {
		t := p.peek()
		op := ""
		for _, o := range ops {
			if t.isOp(o) || o == "DIV" && t.is("DIV") {
				op = o
			}
		}
		if op == "" {
			return l
		}
		p.advance()
		l = &binaryExpr{op: op, l: l, r: next(), opPos: t.pos}
	}
}

func (p *parser) parseBitOr() astExpr  { return p.binaryLevel(p.parseBitXor, "|") }
func (p *parser) parseBitXor() astExpr { return p.binaryLevel(p.parseBitAnd, "^") }
func (p *parser) parseBitAnd() astExpr { return p.binaryLevel(p.parseShift, "&") }
func (p *parser) parseAdditive() astExpr {
	return p.binaryLevel(p.parseMultiplicative, "+", "-", "||")
}
func (p *parser) parseMultiplicative() astExpr {
	return p.binaryLevel(p.parseUnary, "*", "/", "%", "DIV")
}

func (p *parser) parseUnary() astExpr {
	t := p.peek()
	if t.isOp("-") || t.isOp("+") || t.isOp("~") {
		p.advance()
		if n := p.peek(); t.isOp("-") && n.kind == tNumber {
			// A minus sign directly before a number is part of the literal,
			// so -2147483648 is an INT as in Spark.
			p.advance()
			return p.parsePostfix(p.numberLit(n, true, t.pos))
		}
		p.nest()
		defer p.unnest()
		return &unaryExpr{op: t.val, x: p.parseUnary(), pos: t.pos}
	}
	return p.parsePostfix(p.parsePrimary())
}

func (p *parser) parsePostfix(x astExpr) astExpr {
	for {
		t := p.peek()
		switch {
		case t.isOp("."):
			p.advance()
			if st := p.peek(); st.isOp("*") {
				n, ok := x.(*nameExpr)
				if !ok {
					p.fail(st, "expected a field name")
				}
				p.advance()
				s, _ := n.span()
				return &starExpr{qual: n.parts, pos: s, end: st.end}
			}
			id := p.ident("a field name")
			if n, ok := x.(*nameExpr); ok {
				n.parts = append(n.parts, id)
			} else {
				x = &fieldExpr{x: x, name: id}
			}
		case t.isOp("["):
			p.advance()
			idx := p.parseExpr()
			end := p.expectOp("]").end
			x = &subscriptExpr{x: x, index: idx, end: end}
		case t.isOp("::"):
			p.advance()
			typ, end := p.parseTypeEnd()
			s, _ := x.span()
			x = &castExpr{x: x, to: typ, colon: true, pos: s, end: end}
		case t.isOp(":") && (p.peekAt(1).kind == tWord || p.peekAt(1).kind == tQuoted || p.peekAt(1).isOp("[")):
			x = p.parseJSONPath(x)
		default:
			return x
		}
	}
}

// parseJSONPath parses the Databricks JSON path after x: x:a.b[0]['c'][*]
// (identifiers, bracketed case-sensitive names, indexes and wildcards).
// The path is kept in get_json_object's syntax, a dotted name standing for
// a case-insensitive one.
func (p *parser) parseJSONPath(x astExpr) astExpr {
	colon := p.advance()
	e := &jsonPathExpr{x: x, path: "$", colonPos: colon.pos}
	first := true
	for {
		switch t := p.peek(); {
		case t.isOp("["):
			p.advance()
			switch in := p.peek(); {
			case in.isOp("*"):
				p.advance()
				e.path += "[*]"
			case in.kind == tNumber:
				p.advance()
				e.path += "[" + in.val + "]"
			case in.kind == tString:
				p.advance()
				e.path += "['" + in.val + "']"
				e.last = in.val
			default:
				p.fail(in, "expected a quoted field name, an index or * in a JSON path")
			}
			e.end = p.expectOp("]").end
		case first || t.isOp("."):
			if !first {
				p.advance()
			}
			id := p.ident("a JSON field name")
			e.path += "." + id.name
			e.last, e.end = id.name, id.end
		default:
			return e
		}
		first = false
	}
}

func (p *parser) numberLit(t token, neg bool, pos int) astExpr {
	typ, val, code, msg := numberLiteral(t.val, neg)
	if msg != "" {
		p.errorAt(pos, t.end, code, "", "%s", msg)
		return &badExpr{pos: pos, end: t.end}
	}
	return &litExpr{typ: typ, val: val, text: p.text[pos:t.end], pos: pos, end: t.end}
}

// typedLiteralKinds are the words that, before a string, make a typed literal.
var typedLiteralKinds = map[string]bool{"DATE": true, "TIME": true, "TIMESTAMP": true, "TIMESTAMP_LTZ": true, "TIMESTAMP_NTZ": true, "X": true}

func (p *parser) parsePrimary() astExpr {
	t := p.peek()
	switch t.kind {
	case tNumber:
		p.advance()
		return p.numberLit(t, false, t.pos)
	case tString:
		return p.stringLit()
	case tParam:
		p.advance()
		return &paramExpr{name: t.val, pos: t.pos, end: t.end}
	case tOp:
		if t.isOp("(") {
			return p.parseParen()
		}
		p.fail(t, "expected an expression")
	case tQuoted:
		if p.peekAt(1).isOp("->") {
			return p.parseLambda()
		}
		return p.parseNameOrCall()
	case tWord:
		return p.parseWord(t)
	}
	p.fail(t, "expected an expression")
	return nil
}

func (p *parser) parseWord(t token) astExpr {
	kw := upper(t)
	next := p.peekAt(1)
	switch {
	case kw == "NULL":
		p.advance()
		return &litExpr{typ: types.VoidType, text: t.val, pos: t.pos, end: t.end}
	case kw == "TRUE" || kw == "FALSE":
		p.advance()
		return &litExpr{typ: types.BooleanType, val: kw == "TRUE", text: t.val, pos: t.pos, end: t.end}
	case kw == "CASE":
		return p.parseCase()
	case (kw == "CAST" || kw == "TRY_CAST") && next.isOp("("):
		p.advance()
		p.advance()
		x := p.parseExpr()
		p.expect("AS")
		typ, _ := p.parseTypeEnd()
		end := p.expectOp(")").end
		return &castExpr{x: x, to: typ, try: kw == "TRY_CAST", pos: t.pos, end: end}
	case kw == "EXISTS" && next.isOp("(") && (p.startsQuery(p.peekAt(2)) || p.peekAt(2).isOp("(") && p.parenQueryAt(2)):
		// EXISTS (query); exists(array, x -> ...) is the function.
		p.advance()
		p.advance()
		q := p.parseQueryStmt()
		end := p.expectOp(")").end
		return &subqueryExpr{query: q, exists: true, pos: t.pos, end: end}
	case kw == "INTERVAL" && (next.kind == tString || next.kind == tNumber || next.isOp("-") || next.isOp("+")):
		return p.parseInterval()
	case typedLiteralKinds[kw] && next.kind == tString && (kw != "X" || next.pos == t.end):
		return p.parseTypedLiteral(t)
	case (kw == "CURRENT_DATE" || kw == "CURRENT_TIMESTAMP") && !next.isOp("(") && !next.isOp("."):
		p.advance()
		return &callExpr{name: ident{name: strings.ToLower(kw), pos: t.pos, end: t.end}, end: t.end, bare: true}
	case kw == "EXTRACT" && next.isOp("("):
		return p.parseExtract()
	case (kw == "SUBSTRING" || kw == "SUBSTR") && next.isOp("("):
		if c := p.parseSubstringFrom(); c != nil {
			return c
		}
	case kw == "TRIM" && next.isOp("("):
		return p.parseTrim()
	case kw == "POSITION" && next.isOp("("):
		if c := p.parsePositionIn(); c != nil {
			return c
		}
	case next.isOp("->"):
		return p.parseLambda()
	}
	if notName[kw] && !next.isOp("(") {
		p.fail(t, "expected an expression")
	}
	return p.parseNameOrCall()
}

// stringLit reads one or more adjacent string literals, joined as Spark does.
func (p *parser) stringLit() astExpr {
	first := p.advance()
	parts := first.parts
	val := first.val
	end := first.end
	withParams := first.parts != nil
	for p.peek().kind == tString {
		t := p.advance()
		end = t.end
		val += t.val
		if t.parts != nil || withParams {
			if !withParams {
				parts = []strPart{{text: strings.TrimSuffix(val, t.val)}}
			}
			withParams = true
			if t.parts != nil {
				parts = append(parts, t.parts...)
			} else {
				parts = append(parts, strPart{text: t.val})
			}
		}
	}
	if withParams {
		return &strExpr{parts: parts, pos: first.pos, end: end}
	}
	return &litExpr{typ: types.StringType, val: val, text: p.text[first.pos:end], pos: first.pos, end: end}
}

// parseParen parses what starts with '(': a scalar subquery, a lambda
// (x, y) -> e, a parenthesised expression, or a row (a, b) (a struct).
func (p *parser) parseParen() astExpr {
	open := p.peek()
	if p.startsQuery(p.peekAt(1)) || p.peekAt(1).isOp("(") && p.parenQueryAt(1) {
		p.advance()
		q := p.parseQueryStmt()
		end := p.expectOp(")").end
		return &subqueryExpr{query: q, pos: open.pos, end: end}
	}
	// (a, b) -> body
	n := 1
	for {
		if k := p.peekAt(n).kind; k != tWord && k != tQuoted {
			break
		}
		n++
		if p.peekAt(n).isOp(")") {
			if p.peekAt(n + 1).isOp("->") {
				return p.parseLambda()
			}
			break
		}
		if !p.peekAt(n).isOp(",") {
			break
		}
		n++
	}
	p.advance()
	x := p.parseExpr()
	// (a [AS] x, b, ...) is Spark's row constructor, a struct whose
	// fields may be named as struct(...)'s arguments.
	row := &callExpr{name: ident{name: "struct", pos: open.pos, end: open.end}, args: []astExpr{x}}
	p.structFieldName(row)
	if p.peek().isOp(",") {
		for p.acceptOp(",") {
			row.args = append(row.args, p.parseExpr())
			p.structFieldName(row)
		}
		row.end = p.expectOp(")").end
		return row
	}
	if len(row.argNames) > 0 {
		p.fail(p.toks[max(p.i-1, 0)], "a parenthesised expression cannot have an alias: write struct(x AS name) for a struct")
	}
	p.expectOp(")")
	return x
}

func (p *parser) parenQueryAt(n int) bool {
	for p.peekAt(n).isOp("(") {
		n++
	}
	return p.startsQuery(p.peekAt(n))
}

func (p *parser) parseLambda() astExpr {
	start := p.peek().pos
	var params []ident
	if p.acceptOp("(") {
		for {
			params = append(params, p.ident("a lambda parameter"))
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	} else {
		params = append(params, p.ident("a lambda parameter"))
	}
	p.expectOp("->")
	return &lambdaExpr{params: params, body: p.parseExpr(), pos: start}
}

// parseNameOrCall parses an identifier chain, or a function call when the
// chain is followed by '('.
func (p *parser) parseNameOrCall() astExpr {
	first := p.ident("a name")
	parts := []ident{first}
	for p.peek().isOp(".") && (p.peekAt(1).kind == tWord || p.peekAt(1).kind == tQuoted) && p.peekAt(2).isOp("(") {
		p.advance()
		parts = append(parts, p.ident("a name"))
	}
	if !p.peek().isOp("(") {
		return &nameExpr{parts: parts}
	}
	names := make([]string, len(parts))
	for i, id := range parts {
		names[i] = strings.ToLower(id.name)
	}
	name := ident{name: strings.Join(names, "."), pos: first.pos, end: parts[len(parts)-1].end}
	return p.parseCall(name)
}

func (p *parser) parseCall(name ident) astExpr {
	p.expectOp("(")
	c := &callExpr{name: name}
	switch {
	case p.peek().isOp("*") && p.peekAt(1).isOp(")"):
		p.advance()
		c.star = true
	case p.peek().isOp(")"):
	default:
		if p.accept("DISTINCT") {
			c.distinct = true
		} else if p.peek().is("ALL") && !p.peekAt(1).isOp(")") && !p.peekAt(1).isOp(",") {
			p.advance()
		}
		for {
			if p.peekAt(1).isOp("=>") {
				p.fail(p.peek(), "named arguments are not supported")
			}
			c.args = append(c.args, p.parseExpr())
			p.nullTreatment(c)
			p.structFieldName(c)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	c.end = p.expectOp(")").end
	p.nullTreatment(c)
	if p.peek().is("WITHIN") {
		p.withinGroup(c)
	}
	p.unitArgument(c)
	if strings.EqualFold(c.name.name, "convert_timezone") && len(c.args) == 2 {
		// convert_timezone(target, ts) converts from the session time zone.
		c.args = append([]astExpr{&callExpr{name: ident{name: "current_timezone", pos: c.name.pos, end: c.name.end}, end: c.name.end}}, c.args...)
	}
	if p.peek().is("FILTER") && p.peekAt(1).isOp("(") {
		p.advance()
		p.advance()
		p.expect("WHERE")
		c.filter = p.parseExpr()
		c.end = p.expectOp(")").end
	}
	if p.peek().is("OVER") {
		c.over, c.end = p.parseOver()
	}
	return c
}

// withinGroup parses the WITHIN GROUP (ORDER BY x) of an ordered-set
// aggregate: percentile_cont(p) or percentile_disc(p) into c's arguments
// (x, p), as Spark's PercentileCont and PercentileDisc take them, and
// mode() into (x, TRUE), Spark's Mode with a sort direction (ties go to
// the smallest value, the largest with DESC).
func (p *parser) withinGroup(c *callExpr) {
	t := p.advance()
	p.expect("GROUP")
	p.expectOp("(")
	p.expect("ORDER")
	p.expect("BY")
	x := p.parseExpr()
	isMode := strings.EqualFold(c.name.name, "mode")
	if d := p.peek(); d.is("DESC") && !isMode {
		p.fail(d, "WITHIN GROUP (ORDER BY x DESC) is not supported yet: order ascending and take 1 - p")
	}
	desc := p.accept("DESC")
	if !desc {
		p.accept("ASC")
	}
	if p.peek().is("NULLS") {
		// NULLs are skipped whatever their place.
		p.advance()
		if !p.accept("FIRST") {
			p.expect("LAST")
		}
	}
	c.end = p.expectOp(")").end
	name := strings.ToLower(c.name.name)
	if isMode {
		if len(c.args) != 0 || c.distinct {
			p.errorAt(c.name.pos, c.end, "WRONG_NUM_ARGS", "write mode() WITHIN GROUP (ORDER BY x), or mode(x)",
				"mode takes no argument before WITHIN GROUP")
			return
		}
		c.args = []astExpr{x, &litExpr{typ: types.BooleanType, val: true, text: "true", pos: t.pos, end: t.end}}
		c.withinGroup, c.withinDesc = true, desc
		return
	}
	if name != "percentile_cont" && name != "percentile_disc" {
		p.errorAt(t.pos, c.end, "UNSUPPORTED_FEATURE", "write percentile_cont(p), percentile_disc(p) or mode() WITHIN GROUP (ORDER BY x)",
			"WITHIN GROUP applies to percentile_cont, percentile_disc and mode, not %s", name)
		return
	}
	if len(c.args) != 1 || c.distinct {
		p.errorAt(c.name.pos, c.end, "WRONG_NUM_ARGS", "write "+name+"(p) WITHIN GROUP (ORDER BY x) with one constant percentage p",
			"%s takes one percentage before WITHIN GROUP", name)
		return
	}
	c.args = []astExpr{x, c.args[0]}
	c.withinGroup = true
}

// unitFunctions maps the functions whose first argument is a unit keyword
// when they have three arguments (Spark's timestampdiff/timestampadd
// grammar rules: TIMESTAMPDIFF | DATEDIFF | DATE_DIFF | TIMESTAMP_DIFF | TIMEDIFF and
// TIMESTAMPADD | DATEADD | DATE_ADD) to the function they call.
var unitFunctions = map[string]string{
	"timestampdiff": "timestampdiff", "timestamp_diff": "timestampdiff", "datediff": "timestampdiff", "date_diff": "timestampdiff",
	"timediff":     "timestampdiff",
	"timestampadd": "timestampadd", "dateadd": "timestampadd", "date_add": "timestampadd",
}

// diffUnits are the units of timestampdiff; timestampadd also takes DAYOFYEAR.
var diffUnits = []string{"MICROSECOND", "MILLISECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER", "YEAR"}

// unitArgument turns the unit keyword of timestampdiff(unit, a, b) and
// timestampadd(unit, n, ts) (and their datediff/dateadd spellings with
// three arguments) into a string constant, and names the function called.
func (p *parser) unitArgument(c *callExpr) {
	fn, ok := unitFunctions[strings.ToLower(c.name.name)]
	if !ok || len(c.args) != 3 && fn != strings.ToLower(c.name.name) {
		return
	}
	n, isName := c.args[0].(*nameExpr)
	if !isName || len(n.parts) != 1 {
		if len(c.args) == 3 {
			s, e := c.args[0].span()
			p.errorAt(s, e, "INVALID_PARAMETER_VALUE.DATETIME_UNIT", "write the unit as a keyword, e.g. "+fn+"(DAY, ...)",
				"the first argument of %s must be a unit: %s", fn, strings.Join(diffUnits, ", "))
		}
		return
	}
	id := n.parts[0]
	unit := strings.ToUpper(id.name)
	if !slices.Contains(diffUnits, unit) && !(fn == "timestampadd" && unit == "DAYOFYEAR") {
		p.errorAt(id.pos, id.end, "INVALID_PARAMETER_VALUE.DATETIME_UNIT", "use one of "+strings.Join(diffUnits, ", "),
			"%s is not a unit of %s", id.name, fn)
		return
	}
	c.name.name = fn
	c.args[0] = &litExpr{typ: types.StringType, val: unit, text: unit, pos: id.pos, end: id.end}
}

// structFieldName parses the name Spark lets struct's arguments have,
// `struct(a AS x, b + 1 y)` (a namedExpression: AS optional), into
// c.argNames for the argument just parsed.
func (p *parser) structFieldName(c *callExpr) {
	t := p.peek()
	if !strings.EqualFold(c.name.name, "struct") || !(t.is("AS") || canAlias(t)) {
		return
	}
	p.accept("AS")
	id := p.ident("a field name")
	for len(c.argNames) < len(c.args) {
		c.argNames = append(c.argNames, "")
	}
	c.argNames[len(c.args)-1] = id.name
}

// ignoreNullsArgs is the number of arguments before the ignore-nulls flag
// of the functions that take one (Spark's isIgnoreNull).
var ignoreNullsArgs = map[string]int{"first": 1, "first_value": 1, "last": 1, "last_value": 1, "any_value": 1, "nth_value": 2}

// nullTreatment parses Spark's null treatment of a call, `IGNORE NULLS` or
// `RESPECT NULLS`, inside its parentheses after the arguments or after
// them (`first(x IGNORE NULLS)`, `last_value(x) IGNORE NULLS OVER (...)`),
// as the function's ignore-nulls flag argument.
func (p *parser) nullTreatment(c *callExpr) {
	t := p.peek()
	if !(t.is("IGNORE") || t.is("RESPECT")) || !p.peekAt(1).is("NULLS") {
		return
	}
	name := strings.ToLower(c.name.name)
	n, ok := ignoreNullsArgs[name]
	if !ok {
		p.fail(t, fmt.Sprintf("%s NULLS applies to first, last, first_value, last_value, any_value and nth_value, not %s", strings.ToUpper(t.val), name))
	}
	if len(c.args) < n {
		p.fail(t, fmt.Sprintf("write %s NULLS after the arguments of %s", strings.ToUpper(t.val), name))
	}
	if len(c.args) > n {
		p.fail(t, fmt.Sprintf("%s already has its ignore-nulls argument: write either the argument or %s NULLS", name, strings.ToUpper(t.val)))
	}
	p.advance()
	end := p.advance().end
	c.args = append(c.args, &litExpr{typ: types.BooleanType, val: t.is("IGNORE"), text: p.text[t.pos:end], pos: t.pos, end: end})
}

func (p *parser) parseOver() (*windowSpec, int) {
	t := p.advance()
	if id := p.peek(); id.kind == tWord || id.kind == tQuoted {
		// OVER w: a window of the WINDOW clause.
		p.advance()
		return p.namedWindow(t.pos, id.val), id.end
	}
	return p.parseWindowSpec(t.pos)
}

// namedWindow returns the window specification of an OVER clause that
// names name, to be filled in by the WINDOW clause of the current SELECT.
func (p *parser) namedWindow(pos int, name string) *windowSpec {
	w := &windowSpec{pos: pos, name: name}
	if n := len(p.named); n > 0 {
		p.named[n-1] = append(p.named[n-1], w)
	}
	return w
}

// parseWindowSpec parses a parenthesized window specification:
// (PARTITION BY ... ORDER BY ... frame), or (name) for a named window.
func (p *parser) parseWindowSpec(pos int) (*windowSpec, int) {
	w := &windowSpec{pos: pos}
	if id := p.peekAt(1); p.peek().isOp("(") && (id.kind == tWord || id.kind == tQuoted) && p.peekAt(2).isOp(")") &&
		!id.is("PARTITION") && !id.is("DISTRIBUTE") && !id.is("ORDER") && !id.is("SORT") && !id.is("ROWS") && !id.is("RANGE") {
		p.advance()
		p.advance()
		return p.namedWindow(pos, id.val), p.advance().end
	}
	p.expectOp("(")
	if p.accept("PARTITION") || p.accept("DISTRIBUTE") {
		p.expect("BY")
		for {
			w.partitionBy = append(w.partitionBy, p.parseExpr())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if p.accept("ORDER") || p.accept("SORT") {
		p.expect("BY")
		w.orderBy = p.parseOrderItems()
	}
	if t := p.peek(); t.is("ROWS") || t.is("RANGE") {
		p.advance()
		f := &frameSpec{rows: t.is("ROWS"), pos: t.pos}
		if p.accept("BETWEEN") {
			f.start = p.parseFrameBound()
			p.expect("AND")
			f.end = p.parseFrameBound()
		} else {
			// ROWS x is ROWS BETWEEN x AND CURRENT ROW.
			f.start = p.parseFrameBound()
			f.end = frameBound{kind: boundCurrentRow}
		}
		f.end2 = p.peek().pos
		w.frame = f
	}
	end := p.expectOp(")").end
	return w, end
}

func (p *parser) parseFrameBound() frameBound {
	switch t := p.peek(); {
	case p.accept("UNBOUNDED"):
		if p.accept("PRECEDING") {
			return frameBound{kind: boundUnboundedPreceding, pos: t.pos}
		}
		p.expect("FOLLOWING")
		return frameBound{kind: boundUnboundedFollowing, pos: t.pos}
	case p.accept("CURRENT"):
		p.expect("ROW")
		return frameBound{kind: boundCurrentRow, pos: t.pos}
	default:
		b := frameBound{offset: p.parseComparison(), pos: t.pos}
		b.kind = boundPreceding
		if !p.accept("PRECEDING") {
			p.expect("FOLLOWING")
			b.kind = boundFollowing
		}
		return b
	}
}

func (p *parser) parseCase() astExpr {
	t := p.advance()
	c := &caseExpr{pos: t.pos}
	if !p.peek().is("WHEN") {
		c.operand = p.parseExpr()
	}
	for p.accept("WHEN") {
		cond := p.parseExpr()
		p.expect("THEN")
		c.whens = append(c.whens, whenArm{cond: cond, then: p.parseExpr()})
	}
	if len(c.whens) == 0 {
		p.fail(p.peek(), "expected WHEN")
	}
	if p.accept("ELSE") {
		c.els = p.parseExpr()
	}
	c.end = p.expect("END").end
	return c
}

// parseExtract turns EXTRACT(field FROM x), and EXTRACT('field', x), into
// date_part('field', x), which the checker resolves by the field and x's
// type.
func (p *parser) parseExtract() astExpr {
	t := p.advance()
	p.advance()
	var field astExpr
	if f := p.peek(); f.kind == tString {
		p.advance()
		field = &litExpr{typ: types.StringType, val: f.val, text: p.text[f.pos:f.end], str: f.val, pos: f.pos, end: f.end}
	} else {
		id := p.ident("a date or time field")
		field = &litExpr{typ: types.StringType, val: id.name, text: "'" + id.name + "'", str: id.name, pos: id.pos, end: id.end}
	}
	if !p.accept("FROM") {
		p.expectOp(",")
	}
	x := p.parseExpr()
	end := p.expectOp(")").end
	return &callExpr{name: ident{name: "date_part", pos: t.pos, end: t.end}, args: []astExpr{field, x}, end: end}
}

// parseSubstringFrom parses SUBSTRING(x FROM a [FOR b]); it returns nil,
// consuming nothing, for the plain call form.
func (p *parser) parseSubstringFrom() astExpr {
	save := p.i
	t := p.advance()
	p.advance()
	x := p.parseExpr()
	if !p.accept("FROM") {
		p.i = save
		return nil
	}
	args := []astExpr{x, p.parseExpr()}
	if p.accept("FOR") {
		args = append(args, p.parseExpr())
	}
	end := p.expectOp(")").end
	return &callExpr{name: ident{name: "substring", pos: t.pos, end: t.end}, args: args, end: end}
}

// parseTrim parses TRIM([[BOTH|LEADING|TRAILING] [chars] FROM] x) into
// trim, ltrim or rtrim, with Spark's function argument order: (x) or
// (chars, x).
func (p *parser) parseTrim() astExpr {
	t := p.advance()
	p.advance()
	fn := "trim"
	switch {
	case p.accept("BOTH"):
	case p.accept("LEADING"):
		fn = "ltrim"
	case p.accept("TRAILING"):
		fn = "rtrim"
	}
	var args []astExpr
	if p.accept("FROM") {
		args = []astExpr{p.parseExpr()}
	} else {
		first := p.parseExpr()
		switch {
		case p.accept("FROM"):
			args = []astExpr{first, p.parseExpr()}
		case fn == "trim" && p.acceptOp(","):
			args = []astExpr{first, p.parseExpr()}
		default:
			args = []astExpr{first}
		}
	}
	end := p.expectOp(")").end
	return &callExpr{name: ident{name: fn, pos: t.pos, end: t.end}, args: args, end: end}
}

func (p *parser) parseTypedLiteral(kw token) astExpr {
	p.advance()
	s := p.advance()
	if s.parts != nil {
		p.errorAt(s.pos, s.end, "INVALID_TYPED_LITERAL", "use CAST to convert a parameter", "typed literals cannot contain parameters")
		return &badExpr{pos: kw.pos, end: s.end}
	}
	lit := &litExpr{text: p.text[kw.pos:s.end], str: s.val, pos: kw.pos, end: s.end}
	ok := true
	switch k := upper(kw); k {
	case "DATE":
		d, good := parseDate(s.val)
		lit.typ, lit.val, ok = types.DateType, d, good
	case "TIMESTAMP", "TIMESTAMP_LTZ", "TIMESTAMP_NTZ":
		ntz := k == "TIMESTAMP_NTZ"
		ts, good := parseTimestamp(s.val, ntz)
		lit.typ, lit.val, ok = types.TimestampType, ts, good
		if ntz {
			lit.typ = types.TimestampNTZType
		}
	case "TIME":
		micros, good := parseTimeOfDay(s.val)
		lit.typ, lit.val, lit.timeOfDay, ok = types.StringType, micros, true, good
	case "X":
		b, good := parseHex(s.val)
		lit.typ, lit.val, ok = types.BinaryType, b, good
	}
	if !ok {
		p.errorAt(s.pos, s.end, "INVALID_TYPED_LITERAL", "", "the value of the typed literal %s is invalid: %s", upper(kw), s.describe())
		return &badExpr{pos: kw.pos, end: s.end}
	}
	return lit
}

func parseHex(s string) ([]byte, bool) {
	if len(s)%2 == 1 {
		s = "0" + s
	}
	b := make([]byte, len(s)/2)
	for i := range b {
		var v byte
		for _, c := range []byte(s[2*i : 2*i+2]) {
			switch {
			case c >= '0' && c <= '9':
				v = v<<4 | (c - '0')
			case c >= 'a' && c <= 'f':
				v = v<<4 | (c - 'a' + 10)
			case c >= 'A' && c <= 'F':
				v = v<<4 | (c - 'A' + 10)
			default:
				return nil, false
			}
		}
		b[i] = v
	}
	return b, true
}
