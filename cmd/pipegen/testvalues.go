package main

// Values of `pipegen test`: a test's given rows written as the files a
// source reads, and the comparison of expected rows with a table's rows.

import (
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec"
)

// sourceFile renders rows as one file of source src's format: JSON lines
// (values as written: plain YAML numbers and booleans bare, the rest as
// strings), CSV with the source's delimiter, quote, null value and header
// (columns in the schema's order, as Spark's CSV reader takes them by
// position), or Parquet in the declared schema (flat columns only).
func sourceFile(src *spec.Source, rows []map[string]any) ([]byte, error) {
	f := src.Files
	known := map[string]bool{}
	for _, c := range src.Schema {
		known[c.Name] = true
	}
	if f.Format != spec.FormatJSON {
		for _, r := range rows {
			for _, k := range rowKeys(r) {
				if !known[k] {
					return nil, fmt.Errorf("source %s has no column %q (columns: %s): a %s file holds the declared columns only", src.Name, k, strings.Join(schemaNames(src.Schema), ", "), f.Format)
				}
			}
		}
	}
	var buf bytes.Buffer
	switch f.Format {
	case spec.FormatJSON:
		for _, r := range rows {
			buf.Write(appendRowJSON(nil, r))
			buf.WriteByte('\n')
		}
	case spec.FormatCSV:
		o := f.CSV
		w := csv.NewWriter(&buf)
		if d := []rune(o.Delimiter); len(d) == 1 {
			w.Comma = d[0]
		}
		if o.Quote != `"` || o.Escape != `"` {
			return nil, fmt.Errorf("source %s: rows can be written only for CSV with the default quote and escape (\"): give a file instead", src.Name)
		}
		if o.Header {
			w.Write(schemaNames(src.Schema))
		}
		for _, r := range rows {
			rec := make([]string, len(src.Schema))
			for i, c := range src.Schema {
				switch v := r[c.Name].(type) {
				case nil:
					rec[i] = o.NullValue
				case scalar:
					rec[i] = v.text
				default:
					return nil, fmt.Errorf("source %s: column %s: a CSV field holds text, not a list or mapping", src.Name, c.Name)
				}
			}
			w.Write(rec)
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return nil, err
		}
	case spec.FormatParquet:
		if _, err := parquetFile(&buf, src, rows); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("source %s: rows can be written only for json, csv and parquet sources, not %s: give a file instead", src.Name, f.Format)
	}
	return buf.Bytes(), nil
}

// parquetFile writes rows as a Parquet file of src's declared schema (flat
// columns only; values parsed as Delta partition values are) to out.
func parquetFile(out io.Writer, src *spec.Source, rows []map[string]any) (parquetio.FileInfo, error) {
	known := map[string]bool{}
	for _, c := range src.Schema {
		known[c.Name] = true
	}
	var prows []parquet.Row
	for _, r := range rows {
		for _, k := range rowKeys(r) {
			if !known[k] {
				return parquetio.FileInfo{}, fmt.Errorf("source %s has no column %q (columns: %s)", src.Name, k, strings.Join(schemaNames(src.Schema), ", "))
			}
		}
		vals := make([]any, len(src.Schema))
		for i, c := range src.Schema {
			switch v := r[c.Name].(type) {
			case nil:
			case scalar:
				if isNested(c.Type) {
					return parquetio.FileInfo{}, fmt.Errorf("source %s: column %s is %s: give a file for nested columns", src.Name, c.Name, c.Type)
				}
				x, err := parquetio.ParsePartitionValue(v.text, c.Type)
				if err != nil {
					return parquetio.FileInfo{}, fmt.Errorf("source %s: column %s: %v", src.Name, c.Name, err)
				}
				vals[i] = x
			default:
				return parquetio.FileInfo{}, fmt.Errorf("source %s: column %s: give a file for nested values", src.Name, c.Name)
			}
		}
		row, err := parquetio.Encode(vals, src.Schema)
		if err != nil {
			return parquetio.FileInfo{}, fmt.Errorf("source %s: %v", src.Name, err)
		}
		prows = append(prows, row)
	}
	w := parquetio.NewWriter(out, src.Schema, parquetio.WriterOptions{})
	if err := w.Write(prows); err != nil {
		return parquetio.FileInfo{}, err
	}
	return w.Close()
}

