package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/pipegen/pipegen/spec"
)

func testCommand() *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run a pipeline's tests: given source rows, the expected rows of its tables after each update",
		ArgsUsage: "FILE [TESTFILE...]",
		Description: "Runs the unit tests of the spec FILE (docs/test.md): those of FILE's <name>.tests.yaml and of\n" +
			"every *.tests.yaml under tests/ beside it, or of the TESTFILEs given. Each test runs the real\n" +
			"program of the spec (built as `pipegen run` builds it, cached) in a temporary warehouse: for\n" +
			"each of its updates the given rows land as new files of their sources, one update runs, and\n" +
			"the expected rows are compared with the tables' rows (as a set unless ordered: true).\n" +
			"Exit status 1 when a test fails.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT` of the report: text or junit (JUnit XML on stdout, for CI)"},
			&cli.StringFlag{Name: "junit", Usage: "also write the JUnit XML report to `PATH` (the text report stays on stdout)"},
			&cli.StringFlag{Name: "run", Usage: "run only the tests whose name matches the regular expression `RE`"},
			&cli.BoolFlag{Name: "keep", Usage: "keep each test's temporary warehouse and say where it is"},
			&cli.BoolFlag{Name: "offline", Usage: "build from the Go module cache only (GOPROXY=off), never downloading"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() < 1 {
				return usagef("test: give a spec file (and optionally test files)")
			}
			format := c.String("format")
			if format != "text" && format != "junit" {
				return usagef("test: --format %q: want text or junit", format)
			}
			var re *regexp.Regexp
			if s := c.String("run"); s != "" {
				var err error
				if re, err = regexp.Compile(s); err != nil {
					return usagef("test: --run: %v", err)
				}
			}
			opts := TestOptions{Format: format, JUnit: c.String("junit"), Run: re, Keep: c.Bool("keep"), Offline: c.Bool("offline")}
			return exitError{Test(c.App.Writer, c.App.ErrWriter, c.Args().First(), c.Args().Tail(), opts)}
		},
	}
}

// TestOptions configure Test.
type TestOptions struct {
	// Format is "text" or "junit".
	Format string
	// JUnit, when set, is a file that also receives the JUnit report.
	JUnit string
	// Run, when set, selects the tests by name.
	Run *regexp.Regexp
	// Keep keeps each test's temporary folder.
	Keep    bool
	Offline bool
}

// testResult is the outcome of one test.
type testResult struct {
	Test *pipelineTest
	// Failure is the report of a failed test; Error that of a test that
	// could not run as written (a mistake in the test).
	Failure, Error string
	// Line is the line of the test file the report is about: the given,
	// expect or update entry, else the test's.
	Line     int
	Duration time.Duration
}

// Test runs the tests of the spec at file (from testFileArgs, or those
// found beside it; see testFiles) against its program, which it builds as
// Run does, and reports them on stdout (opts.Format). It returns 0 when
// every test passed, 1 when one failed, could not run, or the spec is
// invalid.
func Test(stdout, stderr io.Writer, file string, testFileArgs []string, opts TestOptions) int {
	paths := testFileArgs
	if len(paths) == 0 {
		var err error
		if paths, err = testFiles(file); err != nil {
			fmt.Fprintf(stderr, "pipegen: test: %v\n", err)
			return exitDiagnostics
		}
	}
	if len(paths) == 0 {
		stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		fmt.Fprintf(stderr, "pipegen: test: %s has no tests: write %s.tests.yaml beside it or tests/*.tests.yaml (docs/test.md)\n", file, stem)
		return exitDiagnostics
	}
	var tests []*pipelineTest
	for _, p := range paths {
		ts, err := loadTestFile(p)
		if err != nil {
			fmt.Fprintf(stderr, "pipegen: test: %v\n", err)
			return exitDiagnostics
		}
		for _, t := range ts {
			if opts.Run == nil || opts.Run.MatchString(t.Name) {
				tests = append(tests, t)
			}
		}
	}
	p, files, ok := generate(stderr, file, locations{})
	if !ok {
		return exitDiagnostics
	}
	bin, code := buildInCache(stderr, file, p, files, opts.Offline)
	if code != exitOK {
		return code
	}
	specDir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		fmt.Fprintf(stderr, "pipegen: test: %v\n", err)
		return exitDiagnostics
	}
	r := &testRunner{p: p, bin: bin, specDir: specDir, keep: opts.Keep, stderr: stderr}
	if p.SessionTimeZone != "" {
		r.vc.loc, _ = time.LoadLocation(p.SessionTimeZone)
	}
	if r.vc.loc == nil {
		r.vc.loc = time.UTC
	}
	start := time.Now()
	var results []testResult
	for _, t := range tests {
		res := r.run(t)
		results = append(results, res)
		if opts.Format == "text" {
			writeTextResult(stdout, res)
		}
	}
	failed := 0
	for _, res := range results {
		if res.Failure != "" || res.Error != "" {
			failed++
		}
	}
	if opts.JUnit != "" {
		var b bytes.Buffer
		err := writeJUnit(&b, p.Name, results, time.Since(start))
		if err == nil {
			err = os.WriteFile(opts.JUnit, b.Bytes(), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "pipegen: test: --junit: %v\n", err)
			return exitDiagnostics
		}
	}
	if opts.Format == "junit" {
		if err := writeJUnit(stdout, p.Name, results, time.Since(start)); err != nil {
			fmt.Fprintf(stderr, "pipegen: test: %v\n", err)
			return exitDiagnostics
		}
	} else if failed > 0 {
		fmt.Fprintf(stdout, "FAIL: %d of %d tests failed\n", failed, len(results))
	} else {
		fmt.Fprintf(stdout, "ok: %s passed\n", plural(len(results), "test"))
	}
	if failed > 0 {
		return exitDiagnostics
	}
	return exitOK
}

