package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/spec"
	"github.com/pipegen/pipegen/spec/infer"
)

func inferCommand() *cli.Command {
	return &cli.Command{
		Name:      "infer",
		Usage:     "infer a file source's schema from sample files",
		ArgsUsage: "FILE_OR_FOLDER...",
		Description: "Reads a sample of the files (folders as a file source lists them) with the readers the\n" +
			"program uses and prints a source schema in the spec's DDL syntax, with a comment saying\n" +
			"what it was inferred from. Parquet files give their own schema, a Delta table folder its\n" +
			"snapshot's. --write SPEC --source NAME sets that source's schema: in the spec file instead,\n" +
			"keeping the rest of the file as written (the source's format and csv header/delimiter\n" +
			"are then taken from the spec unless given here).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Usage: source.FormatNames() + " (default: from the file names)"},
			&cli.StringFlag{Name: "write", Usage: "the spec file whose source's schema to set"},
			&cli.StringFlag{Name: "source", Usage: "the source to set the schema of (with --write)"},
			&cli.BoolFlag{Name: "decimals", Usage: "DECIMAL(p,s) instead of DOUBLE for numbers with a fraction"},
			&cli.BoolFlag{Name: "timestamp-ntz", Usage: "TIMESTAMP_NTZ for timestamps without an offset"},
			&cli.IntFlag{Name: "map-threshold", Value: infer.DefaultMapThreshold, Usage: "a JSON object with more distinct keys than this becomes MAP<STRING, T>"},
			&cli.IntFlag{Name: "sample-records", Value: infer.DefaultMaxRecords, Usage: "records to read at most"},
			&cli.Int64Flag{Name: "sample-bytes", Value: infer.DefaultMaxBytes, Usage: "bytes to read at most"},
			&cli.BoolFlag{Name: "header", Value: true, Usage: "CSV files start with a header (--header=false: columns _c0, _c1, ...)"},
			&cli.StringFlag{Name: "delimiter", Value: ",", Usage: "CSV field delimiter (one character)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("infer: give at least one sample file or folder")
			}
			if (c.String("write") == "") != (c.String("source") == "") {
				return usagef("infer: --write SPEC and --source NAME go together")
			}
			if f := c.String("format"); f != "" {
				if _, ok := source.LookupFormat(f); !ok {
					return usagef("infer: unknown --format %q: use %s", f, source.FormatNames())
				}
			}
			if d := c.String("delimiter"); len(d) != 1 {
				return usagef("infer: --delimiter must be one character, not %q", d)
			}
			req := InferRequest{
				Paths:        c.Args().Slice(),
				Format:       c.String("format"),
				Spec:         c.String("write"),
				Source:       c.String("source"),
				Decimals:     c.Bool("decimals"),
				TimestampNTZ: c.Bool("timestamp-ntz"),
				MapThreshold: c.Int("map-threshold"),
				MaxRecords:   c.Int("sample-records"),
				MaxBytes:     c.Int64("sample-bytes"),
			}
			if c.IsSet("header") {
				h := c.Bool("header")
				req.Header = &h
			}
			if c.IsSet("delimiter") {
				req.Delimiter = c.String("delimiter")
			}
			if req.MapThreshold <= 0 {
				req.MapThreshold = -1
			}
			return exitError{Infer(c.App.Writer, c.App.ErrWriter, req)}
		},
	}
}

// InferRequest is what pipegen infer was asked.
type InferRequest struct {
	Paths  []string
	Format string // "" for the spec's or the file names'
	// Spec and Source, when set, name the spec file and the source whose
	// schema to set.
	Spec, Source string
	Decimals     bool
	TimestampNTZ bool
	MapThreshold int // <0: never MAP
	MaxRecords   int
	MaxBytes     int64
	// Header and Delimiter override the CSV defaults (and the spec's
	// csv options) when set.
	Header    *bool
	Delimiter string
}

