package difftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/pipegen/pipegen/gen"
	"github.com/pipegen/pipegen/gen/gentest"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec"
	"github.com/pipegen/pipegen/spec/sql"
)

// entry is one query of the corpus.
type entry struct {
	// Name names the materialized view (q_<name>) and the DuckDB result.
	Name string `yaml:"name"`
	// SQL is the Spark SQL query pipegen compiles.
	SQL string `yaml:"sql"`
	// DuckDB, when set, is the query DuckDB runs instead of SQL, written
	// to compute Spark's answer where the dialects differ (Note says how).
	DuckDB string `yaml:"duckdb"`
	// Expect, when set, is Spark's result, one row per line as
	// parquetio.FormatRow prints it (timestamps in UTC); DuckDB is not run.
	Expect *string `yaml:"expect"`
	// Error, when set, lists texts the failure of the query's flow must
	// contain (ANSI errors); the query must fail.
	Error []string `yaml:"error"`
	// Note says how Spark (and so pipegen) differs from DuckDB here.
	Note string `yaml:"note"`
	file string
}

// sessionTimeZone is the corpus pipeline's session_time_zone (and
// DuckDB's TimeZone): a zone with daylight-saving changes, so that
// zone-less parsing and rendering are exercised.
const sessionTimeZone = "America/New_York"

// source is one input relation: files, format and Spark DDL schema. A
// relative path is under the run's base folder (--base-dir), so that the
// generated program, and its cached build, do not depend on it.
type source struct {
	name, path, format, schema string
}

// sources returns the corpus' inputs: the real data sets in the
// repository, and under the base folder the generated edge-case tables
// (edge/) and the stream-static inputs (stream/).
func sources() []source {
	root := gentest.RepoRoot()
	td := filepath.Join(root, "gen", "difftest", "testdata")
	return []source{
		{"customers", filepath.Join(root, "examples/jaffle_shop/data/raw_customers"), "csv", "id INT, first_name STRING, last_name STRING"},
		{"orders", filepath.Join(root, "examples/jaffle_shop/data/raw_orders"), "csv", "id INT, user_id INT, order_date DATE, status STRING"},
		{"payments", filepath.Join(root, "examples/jaffle_shop/data/raw_payments"), "csv", "id INT, order_id INT, payment_method STRING, amount INT"},
		{"retail", filepath.Join(root, "examples/retail/data/daily"), "csv",
			"InvoiceNo STRING, StockCode STRING, Description STRING, Quantity INT, InvoiceDate TIMESTAMP, UnitPrice DECIMAL(10,2), CustomerID DOUBLE, Country STRING"},
		{"flights", filepath.Join(td, "flights"), "json", "DEST_COUNTRY_NAME STRING, ORIGIN_COUNTRY_NAME STRING, count BIGINT"},
		{"events", filepath.Join(td, "events"), "json",
			"id STRING, type STRING, actor STRUCT<id: BIGINT, login: STRING>, repo STRUCT<id: BIGINT, name: STRING>, public BOOLEAN, created_at TIMESTAMP"},
		{"nums", "edge/nums", "json", "k INT, i INT, l BIGINT, d DOUBLE, dec DECIMAL(18,4), s STRING"},
		{"nothing", "edge/nothing", "json", "k INT, i INT, l BIGINT, d DOUBLE, dec DECIMAL(18,4), s STRING"},
		{"texts", "edge/texts", "json", "k INT, s STRING"},
		{"times", "edge/times", "json", "k INT, ts TIMESTAMP, d DATE"},
		{"s_orders", "stream/orders", "json", "id INT, customer INT, amount DECIMAL(10,2)"},
		{"s_customers", "stream/customers", "json", "id INT, name STRING"},
	}
}

