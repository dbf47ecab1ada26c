package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/spec"
)

func explainCommand() *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "print a spec's resolved graph and each dataset's schema",
		ArgsUsage: "FILE [DATASET]",
		Description: "Checks the spec, then prints its parameters, sources, the tables in update order with\n" +
			"their flows, inputs, schemas and expectations, and the temporary views. With DATASET,\n" +
			"prints only that source, table or view.",
		Flags: locationFlags(),
		Action: func(c *cli.Context) error {
			if c.NArg() < 1 || c.NArg() > 2 {
				return usagef("explain: give a spec file and optionally a dataset name")
			}
			return exitError{Explain(c.App.Writer, c.App.ErrWriter, c.Args().Get(0), c.Args().Get(1), locationsOf(c))}
		},
	}
}

// Explain checks the spec at file and writes its explanation to stdout (only
// the source, table or view named dataset when it is not empty), or its
// diagnostics to stderr. It returns the exit code: 0, 1 for an invalid spec,
// 2 for an unknown dataset name.
func Explain(stdout, stderr io.Writer, file, dataset string, loc locations) int {
	p, diags := spec.LoadWith(file, loc.specOptions())
	cwd, _ := os.Getwd()
	if p == nil {
		diags.Write(stderr, spec.TextOutput, cwd)
		return exitDiagnostics
	}
	diags.Write(stderr, spec.TextOutput, cwd)
	if dataset == "" {
		p.Explain(stdout)
		return exitOK
	}
	if s := p.Source(dataset); s != nil {
		s.Explain(stdout)
		return exitOK
	}
	if d := p.Dataset(dataset); d != nil {
		d.Explain(stdout)
		return exitOK
	}
	var names []string
	for _, s := range p.Sources {
		names = append(names, s.Name)
	}
	for _, d := range append(append([]*spec.Dataset(nil), p.Tables...), p.Views...) {
		names = append(names, d.Name)
	}
	hint := ""
	if s := spec.Suggest(dataset, names); s != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", s)
	}
	fmt.Fprintf(stderr, "pipegen: explain: pipeline %q has no dataset or source %q%s\n", p.Name, dataset, hint)
	return exitUsage
}
