package cli

import (
	urfave "github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/runtime"
)

// dryRunCommand is `PROGRAM dry-run` (runtime.DryRun): run's flags, nothing
// written.
func (pr *program) dryRunCommand() *urfave.Command {
	return &urfave.Command{
		Name:  "dry-run",
		Usage: "check parameters, checks, sources and tables without writing anything",
		Flags: pr.runFlags,
		Action: func(c *urfave.Context) error {
			return pr.withOptions(c, func(opts runtime.RunOptions, _ runtime.Trigger) error {
				return runtime.DryRun(pr.p, opts, pr.stdout)
			})
		},
	}
}
