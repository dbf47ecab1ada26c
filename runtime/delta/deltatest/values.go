package deltatest

import (
	"fmt"

	"github.com/pipegen/pipegen/runtime/types"
)

// RowValues converts one row printed by DuckDB's to_json (a JSON object,
// TIMESTAMPTZ values rendered in UTC) into generic values (see package
// parquetio) of the columns of s, taken by position: the i-th key of the
// object is column i, whatever its name. Tests that run their own DuckDB
// queries (gen/difftest) compare these with pipegen's rows.
func RowValues(line string, s types.Schema) ([]any, error) {
	v, err := parseOrdered(line)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(object)
	if !ok {
		return nil, fmt.Errorf("not a JSON object: %s", line)
	}
	if len(obj) != len(s) {
		return nil, fmt.Errorf("%d columns, want %d: %s", len(obj), len(s), line)
	}
	row := make([]any, len(s))
	for i, f := range s {
		if row[i], err = fromDuck(obj[i].val, f.Type, true); err != nil {
			return nil, fmt.Errorf("column %d (%s): %w", i+1, f.Name, err)
		}
	}
	return row, nil
}
