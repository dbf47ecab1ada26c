package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	prt "github.com/pipegen/pipegen/runtime"
	"github.com/pipegen/pipegen/runtime/cdc"
	"github.com/pipegen/pipegen/spec"
	"github.com/pipegen/pipegen/spec/sql"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "say which tables a spec change affects and which need a full refresh",
		ArgsUsage: "OLD.yaml NEW.yaml",
		Description: "Compares two versions of a pipeline spec, as a pull-request review would, and prints one\n" +
			"line per table the change affects: new tables (created and backfilled), removed ones (left\n" +
			"as they are), schema changes (added columns, and column types widened by Delta's type\n" +
			"widening: INT to BIGINT, FLOAT to DOUBLE, DECIMAL precision up, ...), changed queries, and the\n" +
			"tables that need `--full-refresh` (a column type change that is not a widening, a NOT NULL\n" +
			"column dropped, new partition columns, a flow's sources or AUTO CDC keys changed, a changed\n" +
			"stateful operator, a streaming read of a table that is itself fully refreshed).\n" +
			"Exit status: 0 no table needs a full refresh, 1 one does or a spec is invalid, 2 usage.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text or json"},
		}, locationFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usagef("diff: give the old and the new spec file")
			}
			format := c.String("format")
			if format != "text" && format != "json" {
				return usagef("diff: unknown --format %q: use text or json", format)
			}
			return exitError{Diff(c.App.Writer, c.App.ErrWriter, c.Args().Get(0), c.Args().Get(1), format, locationsOf(c))}
		},
	}
}

// TableChange is what a spec change means for one table.
type TableChange struct {
	Table string `json:"table"`
	// Kind is streaming_table or materialized_view (the new one, or the
	// old one for a removed table).
	Kind string `json:"kind"`
	// Change is added, removed, changed or affected (its own definition
	// is the same, but it reads a table that changes).
	Change string `json:"change"`
	// FullRefresh is true when the next update fails until the table is
	// run with --full-refresh.
	FullRefresh bool     `json:"full_refresh"`
	Reasons     []string `json:"reasons"`
}

// Diff loads two versions of a spec and prints the tables the change
// affects (CompareSpecs) to stdout, as text or JSON. Diagnostics of an
// invalid spec go to stderr; table sources and schema logs are looked up
// at loc. It returns the exit code: 0 when no table
// needs a full refresh, 1 when one does or a spec is invalid.
func Diff(stdout, stderr io.Writer, oldFile, newFile, format string, loc locations) int {
	cwd, _ := os.Getwd()
	var specs [2]*spec.Pipeline
	for i, f := range []string{oldFile, newFile} {
		p, diags := spec.LoadWith(f, loc.specOptions())
		if diags.HasErrors() || p == nil {
			diags.Sort()
			diags.Write(stderr, spec.TextOutput, cwd)
			return exitDiagnostics
		}
		specs[i] = p
	}
	changes := CompareSpecs(specs[0], specs[1])
	refresh := 0
	for _, c := range changes {
		if c.FullRefresh {
			refresh++
		}
	}
	if format == "json" {
		if changes == nil {
			changes = []TableChange{}
		}
		out, _ := json.MarshalIndent(changes, "", "  ")
		fmt.Fprintln(stdout, string(out))
	} else {
		fmt.Fprintf(stdout, "%s affected, %d need a full refresh\n", plural(len(changes), "table"), refresh)
		for _, c := range changes {
			what := c.Change
			if c.FullRefresh {
				what = "FULL REFRESH REQUIRED (run with --full-refresh " + c.Table + ")"
			}
			fmt.Fprintf(stdout, "%s (%s): %s\n", c.Table, strings.ReplaceAll(c.Kind, "_", " "), what)
			for _, r := range c.Reasons {
				fmt.Fprintf(stdout, "  - %s\n", r)
			}
		}
	}
	if refresh > 0 {
		return exitDiagnostics
	}
	return exitOK
}

