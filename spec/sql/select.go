package sql

import (
	"fmt"
	"strings"
)

// This file checks a SELECT: its FROM and WHERE, the SELECT list with *
// expanded, aggregation (aggregate.go), DISTINCT and ORDER BY. The plan is
//
//	[Project (drops ORDER BY-only columns)]
//	  [Sort]
//	    [Distinct]
//	      Project (the SELECT list, plus columns only ORDER BY reads)
//	        [Filter (HAVING)]
//	          [Aggregate]
//	            [Filter (WHERE)]
//	              FROM

// selItem is one SELECT list entry after * expansion.
type selItem struct {
	ast  astExpr // nil for a column from *
	col  int     // the column a * entry stands for
	name string
	// named is set when name is an alias (not derived from the expression).
	named bool
	// qual is the qualifier of a plain column reference, so ORDER BY t.c
	// finds the output column.
	qual     []string
	pos, end int
}

// selectQuery checks a SELECT with the ORDER BY of its query.
func (c *checker) selectQuery(s *selectStmt, order []*orderItem, env *cteEnv) Plan {
	var input Plan
	var sc *scope
	if s.from == nil {
		input, sc = &Values{Rows: [][]Expr{{}}}, &scope{}
	} else if input, sc = c.fromList(s.from, env); input == nil {
		return nil
	}
	for _, lv := range s.lateral {
		if input, sc = c.lateralView(lv, input, sc); input == nil {
			return nil
		}
	}
	if s.where != nil {
		cond := c.boolean(s.where, &exprCtx{sc: sc, clause: "WHERE"}, "the WHERE condition")
		if !isBad(cond) {
			input = &Filter{Input: input, Cond: cond}
		}
	}
	items := c.expandItems(s, sc)
	gi := c.selectGenerator(s, order)
	switch {
	case gi == -2:
		return nil
	case gi >= 0 && s.qualify != nil:
		c.errorAt(s.qualify, "UNSUPPORTED_FEATURE", "filter in an outer query", "QUALIFY with a generator in the SELECT list is not supported yet")
		return nil
	case gi >= 0:
		// The generator runs after WHERE; ORDER BY sees the input's columns.
		var isc *scope
		if input, isc, items = c.generatorItems(s, gi, items, input, sc); input == nil {
			return nil
		}
		ctx := &exprCtx{sc: isc, clause: "the SELECT list"}
		exprs := make([]Expr, len(items))
		for i, it := range items {
			exprs[i] = c.item(it, ctx)
			items[i].name = resolvedName(it, exprs[i])
		}
		orderExpr := func(e astExpr) Expr { return c.expr(e, &exprCtx{sc: sc, clause: "ORDER BY"}) }
		return c.finishSelect(input, items, exprs, s.distinct, order, orderExpr)
	}
	if s.groupBy != nil || s.having != nil || c.hasAggregate(s, order) {
		return c.aggregateQuery(s, items, input, sc, order)
	}
	ws := &winState{}
	ctx := &exprCtx{sc: sc, clause: "the SELECT list", win: ws}
	exprs := make([]Expr, len(items))
	for i, it := range items {
		ctx.aliases = lateralAliases(items[:i], exprs[:i])
		exprs[i] = c.item(it, ctx)
		items[i].name = resolvedName(it, exprs[i])
	}
	ctx.aliases = nil
	qctx := &exprCtx{sc: sc, clause: "QUALIFY", win: ws, aliases: aliasMap(items, exprs)}
	below, exprs, ok := c.selectWindows(s, input, exprs, qctx, func(e Expr) Expr { return e }, func() {})
	if !ok {
		return nil
	}
	orderExpr := func(e astExpr) Expr { return c.expr(e, &exprCtx{sc: sc, clause: "ORDER BY"}) }
	return c.finishSelect(below, items, exprs, s.distinct, order, orderExpr)
}

// resolvedName is the output name of an unaliased column or field
// reference: the name as the relation spells it, not as the query does.
func resolvedName(it selItem, e Expr) string {
	if it.named || it.ast == nil {
		return it.name
	}
	switch x := e.(type) {
	case *ColumnRef:
		return x.Name
	case *FieldRef:
		return x.Name
	case *Call:
		// arr.field over an array of structs (arrayField).
		if l, ok := lambdaArg(x); ok && x.Func == "transform" && len(l.Params) == 1 {
			if f, ok := l.Body.(*FieldRef); ok {
				if v, ok := f.X.(*LambdaVar); ok && v.ID == l.Params[0].ID {
					if _, written := it.ast.(*nameExpr); written {
						return f.Name
					}
				}
			}
		}
	}
	return it.name
}

