package runtime

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
)

// LeafStarts sets starts[c] to the index in row of the first value of leaf
// column c. Generated assembly code reads each leaf's values from there. A
// row whose values are not grouped by increasing column, or that lacks a
// value for some column, is an error (a canonical row never is).
func LeafStarts(row parquet.Row, starts []int) error {
	next := 0
	for i := range row {
		c := row[i].Column()
		if c == next {
			if c < len(starts) {
				starts[c] = i
			}
			next++
			continue
		}
		if c != next-1 {
			return fmt.Errorf("malformed row: value %d of column %d, expected column %d", i, c, next)
		}
	}
	if next != len(starts) {
		return fmt.Errorf("malformed row: %d of %d columns present", next, len(starts))
	}
	return nil
}

// DecimalValue returns the DECIMAL held in a FIXED_LEN_BYTE_ARRAY value
// (big-endian two's complement, as Parquet stores decimals of precision >
// 18).
func DecimalValue(v parquet.Value) types.Decimal {
	d, _ := types.DecimalFromBytes(v.ByteArray())
	return d
}

// DecodeParquet decodes a Parquet file of a file source: rows are read in
// the canonical layout of codec.Schema (columns matched by name, types
// converted, missing columns NULL; see parquetio.Open), assembled into T,
// completed by finish (the _metadata column, and the rescued-data value)
// and handed to emit in chunks.
//
// A value that does not fit its column (an integer or decimal out of
// range) is, under opts.OnMalformed Rescue, NULL and kept in the row's
// rescued-data value as {"column":value,"_file_path":"..."} (Databricks
// Auto Loader's form, as for JSON and CSV), and counted in Stats.Rescued;
// under Fail the update fails with an error naming the file, the 1-based
// row and the column. Under opts.NewColumns FailOnNewColumns a file column
// (or struct field) codec.Schema does not declare fails the file before any
// row is read; otherwise such columns are not read.
func DecodeParquet[T any](f source.FileInfo, in io.Reader, opts source.Options, codec RowCodec[T], finish func(r *T, rescued types.Null[string]), emit func([]T) error) (source.Stats, error) {
	var stats source.Stats
	ra, ok := in.(io.ReaderAt)
	if !ok {
		return stats, fmt.Errorf("read %s: a Parquet file must be opened for random access", f.LocalPath)
	}
	if err := checkParquetColumns(f, ra, codec.Schema, opts.NewColumns); err != nil {
		return stats, err
	}
	r, err := parquetio.Open(f.LocalPath, ra, f.Size, codec.Schema, nil)
	if err != nil {
		return stats, err
	}
	defer r.Close()
	r.SetRescue(opts.OnMalformed == source.Rescue)
	return decodeLoop(f, r, codec, func(i int) string {
		if rv := r.RescuedValues(i); len(rv) > 0 {
			return rescuedJSON(rv, f.Path)
		}
		return ""
	}, finish, emit)
}

// decodeLoop reads r to its end in chunks, assembles each row into a T
// with codec, completes it with finish and hands each chunk to emit: the
// loop of DecodeParquet and DecodeRows. rescued(i) is the rescued-data
// value of row i of the chunk just read ("" for none; nil when the reader
// never rescues), counted in Stats.Rescued.
func decodeLoop[T any](f source.FileInfo, r source.RowReader, codec RowCodec[T], rescued func(i int) string, finish func(r *T, rescued types.Null[string]), emit func([]T) error) (source.Stats, error) {
	var stats source.Stats
	var arena Arena
	buf := make([]parquet.Row, 1024)
	for {
		n, err := r.ReadRows(buf)
		if n > 0 {
			rows := make([]T, n)
			for i, row := range buf[:n] {
				if aerr := codec.Assemble(row, &rows[i], &arena); aerr != nil {
					return stats, fmt.Errorf("read %s: %w", f.LocalPath, aerr)
				}
				var value types.Null[string]
				if rescued != nil {
					if rv := rescued(i); rv != "" {
						value = types.Some(rv)
						stats.Rescued++
					}
				}
				finish(&rows[i], value)
			}
			stats.Rows += int64(n)
			if eerr := emit(rows); eerr != nil {
				return stats, eerr
			}
		}
		if err == io.EOF {
			return stats, nil
		}
		if err != nil {
			return stats, err // it names the file
		}
	}
}

// rescuedJSON renders rescued Parquet values as a rescued-data value.
func rescuedJSON(rv []parquetio.RescuedValue, path string) string {
	b := []byte{'{'}
	for _, v := range rv {
		k, _ := json.Marshal(v.Column)
		b = append(b, k...)
		b = append(b, ':')
		b = append(b, v.JSON...)
		b = append(b, ',')
	}
	p, _ := json.Marshal(path)
	b = append(b, `"_file_path":`...)
	b = append(b, p...)
	return string(append(b, '}'))
}

// DecodeRows decodes a file of a file source whose format has a generic
// reader (source.Format.Open: every format but JSON, CSV and Parquet, e.g.
// Spark's text): the reader of format opened with options (name → value,
// as the spec holds them, defaults applied) yields rows in the canonical
// layout of codec.Schema, which are assembled into T, completed by finish
// (the _metadata column, and the rescued-data value) and handed to emit in
// chunks, as DecodeParquet does for Parquet.
//
// A reader that rescues values (source.RescuingReader) gives a row's
// rescued-data value, to which DecodeRows adds "_file_path" (Databricks
// Auto Loader's form) and which Stats.Rescued counts; for any other
// reader the value is NULL. An unknown format, or one without a generic
// reader, is an error (the spec refuses both before generation).
func DecodeRows[T any](f source.FileInfo, in io.Reader, opts source.Options, format string, options map[string]string, codec RowCodec[T], finish func(r *T, rescued types.Null[string]), emit func([]T) error) (source.Stats, error) {
	var stats source.Stats
	info, ok := source.LookupFormat(format)
	if !ok || info.Open == nil {
		return stats, fmt.Errorf("read %s: format %q has no generic reader", f.LocalPath, format)
	}
	r, err := info.Open(f, in, codec.Schema, options, opts)
	if err != nil {
		return stats, err
	}
	if c, ok := r.(io.Closer); ok {
		defer c.Close()
	}
	var rescued func(i int) string
	if rescuer, ok := r.(source.RescuingReader); ok {
		rescued = func(i int) string {
			if rv := rescuer.Rescued(i); rv != "" {
				return withFilePath(rv, f.Path)
			}
			return ""
		}
	}
	return decodeLoop(f, r, codec, rescued, finish, emit)
}

// withFilePath adds "_file_path" to a rescued-data object.
func withFilePath(rescued, path string) string {
	p, _ := json.Marshal(path)
	body := strings.TrimSuffix(strings.TrimSpace(rescued), "}")
	if strings.TrimSpace(strings.TrimPrefix(body, "{")) != "" {
		body += ","
	}
	return body + `"_file_path":` + string(p) + "}"
}
