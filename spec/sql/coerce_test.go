package sql

import (
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

func mustType(s string) types.Type {
	t, errs := ParseType(s)
	if errs != nil {
		panic(errString(errs))
	}
	return t
}

// TestLeastCommonType checks findWiderTypeForTwo against the examples of
// Spark's ANSI compliance page ("Least Common Type Resolution") and the
// rules of AnsiTypeCoercion and DecimalPrecision.
func TestLeastCommonType(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"TINYINT", "BIGINT", "BIGINT"},
		{"INT", "FLOAT", "DOUBLE"},
		{"BIGINT", "FLOAT", "DOUBLE"},
		{"FLOAT", "FLOAT", "FLOAT"},
		{"DECIMAL(1,0)", "FLOAT", "DOUBLE"},
		{"INT", "STRING", "BIGINT"},
		{"DECIMAL(2,1)", "STRING", "DOUBLE"},
		{"DOUBLE", "STRING", "DOUBLE"},
		{"DATE", "STRING", "DATE"},
		{"BOOLEAN", "STRING", "BOOLEAN"},
		{"BINARY", "STRING", "BINARY"},
		{"INT", "DATE", ""},
		{"INT", "BOOLEAN", ""},
		{"INTERVAL DAY TO SECOND", "STRING", ""},
		{"ARRAY<TINYINT>", "ARRAY<BIGINT>", "ARRAY<BIGINT>"},
		{"MAP<STRING, INT>", "MAP<STRING, DOUBLE>", "MAP<STRING, DOUBLE>"},
		{"STRUCT<a: INT, b: STRING>", "STRUCT<a: BIGINT, b: STRING>", "STRUCT<a: BIGINT, b: STRING>"},
		{"DECIMAL(38,8)", "DECIMAL(38,6)", "DECIMAL(38,6)"},
		{"STRUCT<a: INT>", "STRUCT<b: INT>", ""},
		{"DATE", "TIMESTAMP", "TIMESTAMP"},
		{"DATE", "TIMESTAMP_NTZ", "TIMESTAMP_NTZ"},
		{"TIMESTAMP_NTZ", "TIMESTAMP", "TIMESTAMP"},
		{"VOID", "DATE", "DATE"},
		{"INT", "DECIMAL(5,2)", "DECIMAL(12,2)"},
		{"BIGINT", "DECIMAL(38,2)", "DECIMAL(38,2)"},
		{"BIGINT", "DECIMAL(38,20)", "DECIMAL(38,18)"},
		{"DECIMAL(10,2)", "DECIMAL(5,4)", "DECIMAL(12,4)"},
		{"INT", "DECIMAL(20,0)", "DECIMAL(20,0)"},
	}
	for _, tt := range tests {
		a, b := mustType(tt.a), mustType(tt.b)
		for _, pair := range [][2]types.Type{{a, b}, {b, a}} {
			got, ok := widerType(pair[0], pair[1])
			gotS := ""
			if ok {
				gotS = got.String()
			}
			if gotS != tt.want {
				t.Errorf("widerType(%s, %s) = %q, want %q", pair[0], pair[1], gotS, tt.want)
			}
		}
	}
}

// TestTightestCommonType checks findTightestCommonType, which never loses
// information (so no STRING promotion and no DECIMAL that cannot hold both).
func TestTightestCommonType(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"TINYINT", "SMALLINT", "SMALLINT"},
		{"INT", "DOUBLE", "DOUBLE"},
		{"INT", "DECIMAL(12,2)", "DECIMAL(12,2)"},
		{"INT", "DECIMAL(11,2)", ""},
		{"INT", "STRING", ""},
		{"DATE", "TIMESTAMP", "TIMESTAMP"},
	}
	for _, tt := range tests {
		got, ok := tightestCommon(mustType(tt.a), mustType(tt.b))
		gotS := ""
		if ok {
			gotS = got.String()
		}
		if gotS != tt.want {
			t.Errorf("tightestCommon(%s, %s) = %q, want %q", tt.a, tt.b, gotS, tt.want)
		}
	}
}

// TestDecimalArithmetic checks DecimalPrecision's result types.
func TestDecimalArithmetic(t *testing.T) {
	tests := []struct {
		op   BinaryOp
		a, b string
		want string
	}{
		{Add, "DECIMAL(10,2)", "DECIMAL(5,4)", "DECIMAL(13,4)"},
		{Sub, "DECIMAL(38,10)", "DECIMAL(38,10)", "DECIMAL(38,9)"},
		{Mul, "DECIMAL(10,2)", "DECIMAL(5,4)", "DECIMAL(16,6)"},
		{Mul, "DECIMAL(38,18)", "DECIMAL(38,18)", "DECIMAL(38,6)"},
		{Mul, "DECIMAL(20,2)", "DECIMAL(20,10)", "DECIMAL(38,9)"},
		{Div, "DECIMAL(10,2)", "DECIMAL(10,2)", "DECIMAL(23,13)"},
		{Div, "DECIMAL(38,0)", "DECIMAL(38,18)", "DECIMAL(38,6)"},
		{Div, "DECIMAL(2,1)", "DECIMAL(1,0)", "DECIMAL(7,6)"},
		{Mod, "DECIMAL(12,2)", "DECIMAL(5,2)", "DECIMAL(5,2)"},
		{Mod, "DECIMAL(10,0)", "DECIMAL(5,3)", "DECIMAL(5,3)"},
	}
	for _, tt := range tests {
		if got := decimalArithType(tt.op, mustType(tt.a), mustType(tt.b)).String(); got != tt.want {
			t.Errorf("%s %s %s = %s, want %s", tt.a, tt.op, tt.b, got, tt.want)
		}
	}
}

