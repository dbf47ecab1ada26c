package main

// The pipeline test files of `pipegen test` (docs/test.md): their YAML
// shape, where they are found, and how they are read. The shape follows
// dbt 1.8's unit tests (`unit_tests:` of `name`, `given` inputs with
// `rows`, `format` and a fixture file, `expect`) and adds what a pipeline
// needs: a sequence of `updates`, each with its own new source rows and the
// expected rows of any of the pipeline's tables after it.

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/pipegen/pipegen/spec"
)

// testFileDoc is one test file as written.
type testFileDoc struct {
	UnitTests []testCaseDoc `yaml:"unit_tests"`
}

// testCaseDoc is one test: either given/expect (one update) or updates.
type testCaseDoc struct {
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Params      map[string]string `yaml:"params"`
	Given       []givenDoc        `yaml:"given"`
	Expect      []expectDoc       `yaml:"expect"`
	Error       string            `yaml:"error"`
	Updates     []updateDoc       `yaml:"updates"`
	line        int
}

// updateDoc is one update of a test: the source rows that arrive before it,
// and what must hold after it.
type updateDoc struct {
	Given       []givenDoc  `yaml:"given"`
	Expect      []expectDoc `yaml:"expect"`
	FullRefresh []string    `yaml:"full_refresh"`
	Error       string      `yaml:"error"`
}

// givenDoc is the new data of one source in one update.
type givenDoc struct {
	Input   string    `yaml:"input"`
	Rows    yaml.Node `yaml:"rows"`
	Format  string    `yaml:"format"`
	File    string    `yaml:"file"`
	Fixture string    `yaml:"fixture"`
}

// expectDoc is the expected content of one table after an update.
type expectDoc struct {
	Dataset string    `yaml:"dataset"`
	Rows    yaml.Node `yaml:"rows"`
	Format  string    `yaml:"format"`
	File    string    `yaml:"file"`
	Fixture string    `yaml:"fixture"`
	Ordered bool      `yaml:"ordered"`
}

// pipelineTest is a test ready to run.
type pipelineTest struct {
	Name, Description string
	// File and Line locate the test in its file.
	File    string
	Line    int
	Params  map[string]string
	Updates []testUpdate
}

// testUpdate is one update of a test.
type testUpdate struct {
	// Line is the update's line in the test file (the test's, for a test
	// of one update).
	Line        int
	Given       []testInput
	Expect      []testExpect
	FullRefresh []string
	// Error, when set, is text the failed update's stderr must contain:
	// the update must fail.
	Error string
}

// testInput is one source's new data: rows (column name to value) or a
// file copied into the source's folder as it is.
type testInput struct {
	Line   int // of the given entry in the test file
	Source string
	Rows   []map[string]any
	File   string
}

// testExpect is the expected content of one table.
type testExpect struct {
	Line    int // of the expect entry in the test file
	Dataset string
	Rows    []map[string]any
	// Columns are the columns compared: every column named in Rows, in the
	// order first named.
	Columns []string
	Ordered bool
}

// testFiles returns the test files of the spec at file: <stem>.tests.yaml
// (or .yml) beside it and every *.tests.yaml or *.tests.yml under the
// tests/ folder beside it, sorted.
func testFiles(file string) ([]string, error) {
	dir := filepath.Dir(file)
	stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	var out []string
	for _, ext := range []string{".tests.yaml", ".tests.yml"} {
		p := filepath.Join(dir, stem+ext)
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	err := filepath.WalkDir(filepath.Join(dir, "tests"), func(p string, d os.DirEntry, err error) error {
		if errors.Is(err, os.ErrNotExist) {
			return filepath.SkipAll
		}
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".tests.yaml") || strings.HasSuffix(p, ".tests.yml")) {
			out = append(out, p)
		}
		return nil
	})
	return out, err // WalkDir walks in lexical order
}

