package source

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

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

// physicalLine returns the physical line holding record offset off, its
// 1-based number and off's offset in it.
func (d *CSVDecoder) physicalLine(off int) (line []byte, lineNo, lineOff int) {
	off = min(off, len(d.rec))
	start := bytes.LastIndexByte(d.rec[:off], '\n') + 1
	end := bytes.IndexByte(d.rec[start:], '\n')
	if end < 0 {
		end = len(d.rec)
	} else {
		end += start
	}
	return d.rec[start:end], d.recLine + bytes.Count(d.rec[:start], []byte{'\n'}), off - start
}

// scanRecord reads the next record into d.rec and d.fields. ok is false at
// the end of input. A malformed record is returned with a message and the
// record offset where the problem is.
func (d *CSVDecoder) scanRecord() (ok bool, malformedMsg string, at int) {
	for {
		res, msg, at := d.scan()
		switch res {
		case scanRecord:
			return true, msg, at
		case scanEnd:
			return false, "", 0
		}
		if !d.in.fill() && d.in.eof && d.in.err != nil {
			return false, "", 0
		}
	}
}

const (
	scanRecord = iota
	scanEnd
	scanMore // the buffer ends inside the record: read more and rescan
)

// scan parses one record from the input buffer.
func (d *CSVDecoder) scan() (res int, malformedMsg string, at int) {
	buf, eof := d.in.buf, d.in.eof
	i := d.in.pos
	lines := 0
	// Skip empty lines.
	for {
		if i >= len(buf) {
			if eof {
				d.in.pos = i
				d.lineNo += lines
				return scanEnd, "", 0
			}
			return scanMore, "", 0
		}
		if buf[i] == '\n' {
			i++
			lines++
			continue
		}
		if buf[i] == '\r' {
			if i+1 >= len(buf) && !eof {
				return scanMore, "", 0
			}
			if i+1 >= len(buf) || buf[i+1] == '\n' {
				i = min(i+2, len(buf))
				lines++
				continue
			}
		}
		if c := d.copts.Comment; c != 0 && buf[i] == c {
			end := bytes.IndexByte(buf[i:], '\n')
			if end < 0 {
				if !eof {
					return scanMore, "", 0
				}
				i = len(buf)
				continue
			}
			i += end + 1
			lines++
			continue
		}
		break
	}
	start := i
	delim, quote, escape := d.copts.Delimiter, d.copts.Quote, d.copts.Escape
	if escape == quote {
		escape = 0
	}
	d.fields = d.fields[:0]
	recLines := 0 // line breaks inside the record
	lead, trail := d.copts.IgnoreLeadingWhiteSpace, d.copts.IgnoreTrailingWhiteSpace
	for {
		if lead {
			for i < len(buf) && d.isBlank(buf[i]) {
				i++
			}
		}
		f := csvField{off: i - start}
		if quote != 0 && i < len(buf) && buf[i] == quote {
			f.quoted = true
			i++
			fs := i
			for {
				for i < len(buf) && buf[i] != quote && buf[i] != escape && buf[i] != '\n' {
					i++
				}
				if i >= len(buf) {
					if !eof {
						return scanMore, "", 0
					}
					d.takeRecord(buf, start, len(buf), lines, recLines)
					return scanRecord, "unterminated quoted field", f.off
				}
				c := buf[i]
				if c == '\n' {
					if d.copts.SingleLine {
						d.takeRecord(buf, start, i+1, lines, recLines+1)
						return scanRecord, "unterminated quoted field (multi_line is false: a quoted value cannot span lines)", f.off
					}
					recLines++
					i++
					continue
				}
				if i+1 >= len(buf) && !eof {
					return scanMore, "", 0
				}
				next := byte(0)
				if i+1 < len(buf) {
					next = buf[i+1]
				}
				if c != quote { // the escape character (or NUL when there is none)
					if c == escape && escape != 0 && next == quote {
						f.escaped = true
						i += 2
					} else {
						i++
					}
					continue
				}
				if next == quote { // doubled quote
					f.escaped = true
					i += 2
					continue
				}
				f.text = buf[fs:i]
				i++
				break
			}
			if trail {
				for i < len(buf) && d.isBlank(buf[i]) {
					i++
				}
			}
		} else {
			fs := i
			for i < len(buf) && buf[i] != delim && buf[i] != '\n' {
				i++
			}
			if i >= len(buf) && !eof {
				return scanMore, "", 0
			}
			f.text = buf[fs:i]
			if i >= len(buf) || buf[i] == '\n' {
				f.text = bytes.TrimSuffix(f.text, []byte{'\r'})
			}
			if trail {
				for n := len(f.text); n > 0 && d.isBlank(f.text[n-1]); n-- {
					f.text = f.text[:n-1]
				}
			}
		}
		d.fields = append(d.fields, f)
		// After a field: a delimiter, the end of the record, or an error.
		switch {
		case i >= len(buf):
			if !eof {
				return scanMore, "", 0
			}
			d.takeRecord(buf, start, i, lines, recLines)
			return scanRecord, "", 0
		case buf[i] == delim:
			i++
			continue
		case buf[i] == '\n':
			d.takeRecord(buf, start, i+1, lines, recLines+1)
			return scanRecord, "", 0
		case buf[i] == '\r' && (i+1 >= len(buf) || buf[i+1] == '\n'):
			if i+1 >= len(buf) && !eof {
				return scanMore, "", 0
			}
			d.takeRecord(buf, start, min(i+2, len(buf)), lines, recLines+1)
			return scanRecord, "", 0
		}
		// Text after a closing quote: the record runs to the end of the line.
		at := i - start
		end := bytes.IndexByte(buf[i:], '\n')
		if end < 0 {
			if !eof {
				return scanMore, "", 0
			}
			end = len(buf)
		} else {
			end += i + 1
			recLines++
		}
		d.takeRecord(buf, start, end, lines, recLines)
		return scanRecord, fmt.Sprintf("unexpected %q after a closing quote", truncate(buf[i:min(i+1, len(buf))], 4)), at
	}
}

