package source

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"math"

	"github.com/pipegen/pipegen/runtime/types"
)

// JSONDecoder reads one JSON-lines file (one JSON object per line, blank
// lines skipped) as generated code drives it: record by record, field by
// field, one typed read per value. See the package doc for the calling
// pattern, the conversions, the rescue rules and the lifetime of strings.
//
// A JSONDecoder never panics on any input and is not safe for concurrent
// use; use one per file.
type JSONDecoder struct {
	decoder
	jopts JSONOptions
	stack []byte // scratch for skipValue

	line []byte // the current record's line, without its '\n'
	// orig is the line as written; line differs from it when lenient syntax
	// was rewritten into standard JSON, and pm maps offsets back.
	orig      []byte
	rewritten bool
	pm        posMap
	pos       int // offset in line of the next byte to read

	depth   int  // open objects and arrays; 1 is inside the root object
	first   bool // just after the '{' or '[' of the innermost container
	pending bool // a value is due at pos (after NextField or NextElement)

	key    []byte // the current field's name, unescaped; valid until NextField
	keyBuf []byte // scratch for unescaping keys
	valBuf []byte // scratch for unescaping strings that are parsed, not kept

	colKey    []byte // the current top-level field's name as written (escaped)
	colStart  int    // offset in line of its value
	colFailed bool   // part of its value is rescued
}

// NewJSONDecoder returns a decoder for the JSON-lines content of file read
// from r (typically the *os.File opened at file.LocalPath, read whole, or in
// 8 MiB chunks when larger than 256 MiB). A UTF-8 BOM is skipped. file.Path
// is the "_file_path" of rescued data; errors name file.LocalPath.
func NewJSONDecoder(r io.Reader, file FileInfo, opts Options) *JSONDecoder {
	return NewJSONDecoderWith(r, file, JSONOptions{Options: opts})
}

// NextRecord advances to the next non-blank line and enters its root
// object, so that NextField iterates its fields. It returns false at the end
// of the file or after an error (see Err). It ends the previous record if
// EndRecord was not called.
//
// A line whose content is not a JSON object is still a record: a malformed
// one (NextField returns false at once and EndRecord reports it).
func (d *JSONDecoder) NextRecord() bool {
	if d.inRecord {
		d.EndRecord()
	}
	if d.err != nil {
		return false
	}
	for {
		line, ok := d.in.nextLine()
		if !ok {
			d.readError()
			return false
		}
		d.lineNo++
		orig, rewritten, bad, msg := line, false, -1, ""
		if d.jopts.needsRewrite(line) {
			var out []byte
			if out, bad, msg = d.jopts.rewriteLenient(line, &d.pm); out != nil {
				line, rewritten = out, true
			}
		}
		i := skipWS(line, 0)
		if i == len(line) {
			continue
		}
		d.startRecord()
		d.line, d.pos, d.orig, d.rewritten = line, i, orig, rewritten
		d.depth, d.first, d.pending, d.colFailed = 0, false, false, false
		if bad >= 0 {
			d.malform(bad, msg)
			return true
		}
		if line[i] != '{' {
			d.malform(i, "a record must be a JSON object")
			return true
		}
		d.pos, d.depth, d.first = i+1, 1, true
		return true
	}
}

// EndRecord finishes the current record. rescued is the rescued-data value:
// NULL when nothing was rescued, else a JSON object of the rescued fields
// with their raw JSON values and "_file_path" (Databricks Auto Loader's
// form), or, for a malformed record, the raw line. malformed reports a
// record that is not valid JSON (or a decoding failure under on_malformed:
// fail): the caller must then discard every column value it decoded (all
// columns NULL) and keep only rescued.
//
// Generated code calls it once per record after the NextField loop of the
// root object has returned false.
func (d *JSONDecoder) EndRecord() (rescued types.Null[string], malformed bool) {
	return d.endRecord(d.orig)
}

