package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/spec"
)

func graphCommand() *cli.Command {
	return &cli.Command{
		Name:      "graph",
		Usage:     "print the lineage of a spec's sources, datasets and flows",
		ArgsUsage: "FILE",
		Description: "Prints the graph as a Mermaid flowchart (default), a Graphviz dot digraph or JSON.\n" +
			"Nodes are sources, tables and views; an edge goes from what a flow or view reads to\n" +
			"what it writes, labeled with the flow's name when it differs from the table's; batch\n" +
			"reads are dashed.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Value: "mermaid", Usage: "mermaid, dot or json"},
		}, locationFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("graph: give one spec file")
			}
			switch c.String("format") {
			case "mermaid", "dot", "json":
			default:
				return usagef("graph: unknown --format %q: use mermaid, dot or json", c.String("format"))
			}
			return exitError{Graph(c.App.Writer, c.App.ErrWriter, c.Args().First(), c.String("format"), locationsOf(c))}
		},
	}
}

// Lineage is the graph `pipegen graph` prints.
type Lineage struct {
	Pipeline string        `json:"pipeline"`
	Nodes    []LineageNode `json:"nodes"`
	Edges    []LineageEdge `json:"edges"`
}

// LineageNode is a source, table or view. Kind is "source",
// "streaming_table", "materialized_view" or "temporary_view".
type LineageNode struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// LineageEdge is one read: From is read by Flow (empty for a view) into To.
type LineageEdge struct {
	From      string `json:"from"`
	To        string `json:"to"`
	Flow      string `json:"flow,omitempty"`
	Streaming bool   `json:"streaming"`
}

// BuildLineage returns p's lineage graph, nodes in spec/update order.
func BuildLineage(p *spec.Pipeline) Lineage {
	l := Lineage{Pipeline: p.Name, Nodes: []LineageNode{}, Edges: []LineageEdge{}}
	for _, s := range p.Sources {
		l.Nodes = append(l.Nodes, LineageNode{s.Name, "source"})
	}
	for _, d := range p.Views {
		l.Nodes = append(l.Nodes, LineageNode{d.Name, d.Kind.String()})
		for _, in := range d.Reads {
			l.Edges = append(l.Edges, LineageEdge{From: in.Name, To: d.Name, Streaming: in.Streaming})
		}
	}
	for _, d := range p.Tables {
		l.Nodes = append(l.Nodes, LineageNode{d.Name, d.Kind.String()})
		for _, f := range d.Flows {
			reads := f.Reads
			if f.AutoCDC != nil {
				reads = []spec.Input{f.AutoCDC.Source}
			}
			for _, in := range reads {
				l.Edges = append(l.Edges, LineageEdge{From: in.Name, To: d.Name, Flow: f.Name, Streaming: in.Streaming})
			}
		}
	}
	return l
}

// Graph checks the spec at file and writes its lineage in format (mermaid,
// dot or json) to stdout, or its diagnostics to stderr (table sources and
// schema logs looked up at loc). It returns the exit code.
func Graph(stdout, stderr io.Writer, file, format string, loc locations) int {
	p, diags := spec.LoadWith(file, loc.specOptions())
	cwd, _ := os.Getwd()
	diags.Write(stderr, spec.TextOutput, cwd)
	if p == nil {
		return exitDiagnostics
	}
	l := BuildLineage(p)
	switch format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(l)
	case "dot":
		writeDot(stdout, l)
	default:
		writeMermaid(stdout, l)
	}
	return exitOK
}

func edgeLabel(e LineageEdge) string {
	if e.Flow != "" && e.Flow != e.To {
		return e.Flow
	}
	return ""
}

func writeMermaid(w io.Writer, l Lineage) {
	fmt.Fprintln(w, "flowchart LR")
	for _, n := range l.Nodes {
		id := "n_" + n.Name
		switch n.Kind {
		case "source":
			fmt.Fprintf(w, "  %s[(%s)]\n", id, n.Name)
		case "materialized_view":
			fmt.Fprintf(w, "  %s(%s)\n", id, n.Name)
		case "temporary_view":
			fmt.Fprintf(w, "  %s[/%s/]\n", id, n.Name)
		default:
			fmt.Fprintf(w, "  %s[%s]\n", id, n.Name)
		}
	}
	for _, e := range l.Edges {
		arrow := "-.->"
		if e.Streaming {
			arrow = "-->"
		}
		label := ""
		if s := edgeLabel(e); s != "" {
			label = "|" + s + "|"
		}
		fmt.Fprintf(w, "  n_%s %s%s n_%s\n", e.From, arrow, label, e.To)
	}
}

func writeDot(w io.Writer, l Lineage) {
	fmt.Fprintf(w, "digraph %q {\n  rankdir=LR;\n", l.Pipeline)
	shapes := map[string]string{"source": "cylinder", "streaming_table": "box", "materialized_view": "box3d", "temporary_view": "parallelogram"}
	for _, n := range l.Nodes {
		fmt.Fprintf(w, "  %q [shape=%s];\n", n.Name, shapes[n.Kind])
	}
	for _, e := range l.Edges {
		var attrs []string
		if !e.Streaming {
			attrs = append(attrs, "style=dashed")
		}
		if s := edgeLabel(e); s != "" {
			attrs = append(attrs, fmt.Sprintf("label=%q", s))
		}
		a := ""
		if len(attrs) > 0 {
			a = " [" + strings.Join(attrs, ", ") + "]"
		}
		fmt.Fprintf(w, "  %q -> %q%s;\n", e.From, e.To, a)
	}
	fmt.Fprintln(w, "}")
}
