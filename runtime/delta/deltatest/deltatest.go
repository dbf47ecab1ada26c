// Package deltatest cross-checks pipegen's reading of a Delta table with
// DuckDB's: runtime/delta/testdata/duckdb/read_delta.mjs replays the
// table's `_delta_log` with DuckDB's read_json and read_parquet, following
// PROTOCOL.md and not pipegen's code (checkpoints V1 and V2 with sidecars,
// partition values and schema from the log, logical files keyed by path and
// deletion vector, deletion vectors decoded by deletion_vectors.mjs, column
// mapping by physical name), and prints the live rows; Check compares them,
// row for row, with what package delta reads. The replay itself is checked
// against the expected rows other engines publish with their test tables
// (runtime/delta's TestDuckDBReplayOfEngineTables). End-to-end tests of other packages use it to prove that the
// tables pipegen writes read the same in another engine. Both also check
// the version checksum file of the version read against the log.
//
// It needs node and the script's node_modules, installed with
//
//	npm ci --prefix runtime/delta/testdata/duckdb
//
// and fails (does not skip) when they are missing.
package deltatest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// InstallCommand installs the DuckDB script's dependencies, from the
// repository root.
const InstallCommand = "npm ci --prefix runtime/delta/testdata/duckdb"

// scriptDir overrides ScriptDir in tests.
var scriptDir string

// ScriptDir returns the directory of read_delta.mjs and its node_modules,
// located from this source file in the repository.
func ScriptDir() string {
	if scriptDir != "" {
		return scriptDir
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "duckdb")
}

// DuckDBRows returns the live rows of the table at version (-1: latest) as
// DuckDB reads them, each rendered by parquetio.FormatRow for schema s (the
// table's schema at that version), sorted. It fails the test when node or
// the script's node_modules are missing, saying how to install them.
func DuckDBRows(t testing.TB, table string, version int64, s types.Schema) []string {
	t.Helper()
	abs, err := filepath.Abs(table)
	if err != nil {
		t.Fatal(err)
	}
	return duckRows(t, ScriptDir(), s, "read_delta.mjs "+table, "read_delta.mjs", abs, strconv.FormatInt(version, 10))
}

// DuckDBRowsWhere is DuckDBRows of the latest version keeping only the
// rows that satisfy where, a DuckDB condition over the table's columns.
func DuckDBRowsWhere(t testing.TB, table, where string, s types.Schema) []string {
	t.Helper()
	abs, err := filepath.Abs(table)
	if err != nil {
		t.Fatal(err)
	}
	return duckRows(t, ScriptDir(), s, "read_delta.mjs --where "+where, "read_delta.mjs", "--where", where, abs)
}

// QueryRows runs one DuckDB query in the folder dir (relative file paths
// in it, e.g. read_json('data/*.json'), resolve against dir) with the
// session time zone UTC, and returns its rows rendered by
// parquetio.FormatRow for schema s (columns matched by name,
// case-insensitively), sorted. Tests compare them with pipegen's results
// (PipegenRows). BINARY columns are not supported. It fails the test when
// node or the script's node_modules are missing.
func QueryRows(t testing.TB, dir, query string, s types.Schema) []string {
	t.Helper()
	return duckRows(t, dir, s, "query.mjs", filepath.Join(ScriptDir(), "query.mjs"), query)
}

// duckRows runs a script of ScriptDir with node in the folder dir; it
// prints one JSON object per row, converted for schema s.
func duckRows(t testing.TB, dir string, s types.Schema, what string, args ...string) []string {
	t.Helper()
	return parseRows(t, what, strings.Split(runScript(t, dir, what, args...), "\n"), s)
}

