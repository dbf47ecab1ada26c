package gen

import (
	"errors"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec"
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

// uncompilableCases are queries over raw (id BIGINT, tags ARRAY<STRING>)
// that type-check but hold a construct the generator cannot compile, and
// the construct as the user sees it.
var uncompilableCases = []struct{ query, what string }{
	{"SELECT DISTINCT tags FROM raw", "DISTINCT over a column of type ARRAY<STRING>"},
	{"SELECT tags FROM raw UNION SELECT tags FROM raw", "DISTINCT over a column of type ARRAY<STRING>"},
	{"SELECT a.id FROM raw a JOIN raw b ON a.tags = b.tags", "a join key of type ARRAY<STRING>"},
	{"SELECT tags, count(*) AS n FROM raw GROUP BY ROLLUP(tags)", "GROUP BY a value of type ARRAY<STRING>"},
	{"SELECT collect_set(tags) AS s FROM raw", "collect_set over ARRAY<STRING>"},
	{"SELECT count(DISTINCT tags) AS n FROM raw", "DISTINCT aggregate count over these arguments"},
	{"SELECT collect_list(DISTINCT id) AS l FROM raw", "DISTINCT in collect_list"},
	{"SELECT CAST(tags AS STRING) AS s FROM raw", "CAST from ARRAY<STRING> to STRING"},
	{"SELECT aggregate(tags, array('a'), (acc, x) -> array(x)) AS a FROM raw",
		"aggregate with a start value of type ARRAY<STRING> and a merge lambda of type ARRAY<STRING> (the nullability of their fields differs)"},
}

// TestSpecRejectsWhatGenCannotCompile checks that each construct the
// generator rejects is reported by spec (sql.Uncompilable) with its
// wording, so that Generate never sees it.
func TestSpecRejectsWhatGenCannotCompile(t *testing.T) {
	for _, tt := range uncompilableCases {
		src := "pipeline: p\nsources:\n  raw:\n    files: {path: in, format: json}\n    schema: \"id BIGINT, tags ARRAY<STRING>\"\n" +
			"datasets:\n  m:\n    kind: materialized_view\n    query: " + tt.query + "\n"
		p, diags := loadSpec(src)
		want := "flow m: " + tt.what + " is not supported yet"
		if p != nil || !strings.Contains(diags, want) || !strings.Contains(diags, "[UNSUPPORTED_FEATURE]") {
			t.Errorf("%s: diagnostics %q, want %q", tt.query, diags, want)
		}
	}
}

// TestGenerateTreatsUncompilableAsInternal checks that a plan holding a
// construct sql.Uncompilable rejects, which checked input never does, is
// an internal error of the generator, not a limit reported to the user.
func TestGenerateTreatsUncompilableAsInternal(t *testing.T) {
	p, diags := loadSpec("pipeline: p\nsources:\n  raw:\n    files: {path: in, format: json}\n    schema: \"tags ARRAY<STRING>\"\n" +
		"datasets:\n  m:\n    kind: materialized_view\n    query: SELECT CAST(tags AS ARRAY<INT>) AS s FROM raw\n")
	if diags != "" {
		t.Fatal(diags)
	}
	cast := sql.Find(p.Flows[0].Plan.(*sql.Project).Exprs[0], func(e sql.Expr) bool {
		_, ok := e.(*sql.Cast)
		return ok
	}).(*sql.Cast)
	cast.Type = types.StringType // CAST(tags AS STRING): not compiled
	_, err := Generate(p, Options{Version: "test"})
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Internal == "" || !strings.Contains(ue.Internal, "sql.Uncompilable") {
		t.Fatalf("Generate error %v: want an internal error naming sql.Uncompilable", err)
	}
}

// TestReadMethodsAreDecodedKinds checks that the decoders gen writes have a
// typed read for exactly the flat kinds spec.Undecodable accepts, so that
// the one decision of what a file source reads is spec's.
func TestReadMethodsAreDecodedKinds(t *testing.T) {
	for k := types.InvalidKind; k <= types.YearMonthIntervalKind; k++ {
		if _, ok := readMethods[k]; ok != spec.DecodedKind(k) {
			t.Errorf("kind %s: gen has a read method %v, spec.DecodedKind %v", k, ok, spec.DecodedKind(k))
		}
	}
}

// TestGenerateTreatsSpecLimitsAsInternal checks that a source column or a
// sequence_by column that spec rejects (spec.Undecodable,
// spec.SequenceByCompiles), which checked input never holds, is an
// internal error of the generator, not a limit reported to the user.
func TestGenerateTreatsSpecLimitsAsInternal(t *testing.T) {
	const src = "pipeline: p\nsources:\n  raw:\n    files: {path: in, format: FORMAT}\n    schema: \"id BIGINT, seq BIGINT, x STRING\"\n" +
		"datasets:\n  t: {kind: streaming_table}\nflows:\n  f: {target: t, auto_cdc: {source: STREAM(raw), keys: [id], sequence_by: seq, columns: [id]}}\n"
	mapType := types.MapOf(types.IntType, types.StringType, true)
	// column sets the type of column i of source raw (1 is seq, 2 is x).
	column := func(i int, t types.Type) func(p *spec.Pipeline) {
		return func(p *spec.Pipeline) { p.Sources[0].Schema[i].Type, p.Sources[0].Columns[i].Type = t, t }
	}
	tests := []struct {
		name, format string
		edit         func(p *spec.Pipeline)
		want         string
	}{
		{"JSON map keys", "json", column(2, mapType), "JSON column x of type MAP<INT, STRING>, which spec.Undecodable rejects"},
		{"JSON interval", "json", column(2, types.IntervalType), "JSON column x of type INTERVAL DAY TO SECOND, which spec.Undecodable rejects"},
		{"CSV array", "csv", column(2, types.ArrayOf(types.IntType, true)), "CSV column x of type ARRAY<INT>, which spec.Undecodable rejects"},
		{"sequence_by", "json", column(1, types.MapOf(types.StringType, types.StringType, true)), "sequence_by column seq of type MAP<STRING, STRING> of flow f, which spec.SequenceByCompiles rejects"},
	}
	for _, tt := range tests {
		p, diags := loadSpec(strings.Replace(src, "FORMAT", tt.format, 1))
		if diags != "" {
			t.Fatal(diags)
		}
		tt.edit(p)
		_, err := Generate(p, Options{Version: "test"})
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Internal, tt.want) {
			t.Errorf("%s: Generate error %v: want an internal error %q", tt.name, err, tt.want)
		}
	}
}
