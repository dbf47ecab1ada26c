package sqlfn

import "testing"

// The expected values are Spark's (its ParseUrl and UrlCodec tests and
// the functions' documentation).
func TestParseURL(t *testing.T) {
	const u = "http://userinfo@spark.apache.org:8080/path?query=1&k=v#Ref"
	for _, c := range []struct {
		part, key, want string
		null            bool
	}{
		{part: "HOST", want: "spark.apache.org"},
		{part: "PATH", want: "/path"},
		{part: "QUERY", want: "query=1&k=v"},
		{part: "QUERY", key: "k", want: "v"},
		{part: "QUERY", key: "missing", null: true},
		{part: "REF", want: "Ref"},
		{part: "PROTOCOL", want: "http"},
		{part: "FILE", want: "/path?query=1&k=v"},
		{part: "AUTHORITY", want: "userinfo@spark.apache.org:8080"},
		{part: "USERINFO", want: "userinfo"},
		{part: "host", null: true}, // parts are upper case
	} {
		var keys []string
		if c.key != "" {
			keys = []string{c.key}
		}
		v, null, ok := ParseURL(u, c.part, keys...)
		if !ok || null != c.null || !null && v != c.want {
			t.Errorf("parse_url(%q, %q, %q) = %q, null %v, ok %v; want %q, null %v", u, c.part, c.key, v, null, ok, c.want, c.null)
		}
	}
	if _, null, _ := ParseURL("/only/a/path", "HOST"); !null {
		t.Error("a URL without an authority has no HOST (NULL)")
	}
	if _, _, ok := ParseURL("inva lid://user:pass@host/file;param?query;p2", "HOST"); ok {
		t.Error("a space is not valid in a URI: INVALID_URL")
	}
}

func TestURLCodec(t *testing.T) {
	if got := URLEncode("a b/ü~"); got != "a+b%2F%C3%BC%7E" {
		t.Errorf("url_encode = %q", got)
	}
	if got, ok := URLDecode("a+b%2F%C3%BC%7e"); !ok || got != "a b/ü~" {
		t.Errorf("url_decode = %q, %v", got, ok)
	}
	for _, bad := range []string{"%", "%4", "%zz", "http%3A%2F%2spark.apache.org"} {
		if _, ok := URLDecode(bad); ok {
			t.Errorf("url_decode(%q) must fail (CANNOT_DECODE_URL)", bad)
		}
	}
}

// The expected values are Spark's NumberConverter's (its conv examples
// and MathExpressionsSuite).
func TestConv(t *testing.T) {
	for _, c := range []struct {
		num        string
		from, to   int32
		want       string
		null, fail bool
	}{
		{num: "100", from: 2, to: 10, want: "4"},
		{num: "-10", from: 16, to: -10, want: "-16"},
		{num: "-1", from: 10, to: 16, want: "FFFFFFFFFFFFFFFF"},
		{num: "9223372036854775808", from: 10, to: 16, want: "8000000000000000"},
		{num: "11abc", from: 10, to: 10, want: "11"}, // reading stops at the first non-digit
		{num: "big", from: 36, to: 16, want: "3A48"}, // 11*36*36 + 18*36 + 16
		{num: "1", from: 1, to: 10, null: true},
		{num: "1", from: 10, to: 37, null: true},
		{num: "", from: 10, to: 16, null: true},
		{num: "92233720368547758070", from: 10, to: 16, fail: true},
	} {
		v, null, ok := Conv(c.num, c.from, c.to)
		if ok == c.fail || null != c.null || !null && ok && v != c.want {
			t.Errorf("conv(%q, %d, %d) = %q, null %v, ok %v; want %q, null %v, fail %v", c.num, c.from, c.to, v, null, ok, c.want, c.null, c.fail)
		}
	}
	if got := Bin(-1); got != "1111111111111111111111111111111111111111111111111111111111111111" {
		t.Errorf("bin(-1) = %q", got)
	}
}
