package table

import (
	"bytes"
	"testing"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// TestPartitioner: rows are keyed by their partition values (NULL apart),
// the values are serialized as the Delta protocol's partitionValues and
// name a Hive-style folder, and the data row leaves the partition column
// out, renumbered to the data files' layout.
func TestPartitioner(t *testing.T) {
	s := types.Schema{
		{Name: "id", Type: types.LongType},
		{Name: "region", Type: types.StringType, Nullable: true},
		{Name: "amount", Type: types.IntType, Nullable: true},
	}
	if p, err := NewPartitioner(s, nil); p != nil || err != nil {
		t.Errorf("no partition columns: %v, %v, want nil", p, err)
	}
	if _, err := NewPartitioner(s, []string{"city"}); err == nil {
		t.Error("an unknown partition column was accepted")
	}
	p, err := NewPartitioner(s, []string{"REGION"})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.DataSchema().String(); got != "id BIGINT NOT NULL, amount INT" {
		t.Errorf("data schema %s", got)
	}
	enc := parquetio.NewEncoder(s)
	eu, err := enc.Append(nil, []any{int64(1), "eu/west", int32(10)})
	if err != nil {
		t.Fatal(err)
	}
	eu2, _ := enc.Append(nil, []any{int64(2), "eu/west", nil})
	none, _ := enc.Append(nil, []any{int64(3), nil, int32(30)})
	if k1, k2, k3 := p.Key(nil, eu), p.Key(nil, eu2), p.Key(nil, none); !bytes.Equal(k1, k2) || bytes.Equal(k1, k3) {
		t.Errorf("keys %q %q %q: want the first two equal, the NULL one apart", k1, k2, k3)
	}
	pv, err := p.Values(eu)
	if err != nil {
		t.Fatal(err)
	}
	if pv["region"] != "eu/west" || p.Dir(pv) != "region=eu%2Fwest" {
		t.Errorf("values %v, folder %q", pv, p.Dir(pv))
	}
	if nv, _ := p.Values(none); p.Dir(nv) != "region=__HIVE_DEFAULT_PARTITION__" {
		t.Errorf("NULL partition folder %q", p.Dir(nv))
	}
	row := p.DataRow(nil, eu)
	if len(row) != 2 || row[0].Column() != 0 || row[1].Column() != 1 || row[1].Int32() != 10 {
		t.Errorf("data row %v", row)
	}
}
