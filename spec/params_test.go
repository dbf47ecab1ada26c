package spec

import (
	"strings"
	"testing"
	"time"
)

func TestTemplatesAndParameterDefaults(t *testing.T) {
	src := `pipeline: p
parameters:
  env: {default: dev}
  n: {type: int, default: 7}
  on: {type: bool, default: true}
  wait: {type: duration, default: 1h30m}
  must: {}
catalog: cat_${env}
schema: "$${literal}_${ENV}"
datasets:
  t: {kind: streaming_table, comment: "built for ${env}", properties: {owner: "${nope}"}}
`
	ast, diags := LoadASTBytes("p.yaml", []byte(src))
	if ast == nil {
		t.Fatalf("rejected: %s", diagStrings(diags))
	}
	r := &resolver{ast: ast, p: &Pipeline{}, params: map[string]*Parameter{}, paramErrPos: map[Pos]bool{}, rels: map[string]*rel{}, flowNames: map[string]*flowNode{}}
	r.resolveParams()
	r.resolveSettings()
	for _, d := range ast.Datasets {
		r.addDataset(d)
	}
	defaults := map[string]any{"env": "dev", "n": int64(7), "on": true, "wait": 90 * time.Minute, "must": nil}
	for _, p := range r.p.Parameters {
		if p.Default != defaults[p.Name] {
			t.Errorf("parameter %s: default %#v, want %#v", p.Name, p.Default, defaults[p.Name])
		}
	}
	if got := r.p.Catalog.Expand(map[string]string{"env": "prod"}); got != "cat_prod" {
		t.Errorf("catalog expands to %q", got)
	}
	if got := r.p.Schema.String(); got != "$${literal}_${env}" {
		t.Errorf("schema template is %q", got)
	}
	if got := r.p.Schema.Expand(map[string]string{"env": "x"}); got != "${literal}_x" {
		t.Errorf("schema expands to %q", got)
	}
	if r.p.Catalog.IsLiteral() || !Lit("a").IsLiteral() {
		t.Error("IsLiteral")
	}
	got := diagStrings(r.diags)
	if want := `p.yaml:11:80: unknown parameter "nope" (declare it under parameters:) [UNKNOWN_PARAMETER]`; !strings.Contains(got, want) {
		t.Errorf("got\n%s\nwant %q", got, want)
	}
	if strings.Count(got, "\n") != 1 {
		t.Errorf("want exactly one diagnostic, got\n%s", got)
	}
}
