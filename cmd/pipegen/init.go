package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/schema"
	"github.com/pipegen/pipegen/templates"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "start a pipeline project from a template",
		ArgsUsage: "DIR",
		Description: "Writes a pipeline project into DIR (created if missing; refused when not empty, naming\n" +
			"what is there): pipeline.yaml, its pipeline tests (pipeline.tests.yaml, run by pipegen test),\n" +
			"pipegen.schema.json for editors, sample files under data/,\n" +
			"a README, a .gitignore and a GitHub Actions workflow. The pipeline is named after DIR\n" +
			"(lower case, other characters than letters, digits and _ as _). Templates: " + strings.Join(templates.Names(), ", ") + ".",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "template", Value: templates.Default, Usage: "the template: " + strings.Join(templates.Names(), ", ")},
		},
		Action: func(c *cli.Context) error {
			switch {
			case c.NArg() == 0:
				return usagef("init: give the folder to create the project in")
			case c.NArg() > 1:
				return usagef("init: give one folder, not %d (%s); the template is chosen with --template NAME", c.NArg(), strings.Join(c.Args().Slice(), ", "))
			}
			if _, ok := templates.FS(c.String("template")); !ok {
				return usagef("init: unknown --template %q: use one of %s", c.String("template"), strings.Join(templates.Names(), ", "))
			}
			return exitError{Init(c.App.Writer, c.App.ErrWriter, c.Args().First(), c.String("template"))}
		},
	}
}

// PipelineName derives a pipeline name from a folder name: lower case,
// every character other than a letter, a digit or _ as _, runs of _
// collapsed, and "p_" before a leading digit ("pipeline" when nothing is
// left).
func PipelineName(dir string) string {
	base := filepath.Base(filepath.Clean(dir))
	if abs, err := filepath.Abs(dir); err == nil {
		base = filepath.Base(abs)
	}
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		} else if !strings.HasSuffix(b.String(), "_") {
			b.WriteByte('_')
		}
	}
	name := strings.Trim(b.String(), "_")
	if name == "" {
		return "pipeline"
	}
	if name[0] >= '0' && name[0] <= '9' {
		name = "p_" + name
	}
	return name
}

// Init writes template tmpl into dir, naming the pipeline after dir. It
// refuses a dir that exists and is not empty (naming its entries) and never
// overwrites a file. It returns the exit code: 0, or 1 with the reason on
// stderr.
func Init(stdout, stderr io.Writer, dir, tmpl string) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "pipegen: init: "+format+"\n", a...)
		return exitDiagnostics
	}
	tfs, ok := templates.FS(tmpl)
	if !ok {
		return fail("unknown template %q: use one of %s", tmpl, strings.Join(templates.Names(), ", "))
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		if len(names) > 5 {
			names = append(names[:5], fmt.Sprintf("and %d more", len(names)-5))
		}
		return fail("%s is not empty (%s): give a new or empty folder", dir, strings.Join(names, ", "))
	} else if err != nil && !os.IsNotExist(err) {
		return fail("%v", err)
	}
	name := PipelineName(dir)
	files := map[string][]byte{"pipegen.schema.json": schema.JSON}
	err := fs.WalkDir(tfs, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(tfs, p)
		if err != nil {
			return err
		}
		if !strings.HasPrefix(p, "data/") {
			data = bytes.ReplaceAll(data, []byte(templates.Placeholder), []byte(name))
		}
		files[p] = data
		return nil
	})
	if err != nil {
		return fail("read template %s: %v", tmpl, err)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return fail("%v", err)
		}
		f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fail("%v (nothing is overwritten)", err)
		}
		_, werr := f.Write(files[p])
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return fail("write %s: %v", full, werr)
		}
	}
	spec := filepath.Join(dir, "pipeline.yaml")
	fmt.Fprintf(stdout, "created pipeline %s in %s from template %s (%d files)\n", name, dir, tmpl, len(paths))
	fmt.Fprintf(stdout, "next: pipegen validate %s && pipegen test %s && pipegen run %s\n", spec, spec, spec)
	return exitOK
}
