package spec

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// YAMLSyntaxError locates a yaml.v3 error of src (a spec, or any YAML file
// pipegen reads, such as pipeline tests): the 1-based line and column of
// the offending token as well as yaml.v3 lets them be found, its message,
// and a hint saying what to write for the mistakes specs run into.
func YAMLSyntaxError(src []byte, err error) (line, col int, msg, hint string) {
	line, node, msg := yamlErrLine(src, err)
	open := node != 0 && node != line && !hasText(src, line)
	if open {
		line = node // the end of the input: point at the node left open
	}
	col, hint = yamlErrHint(src, line, msg)
	if node != 0 && node != line || open {
		hint = yamlNodeHint(msg, node, open)
	}
	if open {
		col = yamlOpenerCol(src, line, msg, col)
	}
	return line, col, msg, hint
}

var yamlErrLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// splitYAMLErr splits a yaml.v3 error into its line (0 when it gives none)
// and message.
func splitYAMLErr(err error) (int, string) {
	if m := yamlErrLineRe.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, m[2]
	}
	return 0, strings.TrimPrefix(err.Error(), "yaml: ")
}

// yamlErrLine returns the 1-based line of the token a YAML error is about,
// the line of the node it was parsing (0 when unknown) and the error's
// message. yaml.v3 numbers its scanner errors from 1, but a
// parser error ("did not find expected ...") names the 0-based line of the
// node being parsed (the '{' of a flow mapping, the first key of a block
// mapping), not the offending token's, and when that node starts on the
// first line it names the offending token's 0-based line, or none. So the
// source is parsed again with a blank line in front, which makes the line
// named the 1-based line of that node (or of the token, when there is no
// node), and then from the start of that line on, so that the node starts
// on the first line and yaml.v3 names the token's line, counted from it. A
// second parse that fails otherwise leaves the line of the node.
func yamlErrLine(src []byte, err error) (line, node int, msg string) {
	line, msg = splitYAMLErr(err)
	if !strings.HasPrefix(msg, "did not find expected") {
		return max(line, 1), 0, msg
	}
	err2 := unmarshalYAML(append([]byte("\n"), src...), new(yaml.Node))
	if err2 == nil {
		return line + 1, 0, msg
	}
	node, msg2 := splitYAMLErr(err2)
	if msg2 != msg || node < 1 {
		return line + 1, 0, msg
	}
	start := lineStart(src, node)
	if start < 0 {
		return node, 0, msg
	}
	err3 := unmarshalYAML(src[start:], new(yaml.Node))
	if err3 == nil {
		return node, 0, msg
	}
	rel, msg3 := splitYAMLErr(err3)
	if msg3 != msg {
		return node, 0, msg
	}
	return node + rel, node, msg
}

// yamlNodeHint says what to write for a "did not find expected ..." error
// inside a node that starts on an earlier line, or is not closed at the
// end of the input.
func yamlNodeHint(msg string, node int, open bool) string {
	kind, sep, end := "", ",", ""
	switch {
	case strings.Contains(msg, "'}'"):
		kind, end = "{...}", "}"
	case strings.Contains(msg, "']'"):
		kind, end = "[...]", "]"
	case strings.Contains(msg, "'-'"):
		return fmt.Sprintf("inside the list starting at line %d: its items (- ...) must line up at one indentation", node)
	default:
		return fmt.Sprintf("inside the mapping starting at line %d: its keys must line up at one indentation", node)
	}
	if open {
		return fmt.Sprintf("the %s starting here is not closed: end it with %q", kind, end)
	}
	return fmt.Sprintf("inside the %s starting at line %d: write %q between its entries and %q at its end; quote a value holding %q or %q", kind, node, sep, end, sep, end)
}

// yamlOpenerCol returns the column of the last '{' (or '[') on a line, the
// flow collection a "did not find expected ',' or '}'" error leaves open,
// or col when the line has none.
func yamlOpenerCol(src []byte, line int, msg string, col int) int {
	lines := bytes.Split(src, []byte("\n"))
	opener := []byte("{")
	if strings.Contains(msg, "']'") {
		opener = []byte("[")
	}
	if line >= 1 && line <= len(lines) {
		if i := bytes.LastIndex(lines[line-1], opener); i >= 0 {
			return i + 1
		}
	}
	return col
}

// hasText reports whether src has anything but blanks from the start of
// its 1-based line on.
func hasText(src []byte, line int) bool {
	start := lineStart(src, line)
	return start >= 0 && len(bytes.TrimSpace(src[start:])) > 0
}

// lineStart returns the offset of src's 1-based line, or -1 when src has
// fewer lines.
func lineStart(src []byte, line int) int {
	start := 0
	for i := 1; i < line; i++ {
		j := bytes.IndexByte(src[start:], '\n')
		if j < 0 {
			return -1
		}
		start += j + 1
	}
	return start
}

// unmarshal runs the YAML parser, turning a parser panic (a bug in it, not
// in the input) into an error so that user input never crashes pipegen.
func unmarshalYAML(src []byte, doc *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return yaml.Unmarshal(src, doc)
}

// yamlErrHint returns the column and a hint for the YAML syntax errors
// that specs run into: a plain value holding ": " (a schema with STRUCT<a:
// INT>, a query with a map literal) and a flow mapping whose value holds
// "}" or "," (${param} in an expectation written inline).
func yamlErrHint(src []byte, line int, msg string) (int, string) {
	lines := bytes.Split(src, []byte("\n"))
	if line < 1 || line > len(lines) {
		return 1, ""
	}
	text := string(lines[line-1])
	switch {
	case strings.Contains(msg, "mapping values are not allowed"):
		col := 1
		if i := strings.Index(text, ": "); i >= 0 {
			if j := strings.Index(text[i+2:], ": "); j >= 0 {
				col = i + 2 + j + 1
			}
		}
		return col, `a plain value cannot contain ": ": quote the value ("...") or write it as a block scalar (key: |, then the text on the next lines)`
	case strings.Contains(msg, "did not find expected ',' or '}'"):
		col := len(text) - len(strings.TrimLeft(text, " \t")) + 1
		if i := strings.Index(text, "${"); i >= 0 {
			col = i + 2 // the '{' the flow mapping cannot take
		}
		return col, `a value inside {...} ends at the first "," or "}": quote it, e.g. {name: min, expr: "n >= ${min}"}`
	case strings.HasPrefix(msg, "did not find expected"):
		return len(text) - len(strings.TrimLeft(text, " \t")) + 1, ""
	}
	return 1, ""
}
