package conformance

import (
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec"
)

// intervalColumnsView is the temporary view intervalColumns types a query as.
const intervalColumnsView = "q_interval_columns"

// intervalColumns returns the types of q's result columns when some are
// or hold ANSI intervals (the zero Type for the others), or nil: when none
// is, or when the query does not check as a temporary view.
func intervalColumns(q *query) []types.Type {
	views := append(slices.Clone(q.Views), &view{Name: intervalColumnsView, SQL: q.Block.SQL})
	// A pipeline needs a table besides the views.
	src := specText(views, nil) + "  q_interval_table:\n    kind: materialized_view\n    query: SELECT 1 AS x\n"
	p, diags := spec.LoadBytes("conformance.yaml", []byte(src))
	if p == nil || diags.HasErrors() {
		return nil
	}
	for _, v := range p.Views {
		if v.Name != intervalColumnsView {
			continue
		}
		ts := make([]types.Type, len(v.Columns))
		any := false
		for i, c := range v.Columns {
			if intervalsAsString(c.Type).String() != c.Type.String() {
				ts[i], any = c.Type, true
			}
		}
		if any {
			return ts
		}
	}
	return nil
}

// intervalsAsString is t with every interval in it, at the top or nested
// in arrays, maps and structs, replaced by STRING: the type the query's
// column is cast to so that a table can hold it.
func intervalsAsString(t types.Type) types.Type {
	switch {
	case t.IsInterval():
		return types.StringType
	case t.Kind == types.ArrayKind:
		return types.ArrayOf(intervalsAsString(*t.Elem), t.ContainsNull)
	case t.Kind == types.MapKind:
		return types.MapOf(intervalsAsString(*t.Key), intervalsAsString(*t.Value), t.ValueContainsNull)
	case t.Kind == types.StructKind:
		fs := slices.Clone(t.Fields)
		for i := range fs {
			fs[i].Type = intervalsAsString(fs[i].Type)
		}
		return types.StructOf(fs...)
	}
	return t
}

// hiveInterval turns an interval cast to STRING (Spark's ANSI_STYLE,
// INTERVAL '1-2' YEAR TO MONTH, INTERVAL '-1 02:03:04.5' DAY TO SECOND)
// into the HIVE_STYLE text the golden files print: 1-2,
// -1 02:03:04.500000000. Other text is returned as it is.
func hiveInterval(s string) string {
	body, ok := strings.CutPrefix(s, "INTERVAL '")
	if !ok {
		return s
	}
	if ym, ok := strings.CutSuffix(body, "' YEAR TO MONTH"); ok {
		return ym
	}
	dt, ok := strings.CutSuffix(body, "' DAY TO SECOND")
	if !ok {
		return s
	}
	whole, frac, _ := strings.Cut(dt, ".")
	return whole + "." + frac + strings.Repeat("0", max(0, 9-len(frac)))
}

func TestHiveInterval(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"INTERVAL '1-2' YEAR TO MONTH", "1-2"},
		{"INTERVAL '-0-11' YEAR TO MONTH", "-0-11"},
		{"INTERVAL '1 02:03:04' DAY TO SECOND", "1 02:03:04.000000000"},
		{"INTERVAL '-0 00:00:13.123456' DAY TO SECOND", "-0 00:00:13.123456000"},
		{"2024-01-01", "2024-01-01"},
	} {
		if got := hiveInterval(c.in); got != c.want {
			t.Errorf("hiveInterval(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
