package sql

import (
	"strings"
)

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
