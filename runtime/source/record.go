package source

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/types"
)

// OnMalformed is the spec's on_malformed: what a decoder does with a record
// that is not valid JSON or CSV, or with a value that does not fit its column.
type OnMalformed uint8

const (
	// Rescue (the default) keeps going: a mistyped value becomes NULL and is
	// kept in the rescued-data value; a malformed record becomes a row with
	// every column NULL and its raw text as the rescued-data value. This is
	// Databricks Auto Loader's behaviour with a rescued-data column.
	Rescue OnMalformed = iota
	// Fail stops at the first malformed record or mistyped value with a
	// *DecodeError (Spark's mode FAILFAST). Unknown fields and extra CSV
	// columns do not fail, as in Spark: they are rescued and counted.
	Fail
)

// Options are the settings shared by the JSON and CSV decoders.
type Options struct {
	OnMalformed OnMalformed
	// NewColumns is what a decoder does with a field the schema does not
	// declare: a JSON field, a CSV header name (DecodeParquet applies it to
	// Parquet columns).
	NewColumns NewColumns
	// TimeZone is the session time zone (spark.sql.session.timeZone) used for
	// TIMESTAMP strings without an offset; nil means UTC.
	TimeZone *time.Location
	// DateFormat is a Spark datetime pattern for DATE values (Spark's
	// dateFormat option). "" means Spark's default, yyyy-MM-dd with the
	// lenient fallback of the package doc; a pattern given is strict, as
	// Spark 3.3+ does not fall back when the option is set.
	DateFormat string
	// TimestampFormat is a Spark datetime pattern for TIMESTAMP values
	// (timestampFormat), with the same "" default and strictness; text
	// without a zone is in TimeZone. TIMESTAMP_NTZ columns do not use it
	// (Spark reads them with timestampNTZFormat).
	TimestampFormat string
}

// NewColumns is what a decoder does with a field the schema does not
// declare (Auto Loader's cloudFiles.schemaEvolutionMode).
type NewColumns uint8

// The modes of NewColumns.
const (
	// RescueNewColumns adds the field to the rescued data (Auto Loader's
	// rescue, the default).
	RescueNewColumns NewColumns = iota
	// FailOnNewColumns stops decoding with a *DecodeError naming the
	// field (failOnNewColumns).
	FailOnNewColumns
	// IgnoreNewColumns skips the field (none).
	IgnoreNewColumns
	// AddNewColumns (Auto Loader's addNewColumns) rescues the field as
	// RescueNewColumns does and notes it as a new column: a top-level JSON
	// field or a CSV header name. Decoding the file goes on; at its end Err
	// returns a *NewColumnsError naming the columns noted, of type STRING
	// (Auto Loader's type for JSON and CSV columns it does not infer).
	// Fields of nested values are only rescued. An integer of a
	// top-level column too large for its declared type is rescued and
	// noted as a widening of the column (the narrowest of SMALLINT, INT,
	// BIGINT and DECIMAL(38,0) that holds it: types.IntegerTypeFor), and
	// so is a number with more integer digits than its DECIMAL(p,s)
	// column holds (DECIMAL(p+k,s), the least k that holds it).
	AddNewColumns
)

// NewColumnsError says that a file holds columns the schema does not
// declare, under AddNewColumns: Columns in the order first met, each
// nullable. The caller decides what the stream does (the runtime records
// the evolved schema and stops; see runtime.SchemaChangeError).
type NewColumnsError struct {
	File    string
	Columns []types.Field
	// Widened are declared columns whose values need a wider type, each
	// with that type (Delta's type widening: types.Widens).
	Widened []types.Field
}

func (e *NewColumnsError) Error() string {
	var parts []string
	for _, c := range e.Columns {
		parts = append(parts, "new column "+c.Name+" "+c.Type.String())
	}
	for _, c := range e.Widened {
		parts = append(parts, "column "+c.Name+" needs "+c.Type.String())
	}
	return fmt.Sprintf("%s: %s", e.File, strings.Join(parts, ", "))
}

// integerTypes are the declared integer types by the names decoders use.
var integerTypes = map[string]types.Type{"TINYINT": types.ByteType, "SMALLINT": types.ShortType, "INT": types.IntType, "BIGINT": types.LongType}

// integerOverflow handles, for a top-level column declared as typ, an
// integer literal (digits) out of the type's range: see widenValue, with
// the narrowest type that holds it (types.IntegerTypeFor).
func (d *decoder) integerOverflow(column, typ string, digits []byte, line []byte, lineNo, off int) bool {
	if d.opts.NewColumns != AddNewColumns && d.opts.NewColumns != FailOnNewColumns {
		return false
	}
	from := integerTypes[typ]
	to, ok := types.IntegerTypeFor(from, string(digits))
	if !ok {
		return false
	}
	return d.widenValue(column, from, to, digits, line, lineNo, off)
}

