package main

// The dependency rule between the module's packages (docs/architecture.md,
// "Dependencies"). It lives with cmd/pipegen, the one package no rule
// limits, because the top level of the repository holds no Go package.

import (
	"go/build"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const modulePath = "github.com/pipegen/pipegen"

// moduleRoot is the module's root folder, seen from this package's folder.
const moduleRoot = "../.."

// dependencyRules say which of this module's packages the packages under a
// folder may import (folders relative to the module root; a rule covers
// the folder and every folder below it; the longest matching folder's rule
// applies; an allowed folder admits its subfolders too). A package no rule
// covers (cmd/...) may import anything. The compiler's stages point one
// way, cmd → gen → spec → spec/sql → runtime/types, and the runtime,
// which generated programs import, never imports the compiler.
var dependencyRules = []struct {
	folder  string
	allowed []string
	// tests applies the rule to the package's tests too.
	tests bool
}{
	{folder: "runtime", allowed: []string{"runtime"}, tests: true},
	// spec chooses a materialized view's refresh technique, which the
	// runtime runs: both name it with runtime/refresh's constants.
	{folder: "spec", allowed: []string{"spec", "schema", "runtime/types", "runtime/sqlfn", "runtime/source", "runtime/refresh"}},
	{folder: "spec/sql", allowed: []string{"runtime/types", "runtime/sqlfn"}},
	{folder: "gen", allowed: []string{"gen", "spec", "runtime/types"}},
	// pipegen infer reads sample files, Parquet footers and Delta
	// snapshots with the runtime's own readers, and writes DDL types.
	{folder: "spec/infer", allowed: []string{"spec/sql", "runtime/source", "runtime/parquetio", "runtime/delta", "runtime/types"}},
	{folder: "schema"},
	{folder: "templates"},
}

// dependencyExceptions are the imports of today's tree that break
// dependencyRules: importing package → imported package, both relative
// to the module root. The list may only shrink: an exception that is no
// longer needed fails the test until it is removed here.
var dependencyExceptions = map[string][]string{}

// TestDependencyRule checks every package of the module against
// dependencyRules, reading the imports of its Go files (go/build, with this
// platform's build constraints; testdata and hidden folders are not
// packages).
func TestDependencyRule(t *testing.T) {
	used := map[string]bool{}
	checked := 0
	err := filepath.WalkDir(moduleRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != moduleRoot && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(p, build.ImportComment)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		rel, err := filepath.Rel(moduleRoot, p)
		if err != nil {
			return err
		}
		folder := filepath.ToSlash(rel)
		rule := -1
		for i, r := range dependencyRules {
			if within(folder, r.folder) && (rule < 0 || len(r.folder) > len(dependencyRules[rule].folder)) {
				rule = i
			}
		}
		if rule < 0 {
			return nil
		}
		checked++
		r := dependencyRules[rule]
		imports := pkg.Imports
		if r.tests {
			imports = slices.Concat(imports, pkg.TestImports, pkg.XTestImports)
		}
		for _, imp := range imports {
			rel, ok := strings.CutPrefix(imp, modulePath+"/")
			if !ok || slices.ContainsFunc(r.allowed, func(a string) bool { return within(rel, a) }) {
				continue
			}
			if slices.Contains(dependencyExceptions[folder], rel) {
				used[folder+" → "+rel] = true
				continue
			}
			t.Errorf("%s imports %s: packages under %s/ may import only %s of this module (docs/architecture.md, \"Dependencies\"); move the code to where the rule allows it", folder, rel, r.folder, allowedList(r.allowed))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Guard against a walk that finds nothing (run from another folder).
	if checked < 10 {
		t.Fatalf("checked %d packages, want at least 10: the module root is not at ` + moduleRoot + `", checked)
	}
	var stale []string
	for folder, imps := range dependencyExceptions {
		for _, imp := range imps {
			if !used[folder+" → "+imp] {
				stale = append(stale, folder+" → "+imp)
			}
		}
	}
	sort.Strings(stale)
	for _, s := range stale {
		t.Errorf("dependency exception %s is no longer needed: remove it from dependencyExceptions", s)
	}
}

// within reports whether folder is dir or below it.
func within(folder, dir string) bool {
	return folder == dir || strings.HasPrefix(folder, dir+"/")
}

func allowedList(allowed []string) string {
	if len(allowed) == 0 {
		return "nothing"
	}
	out := make([]string, len(allowed))
	for i, a := range allowed {
		out[i] = path.Join(a, "...")
	}
	return strings.Join(out, ", ")
}