// CompareSpecs returns, sorted by table name, the tables of old and new
// whose update behaviour the change from old to new alters, with the
// runtime's rules: a new table is created and backfilled; a removed one is
// left alone; a streaming table evolves its schema when columns are only
// added or widened (Delta's type widening, types.Widens), and needs a full
// refresh when a column changes type otherwise, a NOT NULL
// column goes, a flow's streaming sources or AUTO CDC keys change, or it
// streams from a table that needs a full refresh; a materialized view
// whose definition changed is recomputed (COMPLETE_RECOMPUTE); tables that
// read a changed table are affected.
func CompareSpecs(old, new *spec.Pipeline) []TableChange {
	byName := map[string]*TableChange{}
	get := func(d *spec.Dataset, change string) *TableChange {
		c := byName[d.Name]
		if c == nil {
			c = &TableChange{Table: d.Name, Kind: d.Kind.String(), Change: change}
			byName[d.Name] = c
		}
		return c
	}
	refresh := func(c *TableChange, reason string) {
		c.FullRefresh = true
		c.Change = "changed"
		c.Reasons = append(c.Reasons, reason)
	}
	for _, d := range old.Tables {
		if new.Dataset(d.Name) == nil || !isTable(new.Dataset(d.Name)) {
			c := get(d, "removed")
			c.Reasons = append(c.Reasons, "no longer defined: its table and the checkpoints of its flows are left as they are (drop them by hand)")
		}
	}
	for _, d := range new.Tables {
		od := old.Dataset(d.Name)
		if od == nil || !isTable(od) {
			c := get(d, "added")
			c.Reasons = append(c.Reasons, "new: created and backfilled from all available input")
			continue
		}
		if od.Kind != d.Kind {
			refresh(get(d, "changed"), fmt.Sprintf("changes from a %s to a %s", od.Kind, d.Kind))
			continue
		}
		compareTable(od, d, func(reason string) { refresh(get(d, "changed"), reason) }, func(reason string) {
			c := get(d, "changed")
			c.Change = "changed"
			c.Reasons = append(c.Reasons, reason)
		})
	}
	// Downstream: a streaming read of a table that is fully refreshed
	// fails (its commits are no longer appends); other reads recompute or
	// read the new rows.
	for changed := true; changed; {
		changed = false
		for _, f := range new.Flows {
			for _, in := range f.Inputs {
				up := byName[in.Name]
				if in.Dataset == nil || up == nil || up.Change == "removed" || in.Name == f.Target.Name {
					continue
				}
				c := byName[f.Target.Name]
				switch {
				case in.Streaming && up.FullRefresh && (c == nil || (!c.FullRefresh && c.Change != "added")):
					refresh(get(f.Target, "changed"), fmt.Sprintf("flow %s streams from %s, which is fully refreshed", f.Name, in.Name))
					changed = true
				case c == nil:
					c = get(f.Target, "affected")
					c.Reasons = append(c.Reasons, fmt.Sprintf("reads %s, which changes", in.Name))
					changed = true
				}
			}
		}
	}
	out := make([]TableChange, 0, len(byName))
	for _, c := range byName {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b TableChange) int { return strings.Compare(a.Table, b.Table) })
	return out
}

func isTable(d *spec.Dataset) bool {
	return d.Kind == spec.StreamingTable || d.Kind == spec.MaterializedView
}

