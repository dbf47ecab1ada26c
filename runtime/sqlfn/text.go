package sqlfn

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds Spark's character-level string functions: positions,
// padding, left and right, translate, split_part, repeat, reverse, ascii
// and chr. Positions and lengths count characters (Unicode code points),
// 1-based, as Spark's UTF8String does.

// charIndex returns the 0-based character index of byte offset off in s.
func charIndex(s string, off int) int { return utf8.RuneCountInString(s[:off]) }

// byteOffset returns the byte offset of character index i in s (len(s)
// when i is past the end).
func byteOffset(s string, i int) int {
	if i <= 0 {
		return 0
	}
	n := 0
	for off := range s {
		if n == i {
			return off
		}
		n++
	}
	return len(s)
}

// Instr returns instr(s, sub): the 1-based character position of the first
// occurrence of sub in s, 0 when absent (1 for an empty sub).
func Instr(s, sub string) int32 {
	i := strings.Index(s, sub)
	if i < 0 {
		return 0
	}
	return int32(charIndex(s, i) + 1)
}

// Locate returns locate(sub, s[, pos]): the 1-based position of the first
// occurrence of sub in s at or after character pos (default 1); 0 when
// absent or when pos < 1 (Spark's StringLocate).
func Locate(sub, s string, pos ...int32) int32 {
	start := int32(1)
	if len(pos) > 0 {
		start = pos[0]
	}
	if start < 1 {
		return 0
	}
	if sub == "" {
		return 1
	}
	off := byteOffset(s, int(start-1))
	i := strings.Index(s[off:], sub)
	if i < 0 {
		return 0
	}
	return int32(charIndex(s, off+i) + 1)
}

// Left returns the first n characters of s ("" when n <= 0).
func Left(s string, n int32) string {
	if n <= 0 {
		return ""
	}
	return s[:byteOffset(s, int(n))]
}

// Right returns the last n characters of s ("" when n <= 0).
func Right(s string, n int32) string {
	if n <= 0 {
		return ""
	}
	c := utf8.RuneCountInString(s)
	if int(n) >= c {
		return s
	}
	return s[byteOffset(s, c-int(n)):]
}

// pad implements lpad and rpad as UTF8String.lpad/rpad: the result has
// exactly n characters; s is cut when longer, or when pad is empty.
func pad(s string, n int32, p string, left bool) string {
	if n <= 0 {
		return ""
	}
	c := utf8.RuneCountInString(s)
	spaces := int(n) - c
	if spaces <= 0 || p == "" {
		return s[:byteOffset(s, int(n))]
	}
	pc := utf8.RuneCountInString(p)
	fill := strings.Repeat(p, spaces/pc)
	fill += p[:byteOffset(p, spaces%pc)]
	if left {
		return fill + s
	}
	return s + fill
}

// Lpad returns lpad(s, n[, pad]): s padded on the left with pad (default a
// space) to n characters, or cut to its first n characters.
func Lpad(s string, n int32, p ...string) string { return pad(s, n, padOf(p), true) }

// Rpad returns rpad(s, n[, pad]), Lpad's counterpart on the right.
func Rpad(s string, n int32, p ...string) string { return pad(s, n, padOf(p), false) }

// LpadBinary returns lpad(b, n[, pad]) of a BINARY: b padded on the left
// with pad (default a zero byte) to n bytes, or cut to its first n bytes
// (empty for n <= 0; b itself cut to n when pad is empty), as Spark's
// ByteArray.lpad.
func LpadBinary(b []byte, n int32, p ...[]byte) []byte { return padBytes(b, n, p, true) }

// RpadBinary returns rpad(b, n[, pad]), LpadBinary's counterpart on the right.
func RpadBinary(b []byte, n int32, p ...[]byte) []byte { return padBytes(b, n, p, false) }

func padBytes(b []byte, n int32, p [][]byte, left bool) []byte {
	pad := []byte{0}
	if len(p) > 0 {
		pad = p[0]
	}
	if n <= 0 {
		return []byte{}
	}
	if int(n) <= len(b) || len(pad) == 0 {
		return append([]byte{}, b[:min(len(b), int(n))]...)
	}
	fill := make([]byte, 0, int(n)-len(b))
	for len(fill) < cap(fill) {
		fill = append(fill, pad[:min(len(pad), cap(fill)-len(fill))]...)
	}
	if left {
		return append(fill, b...)
	}
	return append(append([]byte{}, b...), fill...)
}