// edgeTables are the generated edge-case inputs, as JSON lines.
var edgeTables = map[string][]string{
	"nums": {
		`{"k": 1, "i": 2147483647, "l": 9223372036854775807, "d": 1.5, "dec": 12345678901234.5678, "s": "10"}`,
		`{"k": 2, "i": -2147483648, "l": -9223372036854775808, "d": -0.0, "dec": -0.0001, "s": " 7 "}`,
		`{"k": 3, "i": 0, "l": 0, "d": 1e308, "dec": 0, "s": "abc"}`,
		`{"k": 4, "i": null, "l": null, "d": null, "dec": null, "s": null}`,
		`{"k": 5, "i": 7, "l": 3, "d": 2.5, "dec": 2.5, "s": "-3"}`,
		`{"k": 6, "i": -7, "l": -3, "d": -2.5, "dec": -2.5, "s": "1e3"}`,
		`{"k": 7, "i": 100, "l": 1000000, "d": 0.1, "dec": 0.1, "s": ""}`,
	},
	"nothing": {},
	"texts": {
		`{"k": 1, "s": "Straße"}`,
		`{"k": 2, "s": "ﬁne ﬂow"}`,
		`{"k": 3, "s": "日本語テキスト"}`,
		`{"k": 4, "s": "emoji 😀 end"}`,
		`{"k": 5, "s": "  padded  "}`,
		`{"k": 6, "s": ""}`,
		`{"k": 7, "s": null}`,
		`{"k": 8, "s": "a,b,,c"}`,
		`{"k": 9, "s": "MiXeD cAsE wOrDs"}`,
		`{"k": 10, "s": "Ünïcödé ÀÉÎ"}`,
	},
	// Around America/New_York's changes: 2024-03-10 02:00 EST → 03:00 EDT
	// and 2024-11-03 02:00 EDT → 01:00 EST. Zone-less text is local time.
	"times": {
		`{"k": 1, "ts": "2024-03-10 01:30:00", "d": "2024-03-10"}`,
		`{"k": 2, "ts": "2024-03-10 03:30:00", "d": "2024-03-11"}`,
		`{"k": 3, "ts": "2024-11-03 00:30:00", "d": "2024-11-03"}`,
		`{"k": 4, "ts": "2024-11-03 03:30:00", "d": "2024-11-04"}`,
		`{"k": 5, "ts": "2024-12-31 23:59:59.999999", "d": "2024-12-31"}`,
		`{"k": 6, "ts": "1969-12-31 23:59:59", "d": "1969-12-31"}`,
		`{"k": 7, "ts": "2024-02-29 12:00:00", "d": "2024-02-29"}`,
		`{"k": 8, "ts": "2024-06-01T12:00:00Z", "d": "2024-01-31"}`,
		`{"k": 9, "ts": null, "d": null}`,
	},
}