// origOff returns the offset in the line as written of offset i of d.line.
func (d *JSONDecoder) origOff(i int) int {
	if d.rewritten {
		return d.pm.orig(i)
	}
	return i
}

// RecordLine returns the 1-based line of the current record (for messages).
func (d *JSONDecoder) RecordLine() int { return d.lineNo }

// Err returns the error that stopped the decoder: a *DecodeError naming
// file, line and column under on_malformed: fail, or a read error. It is nil
// at a clean end of file. When Err is not nil, the rows of the batch being
// built must be discarded: the update fails.
func (d *JSONDecoder) Err() error { return d.finalErr() }

// Stats returns the counts so far.
func (d *JSONDecoder) Stats() Stats { return d.stats }

// malform marks the record malformed at byte offset i.
func (d *JSONDecoder) malform(i int, msg string) {
	if d.bad {
		return
	}
	d.bad, d.malformed, d.pending = true, true, false
	if d.opts.OnMalformed == Fail {
		d.fail(d.orig, d.lineNo, d.origOff(i), "", "malformed JSON record: "+msg)
	}
	d.pos = len(d.line)
}

// syntaxError marks the record malformed because of invalid JSON at i.
func (d *JSONDecoder) syntaxError(i int) {
	msg := "invalid JSON"
	if i < len(d.line) {
		switch c := d.line[i]; {
		case c == '"':
			msg = "invalid or unterminated JSON string"
		case c == '-' || c >= '0' && c <= '9':
			msg = "invalid JSON number"
		case c == '{' || c == '[':
			msg = "invalid or unterminated JSON object or array"
		default:
			msg = fmt.Sprintf("unexpected %q", truncate(d.line[i:], 20))
		}
	} else {
		msg = "unexpected end of line"
	}
	d.malform(i, msg)
}

// mismatch records that the value at line[start:d.pos] does not fit the
// column's type: the column is rescued (its leaf value is NULL), or, under
// on_malformed: fail, decoding stops.
func (d *JSONDecoder) mismatch(start int, typ string) {
	if d.opts.OnMalformed == Fail {
		field := string(d.colKey)
		if d.depth > 1 && string(d.key) != field {
			field += "." + string(d.key)
		}
		d.fail(d.orig, d.lineNo, d.origOff(start), field, fmt.Sprintf("JSON value %s is not a valid %s", truncate(d.line[start:d.pos], 64), typ))
		d.pending = false
		d.pos = len(d.line)
		return
	}
	d.colFailed = true
}

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}

// begin starts reading the value due at pos; ok false means there is none.
func (d *JSONDecoder) begin() (c byte, ok bool) {
	if !d.pending {
		return 0, false
	}
	d.pending = false
	return d.line[d.pos], true
}

// skipMismatch skips the value at pos, which does not fit typ, and records
// the mismatch. JSON null is not a mismatch.
func (d *JSONDecoder) skipMismatch(typ string) {
	start := d.pos
	if d.line[start] == 'n' {
		d.null()
		return
	}
	if d.skipOver() {
		d.mismatch(start, typ)
	}
}

// skipOver moves past the value at pos and reports whether it is valid
// JSON; if not, the record is malformed.
func (d *JSONDecoder) skipOver() bool {
	start := d.pos
	end, stack := skipValue(d.line, start, d.stack)
	d.stack = stack
	if end < 0 {
		d.syntaxError(start)
		return false
	}
	d.pos = end
	return true
}

// null reads the literal null at pos.
func (d *JSONDecoder) null() {
	if !hasLiteral(d.line, d.pos, "null") {
		d.syntaxError(d.pos)
		return
	}
	d.pos += 4
}