// appendTableRows appends rows to the Delta table at dir (created with
// src's declared schema by the first append): a table source's rows in a
// test, one commit per update, so streaming reads of it see appends.
func appendTableRows(dir string, src *spec.Source, rows []map[string]any, n, k int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	name := fmt.Sprintf("part-u%03d-%02d.snappy.parquet", n, k)
	var buf bytes.Buffer
	info, err := parquetFile(&buf, src, rows)
	if err != nil {
		return testMistake{err.Error()}
	}
	if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
		return err
	}
	add := delta.NewAdd(name, nil, info, time.Now())
	snap, err := delta.Load(dir)
	if errors.Is(err, delta.ErrNoTable) {
		md, err := delta.NewMetadata(src.Schema, nil, nil, time.Now())
		if err != nil {
			return err
		}
		_, err = delta.Append(dir, nil, []delta.Add{add}, delta.WriteOptions{Metadata: &md})
		return err
	}
	if err != nil {
		return err
	}
	_, err = delta.Append(dir, snap, []delta.Add{add}, delta.WriteOptions{})
	return err
}

func isNested(t types.Type) bool {
	return t.Kind == types.ArrayKind || t.Kind == types.MapKind || t.Kind == types.StructKind
}

func schemaNames(s types.Schema) []string {
	out := make([]string, len(s))
	for i, f := range s {
		out[i] = f.Name
	}
	return out
}

// appendRowJSON renders a row value as JSON (see sourceFile).
func appendRowJSON(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case scalar:
		if x.bare && json.Valid([]byte(x.text)) {
			return append(dst, x.text...)
		}
		b, _ := json.Marshal(x.text)
		return append(dst, b...)
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendRowJSON(dst, e)
		}
		return append(dst, ']')
	case map[string]any:
		dst = append(dst, '{')
		for i, k := range rowKeys(x) {
			if i > 0 {
				dst = append(dst, ',')
			}
			b, _ := json.Marshal(k)
			dst = append(append(dst, b...), ':')
			dst = appendRowJSON(dst, x[k])
		}
		return append(dst, '}')
	}
	return append(dst, "null"...)
}

// valueCanon turns row values of one column type into comparable text:
// numbers by value (DECIMAL exactly at the column's scale, DOUBLE to 15
// significant digits, FLOAT to float32's), TIMESTAMP as the UTC instant
// (expected values without an offset are in the session time zone),
// BINARY by its bytes (base64 in the table's JSON, the text's UTF-8 in a
// test), nested values field by field. A value that is not of the type is
// an error naming what was expected.
type valueCanon struct {
	loc *time.Location
}

// canon returns v's comparable text; fromTable says v comes from the table
// (`show --format jsonl`) rather than from the test.
func (vc valueCanon) canon(v any, t types.Type, fromTable bool) (string, error) {
	switch x := v.(type) {
	case nil:
		return "null", nil
	case []any:
		if t.Kind != types.ArrayKind {
			return "", fmt.Errorf("a list for a %s column", t)
		}
		parts := make([]string, len(x))
		for i, e := range x {
			s, err := vc.canon(e, *t.Elem, fromTable)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case map[string]any:
		switch t.Kind {
		case types.StructKind:
			parts := make([]string, 0, len(t.Fields))
			known := map[string]bool{}
			for _, f := range t.Fields {
				known[f.Name] = true
				s, err := vc.canon(x[f.Name], f.Type, fromTable)
				if err != nil {
					return "", fmt.Errorf("field %s: %w", f.Name, err)
				}
				parts = append(parts, f.Name+": "+s)
			}
			for _, k := range rowKeys(x) {
				if !known[k] {
					return "", fmt.Errorf("the struct has no field %q", k)
				}
			}
			return "{" + strings.Join(parts, ", ") + "}", nil
		case types.MapKind:
			var parts []string
			for _, k := range sortedMapKeys(x) {
				ks, err := vc.canon(scalar{text: k}, *t.Key, fromTable)
				if err != nil {
					return "", err
				}
				vs, err := vc.canon(x[k], *t.Value, fromTable)
				if err != nil {
					return "", err
				}
				parts = append(parts, ks+": "+vs)
			}
			return "{" + strings.Join(parts, ", ") + "}", nil
		}
		return "", fmt.Errorf("a mapping for a %s column", t)
	case scalar:
		return vc.scalar(x.text, t, fromTable)
	}
	return "", fmt.Errorf("unexpected value %v", v)
}

func sortedMapKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		if k != keyOrder {
			out = append(out, k)
		}
	}
	sort.Strings(out) // map entries compare as a set
	return out
}