// testRunner runs tests against one built program.
type testRunner struct {
	p       *spec.Pipeline
	bin     string
	specDir string
	keep    bool
	stderr  io.Writer
	vc      valueCanon
}

// testMistake is a mistake in a test (reported as an error, not a
// failure).
type testMistake struct{ msg string }

func (e testMistake) Error() string { return e.msg }

func mistakef(format string, a ...any) error { return testMistake{fmt.Sprintf(format, a...)} }

// locatedError is a test's failure or mistake at a line of its test file:
// the given, expect or update entry it is about.
type locatedError struct {
	line int
	err  error
}

func (e locatedError) Error() string { return e.err.Error() }
func (e locatedError) Unwrap() error { return e.err }

// at locates err at line; nil stays nil.
func at(line int, err error) error {
	if err == nil {
		return nil
	}
	return locatedError{line, err}
}

// run runs one test in a new temporary folder.
func (r *testRunner) run(t *pipelineTest) testResult {
	start := time.Now()
	res := testResult{Test: t}
	err := r.check(t)
	var tmp string
	if err == nil {
		tmp, err = os.MkdirTemp("", "pipegen-test-")
	}
	if err == nil {
		if r.keep {
			fmt.Fprintf(r.stderr, "pipegen: test %s: warehouse kept in %s\n", t.Name, filepath.Join(tmp, "warehouse"))
		} else {
			defer os.RemoveAll(tmp)
		}
		err = r.updates(t, tmp)
	}
	res.Line = t.Line
	var le locatedError
	if errors.As(err, &le) {
		res.Line = le.line
	}
	var m testMistake
	switch {
	case errors.As(err, &m):
		res.Error = err.Error()
	case err != nil:
		res.Failure = err.Error()
	}
	res.Duration = time.Since(start)
	return res
}

// check refuses a test that names what the pipeline does not have.
func (r *testRunner) check(t *pipelineTest) error {
	for i, u := range t.Updates {
		for _, g := range u.Given {
			src := r.p.Source(g.Source)
			if src == nil {
				return at(g.Line, mistakef("update %d: the pipeline has no source %q (sources: %s)", i+1, g.Source, strings.Join(r.sourceNames(), ", ")))
			}
		}
		for _, x := range u.Expect {
			d := r.p.Dataset(x.Dataset)
			switch {
			case d == nil:
				return at(x.Line, mistakef("update %d: the pipeline has no table %q (tables: %s)", i+1, x.Dataset, strings.Join(r.tableNames(), ", ")))
			case d.Kind == spec.TemporaryView:
				return at(x.Line, mistakef("update %d: %s is a temporary view, which is not stored: expect the rows of a table that reads it", i+1, x.Dataset))
			}
		}
	}
	return nil
}

func (r *testRunner) sourceNames() []string {
	var out []string
	for _, s := range r.p.Sources {
		out = append(out, s.Name)
	}
	return out
}

func (r *testRunner) tableNames() []string {
	var out []string
	for _, d := range r.p.Tables {
		out = append(out, d.Name)
	}
	return out
}

