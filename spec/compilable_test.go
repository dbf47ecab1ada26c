package spec

import (
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// TestUndecodable checks which column types the generated decoders of
// file sources read, and for the others the type inside that they cannot.
func TestUndecodable(t *testing.T) {
	tests := []struct {
		format   FileFormat
		typ      string
		bad, why string // bad "" when it reads the type
	}{
		{FormatJSON, "BIGINT", "", ""},
		{FormatJSON, "DECIMAL(12,2)", "", ""},
		{FormatJSON, "MAP<STRING, ARRAY<STRUCT<x: INT, y: TIMESTAMP_NTZ>>>", "", ""},
		{FormatJSON, "MAP<INT, STRING>", "MAP<INT, STRING>", "map keys other than STRING"},
		{FormatJSON, "ARRAY<STRUCT<m: MAP<DATE, INT>>>", "MAP<DATE, INT>", "map keys other than STRING"},
		{FormatJSON, "INTERVAL DAY TO SECOND", "INTERVAL DAY TO SECOND", ""},
		{FormatJSON, "STRUCT<a: INT, b: INTERVAL YEAR TO MONTH>", "INTERVAL YEAR TO MONTH", ""},
		{FormatJSON, "VOID", "VOID", ""},
		{FormatCSV, "TIMESTAMP", "", ""},
		{FormatCSV, "BINARY", "", ""},
		{FormatCSV, "INTERVAL DAY TO SECOND", "INTERVAL DAY TO SECOND", ""},
		{FormatCSV, "ARRAY<INT>", "ARRAY<INT>", ""},
		{FormatParquet, "INTERVAL DAY TO SECOND", "", ""},
		{FormatParquet, "MAP<INT, STRING>", "", ""},
	}
	for _, tt := range tests {
		typ, errs := sql.ParseType(tt.typ)
		if errs != nil {
			t.Fatalf("%s: %v", tt.typ, errs)
		}
		bad, why, ok := Undecodable(tt.format, typ)
		if ok != (tt.bad == "") || ok && (why != "" || bad.Kind != types.InvalidKind) || !ok && (bad.String() != tt.bad || why != tt.why) {
			t.Errorf("Undecodable(%s, %s) = %s, %q, %v; want %q, %q", tt.format, tt.typ, bad, why, ok, tt.bad, tt.why)
		}
	}
}

// TestSequenceByCompiles checks the types an AUTO CDC flow sequences by.
func TestSequenceByCompiles(t *testing.T) {
	for _, tt := range []struct {
		typ  types.Type
		want bool
	}{
		{types.LongType, true},
		{types.TimestampType, true},
		{types.StringType, true},
		{types.StructOf(types.Field{Name: "a", Type: types.IntType}), false},
		{types.ArrayOf(types.IntType, true), false},
		{types.MapOf(types.StringType, types.StringType, true), false},
	} {
		if got := SequenceByCompiles(tt.typ); got != tt.want {
			t.Errorf("SequenceByCompiles(%s) = %v, want %v", tt.typ, got, tt.want)
		}
	}
}
