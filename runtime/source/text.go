package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/types"
)

// Text is Spark's text format (DataFrameReader.text, Auto Loader's
// cloudFiles.format = text): every line of a file is a row of one STRING
// column, `value` unless the spec declares another name.
const Text = "text"

// textColumns are the columns of a text file: Spark's `value STRING`.
var textColumns = types.Schema{{Name: "value", Type: types.StringType, Nullable: true}}

// textChunkBytes bounds the line bytes one ReadRows call holds (beyond one
// line longer than it), so that a large file streams through a buffer of
// about this size whatever the size of rows.
const textChunkBytes = 4 << 20

// textReadSize is the size of one read from the file.
const textReadSize = 64 << 10

// TextOptions are the text reader's options, with Spark's meanings
// (https://spark.apache.org/docs/latest/sql-data-sources-text.html).
type TextOptions struct {
	// WholeText reads each file as one row (Spark's wholetext), the
	// whole file held in memory; otherwise each line is a row and the
	// file streams.
	WholeText bool
	// LineSep is the line separator (Spark's lineSep), any non-empty
	// string compared byte by byte; "" is Spark's default, any of "\n",
	// "\r\n" and "\r".
	LineSep string
}

// textOptions reads the text format's options from their spec form
// ({"wholetext": "false", "line_sep": ""}, the registry's defaults
// applied). A wholetext that is not true or false, or an unknown option,
// is an error.
func textOptions(options map[string]string) (TextOptions, error) {
	var o TextOptions
	for k, v := range options {
		switch k {
		case "wholetext":
			b, err := strconv.ParseBool(v)
			if err != nil || (v != "true" && v != "false") {
				return o, fmt.Errorf("text option wholetext is %q, not true or false", v)
			}
			o.WholeText = b
		case "line_sep":
			o.LineSep = v
		default:
			return o, fmt.Errorf("text has no option %q", k)
		}
	}
	return o, nil
}

// checkTextOptions is the text format's CheckOptions: Spark refuses an
// empty lineSep ("'lineSep' cannot be an empty string"); the spec writes
// the default by leaving line_sep out.
func checkTextOptions(options map[string]string) (string, error) {
	if v, ok := options["line_sep"]; ok && v == "" {
		return "line_sep", errors.New("text line_sep cannot be an empty string: leave it out for the default (\\n, \\r\\n or \\r)")
	}
	return "", nil
}

// openText is the text format's Open: a TextReader of the file with the
// options given (a line is never malformed, so opts does not matter).
func openText(f FileInfo, in io.Reader, schema types.Schema, options map[string]string, _ Options) (RowReader, error) {
	o, err := textOptions(options)
	if err != nil {
		return nil, err
	}
	return NewTextReader(f, in, schema, o)
}

// TextReader reads a text file as rows of one STRING column (Spark's text
// source): each line is a row, its separator not included, or with
// WholeText the whole file is one row. An empty line is a row holding
// the empty string; a last line without a separator is a row; a
// separator at the end of the file starts no further row; a UTF-8 byte
// order mark at the start of the file is removed (as Hadoop's
// LineRecordReader does); an empty file has no rows, in both modes. Bytes
// are not checked to be UTF-8 (Spark's text source does not check them
// either).
//
// Rows are in the canonical Parquet layout of the schema (one leaf value,
// definition level 1 for a nullable column), the form the generated
// RowCodec of a source assembles; their bytes stay valid until the next
// ReadRows call.
type TextReader struct {
	f      FileInfo
	in     io.Reader
	o      TextOptions
	def    byte // the definition level of a value
	buf    []byte
	pos    int  // buf[pos:] is not yet consumed
	eof    bool // in returned io.EOF: buf holds the rest of the file
	bom    bool // the BOM check is done
	skipLF bool // the last line ended in '\r': skip a '\n' that follows
	done   bool // wholetext: the row was read
}

// NewTextReader returns a reader of file f's bytes in for schema, which
// must be one STRING column (Spark's text source refuses other schemas:
// "Text data source supports only a single column").
func NewTextReader(f FileInfo, in io.Reader, schema types.Schema, o TextOptions) (*TextReader, error) {
	if len(schema) != 1 || schema[0].Type.Kind != types.StringKind {
		return nil, fmt.Errorf("read %s: the text format reads one STRING column, not %s", f.LocalPath, schema)
	}
	r := &TextReader{f: f, in: in, o: o}
	if schema[0].Nullable {
		r.def = 1
	}
	return r, nil
}