// loadTestFile reads the tests of one file. Errors name the file and line.
// Fixture paths (file:, fixture:) are relative to the test file's folder;
// fixture: NAME is fixtures/NAME.* there, as dbt's tests/fixtures.
func loadTestFile(path string) ([]*pipelineTest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		line, col, msg, hint := spec.YAMLSyntaxError(data, err)
		if hint != "" {
			msg += " (" + hint + ")"
		}
		return nil, fmt.Errorf("%s:%d:%d: invalid YAML: %s", path, line, col, msg)
	}
	var doc testFileDoc
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n  "))
	}
	var root0 *yaml.Node
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root0 = root.Content[0]
	}
	nodes := seqItems(mapValue(root0, "unit_tests"))
	var out []*pipelineTest
	seen := map[string]int{}
	for i, tc := range doc.UnitTests {
		tn := &yaml.Node{Line: 1}
		if i < len(nodes) {
			tn = nodes[i]
		}
		tc.line = tn.Line
		at := fmt.Sprintf("%s:%d", path, tc.line)
		if tc.Name == "" {
			return nil, fmt.Errorf("%s: unit test without a name: give each test a name", at)
		}
		if l, dup := seen[tc.Name]; dup {
			return nil, fmt.Errorf("%s: unit test %q is already defined at line %d", at, tc.Name, l)
		}
		seen[tc.Name] = tc.line
		t := &pipelineTest{Name: tc.Name, Description: tc.Description, File: path, Line: tc.line, Params: tc.Params}
		updates := tc.Updates
		switch {
		case len(updates) > 0 && (len(tc.Given) > 0 || len(tc.Expect) > 0 || tc.Error != ""):
			return nil, fmt.Errorf("%s: unit test %q has both updates and given/expect: put every update's given and expect under updates", at, tc.Name)
		}
		unodes := seqItems(mapValue(tn, "updates"))
		if len(updates) == 0 {
			updates = []updateDoc{{Given: tc.Given, Expect: tc.Expect, Error: tc.Error}}
			unodes = []*yaml.Node{tn}
		}
		for j, ud := range updates {
			un := tn
			if j < len(unodes) {
				un = unodes[j]
			}
			u, err := resolveUpdate(path, ud, un)
			if err != nil {
				return nil, fmt.Errorf("%s: unit test %q, update %d: %v", at, tc.Name, j+1, err)
			}
			t.Updates = append(t.Updates, u)
		}
		if last := t.Updates[len(t.Updates)-1]; len(last.Expect) == 0 && last.Error == "" {
			return nil, fmt.Errorf("%s: unit test %q expects nothing after its last update: give expect (the rows of a table) or error", at, tc.Name)
		}
		out = append(out, t)
	}
	return out, nil
}

// mapValue returns the value of key in the mapping m, or nil.
func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// seqItems returns the entries of the sequence n, or nil.
func seqItems(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// itemLine returns the line of entry i of the sequence under key in n, or
// n's own line.
func itemLine(n *yaml.Node, key string, i int) int {
	if items := seqItems(mapValue(n, key)); i < len(items) {
		return items[i].Line
	}
	return n.Line
}

// resolveUpdate checks one update of a test and reads its rows; n is its
// YAML node, for the lines of its entries.
func resolveUpdate(path string, ud updateDoc, n *yaml.Node) (testUpdate, error) {
	u := testUpdate{Line: n.Line, FullRefresh: ud.FullRefresh, Error: ud.Error}
	for k, g := range ud.Given {
		if g.Input == "" {
			return u, fmt.Errorf("line %d: given without input: name the source (input: NAME)", g.Rows.Line)
		}
		in := testInput{Line: itemLine(n, "given", k), Source: strings.TrimSuffix(strings.TrimPrefix(g.Input, "source('"), "')")}
		file := fixturePath(path, g.File, g.Fixture)
		switch {
		case file != "" && g.Rows.Kind != 0:
			return u, fmt.Errorf("input %s: give rows or a file, not both", g.Input)
		case file != "" && g.Format == "":
			in.File = file
		default:
			rows, err := readRows(path, g.Rows, g.Format, file)
			if err != nil {
				return u, fmt.Errorf("input %s: %v", g.Input, err)
			}
			in.Rows = rows
		}
		u.Given = append(u.Given, in)
	}
	for k, e := range ud.Expect {
		if e.Dataset == "" {
			return u, fmt.Errorf("expect without dataset: name the table (dataset: NAME)")
		}
		rows, err := readRows(path, e.Rows, e.Format, fixturePath(path, e.File, e.Fixture))
		if err != nil {
			return u, fmt.Errorf("expect %s: %v", e.Dataset, err)
		}
		x := testExpect{Line: itemLine(n, "expect", k), Dataset: e.Dataset, Rows: rows, Ordered: e.Ordered}
		seen := map[string]bool{}
		for _, r := range rows {
			for _, c := range rowKeys(r) {
				if !seen[c] {
					seen[c] = true
					x.Columns = append(x.Columns, c)
				}
			}
		}
		u.Expect = append(u.Expect, x)
	}
	return u, nil
}

// fixturePath resolves file: (relative to the test file) or fixture: NAME
// (the one file fixtures/NAME.* beside the test file).
func fixturePath(testFile, file, fixture string) string {
	dir := filepath.Dir(testFile)
	if file != "" {
		if filepath.IsAbs(file) {
			return file
		}
		return filepath.Join(dir, file)
	}
	if fixture != "" {
		m, _ := filepath.Glob(filepath.Join(dir, "fixtures", fixture+".*"))
		if len(m) == 1 {
			return m[0]
		}
		return filepath.Join(dir, "fixtures", fixture)
	}
	return ""
}

// readRows reads rows written inline (format dict, the default: a list of
// mappings; format csv: a CSV text with a header) or from a file (format
// csv, or json: JSON lines). Values stay as written: nil for NULL, a
// string for a scalar, []any and map[string]any for nested values.
func readRows(testFile string, n yaml.Node, format, file string) ([]map[string]any, error) {
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		if format == "" {
			format = strings.TrimPrefix(filepath.Ext(file), ".")
		}
		switch format {
		case "csv":
			return csvRows(string(data))
		case "json", "jsonl", "ndjson":
			return jsonRows(file, data)
		}
		return nil, fmt.Errorf("%s: format %q: rows come from csv or json (JSON lines) files", file, format)
	}
	switch format {
	case "", "dict":
		if n.Kind == 0 {
			return nil, nil
		}
		if n.Kind != yaml.SequenceNode {
			return nil, fmt.Errorf("line %d: rows: want a list of rows ({column: value, ...}), or format: csv with a CSV text", n.Line)
		}
		var out []map[string]any
		for _, r := range n.Content {
			if r.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("line %d: a row is a mapping of column names to values", r.Line)
			}
			out = append(out, yamlValue(r).(map[string]any))
		}
		return out, nil
	case "csv":
		if n.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: format csv: rows is a CSV text with a header line", n.Line)
		}
		return csvRows(n.Value)
	}
	return nil, fmt.Errorf("format %q: want dict (the default) or csv", format)
}