// decimalOverflow handles, for a top-level column declared as
// DECIMAL(precision, scale), a number with more integer digits than the
// type holds: see widenValue, with the DECIMAL of the same scale and the
// least precision (at most 38) that holds it.
func (d *decoder) decimalOverflow(column string, precision, scale int, text []byte, commas bool, line []byte, lineNo, off int) bool {
	if d.opts.NewColumns != AddNewColumns && d.opts.NewColumns != FailOnNewColumns {
		return false
	}
	for p := precision + 1; p <= types.MaxDecimalPrecision; p++ {
		if _, ok := parseDecimal(text, p, scale, commas); ok {
			return d.widenValue(column, types.DecimalOf(precision, scale), types.DecimalOf(p, scale), text, line, lineNo, off)
		}
	}
	return false
}

// widenValue handles a value of a top-level column declared as from that
// needs type to (a widening, types.Widens): under AddNewColumns it notes
// the widening, keeping the widest type met, and returns false (the value
// is rescued as a mismatch); under FailOnNewColumns it fails decoding at
// (line, lineNo, off) naming the column and both types, and returns true.
func (d *decoder) widenValue(column string, from, to types.Type, value []byte, line []byte, lineNo, off int) bool {
	if d.opts.NewColumns == FailOnNewColumns {
		d.fail(line, lineNo, off, column, fmt.Sprintf("value %s does not fit column %s's type %s: it needs %s (schema_evolution: fail_on_new_columns): declare %s %s, or use schema_evolution: add_new_columns, and run again",
			truncate(value, 64), column, from, to, types.QuoteIdent(column), to))
		return true
	}
	for i, w := range d.widened {
		if w.Name == column {
			if types.Widens(w.Type, to) {
				d.widened[i].Type = to
			}
			return false
		}
	}
	d.widened = append(d.widened, types.Field{Name: column, Type: to, Nullable: true})
	return false
}

// noteNewColumn notes a field name under AddNewColumns, once.
func (d *decoder) noteNewColumn(name string) {
	if d.opts.NewColumns != AddNewColumns {
		return
	}
	for _, c := range d.newCols {
		if c.Name == name {
			return
		}
	}
	d.newCols = append(d.newCols, types.Field{Name: name, Type: types.StringType, Nullable: true})
}

// finalErr is the decoder's error, or at a clean end a *NewColumnsError
// when new columns or widenings were noted.
func (d *decoder) finalErr() error {
	if d.err == nil && (len(d.newCols) > 0 || len(d.widened) > 0) {
		return &NewColumnsError{File: localName(d.file), Columns: d.newCols, Widened: d.widened}
	}
	return d.err
}

// Stats count what a decoder produced from one file.
type Stats struct {
	// Rows is the number of records returned by NextRecord (rows emitted,
	// malformed ones included).
	Rows int64
	// Rescued is the number of rows whose rescued-data value is not NULL
	// (malformed rows included).
	Rescued int64
	// Malformed is the number of records that were not valid JSON or CSV, or
	// had the wrong number of CSV fields.
	Malformed int64
}

// DecodeError is the error of a decoder under on_malformed: fail, or of a
// failed read. Its message is "FILE:LINE:COLUMN: WHAT; HINT".
type DecodeError struct {
	// File is the file's local path (FileInfo.LocalPath, else Path).
	File string
	// Line is the 1-based physical line; Column the 1-based character
	// (not byte) position in it. Both are 0 for a read error.
	Line, Column int
	// Field is the column the value was meant for ("items.qty" for a nested
	// field), empty for a malformed record.
	Field string
	// Msg says what was wrong.
	Msg string
	// Err is an underlying I/O error, if any.
	Err error
}

// Error returns "FILE:LINE:COLUMN: column "NAME": WHAT; what to do", or
// "read FILE: ERR" for a read error.
func (e *DecodeError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("read %s: %v", e.File, e.Err)
	}
	where := ""
	if e.Field != "" {
		where = fmt.Sprintf("column %q: ", e.Field)
	}
	return fmt.Sprintf("%s:%d:%d: %s%s; fix the file, or set on_malformed: rescue to keep such values in the rescued-data column",
		e.File, e.Line, e.Column, where, e.Msg)
}

// Unwrap returns the underlying read error, if any.
func (e *DecodeError) Unwrap() error { return e.Err }

// charColumn returns the 1-based character column of byte offset off in line.
func charColumn(line []byte, off int) int {
	if off > len(line) {
		off = len(line)
	}
	return utf8.RuneCount(line[:off]) + 1
}

