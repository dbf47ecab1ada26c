package spec

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// SourceSettings are the settings of a file source that reading its sample
// files needs, read from a spec's YAML text (see SetSourceSchema).
type SourceSettings struct {
	Found bool // the spec has a source of that name
	// Format is files.format ("" when not given); Header and Delimiter are
	// files.csv.header and files.csv.delimiter when given.
	Format    string
	Header    *bool
	Delimiter string
	// PathGlobFilter is files.path_glob_filter when given.
	PathGlobFilter string
}

// SourceSettingsOf reads the settings of source name from spec text data.
func SourceSettingsOf(data []byte, name string) (SourceSettings, error) {
	src, _, err := findSource(data, name)
	if err != nil || src == nil {
		return SourceSettings{}, err
	}
	st := SourceSettings{Found: true}
	if files := mapValue(src, "files"); files != nil {
		if f := mapValue(files, "format"); f != nil {
			st.Format = f.Value
		}
		if g := mapValue(files, "path_glob_filter"); g != nil {
			st.PathGlobFilter = g.Value
		}
	}
	if csv := mapValue(mapValue(src, "files"), "csv"); csv != nil {
		if h := mapValue(csv, "header"); h != nil {
			var b bool
			if h.Decode(&b) == nil {
				st.Header = &b
			}
		}
		if d := mapValue(csv, "delimiter"); d != nil {
			st.Delimiter = d.Value
		}
	}
	return st, nil
}

// SetSourceSchema returns the spec text data with the schema of source
// name set to ddl (its lines joined by newlines), written as a folded block
// scalar under a comment line (comment, without "# "): an existing schema
// key (with the comment lines just above it) is replaced in place, else the
// key is added as the source's last entry. Everything else in the text
// (comments, order, quoting, blank lines) is kept byte for byte: the edit is
// a text splice at positions the YAML parser gives. It fails when the spec
// has no such source, or when the source is written in flow style
// ({...}), where a splice could not keep the rest as written.
func SetSourceSchema(data []byte, name, ddl, comment string) ([]byte, error) {
	src, key, err := findSource(data, name)
	if err != nil {
		return nil, err
	}
	if src == nil {
		return nil, fmt.Errorf("the spec has no source %q under sources: add it (with its files: path and format) first", name)
	}
	if src.Kind != yaml.MappingNode || src.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("line %d: source %q is not a block mapping: write it one key per line to let infer set its schema", key.Line, name)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(src.Content) == 0 {
		return nil, fmt.Errorf("line %d: source %q is empty", key.Line, name)
	}
	indent := src.Content[0].Column - 1
	eol := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		eol = "\r\n" // keep the file's line endings
	}
	block := []string{strings.Repeat(" ", indent) + "# " + comment + eol, strings.Repeat(" ", indent) + "schema: >-" + eol}
	for _, l := range strings.Split(ddl, "\n") {
		block = append(block, strings.Repeat(" ", indent+2)+l+eol)
	}
	var start, end int // lines [start, end) (0-based) are replaced
	if k := mapKey(src, "schema"); k != nil {
		start = k.Line - 1
		end = entryEnd(lines, start, indent)
		// the comment that infer wrote above it last time goes too
		for start > 0 && strings.HasPrefix(strings.TrimSpace(lines[start-1]), "# inferred ") &&
			leadingSpaces(lines[start-1]) == indent {
			start--
		}
	} else {
		last := src.Content[len(src.Content)-2]
		start = entryEnd(lines, last.Line-1, indent)
		end = start
	}
	if start > 0 && !strings.HasSuffix(lines[start-1], "\n") {
		lines[start-1] += eol
	}
	var out bytes.Buffer
	for _, l := range lines[:start] {
		out.WriteString(l)
	}
	for _, l := range block {
		out.WriteString(l)
	}
	for _, l := range lines[end:] {
		out.WriteString(l)
	}
	return out.Bytes(), nil
}

// entryEnd returns the line (0-based) after the mapping entry whose key is
// on line start at indentation indent: the first later line that is not
// blank and not indented deeper, with the blank and comment lines before
// it left outside the entry.
func entryEnd(lines []string, start, indent int) int {
	end := start + 1
	for i := start + 1; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" {
			continue
		}
		if leadingSpaces(lines[i]) <= indent {
			break
		}
		end = i + 1
	}
	return end
}

func leadingSpaces(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// findSource returns the value node of sources.<name> and its key node,
// nil when there is none.
func findSource(data []byte, name string) (val, key *yaml.Node, err error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("the spec is not valid YAML: %v", err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("the spec is not a YAML mapping")
	}
	sources := mapValue(doc.Content[0], "sources")
	if sources == nil || sources.Kind != yaml.MappingNode {
		return nil, nil, nil
	}
	for i := 0; i+1 < len(sources.Content); i += 2 {
		if sources.Content[i].Value == name {
			return sources.Content[i+1], sources.Content[i], nil
		}
	}
	return nil, nil, nil
}

func mapKey(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}