// compareTable compares one table's two versions: needs reports a reason
// for a full refresh, notes any other change.
func compareTable(old, new *spec.Dataset, needs, notes func(string)) {
	if was, now := partitionColumns(old), partitionColumns(new); !strings.EqualFold(strings.Join(was, "\x00"), strings.Join(now, "\x00")) {
		change := fmt.Sprintf("its partition columns change from %s to %s", partitionList(was), partitionList(now))
		if new.Kind == spec.StreamingTable {
			needs(change + ": the existing files are laid out by the old ones")
		} else {
			notes(change + ": recomputed (COMPLETE_RECOMPUTE) with the new layout")
		}
	}
	if new.Kind == spec.StreamingTable {
		added, widened, err := prt.CheckSchemaChange(new.Name, old.Schema(), new.Schema(), partitionColumns(old))
		if err != nil {
			needs(err.Error())
		} else {
			if len(added) > 0 {
				notes(fmt.Sprintf("adds column(s) %s: the table's schema evolves, existing rows read NULL", strings.Join(added, ", ")))
			}
			for _, w := range widened {
				notes(fmt.Sprintf("widens column %s from %s to %s: Delta type widening (a metaData change, no rewrite; existing rows read converted)", w.Column, w.From, w.To))
			}
		}
	}
	oldFlows := map[string]*spec.Flow{}
	for _, f := range old.Flows {
		oldFlows[f.Name] = f
	}
	// removed are the old flows the new spec no longer has, in order: a
	// new flow with the same streaming sources looks like a rename of one.
	var removed []*spec.Flow
	for _, f := range old.Flows {
		if !slices.ContainsFunc(new.Flows, func(n *spec.Flow) bool { return n.Name == f.Name }) {
			removed = append(removed, f)
		}
	}
	for _, f := range new.Flows {
		of := oldFlows[f.Name]
		delete(oldFlows, f.Name)
		if of == nil {
			newFlow(old, new, f, removed, needs, notes)
			continue
		}
		if of.Definition() == f.Definition() && slices.Equal(streamed(of), streamed(f)) {
			continue
		}
		if f.Stateful != nil && (of.StateDefinition() != f.StateDefinition() || !slices.Equal(of.StateTypes(), f.StateTypes())) {
			why := errors.New("its window, keys or aggregates change")
			if of.Stateful != nil && of.StateShape() == f.StateShape() {
				why = prt.StateWidening(of.StateTypes(), f.StateTypes())
			}
			switch {
			case of.Stateful == nil:
				needs(fmt.Sprintf("flow %s becomes stateful (%s): its checkpoint holds no state for the rows it already read", f.Name, f.Stateful.Kind))
				continue
			case why != nil:
				needs(fmt.Sprintf("the stateful operator of flow %s changes (%v): the state in its checkpoint was built by the old query", f.Name, why))
				continue
			}
			notes(fmt.Sprintf("flow %s keeps its state: values it holds widen (%s) and are upcast as the state is read", f.Name, prt.StateWidenings(of.StateTypes(), f.StateTypes())))
		}
		if new.Kind == spec.StreamingTable && sameQuery(of, f) && slices.Equal(streamed(of), streamed(f)) && (of.AutoCDC == nil) == (f.AutoCDC == nil) && f.AutoCDC == nil {
			continue // only the schema changed: reported above
		}
		if of.AutoCDC != nil && f.AutoCDC != nil && cdcSettings(of) == cdcSettings(f) {
			// The auto_cdc block is the same; only the change feed's
			// columns changed (its upstream table's query): what that
			// does to the target's schema is reported above.
			continue
		}
		switch {
		case new.Kind == spec.MaterializedView:
			notes(fmt.Sprintf("flow %s's definition changed: recomputed (COMPLETE_RECOMPUTE)", f.Name))
		case !slices.Equal(streamed(of), streamed(f)):
			needs(fmt.Sprintf("the sources of flow %s change (was %s, now %s): its checkpoint no longer applies",
				f.Name, strings.Join(streamed(of), ", "), strings.Join(streamed(f), ", ")))
		case of.AutoCDC != nil && f.AutoCDC != nil && !sameKeys(of, f):
			needs(fmt.Sprintf("the keys of AUTO CDC flow %s change (was %s, now %s)", f.Name, cdcKeys(of), cdcKeys(f)))
		case of.AutoCDC != nil && f.AutoCDC != nil && of.AutoCDC.SCDType != f.AutoCDC.SCDType:
			needs(fmt.Sprintf("AUTO CDC flow %s changes from SCD type %d to %d", f.Name, of.AutoCDC.SCDType, f.AutoCDC.SCDType))
		case of.AutoCDC != nil && f.AutoCDC != nil && len(cdc.CheckRules(cdcRules(of), cdcRules(f))) > 0:
			// The runtime fails the flow for these (cdc.Rules).
			needs(fmt.Sprintf("AUTO CDC flow %s: %s", f.Name, strings.Join(cdc.CheckRules(cdcRules(of), cdcRules(f)), "; ")))
		case f.AutoCDC != nil:
			notes(fmt.Sprintf("flow %s's auto_cdc settings changed: existing rows stay, new changes are applied with the new settings (a full refresh applies every change again)", f.Name))
		default:
			notes(fmt.Sprintf("flow %s's query changed: existing rows stay, new input is processed with the new query (a full refresh recomputes them)", f.Name))
		}
	}
	for name := range oldFlows {
		notes(fmt.Sprintf("flow %s is removed: the rows it wrote stay", name))
	}
}

// newFlow reports a flow of new that old's version of the table did not
// have. Its checkpoint is empty, so it reads all of its sources: an AUTO
// CDC flow into an existing table has no state for the rows already
// there (the runtime fails it), and an append flow that replaces a removed
// flow with the same streaming sources (a rename) appends their rows again.
func newFlow(old, new *spec.Dataset, f *spec.Flow, removed []*spec.Flow, needs, notes func(string)) {
	var renamed *spec.Flow
	if new.Kind == spec.StreamingTable && len(streamed(f)) > 0 {
		if i := slices.IndexFunc(removed, func(r *spec.Flow) bool { return slices.Equal(streamed(r), streamed(f)) }); i >= 0 {
			renamed = removed[i]
		}
	}
	switch {
	case f.AutoCDC != nil && new.Kind == spec.StreamingTable && len(old.Flows) > 0:
		what := "a new AUTO CDC flow into an existing table"
		if renamed != nil {
			what = fmt.Sprintf("it looks like a rename of flow %s; a new or renamed AUTO CDC flow into an existing table", renamed.Name)
		}
		needs(fmt.Sprintf("new flow %s: %s has no state for the rows already applied, and the update fails: run with --full-refresh %s, or keep the old flow name",
			f.Name, what, new.Name))
	case renamed != nil:
		needs(fmt.Sprintf("new flow %s looks like a rename of flow %s (same target, same sources %s): it has no checkpoint and reads its sources from the start, so the rows %s wrote would be duplicated; run with --full-refresh %s, or keep the old flow name",
			f.Name, renamed.Name, strings.Join(streamed(f), ", "), renamed.Name, new.Name))
	default:
		notes(fmt.Sprintf("new flow %s: it reads its sources from the start into the table", f.Name))
	}
}

