package conformance

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// block is one statement of a golden result file (results/NAME.sql.out):
// the text Spark ran, the result schema it printed, and its output.
type block struct {
	// Index is the statement's 1-based position in the file; with the
	// file's name it identifies a query in the known-failures list.
	Index int
	// SQL is the statement as Spark ran it (comments of its own lines
	// removed, inline ones kept).
	SQL string
	// Schema is Spark's result schema, e.g. struct<a:int,count(b):bigint>;
	// struct<> for commands and errors.
	Schema string
	// Rows are the output lines; nil when Spark raised an error.
	Rows []string
	// Error is the exception Spark raised (its first output line), or "".
	Error string
	// ErrorClass is the error's errorClass (e.g. DIVIDE_BY_ZERO), or "".
	ErrorClass string
}

// exceptionLine is the first output line of a statement that failed: a
// JVM exception class name, as SQLQueryTestSuite prints it.
var exceptionLine = regexp.MustCompile(`^(org\.apache\.spark|java|scala)\.[A-Za-z0-9_.$]*(Exception|Error)$`)

// numberedHeading is a block heading of an older result file, such as
// "-- !query 12 schema"; $1 is what follows the number.
var numberedHeading = regexp.MustCompile(`(?m)^-- !query \d+( schema| output)?\n`)

var errorClassField = regexp.MustCompile(`"errorClass" : "([^"]+)"`)

// parseResults reads a .sql.out file: blocks of "-- !query", the SQL,
// "-- !query schema", the schema, "-- !query output" and the output,
// separated by two blank lines (SQLQueryTestSuite's QueryTestOutput).
func parseResults(path string) ([]block, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	// Older result files number their headings ("-- !query 3",
	// "-- !query 3 schema", "-- !query 3 output"); the numbers are the
	// blocks' 0-based positions, which the split gives anyway.
	text := numberedHeading.ReplaceAllString(strings.ReplaceAll(string(data), "\r\n", "\n"), "-- !query$1\n")
	parts := strings.Split(text, "-- !query\n")
	if len(parts) < 2 {
		return nil, fmt.Errorf("%s: no \"-- !query\" block", path)
	}
	var out []block
	for i, part := range parts[1:] {
		sqlText, rest, ok1 := strings.Cut(part, "-- !query schema\n")
		schema, output, ok2 := strings.Cut(rest, "-- !query output\n")
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s: query %d: want \"-- !query schema\" and \"-- !query output\" sections", path, i+1)
		}
		b := block{Index: i + 1, SQL: strings.TrimSpace(sqlText), Schema: strings.TrimSpace(schema)}
		// Every block but the last is followed by "\n\n\n" before the next
		// "-- !query"; the last by one newline.
		output = strings.TrimSuffix(output, "\n\n\n")
		output = strings.TrimSuffix(output, "\n")
		lines := strings.Split(output, "\n")
		if exceptionLine.MatchString(lines[0]) && b.Schema == "struct<>" {
			b.Error = lines[0]
			if m := errorClassField.FindStringSubmatch(output); m != nil {
				b.ErrorClass = m[1]
			}
		} else if output != "" {
			b.Rows = lines
		} else {
			b.Rows = []string{}
		}
		out = append(out, b)
	}
	return out, nil
}

// input is what a .sql input file holds besides its statements.
type input struct {
	// Statements are the file's statements, split as SQLQueryTestSuite
	// splits them: comment lines dropped, then cut at each semicolon that
	// is outside quotes, back-quotes and comments.
	Statements []string
	// Configs are the file-wide "--SET k=v" settings (every statement runs
	// under them).
	Configs []string
}

// parseInput reads a .sql input file.
func parseInput(path string) (input, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return input{}, err
	}
	var in input
	var code []string
	for _, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "--SET "):
			in.Configs = append(in.Configs, strings.Split(strings.TrimSpace(trimmed[len("--SET "):]), ",")...)
		case strings.HasPrefix(trimmed, "--IMPORT "):
			// A file that runs another's statements first; none of the
			// copied files does, and the result file lists them anyway.
			return input{}, fmt.Errorf("%s: --IMPORT is not supported by this harness", path)
		case strings.HasPrefix(trimmed, "--"):
			// a comment, or --CONFIG_DIM (codegen and join strategies:
			// the same results under each)
		default:
			code = append(code, line)
		}
	}
	for _, s := range splitStatements(strings.Join(code, "\n")) {
		// A comment after a statement's semicolon on its line is not a
		// statement (Spark drops it).
		if s = strings.TrimSpace(s); squeeze(s) != "" {
			in.Statements = append(in.Statements, s)
		}
	}
	return in, nil
}

// splitStatements cuts SQL text at the semicolons that end statements:
// those outside '...', "...", `...`, -- comments and /* */ comments.
func splitStatements(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"', '`':
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' && c != '`' {
					i++
				}
			}
		case '-':
			if i+1 < len(s) && s[i+1] == '-' {
				for i < len(s) && s[i] != '\n' {
					i++
				}
			}
		case '/':
			if i+1 < len(s) && s[i+1] == '*' {
				end := strings.Index(s[i+2:], "*/")
				if end < 0 {
					i = len(s)
				} else {
					i += end + 3
				}
			}
		case ';':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// goldenFile is one golden test: its name (the input's base name, such as
// "group-by.sql"), input and results.
type goldenFile struct {
	Name    string
	Input   input
	Results []block
}

// goldenNames lists the golden files under dir: the paths of the .sql
// files under dir/inputs, relative to it with forward slashes (such as
// "group-by.sql" or "subquery/in-subquery/in-basic.sql"), sorted. The
// path names a file in the known-failures list and in -conformance.files.
func goldenNames(dir string) ([]string, error) {
	root := filepath.Join(dir, "inputs")
	var names []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".sql") {
			return err
		}
		rel, err := filepath.Rel(root, path)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	slices.Sort(names)
	return names, err
}

// loadGolden reads the pair inputs/NAME and results/NAME.out under dir and
// checks that they agree on the statements.
func loadGolden(dir, name string) (goldenFile, error) {
	in, err := parseInput(filepath.Join(dir, "inputs", filepath.FromSlash(name)))
	if err != nil {
		return goldenFile{}, err
	}
	res, err := parseResults(filepath.Join(dir, "results", filepath.FromSlash(name)+".out"))
	if err != nil {
		return goldenFile{}, err
	}
	if len(in.Statements) != len(res) {
		return goldenFile{}, fmt.Errorf("%s: %d statements in the input, %d in the results", name, len(in.Statements), len(res))
	}
	for i := range res {
		if squeeze(in.Statements[i]) != squeeze(res[i].SQL) {
			return goldenFile{}, fmt.Errorf("%s: statement %d differs between input and results:\n%s\n%s", name, i+1, in.Statements[i], res[i].SQL)
		}
	}
	return goldenFile{Name: name, Input: in, Results: res}, nil
}

// squeeze removes "--" comments and all white space, to compare
// statements that differ only in layout.
func squeeze(s string) string {
	var code []string
	tokens(s, func(tok string, _ int) { code = append(code, tok) })
	return strings.Join(code, " ")
}