// TestCorpus compiles every corpus query into one program, runs it once,
// and compares each materialized view with DuckDB's answer or the
// expected Spark result.
func TestCorpus(t *testing.T) {
	entries := loadCorpus(t)
	base := t.TempDir()
	for name, lines := range edgeTables {
		dir := filepath.Join(base, "edge", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		data := strings.Join(lines, "\n")
		if data != "" {
			data += "\n"
		}
		if err := os.WriteFile(filepath.Join(dir, "part.json"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeStreamBatch(t, base, 1)
	srcs := sources()
	p, files := generate(t, pipelineSpec(srcs, entries))
	prog := gentest.Build(t, files)
	warehouse := t.TempDir()
	cmd := exec.Command(prog, "run", "--warehouse", warehouse, "--base-dir", base)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	runErr := cmd.Run()
	failures := flowFailures(stderr.String())
	expectFailure := false
	for _, e := range entries {
		expectFailure = expectFailure || len(e.Error) > 0
	}
	if runErr != nil && !expectFailure {
		t.Fatalf("run: %v\n%s", runErr, stderr.String())
	}
	duck := duckResults(t, base, srcs, entries)
	schemas := map[string]types.Schema{}
	for _, d := range p.Tables {
		schemas[d.Name] = columnsSchema(d.Columns)
	}
	for _, e := range entries {
		t.Run(e.Name, func(t *testing.T) {
			name := "q_" + e.Name
			if len(e.Error) > 0 {
				msg, failed := failures[name]
				if !failed {
					t.Fatalf("%s: the query must fail with %q but its flow did not fail", e.file, e.Error)
				}
				for _, want := range e.Error {
					if !strings.Contains(msg, want) {
						t.Errorf("%s: the failure does not say %q:\n%s", e.file, want, msg)
					}
				}
				return
			}
			if msg, failed := failures[name]; failed {
				t.Fatalf("%s: the flow failed:\n%s", e.file, msg)
			}
			schema := schemas[name]
			got := tableRows(t, filepath.Join(warehouse, "main", "corpus", name), schema)
			var want []string
			what := "DuckDB"
			if e.Expect != nil {
				what = "expected Spark result"
				for _, l := range strings.Split(*e.Expect, "\n") {
					if l = strings.TrimRight(l, "\r"); l != "" {
						want = append(want, l)
					}
				}
				slices.Sort(want)
			} else {
				r := duck[e.Name]
				if r.err != "" {
					t.Fatalf("%s: DuckDB failed: %s", e.file, r.err)
				}
				want = r.rows(t, schema)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: pipegen and the %s differ (%d vs %d rows)\nquery: %s\nonly pipegen:\n  %s\nonly %s:\n  %s",
					e.file, what, len(got), len(want), strings.TrimSpace(e.SQL),
					strings.Join(deltatest.Minus(got, want), "\n  "), what, strings.Join(deltatest.Minus(want, got), "\n  "))
			}
		})
	}
	t.Run("stream_static_join", func(t *testing.T) { checkStreamStatic(t, prog, base, warehouse, schemas) })
}

// streamStaticTable is a streaming table that joins a stream of orders
// with the snapshot of a customers source: Spark's stream-static join,
// whose static side is read again at each micro-batch.
const streamStaticTable = `  s_enriched:
    kind: streaming_table
    query: |
      SELECT o.id, o.amount, c.name
      FROM STREAM(s_orders) o LEFT JOIN s_customers c ON o.customer = c.id
`

// writeStreamBatch lands batch n of the stream-static inputs: new orders,
// and a customers file that adds a customer the new orders refer to.
func writeStreamBatch(t *testing.T, base string, n int) {
	t.Helper()
	files := map[string]string{
		fmt.Sprintf("stream/orders/%d.json", n): map[int]string{
			1: `{"id": 1, "customer": 10, "amount": 5.25}` + "\n" + `{"id": 2, "customer": 20, "amount": 7.00}` + "\n" + `{"id": 3, "customer": null, "amount": 1.00}` + "\n",
			2: `{"id": 4, "customer": 20, "amount": 2.50}` + "\n" + `{"id": 5, "customer": 10, "amount": 9.99}` + "\n",
		}[n],
		fmt.Sprintf("stream/customers/%d.json", n): map[int]string{
			1: `{"id": 10, "name": "Ada"}` + "\n",
			2: `{"id": 20, "name": "Grace"}` + "\n",
		}[n],
	}
	for name, data := range files {
		path := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkStreamStatic checks the stream-static join over two updates: the
// first batch's orders were joined with the customers known then (order 2
// found no customer 20), the second batch's with the customers known at
// that micro-batch (customer 20 has arrived); rows already written are
// not recomputed, as in Spark.
func checkStreamStatic(t *testing.T, prog, base, warehouse string, schemas map[string]types.Schema) {
	table := filepath.Join(warehouse, "main", "corpus", "s_enriched")
	want1 := []string{"1 | 5.25 | Ada", "2 | 7.00 | NULL", "3 | 1.00 | NULL"}
	if got := tableRows(t, table, schemas["s_enriched"]); !slices.Equal(got, want1) {
		t.Fatalf("after the first update: %q, want %q", got, want1)
	}
	writeStreamBatch(t, base, 2)
	cmd := exec.Command(prog, "run", "--warehouse", warehouse, "--base-dir", base, "--refresh", "s_enriched")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("second update: %v\n%s", err, out)
	}
	want2 := append(append([]string(nil), want1...), "4 | 2.50 | Grace", "5 | 9.99 | Ada")
	slices.Sort(want2)
	if got := tableRows(t, table, schemas["s_enriched"]); !slices.Equal(got, want2) {
		t.Errorf("after the second update: %q, want %q", got, want2)
	}
}

var namePattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// loadCorpus reads testdata/corpus/*.yaml and checks the entries' shape.
func loadCorpus(t *testing.T) []entry {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	var all []entry
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var es []entry
		if err := yaml.Unmarshal(data, &es); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, e := range es {
			e.file = filepath.Base(f) + ": " + e.Name
			switch {
			case !namePattern.MatchString(e.Name) || seen[e.Name]:
				t.Fatalf("%s: name %q is not a fresh lower-case identifier", f, e.Name)
			case strings.TrimSpace(e.SQL) == "":
				t.Fatalf("%s: no sql", e.file)
			case (e.DuckDB != "" || e.Expect != nil) && e.Note == "":
				t.Fatalf("%s: a duckdb query or an expected result needs a note saying how Spark differs", e.file)
			}
			seen[e.Name] = true
			all = append(all, e)
		}
	}
	return all
}

// pipelineSpec is the corpus pipeline: the sources and one materialized
// view per entry.
func pipelineSpec(srcs []source, entries []entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "pipeline: corpus\ncatalog: main\nschema: corpus\nsession_time_zone: %s\nsources:\n", sessionTimeZone)
	for _, s := range srcs {
		fmt.Fprintf(&b, "  %s:\n    files: {path: %q, format: %s}\n    schema: %q\n", s.name, s.path, s.format, s.schema)
	}
	b.WriteString("datasets:\n")
	b.WriteString(streamStaticTable)
	for _, e := range entries {
		fmt.Fprintf(&b, "  q_%s:\n    kind: materialized_view\n    query: |\n", e.Name)
		for _, l := range strings.Split(strings.TrimRight(e.SQL, "\n"), "\n") {
			b.WriteString("      " + l + "\n")
		}
	}
	return b.String()
}

func generate(t *testing.T, src string) (*spec.Pipeline, map[string][]byte) {
	t.Helper()
	p, diags := spec.LoadBytes(filepath.Join(t.TempDir(), "corpus.yaml"), []byte(src))
	if diags.HasErrors() {
		var b bytes.Buffer
		diags.Write(&b, spec.TextOutput, "")
		t.Fatalf("the corpus does not check:\n%s", b.String())
	}
	files, err := gen.Generate(p, gen.Options{Version: "test"})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	return p, files
}

// flowFailures maps each failed flow to its error text in the program's
// output (lines from "flow NAME:" up to the next flow's).
func flowFailures(out string) map[string]string {
	fails := map[string]string{}
	re := regexp.MustCompile(`(?m)^.*\bflow (q_[a-z0-9_]+)[^\n]*(?:FAILED|failed|: \[|error)`)
	for _, m := range re.FindAllStringSubmatchIndex(out, -1) {
		name := out[m[2]:m[3]]
		end := min(len(out), m[1]+2000)
		if next := strings.Index(out[m[1]:end], "\nflow "); next >= 0 {
			end = m[1] + next
		}
		fails[name] += out[m[0]:end] + "\n"
	}
	return fails
}

// tableRows reads a table's rows, rendered by render, sorted.
func tableRows(t *testing.T, table string, schema types.Schema) []string {
	t.Helper()
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := snap.ReadAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = render(r, schema)
	}
	slices.Sort(out)
	return out
}

// render prints a row as parquetio.FormatRow does, with DOUBLE and FLOAT
// values first rounded to 12 significant digits, so that the last bits of
// differently ordered floating-point sums do not count as differences.
func render(row []any, s types.Schema) string {
	out := make([]any, len(row))
	for i, v := range row {
		if i < len(s) {
			out[i] = roundFloats(v, s[i].Type)
		}
	}
	return parquetio.FormatRow(out, s)
}

func roundFloats(v any, t types.Type) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
			return math.Abs(x) * sign(x)
		}
		r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
		return r
	case float32:
		return float32(roundFloats(float64(x), t).(float64))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = roundFloats(e, *t.Elem)
		}
		return out
	case parquetio.Struct:
		out := make(parquetio.Struct, len(x))
		for i, e := range x {
			out[i] = roundFloats(e, t.Fields[i].Type)
		}
		return out
	}
	return v
}