// yamlValue is a YAML node as a row value (see readRows).
func yamlValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.AliasNode:
		return yamlValue(n.Alias)
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			out[i] = yamlValue(c)
		}
		return out
	case yaml.MappingNode:
		out := map[string]any{}
		keys := []string{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			out[n.Content[i].Value] = yamlValue(n.Content[i+1])
			keys = append(keys, n.Content[i].Value)
		}
		out[keyOrder] = keys
		return out
	}
	if n.Tag == "!!null" {
		return nil
	}
	return scalar{text: n.Value, bare: n.Style == 0 && (n.Tag == "!!int" || n.Tag == "!!float" || n.Tag == "!!bool")}
}

// scalar is a value as written; bare when YAML read it as a plain
// number or boolean (a JSON file gets it unquoted).
type scalar struct {
	text string
	bare bool
}

// keyOrder is the key under which a row keeps its columns' order.
const keyOrder = "\x00order"

// rowKeys returns a row's columns in the order written.
func rowKeys(r map[string]any) []string {
	if k, ok := r[keyOrder].([]string); ok {
		return k
	}
	var out []string
	for k := range r {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// csvRows reads a CSV text with a header; an empty field is NULL (as in
// dbt's csv fixtures).
func csvRows(text string) ([]map[string]any, error) {
	r := csv.NewReader(strings.NewReader(strings.TrimLeft(text, "\n")))
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("csv rows: %v", err)
	}
	if len(recs) == 0 {
		return nil, nil
	}
	header := recs[0]
	var out []map[string]any
	for _, rec := range recs[1:] {
		row := map[string]any{keyOrder: header}
		for i, h := range header {
			if i < len(rec) && rec[i] != "" {
				row[h] = scalar{text: rec[i]}
			} else {
				row[h] = nil
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// jsonRows reads JSON lines.
func jsonRows(file string, data []byte) ([]map[string]any, error) {
	var out []map[string]any
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, i+1, err)
		}
		out = append(out, jsonValue(m).(map[string]any))
	}
	return out, nil
}

// jsonValue turns decoded JSON into row values (see readRows); objects
// keep no column order (rowKeys sorts them).
func jsonValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = jsonValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case json.Number:
		return scalar{text: x.String(), bare: true}
	case bool:
		return scalar{text: fmt.Sprint(x), bare: true}
	case string:
		return scalar{text: x}
	}
	return nil
}
