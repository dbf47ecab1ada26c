package spec

import (
	"fmt"

	"github.com/pipegen/pipegen/spec/sql"
)

// A streaming table appends, micro-batch by micro-batch, rows that are
// final. A query that needs state across micro-batches to produce its
// rows — an aggregation, DISTINCT, or a join of two streams, over a
// STREAM(...) input — could only do so with a watermark bounding that
// state (Structured Streaming's rule for the append output mode: "Append
// output mode not supported when there are streaming aggregations ...
// without watermark"). pipegen does not run watermarks yet, so such a
// query is rejected at validation with the way out: a materialized view,
// which computes the same result over the whole input and is refreshed
// incrementally while its input only grows.

// checkStateful reports a streaming table flow whose plan keeps unbounded
// streaming state.
func (r *resolver) checkStateful(rl *rel, fn *flowNode, plan sql.Plan) {
	if rl.kind != relST {
		return
	}
	op, stream := statefulOp(plan)
	if op == "" {
		return
	}
	r.errorf(fn.text.Pos, "STREAMING_STATEFUL_WITHOUT_WATERMARK",
		fmt.Sprintf("make %q a materialized view (kind: materialized_view) reading the input without STREAM(): it computes the same result over all the input and is refreshed incrementally while the input only grows", rl.name),
		"streaming table %q has %s over the stream %s without a watermark: its state would grow without bound and the rows it appends could never be final (watermarks are not supported yet)",
		rl.name, op, stream)
}

// statefulOp returns the first stateful operator of p over a streaming
// scan and that scan's name, or "".
func statefulOp(p sql.Plan) (op, stream string) {
	switch p := p.(type) {
	case *sql.Aggregate:
		if s := streamingScan(p.Input); s != "" {
			return "an aggregation", s
		}
		return statefulOp(p.Input)
	case *sql.Distinct:
		if s := streamingScan(p.Input); s != "" {
			return "DISTINCT", s
		}
		return statefulOp(p.Input)
	case *sql.Join:
		l, r := streamingScan(p.Left), streamingScan(p.Right)
		if l != "" && r != "" {
			return "a join of two streams", l + " and " + r
		}
		if op, s := statefulOp(p.Left); op != "" {
			return op, s
		}
		return statefulOp(p.Right)
	case *sql.Union:
		for _, in := range p.Inputs {
			if op, s := statefulOp(in); op != "" {
				return op, s
			}
		}
	case *sql.Project:
		return statefulOp(p.Input)
	case *sql.Filter:
		return statefulOp(p.Input)
	case *sql.Generate:
		return statefulOp(p.Input)
	case *sql.Sort:
		if s := streamingScan(p.Input); s != "" {
			return "ORDER BY", s
		}
		return statefulOp(p.Input)
	case *sql.Limit:
		if s := streamingScan(p.Input); s != "" {
			return "LIMIT", s
		}
		return statefulOp(p.Input)
	}
	return "", ""
}

// streamingScan returns the name of a STREAM(...) scan under p, or "".
func streamingScan(p sql.Plan) string {
	switch p := p.(type) {
	case *sql.Scan:
		if p.Streaming {
			return fmt.Sprintf("STREAM(%s)", p.Name)
		}
	case *sql.Project:
		return streamingScan(p.Input)
	case *sql.Filter:
		return streamingScan(p.Input)
	case *sql.Generate:
		return streamingScan(p.Input)
	case *sql.Aggregate:
		return streamingScan(p.Input)
	case *sql.Distinct:
		return streamingScan(p.Input)
	case *sql.Sort:
		return streamingScan(p.Input)
	case *sql.Limit:
		return streamingScan(p.Input)
	case *sql.Join:
		if s := streamingScan(p.Left); s != "" {
			return s
		}
		return streamingScan(p.Right)
	case *sql.Union:
		for _, in := range p.Inputs {
			if s := streamingScan(in); s != "" {
				return s
			}
		}
	}
	return ""
}
