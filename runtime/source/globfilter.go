package source

import (
	"fmt"
	"path"
	"strings"
)

// GlobFilter is a compiled path_glob_filter: a glob matched against each
// file's name (never its folder), as Spark's pathGlobFilter and Auto
// Loader's option are. The syntax is Go's path.Match (*, ?, [a-z], [^a],
// \ escapes) plus Hadoop's {a,b} alternation, which may nest.
type GlobFilter struct {
	alts []string
}

// CompileGlobFilter parses pattern. A malformed pattern (an unclosed [ or
// {, a trailing \) is an error naming the pattern.
func CompileGlobFilter(pattern string) (*GlobFilter, error) {
	alts, err := expandBraces(pattern)
	if err != nil {
		return nil, fmt.Errorf("path_glob_filter %q: %w", pattern, err)
	}
	for _, a := range alts {
		if _, err := path.Match(a, ""); err != nil {
			return nil, fmt.Errorf("path_glob_filter %q: malformed pattern (check [ ] and \\ escapes)", pattern)
		}
	}
	return &GlobFilter{alts: alts}, nil
}

// Match reports whether the file name (its last path element) matches.
func (g *GlobFilter) Match(name string) bool {
	for _, a := range g.alts {
		if ok, _ := path.Match(a, name); ok {
			return true
		}
	}
	return false
}

// expandBraces turns {a,b} alternations into the list of plain patterns.
func expandBraces(p string) ([]string, error) {
	open := -1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			open = i
		}
		if open >= 0 {
			break
		}
	}
	if open < 0 {
		if strings.ContainsAny(p, "}") && !escaped(p, strings.IndexByte(p, '}')) {
			return nil, fmt.Errorf("unmatched }")
		}
		return []string{p}, nil
	}
	depth, start := 0, open+1
	var parts []string
	for i := open; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			depth++
		case ',':
			if depth == 1 {
				parts = append(parts, p[start:i])
				start = i + 1
			}
		case '}':
			depth--
			if depth == 0 {
				parts = append(parts, p[start:i])
				var out []string
				for _, part := range parts {
					sub, err := expandBraces(p[:open] + part + p[i+1:])
					if err != nil {
						return nil, err
					}
					out = append(out, sub...)
				}
				return out, nil
			}
		}
	}
	return nil, fmt.Errorf("unclosed {")
}

func escaped(p string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && p[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// Filter keeps the entries whose file name matches g; a nil g keeps all.
func (l *Listing) Filter(g *GlobFilter) {
	if g == nil {
		return
	}
	kept := l.Entries[:0]
	for _, e := range l.Entries {
		if g.Match(path.Base(strings.ReplaceAll(e.name, "\\", "/"))) {
			kept = append(kept, e)
		}
	}
	l.Entries = kept
}
