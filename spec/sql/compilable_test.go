package sql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// TestUncompilable checks that Uncompilable reports every construct of a
// query the code generator cannot compile, all of them, at their offsets,
// and nothing for the constructs it compiles.
func TestUncompilable(t *testing.T) {
	tests := []struct{ query, want string }{
		// Compiled: no errors.
		{"SELECT DISTINCT i, str, st FROM nums", ""},
		{"SELECT arr, m, count(*) AS n FROM nums GROUP BY arr, m", ""}, // keyed by sqlfn.GroupKey
		{"SELECT count(DISTINCT i, str) AS n, sum(DISTINCT d) AS s, min(DISTINCT arr) AS a FROM nums", ""},
		{"SELECT CAST(arr AS ARRAY<STRING>) AS a, CAST(st AS STRUCT<x: BIGINT, y: STRING>) AS s, CAST(m AS MAP<STRING, STRING>) AS m FROM nums", ""},
		{"SELECT percentile(i, 0.5) AS p, collect_set(str) AS s FROM nums", ""},
		{"SELECT t1.id FROM t1 JOIN t2 ON t1.id = t2.id", ""},
		{"SELECT date_part('SECOND', ts) AS s FROM nums", ""},
		{"SELECT aggregate(arr, 0, (acc, x) -> acc + x) AS s, aggregate(arr, array(i), (acc, x) -> acc) AS a FROM nums", ""},
		// Not compiled.
		{"SELECT DISTINCT arr FROM nums", "0 DISTINCT over a column of type ARRAY<INT>"},
		{"SELECT arr FROM nums UNION SELECT arr FROM nums", "0 DISTINCT over a column of type ARRAY<INT>"},
		{"SELECT a.i FROM nums a JOIN nums b ON a.bin = b.bin", "0 a join key of type BINARY"},
		{"SELECT arr, count(*) AS n FROM nums GROUP BY ROLLUP(arr)", "0 GROUP BY a value of type ARRAY<INT>"},
		{"SELECT collect_set(arr) AS s FROM nums", "7 collect_set over ARRAY<INT>"},
		{"SELECT count(DISTINCT arr) AS n FROM nums", "7 DISTINCT aggregate count over these arguments"},
		{"SELECT collect_list(DISTINCT i) AS l FROM nums", "7 DISTINCT in collect_list"},
		{"SELECT CAST(arr AS STRING) AS s FROM nums", "7 CAST from ARRAY<INT> to STRING"},
		{"SELECT aggregate(arr, array(1), (acc, x) -> array(x)) AS a FROM nums", "7 aggregate with a start value of type ARRAY<INT> and a merge lambda of type ARRAY<INT> (the nullability of their fields differs)"},
		// Several in one query: all of them, in plan order.
		{"SELECT DISTINCT CAST(arr AS STRING) AS s, CAST(array(arr) AS ARRAY<STRING>) AS t, bin FROM nums",
			"0 DISTINCT over a column of type ARRAY<STRING>; 0 DISTINCT over a column of type BINARY; 16 CAST from ARRAY<INT> to STRING; 42 CAST from ARRAY<ARRAY<INT>> to ARRAY<STRING>"},
	}
	cat := newTestCatalog()
	for _, tt := range tests {
		p, errs := checkText(t, cat, tt.query)
		if errs != nil {
			t.Errorf("%s: %s", tt.query, errString(errs))
			continue
		}
		var got []string
		for _, e := range Uncompilable(p, nil) {
			if e.Code != "UNSUPPORTED_FEATURE" || e.Hint != UncompilableHint || !strings.HasSuffix(e.Message, " is not supported yet") {
				t.Errorf("%s: error %+v: want UNSUPPORTED_FEATURE, UncompilableHint, \"... is not supported yet\"", tt.query, e)
			}
			got = append(got, fmt.Sprintf("%d %s", e.Offset, strings.TrimSuffix(e.Message, " is not supported yet")))
		}
		if g := strings.Join(got, "; "); g != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.query, g, tt.want)
		}
	}
}