// isBlank reports whether c is white space that the ignore*WhiteSpace
// options drop: a byte up to ' ' other than a line break or the delimiter.
func (d *CSVDecoder) isBlank(c byte) bool {
	return c <= ' ' && c != '\n' && c != '\r' && c != d.copts.Delimiter
}

// takeRecord makes buf[start:end] the current record and consumes it.
func (d *CSVDecoder) takeRecord(buf []byte, start, end, skipped, recLines int) {
	d.rec = buf[start:end]
	d.recASCII = isASCII(d.rec)
	d.recLine = d.lineNo + skipped + 1
	d.lineNo += skipped + recLines
	d.in.pos = end
}

// isASCII reports whether b has no byte above 0x7f, eight bytes at a time.
func isASCII(b []byte) bool {
	var acc uint64
	for len(b) >= 8 {
		acc |= binary.LittleEndian.Uint64(b)
		b = b[8:]
	}
	for _, c := range b {
		acc |= uint64(c)
	}
	return acc&0x8080808080808080 == 0
}

// unquote returns a field's text with doubled and escaped quotes undone.
// The bytes are in the arena when they had to be rewritten.
func (d *CSVDecoder) unquote(f *csvField) []byte {
	if !f.escaped {
		return f.text
	}
	quote, escape := d.copts.Quote, d.copts.Escape
	d.arena.reserve(len(f.text))
	m := d.arena.mark()
	t := f.text
	for i := 0; i < len(t); i++ {
		c := t[i]
		if (c == quote || c == escape && escape != 0) && i+1 < len(t) && t[i+1] == quote {
			i++
			c = quote
		}
		d.arena.buf = append(d.arena.buf, c)
	}
	return d.arena.bytesFrom(m)
}

// isNull reports whether a field is NULL for any column type: an unquoted
// empty field, or the null_value text.
func (d *CSVDecoder) isNull(f *csvField) bool {
	if len(f.text) == 0 && !f.quoted {
		return true
	}
	return d.copts.NullValue != "" && string(f.text) == d.copts.NullValue && !f.escaped
}

