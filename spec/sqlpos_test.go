package spec

import (
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestPosAtScalarStyles maps the offset of "amout" in every scalar of
// testdata/scalars.yaml (every YAML scalar style) back to the file and
// compares it with where the token is written.
func TestPosAtScalarStyles(t *testing.T) {
	const path = "testdata/scalars.yaml"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l := &loader{readFile: os.ReadFile}
	f := l.parseFile(path, false)
	if f == nil {
		t.Fatalf("parse: %v", l.diags)
	}
	lines := strings.Split(string(src), "\n")
	var scalars []Str
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for i, c := range n.Content {
			if c.Kind == yaml.ScalarNode && strings.Contains(c.Value, "amout") && (n.Kind != yaml.MappingNode || i%2 == 1) {
				scalars = append(scalars, f.str(c))
			}
			walk(c)
		}
	}
	walk(f.root)
	if len(scalars) != 18 {
		t.Fatalf("found %d scalars with the token, want 18", len(scalars))
	}
	for _, s := range scalars {
		off := strings.Index(s.Value, "amout")
		got := s.PosAt(off)
		// The token is written once, on or after the scalar's first line.
		want := Pos{File: path}
		for ln := s.Pos.Line; ln <= len(lines); ln++ {
			if i := strings.Index(lines[ln-1], "amout"); i >= 0 {
				want.Line, want.Col = ln, len([]rune(lines[ln-1][:i]))+1
				break
			}
		}
		if got != want {
			t.Errorf("scalar at %s (%q): offset %d maps to %s, want %s", s.Pos, s.Value, off, got, want)
		}
		// The end of the token maps just past it.
		end := s.PosAt(off + len("amout"))
		if end.Line != want.Line || end.Col != want.Col+5 {
			t.Errorf("scalar at %s: end of token maps to %s, want %d:%d", s.Pos, end, want.Line, want.Col+5)
		}
	}
}

func TestPosAtBounds(t *testing.T) {
	l := &loader{readFile: func(string) ([]byte, error) { return []byte("q: |\n  SELECT 1\n"), nil }}
	f := l.parseFile("x.yaml", false)
	s := f.str(mapValue(f.root, "q"))
	if got := s.PosAt(-5); got != (Pos{"x.yaml", 2, 3}) {
		t.Errorf("negative offset: got %s", got)
	}
	if got := s.PosAt(1000); got.Line != 2 && got.Line != 3 {
		t.Errorf("offset past the end: got %s", got)
	}
	if got := (Str{Value: "x", Pos: Pos{"y.yaml", 4, 2}}).PosAt(0); got != (Pos{"y.yaml", 4, 2}) {
		t.Errorf("Str without a node: got %s", got)
	}
}
