package source

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"

	"github.com/pipegen/pipegen/runtime/types"
)

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
