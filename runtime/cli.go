package runtime

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sort"
	"strings"

	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/urfave/cli/v2"
)

// Main runs the generated program's command line and exits: 0 on success,
// 1 when an update fails, 2 on a usage error.
func Main(p *Pipeline) {
	if path := os.Getenv("PIPEGEN_CPUPROFILE"); path != "" {
		// A CPU profile of the whole command, for performance work:
		// go tool pprof PROGRAM PATH.
		if f, err := os.Create(path); err == nil {
			pprof.StartCPUProfile(f)
			code := RunCLI(p, os.Args, os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(RunCLI(p, os.Args, os.Stdout, os.Stderr))
}

// exitError carries an exit code through urfave/cli.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// RunCLI is Main without the exit, for tests: it runs the command line args
// (args[0] is the program name) and returns the exit code.
func RunCLI(p *Pipeline, args []string, stdout, stderr io.Writer) int {
	runFlags := []cli.Flag{
		&cli.StringFlag{Name: "warehouse", Value: DefaultWarehouse, Usage: "root `DIR` of the tables (<warehouse>/<catalog>/<schema>/<table>)", EnvVars: []string{WarehouseEnv}},
		&cli.StringFlag{Name: "storage", Usage: "root `DIR` of checkpoints, event log and lock (default " + StorageDir("<warehouse>", "", p.Name) + ")"},
		&cli.StringFlag{Name: "base-dir", Usage: "`DIR` that relative source paths are resolved against (default: the working directory)"},
		&cli.StringSliceFlag{Name: "param", Usage: "set a pipeline parameter: `NAME=VALUE` (repeatable)"},
		&cli.StringFlag{Name: "trigger", Usage: "available_now (drain what has arrived, then exit), once (one micro-batch per flow) or interval=30s (keep running)", Value: defaultTrigger(p)},
		&cli.StringFlag{Name: "refresh", Usage: "update only these `TABLES` (comma-separated); the others are excluded"},
		&cli.StringFlag{Name: "full-refresh", Usage: "truncate these `TABLES` and recompute them from all available input"},
		&cli.BoolFlag{Name: "full-refresh-all", Usage: "truncate and recompute every table"},
		&cli.StringFlag{Name: "metrics-file", Usage: "write the update's metrics to `PATH` in Prometheus' text format at the end of every update (a temporary file renamed into place, for node exporter's textfile collector)"},
		&cli.StringSliceFlag{Name: "source-path", Usage: "read source NAME from `NAME=PATH` instead of its spec location: a file source's folder or a table source's Delta table (repeatable; pipegen test uses it)"},
	}
	// The read commands accept the location flags of run too, so that a
	// script can pass the same flags to run, show and events.
	readFlags := []cli.Flag{runFlags[0], runFlags[1], runFlags[2], runFlags[3]}
	app := &cli.App{
		Name:            args[0],
		Usage:           describeUsage(p),
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {},
		Commands: []*cli.Command{
			{
				Name:  "run",
				Usage: "run one update of the pipeline (or keep running with --trigger interval=...)",
				Flags: runFlags,
				Action: func(c *cli.Context) error {
					opts, tr, err := runOptions(c, stderr)
					if err != nil {
						return &exitError{2, err}
					}
					if err := Run(p, opts, tr); err != nil {
						return &exitError{1, err}
					}
					return nil
				},
			},
			{
				Name:  "dry-run",
				Usage: "check parameters, checks, sources and tables without writing anything",
				Flags: runFlags,
				Action: func(c *cli.Context) error {
					opts, _, err := runOptions(c, stderr)
					if err != nil {
						return &exitError{2, err}
					}
					if err := DryRun(p, opts, stdout); err != nil {
						return &exitError{1, err}
					}
					return nil
				},
			},
			{
				Name:  "describe",
				Usage: "print the pipeline's sources, datasets with their schemas, and flows",
				Action: func(c *cli.Context) error {
					Describe(p, stdout)
					return nil
				},
			},
			{
				Name:      "show",
				Usage:     "print the rows of a table",
				ArgsUsage: "TABLE",
				Flags: append(readFlags,
					&cli.IntFlag{Name: "limit", Value: 20, Usage: "print at most `N` rows (0: all)"},
					&cli.StringFlag{Name: "format", Value: "table", Usage: "table, jsonl or csv"},
				),
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return &exitError{2, fmt.Errorf("show: want one table name (tables: %s)", strings.Join(tableNames(p), ", "))}
					}
					opts, _, err := runOptions(c, stderr)
					if err != nil {
						return &exitError{2, err}
					}
					format := c.String("format")
					if format != "table" && format != "jsonl" && format != "csv" {
						return &exitError{2, fmt.Errorf("show: --format %q: want table, jsonl or csv", format)}
					}
					if err := Show(p, opts, c.Args().First(), c.Int("limit"), format, stdout); err != nil {
						return &exitError{1, err}
					}
					return nil
				},
			},
			{
				Name:  "events",
				Usage: "print the event log (all updates, or one)",
				Flags: append(readFlags,
					&cli.StringFlag{Name: "update", Usage: "only the events of update `ID` (a prefix is enough)"},
					&cli.BoolFlag{Name: "json", Usage: "print the raw JSON lines"},
				),
				Action: func(c *cli.Context) error {
					opts, _, err := runOptions(c, stderr)
					if err != nil {
						return &exitError{2, err}
					}
					if err := Events(p, opts, c.String("update"), c.Bool("json"), stdout); err != nil {
						return &exitError{1, err}
					}
					return nil
				},
			},
			{
				Name:  "vacuum",
				Usage: "remove data files no table version within the retention needs, and expired log files",
				Flags: append(readFlags,
					&cli.DurationFlag{Name: "retain", Usage: "keep files younger than `DURATION` or removed less than it ago; below a table's retention it is refused unless --allow-short-retention",
						DefaultText: "each table's delta.deletedFileRetentionDuration, 168h"},
					&cli.BoolFlag{Name: "allow-short-retention", Usage: "accept a --retain below a table's delta.deletedFileRetentionDuration, deleting files that older versions and change-feed readers may still need (Delta's spark.databricks.delta.retentionDurationCheck.enabled=false)"},
					&cli.BoolFlag{Name: "dry-run", Usage: "print what would be removed, remove nothing"},
				),
				Action: func(c *cli.Context) error {
					opts, _, err := runOptions(c, stderr)
					if err != nil {
						return &exitError{2, err}
					}
					if c.Duration("retain") < 0 {
						return &exitError{2, fmt.Errorf("vacuum: --retain %s: want a duration of zero or more, such as 168h", c.Duration("retain"))}
					}
					vo := VacuumOptions{DryRun: c.Bool("dry-run"), AllowShortRetention: c.Bool("allow-short-retention")}
					if c.IsSet("retain") {
						d := c.Duration("retain")
						vo.Retain = &d
					}
					if err := Vacuum(p, opts, vo, stdout); err != nil {
						return &exitError{1, err}
					}
					return nil
				},
			},
			{
				Name:  "version",
				Usage: "print the pipegen version that generated this program",
				Action: func(c *cli.Context) error {
					fmt.Fprintf(stdout, "%s generated by pipegen %s (runtime %s) from %s\n", p.Name, p.GenVersion, Version, p.Spec)
					return nil
				},
			},
		},
	}
	// No command has a "help" (alias "h") subcommand: "show h" shows the
	// table h; --help prints a command's help.
	for _, c := range app.Commands {
		c.HideHelpCommand = true
	}
	app.CommandNotFound = func(_ *cli.Context, name string) {
		fmt.Fprintf(stderr, "%s: unknown command %q (commands: %s; %s --help prints help)\n", p.Name, name, strings.Join(commandNames(app), ", "), args[0])
	}
	args = HelpArgs(app, args)
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && app.Command(args[1]) == nil {
		app.Run(args)
		return 2
	}
	err := app.Run(PermuteFlags(app, args))
	if err == nil {
		return 0
	}
	var ee *exitError
	var rep *reportedError
	switch {
	case errors.As(err, &rep) && errors.As(err, &ee):
		fmt.Fprintf(stderr, "%s %s: exit status %d: the last update failed (see above)\n", logTime(), p.Name, ee.code)
		return ee.code
	case errors.As(err, &ee):
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, ee.err)
		return ee.code
	}
	fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
	return 2
}

