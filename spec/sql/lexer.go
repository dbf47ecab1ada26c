package sql

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file is the lexer: SQL text into tokens, following Spark SQL's
// SqlBaseLexer.g4 (case-insensitive keywords, backquoted identifiers, '...'
// and "..." string literals with backslash escapes, numeric literals with
// type suffixes, -- and nested /* */ comments) plus pipegen's `${name}`
// pipeline parameter references.

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tWord            // an unquoted identifier or keyword; val is the text as written
	tQuoted          // a `backquoted` identifier; val is the name, unquoted
	tString          // a string literal; val is the decoded value, parts its pieces
	tNumber          // a numeric literal; val is the text as written
	tParam           // ${name}; val is the name
	tOp              // punctuation and operators; val is the operator
	tIllegal         // a character that starts no token (already reported)
)

// strPart is one piece of a string literal: literal text, or a `${name}`
// parameter interpolated into it.
type strPart struct {
	text  string
	param string // non-empty for a parameter
	pos   int    // offset of the "${" for a parameter
}

// token is one lexical token. pos and end are byte offsets into the text.
type token struct {
	kind     tokKind
	val      string
	pos, end int
	// parts is set for string literals that interpolate parameters.
	parts []strPart
}

// is reports whether t is the keyword kw (kw in upper case).
func (t token) is(kw string) bool {
	return t.kind == tWord && len(t.val) == len(kw) && strings.EqualFold(t.val, kw)
}

// isOp reports whether t is the operator op.
func (t token) isOp(op string) bool { return t.kind == tOp && t.val == op }

// describe returns how an error message names the token.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tString:
		return strconv.Quote(t.val)
	case tQuoted:
		return "`" + t.val + "`"
	case tParam:
		return "${" + t.val + "}"
	}
	return "'" + t.val + "'"
}

// lex splits text into tokens, ending with a tEOF token. Lexical errors are
// returned alongside; the offending characters become tIllegal tokens or are
// skipped so that parsing can go on.
func lex(text string) ([]token, []*Error) {
	l := &lexer{src: text}
	for {
		t := l.next()
		l.toks = append(l.toks, t)
		if t.kind == tEOF {
			return l.toks, l.errs
		}
	}
}

type lexer struct {
	src  string
	off  int
	toks []token
	errs []*Error
}

func (l *lexer) errorf(pos, end int, code, hint, format string, args ...any) {
	l.errs = append(l.errs, &Error{Offset: pos, End: end, Code: code, Message: fmt.Sprintf(format, args...), Hint: hint})
}

// skipSpace skips white space and comments.
func (l *lexer) skipSpace() {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.off++
		case c == '-' && strings.HasPrefix(l.src[l.off:], "--"):
			nl := strings.IndexByte(l.src[l.off:], '\n')
			if nl < 0 {
				l.off = len(l.src)
			} else {
				l.off += nl + 1
			}
		case c == '/' && strings.HasPrefix(l.src[l.off:], "/*"):
			l.skipComment()
		default:
			r, size := utf8.DecodeRuneInString(l.src[l.off:])
			if r != utf8.RuneError && unicode.IsSpace(r) {
				l.off += size
				continue
			}
			return
		}
	}
}

// skipComment skips a bracketed comment; they nest, as in Spark.
func (l *lexer) skipComment() {
	start := l.off
	depth := 0
	for l.off < len(l.src) {
		switch {
		case strings.HasPrefix(l.src[l.off:], "/*"):
			depth++
			l.off += 2
		case strings.HasPrefix(l.src[l.off:], "*/"):
			depth--
			l.off += 2
			if depth == 0 {
				return
			}
		default:
			l.off++
		}
	}
	l.errorf(start, start+2, "UNCLOSED_BRACKETED_COMMENT", "close it with */", "comment is not closed")
}

// operators, longest first so that the longest match wins.
var operators = []string{
	"<=>", "<>", "<=", ">=", "!=", "==", "||", "::", "->", "=>",
	"(", ")", ",", ".", ";", "[", "]", "+", "-", "*", "/", "%", "=", "<", ">",
	"|", "&", "^", "~", "!", ":",
}

