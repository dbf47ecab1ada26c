package sql

import (
	"strings"
)

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
