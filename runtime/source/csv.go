package source

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/transform"

	"github.com/pipegen/pipegen/runtime/types"
)

// CSVOptions are the spec's csv: options, with the meanings of Spark's CSV
// data source options of the same names. Start from DefaultCSVOptions.
type CSVOptions struct {
	Options
	// Header says the first record names the columns (default true). Header
	// names map to schema columns by name, exactly or else ignoring case; a
	// schema column missing from the header is NULL in every row; a file
	// column not in the schema is rescued under its header name. Without a
	// header, fields map to columns by position and each record must have
	// exactly as many fields as the schema has columns.
	Header bool
	// Delimiter separates fields (Spark's sep, default ','). One byte.
	Delimiter byte
	// Quote encloses fields holding delimiters, quotes or line breaks
	// (default '"'); 0 turns quoting off (Spark's quote "").
	Quote byte
	// Escape, inside a quoted field and before Quote, makes the quote
	// literal (Spark's escape, default '\\'). Independently of it, a doubled
	// quote inside a quoted field is a literal quote (RFC 4180). 0 means
	// none.
	Escape byte
	// NullValue is the text of a NULL (Spark's nullValue). An unquoted empty
	// field is always NULL; a quoted empty field is the empty string for a
	// STRING column and NULL for other types. When NullValue is not empty, a
	// field equal to it, quoted or not, is NULL too.
	NullValue string
	// EmptyValue is the value of a quoted empty field ("") (Spark's
	// emptyValue for reading, default ""): a STRING column reads this text;
	// other types parse it (so a non-empty EmptyValue is a mismatch there),
	// and an empty EmptyValue is NULL for them.
	EmptyValue string
	// NaNValue is a further text read as NaN by FLOAT and DOUBLE columns
	// (Spark's nanValue); "NaN", "Inf" and "-Inf" are always read.
	NaNValue string
	// Comment starts a comment line (Spark's comment; 0, the default, means
	// none): a line whose first byte it is, where a record would start, is
	// skipped. Inside a record (a quoted value spanning lines) it is text.
	Comment byte
	// IgnoreLeadingWhiteSpace and IgnoreTrailingWhiteSpace drop blanks
	// (bytes up to ' ' other than line breaks and the delimiter) before and
	// after each value, outside its quotes (Spark's ignoreLeadingWhiteSpace
	// and ignoreTrailingWhiteSpace; both false by default when reading).
	IgnoreLeadingWhiteSpace, IgnoreTrailingWhiteSpace bool
	// SingleLine makes each physical line one record (Spark's multiLine
	// false): a quoted value cannot span lines, and a line ending inside
	// quotes is a malformed record ("unterminated quoted field"). The default,
	// false, lets quoted values hold line breaks (Spark's multiLine true).
	SingleLine bool
	// Encoding is the files' character set (Spark's encoding): "" or UTF-8,
	// or any IANA name or alias golang.org/x/text knows (ISO-8859-1,
	// windows-1252, UTF-16LE, Shift_JIS, ...); the text is converted to
	// UTF-8 before parsing. An unknown name fails the file (CSVEncoding
	// checks names).
	Encoding string
}

// DefaultCSVOptions returns Spark's CSV defaults with a header: header true,
// delimiter ',', quote '"', escape '\\', nullValue "", one record per
// line only where quotes do not span lines (multiLine true).
func DefaultCSVOptions() CSVOptions {
	return CSVOptions{Header: true, Delimiter: ',', Quote: '"', Escape: '\\'}
}

// CSVEncoding returns the encoding of a Spark encoding name, nil for UTF-8
// (no conversion needed). The error says the name is unknown.
func CSVEncoding(name string) (encoding.Encoding, error) {
	switch strings.ToLower(strings.ReplaceAll(name, "_", "-")) {
	case "", "utf-8", "utf8":
		return nil, nil
	}
	e, err := ianaindex.IANA.Encoding(name)
	if err != nil || e == nil {
		return nil, fmt.Errorf("unknown or unsupported encoding %q", name)
	}
	return e, nil
}

// csvField is one field of the current record: a slice of the input buffer.
type csvField struct {
	text    []byte // without enclosing quotes
	off     int    // offset in the record of the field's first byte
	quoted  bool
	escaped bool // holds doubled or escaped quotes to undo
}

// CSVDecoder reads one CSV file (RFC 4180 with Spark's options) as
// generated code drives it: NextRecord, then one typed read per schema
// column by index, then EndRecord. See the package doc.
//
// Records may span lines (quoted line breaks); LF and CRLF end records;
// empty lines are skipped; a UTF-8 BOM is skipped. A record with the wrong
// number of fields, an unterminated quoted field, or text after a closing
// quote is malformed. Invalid UTF-8 in a STRING value is replaced by U+FFFD,
// as Spark's decoding does. A CSVDecoder never panics on any input and is not
// safe for concurrent use; use one per file.
type CSVDecoder struct {
	decoder
	copts    CSVOptions
	columns  []string
	colField []int    // schema column -> field index, -1 when the file has none
	names    []string // rescued-data key of each field index
	expect   int      // fields per record; -1 until the header is read
	extra    []bool   // field index -> not mapped to a column (rescued)

	rec      []byte // the current record's text, with its line terminator
	recLine  int    // physical line where it starts
	recASCII bool   // rec holds only ASCII bytes: no UTF-8 check needed
	fields   []csvField
	empty    csvField // EmptyValue as a field, for quoted empty fields
}