// runScript runs a script of ScriptDir with node in the folder dir and
// returns its output.
func runScript(t testing.TB, dir, what string, args ...string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(ScriptDir(), "node_modules", "@duckdb", "node-api")); err != nil {
		t.Fatalf("the DuckDB cross-check needs its node modules: run `%s` from the repository root (%v)", InstallCommand, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("the DuckDB cross-check needs node (Node.js 20 or later) on PATH: %v", err)
	}
	if !filepath.IsAbs(args[0]) {
		args[0] = filepath.Join(ScriptDir(), args[0])
	}
	cmd := exec.Command(node, args...)
	cmd.Dir = dir // the scripts import @duckdb/node-api from their own folder, whatever dir is
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, stderr.String())
	}
	return stdout.String()
}

// parseRows converts the scripts' JSON rows for schema s.
func parseRows(t testing.TB, what string, lines []string, s types.Schema) []string {
	t.Helper()
	var out []string
	for _, line := range lines {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		v, err := parseOrdered(line)
		if err != nil {
			t.Fatalf("%s: %v in %s", what, err, line)
		}
		obj, ok := v.(object)
		if !ok {
			t.Fatalf("%s: not an object: %s", what, line)
		}
		row := make([]any, len(s))
		for i, f := range s {
			x, err := fromDuck(obj.get(f.Name), f.Type, true)
			if err != nil {
				t.Fatalf("%s: column %s: %v in %s", what, f.Name, err, line)
			}
			row[i] = x
		}
		out = append(out, parquetio.FormatRow(row, s))
	}
	slices.Sort(out)
	return out
}

// PipegenRows returns the table's schema at version (-1: latest) and its
// live rows as package delta reads them, rendered by parquetio.FormatRow,
// sorted.
func PipegenRows(t testing.TB, table string, version int64) (types.Schema, []string) {
	t.Helper()
	snap, err := delta.LoadVersion(table, version)
	if err != nil {
		t.Fatal(err)
	}
	checkChecksum(t, snap)
	rows, err := snap.ReadAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = parquetio.FormatRow(r, snap.Schema)
	}
	slices.Sort(out)
	return snap.Schema, out
}

// checkChecksum fails the test when the version checksum file of snap's
// version (when there is one) disagrees with the replayed log.
func checkChecksum(t testing.TB, snap *delta.Snapshot) {
	t.Helper()
	if sum, ok := delta.ReadChecksum(snap.Table, snap.Version); ok {
		if d := ChecksumDiff(sum, snap); d != "" {
			t.Errorf("table %s version %d: %s", snap.Table, snap.Version, d)
		}
	}
}

// ChecksumDiff compares a version checksum with the snapshot of its
// version replayed from the log — live file count, their total size in
// bytes, transactions, metadata (id, schema, configuration) and protocol —
// and returns "" when they agree, else both renderings.
func ChecksumDiff(sum delta.VersionChecksum, snap *delta.Snapshot) string {
	var size int64
	for _, f := range snap.Files {
		size += f.Size
	}
	txns := map[string]int64{}
	for _, tx := range sum.SetTransactions {
		txns[tx.AppID] = tx.Version
	}
	const form = "%d files, %d bytes, txns %v, metadata %s %s %v, protocol %d/%d"
	got := fmt.Sprintf(form, sum.NumFiles, sum.TableSizeBytes, txns,
		sum.Metadata.ID, sum.Metadata.SchemaString, sum.Metadata.Configuration, sum.Protocol.MinReaderVersion, sum.Protocol.MinWriterVersion)
	want := fmt.Sprintf(form, len(snap.Files), size, snap.Txns,
		snap.Metadata.ID, snap.Metadata.SchemaString, snap.Metadata.Configuration, snap.Protocol.MinReaderVersion, snap.Protocol.MinWriterVersion)
	if got == want {
		return ""
	}
	return "the checksum file says\n  " + got + "\nthe log says\n  " + want
}

// Check fails the test unless DuckDB and pipegen read the same rows from
// the table at version (-1: latest). It reports the rows only one side has.
func Check(t testing.TB, table string, version int64) {
	t.Helper()
	schema, ours := PipegenRows(t, table, version)
	theirs := DuckDBRows(t, table, version, schema)
	compare(t, table, version, ours, theirs)
}

