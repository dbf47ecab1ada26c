package runtime

import (
	"fmt"
	"io"

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
// completed by finish (the _metadata column) and handed to emit in chunks.
func DecodeParquet[T any](f source.FileInfo, in io.Reader, codec RowCodec[T], finish func(r *T), emit func([]T) error) (source.Stats, error) {
	var stats source.Stats
	ra, ok := in.(io.ReaderAt)
	if !ok {
		return stats, fmt.Errorf("read %s: a Parquet file must be opened for random access", f.LocalPath)
	}
	r, err := parquetio.Open(f.LocalPath, ra, f.Size, codec.Schema, nil)
	if err != nil {
		return stats, err
	}
	defer r.Close()
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
				finish(&rows[i])
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
			return stats, fmt.Errorf("read %s: %w", f.LocalPath, err)
		}
	}
}
