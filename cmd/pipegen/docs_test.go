package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEveryCommandHasADocPage: docs/<command>.md exists for every command
// of pipegen, and names it in its title.
func TestEveryCommandHasADocPage(t *testing.T) {
	for _, c := range commands {
		name := c().Name
		data, err := os.ReadFile(filepath.Join("..", "..", "docs", name+".md"))
		if err != nil {
			t.Errorf("command %s has no page: %v", name, err)
			continue
		}
		if want := "# pipegen " + name; len(data) < len(want) || string(data[:len(want)]) != want {
			t.Errorf("docs/%s.md does not start with %q", name, want)
		}
	}
}
