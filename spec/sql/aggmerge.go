package sql

// Whether aggregates are computed from partial states is said by the
// capability flags of their rows in the function table (Function.Agg):
// the methods below read them, so that an aggregate is added by one row.

// Mergeable reports whether every aggregate of p can be computed as
// partial states merged afterwards: per worker over parts of the input,
// across the micro-batches of a streaming window, or kept between
// refreshes of a materialized view (GROUP_AGGREGATE).
func (p *Aggregate) Mergeable() bool {
	for _, c := range p.Aggs {
		if !c.Mergeable() {
			return false
		}
	}
	return true
}

// Mergeable reports whether c's partial states merge: its function is
// AggMergeable, or AggMergeableDistinct for c with DISTINCT.
func (c *AggCall) Mergeable() bool {
	if c.Distinct {
		return c.has(AggMergeableDistinct)
	}
	return c.has(AggMergeable)
}

// Decomposable reports whether a GROUP_AGGREGATE refresh may maintain c
// over appends (its function is AggDecomposable), with or without
// DISTINCT; the refresh also needs c to be Mergeable.
func (c *AggCall) Decomposable() bool { return c.has(AggDecomposable) }

// has reports whether c's function has every capability of caps.
func (c *AggCall) has(caps AggCaps) bool {
	f := LookupFunction(c.Func)
	return f != nil && f.Agg&caps == caps
}
