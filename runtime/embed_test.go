package runtime

import (
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"
	"testing"
)

// TestEmbeddedCodeIsComplete checks that every runtime package the
// embedded runtime imports is embedded too: a package missing from the
// go:embed line builds here but not in a generated program's module.
func TestEmbeddedCodeIsComplete(t *testing.T) {
	const mod = "github.com/pipegen/pipegen/runtime"
	dirs := map[string]bool{".": true}
	imports := map[string]string{} // runtime package dir → an importing file
	err := WalkCode(func(p string, data []byte) error {
		dirs[path.Dir(p)] = true
		f, err := parser.ParseFile(token.NewFileSet(), p, data, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(ip, mod+"/"); ok {
				imports[rest] = p
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, by := range imports {
		if !dirs[dir] {
			t.Errorf("%s imports runtime/%s, which runtime/embed.go does not embed: add %s/*.go to its go:embed line", by, dir, dir)
		}
	}
}
