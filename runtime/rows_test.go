package runtime

import (
	"testing"

	"github.com/parquet-go/parquet-go"
)

func TestLeafStarts(t *testing.T) {
	row := parquet.Row{
		parquet.Int64Value(1).Level(0, 0, 0),
		parquet.Int64Value(2).Level(0, 1, 1),
		parquet.Int64Value(3).Level(1, 1, 1),
		parquet.NullValue().Level(0, 0, 2),
	}
	starts := make([]int, 3)
	if err := LeafStarts(row, starts); err != nil {
		t.Fatal(err)
	}
	if starts[0] != 0 || starts[1] != 1 || starts[2] != 3 {
		t.Errorf("starts = %v, want [0 1 3]", starts)
	}
	if err := LeafStarts(row[:3], make([]int, 3)); err == nil {
		t.Error("a row missing column 2 was accepted")
	}
	if err := LeafStarts(parquet.Row{row[1], row[0]}, make([]int, 2)); err == nil {
		t.Error("a row with columns out of order was accepted")
	}
}