func (l *lexer) next() token {
	l.skipSpace()
	if l.off >= len(l.src) {
		return token{kind: tEOF, pos: len(l.src), end: len(l.src)}
	}
	start := l.off
	c := l.src[l.off]
	switch {
	case c == '\'' || c == '"':
		return l.lexString(start, false)
	case (c == 'r' || c == 'R') && l.off+1 < len(l.src) && (l.src[l.off+1] == '\'' || l.src[l.off+1] == '"'):
		l.off++
		return l.lexString(start, true)
	case c == '`':
		return l.lexQuoted()
	case c == '$' && strings.HasPrefix(l.src[l.off:], "${"):
		return l.lexParam()
	case c >= '0' && c <= '9' || c == '.' && l.off+1 < len(l.src) && isDigit(l.src[l.off+1]) && !l.afterName():
		return l.lexNumber()
	case isIdentStart(l.src[l.off:]):
		for l.off < len(l.src) && isIdentPart(l.src[l.off:]) {
			_, size := utf8.DecodeRuneInString(l.src[l.off:])
			l.off += size
		}
		return token{kind: tWord, val: l.src[start:l.off], pos: start, end: l.off}
	}
	for _, op := range operators {
		if strings.HasPrefix(l.src[l.off:], op) {
			l.off += len(op)
			return token{kind: tOp, val: op, pos: start, end: l.off}
		}
	}
	r, size := utf8.DecodeRuneInString(l.src[l.off:])
	l.off += size
	l.errorf(start, l.off, "PARSE_SYNTAX_ERROR", "", "unexpected character %q", r)
	return token{kind: tIllegal, val: string(r), pos: start, end: l.off}
}

// afterName reports whether the previous token ends a name or a value, so
// that a following ".5" is a dot and a number rather than a decimal.
func (l *lexer) afterName() bool {
	if len(l.toks) == 0 {
		return false
	}
	prev := l.toks[len(l.toks)-1]
	if prev.end != l.off {
		return false
	}
	return prev.kind == tWord || prev.kind == tQuoted || prev.isOp(")") || prev.isOp("]")
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r)
}

func isIdentPart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// lexQuoted lexes a backquoted identifier; a doubled backquote inside
// stands for one.
func (l *lexer) lexQuoted() token {
	start := l.off
	l.off++
	var b strings.Builder
	for l.off < len(l.src) {
		c := l.src[l.off]
		if c == '`' {
			if l.off+1 < len(l.src) && l.src[l.off+1] == '`' {
				b.WriteByte('`')
				l.off += 2
				continue
			}
			l.off++
			return token{kind: tQuoted, val: b.String(), pos: start, end: l.off}
		}
		b.WriteByte(c)
		l.off++
	}
	l.errorf(start, l.off, "PARSE_SYNTAX_ERROR", "close it with `", "quoted identifier is not closed")
	return token{kind: tQuoted, val: b.String(), pos: start, end: l.off}
}

// lexParam lexes ${name}.
func (l *lexer) lexParam() token {
	start := l.off
	end := strings.IndexByte(l.src[l.off:], '}')
	if end < 0 {
		l.off = len(l.src)
		l.errorf(start, l.off, "PARSE_SYNTAX_ERROR", "close it with }", "parameter reference is not closed")
		return token{kind: tIllegal, val: "${", pos: start, end: l.off}
	}
	name := l.src[start+2 : start+end]
	l.off = start + end + 1
	if !validParamName(name) {
		l.errorf(start, l.off, "PARSE_SYNTAX_ERROR", "a parameter name has letters, digits, '_', '-' and '.'", "invalid parameter reference %q", l.src[start:l.off])
	}
	return token{kind: tParam, val: name, pos: start, end: l.off}
}

func validParamName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r == '_' || r == '-' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// lexString lexes a string literal starting at start (the r of a raw string
// or the quote). Escapes follow Spark's unescapeSQLString: \0 \b \n \r \t
// \Z, \uXXXX, \UXXXXXXXX, octal \ooo, \% and \_ kept with their backslash
// (they are LIKE escapes), any other \c is c; a doubled quote is one
// quote. Raw strings r'...' keep backslashes and end at the next quote.
// `${name}` inside the literal interpolates a parameter; `\$` is a plain
// dollar sign.
func (l *lexer) lexString(start int, raw bool) token {
	quote := l.src[l.off]
	l.off++
	var parts []strPart
	var b strings.Builder
	hasParam := false
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == quote && !raw && l.off+1 < len(l.src) && l.src[l.off+1] == quote:
			// A doubled quote stands for one ('S''par''k' is S'par'k), as
			// in Spark 4 (two literals written without a space between
			// them were joined before; spark.sql.legacy.consecutiveStringLiterals).
			b.WriteByte(quote)
			l.off += 2
		case c == quote:
			l.off++
			t := token{kind: tString, pos: start, end: l.off}
			if hasParam {
				if b.Len() > 0 {
					parts = append(parts, strPart{text: b.String()})
				}
				t.parts = parts
				for _, p := range parts {
					if p.param == "" {
						t.val += p.text
					}
				}
			} else {
				t.val = b.String()
			}
			return t
		case c == '\\' && !raw && l.off+1 < len(l.src):
			l.unescape(&b)
		case c == '$' && strings.HasPrefix(l.src[l.off:], "${"):
			end := strings.IndexByte(l.src[l.off:], '}')
			if end < 0 || strings.IndexByte(l.src[l.off:l.off+end], quote) >= 0 {
				b.WriteByte(c)
				l.off++
				continue
			}
			name := l.src[l.off+2 : l.off+end]
			if !validParamName(name) {
				l.errorf(l.off, l.off+end+1, "PARSE_SYNTAX_ERROR", "write \\${ for a literal ${", "invalid parameter reference %q", l.src[l.off:l.off+end+1])
			}
			if b.Len() > 0 {
				parts = append(parts, strPart{text: b.String()})
				b.Reset()
			}
			parts = append(parts, strPart{param: name, pos: l.off})
			hasParam = true
			l.off += end + 1
		default:
			b.WriteByte(c)
			l.off++
		}
	}
	l.errorf(start, l.off, "PARSE_SYNTAX_ERROR", "close it with "+string(quote), "string literal is not closed")
	return token{kind: tString, val: b.String(), pos: start, end: l.off}
}