// NextField advances to the next field of the innermost open object and
// returns true, or consumes its closing '}' and returns false. After true,
// Key names the field and exactly one value read (String, Int64, ...,
// BeginObject, BeginArray, Unknown or Skip) must follow; a value left unread
// is rescued as Unknown does. It returns false at once on a malformed record.
func (d *JSONDecoder) NextField() bool {
	i := d.member('}', "a field")
	if i < 0 {
		return false
	}
	line := d.line
	if line[i] != '"' {
		d.malform(i, "expected a field name")
		return false
	}
	end, escaped := scanString(line, i)
	if end < 0 {
		d.syntaxError(i)
		return false
	}
	raw := line[i+1 : end-1]
	if escaped {
		d.keyBuf = appendUnescaped(d.keyBuf[:0], raw)
		d.key = d.keyBuf
	} else {
		d.key = raw
	}
	i = skipWS(line, end)
	if i >= len(line) || line[i] != ':' {
		d.malform(i, "expected ':' after a field name")
		return false
	}
	i = skipWS(line, i+1)
	if i >= len(line) {
		d.syntaxError(i)
		return false
	}
	if d.depth == 1 {
		d.colKey, d.colStart = raw, i
	}
	d.pos, d.pending = i, true
	return true
}

// member moves to the next member of the innermost container, which closer
// closes, and returns the offset of its first byte; it returns -1 after
// consuming closer, or when the record is malformed. A pending value is
// rescued first, and a finished top-level column whose value was partly
// rescued is added to the rescued data.
func (d *JSONDecoder) member(closer byte, what string) int {
	if d.bad || d.depth == 0 {
		return -1
	}
	if d.pending {
		d.Unknown()
		if d.bad {
			return -1
		}
	}
	line := d.line
	if d.depth == 1 && d.colFailed {
		d.resc.addRaw(d.colKey, line[d.colStart:d.pos])
		d.colFailed = false
	}
	i := skipWS(line, d.pos)
	if i >= len(line) {
		d.syntaxError(i)
		return -1
	}
	if c := line[i]; c == closer {
		d.first = false
		d.close(i)
		return -1
	} else if !d.first {
		if c != ',' {
			d.malform(i, fmt.Sprintf("expected ',' or '%c' after %s", closer, what))
			return -1
		}
		i = skipWS(line, i+1)
		if i >= len(line) {
			d.syntaxError(i)
			return -1
		}
	}
	d.first = false
	return i
}

// close consumes the '}' or ']' at i that closes the innermost container.
func (d *JSONDecoder) close(i int) {
	d.pos = i + 1
	d.depth--
	if d.depth == 0 {
		if j := skipWS(d.line, d.pos); j < len(d.line) {
			d.malform(j, "unexpected text after the record's closing '}'")
		}
	}
}

// Key returns the current field's name, unescaped. The bytes are valid until
// the next NextField; compare them with `switch string(d.Key())`, which does
// not allocate. Field names match columns exactly (case-sensitive, as
// Spark's JSON reader): a key differing in case is an unknown field.
func (d *JSONDecoder) Key() []byte { return d.key }

// KeyString returns the current field's name as a string that stays valid
// (see the package doc's lifetime rule), for MAP keys.
func (d *JSONDecoder) KeyString() string {
	if len(d.key) > 0 && len(d.keyBuf) > 0 && &d.key[0] == &d.keyBuf[0] {
		d.arena.reserve(len(d.key))
		m := d.arena.mark()
		d.arena.buf = append(d.arena.buf, d.key...)
		return d.arena.stringFrom(m)
	}
	return bytesString(d.key)
}

// Unknown skips the current value and rescues it: a field that is not in
// the schema (or differs from a column's name in case). At the top level the
// field and its raw value are added to the rescued data; inside a nested
// value the whole top-level column's raw value is. Unknown fields never fail
// decoding, as Spark ignores them even in FAILFAST mode.
//
// Under Options.NewColumns FailOnNewColumns an unknown field stops
// decoding instead, naming it (a field of a nested value by its path);
// under IgnoreNewColumns it is skipped as Skip does.
func (d *JSONDecoder) Unknown() {
	switch d.opts.NewColumns {
	case IgnoreNewColumns:
		d.Skip()
		return
	case AddNewColumns:
		if d.pending && d.depth == 1 {
			d.noteNewColumn(string(d.key))
		}
	case FailOnNewColumns:
		if !d.pending {
			return
		}
		field := string(d.key)
		if d.depth > 1 {
			field = string(d.colKey) + "." + field
		}
		d.fail(d.orig, d.lineNo, d.origOff(d.pos), field, fmt.Sprintf("field %q is not in the source's schema (schema_evolution: fail_on_new_columns): add it to the schema (pipegen infer --write prints the new one) and run again", field))
		d.pending = false
		d.pos = len(d.line)
		return
	}
	if _, ok := d.begin(); ok && d.skipOver() {
		d.colFailed = true
	}
}

