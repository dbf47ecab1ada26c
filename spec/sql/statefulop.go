package sql

import (
	"fmt"
	"strings"
)

// This file finds the stateful operator of a streaming query whose stream
// has a watermark (watermark.go) and checks that the watermark bounds its
// state, as Structured Streaming's append output mode requires.

// StatefulKind is the kind of a streaming query's stateful operator.
type StatefulKind uint8

// Stateful operators a streaming table supports (append output mode).
const (
	// WindowAggregation is a GROUP BY whose keys include the event time
	// or a window() of it: a group is written once, when the watermark
	// passes its end (the window's end, or the event time itself).
	WindowAggregation StatefulKind = iota + 1
	// Deduplication is SELECT DISTINCT over columns that include the
	// event time (or a window of it): Spark's dropDuplicates with the
	// event time in the key. A row is written when first seen; a key is
	// forgotten once the watermark passes its event time (window end).
	Deduplication
	// DeduplicationWithinWatermark is
	// QUALIFY row_number() OVER (PARTITION BY key ORDER BY ts) = 1: the
	// first row of each key (in a micro-batch, the one with the smallest
	// ts) is written; later rows of the key are duplicates until the
	// watermark passes the first row's ts plus the delay (Spark's
	// dropDuplicatesWithinWatermark).
	DeduplicationWithinWatermark
)

var statefulKindNames = [...]string{WindowAggregation: "window aggregation", Deduplication: "deduplication",
	DeduplicationWithinWatermark: "deduplication within the watermark"}

// String returns the kind's name as explain prints it.
func (k StatefulKind) String() string { return statefulKindNames[k] }

// Stateful is the stateful operator of a streaming query over a stream
// with a watermark.
type Stateful struct {
	Kind StatefulKind
	// Stream is the Scan of the stream whose watermark bounds the state.
	Stream *Scan
	// Op is the operator: an *Aggregate (WindowAggregation), a *Distinct
	// (Deduplication) or the row_number *Window (DeduplicationWithinWatermark;
	// its PartitionBy are the keys, OrderBy[0] the event time).
	Op Plan
	// TimeKey is the index of the event-time key: in the Aggregate's
	// Groups, or in the Distinct's columns; -1 for a Window.
	TimeKey int
	// TimeKeyWindow says the time key is a window STRUCT<start, end>,
	// closed by its end; otherwise it is the event time itself.
	TimeKeyWindow bool
}

// statefulOpAt is a stateful operator over a stream and the plan node
// directly above it (nil at the top).
type statefulOpAt struct {
	op, parent Plan
	what       string
}