// TestDocumentedCoercions checks typeof() results from Spark's docs.
func TestDocumentedCoercions(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"coalesce(1Y, 1L, NULL)", "BIGINT"},
		{"coalesce(array(1Y), array(1L))", "ARRAY<BIGINT>"},
		{"coalesce(1, 1F)", "DOUBLE"},
		{"coalesce(1L, 1F)", "DOUBLE"},
		{"coalesce(1BD, 1F)", "DOUBLE"},
		{"coalesce(1, '2147483648')", "BIGINT"},
		{"coalesce(1.0, '2147483648')", "DOUBLE"},
		{"coalesce(DATE'2021-01-01', '2022-01-01')", "DATE"},
		{"coalesce(1, DATE'2020-01-01')", ""},
		{"concat('total number: ', 1)", "STRING"},
		{"datediff(now(), current_date)", "INT"},
		{"ceil('0.1')", "BIGINT"},
		{"year(null)", "INT"},
		{"substring('hello', 1Y, 2)", "STRING"},
		{"substring('hello', '1', 2)", "STRING"},
		{"substring('hello', 1L, 2)", "STRING"},
		{"1 / 2", "DOUBLE"},
		{"3 DIV 2", "BIGINT"},
		{"2147483647 + 1", "INT"},
		{"1.5 * 2", "DECIMAL(4,1)"},
		{"typeof_does_not_exist(1)", ""},
	}
	for _, tt := range tests {
		pe, errs := ParseExpr(tt.expr)
		if errs != nil {
			t.Fatalf("%s: %s", tt.expr, errString(errs))
		}
		e, errs := CheckExpr(pe, nil, nil)
		got := ""
		if errs == nil {
			got = e.ResultType().String()
		}
		if got != tt.want {
			t.Errorf("typeof(%s) = %q, want %q (%s)", tt.expr, got, tt.want, errString(errs))
		}
	}
}

func TestCanCast(t *testing.T) {
	tests := []struct {
		from, to string
		want     bool
	}{
		{"STRING", "INT", true},
		{"INT", "STRING", true},
		{"DOUBLE", "DECIMAL(10,2)", true},
		{"BOOLEAN", "INT", true},
		{"INT", "BOOLEAN", true},
		{"DATE", "TIMESTAMP", true},
		{"TIMESTAMP", "DATE", true},
		{"BIGINT", "TIMESTAMP", true},
		{"TIMESTAMP", "BIGINT", true},
		{"DATE", "INT", false},
		{"INT", "DATE", false},
		{"BINARY", "STRING", true},
		{"INT", "BINARY", false},
		{"ARRAY<INT>", "ARRAY<STRING>", true},
		{"ARRAY<DATE>", "ARRAY<INT>", false},
		{"MAP<STRING, INT>", "MAP<STRING, BIGINT>", true},
		{"STRUCT<a: INT>", "STRUCT<b: STRING>", true},
		{"STRUCT<a: INT>", "STRUCT<a: INT, b: INT>", false},
		{"ARRAY<INT>", "STRING", true},
		{"STRING", "ARRAY<INT>", false},
		{"VOID", "MAP<STRING, INT>", true},
	}
	for _, tt := range tests {
		if got := canCast(mustType(tt.from), mustType(tt.to)); got != tt.want {
			t.Errorf("canCast(%s, %s) = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestFunctionTable checks that the table is consistent: every argument
// rule and form is handled, names are unique and lower-case, and every
// function has a description.
func TestFunctionTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Functions() {
		for _, n := range append([]string{f.Name}, f.Aliases...) {
			if seen[n] {
				t.Errorf("%s: name %q is used twice", f.Name, n)
			}
			seen[n] = true
			if n != LookupFunction(n).Name && LookupFunction(n) != f {
				t.Errorf("LookupFunction(%q) is not %s", n, f.Name)
			}
		}
		if f.Doc == "" {
			t.Errorf("%s has no Doc", f.Name)
		}
		if f.MinArgs > len(f.Args) && !f.Variadic {
			t.Errorf("%s: MinArgs %d > %d rules", f.Name, f.MinArgs, len(f.Args))
		}
		if f.Form == FormCast && f.Type.Kind == types.InvalidKind {
			t.Errorf("%s: cast without a type", f.Name)
		}
		if f.Result == ResFixed && f.Type.Kind == types.InvalidKind {
			t.Errorf("%s: fixed result without a type", f.Name)
		}
	}
	if LookupFunction("NVL").Name != "coalesce" || LookupFunction("nope") != nil {
		t.Error("LookupFunction does not fold case or finds a missing function")
	}
	if f := LookupFunction("map"); f.ArgRuleAt(4) != ArgCommon || f.ArgRuleAt(5) != ArgCommonValue {
		t.Error("ArgRuleAt does not repeat pairs")
	}
}
