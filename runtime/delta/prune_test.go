package delta

import (
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// TestPrunerStats checks which files statistics rule out, at the edges
// that truncated statistics make delicate.
func TestPrunerStats(t *testing.T) {
	schema := types.Schema{
		{Name: "id", Type: types.Type{Kind: types.LongKind}, Nullable: true},
		{Name: "s", Type: types.Type{Kind: types.StringKind}, Nullable: true},
		{Name: "ts", Type: types.Type{Kind: types.TimestampKind}, Nullable: true},
		{Name: "p", Type: types.Type{Kind: types.IntKind}, Nullable: true},
	}
	snap := &Snapshot{Table: "t", Schema: schema, Metadata: Metadata{PartitionColumns: []string{"p"}}}
	const long = "abcdefghijklmnopqrstuvwxyz012345" // a 32-character truncated maximum
	stats := `{"numRecords":3,"minValues":{"id":10,"s":"ab","ts":"2024-01-02T03:04:05.123Z"},` +
		`"maxValues":{"id":20,"s":"` + long + `","ts":"2024-01-02T03:04:05.123Z"},"nullCount":{"id":0,"s":1,"ts":0}}`
	allNull := `{"numRecords":2,"nullCount":{"id":2,"s":2,"ts":2}}`
	for _, tc := range []struct {
		term  PruneTerm
		stats string
		pv    PartitionValues
		skip  bool
	}{
		{PruneTerm{"id", "=", "int", []any{int64(9)}}, stats, nil, true},
		{PruneTerm{"id", "=", "int", []any{int64(10)}}, stats, nil, false},
		{PruneTerm{"id", "=", "int", []any{int64(20)}}, stats, nil, false},
		{PruneTerm{"id", "=", "int", []any{int64(21)}}, stats, nil, true},
		{PruneTerm{"id", "<", "int", []any{int64(10)}}, stats, nil, true},
		{PruneTerm{"id", "<=", "int", []any{int64(10)}}, stats, nil, false},
		{PruneTerm{"id", ">", "int", []any{int64(20)}}, stats, nil, true},
		{PruneTerm{"id", ">=", "int", []any{int64(20)}}, stats, nil, false},
		{PruneTerm{"id", "in", "int", []any{int64(1), int64(30)}}, stats, nil, true},
		{PruneTerm{"id", "in", "int", []any{int64(1), int64(15)}}, stats, nil, false},
		{PruneTerm{"id", "is null", "int", nil}, stats, nil, true},
		{PruneTerm{"s", "is null", "string", nil}, stats, nil, false},
		// no statistics, or unreadable ones: kept
		{PruneTerm{"id", "=", "int", []any{int64(9)}}, "", nil, false},
		{PruneTerm{"id", "=", "int", []any{int64(9)}}, "{bad", nil, false},
		{PruneTerm{"id", "=", "int", []any{int64(9)}}, `{"numRecords":3}`, nil, false},
		// only NULLs: no comparison holds
		{PruneTerm{"id", ">", "int", []any{int64(0)}}, allNull, nil, true},
		{PruneTerm{"id", "is null", "int", nil}, allNull, nil, false},
		// strings: the maximum may be a truncated prefix
		{PruneTerm{"s", "=", "string", []any{"a"}}, stats, nil, true},
		{PruneTerm{"s", "=", "string", []any{long + "zzz"}}, stats, nil, false},
		{PruneTerm{"s", ">", "string", []any{long}}, stats, nil, false},
		{PruneTerm{"s", ">=", "string", []any{long + "z"}}, stats, nil, false},
		{PruneTerm{"s", ">", "string", []any{"abd"}}, stats, nil, true},
		{PruneTerm{"s", "=", "string", []any{"abd"}}, stats, nil, true},
		{PruneTerm{"s", "<", "string", []any{"ab"}}, stats, nil, true},
		{PruneTerm{"s", "<=", "string", []any{"ab"}}, stats, nil, false},
		// timestamps: statistics in milliseconds stand for the whole millisecond
		{PruneTerm{"ts", ">", "timestamp", []any{int64(1704164645123456)}}, stats, nil, false},
		{PruneTerm{"ts", ">", "timestamp", []any{int64(1704164645123999)}}, stats, nil, true},
		{PruneTerm{"ts", "<", "timestamp", []any{int64(1704164645123000)}}, stats, nil, false},
		{PruneTerm{"ts", "<", "timestamp", []any{int64(1704164645122001)}}, stats, nil, true},
		{PruneTerm{"ts", "=", "timestamp", []any{int64(1704164645123500)}}, stats, nil, false},
		// partition values
		{PruneTerm{"p", "=", "int", []any{int64(1)}}, "", PartitionValues{"p": "1"}, false},
		{PruneTerm{"p", "=", "int", []any{int64(1)}}, "", PartitionValues{"p": "2"}, true},
		{PruneTerm{"p", "=", "int", []any{int64(1)}}, "", PartitionValues{"p": ""}, true},
		{PruneTerm{"p", "is null", "int", nil}, "", PartitionValues{"p": ""}, false},
		{PruneTerm{"p", "is null", "int", nil}, "", PartitionValues{}, false},
		{PruneTerm{"p", "is null", "int", nil}, "", PartitionValues{"p": "3"}, true},
		{PruneTerm{"p", ">=", "int", []any{int64(3)}}, "", PartitionValues{"p": "3"}, false},
		{PruneTerm{"p", ">", "int", []any{int64(3)}}, "", PartitionValues{"p": "3"}, true},
		{PruneTerm{"p", "=", "int", []any{int64(1)}}, "", PartitionValues{"p": "x"}, false}, // unparsable: kept
		// a constant of another class than the column's is ignored
		{PruneTerm{"id", "=", "int", []any{"9"}}, stats, nil, false},
		{PruneTerm{"id", "=", "date", []any{int64(9)}}, stats, nil, false},
		{PruneTerm{"ts", "<", "timestamp_ntz", []any{int64(0)}}, stats, nil, false},
		{PruneTerm{"nosuch", "=", "int", []any{int64(9)}}, stats, nil, false},
	} {
		p := NewPruner(snap, []PruneTerm{tc.term})
		if got := p.Skip(tc.pv, tc.stats); got != tc.skip {
			t.Errorf("%v over pv %v stats %s: skip %v, want %v", tc.term, tc.pv, tc.stats, got, tc.skip)
		}
	}
}
