package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

// TestDocOptionsMatchHelp: a doc page's "Options:" block is the command's
// --help, so a flag added to a command (or a changed default) cannot leave
// its page behind.
func TestDocOptionsMatchHelp(t *testing.T) {
	for _, c := range commands {
		name := c().Name
		data, err := os.ReadFile(filepath.Join("..", "..", "docs", name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		_, block, ok := strings.Cut(string(data), "\nOptions:\n\n```\n")
		if !ok {
			continue // the page documents its options in a table
		}
		block, _, _ = strings.Cut(block, "```\n")
		var stdout, stderr bytes.Buffer
		if code := run([]string{"pipegen", name, "--help"}, nil, &stdout, &stderr); code != exitOK {
			t.Fatalf("pipegen %s --help: exit %d: %s", name, code, stderr.String())
		}
		_, help, ok := strings.Cut(stdout.String(), "OPTIONS:\n")
		if !ok {
			t.Fatalf("pipegen %s --help has no OPTIONS:\n%s", name, stdout.String())
		}
		var want strings.Builder
		for _, line := range strings.SplitAfter(help, "\n") {
			want.WriteString(strings.TrimPrefix(line, " "))
		}
		if block != want.String() {
			t.Errorf("docs/%s.md: the Options block is not what `pipegen %s --help` prints; replace it by:\n%s", name, name, want.String())
		}
	}
}
