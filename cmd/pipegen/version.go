package main

import (
	"fmt"
	goruntime "runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	prt "github.com/pipegen/pipegen/runtime"
)

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print pipegen's version and the Go version it was built with",
		Action: func(c *cli.Context) error {
			if c.NArg() != 0 {
				return usagef("version: takes no arguments")
			}
			fmt.Fprintln(c.App.Writer, versionLine())
			return nil
		},
	}
}

// versionLine is what `pipegen version` and `pipegen --version` print:
// "pipegen v0.1.0-dev go1.26.8 linux/amd64", with the module version in
// parentheses when pipegen was installed as a module version that differs
// from its runtime's (`go install .../cmd/pipegen@v1.2.3`).
func versionLine() string {
	v := prt.Version
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Path == pipegenModule {
		if mv := info.Main.Version; mv != "" && mv != "(devel)" && mv != v {
			v += " (module " + mv + ")"
		}
	}
	return fmt.Sprintf("pipegen %s %s %s/%s", v, goruntime.Version(), goruntime.GOOS, goruntime.GOARCH)
}

func init() {
	// --version prints what `pipegen version` prints (urfave/cli's
	// default is "pipegen version v...", and -v, which is free here).
	cli.VersionPrinter = func(c *cli.Context) { fmt.Fprintln(c.App.Writer, versionLine()) }
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version and the Go version"}
}
