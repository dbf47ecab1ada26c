package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

func TestSplitOffline(t *testing.T) {
	for _, c := range []struct {
		in      string
		args    string
		offline bool
	}{
		{"spec.yaml --warehouse wh", "spec.yaml --warehouse wh", false},
		{"--offline spec.yaml --warehouse wh", "spec.yaml --warehouse wh", true},
		{"spec.yaml --warehouse wh --offline", "spec.yaml --warehouse wh", true},
		{"spec.yaml --param x=--offline", "spec.yaml --param x=--offline", false},
	} {
		args, offline := splitOffline(strings.Fields(c.in))
		if strings.Join(args, " ") != c.args || offline != c.offline {
			t.Errorf("splitOffline(%q) = %q, %v; want %q, %v", c.in, args, offline, c.args, c.offline)
		}
	}
}

// TestBuildKeyTarget: a program built for another platform is another
// cache entry (a cached amd64 program was handed to GOARCH=arm64 builds).
func TestBuildKeyTarget(t *testing.T) {
	files := map[string][]byte{"main.go": []byte("package main\n")}
	native := buildKey(files)
	t.Setenv("GOARCH", "arm64")
	if arm := buildKey(files); arm == native {
		t.Errorf("buildKey is %s for the native and the arm64 target", native)
	}
}
