package sql

// Mergeable reports whether every aggregate of p can be computed as
// partial states merged afterwards: per worker over parts of the input,
// or kept between refreshes of a materialized view (GROUP_AGGREGATE).
func (p *Aggregate) Mergeable() bool {
	for _, c := range p.Aggs {
		if c.Distinct {
			switch c.Func {
			case "count", "sum", "avg", "mean", "min", "max":
				continue
			}
			return false
		}
		switch c.Func {
		case "count", "count_if", "sum", "avg", "mean", "min", "max", "first", "last", "any_value",
			"first_value", "last_value", "bool_and", "every", "bool_or", "some", "any",
			"collect_list", "array_agg", "collect_set":
		default:
			return false
		}
	}
	return true
}
