package cli

import (
	"fmt"

	urfave "github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/runtime"
)

// vacuumCommand is `PROGRAM vacuum` (runtime.Vacuum, Delta's VACUUM).
func (pr *program) vacuumCommand() *urfave.Command {
	return &urfave.Command{
		Name:  "vacuum",
		Usage: "remove data files no table version within the retention needs, and expired log files",
		Flags: pr.readFlags(
			&urfave.DurationFlag{Name: "retain", Usage: "keep files younger than `DURATION` or removed less than it ago; below a table's retention it is refused unless --allow-short-retention",
				DefaultText: "each table's delta.deletedFileRetentionDuration, 168h"},
			&urfave.BoolFlag{Name: "allow-short-retention", Usage: "accept a --retain below a table's delta.deletedFileRetentionDuration, deleting files that older versions and change-feed readers may still need (Delta's spark.databricks.delta.retentionDurationCheck.enabled=false)"},
			&urfave.BoolFlag{Name: "dry-run", Usage: "print what would be removed, remove nothing"},
		),
		Action: func(c *urfave.Context) error {
			return pr.withOptions(c, func(opts runtime.RunOptions, _ runtime.Trigger) error {
				if c.Duration("retain") < 0 {
					return &exitError{2, fmt.Errorf("vacuum: --retain %s: want a duration of zero or more, such as 168h", c.Duration("retain"))}
				}
				vo := runtime.VacuumOptions{DryRun: c.Bool("dry-run"), AllowShortRetention: c.Bool("allow-short-retention")}
				if c.IsSet("retain") {
					d := c.Duration("retain")
					vo.Retain = &d
				}
				return runtime.Vacuum(pr.p, opts, vo, pr.stdout)
			})
		},
	}
}
