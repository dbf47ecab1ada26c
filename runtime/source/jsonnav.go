package source

import (
	"fmt"
)

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
