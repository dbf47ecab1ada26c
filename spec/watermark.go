package spec

import (
	"fmt"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// A streaming table appends, micro-batch by micro-batch, rows that are
// final. A query that needs state across micro-batches to produce its
// rows — an aggregation, DISTINCT, deduplication by key — over a
// STREAM(...) input can only do so with an event-time watermark bounding
// that state: Structured Streaming's rule for the append output mode
// ("Append output mode not supported when there are streaming
// aggregations ... without watermark"). The watermark is the SQL clause
// `FROM STREAM(x) WATERMARK ts DELAY OF INTERVAL 15 MINUTES` or the
// dataset's or flow's `watermark: {column: ts, delay: 15m}`; package sql
// checks the operator's shape (sql.FindStateful). A stateful query without
// a watermark is rejected at validation, with both ways out: a watermark,
// or a materialized view, which computes the same result over the whole
// input and is refreshed incrementally while its input only grows.

// streamWatermark is a `watermark:` key resolved for the query being
// checked: the catalog gives it to STREAM(rel) (sql.WatermarkCatalog).
type streamWatermark struct {
	rel    string
	column string
	delay  int64 // µs
}

// StreamWatermark implements sql.WatermarkCatalog for the `watermark:`
// key of the flow being checked.
func (c catalog) StreamWatermark(name string) (string, int64, bool) {
	w := c.r.watermark
	if w == nil || !strings.EqualFold(w.rel, name) {
		return "", 0, false
	}
	return w.column, w.delay, true
}

// watermarkDecl returns the `watermark:` of a flow: its own, or its
// table's for a default flow.
func (fn *flowNode) watermarkDecl() *WatermarkDecl {
	if fn.decl != nil {
		return fn.decl.Watermark
	}
	if fn.isDflt && fn.target != nil && fn.target.dsDecl != nil {
		return fn.target.dsDecl.Watermark
	}
	return nil
}

// datasetWatermarkRules reports a `watermark:` on a dataset it cannot
// apply to.
func (r *resolver) datasetWatermarkRules() {
	for _, rl := range r.relOrder {
		if rl.dsDecl == nil || rl.dsDecl.Watermark == nil {
			continue
		}
		w := rl.dsDecl.Watermark
		switch {
		case rl.kind == relMV:
			r.errorf(w.Pos, "", "remove it, or make the dataset a streaming_table that reads STREAM(...)",
				"materialized view %q cannot have a watermark: it reads snapshots, not streams", rl.name)
		case rl.kind == relTV:
			r.errorf(w.Pos, "", "put the watermark on the streaming table that reads the view, or in the view's query (FROM STREAM(x) WATERMARK ...)",
				"temporary view %q cannot have a watermark", rl.name)
		case !rl.dsDecl.Query.Set():
			r.errorf(w.Pos, "", "put watermark: on the flow that reads the stream",
				"streaming table %q has no query for its watermark to apply to", rl.name)
		}
	}
	for _, fn := range r.flows {
		if fn.decl == nil || fn.decl.Watermark == nil {
			continue
		}
		switch {
		case fn.cdc != nil:
			r.errorf(fn.decl.Watermark.Pos, "", "remove it: AUTO CDC orders changes by sequence_by", "auto_cdc flow %q cannot have a watermark", fn.name)
		case fn.once:
			r.errorf(fn.decl.Watermark.Pos, "", "remove it, or remove once: true", "once flow %q reads snapshots and cannot have a watermark", fn.name)
		}
	}
}

// resolveWatermark checks a flow's `watermark:` key against the stream
// its query reads and returns it for the checker; nil when the flow has
// none or it is wrong (reported).
func (r *resolver) resolveWatermark(fn *flowNode) *streamWatermark {
	w := fn.watermarkDecl()
	if w == nil || fn.target == nil || fn.target.kind != relST || fn.cdc != nil || fn.once {
		return nil
	}
	var streams []ref
	for _, f := range fn.refs {
		if !f.Streaming {
			continue
		}
		dup := false
		for _, g := range streams {
			dup = dup || g.rel == f.rel
		}
		if !dup {
			streams = append(streams, f)
		}
	}
	switch {
	case len(streams) == 0:
		r.errorf(w.Pos, "", "read the input with STREAM(name), or remove the watermark",
			"flow %q has a watermark but its query reads no stream", fn.name)
		return nil
	case len(streams) > 1:
		var names []string
		for _, s := range streams {
			names = append(names, s.rel.name)
		}
		r.errorf(w.Pos, "", "write the SQL clause after the stream it applies to: FROM STREAM(x) WATERMARK column DELAY OF INTERVAL ...",
			"flow %q reads several streams (%s): the watermark key does not say which one it applies to", fn.name, strings.Join(names, ", "))
		return nil
	case streams[0].Watermark:
		r.errorf(w.Pos, "", "keep one of the two", "flow %q has both the watermark key and a WATERMARK clause in its query", fn.name)
		return nil
	case streams[0].rel.kind == relTV:
		r.errorf(w.Pos, "", "put the watermark in the view's query: FROM STREAM(x) WATERMARK column DELAY OF INTERVAL ...",
			"flow %q streams temporary view %q, which cannot have a watermark", fn.name, streams[0].rel.name)
		return nil
	}
	rl := streams[0].rel
	cols := rl.columns
	if sc := r.streamColumns(rl); sc != nil {
		cols = sc
	}
	ok := true
	var col *Column
	for i := range cols {
		if !cols[i].Hidden && strings.EqualFold(cols[i].Name, w.Column.Value) {
			col = &cols[i]
		}
	}
	switch {
	case col == nil:
		var names []string
		for _, c := range cols {
			if !c.Hidden {
				names = append(names, c.Name)
			}
		}
		hint := didYouMean(w.Column.Value, names)
		if hint == "" {
			hint = "available columns: " + strings.Join(names, ", ")
		}
		r.errorf(w.Column.Pos, "UNRESOLVED_COLUMN", hint, "the watermark column %q is not a column of %s", w.Column.Value, rl.name)
		ok = false
	case col.Type.Kind != types.TimestampKind:
		r.errorf(w.Column.Pos, "DATATYPE_MISMATCH", "use a TIMESTAMP column: the event time of each row",
			"the watermark column %q is %s, not TIMESTAMP", col.Name, col.Type)
		ok = false
	}
	d, err := time.ParseDuration(w.Delay.Value)
	if err != nil || d <= 0 {
		r.errorf(w.Delay.Pos, "INVALID_WATERMARK_DELAY", "write a positive Go duration such as 15m or 1h30m",
			"the watermark delay %q is not a positive duration", w.Delay.Value)
		ok = false
	}
	if !ok {
		return nil
	}
	return &streamWatermark{rel: rl.name, column: col.Name, delay: d.Microseconds()}
}

// checkStateful checks the stateful operator of a streaming table flow:
// with a watermark that bounds its state it becomes the flow's Stateful;
// without one, or with one that does not bound it, it is an error.
func (r *resolver) checkStateful(rl *rel, fn *flowNode, plan sql.Plan) {
	if rl.kind != relST {
		return
	}
	st, err := sql.FindStateful(plan, r.inView)
	if err == nil {
		fn.flow.Stateful = st
		return
	}
	if err.Code == "STREAMING_STATEFUL_WITHOUT_WATERMARK" {
		op, stream, ts := statefulOp(plan)
		if op == "" {
			op, stream = "a stateful operator", "STREAM(...)"
		}
		r.errorf(fn.text.Pos, err.Code, noWatermarkHint(rl.name, op, stream, ts),
			"streaming table %q has %s over the stream %s without a watermark: its state would grow without bound and the rows it appends could never be final",
			rl.name, op, stream)
		return
	}
	pos := fn.text.Pos
	if err.Offset >= 0 {
		pos = fn.text.PosAt(err.Offset)
	}
	r.errorf(pos, err.Code, err.Hint, "streaming table %q: %s", rl.name, err.Message)
}

// noWatermarkHint says how to bound the state of op: the WATERMARK
// syntax (with ts, a TIMESTAMP column of the stream when there is one),
// or a materialized view.
func noWatermarkHint(table, op, stream, ts string) string {
	if ts == "" {
		ts = "event_ts"
	}
	wm := fmt.Sprintf("FROM %s WATERMARK %s DELAY OF INTERVAL 15 MINUTES", stream, ts)
	key := fmt.Sprintf("(or the key watermark: {column: %s, delay: 15m})", ts)
	var how string
	switch op {
	case "an aggregation":
		how = fmt.Sprintf("add a watermark and group by a time window of it: %s ... GROUP BY window(%s, '10 minutes'), ... %s", wm, ts, key)
	case "DISTINCT":
		how = fmt.Sprintf("add a watermark, %s %s, and select %s among the DISTINCT columns, or keep the first row per key: QUALIFY row_number() OVER (PARTITION BY key ORDER BY %s) = 1", wm, key, ts, ts)
	default:
		how = fmt.Sprintf("add a watermark: %s %s", wm, key)
	}
	return fmt.Sprintf("%s; or make %q a materialized view (kind: materialized_view) reading the input without STREAM(): it computes the same result over all the input and is refreshed incrementally while the input only grows", how, table)
}

// inView reports whether p is a node of a temporary view's plan.
func (r *resolver) inView(p sql.Plan) bool {
	if r.viewNodes == nil {
		r.viewNodes = map[sql.Plan]bool{}
		for _, rl := range r.relOrder {
			if rl.kind == relTV && rl.ds != nil && rl.ds.View != nil {
				sql.WalkPlans(rl.ds.View, func(q sql.Plan) { r.viewNodes[q] = true })
			}
		}
	}
	return r.viewNodes[p]
}

// statefulOp returns the first stateful operator of p over a streaming
// scan, that scan as STREAM(name) and the name of its first TIMESTAMP
// column (for hints), or "".
func statefulOp(p sql.Plan) (op, stream, ts string) {
	switch p := p.(type) {
	case *sql.Aggregate:
		if s := streamingScan(p.Input); s != nil {
			return "an aggregation", fmt.Sprintf("STREAM(%s)", s.Name), timestampColumn(s)
		}
		return statefulOp(p.Input)
	case *sql.Distinct:
		if s := streamingScan(p.Input); s != nil {
			return "DISTINCT", fmt.Sprintf("STREAM(%s)", s.Name), timestampColumn(s)
		}
		return statefulOp(p.Input)
	case *sql.Window:
		if s := streamingScan(p.Input); s != nil {
			return "a window function", fmt.Sprintf("STREAM(%s)", s.Name), timestampColumn(s)
		}
		return statefulOp(p.Input)
	case *sql.Join:
		l, r := streamingScan(p.Left), streamingScan(p.Right)
		if l != nil && r != nil {
			return "a join of two streams", fmt.Sprintf("STREAM(%s) and STREAM(%s)", l.Name, r.Name), ""
		}
		if op, s, ts := statefulOp(p.Left); op != "" {
			return op, s, ts
		}
		return statefulOp(p.Right)
	case *sql.Union:
		for _, in := range p.Inputs {
			if op, s, ts := statefulOp(in); op != "" {
				return op, s, ts
			}
		}
	case *sql.Project:
		return statefulOp(p.Input)
	case *sql.Filter:
		return statefulOp(p.Input)
	case *sql.Generate:
		return statefulOp(p.Input)
	case *sql.Sort:
		if s := streamingScan(p.Input); s != nil {
			return "ORDER BY", fmt.Sprintf("STREAM(%s)", s.Name), timestampColumn(s)
		}
		return statefulOp(p.Input)
	case *sql.Limit:
		if s := streamingScan(p.Input); s != nil {
			return "LIMIT", fmt.Sprintf("STREAM(%s)", s.Name), timestampColumn(s)
		}
		return statefulOp(p.Input)
	}
	return "", "", ""
}

// timestampColumn returns the name of the first visible TIMESTAMP column
// of s, or "".
func timestampColumn(s *sql.Scan) string {
	for _, c := range s.Columns {
		if !c.Hidden && c.Type.Kind == types.TimestampKind {
			return c.Name
		}
	}
	return ""
}

// streamingScan returns a STREAM(...) scan under p, or nil.
func streamingScan(p sql.Plan) *sql.Scan {
	var found *sql.Scan
	sql.WalkPlans(p, func(q sql.Plan) {
		if s, ok := q.(*sql.Scan); ok && s.Streaming && found == nil {
			found = s
		}
	})
	return found
}