// Skip skips the current value without rescuing it, checking it is valid
// JSON. For fields the pipeline deliberately ignores.
func (d *JSONDecoder) Skip() {
	if _, ok := d.begin(); ok {
		d.skipOver()
	}
}

// BeginObject starts reading a STRUCT (or MAP) value: it returns true when
// the value is a JSON object, whose fields NextField then iterates to its
// closing '}'. It returns false for null (the value is NULL) and for any
// other JSON type (a mismatch: NULL and rescued).
func (d *JSONDecoder) BeginObject() bool { return d.open('{', "STRUCT") }

// BeginArray starts reading an ARRAY value: it returns true when the value
// is a JSON array, whose elements NextElement then iterates to its closing
// ']'. It returns false for null (NULL) and for any other JSON type (a
// mismatch: NULL and rescued).
func (d *JSONDecoder) BeginArray() bool { return d.open('[', "ARRAY") }

// open enters the object or array that opener starts.
func (d *JSONDecoder) open(opener byte, typ string) bool {
	c, ok := d.begin()
	if !ok {
		return false
	}
	if c != opener {
		d.skipMismatch(typ)
		return false
	}
	d.pos++
	d.depth++
	d.first = true
	return true
}

// NextElement advances to the next element of the innermost open array and
// returns true (one value read must follow), or consumes its closing ']' and
// returns false.
func (d *JSONDecoder) NextElement() bool {
	i := d.member(']', "an array element")
	if i < 0 {
		return false
	}
	d.pos, d.pending = i, true
	return true
}

// String reads a STRING value. A JSON string gives its unescaped text; a
// number, true or false gives its text as written (a JSON number keeps its
// exact digits); an object or array gives its JSON text without whitespace
// and with NaN and Infinity tokens as strings, as Spark's JSON reader
// (Jackson's generator) writes it. null is NULL.
func (d *JSONDecoder) String() types.Null[string] {
	c, ok := d.begin()
	if !ok {
		return types.Null[string]{}
	}
	line := d.line
	start := d.pos
	switch c {
	case '"':
		end, escaped := scanString(line, start)
		if end < 0 {
			d.syntaxError(start)
			return types.Null[string]{}
		}
		d.pos = end
		body := line[start+1 : end-1]
		if !escaped {
			return types.Some(bytesString(body))
		}
		d.arena.reserve(len(body))
		m := d.arena.mark()
		d.arena.buf = appendUnescaped(d.arena.buf, body)
		return types.Some(d.arena.stringFrom(m))
	case 'n':
		d.null()
		return types.Null[string]{}
	}
	if !d.skipOver() {
		return types.Null[string]{}
	}
	raw := line[start:d.pos]
	if bytes.IndexAny(raw, " \t\r\nNI") < 0 { // nothing appendJSONText would change
		return types.Some(bytesString(raw))
	}
	d.arena.reserve(len(raw) + 16)
	m := d.arena.mark()
	d.arena.buf = appendJSONText(d.arena.buf, raw, true)
	return types.Some(d.arena.stringFrom(m))
}

// stringBody reads a JSON string value (pos at its quote) and returns its
// unescaped bytes, valid until the next read; ok false if it is malformed.
func (d *JSONDecoder) stringBody() ([]byte, bool) {
	start := d.pos
	end, escaped := scanString(d.line, start)
	if end < 0 {
		d.syntaxError(start)
		return nil, false
	}
	d.pos = end
	body := d.line[start+1 : end-1]
	if escaped {
		d.valBuf = appendUnescaped(d.valBuf[:0], body)
		body = d.valBuf
	}
	return body, true
}

