package sql

import (
	"fmt"
	"strings"
)

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
