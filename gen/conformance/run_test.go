package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/gen"
	"github.com/pipegen/pipegen/gen/gentest"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec"
)

// outcome is what pipegen did with one query, before it is compared with
// Spark's answer.
type outcome struct {
	// Rejected holds validate's diagnostics (spec check, or gen's
	// UnsupportedError) when pipegen refused the query.
	Rejected string
	// Codes are the error classes pipegen named (diagnostic codes, or
	// [CLASS] in a run-time error).
	Codes []string
	// Crash says how pipegen broke on a query validate accepted: a panic
	// in gen, Go that does not compile, a program that panicked, hung or
	// exited 2, a table that cannot be read back.
	Crash string
	// RunError is the error of the query's flow when it failed cleanly.
	RunError string
	// Rows are the table's rows rendered as Spark prints them.
	Rows []string
}

// pipelineName, catalog and schema of every conformance pipeline.
const pipelineName, catalogName, schemaName = "conformance", "main", "conformance"

// mvName is the materialized view of query i of a batch.
func mvName(q *query) string { return fmt.Sprintf("q%04d", q.Block.Index) }

// specText is a pipeline of the views (temporary views) and one
// materialized view per query.
func specText(views []*view, qs []*query) string {
	var b strings.Builder
	fmt.Fprintf(&b, "pipeline: %s\ncatalog: %s\nschema: %s\nsession_time_zone: America/Los_Angeles\ndatasets:\n", pipelineName, catalogName, schemaName)
	block := func(name, kind, sqlText string) {
		fmt.Fprintf(&b, "  %s:\n    kind: %s\n    query: |-\n", name, kind)
		for _, l := range strings.Split(sqlText, "\n") {
			b.WriteString("      " + strings.TrimRight(l, " \t") + "\n")
		}
	}
	for _, v := range views {
		block(v.Name, "temporary_view", v.SQL)
	}
	for _, q := range qs {
		block(mvName(q), "materialized_view", q.SQL())
	}
	return b.String()
}