// Bool reads a BOOLEAN value: JSON true or false. null is NULL; anything
// else is a mismatch (NULL, rescued), as in Spark.
func (d *JSONDecoder) Bool() types.Null[bool] {
	c, ok := d.begin()
	if !ok {
		return types.Null[bool]{}
	}
	switch {
	case c == 't' && hasLiteral(d.line, d.pos, "true"):
		d.pos += 4
		return types.Some(true)
	case c == 'f' && hasLiteral(d.line, d.pos, "false"):
		d.pos += 5
		return types.Some(false)
	}
	d.skipMismatch("BOOLEAN")
	return types.Null[bool]{}
}

// integer reads an integral value in [lo, hi]: a JSON integer token (no
// fraction or exponent). Anything else, or a value out of range, is a
// mismatch, as Jackson's getIntValue and friends reject them.
func (d *JSONDecoder) integer(lo, hi int64, typ string) (int64, bool) {
	c, ok := d.begin()
	if !ok {
		return 0, false
	}
	if c != '-' && (c < '0' || c > '9') {
		d.skipMismatch(typ)
		return 0, false
	}
	line, start := d.line, d.pos
	// Fast path: a short run of digits followed by a delimiter.
	i, neg := start, c == '-'
	if neg {
		i++
	}
	var v int64
	j := i
	for j < len(line) && j-i < 18 && line[j] >= '0' && line[j] <= '9' {
		v = v*10 + int64(line[j]-'0')
		j++
	}
	if j > i && (line[i] != '0' || j == i+1) && j < len(line) && (line[j] == ',' || line[j] == '}' || line[j] == ']') {
		if neg {
			v = -v
		}
		d.pos = j
		if v < lo || v > hi {
			d.overflow(start, typ)
			return 0, false
		}
		return v, true
	}
	end, isInt, _ := scanNumber(line, start)
	if end < 0 {
		d.syntaxError(start)
		return 0, false
	}
	d.pos = end
	if isInt {
		if v, ok := parseInt(line[start:end], lo, hi); ok {
			return v, true
		}
		d.overflow(start, typ)
		return 0, false
	}
	d.mismatch(start, typ)
	return 0, false
}

// overflow handles an integer token at start..pos out of typ's range: a
// mismatch, and for a top-level column a widening under schema_evolution
// add_new_columns, or the update's failure under fail_on_new_columns
// (decoder.integerOverflow).
func (d *JSONDecoder) overflow(start int, typ string) {
	if d.depth == 1 && d.integerOverflow(string(d.colKey), typ, d.line[start:d.pos], d.orig, d.lineNo, d.origOff(start)) {
		d.pending = false
		d.pos = len(d.line)
		return
	}
	d.mismatch(start, typ)
}

// Int8 reads a TINYINT value (see integer rules on Int64).
func (d *JSONDecoder) Int8() types.Null[int8] {
	v, ok := d.integer(math.MinInt8, math.MaxInt8, "TINYINT")
	return types.Null[int8]{V: int8(v), Valid: ok}
}

// Int16 reads a SMALLINT value (see Int64).
func (d *JSONDecoder) Int16() types.Null[int16] {
	v, ok := d.integer(math.MinInt16, math.MaxInt16, "SMALLINT")
	return types.Null[int16]{V: int16(v), Valid: ok}
}

// Int32 reads an INT value (see Int64).
func (d *JSONDecoder) Int32() types.Null[int32] {
	v, ok := d.integer(math.MinInt32, math.MaxInt32, "INT")
	return types.Null[int32]{V: int32(v), Valid: ok}
}

