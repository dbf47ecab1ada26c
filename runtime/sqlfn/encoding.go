package sqlfn

import (
	"encoding/base64"
	"encoding/binary"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is Spark's conversions between strings and bytes: to_binary,
// encode and decode with charsets, the UTF-8 validity functions, quote and
// luhn_check (stringExpressions.scala, ExpressionImplUtils.java).

// ToBinary is to_binary(s, format): 'hex' (an odd count of digits reads as
// with a leading 0), 'utf-8' / 'utf8', or 'base64' (RFC 4648 groups of
// four symbols, whitespace ignored, the last group of two or three symbols
// unpadded or padded with adjacent '=', as Java's MIME decoder after
// Spark's check); the format is case-insensitive. ok is false when s does
// not parse in the format, or the format is unknown.
func ToBinary(s string, format ...string) ([]byte, bool) {
	f := "hex"
	if len(format) > 0 {
		f = strings.ToLower(format[0])
	}
	switch f {
	case "hex":
		return Unhex(s)
	case "utf-8", "utf8":
		return []byte(s), true
	case "base64":
		return unbase64Strict(s)
	}
	return nil, false
}

// isJavaSpace is Character.isWhitespace.
func isJavaSpace(r rune) bool {
	switch r {
	case '\u00a0', '\u2007', '\u202f':
		return false
	}
	return r >= 0x1c && r <= 0x1f || unicode.IsSpace(r)
}

// unbase64Strict decodes base64 text as to_binary does.
func unbase64Strict(s string) ([]byte, bool) {
	var syms []byte
	pads := 0
	lastPad := -1
	for i, r := range s {
		switch {
		case isJavaSpace(r):
		case r == '=':
			if pads > 0 && lastPad != i-1 {
				return nil, false // Java's decoder wants "==" together
			}
			pads++
			lastPad = i
			if pads > 2 {
				return nil, false
			}
		case pads > 0:
			return nil, false
		case r < utf8.RuneSelf && (r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '/'):
			syms = append(syms, byte(r))
		default:
			return nil, false
		}
	}
	n := len(syms)
	switch {
	case pads > 0 && ((n+pads)%4 != 0 || n%4 == 0):
		return nil, false
	case n%4 == 1:
		return nil, false
	}
	out, err := base64.RawStdEncoding.DecodeString(string(syms))
	return out, err == nil
}

// charsetName is a charset as encode and decode accept it, lower-cased.
func charsetName(cs string) (string, bool) {
	cs = strings.ToLower(cs)
	switch cs {
	case "us-ascii", "iso-8859-1", "utf-8", "utf-16be", "utf-16le", "utf-16", "utf-32":
		return cs, true
	}
	return cs, false
}

// Encode is encode(s, charset): the bytes of s in the charset, one of
// US-ASCII, ISO-8859-1, UTF-8, UTF-16 (a big-endian byte-order mark, then
// big-endian, as Java), UTF-16BE, UTF-16LE and UTF-32 (big-endian), in any
// case. ok is false for another charset (INVALID_PARAMETER_VALUE.CHARSET)
// and for a character the charset cannot hold (MALFORMED_CHARACTER_CODING).
func Encode(s, charset string) ([]byte, bool) {
	cs, ok := charsetName(charset)
	if !ok {
		return nil, false
	}
	switch cs {
	case "utf-8":
		return []byte(s), true
	case "us-ascii", "iso-8859-1":
		limit := rune(0x7f)
		if cs == "iso-8859-1" {
			limit = 0xff
		}
		out := make([]byte, 0, len(s))
		for _, r := range s {
			if r > limit {
				return nil, false
			}
			out = append(out, byte(r))
		}
		return out, true
	case "utf-32":
		out := make([]byte, 0, 4*len(s))
		for _, r := range s {
			out = binary.BigEndian.AppendUint32(out, uint32(r))
		}
		return out, true
	}
	var order binary.AppendByteOrder = binary.BigEndian
	out := make([]byte, 0, 2*len(s)+2)
	switch cs {
	case "utf-16":
		if s != "" {
			out = append(out, 0xfe, 0xff)
		}
	case "utf-16le":
		order = binary.LittleEndian
	}
	for _, r := range s {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			out = order.AppendUint16(order.AppendUint16(out, uint16(hi)), uint16(lo))
			continue
		}
		out = order.AppendUint16(out, uint16(r))
	}
	return out, true
}

