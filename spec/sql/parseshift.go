package sql

// This file parses Spark's shift operators a << n, a >> n and a >>> n,
// which bind tighter than & and looser than + and - (SqlBaseParser's
// shiftOperator). The lexer has no << or >> token, so that the > > closing
// ARRAY<ARRAY<INT>> stays two tokens: a shift is two or three adjacent
// < or > tokens, read as shiftleft(a, n), shiftright(a, n) or
// shiftrightunsigned(a, n).

// parseShift parses a left-associative chain of shifts over additive
// operands.
func (p *parser) parseShift() astExpr {
	l := p.parseAdditive()
	for {
		name, n := p.shiftOperator()
		if n == 0 {
			return l
		}
		t := p.peek()
		for range n {
			p.advance()
		}
		r := p.parseAdditive()
		_, end := r.span()
		l = &callExpr{name: ident{name: name, pos: t.pos, end: t.pos + n}, args: []astExpr{l, r}, end: end}
	}
}

// shiftOperator returns the function of the shift operator at the next
// tokens and how many tokens it has, or 0 when there is none.
func (p *parser) shiftOperator() (string, int) {
	t0, t1 := p.peek(), p.peekAt(1)
	adjacent := func(a, b token) bool { return a.end == b.pos }
	switch {
	case t0.isOp("<") && t1.isOp("<") && adjacent(t0, t1):
		return "shiftleft", 2
	case t0.isOp(">") && t1.isOp(">") && adjacent(t0, t1):
		if t2 := p.peekAt(2); t2.isOp(">") && adjacent(t1, t2) {
			return "shiftrightunsigned", 3
		}
		return "shiftright", 2
	}
	return "", 0
}

// parsePositionIn parses POSITION(substr IN str) into locate(substr, str),
// or returns nil (having consumed nothing) for the call form position(a, b).
func (p *parser) parsePositionIn() astExpr {
	save := p.i
	t := p.advance()
	p.advance()
	x := p.parseComparison()
	if !p.accept("IN") {
		p.i = save
		return nil
	}
	args := []astExpr{x, p.parseComparison()}
	end := p.expectOp(")").end
	return &callExpr{name: ident{name: "locate", pos: t.pos, end: t.end}, args: args, end: end}
}
