package source

import (
	"unicode/utf16"
	"unicode/utf8"
)

// JSON syntax helpers over one line. Each takes the index of a token's first
// byte and returns the index just after it, or -1 when the bytes are not
// valid JSON (RFC 8259, plus the non-numeric numbers NaN, Infinity, +Infinity,
// -Infinity, INF, +INF and -INF that Spark's allowNonNumericNumbers accepts).

// strStop marks the bytes that end the fast scan of a JSON string: the quote,
// the backslash and the control characters, which RFC 8259 forbids unescaped.
var strStop = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func skipWS(line []byte, i int) int {
	for i < len(line) && isWS(line[i]) {
		i++
	}
	return i
}

// scanString scans the string whose opening quote is at i. It returns the
// index after the closing quote and whether the body holds escapes. Escapes
// are checked; a body with non-ASCII bytes must be valid UTF-8.
func scanString(line []byte, i int) (end int, escaped bool) {
	i++
	start := i
	var high byte
	for {
		for i < len(line) && !strStop[line[i]] {
			high |= line[i]
			i++
		}
		if i >= len(line) {
			return -1, false
		}
		switch line[i] {
		case '"':
			if high >= utf8.RuneSelf && !utf8.Valid(line[start:i]) {
				return -1, false
			}
			return i + 1, escaped
		case '\\':
			escaped = true
			if i+1 >= len(line) {
				return -1, false
			}
			switch line[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if _, ok := hex4(line, i+2); !ok {
					return -1, false
				}
				i += 6
			default:
				return -1, false
			}
		default: // control character
			return -1, false
		}
	}
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// appendUnescaped appends the decoded body of a scanned JSON string (the
// bytes between the quotes). A lone UTF-16 surrogate becomes U+FFFD.
func appendUnescaped(dst, body []byte) []byte {
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			j := i + 1
			for j < len(body) && body[j] != '\\' {
				j++
			}
			dst = append(dst, body[i:j]...)
			i = j
			continue
		}
		switch body[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, _ := hex4(body, i+2)
			i += 6
			if utf16.IsSurrogate(r) {
				r2, ok := rune(0), false
				if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
					r2, ok = hex4(body, i+2)
				}
				if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default: // '"', '\\', '/'
			dst = append(dst, body[i+1])
		}
		i += 2
	}
	return dst
}

// scanNumber scans a number token. isInt reports a plain integer (no
// fraction, no exponent, finite); special reports NaN or an infinity.
func scanNumber(line []byte, i int) (end int, isInt, special bool) {
	start := i
	if i < len(line) && (line[i] == '-' || line[i] == '+') {
		i++
	}
	if i < len(line) && (line[i] == 'N' || line[i] == 'I') {
		for _, lit := range [...]string{"NaN", "Infinity", "INF"} {
			if hasLiteral(line, i, lit) && (lit != "NaN" || i == start) {
				return numberEnd(line, i+len(lit)), false, true
			}
		}
		return -1, false, false
	}
	if line[start] == '+' { // a '+' only before Infinity or INF
		return -1, false, false
	}
	switch {
	case i < len(line) && line[i] == '0':
		i++
	case i < len(line) && line[i] >= '1' && line[i] <= '9':
		i = skipDigits(line, i)
	default:
		return -1, false, false
	}
	isInt = true
	if i < len(line) && line[i] == '.' {
		isInt = false
		j := i + 1
		if i = skipDigits(line, j); i == j {
			return -1, false, false
		}
	}
	if i < len(line) && (line[i] == 'e' || line[i] == 'E') {
		isInt = false
		i++
		if i < len(line) && (line[i] == '+' || line[i] == '-') {
			i++
		}
		j := i
		if i = skipDigits(line, j); i == j {
			return -1, false, false
		}
	}
	return numberEnd(line, i), isInt, false
}

