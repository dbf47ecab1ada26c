package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestEmbeddedGoSum: the go.sum written into generated modules is pipegen's.
func TestEmbeddedGoSum(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gosum, want) {
		t.Fatal("cmd/pipegen/gosum.txt differs from go.sum: run `go generate ./cmd/pipegen`")
	}
}

func TestMissingModuleHint(t *testing.T) {
	for _, c := range []struct {
		out     string
		offline bool
		want    string
	}{
		{"x.go:3:2: undefined: y", false, ""},
		{"pipegen/runtime/cli.go:12:2: module lookup disabled by GOPROXY=off", true, "without --offline"},
		{"pipegen/runtime/cli.go:12:2: module lookup disabled by GOPROXY=off", false, "GOPROXY=off is set"},
		{`go: github.com/a/b@v1.0.0: Get "https://example.invalid/github.com/a/b/@v/v1.0.0.mod": dial tcp: lookup example.invalid: no such host`, false, "is reachable"},
	} {
		got := missingModuleHint(c.out, c.offline)
		if c.want == "" && got != "" || c.want != "" && !bytes.Contains([]byte(got), []byte(c.want)) {
			t.Errorf("missingModuleHint(%q, %v) = %q, want one with %q", c.out, c.offline, got, c.want)
		}
	}
}
