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
			opts, _, err := runOptions(c, pr.stderr)
			if err != nil {
				return &exitError{2, err}
			}
			if err := runtime.DryRun(pr.p, opts, pr.stdout); err != nil {
				return &exitError{1, err}
			}
			return nil
		},
	}
}