// field returns the field of schema column col, or nil when it is NULL for
// a non-STRING type (missing, NULL, or empty) or the record is malformed.
func (d *CSVDecoder) field(col int) *csvField {
	if d.bad || col < 0 || col >= len(d.colField) {
		return nil
	}
	fi := d.colField[col]
	if fi < 0 || fi >= len(d.fields) {
		return nil
	}
	f := &d.fields[fi]
	if d.isNull(f) {
		return nil
	}
	if len(f.text) == 0 {
		if !f.quoted || len(d.empty.text) == 0 {
			return nil
		}
		d.empty.off = f.off
		return &d.empty
	}
	return f
}

// mismatch records that column col's field does not fit typ.
func (d *CSVDecoder) mismatch(col int, f *csvField, typ string) {
	fi := d.colField[col]
	if d.opts.OnMalformed == Fail {
		line, lineNo, off := d.physicalLine(f.off)
		d.fail(line, lineNo, off, d.columns[col], fmt.Sprintf("CSV value %q is not a valid %s", truncate(d.unquote(f), 64), typ))
		return
	}
	d.resc.addText(d.names[fi], d.unquote(f))
}

// String reads STRING column col: the field's text with quotes undone, ""
// for a quoted empty field, NULL for a missing column, an unquoted empty
// field or the null_value text.
func (d *CSVDecoder) String(col int) types.Null[string] {
	if d.bad || col < 0 || col >= len(d.colField) {
		return types.Null[string]{}
	}
	fi := d.colField[col]
	if fi < 0 || fi >= len(d.fields) {
		return types.Null[string]{}
	}
	f := &d.fields[fi]
	if d.isNull(f) {
		return types.Null[string]{}
	}
	if f.quoted && len(f.text) == 0 && d.copts.EmptyValue != "" {
		return types.Some(d.copts.EmptyValue)
	}
	t := d.unquote(f)
	if !d.recASCII && !utf8.Valid(t) {
		d.arena.reserve(len(t) + 8)
		m := d.arena.mark()
		d.arena.buf = append(d.arena.buf, bytes.ToValidUTF8(t, []byte("\ufffd"))...)
		return types.Some(d.arena.stringFrom(m))
	}
	return types.Some(bytesString(t))
}

// Bool reads BOOLEAN column col: "true" or "false" in any case (Scala's
// toBoolean, as Spark); other text is a mismatch (NULL, rescued).
func (d *CSVDecoder) Bool(col int) types.Null[bool] {
	f := d.field(col)
	if f == nil {
		return types.Null[bool]{}
	}
	v, ok := parseBoolText(d.unquote(f))
	if !ok {
		d.mismatch(col, f, "BOOLEAN")
	}
	return types.Null[bool]{V: v, Valid: ok}
}

func (d *CSVDecoder) integer(col int, lo, hi int64, typ string) (int64, bool) {
	f := d.field(col)
	if f == nil {
		return 0, false
	}
	t := d.unquote(f)
	v, ok := parseInt(t, lo, hi)
	if !ok {
		line, lineNo, off := d.physicalLine(f.off)
		if !d.integerOverflow(d.columns[col], typ, t, line, lineNo, off) {
			d.mismatch(col, f, typ)
		}
	}
	return v, ok
}

// Int8 reads TINYINT column col (see Int64).
func (d *CSVDecoder) Int8(col int) types.Null[int8] {
	v, ok := d.integer(col, math.MinInt8, math.MaxInt8, "TINYINT")
	return types.Null[int8]{V: int8(v), Valid: ok}
}

// Int16 reads SMALLINT column col (see Int64).
func (d *CSVDecoder) Int16(col int) types.Null[int16] {
	v, ok := d.integer(col, math.MinInt16, math.MaxInt16, "SMALLINT")
	return types.Null[int16]{V: int16(v), Valid: ok}
}

// Int32 reads INT column col (see Int64).
func (d *CSVDecoder) Int32(col int) types.Null[int32] {
	v, ok := d.integer(col, math.MinInt32, math.MaxInt32, "INT")
	return types.Null[int32]{V: int32(v), Valid: ok}
}

// Int64 reads BIGINT column col: [+-]digits within the type's range (Java's
// Long.parseLong, as Spark); anything else ("1.0", " 1", out of range) is a
// mismatch (NULL, rescued). Empty is NULL.
func (d *CSVDecoder) Int64(col int) types.Null[int64] {
	v, ok := d.integer(col, math.MinInt64, math.MaxInt64, "BIGINT")
	return types.Null[int64]{V: v, Valid: ok}
}

