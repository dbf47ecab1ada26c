package cli

import (
	urfave "github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/runtime"
)

// describeCommand is `PROGRAM describe` (runtime.Describe).
func (pr *program) describeCommand() *urfave.Command {
	return &urfave.Command{
		Name:  "describe",
		Usage: "print the pipeline's sources, datasets with their schemas, and flows",
		Action: func(c *urfave.Context) error {
			runtime.Describe(pr.p, pr.stdout)
			return nil
		},
	}
}
