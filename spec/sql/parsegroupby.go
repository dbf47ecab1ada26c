package sql

import (
	"slices"
	"strings"
)

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
