package spec

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Explain writes a readable description of the checked pipeline: settings,
// parameters, checks, sources with their columns, temporary views, and the
// tables in update order with their flows, inputs, schemas and
// expectations. `pipegen explain` prints it.
func (p *Pipeline) Explain(w io.Writer) {
	fmt.Fprintf(w, "pipeline %s (%s)\n", p.Name, p.File)
	if p.Description != "" {
		fmt.Fprintf(w, "  %s\n", strings.TrimSpace(p.Description))
	}
	fmt.Fprintf(w, "  catalog %s, schema %s, trigger %s, session time zone %s\n", p.Catalog, p.Schema, p.Trigger, p.SessionTimeZone)
	if len(p.Parameters) > 0 {
		fmt.Fprintln(w, "parameters:")
		for _, pr := range p.Parameters {
			def := "(required)"
			if pr.Default != nil {
				def = "= " + pr.DefaultText()
				if pr.Type == StringParam {
					def = fmt.Sprintf("= %q", pr.DefaultText())
				}
			}
			fmt.Fprintf(w, "  %s %s %s\n", pr.Name, pr.Type, def)
		}
	}
	if len(p.Checks) > 0 {
		fmt.Fprintln(w, "checks:")
		for _, c := range p.Checks {
			fmt.Fprintf(w, "  %s\n", oneLine(c.Text))
		}
	}
	if len(p.Sources) > 0 {
		fmt.Fprintln(w, "sources:")
		for _, s := range p.Sources {
			s.Explain(w)
		}
	}
	if len(p.Views) > 0 {
		fmt.Fprintln(w, "temporary views:")
		for _, d := range p.Views {
			d.Explain(w)
		}
	}
	fmt.Fprintln(w, "tables, in update order:")
	for _, d := range p.Tables {
		d.Explain(w)
	}
}

func (t Trigger) String() string {
	switch t.Mode {
	case TriggerOnce:
		return "once"
	case TriggerInterval:
		return "every " + t.Interval.String()
	}
	return "available_now"
}

// Explain writes the source's description and columns.
func (s *Source) Explain(w io.Writer) {
	switch s.Kind {
	case FileSource:
		f := s.Files
		limits := fmt.Sprintf("at most %d files", f.MaxFilesPerTrigger)
		if f.MaxBytesPerTrigger > 0 {
			limits += fmt.Sprintf(" and %d bytes", f.MaxBytesPerTrigger)
		}
		malformed := "rescue"
		if f.OnMalformed == FailOnMalformed {
			malformed = "fail"
		}
		fmt.Fprintf(w, "  %s: %s files in %s (%s per micro-batch, malformed records: %s)\n", s.Name, f.Format, f.Path, limits, malformed)
	case TableSource:
		fmt.Fprintf(w, "  %s: table %s\n", s.Name, s.Table)
	}
	writeColumns(w, "    ", s.Columns)
}

// Explain writes the dataset's description: flows, inputs, schema and
// expectations.
func (d *Dataset) Explain(w io.Writer) {
	kind := strings.ReplaceAll(d.Kind.String(), "_", " ")
	if d.Kind == TemporaryView {
		fmt.Fprintf(w, "  %s %s reads %s\n", kind, d.Name, readsText(d.Reads))
	} else {
		fmt.Fprintf(w, "  %s %s -> %s\n", kind, d.Name, d.Table)
	}
	if c := d.Comment.String(); c != "" {
		fmt.Fprintf(w, "    comment: %s\n", oneLine(c))
	}
	for _, pr := range d.Properties {
		fmt.Fprintf(w, "    property %s = %s\n", pr.Key, pr.Value)
	}
	for _, f := range d.Flows {
		fmt.Fprintf(w, "    flow %s (%s) reads %s\n", f.Name, f.Kind, readsText(f.Reads))
		if a := f.AutoCDC; a != nil {
			fmt.Fprintf(w, "      keys %s, sequence_by %s (%s), scd type %d\n",
				strings.Join(indexedNames(a.SourceColumns, a.Keys), ", "), strings.Join(indexedNames(a.SourceColumns, a.SequenceBy), ", "), a.SequenceType, a.SCDType)
		}
		if st := f.Stateful; st != nil {
			fmt.Fprintf(w, "      stateful: %s, watermark %s of STREAM(%s) delayed %s\n", st.Kind, st.Stream.Watermark.Name, st.Stream.Name,
				time.Duration(st.Stream.Watermark.Delay)*time.Microsecond)
		}
	}
	if len(d.PartitionBy) > 0 {
		var names []string
		for _, i := range d.PartitionBy {
			names = append(names, d.Columns[i].Name)
		}
		fmt.Fprintf(w, "    partitioned by %s\n", strings.Join(names, ", "))
	}
	origin := "schema:"
	if d.Declared {
		origin = "schema (declared):"
	}
	fmt.Fprintf(w, "    %s\n", origin)
	writeColumns(w, "      ", d.Columns)
	if len(d.Expectations) > 0 {
		fmt.Fprintln(w, "    expectations:")
		for _, e := range d.Expectations {
			fmt.Fprintf(w, "      %s (%s): %s\n", e.Name, e.Action, oneLine(e.Text))
		}
	}
}

func indexedNames(cs []Column, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, cs[i].Name)
	}
	return out
}

func readsText(in []Input) string {
	if len(in) == 0 {
		return "nothing"
	}
	var parts []string
	for _, i := range in {
		switch {
		case i.ChangeFeed:
			parts = append(parts, "STREAM("+i.Name+") as its change data feed")
		case i.Streaming:
			parts = append(parts, "STREAM("+i.Name+")")
		default:
			parts = append(parts, i.Name)
		}
	}
	return strings.Join(parts, ", ")
}

func writeColumns(w io.Writer, indent string, cs []Column) {
	for _, c := range cs {
		extra := ""
		if !c.Nullable {
			extra += " NOT NULL"
		}
		if c.Hidden {
			extra += " (hidden)"
		}
		fmt.Fprintf(w, "%s%s %s%s\n", indent, c.Name, c.Type, extra)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