func padOf(p []string) string {
	if len(p) > 0 {
		return p[0]
	}
	return " "
}

// Repeat returns s repeated n times ("" when n <= 0).
func Repeat(s string, n int32) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(s, int(n))
}

// Reverse returns s with its characters in reverse order.
func Reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// Ascii returns the code point of the first character of s, 0 for "".
func Ascii(s string) int32 {
	r, _ := utf8.DecodeRuneInString(s)
	if s == "" {
		return 0
	}
	return r
}

// Chr returns chr(n): "" for n < 0, else the character n mod 256 (Spark's
// Chr).
func Chr(n int64) string {
	if n < 0 {
		return ""
	}
	return string(rune(n & 0xff))
}

// Translate returns translate(s, from, to): each character of s found in
// from is replaced by the character at the same position of to, or removed
// when to is shorter; the first occurrence in from wins.
func Translate(s, from, to string) string {
	dict := map[rune]rune{}
	toR := []rune(to)
	i := 0
	for _, r := range from {
		if _, dup := dict[r]; !dup {
			if i < len(toR) {
				dict[r] = toR[i]
			} else {
				dict[r] = -1
			}
		}
		i++
	}
	var b strings.Builder
	for _, r := range s {
		if t, ok := dict[r]; ok {
			if t >= 0 {
				b.WriteRune(t)
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SplitPart returns split_part(s, delim, part): the part-th field of s split
// at delim (negative counts from the end), "" when out of range. An empty
// delim leaves s whole. ok is false for part 0 (INVALID_INDEX_OF_ZERO).
func SplitPart(s, delim string, part int32) (string, bool) {
	if part == 0 {
		return "", false
	}
	fields := []string{s}
	if delim != "" {
		fields = strings.Split(s, delim)
	}
	i := int(part) - 1
	if part < 0 {
		i = len(fields) + int(part)
	}
	if i < 0 || i >= len(fields) {
		return "", true
	}
	return fields[i], true
}

// StartsWith reports whether s starts with prefix.
func StartsWith(s, prefix string) bool { return strings.HasPrefix(s, prefix) }

// EndsWith reports whether s ends with suffix.
func EndsWith(s, suffix string) bool { return strings.HasSuffix(s, suffix) }

// Contains reports whether s contains sub.
func Contains(s, sub string) bool { return strings.Contains(s, sub) }

// OctetLength returns the number of bytes of s (octet_length).
func OctetLength[S string | []byte](s S) int32 { return int32(len(s)) }

// BinaryLength returns length(b) of a BINARY: its number of bytes.
func BinaryLength(b []byte) int32 { return int32(len(b)) }

// ConcatWSArray is concat_ws with ARRAY<STRING> arguments flattened in:
// parts are the strings in order, NULLs skipped.
func ConcatWSArray(sep string, parts ...[]types.Null[string]) string {
	var flat []types.Null[string]
	for _, p := range parts {
		flat = append(flat, p...)
	}
	return ConcatWS(sep, flat...)
}

// UUID returns a random (version 4) UUID in its 36-character text form,
// as Spark's uuid(). It is non-deterministic.
func UUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// HexLong returns hex(n) of an integral value (Spark's Hex of a LONG):
// the upper-case hexadecimal digits of its 64-bit two's complement, without
// leading zeros (hex(-1) is FFFFFFFFFFFFFFFF).
func HexLong(n int64) string { return strings.ToUpper(strconv.FormatUint(uint64(n), 16)) }

// Hex returns hex(b) of a STRING (its UTF-8 bytes) or BINARY: two
// upper-case hexadecimal digits per byte.
func Hex[B string | []byte](b B) string { return strings.ToUpper(hex.EncodeToString([]byte(b))) }

// Unhex returns unhex(s): the bytes of the hexadecimal digits s (either
// case; an odd count reads as if it had a leading 0, as Spark's Unhex);
// false (NULL) when s holds a character that is not a hex digit.
func Unhex(s string) ([]byte, bool) {
	if len(s)%2 == 1 {
		s = "0" + s
	}
	b, err := hex.DecodeString(s)
	return b, err == nil
}
