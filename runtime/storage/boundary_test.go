package storage_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fileCalls are the functions that touch the file system directly, by
// package path: outside runtime/storage the runtime reaches files only
// through a Store.
var fileCalls = map[string][]string{
	"os": {"Chmod", "Chown", "Chtimes", "Create", "CreateTemp", "DirFS", "Link", "Lchown", "Lstat", "Mkdir", "MkdirAll",
		"MkdirTemp", "NewFile", "Open", "OpenFile", "OpenRoot", "ReadDir", "ReadFile", "Readlink", "Remove", "RemoveAll", "Rename",
		"Stat", "Symlink", "Truncate", "WriteFile", "CopyFS"},
	"path/filepath": {"EvalSymlinks", "Glob", "Walk", "WalkDir"},
	"io/ioutil":     {"ReadDir", "ReadFile", "TempDir", "TempFile", "WriteFile"},
	"syscall":       {"Flock", "Open", "Stat", "Lstat", "Unlink", "Rename", "Link", "Mkdir"},
}

// allowed are the runtime files, outside runtime/storage, that may still
// call fileCalls, each with why. The list only shrinks: an entry that no
// longer needs to be here fails the test.
var allowed = map[string]string{
	// The generated program's CLI writes a CPU profile to a path the
	// user gives (PIPEGEN_CPUPROFILE): no warehouse, storage or landing
	// folder.
	"cli/main.go": "os.Create",
	// A test helper (not compiled into pipeline programs): it finds the
	// DuckDB checker's node_modules and lists test tables for messages.
	"delta/deltatest/deltatest.go": "os.Stat, filepath.WalkDir",
}

// filepathHelpers are the runtime's test-helper packages (not compiled
// into pipeline programs), which may import path/filepath: they find
// test data on the local disk.
var filepathHelpers = []string{"delta/deltatest", "cdc/cdctest"}

// TestRuntimeFilesGoThroughStore parses every non-test Go file of the
// runtime and fails on a direct file-system call outside runtime/storage
// and the allow-list, and on an import of path/filepath outside
// runtime/storage and the test helpers: filepath would
// corrupt a location that is a URL (filepath.Join("s3://b/wh", "t") is
// "s3:/b/wh/t").
func TestRuntimeFilesGoThroughStore(t *testing.T) {
	root := ".." // runtime/
	used := map[string]bool{}
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, file)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "storage" || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		n++
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, call := range fileCallsIn(f) {
			if _, ok := allowed[rel]; ok {
				used[rel] = true
				continue
			}
			t.Errorf("%s: %s touches the file system directly; go through storage.Store (runtime/storage) instead",
				fset.Position(call.pos), call.name)
		}
		if imp := importOf(f, "path/filepath"); imp != nil && !slices.Contains(filepathHelpers, path.Dir(rel)) {
			t.Errorf("%s: imports path/filepath; build locations with storage.Join, Dir, Base, Rel and Abs, keys with package path",
				fset.Position(imp.Pos()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("parsed %d runtime files, want the whole runtime (run from runtime/storage)", n)
	}
	for rel := range allowed {
		if !used[rel] {
			t.Errorf("%s no longer calls the file system directly: remove it from the allow-list", rel)
		}
	}
}

// importOf returns f's import of the package path p, or nil.
func importOf(f *ast.File, p string) *ast.ImportSpec {
	for _, imp := range f.Imports {
		if q, _ := strconv.Unquote(imp.Path.Value); q == p {
			return imp
		}
	}
	return nil
}

type fileCall struct {
	pos  token.Pos
	name string
}

// fileCallsIn returns the uses of fileCalls in f, by the names f imports
// their packages under.
func fileCallsIn(f *ast.File) []fileCall {
	names := map[string]string{} // local name → package path
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if _, ok := fileCalls[p]; !ok {
			continue
		}
		name := p[strings.LastIndexByte(p, '/')+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = p
	}
	var out []fileCall
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		if p, ok := names[id.Name]; ok && slices.Contains(fileCalls[p], sel.Sel.Name) {
			out = append(out, fileCall{pos: sel.Pos(), name: id.Name + "." + sel.Sel.Name})
		}
		return true
	})
	return out
}

// TestBoundaryCheckFinds makes sure the check sees calls under any import
// name, so a passing TestRuntimeFilesGoThroughStore means something.
func TestBoundaryCheckFinds(t *testing.T) {
	src := `package p
import (
	fp "path/filepath"
	"os"
)
func f() { os.ReadFile("x"); fp.WalkDir(".", nil); os.Getenv("HOME"); _ = os.Stdout }`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range fileCallsIn(f) {
		got = append(got, c.name)
	}
	if want := []string{"os.ReadFile", "fp.WalkDir"}; !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}
