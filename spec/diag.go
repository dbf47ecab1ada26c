package spec

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
)

// Pos is a position in a spec file. Line and Col are 1-based; Col counts
// characters (runes), as YAML parsers and editors do. File is the path as
// the loader was given it (joined with the main file's directory for
// libraries). The zero Pos means "no position".
type Pos struct {
	File      string
	Line, Col int
}

// String returns "file:line:col" (or as much of it as is known).
func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Before reports whether p sorts before q: by file, then line, then column.
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Severity is how bad a diagnostic is.
type Severity uint8

// Severities. Only errors make a spec invalid. A note adds context to an
// error elsewhere, e.g. that a dataset was not checked because its input
// failed.
const (
	Error Severity = iota
	Warning
	Note
)

func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Note:
		return "notice"
	}
	return "error"
}

// Diagnostic is one problem found in a spec, at a position.
type Diagnostic struct {
	Pos
	Severity Severity
	// Code is SDP's / Spark's error class where one exists (e.g.
	// "CIRCULAR_DEPENDENCY", "UNRESOLVED_COLUMN") or a pipegen code such as
	// "SCHEMA" for JSON Schema violations; may be empty.
	Code string
	// Message is lower-case without a trailing period and names the thing.
	Message string
	// Hint says what to do, e.g. `did you mean "orders"?`; may be empty.
	Hint string
}

// String returns the diagnostic as printed by `pipegen validate`:
// `file:line:col: message (hint) [CODE]`, with "warning: " before the
// message of warnings.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.Pos.String())
	b.WriteString(": ")
	b.WriteString(d.Text())
	return b.String()
}

// Text is the diagnostic without its position: `message (hint) [CODE]`.
func (d Diagnostic) Text() string {
	var b strings.Builder
	switch d.Severity {
	case Warning:
		b.WriteString("warning: ")
	case Note:
		b.WriteString("note: ")
	}
	b.WriteString(d.Message)
	if d.Hint != "" {
		b.WriteString(" (")
		b.WriteString(d.Hint)
		b.WriteString(")")
	}
	if d.Code != "" {
		b.WriteString(" [")
		b.WriteString(d.Code)
		b.WriteString("]")
	}
	return b.String()
}

// Diagnostics is a list of diagnostics. Stages append to it and never stop
// at the first problem.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Sort orders the diagnostics by file, line and column (stable, so
// diagnostics at one position keep the order they were found in) and drops
// exact duplicates.
func (ds *Diagnostics) Sort() {
	s := *ds
	sort.SliceStable(s, func(i, j int) bool { return s[i].Pos.Before(s[j].Pos) })
	out := s[:0]
	for i, d := range s {
		if i > 0 && d == s[i-1] {
			continue
		}
		out = append(out, d)
	}
	*ds = out
}

// OutputFormat is an output format of diagnostics.
type OutputFormat string

// Output formats of Write.
const (
	// TextOutput prints `file:line:col: message (hint) [CODE]` lines.
	TextOutput OutputFormat = "text"
	// JSONOutput prints one JSON array of objects with the keys file, line,
	// column, severity (error, warning, notice), code, message and hint.
	JSONOutput OutputFormat = "json"
	// GitHubOutput prints GitHub Actions workflow commands,
	// `::error file=F,line=L,col=C::message` (warning and notice likewise).
	GitHubOutput OutputFormat = "github"
)

// Write prints ds in format f. File paths that are absolute are printed
// relative to cwd when they lie under it.
func (ds Diagnostics) Write(w io.Writer, f OutputFormat, cwd string) error {
	switch f {
	case JSONOutput:
		type jd struct {
			File     string `json:"file"`
			Line     int    `json:"line"`
			Column   int    `json:"column"`
			Severity string `json:"severity"`
			Code     string `json:"code,omitempty"`
			Message  string `json:"message"`
			Hint     string `json:"hint,omitempty"`
		}
		out := make([]jd, 0, len(ds))
		for _, d := range ds {
			out = append(out, jd{relPath(d.File, cwd), d.Line, d.Col, d.Severity.String(), d.Code, d.Message, d.Hint})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case GitHubOutput:
		for _, d := range ds {
			msg := d.Message
			if d.Hint != "" {
				msg += " (" + d.Hint + ")"
			}
			if d.Code != "" {
				msg += " [" + d.Code + "]"
			}
			if _, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d::%s\n", d.Severity, ghEscapeProp(relPath(d.File, cwd)), d.Line, d.Col, ghEscapeData(msg)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, d := range ds {
		d.File = relPath(d.File, cwd)
		if _, err := fmt.Fprintln(w, d.String()); err != nil {
			return err
		}
	}
	return nil
}

// relPath returns path relative to cwd when path is absolute and under cwd.
func relPath(path, cwd string) string {
	if cwd == "" || !filepath.IsAbs(path) {
		return path
	}
	rel, err := filepath.Rel(cwd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}

// ghEscapeData escapes a workflow command's message.
func ghEscapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghEscapeProp escapes a workflow command's property value.
func ghEscapeProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// diagSink collects diagnostics for one load.
type diagSink struct {
	diags Diagnostics
}

func (s *diagSink) errorf(pos Pos, code, hint, format string, args ...any) {
	s.diags = append(s.diags, Diagnostic{Pos: pos, Severity: Error, Code: code, Message: fmt.Sprintf(format, args...), Hint: hint})
}

func (s *diagSink) warnf(pos Pos, code, hint, format string, args ...any) {
	s.diags = append(s.diags, Diagnostic{Pos: pos, Severity: Warning, Code: code, Message: fmt.Sprintf(format, args...), Hint: hint})
}

func (s *diagSink) notef(pos Pos, code, hint, format string, args ...any) {
	s.diags = append(s.diags, Diagnostic{Pos: pos, Severity: Note, Code: code, Message: fmt.Sprintf(format, args...), Hint: hint})
}