// Float32 reads FLOAT column col (see Float64).
func (d *CSVDecoder) Float32(col int) types.Null[float32] {
	v, ok := d.float(col, 32, "FLOAT")
	return types.Null[float32]{V: float32(v), Valid: ok}
}

// Float64 reads DOUBLE column col: Java's Double.parseDouble syntax plus
// Spark's "NaN", "Inf" and "-Inf"; other text is a mismatch. Empty is NULL.
func (d *CSVDecoder) Float64(col int) types.Null[float64] {
	v, ok := d.float(col, 64, "DOUBLE")
	return types.Null[float64]{V: v, Valid: ok}
}

func (d *CSVDecoder) float(col, bitSize int, typ string) (float64, bool) {
	f := d.field(col)
	if f == nil {
		return 0, false
	}
	t := d.unquote(f)
	if nan := d.copts.NaNValue; nan != "" && string(t) == nan {
		return math.NaN(), true
	}
	v, ok := parseFloatText(t, bitSize)
	if !ok {
		d.mismatch(col, f, typ)
	}
	return v, ok
}

// Decimal reads DECIMAL(precision, scale) column col: BigDecimal syntax,
// commas ignored, rounded HALF_UP to scale; more than precision digits is a
// mismatch (see JSONDecoder.Decimal). Empty is NULL.
func (d *CSVDecoder) Decimal(col, precision, scale int) types.Null[types.Decimal] {
	f := d.field(col)
	if f == nil {
		return types.Null[types.Decimal]{}
	}
	t := d.unquote(f)
	v, ok := parseDecimal(t, precision, scale, true)
	if !ok {
		line, lineNo, off := d.physicalLine(f.off)
		if !d.decimalOverflow(d.columns[col], precision, scale, t, true, line, lineNo, off) {
			d.mismatch(col, f, fmt.Sprintf("DECIMAL(%d,%d)", precision, scale))
		}
	}
	return types.Null[types.Decimal]{V: v, Valid: ok}
}

// Date reads DATE column col (forms in the package doc). Empty is NULL.
func (d *CSVDecoder) Date(col int) types.Null[types.Date] {
	f := d.field(col)
	if f == nil {
		return types.Null[types.Date]{}
	}
	v, ok := d.tp.parseDate(d.unquote(f))
	if !ok {
		d.mismatch(col, f, "DATE")
	}
	return types.Null[types.Date]{V: v, Valid: ok}
}

// Timestamp reads TIMESTAMP column col (forms in the package doc; without a
// zone, in Options.TimeZone). Empty is NULL.
func (d *CSVDecoder) Timestamp(col int) types.Null[types.Timestamp] {
	return d.timestamp(col, false)
}

// TimestampNTZ reads TIMESTAMP_NTZ column col: as Timestamp, but a zone is a
// mismatch and the wall-clock time is kept.
func (d *CSVDecoder) TimestampNTZ(col int) types.Null[types.Timestamp] {
	return d.timestamp(col, true)
}

func (d *CSVDecoder) timestamp(col int, ntz bool) types.Null[types.Timestamp] {
	f := d.field(col)
	if f == nil {
		return types.Null[types.Timestamp]{}
	}
	v, ok := d.tp.parseTimestamp(d.unquote(f), ntz)
	if !ok {
		typ := "TIMESTAMP"
		if ntz {
			typ = "TIMESTAMP_NTZ"
		}
		d.mismatch(col, f, typ)
	}
	return types.Null[types.Timestamp]{V: types.Timestamp(v), Valid: ok}
}

// Binary reads BINARY column col: the field's bytes, as Spark's CSV reader
// takes a string's bytes (no base64). Empty is NULL. The slice's capacity
// ends at its length.
func (d *CSVDecoder) Binary(col int) types.Null[[]byte] {
	f := d.field(col)
	if f == nil {
		return types.Null[[]byte]{}
	}
	t := d.unquote(f)
	return types.Some(t[:len(t):len(t)])
}