// Int64 reads a BIGINT value. Only a JSON integer token within the type's
// range fits; a fraction, an exponent, a string or an out-of-range integer
// is a mismatch (NULL, rescued), as in Spark. null is NULL.
func (d *JSONDecoder) Int64() types.Null[int64] {
	v, ok := d.integer(math.MinInt64, math.MaxInt64, "BIGINT")
	return types.Null[int64]{V: v, Valid: ok}
}

// float reads a FLOAT or DOUBLE value.
func (d *JSONDecoder) float(typ string) (float64, bool) {
	c, ok := d.begin()
	if !ok {
		return 0, false
	}
	switch {
	case c == '-' || c >= '0' && c <= '9' || c == 'N' || c == 'I' || c == '+':
		start := d.pos
		end, _, _ := scanNumber(d.line, start)
		if end < 0 {
			d.syntaxError(start)
			return 0, false
		}
		d.pos = end
		return parseJSONFloat(d.line[start:end]), true
	case c == '"':
		start := d.pos
		body, ok := d.stringBody()
		if !ok {
			return 0, false
		}
		switch string(body) {
		case "NaN":
			if d.jopts.RejectNonNumericNumbers {
				break
			}
			return math.NaN(), true
		case "Infinity", "+Infinity", "INF", "+INF":
			if !d.jopts.RejectNonNumericNumbers {
				return math.Inf(1), true
			}
		case "-Infinity", "-INF":
			if !d.jopts.RejectNonNumericNumbers {
				return math.Inf(-1), true
			}
		}
		d.mismatch(start, typ)
		return 0, false
	}
	d.skipMismatch(typ)
	return 0, false
}

// Float32 reads a FLOAT value (see Float64).
func (d *JSONDecoder) Float32() types.Null[float32] {
	v, ok := d.float("FLOAT")
	return types.Null[float32]{V: float32(v), Valid: ok}
}

// Float64 reads a DOUBLE value: any JSON number (correctly rounded; beyond
// the range it is ±Inf, as Java's parser gives), the tokens NaN and
// Infinity, or the strings "NaN", "Infinity", "+Infinity", "-Infinity",
// "INF", "+INF", "-INF", as Spark's JSON reader accepts. Other strings and
// types are a mismatch (NULL, rescued). null is NULL.
func (d *JSONDecoder) Float64() types.Null[float64] {
	v, ok := d.float("DOUBLE")
	return types.Null[float64]{V: v, Valid: ok}
}

// Decimal reads a DECIMAL(precision, scale) value from a JSON number or a
// string holding one (java.math.BigDecimal's syntax; commas in a string are
// ignored, as Spark's parser for the default locale does). The value is
// rounded to scale HALF_UP; a value needing more than precision digits is a
// mismatch (NULL, rescued), as Spark's Decimal.set fails for it. The result
// is the unscaled value (types.Decimal). null is NULL.
func (d *JSONDecoder) Decimal(precision, scale int) types.Null[types.Decimal] {
	c, ok := d.begin()
	if !ok {
		return types.Null[types.Decimal]{}
	}
	start := d.pos
	var text []byte
	commas := false
	switch {
	case c == '-' || c >= '0' && c <= '9' || c == 'N' || c == 'I' || c == '+':
		end, _, _ := scanNumber(d.line, start)
		if end < 0 {
			d.syntaxError(start)
			return types.Null[types.Decimal]{}
		}
		d.pos = end
		text = d.line[start:end]
	case c == '"':
		if text, ok = d.stringBody(); !ok {
			return types.Null[types.Decimal]{}
		}
		commas = true
	default:
		d.skipMismatch(fmt.Sprintf("DECIMAL(%d,%d)", precision, scale))
		return types.Null[types.Decimal]{}
	}
	v, ok := parseDecimal(text, precision, scale, commas)
	if !ok {
		if d.depth == 1 && d.decimalOverflow(string(d.colKey), precision, scale, text, commas, d.orig, d.lineNo, d.origOff(start)) {
			d.pending = false
			d.pos = len(d.line)
			return types.Null[types.Decimal]{}
		}
		d.mismatch(start, fmt.Sprintf("DECIMAL(%d,%d)", precision, scale))
		return types.Null[types.Decimal]{}
	}
	return types.Some(v)
}

