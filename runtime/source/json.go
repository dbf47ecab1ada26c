package source

import (
	"fmt"
	"io"

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
