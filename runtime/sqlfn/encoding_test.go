package sqlfn

import (
	"bytes"
	"slices"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// The expected values are Spark's, from string-functions.sql.out,
// bitwise.sql.out, json-functions.sql.out and array.sql.out (and the
// examples of Spark's function docs).

func TestToBinary(t *testing.T) {
	for _, c := range []struct {
		s, f string
		want string
		ok   bool
	}{
		{"", "base64", "", true}, {"  ", "base64", "", true},
		{" ab cd ", "base64", "i\xb7\x1d", true}, {" ab c=", "base64", "i\xb7", true},
		{" ab cdef= = ", "base64", "", false}, {"a", "base64", "", false}, {"a?", "base64", "", false},
		{"abcde", "base64", "", false}, {"abcd=", "base64", "", false}, {"a===", "base64", "", false},
		{"ab==f", "base64", "", false}, {"U3BhcmsgU1FM", "BASE64", "Spark SQL", true},
		{"737472696E67", "hex", "string", true}, {"1", "hex", "\x01", true}, {"abc", "Hex", "\x0a\xbc", true},
		{"GG", "hex", "", false}, {"01 AF", "hex", "", false},
		{"大千世界", "utf8", "大千世界", true}, {"abc", "utf-16", "", false},
	} {
		got, ok := ToBinary(c.s, c.f)
		if ok != c.ok || ok && string(got) != c.want {
			t.Errorf("to_binary(%q, %q) = %q, %v; want %q, %v", c.s, c.f, got, ok, c.want, c.ok)
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	for _, s := range []string{"abc", "白日依山尽，黄河入海流。", "세계에서 가장 인기 있는", "𝄞 music"} {
		for _, cs := range []string{"UTF-8", "utf-16", "UTF-16BE", "utf-16le", "UTF-32"} {
			b, ok := Encode(s, cs)
			if !ok {
				t.Fatalf("encode(%q, %s) failed", s, cs)
			}
			back, ok := Decode(b, cs)
			if !ok || back != s {
				t.Errorf("decode(encode(%q, %s)) = %q, %v", s, cs, back, ok)
			}
		}
	}
	if b, _ := Encode("ab", "UTF-16"); !bytes.Equal(b, []byte{0xfe, 0xff, 0, 'a', 0, 'b'}) {
		t.Errorf("encode('ab', 'UTF-16') = %x, want Java's BOM and big-endian units", b)
	}
	if _, ok := Encode("客舍青青柳色新", "US-ASCII"); ok {
		t.Error("encode of Chinese text in US-ASCII must fail (MALFORMED_CHARACTER_CODING)")
	}
	if _, ok := Decode([]byte("\xe8\xa5\xbf"), "US-ASCII"); ok {
		t.Error("decode of bytes >= 0x80 in US-ASCII must fail")
	}
	if _, ok := Encode("hello", "WINDOWS-1252"); ok {
		t.Error("WINDOWS-1252 is not one of Spark 4's charsets")
	}
}

func TestLuhnCheck(t *testing.T) {
	for s, want := range map[string]bool{
		"4111111111111111": true, "5500000000000004": true, "340000000000009": true, "6011000000000004": true,
		"6011000000000005": false, "378282246310006": false, "0": true, "4111111111111111    ": false,
		"4111111 111111111": false, " 4111111111111111": false, "": false, "  ": false, "510B105105105106": false,
		"6011111111111117": true, "6011111111111118": false, "123.456": false,
	} {
		if got := LuhnCheck(s); got != want {
			t.Errorf("luhn_check(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestBits(t *testing.T) {
	if BitCount(int8(3)) != 2 || BitCount(int64(-1)) != 64 || BitCount(int32(-1)) != 64 || BitCount(int64(-1<<63)) != 1 {
		t.Error("bit_count counts the bits of the value sign-extended to 64 bits")
	}
	if v, ok := GetBit(int64(11), 3); !ok || v != 1 {
		t.Errorf("getbit(11L, 3) = %d, %v", v, ok)
	}
	if v, ok := GetBit(int64(11), 2); !ok || v != 0 {
		t.Errorf("getbit(11L, 2) = %d, %v", v, ok)
	}
	if _, ok := GetBit(int64(11), 64); ok {
		t.Error("getbit(11L, 64) must fail")
	}
	if _, ok := GetBit(int8(1), 8); ok {
		t.Error("getbit of a TINYINT at 8 must fail")
	}
	if ShiftRight(int32(20181117), 2) != 5045279 || ShiftLeft(int32(20181117), 2) != 80724468 || ShiftRightUnsigned(int32(20181117), 2) != 5045279 {
		t.Error("shifts of 20181117 by 2")
	}
	if ShiftLeft(int32(1), 33) != 2 || ShiftRightUnsigned(int32(-1), 28) != 15 || ShiftRight(int64(-8), 1) != -4 {
		t.Error("shift counts are taken modulo the width, as Java")
	}
}

func TestJSONObjectKeys(t *testing.T) {
	for s, want := range map[string][]string{
		`{}`: {}, `{"key": 1}`: {"key"}, `{"key": "value", "key2": 2}`: {"key", "key2"},
		`{"k1": [1, 2, {"key": 5}], "k2": {"key2": [1, 2]}}`: {"k1", "k2"},
		``: nil, `{[1,2]}`: nil, `{"key": 45, "random_string"}`: nil, `[1, 2, 3]`: nil,
	} {
		got, ok := JSONObjectKeys(s)
		if ok != (want != nil) || !slices.Equal(got, want) {
			t.Errorf("json_object_keys(%s) = %q, %v; want %q", s, got, ok, want)
		}
	}
}

func TestArrayInsert(t *testing.T) {
	n := func(xs ...int) []types.Null[int32] {
		out := make([]types.Null[int32], len(xs))
		for i, x := range xs {
			if x >= 0 {
				out[i] = types.Some(int32(x))
			}
		}
		return out
	}
	for _, c := range []struct {
		arr  []types.Null[int32]
		pos  int32
		x    int
		want []types.Null[int32]
	}{
		{n(1, 2, 3), 3, 4, n(1, 2, 4, 3)}, {n(2, 3, 4), 1, 1, n(1, 2, 3, 4)}, {n(1, 3, 4), -2, 2, n(1, 3, 2, 4)},
		{n(1, 2, 3, -1), 4, -1, n(1, 2, 3, -1, -1)}, {n(2, 3, -1, 4), 5, 5, n(2, 3, -1, 4, 5)},
		{n(2, 3, -1, 4), -5, 1, n(1, 2, 3, -1, 4)}, {n(5, 3, 2, 1), -4, 4, n(5, 4, 3, 2, 1)},
	} {
		x := types.Null[int32]{}
		if c.x >= 0 {
			x = types.Some(int32(c.x))
		}
		got, err := ArrayInsert(c.arr, c.pos, x)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("array_insert(%v, %d, %v) = %v, %v; want %v", c.arr, c.pos, x, got, err, c.want)
		}
	}
	if _, err := ArrayInsert(n(2, 3, 4), 0, types.Some(int32(1))); err == nil {
		t.Error("array_insert at 0 must fail (INVALID_INDEX_OF_ZERO)")
	}
}

func TestRegexpSubstrInstr(t *testing.T) {
	for _, c := range []struct {
		re, want string
		found    bool
	}{{`\d+`, "1", true}, {`\d+ `, "", false}, {`\d+(a|b|m)`, "1a", true}, {`\d{2}(a|b|m)`, "14m", true}, {``, "", false}} {
		v, found, ok := RegexpSubstr("1a 2b 14m", c.re)
		if !ok || found != c.found || v != c.want {
			t.Errorf("regexp_substr('1a 2b 14m', %q) = %q, %v, %v", c.re, v, found, ok)
		}
	}
	for _, c := range []struct {
		s, re string
		want  int32
	}{{"abc", "b", 2}, {"abc", "x", 0}, {"ABC", "(?-i)b", 0}, {"1a 2b 14m", `\d{2}(a|b|m)`, 7}, {"日本b", "b", 3}} {
		if v, ok := RegexpInstr(c.s, c.re); !ok || v != c.want {
			t.Errorf("regexp_instr(%q, %q) = %d, %v; want %d", c.s, c.re, v, ok, c.want)
		}
	}
}