// cdcRules returns the runtime's cdc.Rules of an AUTO CDC flow, as the
// generated code gives them (gen/cdc.go).
// cdcSettings renders an AUTO CDC flow's auto_cdc block by column name:
// source, keys, sequence_by, the delete and truncate conditions, SCD type,
// ignore_null_updates, the source columns left out of the target, and
// track_history. The columns the change feed has are not part of it, so a
// new column upstream (written to the target) leaves it the same.
func cdcSettings(f *spec.Flow) string {
	a := f.AutoCDC
	names := func(idx []int) string {
		var out []string
		for _, i := range idx {
			out = append(out, a.SourceColumns[i].Name)
		}
		return strings.Join(out, ",")
	}
	var left []string
	for i, c := range a.SourceColumns {
		if !slices.Contains(a.Columns, i) {
			left = append(left, c.Name)
		}
	}
	expr := func(e sql.Expr) string {
		if e == nil {
			return ""
		}
		return columnPosition.ReplaceAllString(sql.FormatExpr(e), "")
	}
	return fmt.Sprintf("source %s; keys %s; sequence_by %s; deletes %s; truncates %s; scd %d; ignore_nulls %v; left out %s; track_history %v %s",
		a.Source.Name, names(a.Keys), names(a.SequenceBy), expr(a.ApplyAsDeletes), expr(a.ApplyAsTruncates),
		a.SCDType, a.IgnoreNullUpdates, strings.Join(left, ","), a.TrackHistory != nil, names(a.TrackHistory))
}

// columnPosition matches the input positions FormatExpr writes after
// column names (amount#3), which move when the change feed gains a column.
var columnPosition = regexp.MustCompile(`#[0-9]+`)

func cdcRules(f *spec.Flow) cdc.Rules {
	a := f.AutoCDC
	var r cdc.Rules
	for _, i := range a.SequenceBy {
		r.SequenceBy = append(r.SequenceBy, a.SourceColumns[i].Name)
	}
	for _, i := range a.Columns {
		r.Columns = append(r.Columns, a.SourceColumns[i].Name)
		if a.SCDType == 2 && a.TrackHistory != nil && !slices.Contains(a.TrackHistory, i) {
			r.Untracked = append(r.Untracked, a.SourceColumns[i].Name)
		}
	}
	r.IgnoreNulls = a.SCDType == 2 && a.IgnoreNullUpdates
	return r
}

// streamed returns the names of the inputs a flow reads with STREAM,
// sorted: what its checkpoint is built for.
func streamed(f *spec.Flow) []string {
	var out []string
	for _, in := range f.Inputs {
		if in.Streaming {
			out = append(out, in.Name)
		}
	}
	if f.AutoCDC != nil {
		out = append(out, f.AutoCDC.Source.Name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func cdcKeys(f *spec.Flow) string {
	var names []string
	for _, k := range f.AutoCDC.Keys {
		names = append(names, f.AutoCDC.SourceColumns[k].Name)
	}
	return strings.Join(names, ", ")
}

func sameKeys(a, b *spec.Flow) bool { return strings.EqualFold(cdcKeys(a), cdcKeys(b)) }

// sameQuery reports whether two versions of a flow have the same query
// text, whitespace aside.
func sameQuery(a, b *spec.Flow) bool {
	return strings.Join(strings.Fields(a.SQL), " ") == strings.Join(strings.Fields(b.SQL), " ")
}

// partitionColumns returns the names of a table's partition columns.
func partitionColumns(d *spec.Dataset) []string {
	out := make([]string, len(d.PartitionBy))
	for i, c := range d.PartitionBy {
		out[i] = d.Columns[c].Name
	}
	return out
}

func partitionList(cols []string) string {
	if len(cols) == 0 {
		return "none"
	}
	return "(" + strings.Join(cols, ", ") + ")"
}