// lambdaArg returns the lambda function of a higher-order call.
func lambdaArg(c *Call) (*Lambda, bool) {
	for _, a := range c.Args {
		if l, ok := a.(*Lambda); ok {
			return l, true
		}
	}
	return nil, false
}

// item checks one SELECT item.
func (c *checker) item(it selItem, ctx *exprCtx) Expr {
	if it.ast == nil {
		col := ctx.sc.cols[it.col]
		ref := &ColumnRef{Index: it.col, Name: col.Name, Type: col.Type, Nullable: col.Nullable}
		c.colSpans[ref] = [2]int{it.pos, it.end}
		return ref
	}
	return c.expr(it.ast, ctx)
}

// expandItems expands *, t.* and * EXCEPT (...) and names every item.
func (c *checker) expandItems(s *selectStmt, sc *scope) []selItem {
	var items []selItem
	for _, it := range s.items {
		st, ok := it.expr.(*starExpr)
		if !ok {
			si := selItem{ast: it.expr, pos: 0, end: it.end}
			si.pos, _ = it.expr.span()
			if it.alias != nil {
				si.name, si.named = it.alias.name, true
			} else {
				si.name = autoName(it.expr)
				if n, ok := it.expr.(*nameExpr); ok && len(n.parts) > 1 {
					if _, used, err := sc.resolve(n.parts); err == nil && used == len(n.parts) {
						si.qual = identNames(n.parts[:used-1])
					}
				}
			}
			items = append(items, si)
			continue
		}
		cols := sc.starColumns(st.qual)
		if len(cols) == 0 {
			if len(st.qual) > 0 {
				c.errorf(st.pos, st.end, "CANNOT_RESOLVE_STAR_EXPAND", sc.qualHint(st.qual), "%s.* does not name a table of the query", joinIdents(st.qual))
			} else {
				c.errorf(st.pos, st.end, "INVALID_USAGE_OF_STAR_OR_REGEX", "name the values, or add FROM", "* needs a FROM clause with columns")
			}
			continue
		}
		except := map[int]bool{}
		for _, ex := range st.except {
			idx, used, rerr := sc.resolve(ex)
			switch {
			case rerr != nil:
				c.errorf(ex[0].pos, ex[len(ex)-1].end, rerr.code, rerr.hint, "%s", rerr.msg)
			case used != len(ex):
				c.errorf(ex[0].pos, ex[len(ex)-1].end, "UNSUPPORTED_FEATURE", "", "EXCEPT of struct fields is not supported yet")
			default:
				except[idx] = true
			}
		}
		for _, i := range cols {
			if !except[i] {
				col := sc.cols[i]
				items = append(items, selItem{col: i, name: col.Name, qual: col.qual, pos: st.pos, end: st.end})
			}
		}
	}
	return items
}

func identNames(ids []ident) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.name
	}
	return out
}

// hasAggregate reports whether the SELECT list, HAVING or ORDER BY call an
// aggregate function (outside a window).
func (c *checker) hasAggregate(s *selectStmt, order []*orderItem) bool {
	found := false
	visit := func(e astExpr) {
		walkAST(e, func(x astExpr) {
			if call, ok := x.(*callExpr); ok && call.over == nil {
				if f := LookupFunction(call.name.name); f != nil && f.Kind == AggregateFunc {
					found = true
				}
			}
		})
	}
	for _, it := range s.items {
		visit(it.expr)
	}
	visit(s.having)
	for _, o := range order {
		visit(o.expr)
	}
	return found
}

