// Package templates holds the project templates of pipegen init, embedded
// as files (no Go source is produced from them): one folder per template,
// each a complete pipeline project with a spec (pipeline.yaml), its
// pipeline tests (pipeline.tests.yaml), sample files under data/, a
// README, a .gitignore and a CI workflow. The text __PIPELINE__ in any
// file stands for the pipeline's name.
package templates

import (
	"embed"
	"io/fs"
	"sort"
)

//go:embed all:medallion all:cdc all:multi-source
var files embed.FS

// Placeholder is the text that init replaces by the pipeline's name.
const Placeholder = "__PIPELINE__"

// Default is the template init uses when none is named.
const Default = "medallion"

// Names returns the templates' names, sorted.
func Names() []string {
	entries, _ := files.ReadDir(".")
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// FS returns the files of template name (paths relative to its folder), or
// false when there is no such template.
func FS(name string) (fs.FS, bool) {
	for _, n := range Names() {
		if n == name {
			sub, err := fs.Sub(files, name)
			return sub, err == nil
		}
	}
	return nil, false
}
