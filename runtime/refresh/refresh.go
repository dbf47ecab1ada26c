// Package refresh names the techniques that refresh a materialized view,
// with Databricks' names (the planning_information event's
// "maintenance_type" is MAINTENANCE_TYPE_ followed by the name). The
// compiler (spec) chooses which technique a view's query allows; the
// runtime runs it, or recomputes when the input did not only grow.
package refresh

// Technique is how one refresh of a materialized view computes it; the
// value is Databricks' name of the technique.
type Technique string

// The techniques, as Databricks names them.
const (
	// NoOp leaves the view as it is: no input and no part of its
	// definition changed since the last refresh.
	NoOp Technique = "NO_OP"
	// CompleteRecompute runs the query over the whole input and replaces
	// the view.
	CompleteRecompute Technique = "COMPLETE_RECOMPUTE"
	// AppendOnly appends the query's rows for the rows appended to the
	// input since the last refresh: the query is row-wise over one table
	// (projections, filters, generators).
	AppendOnly Technique = "APPEND_ONLY"
	// GroupAggregate folds the rows appended to the input since the last
	// refresh into the aggregation state the last refresh saved, and
	// replaces the view with the rows of the whole state: the query is a
	// top-level aggregation whose aggregates are maintained over appends.
	GroupAggregate Technique = "GROUP_AGGREGATE"
)
