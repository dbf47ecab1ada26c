package sql

import (
	"fmt"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

func TestParseSchema(t *testing.T) {
	s, errs := ParseSchema("a STRING NOT NULL, b DECIMAL(12,2) COMMENT 'money', c ARRAY<STRUCT<sku: STRING, qty INT NOT NULL>>, d MAP<STRING, INT>, `e f` TIMESTAMP")
	if errs != nil {
		t.Fatal(errString(errs))
	}
	item := types.StructOf(types.Field{Name: "sku", Type: types.StringType, Nullable: true}, types.Field{Name: "qty", Type: types.IntType})
	want := types.Schema{
		{Name: "a", Type: types.StringType},
		{Name: "b", Type: types.DecimalOf(12, 2), Nullable: true, Comment: "money"},
		{Name: "c", Type: types.ArrayOf(item, true), Nullable: true},
		{Name: "d", Type: types.MapOf(types.StringType, types.IntType, true), Nullable: true},
		{Name: "e f", Type: types.TimestampType, Nullable: true},
	}
	if len(s) != len(want) {
		t.Fatalf("got %d columns, want %d", len(s), len(want))
	}
	for i := range want {
		if s[i].Name != want[i].Name || !s[i].Type.Equal(want[i].Type) || s[i].Nullable != want[i].Nullable || s[i].Comment != want[i].Comment {
			t.Errorf("column %d = %+v, want %+v", i, s[i], want[i])
		}
	}
	if got := s.String(); got != "a STRING NOT NULL, b DECIMAL(12,2), c ARRAY<STRUCT<sku: STRING, qty: INT NOT NULL>>, d MAP<STRING, INT>, `e f` TIMESTAMP" {
		t.Errorf("String() = %s", got)
	}
}

// TestParseSchemaAt checks the offsets of the columns' names, quoted ones
// at their backquote.
func TestParseSchemaAt(t *testing.T) {
	const ddl = "a STRING NOT NULL,  b ARRAY<STRUCT<x: INT>>, `e f` TIMESTAMP"
	_, offsets, errs := ParseSchemaAt(ddl)
	if errs != nil {
		t.Fatal(errString(errs))
	}
	if want := []int{0, 20, 45}; fmt.Sprint(offsets) != fmt.Sprint(want) {
		t.Errorf("offsets %v, want %v", offsets, want)
	}
}

func TestParseType(t *testing.T) {
	tests := []struct {
		in   string
		want types.Type
	}{
		{"INT", types.IntType},
		{"integer", types.IntType},
		{"LONG", types.LongType},
		{"short", types.ShortType},
		{"byte", types.ByteType},
		{"REAL", types.FloatType},
		{"double", types.DoubleType},
		{"DECIMAL", types.DecimalOf(10, 0)},
		{"DEC(5)", types.DecimalOf(5, 0)},
		{"NUMERIC(38, 38)", types.DecimalOf(38, 38)},
		{"VARCHAR(10)", types.StringType},
		{"CHAR(1)", types.StringType},
		{"TIMESTAMP_LTZ", types.TimestampType},
		{"TIMESTAMP_NTZ", types.TimestampNTZType},
		{"DATE", types.DateType},
		{"BINARY", types.BinaryType},
		{"BOOLEAN", types.BooleanType},
		{"INTERVAL DAY TO SECOND", types.IntervalType},
		{"INTERVAL HOUR", types.IntervalType},
		{"ARRAY<ARRAY<INT>>", types.ArrayOf(types.ArrayOf(types.IntType, true), true)},
		{"MAP<STRING, ARRAY<STRING>>", types.MapOf(types.StringType, types.ArrayOf(types.StringType, true), true)},
		{"STRUCT<>", types.StructOf()},
		{"STRUCT<`a b`: INT COMMENT 'x', c STRING>", types.StructOf(types.Field{Name: "a b", Type: types.IntType, Nullable: true}, types.Field{Name: "c", Type: types.StringType, Nullable: true})},
	}
	for _, tt := range tests {
		got, errs := ParseType(tt.in)
		if errs != nil {
			t.Errorf("ParseType(%q): %s", tt.in, errString(errs))
			continue
		}
		if !got.Equal(tt.want) {
			t.Errorf("ParseType(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseDDLErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "0-0 PARSE_SYNTAX_ERROR syntax error at end of input (expected a column definition such as \"id STRING\")"},
		{"a", "1-1 PARSE_SYNTAX_ERROR syntax error at end of input (expected a data type)"},
		{"a STRNG", "2-7 UNSUPPORTED_DATATYPE unknown data type \"STRNG\" (did you mean \"STRING\"?)"},
		{"a INT, A STRING", "7-15 COLUMN_ALREADY_EXISTS column \"A\" is declared twice (rename one of them)"},
		{"a DECIMAL(40,2)", "2-15 DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION decimal precision 40 is out of range (use a precision from 1 to 38)"},
		{"a DECIMAL(4,5)", "2-14  decimal scale 5 is greater than its precision 4 (the scale counts the digits after the point, among the precision's digits)"},
		{"a ARRAY<INT", "11-11 PARSE_SYNTAX_ERROR syntax error at end of input (expected '>')"},
		{"a STRUCT<x INT, x INT>", "16-21 DUPLICATE_FIELD_NAME field \"x\" is declared twice"},
		{"a INT NOT", "9-9 PARSE_SYNTAX_ERROR syntax error at end of input (expected NULL)"},
		{"a INT, b BOGUS, c INT,", "9-14 UNSUPPORTED_DATATYPE unknown data type \"BOGUS\"; 22-22 PARSE_SYNTAX_ERROR syntax error at end of input (expected a field name)"},
		{"a INT b INT", "6-7 PARSE_SYNTAX_ERROR syntax error at or near 'b' (expected end of input)"},
		{"a INTERVAL MONTH TO YEAR", "20-24 PARSE_SYNTAX_ERROR syntax error at or near 'YEAR' (expected INTERVAL YEAR TO MONTH, or DAY, HOUR or MINUTE TO a smaller one of HOUR, MINUTE, SECOND)"},
		{"a MAP<INT>", "9-10 PARSE_SYNTAX_ERROR syntax error at or near '>' (expected ',')"},
	}
	for _, tt := range tests {
		_, errs := ParseSchema(tt.in)
		if got := errString(errs); got != tt.want {
			t.Errorf("ParseSchema(%q) errors:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
	if _, errs := ParseType("INT INT"); errString(errs) != "4-7 PARSE_SYNTAX_ERROR syntax error at or near 'INT' (expected end of input)" {
		t.Errorf("ParseType(\"INT INT\") = %s", errString(errs))
	}
}