// load checks a spec and generates its program, as `pipegen validate`
// does: diagnostics or gen's UnsupportedError are a rejection; an internal
// error of gen (UnsupportedError.Internal: a construct the check accepted
// that gen cannot compile), any other error or a panic is returned as
// crash.
func load(src string) (p *spec.Pipeline, files map[string][]byte, rejected string, codes []string, crash string) {
	defer func() {
		if r := recover(); r != nil {
			crash = fmt.Sprintf("panic in spec/gen: %v\n%s", r, firstLines(string(debug.Stack()), 12))
		}
	}()
	p, diags := spec.LoadBytes("conformance.yaml", []byte(src))
	if p == nil || diags.HasErrors() {
		var b bytes.Buffer
		for _, d := range diags {
			if d.Severity == spec.Error {
				b.WriteString(d.String() + "\n")
				codes = append(codes, d.Code)
			}
		}
		return nil, nil, b.String(), codes, ""
	}
	files, err := gen.Generate(p, gen.Options{Version: "conformance"})
	var ue *gen.UnsupportedError
	switch {
	case errors.As(err, &ue) && ue.Internal == "":
		return nil, nil, "gen: " + err.Error(), []string{"UNSUPPORTED_FEATURE"}, ""
	case err != nil:
		return nil, nil, "", nil, "gen failed: " + err.Error()
	}
	return p, files, "", nil, ""
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// runFile evaluates the queries of one golden file: each is validated on
// its own (with the views it reads), the accepted ones are compiled into
// as few programs as the views' redefinitions allow, each program runs
// one update, and each materialized view is read back.
func runFile(t *testing.T, qs []*query) map[*query]*outcome {
	out := map[*query]*outcome{}
	var accepted []*query
	for _, q := range qs {
		if q.Skip != "" {
			continue
		}
		o := &outcome{}
		out[q] = o
		_, _, o.Rejected, o.Codes, o.Crash = load(specText(q.Views, []*query{q}))
		if slices.Contains(o.Codes, "COLUMN_ALREADY_EXISTS") {
			// Spark may return columns of the same name; a table, which
			// a materialized view is, cannot hold them, in Spark either.
			// Rows are compared by position: the query runs again with
			// its columns renamed c1..cn, n from Spark's rows.
			if q.Ordered || len(q.Block.Rows) == 0 {
				q.Skip = "its result has two columns of the same name, which no table can hold"
				delete(out, q)
				continue
			}
			q.Columns = strings.Count(q.Block.Rows[0], "\t") + 1
			*o = outcome{}
			_, _, o.Rejected, o.Codes, o.Crash = load(specText(q.Views, []*query{q}))
		}
		if slices.Contains(o.Codes, "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE") {
			// Interval columns, which no table holds: run the query
			// with them cast to STRING (see query.Intervals).
			if ts := intervalColumns(q); ts != nil {
				q.Columns, q.Intervals = len(ts), ts
				*o = outcome{}
				_, _, o.Rejected, o.Codes, o.Crash = load(specText(q.Views, []*query{q}))
			}
		}
		if o.Rejected == "" && o.Crash == "" {
			accepted = append(accepted, q)
		}
	}
	for _, batch := range batches(accepted) {
		runBatch(t, batch, out)
	}
	return out
}

// batches groups queries in order so that within a group every view name
// has one definition.
func batches(qs []*query) [][]*query {
	var out [][]*query
	var cur []*query
	defs := map[string]*view{}
	for _, q := range qs {
		conflict := false
		for _, v := range q.Views {
			if d, ok := defs[strings.ToLower(v.Name)]; ok && d != v {
				conflict = true
			}
		}
		if conflict {
			out, cur = append(out, cur), nil
			clear(defs)
		}
		for _, v := range q.Views {
			defs[strings.ToLower(v.Name)] = v
		}
		cur = append(cur, q)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func batchViews(qs []*query) []*view {
	var vs []*view
	for _, q := range qs {
		for _, v := range q.Views {
			if !slices.Contains(vs, v) {
				vs = append(vs, v)
			}
		}
	}
	return vs
}

// runBatch compiles the queries into one program and runs it. Queries
// whose code does not compile are marked as crashes (the compiler's
// errors are attributed to flows by the generated functions they fall
// in) and the rest is compiled again.
func runBatch(t *testing.T, qs []*query, out map[*query]*outcome) {
	for len(qs) > 0 {
		p, files, rejected, _, crash := load(specText(batchViews(qs), qs))
		if rejected != "" || crash != "" {
			// Each query passed alone: the batch fails only through an
			// interaction; run the queries one by one.
			if len(qs) == 1 {
				out[qs[0]].Crash = "accepted alone, then failed: " + rejected + crash
				return
			}
			for _, q := range qs {
				runBatch(t, []*query{q}, out)
			}
			return
		}
		prog, err := gentest.TryBuild(t, files)
		var be *gentest.BuildError
		if errors.As(err, &be) {
			bad := attributeCompileErrors(files, be.Output, qs)
			if len(bad) == 0 {
				bad = qs // not attributable: all of them
			}
			for _, q := range bad {
				out[q].Crash = "generated Go does not compile:\n" + compileErrorsOf(be.Output, mvName(q), files)
			}
			qs = slices.DeleteFunc(slices.Clone(qs), func(q *query) bool { return slices.Contains(bad, q) })
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		runProgram(t, prog, p, qs, out)
		return
	}
}

var compileErrorLine = regexp.MustCompile(`(?m)^\./([^/\s:]+\.go):(\d+):\d+: `)

var declLine = regexp.MustCompile(`^(?:func|type) (?:run|shred|assemble)?([A-Za-z0-9_]+)`)

// attributeCompileErrors returns the queries whose generated declarations
// (runQ0001, Q0001Row, shredQ0001...) hold a compiler error.
func attributeCompileErrors(files map[string][]byte, output string, qs []*query) []*query {
	var bad []*query
	for _, m := range compileErrorLine.FindAllStringSubmatch(output, -1) {
		q := queryAtLine(files[m[1]], atoi(m[2]), qs)
		if q != nil && !slices.Contains(bad, q) {
			bad = append(bad, q)
		}
	}
	return bad
}

func queryAtLine(src []byte, line int, qs []*query) *query {
	lines := strings.Split(string(src), "\n")
	for i := min(line, len(lines)) - 1; i >= 0; i-- {
		m := declLine.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		for _, q := range qs {
			if strings.HasPrefix(m[1], "Q"+mvName(q)[1:]) {
				return q
			}
		}
		return nil
	}
	return nil
}

// compileErrorsOf returns the compiler's lines about the query's code.
func compileErrorsOf(output, name string, files map[string][]byte) string {
	var b strings.Builder
	for _, l := range strings.Split(output, "\n") {
		m := compileErrorLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		lines := strings.Split(string(files[m[1]]), "\n")
		for i := min(atoi(m[2]), len(lines)) - 1; i >= 0; i-- {
			if d := declLine.FindStringSubmatch(lines[i]); d != nil {
				if strings.HasPrefix(d[1], "Q"+name[1:]) {
					b.WriteString(l + "\n")
				}
				break
			}
		}
	}
	if b.Len() == 0 {
		return firstLines(output, 10)
	}
	return b.String()
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// runTimeout bounds one update of a conformance program.
const runTimeout = 2 * time.Minute

// runProgram runs one update of the program and reads each query's
// table. When the program dies (panic, exit 2, timeout) before some flows
// end, those run again in halves (--refresh), down to the one flow that
// dies, so that a crash is charged to its query only.
func runProgram(t *testing.T, prog string, p *spec.Pipeline, qs []*query, out map[*query]*outcome) {
	warehouse := t.TempDir()
	status := map[string]flowStatus{}
	crashes := map[string]string{}
	var isolate func(names []string, refresh bool)
	isolate = func(names []string, refresh bool) {
		var sel []string
		if refresh {
			sel = names
		}
		st, crash, output := runUpdate(prog, warehouse, sel)
		var undone []string
		for _, n := range names {
			if s, ok := st[n]; ok {
				status[n] = s
			} else {
				undone = append(undone, n)
			}
		}
		switch {
		case len(undone) == 0:
		case crash == "":
			for _, n := range undone {
				crashes[n] = "the update ended without the flow's status:\n" + lastLines(output, 12)
			}
		case len(undone) == 1:
			crashes[undone[0]] = crash
		default:
			isolate(undone[:len(undone)/2], true)
			isolate(undone[len(undone)/2:], true)
		}
	}
	names := make([]string, len(qs))
	for i, q := range qs {
		names[i] = mvName(q)
	}
	isolate(names, false)
	for _, q := range qs {
		o, name := out[q], mvName(q)
		st := status[name]
		switch {
		case crashes[name] != "":
			o.Crash = crashes[name]
		case st.failed:
			o.RunError = st.message
			o.Codes = append(o.Codes, errorClasses(st.message)...)
		default:
			rows, err := readTable(p, warehouse, name, q.Intervals)
			if err != nil {
				o.Crash = "reading the table back: " + err.Error()
			} else {
				o.Rows = rows
			}
		}
	}
}

// flowStatus is a flow's last status in the event log.
type flowStatus struct {
	failed  bool
	message string
}

// runUpdate runs one update (of only the tables in refresh, when given) and
// returns each flow's final status from the event log, and a crash
// description when the program panicked, hung or exited 2.
func runUpdate(prog, warehouse string, refresh []string) (status map[string]flowStatus, crash, output string) {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	args := []string{"run", "--warehouse", warehouse}
	if len(refresh) > 0 {
		args = append(args, "--refresh", strings.Join(refresh, ","))
	}
	cmd := exec.CommandContext(ctx, prog, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		crash = fmt.Sprintf("the update did not end within %s", runTimeout)
	case strings.Contains(stderr.String(), "panic:") || strings.Contains(stderr.String(), "fatal error:"):
		crash = "the program panicked:\n" + firstLines(stderr.String()[max(0, strings.Index(stderr.String(), "panic:")):], 12)
	case errors.As(err, &ee) && ee.ExitCode() == 2:
		crash = "the program exited 2:\n" + firstLines(stderr.String(), 12)
	case err != nil && !errors.As(err, &ee):
		crash = "the program did not start: " + err.Error()
	}
	return eventStatus(filepath.Join(warehouse, "_pipelines", pipelineName, "event_log")), crash, stderr.String()
}

// eventStatus reads the flows' last flow_progress status of the event
// logs under dir (one file per update; later updates win).
func eventStatus(dir string) map[string]flowStatus {
	out := map[string]flowStatus{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	slices.Sort(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			var ev struct {
				EventType string `json:"event_type"`
				Message   string `json:"message"`
				Origin    struct {
					Flow string `json:"flow_name"`
				} `json:"origin"`
				Details struct {
					FlowProgress struct {
						Status string `json:"status"`
					} `json:"flow_progress"`
				} `json:"details"`
				Error *struct {
					Exceptions []map[string]string `json:"exceptions"`
				} `json:"error"`
			}
			if json.Unmarshal(line, &ev) != nil || ev.EventType != "flow_progress" {
				continue
			}
			switch ev.Details.FlowProgress.Status {
			case "COMPLETED":
				out[ev.Origin.Flow] = flowStatus{}
			case "FAILED":
				msg := ev.Message
				if ev.Error != nil {
					for _, e := range ev.Error.Exceptions {
						msg += "\n" + e["message"]
					}
				}
				out[ev.Origin.Flow] = flowStatus{failed: true, message: msg}
			}
		}
	}
	return out
}

var errorClassInText = regexp.MustCompile(`\[([A-Z][A-Z0-9_]+(?:\.[A-Z0-9_]+)?)\]`)

func errorClasses(msg string) []string {
	var out []string
	for _, m := range errorClassInText.FindAllStringSubmatch(msg, -1) {
		out = append(out, m[1])
	}
	return out
}

// readTable reads a materialized view's rows, rendered as Spark prints
// them, in the table's order.
func readTable(p *spec.Pipeline, warehouse, name string, intervals []types.Type) ([]string, error) {
	var schema types.Schema
	for _, d := range p.Tables {
		if d.Name == name {
			for i, c := range d.Columns {
				t := c.Type
				if i < len(intervals) && intervals[i].Kind != types.InvalidKind {
					t = intervals[i] // the text of the intervals, rendered as renderValue does
				}
				schema = append(schema, types.Field{Name: c.Name, Type: t, Nullable: c.Nullable})
			}
		}
	}
	snap, err := delta.Load(filepath.Join(warehouse, catalogName, schemaName, name))
	if err != nil {
		return nil, err
	}
	rows, err := snap.ReadAll(nil)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = renderRow(r, schema)
	}
	return out, nil
}
