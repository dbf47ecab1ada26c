package gen

import (
	"errors"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/spec/sql"
)

// bogusExpr is an expression the generator does not know: it stands for
// any plan the checker accepts and the generator mishandles.
type bogusExpr struct{ *sql.Literal }

// TestGenerateReturnsInternalErrors checks that a failure of the generator
// itself is returned as an error placed at the flow, not a panic that
// kills validate and build.
func TestGenerateReturnsInternalErrors(t *testing.T) {
	p, diags := loadSpec("pipeline: p\ndatasets:\n  m:\n    kind: materialized_view\n    query: SELECT 1 AS v\n")
	if diags != "" {
		t.Fatal(diags)
	}
	proj, ok := p.Flows[0].Plan.(*sql.Project)
	if !ok {
		t.Fatalf("the flow's plan is a %T, want a *sql.Project", p.Flows[0].Plan)
	}
	lit := proj.Exprs[0].(*sql.Literal)
	proj.Exprs[0] = bogusExpr{lit}
	files, err := Generate(p, Options{Version: "test"})
	var ue *UnsupportedError
	if !errors.As(err, &ue) || files != nil {
		t.Fatalf("Generate = %d files, %v; want an *UnsupportedError", len(files), err)
	}
	if ue.Internal == "" || ue.Flow != "m" || !strings.Contains(err.Error(), "flow m: the code generator failed on this query") {
		t.Errorf("error %q (flow %q, internal %q): want an internal error of flow m", err, ue.Flow, ue.Internal)
	}
}
