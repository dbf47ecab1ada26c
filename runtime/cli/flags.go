package cli

import (
	"fmt"
	"io"
	"strings"

	urfave "github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/runtime"
	"github.com/pipegen/pipegen/runtime/storage"
)

// newRunFlags returns run's flags for pipeline p; the first four are the
// location flags that the read commands take too (see readFlags).
func newRunFlags(p *runtime.Pipeline) []urfave.Flag {
	return []urfave.Flag{
		&urfave.StringFlag{Name: "warehouse", Value: runtime.DefaultWarehouse, Usage: "root `DIR` of the tables (<warehouse>/<catalog>/<schema>/<table>)", EnvVars: []string{runtime.WarehouseEnv}},
		&urfave.StringFlag{Name: "storage", Usage: "root `DIR` of checkpoints, event log and lock (default " + runtime.StorageDir("<warehouse>", "", p.Name) + ")"},
		&urfave.StringFlag{Name: "base-dir", Usage: "`DIR` that relative source paths are resolved against (default: the working directory)"},
		&urfave.StringSliceFlag{Name: "param", Usage: "set a pipeline parameter: `NAME=VALUE` (repeatable)"},
		&urfave.StringFlag{Name: "trigger", Usage: "available_now (drain what has arrived, then exit), once (one micro-batch per flow) or interval=30s (keep running)", Value: defaultTrigger(p)},
		&urfave.StringFlag{Name: "refresh", Usage: "update only these `TABLES` (comma-separated); the others are excluded"},
		&urfave.StringFlag{Name: "full-refresh", Usage: "truncate these `TABLES` and recompute them from all available input"},
		&urfave.BoolFlag{Name: "full-refresh-all", Usage: "truncate and recompute every table"},
		&urfave.StringFlag{Name: "metrics-file", Usage: "write the update's metrics to `PATH` in Prometheus' text format at the end of every update (a temporary file renamed into place, for node exporter's textfile collector)"},
		&urfave.StringSliceFlag{Name: "source-path", Usage: "read source NAME from `NAME=PATH` instead of its spec location: a file source's folder or a table source's Delta table (repeatable; pipegen test uses it)"},
	}
}

// readFlags returns the location flags of run followed by more: the read
// commands accept them, so that a script can pass the same flags to run,
// show and events.
func (pr *program) readFlags(more ...urfave.Flag) []urfave.Flag {
	return append(append([]urfave.Flag{}, pr.runFlags[:4]...), more...)
}

func defaultTrigger(p *runtime.Pipeline) string {
	if p.Trigger != "" {
		return p.Trigger
	}
	return "available_now"
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// runOptions reads the flags of run (or the subset a read command has)
// into the runtime's options and trigger; an error is a usage error.
func runOptions(c *urfave.Context, stderr io.Writer) (runtime.RunOptions, runtime.Trigger, error) {
	opts := runtime.RunOptions{
		Warehouse:      c.String("warehouse"),
		Storage:        c.String("storage"),
		BaseDir:        c.String("base-dir"),
		Params:         c.StringSlice("param"),
		SourcePaths:    c.StringSlice("source-path"),
		MetricsFile:    c.String("metrics-file"),
		Refresh:        splitList(c.String("refresh")),
		FullRefresh:    splitList(c.String("full-refresh")),
		FullRefreshAll: c.Bool("full-refresh-all"),
		Stderr:         stderr,
	}
	for _, l := range []struct {
		flag string
		loc  *string
	}{{"--warehouse", &opts.Warehouse}, {"--storage", &opts.Storage}} {
		if *l.loc == "" {
			continue
		}
		dir, err := localLocation(*l.loc)
		if err != nil {
			return opts, runtime.Trigger{}, fmt.Errorf("%s: %w", l.flag, err)
		}
		*l.loc = dir
	}
	tr, err := runtime.ParseTrigger(c.String("trigger"))
	return opts, tr, err
}

// withOptions is the action of a command that reads run's flags (or the
// location flags): it reads them (an error is a usage error, exit 2) and
// calls do, whose error fails the command with exit 1 unless it is
// already an *exitError (a usage error do found, such as a bad --format).
func (pr *program) withOptions(c *urfave.Context, do func(runtime.RunOptions, runtime.Trigger) error) error {
	opts, tr, err := runOptions(c, pr.stderr)
	if err != nil {
		return &exitError{2, err}
	}
	if err := do(opts, tr); err != nil {
		if _, ok := err.(*exitError); ok {
			return err
		}
		return &exitError{1, err}
	}
	return nil
}

// localLocation returns the local folder of a warehouse or storage
// location (a path, or a file: URI), or why it is refused: the runtime
// reaches its files through runtime/storage, whose only Store is a local
// folder today.
func localLocation(loc string) (string, error) {
	s, err := storage.Open(loc)
	if err != nil {
		return "", err
	}
	l, ok := s.(*storage.Local)
	if !ok {
		return "", fmt.Errorf("%s is not a local folder", loc)
	}
	return l.Location(), nil
}
