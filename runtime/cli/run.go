package cli

import (
	urfave "github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/runtime"
)

// runCommand is `PROGRAM run`: one update (runtime.Run), or one per
// interval with --trigger interval=...
func (pr *program) runCommand() *urfave.Command {
	return &urfave.Command{
		Name:  "run",
		Usage: "run one update of the pipeline (or keep running with --trigger interval=...)",
		Flags: pr.runFlags,
		Action: func(c *urfave.Context) error {
			return pr.withOptions(c, func(opts runtime.RunOptions, tr runtime.Trigger) error {
				return runtime.Run(pr.p, opts, tr)
			})
		},
	}
}
