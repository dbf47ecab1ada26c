package schema

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/spec.md")

// TestSpecDocIsCurrent checks that docs/spec.md is what Markdown generates
// from the schema; -update rewrites it.
func TestSpecDocIsCurrent(t *testing.T) {
	const path = "../docs/spec.md"
	got, err := Markdown()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
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
		t.Errorf("%s is stale: run go test ./schema -run TestSpecDocIsCurrent -update", path)
	}
}
