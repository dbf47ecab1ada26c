package sql

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file checks aggregating SELECTs: GROUP BY (expressions, ordinals,
// aliases, ALL, grouping sets), aggregate calls in the SELECT list, HAVING
// and ORDER BY, and the rule that every other column be grouped (Spark's
// MISSING_AGGREGATION).
//
// It works in two phases. First every expression is checked over the
// Aggregate's input, aggregate calls standing as aggRef nodes. Then
// lowerAgg rewrites it over the Aggregate's output: a sub-expression equal
// to a GROUP BY expression becomes a reference to that group column, an
// aggregate call a reference to its result column; a column of the input
// left over is an error.

// aggState collects the groups and aggregate calls of one SELECT.
type aggState struct {
	groups        []Expr
	groupNames    []string
	groupKeys     []string
	groupNullable []bool
	aggs          []*AggCall
	aggNames      []string
	aggKeys       []string
	// grouped is false for a global aggregate (no GROUP BY).
	grouped bool
	// sets is true with GROUPING SETS, ROLLUP or CUBE, where grouping()
	// and grouping_id() are allowed.
	sets bool
}

// addGroup adds a group expression unless an equal one is there; it
// returns its index.
func (st *aggState) addGroup(e Expr, name string) int {
	key := FormatExpr(e)
	for i, k := range st.groupKeys {
		if k == key {
			return i
		}
	}
	st.groups = append(st.groups, e)
	st.groupNames = append(st.groupNames, name)
	st.groupKeys = append(st.groupKeys, key)
	st.groupNullable = append(st.groupNullable, e.IsNullable())
	return len(st.groups) - 1
}

// ref returns the reference to column i of the Aggregate's output.
func (st *aggState) ref(i int) *ColumnRef {
	if i < len(st.groups) {
		return &ColumnRef{Index: i, Name: st.groupNames[i], Type: st.groups[i].ResultType(), Nullable: st.groupNullable[i]}
	}
	a := st.aggs[i-len(st.groups)]
	return &ColumnRef{Index: i, Name: st.aggNames[i-len(st.groups)], Type: a.Type, Nullable: a.Nullable}
}

// aggIndex returns the output index of an aggregate call, adding it unless
// an equal one is there.
func (st *aggState) aggIndex(r *aggRef) int {
	var b strings.Builder
	writeAgg(&b, r.call)
	key := b.String()
	for j, k := range st.aggKeys {
		if k == key {
			return len(st.groups) + j
		}
	}
	st.aggs = append(st.aggs, r.call)
	st.aggNames = append(st.aggNames, r.name)
	st.aggKeys = append(st.aggKeys, key)
	return len(st.groups) + len(st.aggs) - 1
}

func (st *aggState) columns() []Column {
	cols := make([]Column, 0, len(st.groups)+len(st.aggs))
	for i := range st.groups {
		r := st.ref(i)
		cols = append(cols, Column{Name: r.Name, Type: r.Type, Nullable: r.Nullable})
	}
	for j, a := range st.aggs {
		cols = append(cols, Column{Name: st.aggNames[j], Type: a.Type, Nullable: a.Nullable})
	}
	return cols
}

func containsAgg(e Expr) bool {
	if _, ok := e.(*aggRef); ok {
		return true
	}
	for _, k := range children(e) {
		if containsAgg(k) {
			return true
		}
	}
	return false
}

// aggregateQuery checks a SELECT with GROUP BY, HAVING or aggregate calls.
func (c *checker) aggregateQuery(s *selectStmt, items []selItem, input Plan, sc *scope, order []*orderItem) Plan {
	st := &aggState{grouped: s.groupBy != nil}
	ws := &winState{}
	ctx := &exprCtx{sc: sc, clause: "the SELECT list", agg: st, win: ws}
	p1 := make([]Expr, len(items))
	for i, it := range items {
		ctx.aliases = lateralAliases(items[:i], p1[:i])
		p1[i] = c.item(it, ctx)
		items[i].name = resolvedName(it, p1[i])
	}
	ctx.aliases = nil
	aliases := aliasMap(items, p1)
	failed := false
	var groupOf []int
	if g := s.groupBy; g != nil && g.all && len(g.exprs) == 1 && resolves(sc, g.exprs[0]) {
		// GROUP BY all with a column named all groups by that column
		// (group-by-all.sql.out: SELECT count(1) FROM VALUES(1), (2), (3)
		// AS T(all) GROUP BY all gives three rows).
		e, name := c.groupExpr(g.exprs[0], items, p1, sc, aliases)
		if isBad(e) {
			failed = true
		} else {
			groupOf = append(groupOf, st.addGroup(e, name))
		}
	} else if g != nil && g.all {
		for i, e := range p1 {
			if !isBad(e) && !containsAgg(e) {
				st.addGroup(e, items[i].name)
			}
		}
	} else if g != nil {
		for _, ge := range g.exprs {
			e, name := c.groupExpr(ge, items, p1, sc, aliases)
			if isBad(e) {
				failed = true
				groupOf = append(groupOf, -1)
				continue
			}
			groupOf = append(groupOf, st.addGroup(e, name))
		}
	}
	var sets [][]int
	if g := s.groupBy; g != nil && g.sets != nil && !failed {
		for _, set := range g.sets {
			seen := map[int]bool{}
			out := []int{}
			for _, i := range set {
				if k := groupOf[i]; !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
			sets = append(sets, out)
			st.sets = true
			for i := range st.groups {
				// A group column absent from a set is NULL in its rows.
				st.groupNullable[i] = st.groupNullable[i] || !seen[i]
			}
		}
	}
	if failed {
		return nil
	}
	exprs := make([]Expr, len(p1))
	starFailed := map[int]bool{}
	for i, e := range p1 {
		n := len(c.errs)
		exprs[i] = c.lowerAgg(e, st)
		if it := items[i]; it.ast == nil && len(c.errs) > n {
			// One error for a *, not one for each of its columns.
			if starFailed[it.pos] {
				c.errs = c.errs[:n]
			}
			starFailed[it.pos] = true
		}
	}
	agg := &Aggregate{Input: input, GroupingSets: sets}
	var below Plan = agg
	if s.having != nil {
		h := c.expr(s.having, &exprCtx{sc: sc, clause: "HAVING", agg: st, aliases: aliases})
		if !isBad(h) && h.ResultType().IsNumeric() {
			// Spark casts a numeric HAVING condition to BOOLEAN (non-zero
			// is true: HAVING SUM(v) + 1), unlike a WHERE condition.
			h = c.castTo(h, types.BooleanType, s.having)
		} else if !isBad(h) {
			h = c.toBoolean(h, s.having, "the HAVING condition")
		}
		if h = c.lowerAgg(h, st); isBad(h) {
			return nil
		}
		below = &Filter{Input: agg, Cond: h}
	}
	settled := false
	settle := func() {
		agg.Groups, agg.Aggs, agg.Columns = st.groups, st.aggs, st.columns()
		settled = true
	}
	qctx := &exprCtx{sc: sc, clause: "QUALIFY", agg: st, win: ws, aliases: aliases}
	below, exprs, ok := c.selectWindows(s, below, exprs, qctx, func(e Expr) Expr { return c.lowerAgg(e, st) }, settle)
	if !ok {
		return nil
	}
	orderExpr := func(e astExpr) Expr {
		n := len(st.aggs)
		x := c.lowerAgg(c.expr(e, &exprCtx{sc: sc, clause: "ORDER BY", agg: st}), st)
		if settled && len(st.aggs) != n {
			c.errorAt(e, "UNSUPPORTED_FEATURE", "add the aggregate to the SELECT list",
				"ORDER BY an aggregate that is not in the SELECT list is not supported together with window functions yet")
			return bad
		}
		return x
	}
	p := c.finishSelect(below, items, exprs, s.distinct, order, orderExpr)
	// ORDER BY may have added aggregate calls: settle the Aggregate last.
	agg.Groups, agg.Aggs, agg.Columns = st.groups, st.aggs, st.columns()
	if !c.expandSlidingWindows(agg) {
		return nil
	}
	return p
}

// groupExpr checks one GROUP BY expression: an ordinal of the SELECT list,
// an expression over the input, or an alias of the SELECT list.
func (c *checker) groupExpr(g astExpr, items []selItem, p1 []Expr, sc *scope, aliases map[string]Expr) (Expr, string) {
	if n, ok := ordinal(g); ok {
		for _, it := range items {
			if it.ast == nil { // a column of a star
				c.errorAt(g, "STAR_GROUP_BY_POS", "list the columns instead of *, or group by names",
					"a star (*) is not allowed in a SELECT list when GROUP BY uses a position")
				return bad, ""
			}
		}
		if n < 1 || n > int64(len(items)) {
			c.errorAt(g, "GROUP_BY_POS_OUT_OF_RANGE", fmt.Sprintf("the SELECT list has %s", itemsText(len(items))), "GROUP BY position %d is not in the select list", n)
			return bad, ""
		}
		e := p1[n-1]
		if !isBad(e) && containsAgg(e) {
			c.errorAt(g, "GROUP_BY_POS_AGGREGATE", "", "GROUP BY position %d refers to an aggregate function", n)
			return bad, ""
		}
		return e, items[n-1].name
	}
	e := c.expr(g, &exprCtx{sc: sc, clause: "GROUP BY", aliases: aliases})
	if !isBad(e) && containsAgg(e) {
		c.errorAt(g, "GROUP_BY_AGGREGATE", "", "GROUP BY cannot use an aggregate function")
		return bad, ""
	}
	return e, resolvedName(selItem{ast: g, name: autoName(g)}, e)
}

// lowerAgg rewrites e, checked over the Aggregate's input, over its output.
func (c *checker) lowerAgg(e Expr, st *aggState) Expr {
	if isBad(e) {
		return bad
	}
	var missing *ColumnRef
	failed := false
	out := mapExpr(e, func(x Expr) (Expr, bool) {
		if r, ok := x.(*aggRef); ok {
			if !c.checkGrouping(r, st) {
				failed = true
			}
			return st.ref(st.aggIndex(r)), true
		}
		if _, ok := x.(*Literal); !ok {
			key := FormatExpr(x)
			for i, k := range st.groupKeys {
				if k == key {
					return st.ref(i), true
				}
			}
		}
		if col, ok := x.(*ColumnRef); ok {
			if missing == nil {
				missing = col
			}
			return x, true
		}
		return nil, false
	})
	if failed {
		return bad
	}
	if missing == nil {
		return out
	}
	span := c.colSpans[missing]
	if st.grouped {
		c.errorf(span[0], span[1], "MISSING_AGGREGATION", fmt.Sprintf("add it to GROUP BY, or aggregate it, e.g. any_value(%s)", missing.Name),
			"column %q is neither grouped nor aggregated", missing.Name)
	} else {
		c.errorf(span[0], span[1], "MISSING_GROUP_BY", fmt.Sprintf("add GROUP BY %s, or aggregate it, e.g. any_value(%s)", missing.Name, missing.Name),
			"column %q is read outside an aggregate function in a query without GROUP BY", missing.Name)
	}
	return bad
}

// checkGrouping checks a call of grouping(col) or grouping_id(cols...)
// (other aggregates pass): Spark allows them only with GROUPING SETS,
// ROLLUP or CUBE; grouping's argument must be a group column, and
// grouping_id's arguments, when given, exactly the group columns in order
// (Spark's UNSUPPORTED_GROUPING_EXPRESSION, GROUPING_COLUMN_MISMATCH and
// GROUPING_ID_COLUMN_MISMATCH).
func (c *checker) checkGrouping(r *aggRef, st *aggState) bool {
	a := r.call
	if a.Func != "grouping" && a.Func != "grouping_id" {
		return true
	}
	groups := strings.Join(st.groupNames, ", ")
	switch {
	case !st.sets:
		c.errorf(a.Pos, r.end, "UNSUPPORTED_GROUPING_EXPRESSION", "group with GROUP BY ROLLUP (...), CUBE (...) or GROUPING SETS (...); with a plain GROUP BY every row is a full group",
			"%s() can only be used with GROUPING SETS, ROLLUP or CUBE", a.Func)
		return false
	case a.Func == "grouping":
		key := FormatExpr(a.Args[0])
		for _, k := range st.groupKeys {
			if k == key {
				return true
			}
		}
		c.errorf(a.Pos, r.end, "GROUPING_COLUMN_MISMATCH", "pass one of the GROUP BY columns",
			"column of grouping (%s) can't be found in grouping columns (%s)", shownExpr(a.Args[0]), groups)
		return false
	case len(a.Args) > 0:
		keys, shown := make([]string, len(a.Args)), make([]string, len(a.Args))
		for i, x := range a.Args {
			keys[i], shown[i] = FormatExpr(x), shownExpr(x)
		}
		if strings.Join(keys, "\x00") != strings.Join(st.groupKeys, "\x00") {
			c.errorf(a.Pos, r.end, "GROUPING_ID_COLUMN_MISMATCH", "write grouping_id() for all GROUP BY columns, or list exactly them in order",
				"columns of grouping_id (%s) do not match grouping columns (%s)", strings.Join(shown, ", "), groups)
			return false
		}
	}
	return true
}

// columnIDs matches the #n that FormatExpr gives a column reference.
var columnIDs = regexp.MustCompile(`#[0-9]+`)

// shownExpr formats e for a message: as FormatExpr without column numbers.
func shownExpr(e Expr) string { return columnIDs.ReplaceAllString(FormatExpr(e), "") }

// resolves reports whether a name expression names a column of sc.
func resolves(sc *scope, e astExpr) bool {
	n, ok := e.(*nameExpr)
	if !ok {
		return false
	}
	_, _, err := sc.resolve(n.parts)
	return err == nil
}
