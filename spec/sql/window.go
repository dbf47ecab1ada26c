package sql

import (
	"fmt"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file checks window functions (f(...) OVER (PARTITION BY ... ORDER
// BY ... frame)) and QUALIFY, into Window plan nodes (Spark's Window
// operator and its analyzer rules; QUALIFY is Databricks'). Window calls
// are allowed in the SELECT list and QUALIFY; they are computed after
// WHERE, GROUP BY and HAVING, so their arguments may use aggregates. While
// a SELECT is checked each call stands as a winRef; buildWindows then adds
// one Window node per distinct PARTITION BY / ORDER BY and replaces the
// winRefs by references to the Window's output.

// winState collects the window calls of one SELECT.
type winState struct {
	refs []*winRef
}

// winRef stands for a window call while a SELECT is checked; it never
// appears in a returned plan.
type winRef struct {
	call      *WindowCall
	partition []Expr
	order     []SortKey
	name      string // the output column name, e.g. "row_number() OVER (...)"
}

func (e *winRef) ResultType() types.Type { return e.call.Type }
func (e *winRef) IsNullable() bool       { return e.call.Nullable }
func (*winRef) exprNode()                {}

// winChildren returns the expressions inside a winRef, for rewrites
// (aggregates lowered over an Aggregate's output).
func winChildren(r *winRef) []Expr {
	out := append([]Expr(nil), r.call.Args...)
	if r.call.Filter != nil {
		out = append(out, r.call.Filter)
	}
	out = append(out, r.partition...)
	for _, k := range r.order {
		out = append(out, k.Expr)
	}
	return out
}

// winWithChildren rebuilds a winRef from the expressions winChildren
// returned.
func winWithChildren(r *winRef, kids []Expr) *winRef {
	call := *r.call
	n := len(call.Args)
	call.Args = kids[:n]
	if call.Filter != nil {
		call.Filter = kids[n]
		n++
	}
	out := &winRef{call: &call, name: r.name}
	out.partition = kids[n : n+len(r.partition)]
	n += len(r.partition)
	for i, k := range r.order {
		k.Expr = kids[n+i]
		out.order = append(out.order, k)
	}
	return out
}

// rankingFuncs are the window functions whose result depends only on the
// rows' order: they need ORDER BY and take no frame.
var rankingFuncs = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true, "ntile": true,
	"lag": true, "lead": true,
}

// windowCall checks f(...) OVER (...).
func (c *checker) windowCall(fn *Function, e *callExpr, ctx *exprCtx) Expr {
	if e.over.name != "" {
		c.errorf(e.over.pos, e.end, "MISSING_WINDOW_SPECIFICATION", fmt.Sprintf("define it in the WINDOW clause of the same SELECT: WINDOW %s AS (PARTITION BY ... ORDER BY ...)", e.over.name),
			"window %q is not defined", e.over.name)
		return bad
	}
	if ctx.inAgg {
		// A window function is computed after aggregation: never inside
		// an aggregate's arguments or FILTER (Spark:
		// INVALID_AGGREGATE_FILTER.CONTAINS_WINDOW_FUNCTION).
		code, where := "UNSUPPORTED_EXPR_FOR_WINDOW", "the arguments of an aggregate function"
		if ctx.clause == filterClause {
			code, where = "INVALID_AGGREGATE_FILTER.CONTAINS_WINDOW_FUNCTION", filterClause
		}
		c.errorf(e.name.pos, e.end, code, "compute it in a subquery and aggregate its column",
			"window function %s is not allowed in %s", fn.Name, where)
		return bad
	}
	if ctx.win == nil {
		hint := "compute it in a subquery, or filter with QUALIFY"
		c.errorf(e.name.pos, e.end, "UNSUPPORTED_EXPR_FOR_WINDOW", hint, "window function %s is not allowed in %s", fn.Name, ctx.clause)
		return bad
	}
	if fn.Kind != WindowFunc && fn.Kind != AggregateFunc {
		c.errorf(e.name.pos, e.end, "UNSUPPORTED_EXPR_FOR_WINDOW", "use a window function (row_number, rank, lag, ...) or an aggregate",
			"%s is not a window or aggregate function", fn.Name)
		return bad
	}
	if e.distinct {
		c.errorf(e.name.pos, e.end, "UNSUPPORTED_FEATURE", "", "DISTINCT is not allowed in a window aggregate")
		return bad
	}
	// The call's arguments and the window's expressions are computed per
	// row, after aggregation: aggregates are allowed, windows are not.
	inner := *ctx
	inner.win, inner.clause = nil, "a window specification"
	var partition []Expr
	var order []SortKey
	failed := false
	for _, p := range e.over.partitionBy {
		x := c.expr(p, &inner)
		if !isBad(x) && !orderable(x.ResultType()) {
			c.errorAt(p, "DATATYPE_MISMATCH", "", "cannot partition by values of type %s", x.ResultType())
			x = bad
		}
		failed = failed || isBad(x)
		partition = append(partition, x)
	}
	for _, o := range e.over.orderBy {
		x := c.expr(o.expr, &inner)
		if isBad(x) {
			failed = true
			continue
		}
		order = append(order, c.sortKey(x, o))
	}
	var call *WindowCall
	if fn.Kind == WindowFunc {
		call = c.rankingCall(fn, e, &inner, len(e.over.orderBy) > 0)
	} else {
		call = c.windowAggregate(fn, e, &inner)
	}
	if failed || call == nil {
		return bad
	}
	frame, ok := c.frame(e, fn, order)
	if !ok {
		return bad
	}
	call.Frame = frame
	r := &winRef{call: call, partition: partition, order: order, name: autoName(e)}
	ctx.win.refs = append(ctx.win.refs, r)
	return r
}

// rankingCall checks the arguments of a ranking or offset function.
func (c *checker) rankingCall(fn *Function, e *callExpr, ctx *exprCtx, ordered bool) *WindowCall {
	if !ordered {
		c.errorf(e.name.pos, e.end, "WINDOW_FUNCTION_WITHOUT_ORDER", "add ORDER BY to the OVER clause",
			"window function %s needs an ordered window", fn.Name)
		return nil
	}
	if e.star || e.filter != nil {
		c.errorf(e.name.pos, e.end, "", "", "%s takes neither * nor FILTER", fn.Name)
		return nil
	}
	n := len(e.args)
	if n < fn.MinArgs || n > len(fn.Args) {
		c.errorf(e.name.pos, e.end, "WRONG_NUM_ARGS", "", "%s takes %s, not %d", fn.Name, arityText(fn), n)
		return nil
	}
	args := make([]Expr, n)
	for i, a := range e.args {
		if args[i] = c.expr(a, ctx); isBad(args[i]) {
			return nil
		}
	}
	call := &WindowCall{Func: fn.Name, Args: args, Type: fn.Type, Pos: e.name.pos}
	constInt := func(i int, min int64, what string) bool {
		l, ok := args[i].(*Literal)
		v, isInt := int64(0), false
		if ok {
			v, isInt = intValue(l)
		}
		if !isInt || v < min || v > 1<<31-1 {
			c.errorAt(e.args[i], "DATATYPE_MISMATCH", "", "%s of %s must be an integer constant of at least %d", what, fn.Name, min)
			return false
		}
		args[i] = &Literal{Value: int32(v), Type: types.IntType}
		return true
	}
	switch fn.Name {
	case "ntile":
		if !constInt(0, 1, "the number of buckets") {
			return nil
		}
	case "lag", "lead":
		if n < 2 {
			args = append(args, &Literal{Value: int32(1), Type: types.IntType})
		} else if !constInt(1, 0, "the offset") {
			return nil
		}
		t := args[0].ResultType()
		if n == 3 {
			w, ok := widerType(t, args[2].ResultType())
			if !ok {
				c.errorAt(e.args[2], "DATATYPE_MISMATCH", "", "the default of %s must have the type of its value, %s, not %s", fn.Name, t, args[2].ResultType())
				return nil
			}
			t = w
			args[0], args[2] = c.castTo(args[0], t, e.args[0]), c.castTo(args[2], t, e.args[2])
		} else {
			args = append(args, &Literal{Type: t})
		}
		call.Type = t
		call.Nullable = args[0].IsNullable() || args[2].IsNullable()
	case "nth_value":
		if !constInt(1, 1, "the position") {
			return nil
		}
		if n == 3 {
			if l, ok := args[2].(*Literal); !ok || l.Type.Kind != types.BooleanKind || l.Value == nil {
				c.errorAt(e.args[2], "DATATYPE_MISMATCH", "", "the third argument of nth_value must be the constant true or false (ignore NULLs)")
				return nil
			}
		}
		call.Type, call.Nullable = args[0].ResultType(), true
	}
	call.Args = args
	return call
}

// windowAggregate checks an aggregate function used over a window.
func (c *checker) windowAggregate(fn *Function, e *callExpr, ctx *exprCtx) *WindowCall {
	if e.star && fn.Name != "count" {
		c.errorf(e.name.pos, e.end, "INVALID_USAGE_OF_STAR_OR_REGEX", "", "'*' is only allowed in count(*)")
		return nil
	}
	args := make([]Expr, len(e.args))
	for i, a := range e.args {
		if args[i] = c.expr(a, ctx); isBad(args[i]) {
			return nil
		}
	}
	var filter Expr
	if e.filter != nil {
		if filter = c.boolean(e.filter, ctx, "the FILTER condition"); isBad(filter) {
			return nil
		}
	}
	res := c.applyFunc(fn, args, e.args, e.name.pos, e.end, e)
	call, ok := res.(*Call)
	if !ok {
		return nil
	}
	return &WindowCall{Func: call.Func, Args: call.Args, Filter: filter, Type: call.Type, Nullable: call.Nullable, Pos: call.Pos}
}

// frame checks the frame of the OVER clause, or returns Spark's default:
// RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW when the window is
// ordered, the whole partition when not.
func (c *checker) frame(e *callExpr, fn *Function, order []SortKey) (Frame, bool) {
	f := e.over.frame
	if f == nil {
		if len(order) == 0 {
			return Frame{Rows: true, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: UnboundedFollowing}}, true
		}
		return Frame{Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}}, true
	}
	if rankingFuncs[fn.Name] {
		c.errorf(f.pos, f.end2, "INVALID_WINDOW_SPEC_FOR_AGGREGATION_FUNC", "leave the frame out",
			"window function %s takes no frame: it works on the ordered partition", fn.Name)
		return Frame{}, false
	}
	out := Frame{Rows: f.rows}
	bad := func(b frameBound, format string, a ...any) (Frame, bool) {
		c.errorf(b.pos, f.end2, "INVALID_WINDOW_SPEC", "", format, a...)
		return Frame{}, false
	}
	if f.start.kind == boundUnboundedFollowing {
		return bad(f.start, "a frame cannot start at UNBOUNDED FOLLOWING")
	}
	if f.end.kind == boundUnboundedPreceding {
		return bad(f.end, "a frame cannot end at UNBOUNDED PRECEDING")
	}
	if f.start.kind > f.end.kind && !(f.start.kind == boundFollowing && f.end.kind == boundFollowing) {
		return bad(f.start, "the frame's start is after its end")
	}
	for i, b := range []frameBound{f.start, f.end} {
		fb := FrameBound{Kind: BoundKind(b.kind)}
		if b.offset != nil {
			lit, ok := c.frameOffset(b, f, order)
			if !ok {
				return Frame{}, false
			}
			fb.Offset = lit
		}
		if i == 0 {
			out.Start = fb
		} else {
			out.End = fb
		}
	}
	if !f.rows && (out.Start.Offset != nil || out.End.Offset != nil) && len(order) != 1 {
		return bad(f.start, "a RANGE frame with an offset needs exactly one ORDER BY expression, not %d", len(order))
	}
	return out, true
}

