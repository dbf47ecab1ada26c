package sql

import (
	"fmt"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file checks queries: FROM (relations, joins, subqueries, WITH),
// WHERE, the SELECT list, DISTINCT, set operations, VALUES, ORDER BY and
// LIMIT, producing the plan of plan.go. Aggregation is in aggregate.go,
// expressions in expr.go.

type checker struct {
	text string
	cat  Catalog
	errs []*Error
	// colSpans records where each column reference was written, for
	// errors found after resolution (MISSING_AGGREGATION).
	colSpans map[*ColumnRef][2]int
	// itemSpans records the SELECT items behind a SELECT's output columns,
	// for errors about the query's output.
	itemSpans map[Plan][][2]int
	// lambdaIDs numbers the lambda parameters of the query (LambdaVar.ID).
	lambdaIDs int
	// env is the WITH queries in scope where an expression is checked,
	// for its subqueries.
	env *cteEnv
}

func newChecker(text string, cat Catalog) *checker {
	return &checker{text: text, cat: cat, colSpans: map[*ColumnRef][2]int{}, itemSpans: map[Plan][][2]int{}}
}

func (c *checker) errorf(pos, end int, code, hint, format string, args ...any) {
	c.errs = append(c.errs, &Error{Offset: pos, End: end, Code: code, Message: fmt.Sprintf(format, args...), Hint: hint})
}

func (c *checker) errorAt(e astExpr, code, hint, format string, args ...any) {
	s, end := e.span()
	c.errorf(s, end, code, hint, format, args...)
}

// Check resolves and type-checks q against cat and returns its plan.
// All errors it can find are returned; plan is nil when there are errors.
// The output columns of the plan must have distinct names (they become a
// table's or view's columns).
func Check(q *Query, cat Catalog) (plan Plan, errs []*Error) {
	var stmt *queryStmt
	if q != nil {
		stmt, _ = q.ast.(*queryStmt)
	}
	if stmt == nil {
		return nil, []*Error{{Message: "query was not parsed", Hint: "call ParseQuery first"}}
	}
	c := newChecker(q.text, cat)
	p := c.query(stmt, nil)
	if p != nil {
		c.checkOutputNames(p, stmt.pos)
		c.checkSlidingWindows(p)
	}
	if len(c.errs) > 0 || p == nil {
		if len(c.errs) == 0 {
			c.errorf(0, len(q.text), "", "", "query does not check")
		}
		return nil, sortErrors(c.errs)
	}
	return p, nil
}

// CheckExpr resolves and type-checks e over a row of the given columns (a
// dataset's output for an expectation; no columns for a pipeline check) and
// returns the typed expression. Column i of columns is ColumnRef{Index: i}.
// Aggregate and window functions are not allowed; the caller checks the
// result type (BOOLEAN for expectations and checks).
func CheckExpr(e *ParsedExpr, columns []Column, cat Catalog) (Expr, []*Error) {
	var ast astExpr
	if e != nil {
		ast, _ = e.ast.(astExpr)
	}
	if ast == nil {
		return nil, []*Error{{Message: "expression was not parsed", Hint: "call ParseExpr first"}}
	}
	c := newChecker(e.text, cat)
	x := c.expr(ast, &exprCtx{sc: newScope(columns, nil), clause: "an expectation or check"})
	if len(c.errs) > 0 || isBad(x) {
		if len(c.errs) == 0 {
			c.errorf(0, len(e.text), "", "", "expression does not check")
		}
		return nil, sortErrors(c.errs)
	}
	return x, nil
}

// checkOutputNames reports output columns that share a name.
func (c *checker) checkOutputNames(p Plan, pos int) {
	spans := c.outputSpans(p)
	seen := map[string]bool{}
	for i, col := range p.Output() {
		key := strings.ToLower(col.Name)
		if !seen[key] {
			seen[key] = true
			continue
		}
		s, e := pos, pos
		if i < len(spans) {
			s, e = spans[i][0], spans[i][1]
		}
		c.errorf(s, e, "COLUMN_ALREADY_EXISTS", "give one of them another name with AS", "column %q appears twice in the query's output", col.Name)
	}
}

// outputSpans finds the SELECT items behind p's output columns.
func (c *checker) outputSpans(p Plan) [][2]int {
	for {
		if s, ok := c.itemSpans[p]; ok {
			return s
		}
		switch q := p.(type) {
		case *Limit:
			p = q.Input
		case *Sort:
			p = q.Input
		case *Distinct:
			p = q.Input
		case *Union:
			p = q.Inputs[0]
		case *Project:
			p = q.Input
		default:
			return nil
		}
	}
}

// cteEnv is the WITH queries in scope, innermost first.
type cteEnv struct {
	name   string
	plan   Plan
	cols   []Column // the plan's output, renamed by a column list
	parent *cteEnv
}

func (env *cteEnv) lookup(name string) *cteEnv {
	for e := env; e != nil; e = e.parent {
		if strings.EqualFold(e.name, name) {
			return e
		}
	}
	return nil
}

func (env *cteEnv) names() []string {
	var out []string
	for e := env; e != nil; e = e.parent {
		out = append(out, e.name)
	}
	return out
}

// renamed returns cols with the names of a column alias list; at is where
// the list was written.
func (c *checker) renamed(cols []Column, names []ident, what string) []Column {
	if len(names) == 0 {
		return cols
	}
	if len(names) != len(cols) {
		c.errorf(names[0].pos, names[len(names)-1].end, "ASSIGNMENT_ARITY_MISMATCH", "",
			"%s has %d columns but %d names are given", what, len(cols), len(names))
		return cols
	}
	out := make([]Column, len(cols))
	for i, col := range cols {
		col.Name = names[i].name
		out[i] = col
	}
	return out
}

// query checks a full query; nil means it failed (errors are reported).
func (c *checker) query(q *queryStmt, env *cteEnv) Plan {
	failed := false
	for _, w := range q.with {
		p := c.query(w.query, env)
		if p == nil {
			// Keep the name bound so that reading it reports nothing more.
			failed = true
			env = &cteEnv{name: w.name.name, parent: env}
			continue
		}
		env = &cteEnv{name: w.name.name, plan: p, cols: c.renamed(p.Output(), w.columns, fmt.Sprintf("WITH query %q", w.name.name)), parent: env}
	}
	outer := c.env
	c.env = env
	defer func() { c.env = outer }()
	var p Plan
	if sel, ok := q.body.(*selectStmt); ok {
		p = c.selectQuery(sel, q.orderBy, env)
	} else {
		p = c.body(q.body, env)
		if p != nil && len(q.orderBy) > 0 {
			p = c.sortOutput(p, q.orderBy)
		}
	}
	if q.offset != nil {
		c.errorAt(q.offset, "UNSUPPORTED_FEATURE", "", "OFFSET is not supported yet")
	}
	if q.limit != nil {
		n, ok := c.limit(q.limit)
		if ok && p != nil {
			p = &Limit{Input: p, N: n}
		}
	}
	if failed {
		return nil
	}
	return p
}

func (c *checker) limit(e astExpr) (int64, bool) {
	x := c.expr(e, &exprCtx{clause: "LIMIT"})
	if isBad(x) {
		return 0, false
	}
	if l, ok := x.(*Literal); ok {
		if v, ok := intValue(l); ok && v >= 0 {
			return v, true
		}
	}
	c.errorAt(e, "INVALID_LIMIT_LIKE_EXPRESSION", "write a number such as LIMIT 100", "LIMIT must be a non-negative integer constant")
	return 0, false
}

// body checks a query body without its ORDER BY and LIMIT.
func (c *checker) body(b queryBody, env *cteEnv) Plan {
	switch b := b.(type) {
	case *selectStmt:
		return c.selectQuery(b, nil, env)
	case *queryStmt:
		return c.query(b, env)
	case *valuesStmt:
		return c.values(b)
	case *setOpStmt:
		return c.setOp(b, env)
	}
	return nil
}

// values checks VALUES rows: columns col1, col2, ... of the rows' common
// types.
func (c *checker) values(v *valuesStmt) Plan {
	width := len(v.rows[0])
	rows := make([][]Expr, len(v.rows))
	failed := false
	for i, row := range v.rows {
		if len(row) != width {
			c.errorf(v.pos, v.ends[i], "INVALID_INLINE_TABLE", "give every row the same number of values",
				"row %d of VALUES has %d values, the first row %d", i+1, len(row), width)
			failed = true
			continue
		}
		rows[i] = make([]Expr, width)
		for j, e := range row {
			rows[i][j] = c.expr(e, &exprCtx{clause: "VALUES"})
			failed = failed || isBad(rows[i][j])
		}
	}
	if failed {
		return nil
	}
	cols := make([]Column, width)
	for j := range cols {
		ts := make([]types.Type, len(rows))
		for i := range rows {
			ts[i] = rows[i][j].ResultType()
		}
		t, ok := widerAll(ts)
		if !ok {
			c.errorf(v.pos, v.ends[len(v.ends)-1], "INVALID_INLINE_TABLE", "", "column %d of VALUES has no common type: %s", j+1, typeList(ts))
			return nil
		}
		cols[j] = Column{Name: fmt.Sprintf("col%d", j+1), Type: t}
		for i := range rows {
			rows[i][j] = c.castTo(rows[i][j], t, v.rows[i][j])
			cols[j].Nullable = cols[j].Nullable || rows[i][j].IsNullable()
		}
	}
	return &Values{Columns: cols, Rows: rows}
}

// setOp checks UNION, INTERSECT and EXCEPT [ALL]; chains of the same
// UNION become one Union. Columns are widened across the inputs as Spark's
// WidenSetOperationTypes does.
func (c *checker) setOp(s *setOpStmt, env *cteEnv) Plan {
	branches := []queryBody{s.l, s.r}
	if s.op == setUnion {
		branches = nil
		var flatten func(b queryBody)
		flatten = func(b queryBody) {
			if o, ok := b.(*setOpStmt); ok && o.op == setUnion && o.all == s.all {
				flatten(o.l)
				flatten(o.r)
				return
			}
			branches = append(branches, b)
		}
		flatten(s)
	}
	inputs := make([]Plan, len(branches))
	failed := false
	for i, b := range branches {
		inputs[i] = c.body(b, env)
		failed = failed || inputs[i] == nil
	}
	if failed {
		return nil
	}
	opText := setOpNames[s.op]
	if s.all {
		opText += " ALL"
	}
	first := inputs[0].Output()
	for i, in := range inputs[1:] {
		if n := len(in.Output()); n != len(first) {
			c.errorf(branches[i+1].bodyPos(), branches[i+1].bodyPos(), "NUM_COLUMNS_MISMATCH", "",
				"%s can only combine inputs with the same number of columns: the first has %d, input %d has %d", opText, len(first), i+2, n)
			return nil
		}
	}
	cols := make([]Column, len(first))
	for j, col := range first {
		t := col.Type
		nullable := col.Nullable
		for i, in := range inputs[1:] {
			oc := in.Output()[j]
			w, ok := widerType(t, oc.Type)
			if !ok {
				c.errorf(branches[i+1].bodyPos(), branches[i+1].bodyPos(), "INCOMPATIBLE_COLUMN_TYPE", "cast the column to one type",
					"%s cannot combine column %d (%q) of type %s with type %s in input %d", opText, j+1, col.Name, t, oc.Type, i+2)
				return nil
			}
			t, nullable = w, nullable || oc.Nullable
		}
		cols[j] = Column{Name: col.Name, Type: t, Nullable: nullable}
	}
	for i, in := range inputs {
		inputs[i] = c.castColumns(in, cols, branches[i].bodyPos())
	}
	if s.op != setUnion {
		return c.intersectExcept(s, opText, inputs[0], inputs[1], cols)
	}
	return &Union{Inputs: inputs, Distinct: !s.all, Columns: cols}
}

// castColumns projects p's columns to the types of cols when they differ.
func (c *checker) castColumns(p Plan, cols []Column, pos int) Plan {
	out := p.Output()
	exprs := make([]Expr, len(out))
	pcols := make([]Column, len(out))
	changed := false
	for i, col := range out {
		ref := &ColumnRef{Index: i, Name: col.Name, Type: col.Type, Nullable: col.Nullable}
		exprs[i] = c.castAt(ref, cols[i].Type, pos)
		changed = changed || exprs[i] != Expr(ref)
		pcols[i] = Column{Name: col.Name, Type: cols[i].Type, Nullable: exprs[i].IsNullable()}
	}
	if !changed {
		return p
	}
	return &Project{Input: p, Exprs: exprs, Columns: pcols}
}

// sortOutput sorts p by ORDER BY items over its output columns (after a
// set operation or VALUES).
func (c *checker) sortOutput(p Plan, order []*orderItem) Plan {
	sc := newScope(p.Output(), nil)
	var keys []SortKey
	for _, o := range order {
		e := c.orderOrdinal(o.expr, sc.columns())
		if e == nil {
			e = c.expr(o.expr, &exprCtx{sc: sc, clause: "ORDER BY"})
		}
		if isBad(e) {
			continue
		}
		keys = append(keys, c.sortKey(e, o))
	}
	if len(keys) != len(order) {
		return nil
	}
	return &Sort{Input: p, Keys: keys}
}

func (c *checker) sortKey(e Expr, o *orderItem) SortKey {
	k := SortKey{Expr: e, Descending: o.desc, NullsFirst: !o.desc}
	if o.nullsFirst != nil {
		k.NullsFirst = *o.nullsFirst
	}
	if !orderable(e.ResultType()) {
		c.errorAt(o.expr, "DATATYPE_MISMATCH", "", "values of type %s cannot be ordered", e.ResultType())
	}
	return k
}

// orderOrdinal resolves ORDER BY n to output column n; nil when e is not
// an integer literal.
func (c *checker) orderOrdinal(e astExpr, cols []Column) Expr {
	l, ok := e.(*litExpr)
	if !ok {
		return nil
	}
	n, ok := intValue(&Literal{Value: l.val})
	if !ok {
		return nil
	}
	if n < 1 || n > int64(len(cols)) {
		c.errorAt(e, "ORDER_BY_POS_OUT_OF_RANGE", fmt.Sprintf("use 1 to %d", len(cols)), "ORDER BY position %d is not in the select list", n)
		return bad
	}
	col := cols[n-1]
	return &ColumnRef{Index: int(n - 1), Name: col.Name, Type: col.Type, Nullable: col.Nullable}
}

// ---- FROM ----

// fromList checks comma-separated FROM items: a cross join of them.
func (c *checker) fromList(items []fromItem, env *cteEnv) (Plan, *scope) {
	p, sc := c.fromItem(items[0], env)
	for _, it := range items[1:] {
		r, rsc := c.fromItem(it, env)
		if p == nil || r == nil {
			p = nil
			continue
		}
		p, sc = c.joinPlans(CrossJoin, p, sc, r, rsc, nil, nil)
	}
	return p, sc
}

func (c *checker) fromItem(f fromItem, env *cteEnv) (Plan, *scope) {
	switch f := f.(type) {
	case *tableRef:
		return c.table(f, env)
	case *subqueryRef:
		p := c.query(f.query, env)
		if p == nil {
			return nil, nil
		}
		var qual []string
		what := "the subquery"
		if f.alias != nil {
			qual = []string{f.alias.name}
			what = fmt.Sprintf("%q", f.alias.name)
		}
		cols := c.renamed(p.Output(), f.columns, what)
		return p, newScope(cols, qual)
	case *joinRef:
		return c.join(f, env)
	}
	return nil, nil
}

// table resolves a table name: a WITH query, else the catalog's source,
// table or temporary view (inlined).
func (c *checker) table(t *tableRef, env *cteEnv) (Plan, *scope) {
	qual := t.parts
	if t.alias != nil {
		qual = []string{t.alias.name}
	}
	name := strings.Join(t.parts, ".")
	if len(t.parts) == 1 {
		if w := env.lookup(t.parts[0]); w != nil {
			if w.plan == nil {
				return nil, nil
			}
			return w.plan, newScope(c.renamed(w.cols, t.columns, fmt.Sprintf("%q", name)), qual)
		}
	}
	var rel *Relation
	if c.cat != nil {
		rel = c.cat.Relation(t.parts)
	}
	if rel == nil {
		hint := ""
		if s := suggest(name, env.names()); s != "" {
			hint = fmt.Sprintf("did you mean %q?", s)
		}
		c.errorf(t.pos, t.end, "TABLE_OR_VIEW_NOT_FOUND", hint, "table or view %q does not exist", name)
		return nil, nil
	}
	var p Plan
	if rel.Kind == TemporaryViewRelation {
		if rel.View == nil {
			c.errorf(t.pos, t.end, "", "fix the view's query first", "temporary view %q does not check, so queries reading it cannot be checked", rel.Name)
			return nil, nil
		}
		p = rel.View
	} else {
		cols := rel.Columns
		if t.streaming && rel.StreamColumns != nil {
			cols = rel.StreamColumns
		}
		p = &Scan{Name: rel.Name, Streaming: t.streaming, Columns: cols, Pos: t.pos}
	}
	if !c.applyWatermark(t, rel, p) {
		return nil, nil
	}
	return p, newScope(c.renamed(p.Output(), t.columns, fmt.Sprintf("%q", name)), qual)
}

// join checks a JOIN.
func (c *checker) join(j *joinRef, env *cteEnv) (Plan, *scope) {
	l, lsc := c.fromItem(j.l, env)
	r, rsc := c.fromItem(j.r, env)
	if l == nil || r == nil {
		return nil, nil
	}
	if !c.streamJoinOK(j, l, r) {
		return nil, nil
	}
	using := j.using
	if j.natural {
		for _, lc := range lsc.cols {
			if lc.Hidden || lc.qualOnly {
				continue
			}
			for _, rc := range rsc.cols {
				if !rc.Hidden && !rc.qualOnly && strings.EqualFold(lc.Name, rc.Name) {
					using = append(using, ident{name: lc.Name, pos: j.pos, end: j.pos})
					break
				}
			}
		}
	}
	if len(using) > 0 {
		return c.usingJoin(j, using, l, lsc, r, rsc)
	}
	kind := j.kind
	if kind == CrossJoin && j.on != nil {
		kind = InnerJoin
	}
	if kind == InnerJoin && j.on == nil {
		kind = CrossJoin
	}
	return c.joinPlans(kind, l, lsc, r, rsc, j.on, nil)
}

// joinScope returns the scope over l ++ r with the nullability the join
// kind gives them (only l for semi and anti joins).
func joinScope(kind JoinKind, lsc, rsc *scope) *scope {
	var cols []scopeCol
	for _, col := range lsc.cols {
		col.Nullable = col.Nullable || kind == RightJoin || kind == FullJoin
		cols = append(cols, col)
	}
	if kind == LeftSemiJoin || kind == LeftAntiJoin {
		return &scope{cols: cols}
	}
	for _, col := range rsc.cols {
		col.Nullable = col.Nullable || kind == LeftJoin || kind == FullJoin
		cols = append(cols, col)
	}
	return &scope{cols: cols}
}

// joinPlans builds a Join of l and r on the condition on (or on equal
// keys already typed, for USING), splitting equi-join keys out of it.
func (c *checker) joinPlans(kind JoinKind, l Plan, lsc *scope, r Plan, rsc *scope, on astExpr, keys [][2]Expr) (Plan, *scope) {
	nl := len(lsc.cols)
	out := joinScope(kind, lsc, rsc)
	join := &Join{Kind: kind, Left: l, Right: r, Columns: out.columns()}
	for _, k := range keys {
		join.LeftKeys = append(join.LeftKeys, k[0])
		join.RightKeys = append(join.RightKeys, k[1])
	}
	if on != nil {
		// The condition sees both sides, whatever the join kind.
		both := joinScope(InnerJoin, lsc, rsc)
		cond := c.boolean(on, &exprCtx{sc: both, clause: "a JOIN condition"}, "the JOIN condition")
		if isBad(cond) || !c.deterministicOnly(cond, on, "a JOIN condition") {
			return nil, nil
		}
		var residual []Expr
		for _, conj := range conjuncts(cond) {
			if lk, rk, ok := equiKey(conj, nl); ok {
				join.LeftKeys = append(join.LeftKeys, lk)
				join.RightKeys = append(join.RightKeys, rk)
				continue
			}
			residual = append(residual, conj)
		}
		join.Residual = andAll(residual)
	}
	return join, out
}

// conjuncts splits a condition at its top-level ANDs.
func conjuncts(e Expr) []Expr {
	if b, ok := e.(*Binary); ok && b.Op == And {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []Expr{e}
}

// andAll joins conditions with AND; nil for none.
func andAll(es []Expr) Expr {
	if len(es) == 0 {
		return nil
	}
	e := es[0]
	for _, x := range es[1:] {
		e = &Binary{Op: And, L: e, R: x, Type: types.BooleanType, Nullable: e.IsNullable() || x.IsNullable()}
	}
	return e
}

// equiKey recognises l = r where one side reads only the left input's
// columns (indexes < nl) and the other only the right's; the right key is
// re-indexed over the right input.
func equiKey(e Expr, nl int) (Expr, Expr, bool) {
	b, ok := e.(*Binary)
	if !ok || b.Op != Eq || !deterministic(b) {
		return nil, nil, false
	}
	side := func(x Expr) int {
		lo, hi, ok := columnRange(x)
		switch {
		case !ok:
			return 0
		case hi < nl:
			return 1
		case lo >= nl:
			return 2
		}
		return 0
	}
	switch ls, rs := side(b.L), side(b.R); {
	case ls == 1 && rs == 2:
		return b.L, shiftColumns(b.R, -nl), true
	case ls == 2 && rs == 1:
		return b.R, shiftColumns(b.L, -nl), true
	}
	return nil, nil, false
}

// usingJoin checks JOIN ... USING (cols) and NATURAL JOIN: equal keys, and
// a projection that shows each key once (the left's, the right's for a
// RIGHT join, coalesce of both for a FULL join) before the other columns.
func (c *checker) usingJoin(j *joinRef, using []ident, l Plan, lsc *scope, r Plan, rsc *scope) (Plan, *scope) {
	var keys [][2]Expr
	var lidx, ridx []int
	for _, u := range using {
		li, lerr := usingColumn(lsc, u)
		ri, rerr := usingColumn(rsc, u)
		if lerr != "" || rerr != "" {
			side, msg := "left", lerr
			if lerr == "" {
				side, msg = "right", rerr
			}
			c.errorf(u.pos, u.end, "UNRESOLVED_USING_COLUMN_FOR_JOIN", "", "USING column %q %s on the %s side of the join", u.name, msg, side)
			return nil, nil
		}
		lc, rc := lsc.cols[li], rsc.cols[ri]
		lref := &ColumnRef{Index: li, Name: lc.Name, Type: lc.Type, Nullable: lc.Nullable}
		rref := &ColumnRef{Index: len(lsc.cols) + ri, Name: rc.Name, Type: rc.Type, Nullable: rc.Nullable}
		eq := c.compare(Eq, lref, rref, nil, nil, u.pos)
		if isBad(eq) {
			return nil, nil
		}
		b := eq.(*Binary)
		keys = append(keys, [2]Expr{b.L, shiftColumns(b.R, -len(lsc.cols))})
		lidx, ridx = append(lidx, li), append(ridx, ri)
	}
	kind := j.kind
	if kind == CrossJoin {
		kind = InnerJoin
	}
	p, sc := c.joinPlans(kind, l, lsc, r, rsc, nil, keys)
	if kind == LeftSemiJoin || kind == LeftAntiJoin {
		return p, sc
	}
	nl := len(lsc.cols)
	var exprs []Expr
	var cols []scopeCol
	ref := func(i int) *ColumnRef {
		col := sc.cols[i]
		return &ColumnRef{Index: i, Name: col.Name, Type: col.Type, Nullable: col.Nullable}
	}
	isKey := func(idx []int, i int) bool {
		for _, k := range idx {
			if k == i {
				return true
			}
		}
		return false
	}
	for k := range using {
		lr, rr := ref(lidx[k]), ref(nl+ridx[k])
		var e Expr = lr
		switch kind {
		case RightJoin:
			e = rr
		case FullJoin:
			t := keys[k][0].ResultType()
			args := []Expr{c.castAt(lr, t, j.pos), c.castAt(rr, t, j.pos)}
			e = &Call{Func: "coalesce", Args: args, Type: t, Nullable: lr.Nullable && rr.Nullable, Pos: j.pos}
		}
		exprs = append(exprs, e)
		cols = append(cols, scopeCol{Column: Column{Name: sc.cols[lidx[k]].Name, Type: e.ResultType(), Nullable: e.IsNullable()}})
	}
	// l.* and r.* keep the sides' column order (starPos).
	starCol := func(i int) scopeCol {
		col := sc.cols[i]
		if col.starPos == 0 {
			col.starPos = i + 1
		}
		return col
	}
	for i := range sc.cols {
		if i < nl && isKey(lidx, i) || i >= nl && isKey(ridx, i-nl) {
			continue
		}
		exprs = append(exprs, ref(i))
		cols = append(cols, starCol(i))
	}
	// The sides' own key columns stay reachable as l.key and r.key.
	for k := range using {
		for _, i := range []int{lidx[k], nl + ridx[k]} {
			col := starCol(i)
			col.qualOnly = true
			exprs = append(exprs, ref(i))
			cols = append(cols, col)
		}
	}
	out := &scope{cols: cols}
	proj := &Project{Input: p, Exprs: exprs, Columns: out.columns()}
	for i := range proj.Columns {
		proj.Columns[i].Hidden = proj.Columns[i].Hidden || cols[i].qualOnly
	}
	return proj, out
}

// usingColumn finds a USING column on one side; it returns a reason when
// there is not exactly one.
func usingColumn(sc *scope, u ident) (int, string) {
	found := -1
	for i, col := range sc.cols {
		if col.qualOnly || !strings.EqualFold(col.Name, u.name) {
			continue
		}
		if found >= 0 {
			return 0, "is ambiguous"
		}
		found = i
	}
	if found < 0 {
		return 0, "does not exist"
	}
	return found, ""
}