// ReadRows implements RowReader: it reads up to len(rows) lines into rows,
// stopping early once the lines read hold about 4 MiB, and returns io.EOF
// with the last rows.
func (r *TextReader) ReadRows(rows []parquet.Row) (int, error) {
	if r.o.WholeText {
		return r.readWhole(rows)
	}
	// Rows of the previous call are no longer referenced: move the
	// unconsumed tail to the front of the buffer.
	r.buf = r.buf[:copy(r.buf, r.buf[r.pos:])]
	r.pos = 0
	n := 0
	for n < len(rows) && r.pos < textChunkBytes {
		line, ok, err := r.nextLine()
		if err != nil {
			return n, err
		}
		if !ok {
			return n, io.EOF
		}
		rows[n] = append(rows[n][:0], parquet.ByteArrayValue(line).Level(0, int(r.def), 0))
		n++
	}
	return n, nil
}

// readWhole reads the whole file as one row.
func (r *TextReader) readWhole(rows []parquet.Row) (int, error) {
	if r.done || len(rows) == 0 {
		return 0, io.EOF
	}
	r.done = true
	b, err := io.ReadAll(r.in)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", r.f.LocalPath, err)
	}
	b = bytes.TrimPrefix(b, utf8BOM)
	if len(b) == 0 {
		return 0, io.EOF
	}
	rows[0] = append(rows[0][:0], parquet.ByteArrayValue(b).Level(0, int(r.def), 0))
	return 1, io.EOF
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// nextLine returns the next line of buf[pos:], reading more of the file
// as needed; ok is false at the end of the file.
func (r *TextReader) nextLine() (line []byte, ok bool, err error) {
	from := r.pos // where the search for a separator resumes
	for {
		if !r.bom && (len(r.buf)-r.pos >= len(utf8BOM) || r.eof) {
			r.bom = true
			if bytes.HasPrefix(r.buf[r.pos:], utf8BOM) {
				r.pos += len(utf8BOM)
				from = r.pos
			}
		}
		if r.skipLF && (r.pos < len(r.buf) || r.eof) {
			r.skipLF = false
			if r.pos < len(r.buf) && r.buf[r.pos] == '\n' {
				r.pos++
				from = r.pos
			}
		}
		if r.bom && !r.skipLF {
			if end, next, found := r.separator(from); found {
				line = r.buf[r.pos:end:end]
				r.pos = next
				return line, true, nil
			}
			if r.eof {
				if r.pos == len(r.buf) {
					return nil, false, nil
				}
				line = r.buf[r.pos:len(r.buf):len(r.buf)]
				r.pos = len(r.buf)
				return line, true, nil
			}
			// Resume the search where a separator may still start.
			from = max(r.pos, len(r.buf)-max(1, len(r.o.LineSep))+1)
		}
		if err := r.fill(); err != nil {
			return nil, false, err
		}
	}
}

// separator finds the first line separator in buf[from:]: the line ends
// at end and the next starts at next. A '\r' that ends the buffer before
// the end of the file ends its line; the '\n' of a "\r\n" split across
// reads is skipped by nextLine (skipLF).
func (r *TextReader) separator(from int) (end, next int, found bool) {
	b := r.buf[from:]
	if r.o.LineSep != "" {
		i := bytes.Index(b, []byte(r.o.LineSep))
		if i < 0 {
			return 0, 0, false
		}
		return from + i, from + i + len(r.o.LineSep), true
	}
	i := bytes.IndexAny(b, "\r\n")
	if i < 0 {
		return 0, 0, false
	}
	end, next = from+i, from+i+1
	if b[i] == '\r' {
		if next < len(r.buf) {
			if r.buf[next] == '\n' {
				next++
			}
		} else {
			r.skipLF = true
		}
	}
	return end, next, true
}

// fill appends the next read of the file to buf, growing it when it is
// full (rows returned by this ReadRows call keep the old array), and sets
// eof at the file's end.
func (r *TextReader) fill() error {
	if r.eof {
		return nil
	}
	if cap(r.buf)-len(r.buf) < textReadSize {
		nb := make([]byte, len(r.buf), max(2*cap(r.buf), len(r.buf)+textReadSize))
		copy(nb, r.buf)
		r.buf = nb
	}
	n, err := r.in.Read(r.buf[len(r.buf):cap(r.buf)])
	r.buf = r.buf[:len(r.buf)+n]
	switch {
	case err == io.EOF:
		r.eof = true
	case err != nil:
		return fmt.Errorf("read %s: %w", r.f.LocalPath, err)
	}
	return nil
}