// frameOffset checks n PRECEDING or n FOLLOWING: a non-negative constant,
// an INT for ROWS, of the ORDER BY value's type for RANGE (days or an
// INTERVAL for dates, an INTERVAL for timestamps).
func (c *checker) frameOffset(b frameBound, f *frameSpec, order []SortKey) (*Literal, bool) {
	x := c.expr(b.offset, &exprCtx{clause: "a window frame"})
	if isBad(x) {
		return nil, false
	}
	lit, ok := x.(*Literal)
	if !ok || lit.Value == nil {
		c.errorAt(b.offset, "INVALID_WINDOW_SPEC", "write a number such as 3 PRECEDING", "a frame offset must be a constant")
		return nil, false
	}
	neg := false
	switch v := lit.Value.(type) {
	case types.Interval:
		neg = v < 0
	default:
		if n, isInt := intValue(lit); isInt {
			neg = n < 0
		}
	}
	if neg {
		c.errorAt(b.offset, "INVALID_WINDOW_SPEC", "use PRECEDING or FOLLOWING for the direction", "a frame offset cannot be negative")
		return nil, false
	}
	if f.rows {
		n, isInt := intValue(lit)
		if !isInt || n > 1<<31-1 {
			c.errorAt(b.offset, "INVALID_WINDOW_SPEC", "", "a ROWS frame offset must be an integer, not %s", lit.Type)
			return nil, false
		}
		return &Literal{Value: int32(n), Type: types.IntType}, true
	}
	if len(order) != 1 {
		return lit, true // reported by frame
	}
	kt := order[0].Expr.ResultType()
	switch {
	case kt.IsNumeric() && lit.Type.IsNumeric():
		if !canCast(lit.Type, kt) {
			break
		}
		return c.constCast(lit, kt, b.offset)
	case kt.Kind == types.DateKind && lit.Type.IsIntegral():
		return c.constCast(lit, types.IntType, b.offset)
	case kt.Kind == types.DateKind && lit.Type.Kind == types.IntervalKind:
		const day = 24 * 60 * 60 * 1_000_000
		if v := lit.Value.(types.Interval); v%day == 0 {
			return &Literal{Value: int32(v / day), Type: types.IntType}, true
		}
	case isTimestamp(kt.Kind) && lit.Type.Kind == types.IntervalKind:
		return lit, true
	}
	c.errorAt(b.offset, "DATATYPE_MISMATCH", "", "a RANGE frame over %s values cannot have an offset of type %s", kt, lit.Type)
	return nil, false
}