// TestUncompilableStateful checks the constructs a streaming table's state
// cannot key: a group value Go cannot compare, which a materialized view
// keys by its canonical string.
func TestUncompilableStateful(t *testing.T) {
	cat := newTestCatalog()
	p, errs := checkText(t, cat, "SELECT arr, count(*) AS n FROM nums GROUP BY arr")
	if errs != nil {
		t.Fatal(errString(errs))
	}
	var agg *Aggregate
	WalkPlans(p, func(q Plan) {
		if a, ok := q.(*Aggregate); ok {
			agg = a
		}
	})
	if errs := Uncompilable(p, nil); len(errs) != 0 {
		t.Errorf("without state: %v", errs)
	}
	errs = Uncompilable(p, &Stateful{Kind: WindowAggregation, Op: agg})
	if len(errs) != 1 || errs[0].Message != "GROUP BY a value of type ARRAY<INT> is not supported yet" {
		t.Errorf("stateful: %v", errs)
	}
}

// TestUncompilableExpr checks an expression outside a query.
func TestUncompilableExpr(t *testing.T) {
	e := &Cast{X: &ColumnRef{Type: types.ArrayOf(types.IntType, true)}, Type: types.StringType, Pos: 3}
	errs := UncompilableExpr(&Unary{X: e})
	if len(errs) != 1 || errs[0].Offset != 3 || errs[0].Message != "CAST from ARRAY<INT> to STRING is not supported yet" {
		t.Errorf("UncompilableExpr = %v", errs)
	}
}

// TestFunctionHelper checks the ByKind choice that gen and Uncompilable
// share: the first argument's kind (the last for timestampdiff), and an
// empty name for a kind not compiled yet.
func TestFunctionHelper(t *testing.T) {
	f := &Function{Name: "f", Impl: Impl{Kind: ImplStrict, Name: "F", ByKind: map[types.Kind]string{types.DecimalKind: "FDecimal", types.BinaryKind: ""}}}
	call := func(ts ...types.Type) *Call {
		c := &Call{Func: "f"}
		for _, t := range ts {
			c.Args = append(c.Args, &ColumnRef{Type: t})
		}
		return c
	}
	for _, tt := range []struct {
		call *Call
		name string
		ok   bool
	}{
		{call(types.IntType), "F", true},
		{call(types.DecimalOf(10, 2)), "FDecimal", true},
		{call(types.BinaryType), "", false},
		{call(), "F", true},
	} {
		if name, ok := f.Helper(tt.call); name != tt.name || ok != tt.ok {
			t.Errorf("Helper(%s) = %q, %v; want %q, %v", FormatExpr(tt.call), name, ok, tt.name, tt.ok)
		}
	}
}

// TestUncompilableFromJSON checks that from_json into a type the generated
// JSON decoder cannot read is reported at the call (interval.sql of
// Spark's golden files has such calls), and that a readable one is not.
func TestUncompilableFromJSON(t *testing.T) {
	s := &Literal{Value: `{"a":"1 days"}`, Type: types.StringType}
	into := func(t types.Type) *Call {
		return &Call{Func: "from_json", Args: []Expr{s}, Type: types.StructOf(types.Field{Name: "a", Type: t, Nullable: true}), Pos: 7}
	}
	errs := UncompilableExpr(into(types.IntervalType))
	if len(errs) != 1 || errs[0].Offset != 7 || errs[0].Message != "from_json into a value of type INTERVAL DAY TO SECOND is not supported yet" {
		t.Errorf("from_json into an interval: %v", errs)
	}
	errs = UncompilableExpr(into(types.MapOf(types.IntType, types.StringType, true)))
	if len(errs) != 1 || errs[0].Message != "from_json into a value of type MAP<INT, STRING>: map keys other than STRING is not supported yet" {
		t.Errorf("from_json into a map of INT keys: %v", errs)
	}
	if errs := UncompilableExpr(into(types.ArrayOf(types.TimestampType, true))); len(errs) != 0 {
		t.Errorf("from_json into ARRAY<TIMESTAMP>: %v", errs)
	}
}
