package source

import (
	"math"
)

// TextClass says which column types a text value (a CSV field, or a JSON
// string) reads as without a mismatch under the decoders' own rules, for
// schema inference (pipegen infer). Only the strict ISO shapes are claimed
// (see ClassifyText), so a column inferred from a sample reads that sample
// without rescued data.
type TextClass struct {
	// Bool: "true" or "false" in any case (BOOLEAN).
	Bool bool
	// Integer: [+-]digits with no significant leading zero ("0" and "-0"
	// are integers, "01220" is not); Digits counts them, and Int64 says the
	// value fits BIGINT.
	Integer bool
	Int64   bool
	Digits  int
	// Fraction: [+-]digits.digits (or .digits, digits.) without a
	// significant leading zero, with an optional exponent (Exponent), read
	// by DOUBLE; IntDigits and Scale are the digits before and after the
	// point when there is no exponent (what DECIMAL(p,s) needs).
	Fraction  bool
	Exponent  bool
	IntDigits int
	Scale     int
	// Date: yyyy-MM-dd (DATE).
	Date bool
	// Timestamp: yyyy-MM-dd[T ]HH:mm[:ss[.fraction]] with an optional zone;
	// Zoned says it carries a zone or offset (only TIMESTAMP reads it; one
	// without reads as TIMESTAMP_NTZ too).
	Timestamp bool
	Zoned     bool
}

// ClassifyText classifies the text of one value for schema inference. Each
// claim is checked with the parser the decoders use for that type (default
// date and timestamp forms, UTC session time zone), so a claimed type reads
// the text as a value, never as a mismatch.
func ClassifyText(b []byte) TextClass {
	var c TextClass
	if _, ok := parseBoolText(b); ok {
		c.Bool = true
		return c
	}
	if n, ok := numberShape(b); ok {
		if n.integer {
			c.Integer, c.Digits = true, n.intDigits
			_, c.Int64 = parseInt(b, math.MinInt64, math.MaxInt64)
			return c
		}
		if _, ok := parseFloatText(b, 64); ok {
			c.Fraction, c.Exponent, c.IntDigits, c.Scale = true, n.exponent, n.intDigits, n.scale
		}
		return c
	}
	if isISODate(b) && len(b) == 10 {
		if _, ok := parseDate(b); ok {
			c.Date = true
		}
		return c
	}
	if len(b) >= 16 && isISODate(b[:10]) && (b[10] == 'T' || b[10] == ' ') && isDigit(b[11]) && isDigit(b[12]) && b[13] == ':' {
		var p timeParser
		if _, ok := p.parseTimestamp(b, false); ok {
			c.Timestamp = true
			_, ntz := p.parseTimestamp(b, true)
			c.Zoned = !ntz
		}
	}
	return c
}

type numShape struct {
	integer          bool
	exponent         bool
	intDigits, scale int
}

// numberShape recognises [+-]digits[.digits][e[+-]digits] (at least one
// digit before or after the point) where the integer part has no
// significant leading zero.
func numberShape(b []byte) (numShape, bool) {
	var n numShape
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	start := i
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	n.intDigits = i - start
	if n.intDigits > 1 && b[start] == '0' {
		return n, false // a significant leading zero: an identifier, a zip code
	}
	frac := false
	if i < len(b) && b[i] == '.' {
		frac = true
		i++
		s := i
		for i < len(b) && isDigit(b[i]) {
			i++
		}
		n.scale = i - s
	}
	if n.intDigits+n.scale == 0 {
		return n, false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		n.exponent = true
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		s := i
		for i < len(b) && isDigit(b[i]) {
			i++
		}
		if i == s {
			return n, false
		}
	}
	if i != len(b) {
		return n, false
	}
	n.integer = !frac && !n.exponent
	return n, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isISODate reports whether b starts with yyyy-MM-dd (shape only).
func isISODate(b []byte) bool {
	if len(b) < 10 {
		return false
	}
	for i, c := range b[:10] {
		if i == 4 || i == 7 {
			if c != '-' {
				return false
			}
		} else if !isDigit(c) {
			return false
		}
	}
	return true
}

// Header returns the column names of the file's header record (Spark's
// names: "_c<i>" for an empty name), once the first NextRecord has read it,
// or nil. Without a header option it is nil.
func (d *CSVDecoder) Header() []string { return d.names }

// Peek returns the first byte of the value due after NextField or
// NextElement, without reading it: '{' an object, '[' an array, '"' a
// string, 't' or 'f' a boolean, 'n' null, else a number; 0 when no value is
// due. For schema inference, which reads values of unknown types.
func (d *JSONDecoder) Peek() byte {
	if !d.pending || d.bad || d.pos >= len(d.line) {
		return 0
	}
	return d.line[d.pos]
}