// constCast casts a constant to t at check time (frame offsets must be
// constants of the ORDER BY value's type).
func (c *checker) constCast(l *Literal, t types.Type, at astExpr) (*Literal, bool) {
	if l.Type.Equal(t) {
		return l, true
	}
	v, ok := castLiteralValue(l, t)
	if !ok {
		c.errorAt(at, "DATATYPE_MISMATCH", "", "the frame offset %s does not fit %s", literalSQL(l.Type, l.Value), t)
		return nil, false
	}
	return &Literal{Value: v, Type: t}, true
}

// castLiteralValue converts a numeric constant to the numeric type t
// exactly; ok is false when it does not fit.
func castLiteralValue(l *Literal, t types.Type) (any, bool) {
	var f float64
	if n, isInt := intValue(l); isInt {
		f = float64(n)
		switch t.Kind {
		case types.ByteKind:
			return int8(n), n >= -128 && n <= 127
		case types.ShortKind:
			return int16(n), n >= -32768 && n <= 32767
		case types.IntKind:
			return int32(n), n >= -1<<31 && n < 1<<31
		case types.LongKind:
			return n, true
		case types.DecimalKind:
			d := types.DecimalFromInt64(n)
			return d.Rescale(0, t.Scale)
		}
	} else {
		switch v := l.Value.(type) {
		case float64:
			f = v
		case float32:
			f = float64(v)
		case types.Decimal:
			if t.Kind == types.DecimalKind {
				return v.Rescale(l.Type.Scale, t.Scale)
			}
			f = v.Float64(l.Type.Scale)
		default:
			return nil, false
		}
	}
	switch t.Kind {
	case types.DoubleKind:
		return f, true
	case types.FloatKind:
		return float32(f), true
	}
	return nil, false
}

