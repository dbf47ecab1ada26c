package cli

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	urfave "github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/runtime"
	"github.com/pipegen/pipegen/runtime/parquetio"
)

// showCommand is `PROGRAM show TABLE`: the rows of a table's current
// snapshot (runtime.ReadTable), printed by writeRows.
func (pr *program) showCommand() *urfave.Command {
	return &urfave.Command{
		Name:      "show",
		Usage:     "print the rows of a table",
		ArgsUsage: "TABLE",
		Flags: pr.readFlags(
			&urfave.IntFlag{Name: "limit", Value: 20, Usage: "print at most `N` rows (0: all)"},
			&urfave.StringFlag{Name: "format", Value: "table", Usage: "table, jsonl or csv"},
		),
		Action: func(c *urfave.Context) error {
			if c.NArg() != 1 {
				return &exitError{2, fmt.Errorf("show: want one table name (tables: %s)", strings.Join(tableNames(pr.p), ", "))}
			}
			return pr.withOptions(c, func(opts runtime.RunOptions, _ runtime.Trigger) error {
				format := c.String("format")
				if format != "table" && format != "jsonl" && format != "csv" {
					return &exitError{2, fmt.Errorf("show: --format %q: want table, jsonl or csv", format)}
				}
				t, err := runtime.ReadTable(pr.p, opts, c.Args().First(), c.Int("limit"))
				if err != nil {
					return err
				}
				writeRows(pr.stdout, t, format)
				return nil
			})
		},
	}
}

func tableNames(p *runtime.Pipeline) []string {
	var out []string
	for _, d := range p.Datasets {
		out = append(out, d.DatasetName())
	}
	sort.Strings(out)
	return out
}

// writeRows prints t's rows in format, the one printer of a table's rows:
// jsonl is a JSON object per row (parquetio.RowJSON, Spark's JSON writer:
// NULL columns left out); csv and table are a header of the column names,
// then a line per row of parquetio.FormatValue's text (Spark's show()),
// NULL as an empty field in csv (RFC 4180 quoting) and as NULL in table,
// whose columns are aligned, tabs in values printed as spaces, and which
// ends with the count "(N of TOTAL rows)".
func writeRows(w io.Writer, t runtime.TableRows, format string) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	if format == "jsonl" {
		for _, r := range t.Rows {
			fmt.Fprintln(bw, parquetio.RowJSON(r, t.Schema))
		}
		return
	}
	// csv and table differ only in how a line is written and in the
	// text of NULL and of tabs in values.
	cw := csv.NewWriter(bw)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	asCSV := format == "csv"
	line := func(cells []string) {
		if asCSV {
			cw.Write(cells)
		} else {
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
	}
	header := make([]string, len(t.Schema))
	for i, f := range t.Schema {
		header[i] = f.Name
	}
	line(header)
	for _, r := range t.Rows {
		cells := make([]string, len(r))
		for i, v := range r {
			switch {
			case v == nil && !asCSV:
				cells[i] = "NULL"
			case v == nil: // an empty field
			case asCSV:
				cells[i] = parquetio.FormatValue(v, t.Schema[i].Type)
			default:
				cells[i] = strings.ReplaceAll(parquetio.FormatValue(v, t.Schema[i].Type), "\t", " ")
			}
		}
		line(cells)
	}
	if asCSV {
		cw.Flush()
		return
	}
	tw.Flush()
	fmt.Fprintf(bw, "(%d of %d rows)\n", len(t.Rows), t.Total)
}