// Infer infers the schema of the sample files of req and prints it as a
// YAML fragment (a comment saying what it was inferred from, then schema:)
// to stdout, or, with req.Spec, sets it in the spec file and says so on
// stderr. It returns the exit code: 0, or 1 with the error on stderr.
func Infer(stdout, stderr io.Writer, req InferRequest) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "pipegen: infer: %v\n", err)
		return exitDiagnostics
	}
	opts := infer.Options{
		Format: req.Format, Decimals: req.Decimals, TimestampNTZ: req.TimestampNTZ,
		MapThreshold: req.MapThreshold, MaxRecords: req.MaxRecords, MaxBytes: req.MaxBytes,
	}
	copts := source.DefaultCSVOptions()
	var specText []byte
	if req.Spec != "" {
		var err error
		if specText, err = os.ReadFile(req.Spec); err != nil {
			return fail(err)
		}
		st, err := spec.SourceSettingsOf(specText, req.Source)
		if err != nil {
			return fail(fmt.Errorf("%s: %w", req.Spec, err))
		}
		if !st.Found {
			return fail(fmt.Errorf("%s has no source %q under sources: add it (with its files: path and format) first", req.Spec, req.Source))
		}
		if opts.Format == "" {
			opts.Format = st.Format
		}
		opts.PathGlobFilter = st.PathGlobFilter
		if st.Header != nil {
			copts.Header = *st.Header
		}
		if len(st.Delimiter) == 1 {
			copts.Delimiter = st.Delimiter[0]
		}
	}
	if req.Header != nil {
		copts.Header = *req.Header
	}
	if req.Delimiter != "" {
		copts.Delimiter = req.Delimiter[0]
	}
	opts.CSV = &copts
	res, err := infer.Infer(req.Paths, opts)
	if err != nil {
		return fail(err)
	}
	ddl, err := infer.FormatSchema(res.Schema)
	if err != nil {
		return fail(err)
	}
	comment := inferComment(res, opts)
	if req.Spec == "" {
		fmt.Fprintf(stdout, "# %s\n", comment)
		for _, d := range res.Dropped {
			fmt.Fprintf(stdout, "# left out %s: its name differs from an earlier field's only in case (its values go to the rescued-data column)\n", d)
		}
		fmt.Fprintf(stdout, "schema: >-\n")
		for _, l := range strings.Split(ddl, "\n") {
			fmt.Fprintf(stdout, "  %s\n", l)
		}
		return exitOK
	}
	out, err := spec.SetSourceSchema(specText, req.Source, ddl, comment)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", req.Spec, err))
	}
	if err := writeFileAtomic(req.Spec, out); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stderr, "pipegen: infer: set the schema of source %s in %s (%s; %s)\n", req.Source, req.Spec, plural(len(res.Schema), "column"), comment)
	return exitOK
}

// inferComment says what a schema was inferred from, e.g. "inferred by
// pipegen infer from 3 csv files, 10,000 records (sample limit: 10,000
// records, 64 MiB)".
func inferComment(res *infer.Result, opts infer.Options) string {
	switch res.Format {
	case "delta":
		return fmt.Sprintf("inferred by pipegen infer: the schema of the Delta table (version %d)", res.DeltaVersion)
	case "parquet":
		return fmt.Sprintf("inferred by pipegen infer: the schema in the footers of %s", plural(res.Files, "Parquet file"))
	}
	if info, ok := source.LookupFormat(res.Format); ok && info.Columns != nil {
		return fmt.Sprintf("inferred by pipegen infer: the columns every %s file has", res.Format)
	}
	s := fmt.Sprintf("inferred by pipegen infer from %s, %s", plural(res.Files, res.Format+" file"), plural(res.Records, "record"))
	if res.Files < res.TotalFiles {
		s += fmt.Sprintf(" (of %d files)", res.TotalFiles)
	}
	if len(res.Skipped) > 0 {
		names := make([]string, len(res.Skipped))
		for i, f := range res.Skipped {
			names[i] = filepath.Base(f)
		}
		s += fmt.Sprintf(", skipped %s not named .%s (%s), which the source would read: set path_glob_filter: \"*.%s\"", plural(len(names), "file"), res.Format, strings.Join(names, ", "), res.Format)
	}
	if res.Malformed > 0 {
		s += fmt.Sprintf(", %s left out (the first at %s)", plural(res.Malformed, "malformed record"), res.FirstMalformed)
	}
	if res.Limited {
		s += fmt.Sprintf(" (sample limit: %s records, %s)", thousands(int64(opts.MaxRecords)), byteSize(opts.MaxBytes))
	} else {
		s += " (every record)"
	}
	return s
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// writeFileAtomic replaces path's content: written beside it, then renamed,
// keeping its permissions.
func writeFileAtomic(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp := path + ".pipegen-tmp"
	if err := os.WriteFile(tmp, data, mode); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