// Decode is decode(b, charset): the bytes read in one of Encode's
// charsets (UTF-16 and UTF-32 read a byte-order mark, big-endian without
// one). ok is false for another charset and for bytes that are not valid
// in the charset (MALFORMED_CHARACTER_CODING).
func Decode(b []byte, charset string) (string, bool) {
	cs, ok := charsetName(charset)
	if !ok {
		return "", false
	}
	switch cs {
	case "utf-8":
		return string(b), utf8.Valid(b)
	case "us-ascii", "iso-8859-1":
		var sb strings.Builder
		for _, c := range b {
			if c > 0x7f && cs == "us-ascii" {
				return "", false
			}
			sb.WriteRune(rune(c))
		}
		return sb.String(), true
	case "utf-32":
		if len(b)%4 != 0 {
			return "", false
		}
		var order binary.ByteOrder = binary.BigEndian
		if len(b) >= 4 {
			switch binary.BigEndian.Uint32(b) {
			case 0xfeff:
				b = b[4:]
			case 0xfffe0000:
				b, order = b[4:], binary.LittleEndian
			}
		}
		var sb strings.Builder
		for i := 0; i < len(b); i += 4 {
			r := rune(order.Uint32(b[i:]))
			if !utf8.ValidRune(r) {
				return "", false
			}
			sb.WriteRune(r)
		}
		return sb.String(), true
	}
	if len(b)%2 != 0 {
		return "", false
	}
	var order binary.ByteOrder = binary.BigEndian
	switch {
	case cs == "utf-16le":
		order = binary.LittleEndian
	case cs == "utf-16" && len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff:
		b = b[2:]
	case cs == "utf-16" && len(b) >= 2 && b[0] == 0xff && b[1] == 0xfe:
		b, order = b[2:], binary.LittleEndian
	}
	units := make([]uint16, len(b)/2)
	for i := range units {
		units[i] = order.Uint16(b[2*i:])
	}
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch {
		case u >= 0xd800 && u < 0xdc00:
			if i+1 >= len(units) || units[i+1] < 0xdc00 || units[i+1] >= 0xe000 {
				return "", false
			}
			i++
		case u >= 0xdc00 && u < 0xe000:
			return "", false
		}
	}
	return string(utf16.Decode(units)), true
}

// IsValidUTF8 is is_valid_utf8(s).
func IsValidUTF8(s string) bool { return utf8.ValidString(s) }

// MakeValidUTF8 is make_valid_utf8(s): each invalid UTF-8 sequence
// replaced by U+FFFD.
func MakeValidUTF8(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// ValidateUTF8 is validate_utf8(s): s, or ok false when it is not valid
// UTF-8 (INVALID_UTF8_STRING; try_validate_utf8 gives NULL).
func ValidateUTF8(s string) (string, bool) { return s, utf8.ValidString(s) }

// Quote is quote(s): s in single quotes, with each \ and ' preceded by a
// backslash.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' || s[i] == '\'' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('\'')
	return b.String()
}

// LuhnCheck is luhn_check(s): whether s is a non-empty string of decimal
// digits (Unicode ones too, as Java's Character.isDigit) whose Luhn
// checksum is 0 modulo 10.
func LuhnCheck(s string) bool {
	if s == "" {
		return false
	}
	sum, second := 0, false
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		d, ok := digitValue(r)
		if !ok {
			return false
		}
		if second {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		second = !second
	}
	return sum%10 == 0
}

// digitValue is Character.getNumericValue of a decimal digit (Unicode
// category Nd, whose digits come in runs from zero to nine).
func digitValue(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if !unicode.IsDigit(r) {
		return 0, false
	}
	for _, rg := range unicode.Nd.R16 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, true
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, true
		}
	}
	return 0, false
}