// NewCSVDecoder returns a decoder for the CSV content of file read from r,
// for a schema whose columns are named columns (in order; the indexes of
// the typed reads).
func NewCSVDecoder(r io.Reader, file FileInfo, columns []string, opts CSVOptions) *CSVDecoder {
	enc, encErr := CSVEncoding(opts.Encoding)
	if enc != nil {
		r = transform.NewReader(r, enc.NewDecoder())
	}
	d := &CSVDecoder{decoder: newDecoder(r, file, opts.Options), copts: opts, columns: columns, expect: -1}
	if encErr != nil && d.err == nil {
		d.err = &DecodeError{File: localName(file), Err: encErr}
	}
	d.empty = csvField{text: []byte(opts.EmptyValue), quoted: true}
	if !opts.Header {
		d.mapPositional()
	}
	return d
}

func (d *CSVDecoder) mapPositional() {
	d.colField = make([]int, len(d.columns))
	d.names = append([]string(nil), d.columns...)
	for i := range d.colField {
		d.colField[i] = i
	}
	d.expect = len(d.columns)
	d.extra = make([]bool, len(d.columns))
}

// mapHeader maps the header record's names to schema columns.
func (d *CSVDecoder) mapHeader() {
	n := len(d.fields)
	d.names = make([]string, n)
	d.extra = make([]bool, n)
	d.colField = make([]int, len(d.columns))
	for i := range d.colField {
		d.colField[i] = -1
	}
	for i := range d.fields {
		name := string(d.unquote(&d.fields[i]))
		if name == "" {
			name = "_c" + strconv.Itoa(i)
		}
		d.names[i] = name
	}
	// Exact names first, then names equal ignoring case; the first file
	// column wins, later duplicates are rescued.
	for pass := 0; pass < 2; pass++ {
		for i, name := range d.names {
			for c, col := range d.columns {
				if d.colField[c] >= 0 || d.fieldMapped(i) {
					continue
				}
				if pass == 0 && name == col || pass == 1 && strings.EqualFold(name, col) {
					d.colField[c] = i
				}
			}
		}
	}
	for i := range d.names {
		d.extra[i] = !d.fieldMapped(i)
	}
	d.expect = n
}

// newColumns applies Options.NewColumns to the header's names that map to
// no schema column: under FailOnNewColumns the first one fails the file
// (its header line and column) and newColumns returns true; under
// IgnoreNewColumns they are dropped rather than rescued. Names that only
// duplicate a mapped column are new columns too, as Auto Loader sees them.
func (d *CSVDecoder) newColumns() bool {
	for i, name := range d.names {
		if !d.extra[i] {
			continue
		}
		switch d.opts.NewColumns {
		case IgnoreNewColumns:
			d.extra[i] = false
		case AddNewColumns:
			if !d.caseDuplicate(name) {
				d.noteNewColumn(name)
			}
		case FailOnNewColumns:
			line, lineNo, off := d.physicalLine(d.fields[i].off)
			d.fail(line, lineNo, off, name, fmt.Sprintf("column %q of the header is not in the source's schema (schema_evolution: fail_on_new_columns): add it to the schema (pipegen infer --write prints the new one) and run again", name))
			return true
		}
	}
	return false
}

// caseDuplicate says whether name equals a schema column's ignoring case
// (a second header name for a mapped column, rescued, never a new column).
func (d *CSVDecoder) caseDuplicate(name string) bool {
	for _, c := range d.columns {
		if strings.EqualFold(c, name) {
			return true
		}
	}
	return false
}

func (d *CSVDecoder) fieldMapped(i int) bool {
	for _, f := range d.colField {
		if f == i {
			return true
		}
	}
	return false
}

// NextRecord advances to the next record and returns true, or returns false
// at the end of the file or after an error (see Err). With a header, the
// first record is read as the header first. Extra fields are rescued here.
// It ends the previous record if EndRecord was not called.
func (d *CSVDecoder) NextRecord() bool {
	if d.inRecord {
		d.EndRecord()
	}
	for d.err == nil {
		ok, malformedMsg, at := d.scanRecord()
		if !ok {
			d.readError()
			return false
		}
		if d.expect < 0 && malformedMsg == "" {
			d.mapHeader()
			if d.newColumns() {
				return false
			}
			continue
		}
		d.startRecord()
		if d.expect < 0 { // a malformed header: fall back to positions
			d.mapPositional()
		}
		if malformedMsg == "" && len(d.fields) != d.expect {
			malformedMsg = fmt.Sprintf("expected %d fields, found %d", d.expect, len(d.fields))
			at = 0
		}
		if malformedMsg != "" {
			d.malformed, d.bad = true, true
			if d.opts.OnMalformed == Fail {
				line, lineNo, off := d.physicalLine(at)
				d.fail(line, lineNo, off, "", "malformed CSV record: "+malformedMsg)
			}
			return true
		}
		for i := range d.fields {
			if d.extra[i] {
				f := &d.fields[i]
				if d.isNull(f) {
					continue
				}
				d.resc.addText(d.names[i], d.unquote(f))
			}
		}
		return true
	}
	return false
}

// EndRecord finishes the current record and returns its rescued-data value
// and whether it is malformed, with the same meaning as
// JSONDecoder.EndRecord; the raw text of a malformed CSV record is its
// physical lines without the final line terminator.
func (d *CSVDecoder) EndRecord() (rescued types.Null[string], malformed bool) {
	raw := d.rec
	if n := len(raw); n > 0 && raw[n-1] == '\n' {
		raw = raw[:n-1]
	}
	return d.endRecord(raw)
}

// RecordLine returns the 1-based line the current record starts on (for
// messages).
func (d *CSVDecoder) RecordLine() int { return d.recLine }

// Err returns the error that stopped the decoder (see JSONDecoder.Err).
func (d *CSVDecoder) Err() error { return d.finalErr() }

// Stats returns the counts so far.
func (d *CSVDecoder) Stats() Stats { return d.stats }
