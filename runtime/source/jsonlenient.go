package source

import (
	"bytes"
	"io"
)

// JSONOptions are the spec's json: options, with the meanings of Spark's
// JSON data source options of the same names (Jackson's parser features).
// The zero value holds Spark's defaults: single quotes and the non-numeric
// numbers NaN and Infinity accepted, comments, unquoted field names and
// leading zeros rejected (the record is malformed).
type JSONOptions struct {
	Options
	// AllowComments accepts Java/C++ comments (/* ... */ and // to the end
	// of the line) wherever white space may be (allowComments). A line
	// holding only a comment is skipped like a blank one.
	AllowComments bool
	// RejectSingleQuotes turns off single-quoted strings and field names
	// (allowSingleQuotes false). When accepted, 'it\'s "x"' reads it's "x".
	RejectSingleQuotes bool
	// AllowUnquotedFieldNames accepts field names written without quotes,
	// made of letters, digits, '_' and '$' (allowUnquotedFieldNames).
	AllowUnquotedFieldNames bool
	// AllowNumericLeadingZeros accepts numbers such as 007 or -00.5, read as
	// 7 and -0.5 (allowNumericLeadingZeros).
	AllowNumericLeadingZeros bool
	// RejectNonNumericNumbers turns off the tokens NaN, Infinity, +Infinity,
	// -Infinity, INF, +INF and -INF (a record holding one is malformed) and
	// the strings "NaN", "Infinity", ... for FLOAT and DOUBLE columns (a
	// mismatch) (allowNonNumericNumbers false).
	RejectNonNumericNumbers bool
}

// NewJSONDecoderWith returns a decoder for the JSON-lines content of file
// read from r with JSON options (see NewJSONDecoder).
//
// Lenient syntax is handled by rewriting a line that uses it into standard
// JSON before decoding, so values kept in the rescued-data column are always
// valid JSON; positions in errors refer to the line as written.
func NewJSONDecoderWith(r io.Reader, file FileInfo, opts JSONOptions) *JSONDecoder {
	return &JSONDecoder{decoder: newDecoder(r, file, opts.Options), jopts: opts}
}

// needsRewrite reports whether line may use syntax the options accept but
// standard JSON does not, or the non-numeric numbers they reject.
func (o *JSONOptions) needsRewrite(line []byte) bool {
	return o.AllowUnquotedFieldNames || o.AllowNumericLeadingZeros ||
		!o.RejectSingleQuotes && bytes.IndexByte(line, '\'') >= 0 ||
		o.AllowComments && bytes.IndexByte(line, '/') >= 0 ||
		o.RejectNonNumericNumbers && bytes.IndexAny(line, "NI") >= 0
}

// posMap maps offsets of a rewritten line back to the line as written: at
// each point, out offset out corresponds to in offset in.
type posMap struct{ out, in []int }

func (m *posMap) mark(out, in int) {
	m.out = append(m.out, out)
	m.in = append(m.in, in)
}

// orig returns the offset in the written line of offset off of the rewrite.
func (m *posMap) orig(off int) int {
	k := len(m.out) - 1
	for k >= 0 && m.out[k] > off {
		k--
	}
	if k < 0 {
		return off
	}
	return m.in[k] + off - m.out[k]
}

// rewriteLenient rewrites line into standard JSON as Jackson's enabled
// features read it: single-quoted strings become double-quoted, comments
// become spaces, unquoted field names are quoted and leading zeros dropped.
// out is nil when nothing changed. bad >= 0 is the offset of a rejected
// non-numeric number, with its message. Syntax errors are left for the
// decoder to find.
func (o *JSONOptions) rewriteLenient(line []byte, m *posMap) (out []byte, bad int, msg string) {
	var stack []byte // open containers, '{' or '['
	expectKey := false
	changed := false
	out = make([]byte, 0, len(line)+8)
	m.out, m.in = m.out[:0], m.in[:0]
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '"':
			end, _ := scanString(line, i)
			if end < 0 {
				end = len(line)
			}
			out = append(out, line[i:end]...)
			i = end
			expectKey = false
			continue
		case c == '\'' && !o.RejectSingleQuotes:
			j := i + 1
			body := make([]byte, 0, 16)
			closed := false
			for j < len(line) {
				b := line[j]
				if b == '\'' {
					closed = true
					j++
					break
				}
				if b == '\\' && j+1 < len(line) {
					if line[j+1] == '\'' {
						body = append(body, '\'')
					} else {
						body = append(body, b, line[j+1])
					}
					j += 2
					continue
				}
				if b == '"' {
					body = append(body, '\\')
				}
				body = append(body, b)
				j++
			}
			if !closed { // leave it for the decoder to report
				out = append(out, line[i:]...)
				i = len(line)
				continue
			}
			out = append(out, '"')
			out = append(out, body...)
			out = append(out, '"')
			changed = true
			i = j
			m.mark(len(out), i)
			expectKey = false
			continue
		case c == '/' && o.AllowComments && i+1 < len(line) && (line[i+1] == '/' || line[i+1] == '*'):
			end := len(line)
			if line[i+1] == '*' {
				k := bytes.Index(line[i+2:], []byte("*/"))
				if k < 0 { // unterminated: a syntax error for the decoder
					out = append(out, line[i:]...)
					i = len(line)
					continue
				}
				end = i + 2 + k + 2
			}
			for ; i < end; i++ {
				out = append(out, ' ')
			}
			changed = true
			continue
		case c == '{':
			stack = append(stack, c)
			expectKey = true
		case c == '[':
			stack = append(stack, c)
			expectKey = false
		case c == '}' || c == ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			expectKey = false
		case c == ',':
			expectKey = len(stack) > 0 && stack[len(stack)-1] == '{'
		case c == ':':
			expectKey = false
		case expectKey && o.AllowUnquotedFieldNames && isNameByte(c) && !(c >= '0' && c <= '9'):
			j := i + 1
			for j < len(line) && isNameByte(line[j]) {
				j++
			}
			out = append(out, '"')
			out = append(out, line[i:j]...)
			out = append(out, '"')
			changed = true
			i = j
			m.mark(len(out), i)
			expectKey = false
			continue
		case o.RejectNonNumericNumbers && (c == 'N' || c == 'I' ||
			(c == '+' || c == '-') && i+1 < len(line) && line[i+1] == 'I'):
			return nil, i, "NaN and Infinity are not allowed (allow_non_numeric_numbers is false)"
		case c == '-' || c >= '0' && c <= '9':
			j := i
			if c == '-' {
				j++
			}
			z := 0
			for j+z < len(line) && line[j+z] == '0' {
				z++
			}
			drop := 0
			if o.AllowNumericLeadingZeros && z > 0 {
				if j+z < len(line) && line[j+z] >= '0' && line[j+z] <= '9' {
					drop = z
				} else {
					drop = z - 1
				}
			}
			out = append(out, line[i:j]...)
			k := j + drop
			for k < len(line) && (line[k] >= '0' && line[k] <= '9' || line[k] == '.' || line[k] == 'e' || line[k] == 'E' ||
				(line[k] == '+' || line[k] == '-') && (line[k-1] == 'e' || line[k-1] == 'E')) {
				k++
			}
			out = append(out, line[j+drop:k]...)
			if drop > 0 {
				changed = true
				m.mark(len(out), k)
			}
			i = k
			expectKey = false
			continue
		}
		out = append(out, c)
		i++
	}
	if !changed {
		return nil, -1, ""
	}
	return out, -1, ""
}

// isNameByte reports a byte of an unquoted field name (Jackson accepts Java
// identifier characters; pipegen the ASCII ones).
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
}