// sign keeps NaN and ±Inf as they are and turns -0.0 into 0.0 (Spark
// shows both as 0.0 after a cast, and DuckDB's JSON has no -0.0).
func sign(x float64) float64 {
	if x == 0 {
		return 1
	}
	return math.Copysign(1, x)
}

func columnsSchema(cols []spec.Column) types.Schema {
	s := make(types.Schema, len(cols))
	for i, c := range cols {
		s[i] = types.Field{Name: c.Name, Type: c.Type, Nullable: c.Nullable}
	}
	return s
}

// duckResult is DuckDB's answer to one query: JSON rows or an error.
type duckResult struct {
	lines []string
	err   string
}

// rows converts DuckDB's JSON rows to the text form for the schema of the
// pipegen table (columns by position).
func (r duckResult) rows(t *testing.T, s types.Schema) []string {
	out := make([]string, 0, len(r.lines))
	for _, l := range r.lines {
		row, err := deltatest.RowValues(l, s)
		if err != nil {
			t.Fatalf("DuckDB row: %v", err)
		}
		out = append(out, render(row, s))
	}
	slices.Sort(out)
	return out
}

// duckResults runs every entry without an expected result through DuckDB
// in one node process.
func duckResults(t *testing.T, base string, srcs []source, entries []entry) map[string]duckResult {
	t.Helper()
	type query struct {
		Name string `json:"name"`
		SQL  string `json:"sql"`
	}
	batch := struct {
		TimeZone string   `json:"timezone"`
		Setup    []string `json:"setup"`
		Queries  []query  `json:"queries"`
	}{TimeZone: sessionTimeZone}
	for _, s := range srcs {
		if !filepath.IsAbs(s.path) {
			s.path = filepath.Join(base, s.path)
		}
		batch.Setup = append(batch.Setup, duckSetup(t, s))
	}
	for _, e := range entries {
		if e.Expect != nil || len(e.Error) > 0 {
			continue
		}
		q := e.SQL
		if e.DuckDB != "" {
			q = e.DuckDB
		}
		batch.Queries = append(batch.Queries, query{e.Name, strings.TrimRight(strings.TrimSpace(q), ";")})
	}
	data, err := json.Marshal(batch)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "batch.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(gentest.RepoRoot(), "runtime", "delta", "testdata", "duckdb")
	if _, err := os.Stat(filepath.Join(script, "node_modules", "@duckdb", "node-api")); err != nil {
		t.Fatalf("the corpus needs DuckDB's node modules: run `npm ci --prefix runtime/delta/testdata/duckdb` (%v)", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("the corpus needs node (Node.js 20 or later): %v", err)
	}
	cmd := exec.Command(node, filepath.Join(script, "corpus.mjs"), file)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("corpus.mjs: %v\n%s", err, stderr.String())
	}
	out := map[string]duckResult{}
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		if l == "" {
			continue
		}
		var r struct {
			Q     string `json:"q"`
			Row   string `json:"row"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("corpus.mjs printed %s: %v", l, err)
		}
		d := out[r.Q]
		if r.Error != "" {
			d.err = r.Error
		} else {
			d.lines = append(d.lines, r.Row)
		}
		out[r.Q] = d
	}
	return out
}

// duckSetup loads a source into a DuckDB table of the same name and
// types; TIMESTAMP columns are read as text and cast, so zone-less values
// are read in the session time zone as Spark does.
func duckSetup(t *testing.T, s source) string {
	t.Helper()
	sch, errs := sql.ParseSchema(s.schema)
	if len(errs) > 0 {
		t.Fatalf("schema of %s: %v", s.name, errs[0])
	}
	var cols, sel []string
	for _, f := range sch {
		cols = append(cols, fmt.Sprintf("'%s': '%s'", f.Name, duckType(f.Type, true)))
		switch f.Type.Kind {
		case types.TimestampKind:
			sel = append(sel, fmt.Sprintf("CAST(%q AS TIMESTAMPTZ) AS %q", f.Name, f.Name))
		case types.DecimalKind:
			sel = append(sel, fmt.Sprintf("CAST(%q AS %s) AS %q", f.Name, duckType(f.Type, false), f.Name))
		default:
			sel = append(sel, fmt.Sprintf("%q", f.Name))
		}
	}
	glob := filepath.Join(s.path, "*")
	var read string
	if s.format == "csv" {
		read = fmt.Sprintf("read_csv('%s', header = true, auto_detect = false, columns = {%s})", glob, strings.Join(cols, ", "))
	} else {
		read = fmt.Sprintf("read_json('%s', format = 'newline_delimited', columns = {%s})", glob, strings.Join(cols, ", "))
	}
	return fmt.Sprintf("CREATE TABLE %s AS SELECT %s FROM %s", s.name, strings.Join(sel, ", "), read)
}

// duckType is the DuckDB type of a Spark type (TIMESTAMP read as VARCHAR
// at the top level, see duckSetup).
func duckType(t types.Type, top bool) string {
	switch t.Kind {
	case types.StringKind:
		return "VARCHAR"
	case types.IntKind:
		return "INTEGER"
	case types.LongKind:
		return "BIGINT"
	case types.DoubleKind:
		return "DOUBLE"
	case types.BooleanKind:
		return "BOOLEAN"
	case types.DateKind:
		return "DATE"
	case types.DecimalKind:
		if top {
			return "VARCHAR" // read as text, then cast: DuckDB reads JSON numbers as DOUBLE
		}
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale)
	case types.TimestampKind:
		if top {
			return "VARCHAR"
		}
		return "TIMESTAMPTZ"
	case types.StructKind:
		var fs []string
		for _, f := range t.Fields {
			fs = append(fs, fmt.Sprintf("%q %s", f.Name, duckType(f.Type, false)))
		}
		return "STRUCT(" + strings.Join(fs, ", ") + ")"
	case types.ArrayKind:
		return duckType(*t.Elem, false) + "[]"
	}
	return t.String()
}
