package runtime

import (
	"io"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
)

var decodeRowsFile = source.FileInfo{Path: "file:/landing/a.txt", Name: "a.txt", LocalPath: "/landing/a.txt"}

// decodeAll runs DecodeRows over input and returns the rows and the
// rescued values finish saw.
func decodeAll(t *testing.T, format, input string, options map[string]string, s types.Schema) ([][]any, []types.Null[string], source.Stats, error) {
	t.Helper()
	var rows [][]any
	var rescued []types.Null[string]
	stats, err := DecodeRows(decodeRowsFile, strings.NewReader(input), source.Options{}, format, options, anyCodec(s),
		func(r *[]any, res types.Null[string]) { rescued = append(rescued, res) },
		func(chunk [][]any) error { rows = append(rows, chunk...); return nil })
	return rows, rescued, stats, err
}

// TestDecodeRowsText: the generic path reads a registered format (text)
// by its registry entry, with the options by name, into the row codec.
func TestDecodeRowsText(t *testing.T) {
	s := types.Schema{{Name: "value", Type: types.StringType, Nullable: true}}
	rows, rescued, stats, err := decodeAll(t, source.Text, "a;b\nc;", map[string]string{"line_sep": ";", "wholetext": "false"}, s)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(rows); got != 2 || rows[0][0] != "a" || rows[1][0] != "b\nc" || stats.Rows != 2 || stats.Rescued != 0 {
		t.Errorf("rows %v, stats %+v", rows, stats)
	}
	for _, r := range rescued {
		if r.Valid {
			t.Errorf("rescued %v from a text file", r)
		}
	}
	if _, _, _, err := decodeAll(t, "avro", "", nil, s); err == nil || !strings.Contains(err.Error(), `format "avro" has no generic reader`) {
		t.Errorf("unknown format: %v", err)
	}
	if _, _, _, err := decodeAll(t, source.JSON, "", nil, s); err == nil {
		t.Error("json, which has a generated decoder, read generically")
	}
}

// rescuingReader yields one row per input byte, rescuing the bytes "x".
type rescuingReader struct {
	data []byte
	last []byte
}

func (r *rescuingReader) ReadRows(rows []parquet.Row) (int, error) {
	n := min(len(rows), len(r.data))
	r.last = r.data[:n]
	for i := 0; i < n; i++ {
		v := parquet.ValueOf(nil).Level(0, 0, 0)
		if r.data[i] != 'x' {
			v = parquet.ByteArrayValue(r.data[i:i+1]).Level(0, 1, 0)
		}
		rows[i] = append(rows[i][:0], v)
	}
	r.data = r.data[n:]
	if len(r.data) == 0 {
		return n, io.EOF
	}
	return n, nil
}

func (r *rescuingReader) Rescued(i int) string {
	if r.last[i] == 'x' {
		return `{"value":"x"}`
	}
	return ""
}

// TestDecodeRowsRescues: a reader that rescues (source.RescuingReader)
// gives the rescued-data value, with _file_path added, and its count.
func TestDecodeRowsRescues(t *testing.T) {
	source.Formats = append(source.Formats, source.Format{Name: "test_rescuing",
		Open: func(_ source.FileInfo, in io.Reader, _ types.Schema, _ map[string]string, _ source.Options) (source.RowReader, error) {
			b, err := io.ReadAll(in)
			return &rescuingReader{data: b}, err
		}})
	t.Cleanup(func() { source.Formats = source.Formats[:len(source.Formats)-1] })
	s := types.Schema{{Name: "value", Type: types.StringType, Nullable: true}}
	rows, rescued, stats, err := decodeAll(t, "test_rescuing", "axb", nil, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0][0] != "a" || rows[1][0] != nil || rows[2][0] != "b" {
		t.Errorf("rows %v", rows)
	}
	want := `{"value":"x","_file_path":"file:/landing/a.txt"}`
	if stats.Rescued != 1 || rescued[0].Valid || !rescued[1].Valid || rescued[1].V != want || rescued[2].Valid {
		t.Errorf("rescued %v (want %s at row 1), stats %+v", rescued, want, stats)
	}
	if got := withFilePath("{}", "p"); got != `{"_file_path":"p"}` {
		t.Errorf("withFilePath of {}: %s", got)
	}
}