// CheckAll is Check for the latest version of each table, with one DuckDB
// process for all of them (starting DuckDB costs more than reading a small
// table): end-to-end tests check every table they write.
func CheckAll(t testing.TB, tables []string) {
	t.Helper()
	if len(tables) == 0 {
		return
	}
	schemas := make([]types.Schema, len(tables))
	ours := make([][]string, len(tables))
	for i, table := range tables {
		schemas[i], ours[i] = PipegenRows(t, table, -1)
	}
	for i, theirs := range DuckDBRowsAll(t, tables, schemas) {
		compare(t, tables[i], -1, ours[i], theirs)
	}
}

// DuckDBRowsAll is DuckDBRows for the latest version of each table (its
// schema in schemas), with one DuckDB process for all of them.
func DuckDBRowsAll(t testing.TB, tables []string, schemas []types.Schema) [][]string {
	t.Helper()
	args := []string{"read_delta.mjs"}
	abs := make([]string, len(tables))
	for i, table := range tables {
		a, err := filepath.Abs(table)
		if err != nil {
			t.Fatal(err)
		}
		abs[i] = a
		args = append(args, a, "-1")
	}
	out := runScript(t, ScriptDir(), "read_delta.mjs of "+strings.Join(tables, ", "), args...)
	sections := map[string][]string{}
	var cur string
	for _, line := range strings.Split(out, "\n") {
		if name, ok := strings.CutPrefix(line, "=== "); ok && len(tables) > 1 {
			cur = name
			sections[cur] = []string{}
			continue
		}
		if len(tables) == 1 {
			cur = abs[0]
		}
		sections[cur] = append(sections[cur], line)
	}
	rows := make([][]string, len(tables))
	for i, table := range tables {
		lines, ok := sections[abs[i]]
		if !ok && len(tables) > 1 {
			t.Fatalf("read_delta.mjs printed nothing for %s", table)
		}
		rows[i] = parseRows(t, "read_delta.mjs "+table, lines, schemas[i])
	}
	return rows
}

// compare reports the rows only one side read.
func compare(t testing.TB, table string, version int64, ours, theirs []string) {
	t.Helper()
	if slices.Equal(ours, theirs) {
		return
	}
	t.Errorf("table %s (version %d): pipegen and DuckDB read different rows (%d vs %d)\nonly pipegen:\n  %s\nonly DuckDB:\n  %s",
		table, version, len(ours), len(theirs), strings.Join(Minus(ours, theirs), "\n  "), strings.Join(Minus(theirs, ours), "\n  "))
}

// Minus returns the rows of a not in b, as multisets (a row twice in a
// and once in b is returned once): what one side of a comparison has and
// the other lacks.
func Minus(a, b []string) []string {
	count := map[string]int{}
	for _, x := range b {
		count[x]++
	}
	var out []string
	for _, x := range a {
		if count[x] > 0 {
			count[x]--
			continue
		}
		out = append(out, x)
	}
	return out
}

// FindTables returns the Delta tables under root (the folders holding a
// _delta_log), sorted; a pipeline's storage (_pipelines) is not searched.
// End-to-end tests use it to check every table a run wrote.
func FindTables(root string) []string {
	var out []string
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || !d.IsDir():
		case d.Name() == "_pipelines":
			return filepath.SkipDir
		case d.Name() == "_delta_log":
			out = append(out, filepath.Dir(path))
			return filepath.SkipDir
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// object is a JSON object with its keys in order.
type object []member

type member struct {
	key string
	val any
}

func (o object) get(name string) any {
	for _, m := range o {
		if m.key == name {
			return m.val
		}
	}
	for _, m := range o {
		if strings.EqualFold(m.key, name) {
			return m.val
		}
	}
	return nil
}

// parseOrdered decodes JSON keeping object key order and numbers as text.
func parseOrdered(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	return decodeValue(dec)
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case json.Delim:
		switch tok {
		case '{':
			var o object
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o = append(o, member{k.(string), v})
			}
			_, err := dec.Token()
			return o, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
	}
	return tok, nil
}

