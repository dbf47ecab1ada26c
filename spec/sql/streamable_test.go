package sql

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestStreamableAggregatesDocumented checks the list of docs/flows.md of
// the aggregates a window aggregation may use against the function table:
// every aggregate with AggMergeable is listed, and every name listed has it.
func TestStreamableAggregatesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/flows.md")
	if err != nil {
		t.Fatal(err)
	}
	const lead = "A window aggregation may use the aggregates whose partial states merge:"
	_, rest, ok := strings.Cut(string(doc), lead)
	if !ok {
		t.Fatalf("docs/flows.md has no sentence %q", lead)
	}
	list, _, _ := strings.Cut(rest, "Others")
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(list, -1) {
		listed[m[1]] = true
	}
	for _, f := range Functions() {
		mergeable := f.Kind == AggregateFunc && f.Agg&AggMergeable != 0
		if mergeable && !listed[f.Name] {
			t.Errorf("docs/flows.md does not list %s among the aggregates a window aggregation may use", f.Name)
		}
		if !mergeable && listed[f.Name] {
			t.Errorf("docs/flows.md lists %s among the aggregates a window aggregation may use, but its row has no AggMergeable", f.Name)
		}
	}
	if len(listed) < 5 {
		t.Fatalf("found only %d names in the list of docs/flows.md", len(listed))
	}
}