// FindStateful returns the stateful operator of p, a streaming table's
// query: nil when p keeps no state across micro-batches. inView reports
// whether a plan node comes from a temporary view (its positions are in
// the view's text): errors about such a node have Offset -1, as have
// errors about the query as a whole; the caller reports them at the
// query.
func FindStateful(p Plan, inView func(Plan) bool) (*Stateful, *Error) {
	var ops []statefulOpAt
	var walk func(q, parent Plan)
	walk = func(q, parent Plan) {
		what := ""
		switch n := q.(type) {
		case *Aggregate:
			what = "an aggregation"
			if !readsStream(n.Input) {
				what = ""
			}
		case *Distinct:
			if readsStream(n.Input) {
				what = "DISTINCT"
			}
		case *Union:
			if n.Distinct && readsStream(n) {
				what = "UNION (DISTINCT)"
			}
		case *Window:
			if readsStream(n.Input) {
				what = "a window function"
			}
		case *Sort:
			if readsStream(n.Input) {
				what = "ORDER BY"
			}
		case *Limit:
			if readsStream(n.Input) {
				what = "LIMIT"
			}
		case *Join:
			if readsStream(n.Left) && readsStream(n.Right) {
				what = "a join of two streams"
			}
		}
		if what != "" {
			ops = append(ops, statefulOpAt{op: q, parent: parent, what: what})
		}
		for _, in := range planInputs(q) {
			walk(in, q)
		}
	}
	walk(p, nil)
	if len(ops) == 0 {
		return nil, nil
	}
	errAt := func(node Plan, pos int, code, hint, format string, args ...any) *Error {
		off := -1
		if pos >= 0 && (inView == nil || !inView(node)) {
			off = pos
		}
		return &Error{Offset: off, End: off, Code: code, Hint: hint, Message: fmt.Sprintf(format, args...)}
	}
	if len(ops) > 1 {
		return nil, errAt(nil, -1, "UNSUPPORTED_FEATURE", "split the query: a streaming table per stateful operator, each reading the previous one with STREAM(...)",
			"the query has %s and %s over the stream; a streaming table supports one stateful operator", ops[1].what, ops[0].what)
	}
	at := ops[0]
	var streams []*Scan
	WalkPlans(at.op, func(q Plan) {
		if s, ok := q.(*Scan); ok && s.Streaming && s.Watermark != nil {
			streams = append(streams, s)
		}
	})
	switch {
	case len(streams) == 0:
		return nil, errAt(nil, -1, "STREAMING_STATEFUL_WITHOUT_WATERMARK", "add WATERMARK column DELAY OF INTERVAL ... after the STREAM(...) it reads",
			"%s over a stream without a watermark", at.what)
	case len(streams) > 1:
		return nil, errAt(nil, -1, "UNSUPPORTED_FEATURE", "keep one watermark: union the streams in an upstream streaming table",
			"%s reads %d streams with watermarks (%s and %s); one is supported", at.what, len(streams), streams[0].Name, streams[1].Name)
	}
	st := &Stateful{Stream: streams[0], Op: at.op, TimeKey: -1}
	wm := st.Stream.Watermark
	switch op := at.op.(type) {
	case *Aggregate:
		st.Kind = WindowAggregation
		if op.GroupingSets != nil {
			return nil, errAt(nil, -1, "UNSUPPORTED_FEATURE", "group by plain columns, or use a materialized view",
				"GROUPING SETS, ROLLUP and CUBE are not supported over a stream")
		}
		for _, a := range op.Aggs {
			// The state keeps partial states, which later micro-batches
			// merge into: the row's AggMergeable (AggMergeableDistinct).
			if !a.Mergeable() {
				name := a.Func
				if a.Distinct {
					name += "(DISTINCT ...)"
				}
				return nil, errAt(op, a.Pos, "UNSUPPORTED_FEATURE",
					"use "+streamableAggregates()+", or compute it in a materialized view",
					"aggregate %s cannot be kept in a streaming table's state", name)
			}
		}
		for i, g := range op.Groups {
			if win, s := timeKey(g, op.Input); s == st.Stream {
				st.TimeKey, st.TimeKeyWindow = i, win
				break
			}
		}
		if st.TimeKey < 0 {
			return nil, errAt(nil, -1, "STREAMING_AGGREGATION_WITHOUT_EVENT_TIME",
				fmt.Sprintf("group by a time window of the watermark column, e.g. GROUP BY window(%s, '10 minutes'), ...", wm.Name),
				"the aggregation does not group by the watermark column %s or a window() of it: its groups would never close", wm.Name)
		}
	case *Distinct:
		st.Kind = Deduplication
		for i := range op.Output() {
			if win, s := timeKey(&ColumnRef{Index: i}, op.Input); s == st.Stream {
				st.TimeKey, st.TimeKeyWindow = i, win
				break
			}
		}
		if st.TimeKey < 0 {
			return nil, errAt(nil, -1, "STREAMING_DEDUPLICATION_WITHOUT_EVENT_TIME",
				fmt.Sprintf("select the watermark column %s too, or deduplicate by key within the watermark: QUALIFY row_number() OVER (PARTITION BY key ORDER BY %s) = 1", wm.Name, wm.Name),
				"DISTINCT over the stream does not include the watermark column %s: every distinct row would be kept forever", wm.Name)
		}
	case *Window:
		st.Kind = DeduplicationWithinWatermark
		if msg := dedupPattern(op, at.parent, st.Stream); msg != "" {
			pos := -1
			if len(op.Calls) > 0 {
				pos = op.Calls[0].Pos
			}
			return nil, errAt(op, pos, "NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING",
				fmt.Sprintf("deduplicate with QUALIFY row_number() OVER (PARTITION BY key ORDER BY %s) = 1, or compute it in a materialized view", wm.Name),
				"%s", msg)
		}
	case *Join:
		return nil, errAt(nil, -1, "UNSUPPORTED_FEATURE.STREAM_STREAM_JOIN", "join the stream with a table read without STREAM(...)",
			"joins of two streams are not supported yet")
	default:
		return nil, errAt(nil, -1, "UNSUPPORTED_FEATURE", "order or limit in a materialized view that reads the table",
			"%s over a stream is not supported", at.what)
	}
	return st, nil
}