// windowSpecKey identifies a window specification: calls with equal keys
// share a Window node.
func windowSpecKey(r *winRef) string {
	var b strings.Builder
	b.WriteString("P[")
	writeExprs(&b, r.partition)
	b.WriteString("]O[")
	for _, k := range r.order {
		writeExpr(&b, k.Expr)
		fmt.Fprintf(&b, " %v %v,", k.Descending, k.NullsFirst)
	}
	b.WriteByte(']')
	return b.String()
}

// windowCallKey identifies a call within a window specification.
func windowCallKey(w *WindowCall) string {
	var b strings.Builder
	b.WriteString(w.Func + "(")
	writeExprs(&b, w.Args)
	b.WriteByte(')')
	if w.Filter != nil {
		b.WriteString(" FILTER ")
		writeExpr(&b, w.Filter)
	}
	fmt.Fprintf(&b, " %+v", frameText(w.Frame))
	return b.String()
}

// frameText prints a frame as SQL, e.g. "ROWS BETWEEN 1 PRECEDING AND CURRENT ROW".
func frameText(f Frame) string {
	bound := func(b FrameBound) string {
		switch b.Kind {
		case UnboundedPreceding:
			return "UNBOUNDED PRECEDING"
		case UnboundedFollowing:
			return "UNBOUNDED FOLLOWING"
		case CurrentRow:
			return "CURRENT ROW"
		case Preceding:
			return literalSQL(b.Offset.Type, b.Offset.Value) + " PRECEDING"
		}
		return literalSQL(b.Offset.Type, b.Offset.Value) + " FOLLOWING"
	}
	kind := "RANGE"
	if f.Rows {
		kind = "ROWS"
	}
	return kind + " BETWEEN " + bound(f.Start) + " AND " + bound(f.End)
}

// hasWindow reports whether e holds a window call.
func hasWindow(e Expr) bool {
	return Find(e, func(x Expr) bool { _, ok := x.(*winRef); return ok }) != nil
}

