package runtime

import (
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

func TestBindParams(t *testing.T) {
	decl := []Param{
		{Name: "catalog", Type: StringParam, Default: "dev", HasDefault: true},
		{Name: "days", Type: IntParam, Default: "7", HasDefault: true},
		{Name: "strict", Type: BoolParam, Default: "false", HasDefault: true},
		{Name: "lateness", Type: DurationParam, Default: "15m", HasDefault: true},
		{Name: "region", Type: StringParam},
	}
	p, err := bindParams(decl, []string{"region=eu", "days=30"})
	if err != nil {
		t.Fatal(err)
	}
	if p.String("catalog") != "dev" || p.Int("days") != 30 || p.Bool("strict") || p.String("region") != "eu" {
		t.Errorf("bound %v", p.values)
	}
	if got := p.Interval("lateness"); got != types.Interval(15*60*1_000_000) {
		t.Errorf("lateness = %d µs, want 15 minutes", got)
	}
	got, err := p.Expand("${catalog}.${region}_sales")
	if err != nil || got != "dev.eu_sales" {
		t.Errorf("Expand = %q, %v", got, err)
	}
	for _, tc := range []struct {
		overrides []string
		want      string
	}{
		{[]string{}, `parameter "region" has no default: pass --param region=VALUE`},
		{[]string{"region=eu", "nosuch=1"}, `the pipeline has no parameter "nosuch"`},
		{[]string{"region=eu", "days=many"}, `parameter days="many": not an int`},
		{[]string{"region=eu", "lateness=soon"}, `not a duration`},
		{[]string{"region"}, `want name=value`},
	} {
		_, err := bindParams(decl, tc.overrides)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("bindParams(%q) = %v, want an error containing %q", tc.overrides, err, tc.want)
		}
	}
}

func TestParseTrigger(t *testing.T) {
	for in, want := range map[string]string{
		"": "available_now", "available_now": "available_now", "once": "once",
		"interval=30s": "interval=30s", "interval 1m": "interval=1m0s",
	} {
		tr, err := ParseTrigger(in)
		if err != nil || tr.String() != want {
			t.Errorf("ParseTrigger(%q) = %v, %v; want %s", in, tr, err, want)
		}
	}
	for _, bad := range []string{"continuous", "interval=0s", "interval=soon"} {
		if _, err := ParseTrigger(bad); err == nil {
			t.Errorf("ParseTrigger(%q) accepted", bad)
		}
	}
}
