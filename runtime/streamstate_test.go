package runtime

import (
	"strings"
	"testing"
)

// TestStateWidening: values widen when the codec upcasts them (integers,
// FLOAT to DOUBLE, DECIMAL precision with the same scale); keys never do,
// nor DATE to TIMESTAMP_NTZ or a DECIMAL scale change, whose saved numbers
// mean something else in the wider type.
func TestStateWidening(t *testing.T) {
	for _, c := range []struct {
		from, to []string
		want     string // "" when kept, else part of the reason
	}{
		{[]string{"key STRING", "value INT"}, []string{"key STRING", "value BIGINT"}, ""},
		{[]string{"value TINYINT", "value FLOAT"}, []string{"value INT", "value DOUBLE"}, ""},
		{[]string{"value DECIMAL(5,2)"}, []string{"value DECIMAL(13,2)"}, ""},
		{[]string{"key INT", "value INT"}, []string{"key BIGINT", "value BIGINT"}, "a key of its state changed type from INT to BIGINT"},
		{[]string{"value DECIMAL(5,2)"}, []string{"value DECIMAL(8,3)"}, "from DECIMAL(5,2) to DECIMAL(8,3), which is not a widening"},
		{[]string{"value DATE"}, []string{"value TIMESTAMP_NTZ"}, "from DATE to TIMESTAMP_NTZ"},
		{[]string{"value INT"}, []string{"value DOUBLE"}, "from INT to DOUBLE"},
		{[]string{"value INT"}, []string{"value DECIMAL(10,0)"}, "from INT to DECIMAL(10,0)"},
		{[]string{"value BIGINT"}, []string{"value INT"}, "from BIGINT to INT"},
		{[]string{"value INT"}, []string{"value INT", "value INT"}, "keys or aggregates changed"},
		{[]string{"key INT"}, []string{"value INT"}, "keys or aggregates changed"},
	} {
		err := StateWidening(c.from, c.to)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v -> %v: %v, want kept", c.from, c.to, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v -> %v: %v, want %q", c.from, c.to, err, c.want)
		}
	}
}