// fromDuck converts a value of DuckDB's to_json output to pipegen's generic
// value of type t. Top-level BINARY arrives as hex (the script's hex()).
func fromDuck(v any, t types.Type, top bool) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Kind {
	case types.ArrayKind:
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("want an array, got %v", v)
		}
		out := make([]any, len(list))
		for i, x := range list {
			var err error
			if out[i], err = fromDuck(x, *t.Elem, false); err != nil {
				return nil, err
			}
		}
		return out, nil
	case types.MapKind:
		o, ok := v.(object)
		if !ok {
			return nil, fmt.Errorf("want an object for a map, got %v", v)
		}
		out := make([]parquetio.MapEntry, len(o))
		for i, m := range o {
			k, err := keyFromString(m.key, *t.Key)
			if err != nil {
				return nil, err
			}
			val, err := fromDuck(m.val, *t.Value, false)
			if err != nil {
				return nil, err
			}
			out[i] = parquetio.MapEntry{Key: k, Value: val}
		}
		return out, nil
	case types.StructKind:
		o, ok := v.(object)
		if !ok {
			return nil, fmt.Errorf("want an object for a struct, got %v", v)
		}
		out := make(parquetio.Struct, len(t.Fields))
		for i, f := range t.Fields {
			var err error
			if out[i], err = fromDuck(o.get(f.Name), f.Type, false); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	switch x := v.(type) {
	case bool:
		return x, nil
	case json.Number:
		return numberAs(string(x), t)
	case string:
		return stringAs(x, t, top)
	}
	return nil, fmt.Errorf("unexpected %T %v for %s", v, v, t)
}

func numberAs(s string, t types.Type) (any, error) {
	switch t.Kind {
	case types.FloatKind:
		f, err := strconv.ParseFloat(s, 64)
		return float32(f), err
	case types.DoubleKind:
		return strconv.ParseFloat(s, 64)
	case types.DecimalKind:
		return parquetio.ParsePartitionValue(s, t)
	}
	return parquetio.ParsePartitionValue(s, t)
}

func stringAs(s string, t types.Type, top bool) (any, error) {
	switch t.Kind {
	case types.StringKind:
		return s, nil
	case types.BinaryKind:
		// read_delta.mjs renders BINARY values as hex at every depth.
		return hex.DecodeString(s)
	case types.DateKind:
		tm, err := time.Parse("2006-01-02", s)
		return types.DateOf(tm), err
	case types.TimestampKind, types.TimestampNTZKind:
		s = strings.TrimSuffix(s, "+00")
		tm, err := time.Parse("2006-01-02 15:04:05.999999", s)
		return types.TimestampOf(tm), err
	case types.FloatKind, types.DoubleKind:
		var f float64
		switch strings.ToLower(s) {
		case "nan":
			f = math.NaN()
		case "inf", "infinity":
			f = math.Inf(1)
		case "-inf", "-infinity":
			f = math.Inf(-1)
		default:
			return nil, fmt.Errorf("unexpected float %q", s)
		}
		if t.Kind == types.FloatKind {
			return float32(f), nil
		}
		return f, nil
	}
	return parquetio.ParsePartitionValue(s, t)
}

func keyFromString(s string, t types.Type) (any, error) {
	switch t.Kind {
	case types.StringKind:
		return s, nil
	case types.FloatKind, types.DoubleKind, types.DecimalKind, types.ByteKind, types.ShortKind, types.IntKind, types.LongKind:
		// JSON object keys: numbers rendered as text ("0.0", "1").
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return numberAs(s, t)
		}
	}
	return stringAs(s, t, false)
}
