package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/spec"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check pipeline specs and report every problem",
		ArgsUsage: "FILE...",
		Description: "Loads each spec (and its libraries), validates it against the JSON Schema, resolves\n" +
			"the graph and type-checks every query. Exit status: 0 valid, 1 diagnostics, 2 usage.\n" +
			"--format text writes `file:line:col: message` lines to stderr; json and github\n" +
			"(GitHub Actions workflow commands) write to stdout.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "diagnostics format: text, json or github"},
		}, locationFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("validate: give at least one spec file")
			}
			f := spec.OutputFormat(c.String("format"))
			switch f {
			case spec.TextOutput, spec.JSONOutput, spec.GitHubOutput:
			default:
				return usagef("validate: unknown --format %q: use text, json or github", f)
			}
			return exitError{Validate(c.App.Writer, c.App.ErrWriter, c.Args().Slice(), f, locationsOf(c))}
		},
	}
}

// Validate checks every spec file and reports all diagnostics, sorted by
// position, in format f: text to stderr (with an "ok" line per valid file
// on stdout), json and github to stdout. It returns the exit code: 0 when
// every file is valid, 1 otherwise.
func Validate(stdout, stderr io.Writer, files []string, f spec.OutputFormat, loc locations) int {
	var all spec.Diagnostics
	for _, file := range files {
		p, _, diags, err := loadAndGenerate(file, loc)
		if err != nil {
			diags = append(diags, spec.Diagnostic{Pos: spec.Pos{File: file}, Severity: spec.Error, Code: "INTERNAL",
				Message: fmt.Sprintf("the code generator failed: %v", err), Hint: "please report this"})
		}
		all = append(all, diags...)
		if p != nil && !diags.HasErrors() && f == spec.TextOutput {
			fmt.Fprintf(stdout, "%s: ok (%s, %s)\n", file, plural(len(p.Tables), "table"), plural(len(p.Flows), "flow"))
		}
	}
	all.Sort()
	cwd, _ := os.Getwd()
	w := stdout
	if f == spec.TextOutput {
		w = stderr
	}
	if len(all) > 0 || f == spec.JSONOutput {
		if err := all.Write(w, f, cwd); err != nil {
			fmt.Fprintf(stderr, "pipegen: %v\n", err)
			return exitDiagnostics
		}
	}
	if all.HasErrors() {
		return exitDiagnostics
	}
	return exitOK
}