// numberEnd returns i when a number token may end there: a number runs into
// the next delimiter, so "01" or "1x" are not numbers.
func numberEnd(line []byte, i int) int {
	if i < len(line) && !isWS(line[i]) && line[i] != ',' && line[i] != '}' && line[i] != ']' {
		return -1
	}
	return i
}

func skipDigits(line []byte, i int) int {
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	return i
}

func hasLiteral(line []byte, i int, lit string) bool {
	return len(line)-i >= len(lit) && string(line[i:i+len(lit)]) == lit
}

// scanLiteral scans true, false or null at i.
func scanLiteral(line []byte, i int) int {
	for _, lit := range [...]string{"true", "false", "null"} {
		if line[i] == lit[0] {
			if hasLiteral(line, i, lit) {
				return i + len(lit)
			}
			return -1
		}
	}
	return -1
}

// maxSkipDepth bounds the nesting of a skipped value, as Jackson's
// StreamReadConstraints bound it (1000 levels).
const maxSkipDepth = 1000

// skipValue scans the complete value at i (after whitespace) and returns the
// index after it, or -1 when it is not valid JSON. stack is scratch space.
func skipValue(line []byte, i int, stack []byte) (int, []byte) {
	stack = stack[:0]
	for {
		i = skipWS(line, i)
		if i >= len(line) {
			return -1, stack
		}
		switch c := line[i]; c {
		case '{', '[':
			if len(stack) >= maxSkipDepth {
				return -1, stack
			}
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			stack = append(stack, closer)
			i = skipWS(line, i+1)
			if i < len(line) && line[i] == closer {
				i++
				stack = stack[:len(stack)-1]
				break
			}
			if c == '{' {
				if i = skipKey(line, i); i < 0 {
					return -1, stack
				}
			}
			continue
		case '"':
			i, _ = scanString(line, i)
		case 't', 'f', 'n':
			i = scanLiteral(line, i)
		default:
			i, _, _ = scanNumber(line, i)
		}
		if i < 0 {
			return -1, stack
		}
		// After a value: close containers or move to the next member.
		for {
			if len(stack) == 0 {
				return i, stack
			}
			i = skipWS(line, i)
			if i >= len(line) {
				return -1, stack
			}
			top := stack[len(stack)-1]
			if line[i] == top {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if line[i] != ',' {
				return -1, stack
			}
			i++
			if top == '}' {
				if i = skipKey(line, skipWS(line, i)); i < 0 {
					return -1, stack
				}
			}
			break
		}
	}
}

// skipKey scans `"key" :` at i and returns the index after the colon.
func skipKey(line []byte, i int) int {
	if i >= len(line) || line[i] != '"' {
		return -1
	}
	if i, _ = scanString(line, i); i < 0 {
		return -1
	}
	i = skipWS(line, i)
	if i >= len(line) || line[i] != ':' {
		return -1
	}
	return i + 1
}

// appendJSONText appends the raw JSON text of a value with the non-numeric
// numbers (NaN, Infinity, INF and their signed forms), which Spark accepts
// but JSON does not, written as strings, as Jackson writes them; with
// compact, whitespace outside strings is dropped, as Jackson's generator
// writes a copied structure.
func appendJSONText(dst, raw []byte, compact bool) []byte {
	in := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case in && c == '\\':
			dst = append(dst, c, raw[i+1])
			i++
			continue
		case c == '"':
			in = !in
		case in:
		case compact && isWS(c):
			continue
		case c == 'N' || c == 'I' || (c == '+' || c == '-') && i+1 < len(raw) && (raw[i+1] == 'I' || raw[i+1] == 'N'):
			j := i + 1
			for j < len(raw) && (raw[j] >= 'a' && raw[j] <= 'z' || raw[j] >= 'A' && raw[j] <= 'Z') {
				j++
			}
			dst = append(dst, '"')
			dst = append(dst, raw[i:j]...)
			dst = append(dst, '"')
			i = j - 1
			continue
		}
		dst = append(dst, c)
	}
	return dst
}