// updates runs the test's updates in tmp: each source reads its own folder
// tmp/sources/NAME, empty until the test gives it rows.
func (r *testRunner) updates(t *pipelineTest, tmp string) error {
	warehouse := filepath.Join(tmp, "warehouse")
	var common []string
	for _, k := range slices.Sorted(maps.Keys(t.Params)) {
		common = append(common, "--param", k+"="+t.Params[k])
	}
	common = append(common, "--warehouse", warehouse)
	runArgs := []string{"run", "--base-dir", r.specDir, "--trigger", "available_now"}
	for _, s := range r.p.Sources {
		dir := filepath.Join(tmp, "sources", s.Name)
		if s.Files != nil {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		if s.Files != nil || givesSource(t, s.Name) {
			runArgs = append(runArgs, "--source-path", s.Name+"="+dir)
		}
	}
	for i, u := range t.Updates {
		for k, g := range u.Given {
			if err := r.land(tmp, i+1, k+1, g); err != nil {
				return at(g.Line, fmt.Errorf("update %d: %w", i+1, err))
			}
		}
		args := append(append([]string{}, runArgs...), common...)
		if len(u.FullRefresh) > 0 {
			args = append(args, "--full-refresh", strings.Join(u.FullRefresh, ","))
		}
		var out bytes.Buffer
		cmd := exec.Command(r.bin, args...)
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			return err
		}
		switch {
		case u.Error != "" && err == nil:
			return at(u.Line, fmt.Errorf("update %d succeeded; the test expects it to fail with %q", i+1, u.Error))
		case u.Error != "" && !strings.Contains(out.String(), u.Error):
			return at(u.Line, fmt.Errorf("update %d failed, but its output does not contain %q:\n%s", i+1, u.Error, indent(out.String())))
		case u.Error == "" && err != nil:
			return at(u.Line, fmt.Errorf("update %d failed (%v):\n%s", i+1, err, indent(out.String())))
		}
		// Each mismatch at its expect entry: the first in the report's
		// header, the others with file:line of their own.
		var msgs []string
		first := 0
		for _, x := range u.Expect {
			msg, err := r.expect(common, x)
			if err != nil {
				return at(x.Line, fmt.Errorf("update %d: %s: %w", i+1, x.Dataset, err))
			}
			switch {
			case msg != "" && first == 0:
				first = x.Line
				msgs = append(msgs, fmt.Sprintf("update %d: %s: %s", i+1, x.Dataset, msg))
			case msg != "":
				msgs = append(msgs, fmt.Sprintf("%s:%d: update %d: %s: %s", t.File, x.Line, i+1, x.Dataset, msg))
			}
		}
		if len(msgs) > 0 {
			return at(first, errors.New(strings.Join(msgs, "\n")))
		}
	}
	return nil
}

func givesSource(t *pipelineTest, name string) bool {
	for _, u := range t.Updates {
		for _, g := range u.Given {
			if g.Source == name {
				return true
			}
		}
	}
	return false
}

// land writes one given input of update n into its source's folder (a
// table source's folder is the Delta table given).
func (r *testRunner) land(tmp string, n, k int, g testInput) error {
	src := r.p.Source(g.Source)
	dir := filepath.Join(tmp, "sources", g.Source)
	if src.Files == nil && g.File == "" {
		return appendTableRows(dir, src, g.Rows, n, k)
	}
	if src.Files == nil {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		if err := os.CopyFS(dir, os.DirFS(g.File)); err != nil {
			return mistakef("input %s: %v", g.Source, err)
		}
		return nil
	}
	if g.File != "" {
		data, err := os.ReadFile(g.File)
		if err != nil {
			return mistakef("input %s: %v", g.Source, err)
		}
		return writeTestFile(filepath.Join(dir, fmt.Sprintf("u%03d-%02d-%s", n, k, filepath.Base(g.File))), data)
	}
	data, err := sourceFile(src, g.Rows)
	if err != nil {
		return mistakef("input %s: %v", g.Source, err)
	}
	return writeTestFile(filepath.Join(dir, fmt.Sprintf("u%03d-%02d.%s", n, k, src.Files.Format)), data)
}

