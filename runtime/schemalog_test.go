package runtime

import (
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// TestSchemaLogWidenings: the log's DDL lists added columns and then the
// widened ones with their new types; a widening already logged as wide
// or wider is kept when a program not yet rebuilt meets a narrower need.
func TestSchemaLogWidenings(t *testing.T) {
	l := SchemaLog{Source: "raw",
		AddedColumns:   []SchemaLogColumn{{Name: "city", Type: "STRING"}},
		WidenedColumns: []SchemaLogColumn{{Name: "n", Type: "BIGINT", FromType: "INT"}, {Name: "a`b", Type: "DECIMAL(13,2)", FromType: "DECIMAL(5,2)"}}}
	if got, want := l.DDL(), "`city` STRING, `n` BIGINT, `a``b` DECIMAL(13,2)"; got != want {
		t.Errorf("DDL %q, want %q", got, want)
	}
	for _, tc := range []struct {
		logged string
		t      types.Type
		want   bool
	}{
		{"BIGINT", types.LongType, true},
		{"DECIMAL(38,0)", types.LongType, true},
		{"BIGINT", types.DecimalOf(38, 0), false},
		{"INT", types.LongType, false},
		{"DECIMAL(13,2)", types.DecimalOf(8, 2), true},
		{"DECIMAL(8,2)", types.DecimalOf(13, 2), false},
		{"DOUBLE", types.FloatType, true},
	} {
		if got := widerLogged(tc.logged, tc.t); got != tc.want {
			t.Errorf("widerLogged(%s, %s) = %v, want %v", tc.logged, tc.t, got, tc.want)
		}
	}
}