func defaultTrigger(p *Pipeline) string {
	if p.Trigger != "" {
		return p.Trigger
	}
	return "available_now"
}

func describeUsage(p *Pipeline) string {
	if p.Description != "" {
		return p.Description
	}
	return "the " + p.Name + " pipeline, generated by pipegen"
}

func tableNames(p *Pipeline) []string {
	var out []string
	for _, d := range p.Datasets {
		out = append(out, d.DatasetName())
	}
	sort.Strings(out)
	return out
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

func runOptions(c *cli.Context, stderr io.Writer) (RunOptions, trigger, error) {
	opts := RunOptions{
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
			return opts, trigger{}, fmt.Errorf("%s: %w", l.flag, err)
		}
		*l.loc = dir
	}
	tr, err := parseTrigger(c.String("trigger"))
	return opts, tr, err
}

// HelpArgs turns `PROGRAM help [COMMAND]` (or `h`) into `PROGRAM [COMMAND]
// --help`: the commands have no help subcommand (a table named h is a
// table), so help is a word only in the first place.
func HelpArgs(app *cli.App, args []string) []string {
	if len(args) < 2 || (args[1] != "help" && args[1] != "h") || app.Command(args[1]) != nil {
		return args
	}
	if len(args) == 2 {
		return []string{args[0], "--help"}
	}
	return []string{args[0], args[2], "--help"}
}

// commandNames lists app's commands, for messages.
func commandNames(app *cli.App) []string {
	var names []string
	for _, c := range app.Commands {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	return names
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

// PermuteFlags moves a command's flags in front of its positional
// arguments, so that `PROGRAM show TABLE --limit 5` works like
// `PROGRAM show --limit 5 TABLE` (urfave/cli v2 stops parsing flags at
// the first argument). Everything after "--" stays in place.
func PermuteFlags(app *cli.App, args []string) []string {
	if len(args) < 3 {
		return args
	}
	cmd := app.Command(args[1])
	if cmd == nil || cmd.SkipFlagParsing {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, pos []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			pos = append(pos, rest[i:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && takesValue[name] && i+1 < len(rest) {
			flags = append(flags, rest[i+1])
			i++
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	return append(out, pos...)
}
