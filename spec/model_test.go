package spec

import (
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// TestModelOfDesignExample checks what the generator relies on in the
// checked model of DESIGN.md's example: order, kinds, inputs, plans,
// expectations, AUTO CDC indexes and Go names.
func TestModelOfDesignExample(t *testing.T) {
	p, diags := Load("testdata/design_example/spec.yaml")
	if p == nil {
		t.Fatalf("rejected:\n%s", diagStrings(diags))
	}
	var order []string
	for _, f := range p.Flows {
		order = append(order, f.Name+":"+f.Kind.String())
		if f.Target == nil || p.Dataset(f.Target.Name) != f.Target {
			t.Errorf("flow %s: target not in the pipeline", f.Name)
		}
		if (f.Kind == AutoCDCFlow) != (f.Plan == nil) {
			t.Errorf("flow %s: plan %v for kind %s", f.Name, f.Plan, f.Kind)
		}
	}
	if got := strings.Join(order, " "); got != "orders_bronze:append orders_silver:append customer_order_metrics:complete orders_eu:append customers_scd2:auto_cdc" {
		t.Errorf("flow order %s", got)
	}
	bronze := p.Dataset("orders_bronze")
	if bronze.GoName != "OrdersBronze" || bronze.Table.String() != "${target_catalog}.commerce.orders_bronze" || !bronze.Flows[0].Default {
		t.Errorf("orders_bronze: %+v", bronze)
	}
	in := bronze.Flows[0].Inputs
	if len(in) != 1 || in[0].Source != p.Source("raw_orders") || !in[0].Streaming {
		t.Errorf("orders_bronze inputs %+v", in)
	}
	if c := bronze.Columns[len(bronze.Columns)-1]; c.Name != "source_file" || c.GoName != "SourceFile" || c.Type.Kind != types.StringKind {
		t.Errorf("last column of orders_bronze: %+v", c)
	}
	silver := p.Dataset("orders_silver")
	if len(silver.Expectations) != 2 || silver.Expectations[0].Action != Drop || silver.Expectations[1].Action != Fail {
		t.Fatalf("expectations %+v", silver.Expectations)
	}
	for _, e := range silver.Expectations {
		if e.Expr == nil || e.Expr.ResultType().Kind != types.BooleanKind {
			t.Errorf("expectation %s not a typed boolean: %v", e.Name, e.Expr)
		}
	}
	if len(p.Checks) != 1 || p.Checks[0].Expr == nil {
		t.Errorf("checks %+v", p.Checks)
	}
	cdc := p.Flow("customers_scd2").AutoCDC
	if cdc == nil || cdc.SCDType != 2 || cdc.ApplyAsDeletes == nil {
		t.Fatalf("auto cdc %+v", cdc)
	}
	names := func(idx []int) string {
		var s []string
		for _, i := range idx {
			s = append(s, cdc.SourceColumns[i].Name)
		}
		return strings.Join(s, ",")
	}
	if names(cdc.Keys) != "customer_id" || names(cdc.SequenceBy) != "seq" || names(cdc.Columns) != "customer_id,name,city,_rescued_data" {
		t.Errorf("keys %s, sequence_by %s, columns %s", names(cdc.Keys), names(cdc.SequenceBy), names(cdc.Columns))
	}
	if !cdc.SequenceType.Equal(types.LongType) || cdc.Source.Source != p.Source("customer_changes") {
		t.Errorf("sequence type %s, source %+v", cdc.SequenceType, cdc.Source)
	}
	if src := p.Source("raw_orders"); src.Files.Dir != "testdata/design_example" || src.Files.Path.String() != "landing/orders" || src.Files.MaxFilesPerTrigger != 1000 {
		t.Errorf("raw_orders files %+v", src.Files)
	}
	if md := p.Source("raw_orders").Columns[6]; md.Name != "_metadata" || !md.Hidden || md.GoName != "Metadata" {
		t.Errorf("_metadata column %+v", md)
	}
	var lateness *Parameter
	for _, pr := range p.Parameters {
		if pr.Name == "lateness" {
			lateness = pr
		}
	}
	if lateness == nil || lateness.Type != DurationParam || lateness.DefaultText() != "15m0s" || !lateness.Type.SQLType().Equal(types.IntervalType) {
		t.Errorf("lateness %+v", lateness)
	}
}

// TestViewsAreLookedThrough checks that a flow's Inputs name the sources
// behind a temporary view with each read's own mode, while Reads keep the
// view, and that the view's plan is inlined into the flow's.
func TestViewsAreLookedThrough(t *testing.T) {
	p, diags := Load("testdata/sdp03_view_unions_stream_and_batch/spec.yaml")
	if p == nil {
		t.Fatalf("rejected:\n%s", diagStrings(diags))
	}
	f := p.Flow("t")
	var in []string
	for _, i := range f.Inputs {
		in = append(in, i.Name+map[bool]string{true: "(stream)", false: "(batch)"}[i.Streaming])
	}
	if got := strings.Join(in, " "); got != "a(stream) b(batch)" {
		t.Errorf("inputs %s", got)
	}
	if len(f.Reads) != 1 || f.Reads[0].Dataset != p.Dataset("v") {
		t.Errorf("reads %+v", f.Reads)
	}
	var scans []string
	var walk func(sql.Plan)
	walk = func(pl sql.Plan) {
		switch n := pl.(type) {
		case *sql.Scan:
			scans = append(scans, n.Name)
		case *sql.Project:
			walk(n.Input)
		case *sql.Filter:
			walk(n.Input)
		case *sql.Union:
			for _, i := range n.Inputs {
				walk(i)
			}
		}
	}
	walk(f.Plan)
	if got := strings.Join(scans, " "); got != "a b" {
		t.Errorf("plan scans %q, want the view inlined (a b)", got)
	}
}

// TestGoNamesAreUnique checks Go names across relations, flows and columns
// that would clash.
func TestGoNamesAreUnique(t *testing.T) {
	src := `pipeline: p
sources:
  order_id: {table: t, schema: "a_b INT, aB INT, type STRING"}
datasets:
  orderID:
    kind: materialized_view
    query: SELECT * FROM order_id
`
	p, diags := LoadBytes("p.yaml", []byte(src))
	if p == nil {
		t.Fatalf("rejected:\n%s", diagStrings(diags))
	}
	if s, d := p.Sources[0].GoName, p.Tables[0].GoName; s != "OrderID" || d != "OrderID2" {
		t.Errorf("relation Go names %s, %s", s, d)
	}
	var cols []string
	for _, c := range p.Tables[0].Columns {
		cols = append(cols, c.GoName)
	}
	if got := strings.Join(cols, ","); got != "AB,AB2,Type" {
		t.Errorf("column Go names %s", got)
	}
}