// finishSelect builds the Project of the SELECT list over below, then
// DISTINCT and ORDER BY. exprs are over below. orderExpr checks an ORDER
// BY expression over below, for keys that are not output columns.
func (c *checker) finishSelect(below Plan, items []selItem, exprs []Expr, distinct bool, order []*orderItem, orderExpr func(astExpr) Expr) Plan {
	failed := false
	cols := make([]Column, len(items))
	spans := make([][2]int, len(items))
	outScope := &scope{cols: make([]scopeCol, len(items))}
	for i, e := range exprs {
		if isBad(e) {
			failed = true
			continue
		}
		cols[i] = Column{Name: items[i].name, Type: e.ResultType(), Nullable: e.IsNullable()}
		spans[i] = [2]int{items[i].pos, items[i].end}
		outScope.cols[i] = scopeCol{qual: items[i].qual, Column: cols[i]}
	}
	if failed {
		return nil
	}
	proj := &Project{Input: below, Exprs: exprs, Columns: cols}
	c.itemSpans[proj] = spans
	if len(order) == 0 {
		if distinct {
			return &Distinct{Input: proj}
		}
		return proj
	}
	var keys []SortKey
	keyFailed := false
	for _, o := range order {
		e := c.orderOrdinal(o.expr, cols)
		if e == nil {
			e = c.tryExpr(o.expr, &exprCtx{sc: outScope, clause: "ORDER BY"})
		}
		if e == nil {
			if distinct {
				// With DISTINCT only output columns can be sorted on.
				e = c.expr(o.expr, &exprCtx{sc: outScope, clause: "ORDER BY"})
			} else if e = orderExpr(o.expr); !isBad(e) {
				e = c.outputColumn(proj, e, o.expr)
			}
		}
		if isBad(e) || !c.deterministicOnly(e, o.expr, "ORDER BY") {
			keyFailed = true
			continue
		}
		keys = append(keys, c.sortKey(e, o))
	}
	if keyFailed {
		return nil
	}
	var p Plan = proj
	if distinct {
		p = &Distinct{Input: proj}
	}
	p = &Sort{Input: p, Keys: keys}
	if len(proj.Exprs) > len(items) {
		// Drop the columns only ORDER BY reads.
		refs := make([]Expr, len(items))
		for i, col := range cols {
			refs[i] = &ColumnRef{Index: i, Name: col.Name, Type: col.Type, Nullable: col.Nullable}
		}
		p = &Project{Input: p, Exprs: refs, Columns: cols}
		c.itemSpans[p] = spans
	}
	return p
}

// outputColumn returns a reference to the output column of proj computing
// e (an expression over proj's input), adding a column when none does.
func (c *checker) outputColumn(proj *Project, e Expr, at astExpr) Expr {
	key := FormatExpr(e)
	for i, x := range proj.Exprs {
		if FormatExpr(x) == key {
			col := proj.Columns[i]
			return &ColumnRef{Index: i, Name: col.Name, Type: col.Type, Nullable: col.Nullable}
		}
	}
	name := autoName(at)
	proj.Exprs = append(proj.Exprs, e)
	proj.Columns = append(proj.Columns, Column{Name: name, Type: e.ResultType(), Nullable: e.IsNullable(), Hidden: true})
	return &ColumnRef{Index: len(proj.Exprs) - 1, Name: name, Type: e.ResultType(), Nullable: e.IsNullable()}
}

// tryExpr checks e, returning nil instead of reporting when it fails.
func (c *checker) tryExpr(e astExpr, ctx *exprCtx) Expr {
	n := len(c.errs)
	x := c.expr(e, ctx)
	if len(c.errs) > n || isBad(x) {
		c.errs = c.errs[:n]
		return nil
	}
	return x
}

// aliasMap maps the lower-case aliases of a SELECT list to their checked
// expressions (ambiguous aliases are left out).
func aliasMap(items []selItem, exprs []Expr) map[string]Expr {
	m := map[string]Expr{}
	dup := map[string]bool{}
	for i, it := range items {
		if it.ast == nil || isBad(exprs[i]) {
			continue
		}
		k := strings.ToLower(it.name)
		if _, ok := m[k]; ok {
			dup[k] = true
		}
		m[k] = exprs[i]
	}
	for k := range dup {
		delete(m, k)
	}
	return m
}

// lateralAliases are the aliases of the SELECT items before the one being
// checked, which a name that is no column refers to (Spark's lateral
// column aliases: SELECT col1 AS a, a + 1 AS b); an item with a window
// function is left out.
func lateralAliases(items []selItem, exprs []Expr) map[string]Expr {
	m := aliasMap(items, exprs)
	for k, e := range m {
		if hasWindow(e) {
			delete(m, k)
		}
	}
	return m
}

// ordinal returns the 1-based position an integer literal names.
func ordinal(e astExpr) (int64, bool) {
	l, ok := e.(*litExpr)
	if !ok {
		return 0, false
	}
	return intValue(&Literal{Value: l.val})
}

func itemsText(n int) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}
