package sql

import (
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

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
