package sql

import (
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

func (p *parser) numberLit(t token, neg bool, pos int) astExpr {
	typ, val, code, msg := numberLiteral(t.val, neg)
	if msg != "" {
		p.errorAt(pos, t.end, code, "", "%s", msg)
		return &badExpr{pos: pos, end: t.end}
	}
	return &litExpr{typ: typ, val: val, text: p.text[pos:t.end], pos: pos, end: t.end}
}

// typedLiteralKinds are the words that, before a string, make a typed literal.
var typedLiteralKinds = map[string]bool{"DATE": true, "TIME": true, "TIMESTAMP": true, "TIMESTAMP_LTZ": true, "TIMESTAMP_NTZ": true, "X": true}

// stringLit reads one or more adjacent string literals, joined as Spark does.
func (p *parser) stringLit() astExpr {
	first := p.advance()
	parts := first.parts
	val := first.val
	end := first.end
	withParams := first.parts != nil
	for p.peek().kind == tString {
		t := p.advance()
		end = t.end
		val += t.val
		if t.parts != nil || withParams {
			if !withParams {
				parts = []strPart{{text: strings.TrimSuffix(val, t.val)}}
			}
			withParams = true
			if t.parts != nil {
				parts = append(parts, t.parts...)
			} else {
				parts = append(parts, strPart{text: t.val})
			}
		}
	}
	if withParams {
		return &strExpr{parts: parts, pos: first.pos, end: end}
	}
	return &litExpr{typ: types.StringType, val: val, text: p.text[first.pos:end], pos: first.pos, end: end}
}

func (p *parser) parseTypedLiteral(kw token) astExpr {
	p.advance()
	s := p.advance()
	if s.parts != nil {
		p.errorAt(s.pos, s.end, "INVALID_TYPED_LITERAL", "use CAST to convert a parameter", "typed literals cannot contain parameters")
		return &badExpr{pos: kw.pos, end: s.end}
	}
	lit := &litExpr{text: p.text[kw.pos:s.end], str: s.val, pos: kw.pos, end: s.end}
	ok := true
	switch k := upper(kw); k {
	case "DATE":
		d, good := parseDate(s.val)
		lit.typ, lit.val, ok = types.DateType, d, good
	case "TIMESTAMP", "TIMESTAMP_LTZ", "TIMESTAMP_NTZ":
		ntz := k == "TIMESTAMP_NTZ"
		ts, good := parseTimestamp(s.val, ntz)
		lit.typ, lit.val, ok = types.TimestampType, ts, good
		if ntz {
			lit.typ = types.TimestampNTZType
		}
	case "TIME":
		micros, good := parseTimeOfDay(s.val)
		lit.typ, lit.val, lit.timeOfDay, ok = types.StringType, micros, true, good
	case "X":
		b, good := parseHex(s.val)
		lit.typ, lit.val, ok = types.BinaryType, b, good
	}
	if !ok {
		p.errorAt(s.pos, s.end, "INVALID_TYPED_LITERAL", "", "the value of the typed literal %s is invalid: %s", upper(kw), s.describe())
		return &badExpr{pos: kw.pos, end: s.end}
	}
	return lit
}

func parseHex(s string) ([]byte, bool) {
	if len(s)%2 == 1 {
		s = "0" + s
	}
	b := make([]byte, len(s)/2)
	for i := range b {
		var v byte
		for _, c := range []byte(s[2*i : 2*i+2]) {
			switch {
			case c >= '0' && c <= '9':
				v = v<<4 | (c - '0')
			case c >= 'a' && c <= 'f':
				v = v<<4 | (c - 'a' + 10)
			case c >= 'A' && c <= 'F':
				v = v<<4 | (c - 'A' + 10)
			default:
				return nil, false
			}
		}
		b[i] = v
	}
	return b, true
}
