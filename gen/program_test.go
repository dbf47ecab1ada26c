package gen

import (
	"bytes"
	"testing"

	"github.com/pipegen/pipegen/spec"
)

// generate loads a spec held in memory and generates its program.
func generate(t testing.TB, path string, src []byte) (*spec.Pipeline, map[string][]byte) {
	t.Helper()
	p, diags := spec.LoadBytes(path, src)
	if diags.HasErrors() {
		var b bytes.Buffer
		diags.Write(&b, spec.TextOutput, "")
		t.Fatalf("%s does not check:\n%s", path, b.String())
	}
	files, err := Generate(p, Options{Version: "test"})
	if err != nil {
		t.Fatalf("generate %s: %v", path, err)
	}
	return p, files
}

// loadSpec loads a spec held in memory; diags is the text of its errors.
func loadSpec(src string) (*spec.Pipeline, string) {
	p, diags := spec.LoadBytes("spec.yaml", []byte(src))
	if !diags.HasErrors() {
		return p, ""
	}
	var b bytes.Buffer
	diags.Write(&b, spec.TextOutput, "")
	return nil, b.String()
}
