package sql

import (
	"fmt"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file checks generator functions (explode, explode_outer,
// posexplode, posexplode_outer, inline, inline_outer) in a LATERAL VIEW or
// alone in a SELECT item, into a Generate plan node (Spark's Generate and
// its analyzer rules: one generator per SELECT, not nested in expressions,
// as many aliases as columns).

// generatorCall returns the generator function e calls, or nil.
func generatorCall(e astExpr) (*callExpr, *Function) {
	call, ok := e.(*callExpr)
	if !ok || call.over != nil {
		return nil, nil
	}
	if fn := LookupFunction(call.name.name); fn != nil && fn.Kind == GeneratorFunc {
		return call, fn
	}
	return nil, nil
}

// generate checks the generator call over input (scope sc) and returns
// the Generate node; names are the aliases of its columns (none: Spark's
// defaults). outer is set by LATERAL VIEW OUTER.
func (c *checker) generate(call *callExpr, fn *Function, outer bool, names []ident, input Plan, sc *scope, clause string) *Generate {
	if len(call.args) != 1 || call.star || call.distinct || call.filter != nil {
		c.errorf(call.name.pos, call.end, "WRONG_NUM_ARGS", "", "%s takes 1 argument", fn.Name)
		return nil
	}
	arg := c.expr(call.args[0], &exprCtx{sc: sc, clause: clause})
	if isBad(arg) {
		return nil
	}
	t := arg.ResultType()
	base := strings.TrimSuffix(fn.Name, "_outer")
	outer = outer || base != fn.Name
	var cols []Column
	switch {
	case base == "inline" && t.Kind == types.ArrayKind && t.Elem.Kind == types.StructKind:
		for _, f := range t.Elem.Fields {
			cols = append(cols, Column{Name: f.Name, Type: f.Type, Nullable: f.Nullable || t.ContainsNull})
		}
	case base == "inline":
		c.errorAt(call.args[0], "DATATYPE_MISMATCH", "", "inline needs an array of structs, not %s", t)
		return nil
	case t.Kind == types.ArrayKind:
		cols = []Column{{Name: "col", Type: *t.Elem, Nullable: t.ContainsNull}}
	case t.Kind == types.MapKind:
		cols = []Column{{Name: "key", Type: *t.Key}, {Name: "value", Type: *t.Value, Nullable: t.ValueContainsNull}}
	default:
		c.errorAt(call.args[0], "DATATYPE_MISMATCH", "", "%s needs an ARRAY or a MAP, not %s", fn.Name, t)
		return nil
	}
	if base == "posexplode" {
		cols = append([]Column{{Name: "pos", Type: types.IntType}}, cols...)
	}
	if len(names) > 0 {
		if len(names) != len(cols) {
			c.errorf(names[0].pos, names[len(names)-1].end, "UDTF_ALIAS_NUMBER_MISMATCH", fmt.Sprintf("give %s", namesText(cols)),
				"%s yields %d columns but %d names are given", fn.Name, len(cols), len(names))
			return nil
		}
		for i := range cols {
			cols[i].Name = names[i].name
		}
	}
	for i := range cols {
		cols[i].Nullable = cols[i].Nullable || outer
	}
	return &Generate{Input: input, Func: base, Arg: arg, Outer: outer, Columns: append(append([]Column(nil), input.Output()...), cols...)}
}

func namesText(cols []Column) string {
	if len(cols) == 1 {
		return "one name"
	}
	return fmt.Sprintf("%d names, e.g. AS (%s)", len(cols), strings.Join(columnNames(cols), ", "))
}

func columnNames(cols []Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// lateralView checks LATERAL VIEW [OUTER] generator(arg) t [AS] cols over
// input: its columns join the scope, qualified by t.
func (c *checker) lateralView(lv *lateralView, input Plan, sc *scope) (Plan, *scope) {
	call, fn := generatorCall(lv.call)
	if fn == nil {
		c.errorf(lv.call.name.pos, lv.call.end, "NOT_A_GENERATOR", "use explode, posexplode, inline or their _outer forms",
			"%s is not a generator function", lv.call.name.name)
		return nil, nil
	}
	g := c.generate(call, fn, lv.outer, lv.columns, input, sc, "LATERAL VIEW")
	if g == nil {
		return nil, nil
	}
	out := &scope{cols: append([]scopeCol(nil), sc.cols...)}
	for _, col := range g.Columns[len(sc.cols):] {
		out.cols = append(out.cols, scopeCol{qual: []string{lv.table.name}, Column: col})
	}
	return g, out
}

// selectGenerator finds the generator of a SELECT list. It returns the
// item holding it (-1 when there is none) and reports the generators Spark
// rejects: more than one, or with aggregation. Generators nested in
// expressions are reported where the expression is checked (call).
func (c *checker) selectGenerator(s *selectStmt, order []*orderItem) int {
	found := -1
	for i, it := range s.items {
		call, _ := generatorCall(it.expr)
		if call == nil {
			if len(it.aliases) > 0 {
				c.errorf(it.aliases[0].pos, it.aliases[len(it.aliases)-1].end, "MULTI_ALIAS_WITHOUT_GENERATOR", "give the item one name",
					"AS (...) names the columns of a generator such as explode; this item is one column")
				return -2
			}
			continue
		}
		if found >= 0 {
			c.errorf(call.name.pos, call.end, "UNSUPPORTED_GENERATOR.MULTI_GENERATOR", "use LATERAL VIEW for the others",
				"only one generator is allowed in a SELECT list")
			return -2
		}
		found = i
	}
	if found >= 0 && (s.groupBy != nil || s.having != nil || c.hasAggregate(s, order)) {
		call, _ := generatorCall(s.items[found].expr)
		c.errorf(call.name.pos, call.end, "UNSUPPORTED_FEATURE", "aggregate in a subquery, then explode in the outer query",
			"a generator in a SELECT list with aggregation is not supported yet")
		return -2
	}
	return found
}

// generatorItems checks the generator of SELECT item gi over input: it
// returns the Generate, the scope the SELECT list is checked in (the
// generated columns reachable only through the returned items) and items
// with the generator's entry replaced by one entry per generated column.
func (c *checker) generatorItems(s *selectStmt, gi int, items []selItem, input Plan, sc *scope) (Plan, *scope, []selItem) {
	it := s.items[gi]
	call, fn := generatorCall(it.expr)
	names := it.aliases
	if it.alias != nil {
		names = []ident{*it.alias}
	}
	g := c.generate(call, fn, false, names, input, sc, "the SELECT list")
	if g == nil {
		return nil, nil, nil
	}
	gsc := &scope{cols: append([]scopeCol(nil), sc.cols...)}
	var out []selItem
	for _, si := range items {
		if si.ast != it.expr {
			out = append(out, si)
			continue
		}
		for j, col := range g.Columns[len(sc.cols):] {
			gsc.cols = append(gsc.cols, scopeCol{Column: col, qualOnly: true})
			out = append(out, selItem{col: len(sc.cols) + j, name: col.Name, named: true, pos: si.pos, end: si.end})
		}
	}
	return g, gsc, out
}