func (vc valueCanon) scalar(s string, t types.Type, fromTable bool) (string, error) {
	bad := func() (string, error) { return "", fmt.Errorf("%q is not a %s", s, t) }
	switch t.Kind {
	case types.BooleanKind:
		switch strings.ToLower(s) {
		case "true", "false":
			return strings.ToLower(s), nil
		}
		return bad()
	case types.ByteKind, types.ShortKind, types.IntKind, types.LongKind:
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return bad()
		}
		return n.String(), nil
	case types.DecimalKind:
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			return bad()
		}
		scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Scale)), nil)))
		if scaled.IsInt() {
			return r.FloatString(t.Scale), nil
		}
		return r.RatString(), nil
	case types.FloatKind, types.DoubleKind:
		bits, digits := 64, 15
		if t.Kind == types.FloatKind {
			bits, digits = 32, -1
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil {
			return bad()
		}
		return strconv.FormatFloat(f, 'g', digits, bits), nil
	case types.StringKind:
		return strconv.Quote(s), nil
	case types.BinaryKind:
		b := []byte(s)
		if fromTable {
			var err error
			if b, err = base64.StdEncoding.DecodeString(s); err != nil {
				return bad()
			}
		}
		return fmt.Sprintf("x'%X'", b), nil
	case types.DateKind:
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			return bad()
		}
		return d.Format("2006-01-02"), nil
	case types.TimestampKind, types.TimestampNTZKind:
		loc := vc.loc
		if t.Kind == types.TimestampNTZKind || fromTable {
			loc = time.UTC
		}
		for _, layout := range []string{time.RFC3339, "2006-01-02 15:04:05Z07:00", "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
			if t.Kind == types.TimestampNTZKind && strings.Contains(layout, "Z07") {
				continue
			}
			if tm, err := time.ParseInLocation(layout, s, loc); err == nil {
				return tm.UTC().Format("2006-01-02 15:04:05.999999"), nil
			}
		}
		return bad()
	}
	return strconv.Quote(s), nil
}

// tableRows reads `show --format jsonl` output into row values.
func tableRows(data []byte) ([]map[string]any, error) {
	return jsonRows("show", data)
}

// rowDiff is the outcome of comparing a table with expected rows.
type rowDiff struct {
	// Missing are expected rows the table lacks; Extra are rows the table
	// has and the test does not expect (with ordered: rows in the wrong
	// place too). Both in the compared columns' text.
	Missing, Extra []string
	// Moved is set (ordered only) when the rows are the same set in
	// another order.
	Moved bool
	Got   int
}

// compareRows compares a table's rows (schema, values) with x: only the
// columns x names (a column an expected row leaves out is NULL there), as
// a multiset unless x.Ordered. Errors are test mistakes: a column the
// table does not have, a value not of its column's type.
func (vc valueCanon) compareRows(schema types.Schema, got []map[string]any, x testExpect) (rowDiff, error) {
	cols := make([]types.Field, 0, len(x.Columns))
	for _, c := range x.Columns {
		i := schema.Index(c)
		if i < 0 {
			return rowDiff{}, fmt.Errorf("the table has no column %q (columns: %s)", c, strings.Join(schemaNames(schema), ", "))
		}
		cols = append(cols, schema[i])
	}
	render := func(r map[string]any, fromTable bool) (string, error) {
		parts := make([]string, len(cols))
		for i, c := range cols {
			s, err := vc.canon(r[c.Name], c.Type, fromTable)
			if err != nil {
				return "", fmt.Errorf("column %s: %w", c.Name, err)
			}
			parts[i] = c.Name + ": " + s
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	}
	want := make([]string, len(x.Rows))
	for i, r := range x.Rows {
		s, err := render(r, false)
		if err != nil {
			return rowDiff{}, fmt.Errorf("expected row %d: %w", i+1, err)
		}
		want[i] = s
	}
	have := make([]string, len(got))
	for i, r := range got {
		s, err := render(r, true)
		if err != nil {
			return rowDiff{}, fmt.Errorf("table row %d: %w", i+1, err)
		}
		have[i] = s
	}
	d := rowDiff{Got: len(got)}
	counts := map[string]int{}
	for _, s := range have {
		counts[s]++
	}
	for _, s := range want {
		if counts[s] > 0 {
			counts[s]--
		} else {
			d.Missing = append(d.Missing, s)
		}
	}
	for _, s := range have {
		if counts[s] > 0 {
			counts[s]--
			d.Extra = append(d.Extra, s)
		}
	}
	if x.Ordered && len(d.Missing) == 0 && len(d.Extra) == 0 {
		for i := range want {
			if want[i] != have[i] {
				d.Moved = true
				d.Missing, d.Extra = want, have
				break
			}
		}
	}
	return d, nil
}

// ok reports whether the table matched.
func (d rowDiff) ok() bool { return len(d.Missing) == 0 && len(d.Extra) == 0 }

// writeTestFile writes data to path, creating its folder.
func writeTestFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