// dedupPattern checks that w, under parent, is row_number() OVER
// (PARTITION BY keys ORDER BY the event time of stream) kept where it is 1,
// and says what is wrong otherwise.
func dedupPattern(w *Window, parent Plan, stream *Scan) string {
	if len(w.Calls) != 1 || w.Calls[0].Func != "row_number" {
		return "window functions over a stream are supported only as row_number() in QUALIFY row_number() OVER (PARTITION BY key ORDER BY event_time) = 1"
	}
	if len(w.PartitionBy) == 0 {
		return "row_number() over a stream needs PARTITION BY the deduplication key"
	}
	if len(w.OrderBy) != 1 || w.OrderBy[0].Descending {
		return fmt.Sprintf("row_number() over a stream must be ordered by the watermark column %s, ascending", stream.Watermark.Name)
	}
	if win, s := timeKey(w.OrderBy[0].Expr, w.Input); s != stream || win {
		return fmt.Sprintf("row_number() over a stream must be ordered by the watermark column %s", stream.Watermark.Name)
	}
	f, ok := parent.(*Filter)
	if !ok || !firstRowOnly(f.Cond, len(w.Input.Output())) {
		return "row_number() over a stream is supported only as the whole QUALIFY condition of the same SELECT, QUALIFY row_number() OVER (...) = 1 (move other conditions to WHERE; a filter on the row number in an outer query is not recognised)"
	}
	return ""
}

// firstRowOnly reports whether cond keeps exactly the rows whose column
// rn is 1: rn = 1, rn <= 1 or rn < 2 (either way round).
func firstRowOnly(cond Expr, rn int) bool {
	b, ok := cond.(*Binary)
	if !ok {
		return false
	}
	isRN := func(e Expr) bool {
		r, ok := e.(*ColumnRef)
		return ok && r.Index == rn
	}
	num := func(e Expr) (int64, bool) {
		l, ok := e.(*Literal)
		if !ok {
			return 0, false
		}
		switch v := l.Value.(type) {
		case int32:
			return int64(v), true
		case int64:
			return int64(v), true
		}
		return 0, false
	}
	op, l, r := b.Op, b.L, b.R
	if !isRN(l) {
		l, r = r, l
		// 1 >= rn is rn <= 1; 2 > rn is rn < 2.
		switch op {
		case Gt:
			op = Lt
		case GtEq:
			op = LtEq
		case Lt, LtEq:
			return false
		}
	}
	n, ok := num(r)
	if !isRN(l) || !ok {
		return false
	}
	switch op {
	case Eq, LtEq:
		return n == 1
	case Lt:
		return n == 2
	}
	return false
}

// timeKey reports whether e, an expression over input's columns, is the
// event time of a watermarked stream (scan, window false) or a window()
// of it (window true); scan is nil when it is neither.
func timeKey(e Expr, input Plan) (window bool, scan *Scan) {
	switch e := e.(type) {
	case *ColumnRef:
		node, i := origin(input, e.Index)
		switch n := node.(type) {
		case *Scan:
			if n.Watermark != nil && n.Watermark.Column == i {
				return false, n
			}
		case *Generate:
			if n.Func == "window" && i == len(n.Input.Output()) {
				return timeKey(n.Arg, n.Input)
			}
		case *Project:
			return timeKey(n.Exprs[i], n.Input)
		}
	case *Call:
		if e.Func == "window" {
			if win, s := timeKey(e.Args[0], input); s != nil && !win {
				return true, s
			}
		}
	}
	return false, nil
}

// origin follows column i of p down through the operators that pass it
// on unchanged and returns the node that computes or reads it.
func origin(p Plan, i int) (Plan, int) {
	switch n := p.(type) {
	case *Filter:
		return origin(n.Input, i)
	case *Distinct:
		return origin(n.Input, i)
	case *Sort:
		return origin(n.Input, i)
	case *Limit:
		return origin(n.Input, i)
	case *Project:
		if r, ok := n.Exprs[i].(*ColumnRef); ok {
			return origin(n.Input, r.Index)
		}
	case *Generate:
		if i < len(n.Input.Output()) {
			return origin(n.Input, i)
		}
	case *Window:
		if i < len(n.Input.Output()) {
			return origin(n.Input, i)
		}
	case *Join:
		if nl := len(n.Left.Output()); i < nl {
			return origin(n.Left, i)
		} else if n.Kind != LeftSemiJoin && n.Kind != LeftAntiJoin {
			return origin(n.Right, i-nl)
		}
	}
	return p, i
}

// readsWatermarkedStream reports whether p reads a stream with a
// watermark.
func readsWatermarkedStream(p Plan) bool {
	found := false
	WalkPlans(p, func(q Plan) {
		if s, ok := q.(*Scan); ok && s.Streaming && s.Watermark != nil {
			found = true
		}
	})
	return found
}

// streamableAggregates lists, for messages, the aggregates a streaming
// table's state can keep: those whose row of the function table has
// AggMergeable ("count, sum, ... or max").
func streamableAggregates() string {
	var names []string
	for _, f := range Functions() {
		if f.Kind == AggregateFunc && f.Agg&AggMergeable != 0 {
			names = append(names, f.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