// expect compares a table with x; it returns "" when they match, else the
// report of the difference.
func (r *testRunner) expect(common []string, x testExpect) (string, error) {
	args := append([]string{"show", x.Dataset, "--format", "jsonl", "--limit", "0"}, common...)
	var out, errOut bytes.Buffer
	cmd := exec.Command(r.bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	var rows []map[string]any
	if err := cmd.Run(); err != nil {
		if !strings.Contains(errOut.String(), "does not exist yet") {
			return "", fmt.Errorf("show: %v: %s", err, strings.TrimSpace(errOut.String()))
		}
	} else {
		var err error
		if rows, err = tableRows(out.Bytes()); err != nil {
			return "", err
		}
	}
	d, err := r.vc.compareRows(r.p.Dataset(x.Dataset).Schema(), rows, x)
	if err != nil {
		return "", testMistake{err.Error()}
	}
	if d.ok() && !d.Moved {
		return "", nil
	}
	how := "as a set"
	if x.Ordered {
		how = "in order"
	}
	on := "row counts"
	if len(x.Columns) > 0 {
		on = strings.Join(x.Columns, ", ")
	}
	var b strings.Builder
	if d.Moved {
		fmt.Fprintf(&b, "the rows are in another order (%d rows; compared in order on %s)", d.Got, on)
		b.WriteString("\n  want:")
		for _, s := range d.Missing {
			b.WriteString("\n    " + s)
		}
		b.WriteString("\n  got:")
		for _, s := range d.Extra {
			b.WriteString("\n    " + s)
		}
		return b.String(), nil
	}
	fmt.Fprintf(&b, "%s, %s (the table has %d rows, %d expected; compared %s on %s)",
		plural(len(d.Missing), "missing row"), plural(len(d.Extra), "extra row"), d.Got, len(x.Rows), how, on)
	for _, s := range d.Missing {
		b.WriteString("\n  - " + s)
	}
	for _, s := range d.Extra {
		b.WriteString("\n  + " + s)
	}
	return b.String(), nil
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// writeTextResult prints one test's outcome as go test does.
func writeTextResult(w io.Writer, res testResult) {
	secs := fmt.Sprintf("%.2fs", res.Duration.Seconds())
	switch {
	case res.Error != "":
		fmt.Fprintf(w, "--- ERROR: %s (%s)\n    %s:%d: %s\n", res.Test.Name, secs, res.Test.File, res.Line, indentMore(res.Error))
	case res.Failure != "":
		fmt.Fprintf(w, "--- FAIL: %s (%s)\n    %s:%d: %s\n", res.Test.Name, secs, res.Test.File, res.Line, indentMore(res.Failure))
	default:
		fmt.Fprintf(w, "--- PASS: %s (%s, %s)\n", res.Test.Name, plural(len(res.Test.Updates), "update"), secs)
	}
}

func indentMore(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

// JUnit XML, the shape CI systems read (Jenkins' and GitHub Actions'
// reporters): testsuites > testsuite > testcase with failure or error.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr"`
	Line      int           `xml:"line,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

// writeJUnit writes the results as JUnit XML: one suite per test file.
func writeJUnit(w io.Writer, pipeline string, results []testResult, total time.Duration) error {
	doc := junitSuites{Name: pipeline, Time: fmt.Sprintf("%.3f", total.Seconds())}
	index := map[string]int{}
	for _, res := range results {
		i, ok := index[res.Test.File]
		if !ok {
			i = len(doc.Suites)
			index[res.Test.File] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: pipeline + "/" + filepath.ToSlash(res.Test.File)})
		}
		s := &doc.Suites[i]
		c := junitCase{Name: res.Test.Name, Classname: pipeline, File: filepath.ToSlash(res.Test.File), Line: res.Test.Line, Time: fmt.Sprintf("%.3f", res.Duration.Seconds())}
		first := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
		switch {
		case res.Error != "":
			c.Error = &junitProblem{Message: first(res.Error), Type: "invalid_test", Text: res.Error}
			s.Errors++
			doc.Errors++
		case res.Failure != "":
			c.Failure = &junitProblem{Message: first(res.Failure), Type: "mismatch", Text: res.Failure}
			s.Failures++
			doc.Failures++
		}
		s.Tests++
		doc.Tests++
		s.Cases = append(s.Cases, c)
	}
	for i := range doc.Suites {
		var d time.Duration
		for _, res := range results {
			if filepath.ToSlash(res.Test.File) == doc.Suites[i].Cases[0].File {
				d += res.Duration
			}
		}
		doc.Suites[i].Time = fmt.Sprintf("%.3f", d.Seconds())
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
