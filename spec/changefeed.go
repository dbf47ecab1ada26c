package spec

import (
	"github.com/pipegen/pipegen/runtime/types"
)

// Change data feed reads. An AUTO CDC target's rows are updated and
// deleted in place, so a plain stream of it (which follows appends only)
// would fail at its first update or, worse, miss changes. A flow or view
// that streams from one must read its change data feed instead
// (`read_change_feed: true`, Delta's readChangeFeed option): STREAM(x) then
// has x's columns and the three change columns below.

// ChangeFeedColumns are the columns a change data feed read adds to a
// table's (Delta's table_changes): the kind of change (insert,
// update_preimage, update_postimage, delete), and the version and time of
// the commit that made it.
var ChangeFeedColumns = []Column{
	{Name: "_change_type", Type: types.StringType},
	{Name: "_commit_version", Type: types.LongType},
	{Name: "_commit_timestamp", Type: types.TimestampType},
}

// ChangeFeedColumns returns the columns of the table's change data feed:
// its Columns, then the package's ChangeFeedColumns, with Go names unique
// among them.
func (d *Dataset) ChangeFeedColumns() []Column {
	return namedColumns(append(append([]Column(nil), d.Columns...), ChangeFeedColumns...))
}

// readsChangeFeed reports whether the flow's query reads its streamed
// tables as change feeds: its own read_change_feed, or its table's for a
// default flow.
func (fn *flowNode) readsChangeFeed() bool {
	if fn.decl != nil {
		return fn.decl.ReadChangeFeed.Value
	}
	return fn.target != nil && fn.target.dsDecl != nil && fn.target.dsDecl.ReadChangeFeed.Value
}

// readChangeFeedDecl returns the read_change_feed setting of a flow, for
// positions.
func (fn *flowNode) readChangeFeedDecl() Bool {
	if fn.decl != nil {
		return fn.decl.ReadChangeFeed
	}
	if fn.target != nil && fn.target.dsDecl != nil {
		return fn.target.dsDecl.ReadChangeFeed
	}
	return Bool{}
}

// isCDCTarget reports whether an AUTO CDC flow writes the relation.
func (rl *rel) isCDCTarget() bool {
	for _, fn := range rl.flows {
		if fn.cdc != nil {
			return true
		}
	}
	return false
}

// changeFeedRules marks the streamed table reads of flows and views that
// set read_change_feed, and rejects a plain stream of an AUTO CDC target,
// an AUTO CDC flow fed by one, and read_change_feed where the query
// streams no table.
func (r *resolver) changeFeedRules() {
	check := func(owner string, refs []ref, on Bool) bool {
		ok, used := true, false
		for i := range refs {
			f := &refs[i]
			if !f.Streaming || (f.rel.kind != relST && f.rel.kind != relMV) {
				continue
			}
			if on.Value {
				f.changeFeed, used = true, true
				continue
			}
			if f.rel.isCDCTarget() {
				r.errorf(f.pos(), "DELTA_SOURCE_TABLE_IGNORE_CHANGES", "set read_change_feed: true on "+owner+" to stream its changes, or read it without STREAM(...)",
					"STREAM(%s) reads AUTO CDC target %q, whose rows are updated and deleted in place; a plain stream only follows appends", f.rel.name, f.rel.name)
				ok = false
			}
		}
		if on.Value && !used {
			r.errorf(on.Pos, "", "remove read_change_feed, or read a table of this pipeline with STREAM(...)",
				"read_change_feed is set on %s, which streams no table of this pipeline", owner)
			ok = false
		}
		return ok
	}
	for _, rl := range r.relOrder {
		if rl.kind == relTV && rl.dsDecl != nil && !check("view "+quote(rl.name), rl.refs, rl.dsDecl.ReadChangeFeed) {
			rl.failed = true
		}
	}
	for _, fn := range r.flows {
		if fn.target == nil || fn.failed {
			continue
		}
		ok := true
		if fn.cdc != nil {
			for _, f := range fn.refs {
				if f.rel.isCDCTarget() {
					r.errorf(f.pos(), "", "stream its change feed into a streaming table with read_change_feed: true, and apply that table",
						"auto_cdc flow %q reads AUTO CDC target %q, whose rows are updated and deleted in place", fn.name, f.rel.name)
					ok = false
				}
			}
		} else {
			owner := "flow " + quote(fn.name)
			if fn.isDflt {
				owner = "dataset " + quote(fn.name)
			}
			ok = check(owner, fn.refs, fn.readChangeFeedDecl())
		}
		if !ok {
			fn.failed = true
			fn.target.failed = true
		}
	}
}

func quote(s string) string { return `"` + s + `"` }

// streamColumns returns the columns of STREAM(rl) for a query that reads
// change feeds (nil: the relation's own).
func (r *resolver) streamColumns(rl *rel) []Column {
	if !r.changeFeed || (rl.kind != relST && rl.kind != relMV) {
		return nil
	}
	return append(append([]Column(nil), rl.columns...), ChangeFeedColumns...)
}