// buildWindows puts the Window nodes of the window calls in exprs and
// qualify (all over below) on top of below, one per window specification
// in order of first use, and returns the exprs and qualify over the last
// one's output (winRefs replaced by column references).
func (c *checker) buildWindows(below Plan, exprs []Expr, qualify Expr) (Plan, []Expr, Expr) {
	var specs []string
	calls := map[string][]*WindowCall{}
	firsts := map[string]*winRef{}
	names := map[string][]string{}
	ref := map[*winRef][2]int{} // spec, call
	collect := func(e Expr) {
		Walk(e, func(e Expr) bool {
			if isBad(e) {
				return false
			}
			r, ok := e.(*winRef)
			if !ok {
				return true
			}
			key := windowSpecKey(r)
			if _, seen := calls[key]; !seen {
				specs = append(specs, key)
				firsts[key] = r
				calls[key] = nil
			}
			ck := windowCallKey(r.call)
			idx := -1
			for i, w := range calls[key] {
				if windowCallKey(w) == ck {
					idx = i
				}
			}
			if idx < 0 {
				calls[key] = append(calls[key], r.call)
				names[key] = append(names[key], r.name)
				idx = len(calls[key]) - 1
			}
			for i, s := range specs {
				if s == key {
					ref[r] = [2]int{i, idx}
				}
			}
			return false
		})
	}
	for _, e := range exprs {
		collect(e)
	}
	collect(qualify)
	if len(specs) == 0 {
		return below, exprs, qualify
	}
	offsets := make([]int, len(specs))
	p := below
	for i, key := range specs {
		first := firsts[key]
		offsets[i] = len(p.Output())
		cols := append([]Column(nil), p.Output()...)
		for j, w := range calls[key] {
			cols = append(cols, Column{Name: names[key][j], Type: w.Type, Nullable: w.Nullable, Hidden: true})
		}
		p = &Window{Input: p, PartitionBy: first.partition, OrderBy: first.order, Calls: calls[key], Columns: cols}
	}
	lower := func(e Expr) Expr {
		if e == nil {
			return nil
		}
		return mapExpr(e, func(x Expr) (Expr, bool) {
			r, ok := x.(*winRef)
			if !ok {
				return nil, false
			}
			at := ref[r]
			w := calls[specs[at[0]]][at[1]]
			return &ColumnRef{Index: offsets[at[0]] + at[1], Name: r.name, Type: w.Type, Nullable: w.Nullable}, true
		})
	}
	out := make([]Expr, len(exprs))
	for i, e := range exprs {
		out[i] = lower(e)
	}
	return p, out, lower(qualify)
}

// selectWindows checks QUALIFY in qctx and puts the Window nodes of the
// SELECT list's and QUALIFY's window calls over below, then the QUALIFY
// Filter. lower rewrites an expression checked over the SELECT's input
// over below (lowerAgg in an aggregating SELECT); settle is called once
// below's columns are final, before the windows read them. exprs are
// over below and returned over the result. ok is false after an error.
func (c *checker) selectWindows(s *selectStmt, below Plan, exprs []Expr, qctx *exprCtx, lower func(Expr) Expr, settle func()) (Plan, []Expr, bool) {
	var q Expr
	if s.qualify != nil {
		if q = c.boolean(s.qualify, qctx, "the QUALIFY condition"); isBad(q) {
			return nil, nil, false
		}
		if q = lower(q); isBad(q) {
			return nil, nil, false
		}
		windowed := hasWindow(q)
		for _, e := range exprs {
			windowed = windowed || !isBad(e) && hasWindow(e)
		}
		if !windowed {
			c.errorAt(s.qualify, "MISSING_WINDOW_FUNCTION", "filter with WHERE or HAVING instead",
				"QUALIFY needs a window function in the SELECT list or in its condition")
			return nil, nil, false
		}
	}
	for _, e := range exprs {
		if isBad(e) {
			return below, exprs, true // finishSelect reports nothing more
		}
	}
	if len(qctx.win.refs) == 0 {
		return below, exprs, true
	}
	if readsStream(below) && !readsWatermarkedStream(below) {
		// Structured Streaming has no windows over rows of a stream; with
		// a watermark, FindStateful accepts the deduplication pattern.
		w := qctx.win.refs[0].call
		c.errorf(w.Pos, w.Pos+len(w.Func), "NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING",
			"compute it in a materialized view that reads the table without STREAM(...)",
			"window function %s cannot run over a stream: this query reads STREAM(...)", w.Func)
		return nil, nil, false
	}
	settle()
	p, out, q := c.buildWindows(below, exprs, q)
	if q != nil {
		p = &Filter{Input: p, Cond: q}
	}
	return p, out, true
}
