package sql

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateReference = flag.Bool("update", false, "rewrite docs/sql.md")

// TestReferenceIsCurrent checks that docs/sql.md is what Reference
// generates from reference.md and the function table; -update rewrites it.
func TestReferenceIsCurrent(t *testing.T) {
	const path = "../../docs/sql.md"
	got := Reference()
	if *updateReference {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("%s is stale: run go test ./spec/sql -run TestReferenceIsCurrent -update", path)
	}
}

// TestReferenceListsEveryFunction checks that each function and alias of
// the table appears in the reference, with its compile status.
func TestReferenceListsEveryFunction(t *testing.T) {
	ref := Reference()
	for _, f := range Functions() {
		for _, n := range append([]string{f.Name}, f.Aliases...) {
			if !strings.Contains(ref, "`"+n+"(") && !strings.Contains(ref, "`"+n+"`") {
				t.Errorf("the reference does not list %s", n)
			}
		}
		if f.Impl.Kind == ImplNone && !strings.Contains(ref, "`"+f.Name+"(") {
			t.Errorf("%s is not compiled but not listed", f.Name)
		}
	}
	if !strings.Contains(ref, "`map(") || !strings.Contains(ref, "*not compiled yet*") {
		t.Error("map is not compiled yet and the reference must say so")
	}
}
