package sql

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
