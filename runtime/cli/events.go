package cli

import (
	urfave "github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/runtime"
)

// eventsCommand is `PROGRAM events` (runtime.Events).
func (pr *program) eventsCommand() *urfave.Command {
	return &urfave.Command{
		Name:  "events",
		Usage: "print the event log (all updates, or one)",
		Flags: pr.readFlags(
			&urfave.StringFlag{Name: "update", Usage: "only the events of update `ID` (a prefix is enough)"},
			&urfave.BoolFlag{Name: "json", Usage: "print the raw JSON lines"},
		),
		Action: func(c *urfave.Context) error {
			return pr.withOptions(c, func(opts runtime.RunOptions, _ runtime.Trigger) error {
				return runtime.Events(pr.p, opts, c.String("update"), c.Bool("json"), pr.stdout)
			})
		},
	}
}
