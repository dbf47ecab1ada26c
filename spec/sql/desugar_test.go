package sql

import (
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

func TestDesugar(t *testing.T) {
	x := &Literal{Value: "  a  ", Type: types.StringType}
	chars := &Literal{Value: " ", Type: types.StringType}
	num := &Literal{Value: 2.5, Type: types.DoubleType}
	str := func(e Expr) string { return FormatExpr(e) }
	cases := []struct {
		call *Call
		want string // "" when the call compiles as written
	}{
		{&Call{Func: "if", Args: []Expr{&Literal{Value: true, Type: types.BooleanType}, x, chars}, Type: types.StringType}, `CASE WHEN true THEN "  a  " ELSE " " END`},
		{&Call{Func: "positive", Args: []Expr{num}, Type: types.DoubleType}, "2.5"},
		{&Call{Func: "trim", Args: []Expr{chars, x}, Type: types.StringType}, `trim("  a  ", " ")`},
		{&Call{Func: "trim", Args: []Expr{x}, Type: types.StringType}, ""},
		{&Call{Func: "round", Args: []Expr{num}, Type: types.DoubleType}, "round(2.5, 0)"},
		{&Call{Func: "round", Args: []Expr{num, &Literal{Value: int32(1), Type: types.IntType}}, Type: types.DoubleType}, ""},
		{&Call{Func: "to_date", Args: []Expr{x}, Type: types.DateType}, ""},
		{&Call{Func: "upper", Args: []Expr{x}, Type: types.StringType}, ""},
	}
	for _, c := range cases {
		got, ok := Desugar(c.call)
		switch {
		case c.want == "" && ok:
			t.Errorf("Desugar(%s) = %s, want the call as written", str(c.call), str(got))
		case c.want != "" && !ok:
			t.Errorf("Desugar(%s) left the call as written, want %s", str(c.call), c.want)
		case ok && str(got) != c.want:
			t.Errorf("Desugar(%s) = %s, want %s", str(c.call), str(got), c.want)
		}
	}
}
