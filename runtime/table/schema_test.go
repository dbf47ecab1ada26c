package table

import (
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

func TestEvolve(t *testing.T) {
	have := types.Schema{
		{Name: "id", Type: types.LongType},
		{Name: "name", Type: types.StringType, Nullable: true},
	}
	// A new column is appended as nullable; an existing column keeps its place.
	got, _, changed, err := evolve("t", have, types.Schema{
		{Name: "ID", Type: types.LongType},
		{Name: "city", Type: types.StringType},
		{Name: "name", Type: types.StringType, Nullable: true},
	})
	if err != nil || !changed {
		t.Fatalf("evolve: %v, changed %v", err, changed)
	}
	if got.String() != "id BIGINT NOT NULL, name STRING, city STRING" {
		t.Errorf("evolved schema %s", got)
	}
	if _, _, changed, err := evolve("t", have, have); err != nil || changed {
		t.Errorf("same schema: changed %v, %v", changed, err)
	}
	// A widening takes the wider type, in place, and is listed.
	got, widened, changed, err := evolve("t", have, types.Schema{
		{Name: "id", Type: types.DecimalOf(20, 0)},
		{Name: "name", Type: types.StringType, Nullable: true},
	})
	if err != nil || !changed || len(widened) != 1 || widened[0].Column != "id" || widened[0].To.String() != "DECIMAL(20,0)" {
		t.Fatalf("evolve BIGINT → DECIMAL(20,0): %v, changed %v, widened %+v", err, changed, widened)
	}
	if got.String() != "id DECIMAL(20,0) NOT NULL, name STRING" {
		t.Errorf("widened schema %s", got)
	}
	// A partition column does not widen in place.
	wide := types.Schema{{Name: "id", Type: types.DecimalOf(20, 0)}, {Name: "name", Type: types.StringType, Nullable: true}}
	if _, _, err := CheckSchemaChange("t", have, wide, []string{"ID"}); err == nil ||
		!strings.Contains(err.Error(), "partition column id changed type from BIGINT to DECIMAL(20,0)") || !strings.Contains(err.Error(), "--full-refresh t") {
		t.Errorf("widening a partition column: %v", err)
	}
	if _, w, err := CheckSchemaChange("t", have, wide, []string{"name"}); err != nil || len(w) != 1 {
		t.Errorf("widening a column that does not partition: %v, %v", w, err)
	}
	for _, tc := range []struct {
		want types.Schema
		msg  string
	}{
		{types.Schema{{Name: "id", Type: types.StringType}, {Name: "name", Type: types.StringType, Nullable: true}},
			"column id changed type from BIGINT to STRING"},
		{types.Schema{{Name: "name", Type: types.StringType, Nullable: true}},
			"NOT NULL column id is no longer produced"},
		{types.Schema{{Name: "id", Type: types.IntType}, {Name: "name", Type: types.StringType, Nullable: true}},
			"column id changed type from BIGINT to INT, which is not a change Delta's type widening allows"},
	} {
		_, _, _, err := evolve("t", have, tc.want)
		if err == nil || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), "--full-refresh t") {
			t.Errorf("evolve to %s: %v, want %q and the full refresh instruction", tc.want, err, tc.msg)
		}
	}
}
