package sqlfn

import (
	"regexp"
	"strings"
)

// This file holds Spark's URL functions: url_encode and url_decode
// (java.net.URLEncoder / URLDecoder with UTF-8, the HTML form encoding),
// and parse_url (the parts of java.net.URI).

// URLEncode is url_encode: letters, digits and ".-*_" stay, a space is
// "+", every other byte of the UTF-8 text is %XX (upper-case hex).
func URLEncode(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '-', c == '*', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// URLDecode is url_decode: "+" is a space and %XX a byte; ok is false
// (CANNOT_DECODE_URL) for a "%" not followed by two hex digits.
func URLDecode(s string) (string, bool) {
	if !strings.ContainsAny(s, "+%") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			b.WriteByte(' ')
		case '%':
			if i+2 >= len(s) {
				return "", false
			}
			hi, ok1 := unhexDigit(s[i+1])
			lo, ok2 := unhexDigit(s[i+2])
			if !ok1 || !ok2 {
				return "", false
			}
			b.WriteByte(hi<<4 | lo)
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	// The bytes are read as UTF-8, a malformed sequence as U+FFFD.
	return strings.ToValidUTF8(b.String(), "\uFFFD"), true
}

func unhexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// uriParts is RFC 2396's regular expression for a URI reference
// (appendix B): scheme, authority, path, query, fragment.
var uriParts = regexp.MustCompile(`^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$`)

// uriIllegal are the characters java.net.URI refuses anywhere in a URI
// (besides controls and a "%" without two hex digits).
const uriIllegal = " \"<>\\^`{|}"

// ParseURL is parse_url(url, part[, key]): the part of url named by part
// (HOST, PATH, QUERY, REF, PROTOCOL, FILE, AUTHORITY, USERINFO), as
// java.net.URI gives it (raw, not decoded); with key, the value of that
// query parameter. NULL (null true) for a part the URL lacks or an
// unknown part; ok is false (INVALID_URL) for a URL java.net.URI refuses.
func ParseURL(url, part string, key ...string) (v string, null, ok bool) {
	for i := 0; i < len(url); i++ {
		c := url[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte(uriIllegal, c) >= 0 {
			return "", false, false
		}
		if c == '%' {
			if i+2 >= len(url) {
				return "", false, false
			}
			if _, ok1 := unhexDigit(url[i+1]); !ok1 {
				return "", false, false
			}
			if _, ok2 := unhexDigit(url[i+2]); !ok2 {
				return "", false, false
			}
		}
	}
	m := uriParts.FindStringSubmatchIndex(url)
	if m == nil {
		return "", false, false
	}
	get := func(g int) (string, bool) {
		if m[2*g] < 0 {
			return "", false
		}
		return url[m[2*g]:m[2*g+1]], true
	}
	scheme, hasScheme := get(1)
	authority, hasAuthority := get(2)
	path, _ := get(3)
	query, hasQuery := get(4)
	fragment, hasFragment := get(5)
	if hasAuthority && authority == "" {
		hasAuthority = false
	}
	userinfo, host, hasUser := "", authority, false
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		userinfo, host, hasUser = authority[:at], authority[at+1:], true
	}
	if colon := strings.LastIndexByte(host, ':'); colon >= 0 && !strings.HasSuffix(host, "]") {
		host = host[:colon]
	}
	if len(key) > 0 {
		if part != "QUERY" || !hasQuery {
			return "", true, true
		}
		for _, kv := range strings.Split(query, "&") {
			if k, val, found := strings.Cut(kv, "="); found && k == key[0] {
				return val, false, true
			}
		}
		return "", true, true
	}
	switch part {
	case "HOST":
		return host, !hasAuthority || host == "", true
	case "PATH":
		return path, false, true
	case "QUERY":
		return query, !hasQuery, true
	case "REF":
		return fragment, !hasFragment, true
	case "PROTOCOL":
		return scheme, !hasScheme, true
	case "FILE":
		if hasQuery {
			return path + "?" + query, false, true
		}
		return path, false, true
	case "AUTHORITY":
		return authority, !hasAuthority, true
	case "USERINFO":
		return userinfo, !hasUser, true
	}
	return "", true, true
}
