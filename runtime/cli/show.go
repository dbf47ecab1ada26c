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
			opts, _, err := runOptions(c, pr.stderr)
			if err != nil {
				return &exitError{2, err}
			}
			format := c.String("format")
			if format != "table" && format != "jsonl" && format != "csv" {
				return &exitError{2, fmt.Errorf("show: --format %q: want table, jsonl or csv", format)}
			}
			t, err := runtime.ReadTable(pr.p, opts, c.Args().First(), c.Int("limit"))
			if err != nil {
				return &exitError{1, err}
			}
			writeRows(pr.stdout, t, format)
			return nil
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

// writeRows prints t's rows in format: jsonl (parquetio.RowJSON, Spark's
// JSON writer), csv (a header, then parquetio.FormatValue's text, NULL as
// an empty field) or table (aligned columns, NULL as NULL, then the count
// "(N of TOTAL rows)").
func writeRows(w io.Writer, t runtime.TableRows, format string) {
	schema, rows := t.Schema, t.Rows
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	switch format {
	case "jsonl":
		for _, r := range rows {
			fmt.Fprintln(bw, parquetio.RowJSON(r, schema))
		}
	case "csv":
		cw := csv.NewWriter(bw)
		header := make([]string, len(schema))
		for i, f := range schema {
			header[i] = f.Name
		}
		cw.Write(header)
		for _, r := range rows {
			rec := make([]string, len(r))
			for i, v := range r {
				if v != nil {
					rec[i] = parquetio.FormatValue(v, schema[i].Type)
				}
			}
			cw.Write(rec)
		}
		cw.Flush()
	default:
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		header := make([]string, len(schema))
		for i, f := range schema {
			header[i] = f.Name
		}
		fmt.Fprintln(tw, strings.Join(header, "\t"))
		for _, r := range rows {
			cells := make([]string, len(r))
			for i, v := range r {
				if v == nil {
					cells[i] = "NULL"
				} else {
					cells[i] = strings.ReplaceAll(parquetio.FormatValue(v, schema[i].Type), "\t", " ")
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()
		fmt.Fprintf(bw, "(%d of %d rows)\n", len(rows), t.Total)
	}
}