// unescape decodes the backslash escape at l.off into b.
func (l *lexer) unescape(b *strings.Builder) {
	e := l.src[l.off+1]
	l.off += 2
	switch e {
	case '0', '1', '2', '3':
		// Octal \ooo; a lone \0 is NUL.
		if l.off+1 < len(l.src) && isOctal(l.src[l.off]) && isOctal(l.src[l.off+1]) {
			v := (e-'0')<<6 | (l.src[l.off]-'0')<<3 | (l.src[l.off+1] - '0')
			b.WriteRune(rune(v))
			l.off += 2
			return
		}
		if e == '0' {
			b.WriteByte(0)
			return
		}
		b.WriteByte(e)
	case 'b':
		b.WriteByte('\b')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'Z':
		b.WriteByte(0x1a)
	case '%', '_':
		b.WriteByte('\\')
		b.WriteByte(e)
	case 'u', 'U':
		n := 4
		if e == 'U' {
			n = 8
		}
		if l.off+n <= len(l.src) {
			if v, err := strconv.ParseUint(l.src[l.off:l.off+n], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
				b.WriteRune(rune(v))
				l.off += n
				return
			}
		}
		b.WriteByte(e)
	default:
		// Any other escaped character stands for itself (multi-byte ones too).
		l.off--
		_, size := utf8.DecodeRuneInString(l.src[l.off:])
		b.WriteString(l.src[l.off : l.off+size])
		l.off += size
	}
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// lexNumber lexes a numeric literal: digits with an optional fraction and
// exponent and an optional type suffix (L, S, Y, D, F, BD). A run of digits
// followed by letters that form no suffix is an identifier, as in Spark
// (e.g. `1st`).
func (l *lexer) lexNumber() token {
	start := l.off
	for l.off < len(l.src) && isDigit(l.src[l.off]) {
		l.off++
	}
	fraction := false
	if l.off < len(l.src) && l.src[l.off] == '.' {
		fraction = true
		l.off++
		for l.off < len(l.src) && isDigit(l.src[l.off]) {
			l.off++
		}
	}
	mantissaEnd := l.off
	if l.off < len(l.src) && (l.src[l.off] == 'e' || l.src[l.off] == 'E') {
		i := l.off + 1
		if i < len(l.src) && (l.src[i] == '+' || l.src[i] == '-') {
			i++
		}
		if i < len(l.src) && isDigit(l.src[i]) {
			for i < len(l.src) && isDigit(l.src[i]) {
				i++
			}
			l.off = i
		}
	}
	// Type suffix.
	rest := l.src[l.off:]
	switch {
	case len(rest) >= 2 && strings.EqualFold(rest[:2], "bd") && !(len(rest) > 2 && isIdentPart(rest[2:])):
		l.off += 2
	case len(rest) >= 1 && strings.ContainsRune("lLsSyYdDfF", rune(rest[0])) && !(len(rest) > 1 && isIdentPart(rest[1:])):
		l.off++
	}
	if l.off < len(l.src) && isIdentPart(l.src[l.off:]) {
		if !fraction && l.off == mantissaEnd {
			// Digits then letters: an identifier.
			for l.off < len(l.src) && isIdentPart(l.src[l.off:]) {
				_, size := utf8.DecodeRuneInString(l.src[l.off:])
				l.off += size
			}
			return token{kind: tWord, val: l.src[start:l.off], pos: start, end: l.off}
		}
	}
	return token{kind: tNumber, val: l.src[start:l.off], pos: start, end: l.off}
}