// Date reads a DATE value from a string (see the package doc for the
// accepted forms). Other JSON types are a mismatch. null is NULL.
func (d *JSONDecoder) Date() types.Null[types.Date] {
	c, ok := d.begin()
	if !ok {
		return types.Null[types.Date]{}
	}
	if c != '"' {
		d.skipMismatch("DATE")
		return types.Null[types.Date]{}
	}
	start := d.pos
	body, ok := d.stringBody()
	if !ok {
		return types.Null[types.Date]{}
	}
	v, ok := d.tp.parseDate(body)
	if !ok {
		d.mismatch(start, "DATE")
		return types.Null[types.Date]{}
	}
	return types.Some(v)
}

// Timestamp reads a TIMESTAMP value: a string in one of the forms of the
// package doc (without a zone it is in Options.TimeZone), or a JSON integer
// of seconds since the epoch, as Spark's JSON reader accepts. Other JSON
// types, unparsable strings and out-of-range numbers are a mismatch (NULL,
// rescued). null is NULL.
func (d *JSONDecoder) Timestamp() types.Null[types.Timestamp] {
	return d.timestamp(false)
}

// TimestampNTZ reads a TIMESTAMP_NTZ value: a string as for Timestamp but
// without a zone (a zone is a mismatch), kept as wall-clock microseconds.
func (d *JSONDecoder) TimestampNTZ() types.Null[types.Timestamp] {
	return d.timestamp(true)
}

func (d *JSONDecoder) timestamp(ntz bool) types.Null[types.Timestamp] {
	typ := "TIMESTAMP"
	if ntz {
		typ = "TIMESTAMP_NTZ"
	}
	c, ok := d.begin()
	if !ok {
		return types.Null[types.Timestamp]{}
	}
	start := d.pos
	if c == '"' {
		body, ok := d.stringBody()
		if !ok {
			return types.Null[types.Timestamp]{}
		}
		v, ok := d.tp.parseTimestamp(body, ntz)
		if !ok {
			d.mismatch(start, typ)
			return types.Null[types.Timestamp]{}
		}
		return types.Some(types.Timestamp(v))
	}
	if !ntz && (c == '-' || c >= '0' && c <= '9') {
		end, isInt, _ := scanNumber(d.line, start)
		if end < 0 {
			d.syntaxError(start)
			return types.Null[types.Timestamp]{}
		}
		d.pos = end
		if isInt {
			const lim = math.MaxInt64 / microsPerSecond
			if s, ok := parseInt(d.line[start:end], -lim, lim); ok {
				return types.Some(types.Timestamp(s * microsPerSecond))
			}
		}
		d.mismatch(start, typ)
		return types.Null[types.Timestamp]{}
	}
	d.skipMismatch(typ)
	return types.Null[types.Timestamp]{}
}

// Binary reads a BINARY value from a base64 string (RFC 4648 standard
// alphabet with padding, as Jackson's default variant). Other JSON types and
// invalid base64 are a mismatch. null is NULL. The slice's capacity ends
// at its length, so appending to it copies.
func (d *JSONDecoder) Binary() types.Null[[]byte] {
	c, ok := d.begin()
	if !ok {
		return types.Null[[]byte]{}
	}
	if c != '"' {
		d.skipMismatch("BINARY")
		return types.Null[[]byte]{}
	}
	start := d.pos
	body, ok := d.stringBody()
	if !ok {
		return types.Null[[]byte]{}
	}
	n := base64.StdEncoding.DecodedLen(len(body))
	d.arena.reserve(n)
	m := d.arena.mark()
	k, err := base64.StdEncoding.Decode(d.arena.buf[m:m+n], body)
	if err != nil {
		d.mismatch(start, "BINARY (base64)")
		return types.Null[[]byte]{}
	}
	d.arena.buf = d.arena.buf[:m+k]
	return types.Some(d.arena.bytesFrom(m))
}