func localName(f FileInfo) string {
	if f.LocalPath != "" {
		return f.LocalPath
	}
	return f.Path
}

// rescuer accumulates one record's rescued-data value: a JSON object of the
// rescued fields with their raw JSON values, closed by "_file_path", as
// Databricks Auto Loader writes it (`{"cost":"$100","_file_path":"..."}`).
type rescuer struct {
	buf  []byte // `{"k":v,"k2":v2` while open; empty when nothing is rescued
	file string
}

// addRaw adds a field whose key is already JSON-escaped (the bytes between
// the quotes, as written in a JSON document) and whose value is raw JSON as
// written, except that NaN and Infinity become strings (see appendJSONText)
// so that the rescued value is always valid JSON.
func (r *rescuer) addRaw(key, value []byte) {
	r.open()
	r.buf = append(r.buf, '"')
	r.buf = append(r.buf, key...)
	r.buf = append(r.buf, '"', ':')
	r.buf = appendJSONText(r.buf, value, false)
}

// addText adds a field whose key and value are plain text (CSV): both are
// written as JSON strings.
func (r *rescuer) addText(key string, value []byte) {
	r.open()
	r.buf = sqlfn.AppendJSONString(r.buf, key)
	r.buf = append(r.buf, ':')
	r.buf = sqlfn.AppendJSONString(r.buf, value)
}

func (r *rescuer) open() {
	if len(r.buf) == 0 {
		r.buf = append(r.buf, '{')
	} else {
		r.buf = append(r.buf, ',')
	}
}

// take closes and returns the value (NULL when nothing was rescued) and
// resets the rescuer for the next record.
func (r *rescuer) take() types.Null[string] {
	if len(r.buf) == 0 {
		return types.Null[string]{}
	}
	r.buf = append(r.buf, `,"_file_path":`...)
	r.buf = sqlfn.AppendJSONString(r.buf, r.file)
	r.buf = append(r.buf, '}')
	s := string(r.buf)
	r.buf = r.buf[:0]
	return types.Some(s)
}

// decoder is the state the JSON and CSV decoders share: the file, the
// options, the rescued data and counts of the current record, the error.
type decoder struct {
	in       input
	file     FileInfo
	opts     Options
	tp       timeParser
	arena    arena
	resc     rescuer
	stats    Stats
	err      error
	lineNo   int  // physical lines read so far
	inRecord bool // between NextRecord and EndRecord
	bad      bool // the record is malformed or decoding failed: stop reading it
	// malformed: the record is not valid JSON / CSV (rescued whole).
	malformed bool
	// newCols are the new columns noted under AddNewColumns, widened the
	// declared columns whose values need a wider type.
	newCols, widened []types.Field
}

func newDecoder(r io.Reader, file FileInfo, opts Options) decoder {
	d := decoder{in: newInput(r), file: file, opts: opts, tp: timeParser{loc: opts.TimeZone}, resc: rescuer{file: file.Path}}
	if err := d.tp.compile(opts.DateFormat, opts.TimestampFormat); err != nil {
		d.err = &DecodeError{File: localName(file), Err: err}
	}
	return d
}

// startRecord resets the per-record state.
func (d *decoder) startRecord() {
	d.inRecord, d.bad, d.malformed = true, false, false
	d.resc.buf = d.resc.buf[:0]
	d.stats.Rows++
}

// readError records a read error of the input, if any.
func (d *decoder) readError() {
	if d.in.err != nil && d.err == nil {
		d.err = &DecodeError{File: localName(d.file), Err: d.in.err}
	}
}

// fail records the on_malformed: fail error.
func (d *decoder) fail(line []byte, lineNo, off int, field, msg string) {
	d.bad = true
	d.err = &DecodeError{File: localName(d.file), Line: lineNo, Column: charColumn(line, off), Field: field, Msg: msg}
}

// endRecord finishes the record; raw is its text for a malformed record.
func (d *decoder) endRecord(raw []byte) (rescued types.Null[string], malformed bool) {
	if !d.inRecord {
		return types.Null[string]{}, false
	}
	d.inRecord = false
	if d.err != nil {
		d.resc.buf = d.resc.buf[:0]
		return types.Null[string]{}, true
	}
	if d.malformed {
		d.resc.buf = d.resc.buf[:0]
		d.stats.Malformed++
		d.stats.Rescued++
		for len(raw) > 0 && raw[len(raw)-1] == '\r' {
			raw = raw[:len(raw)-1]
		}
		return types.Some(string(raw)), true
	}
	r := d.resc.take()
	if r.Valid {
		d.stats.Rescued++
	}
	return r, false
}
