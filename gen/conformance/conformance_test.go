package conformance

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

var (
	update             = flag.Bool("update", false, "rewrite testdata/known-failures.txt without the queries that now pass (it never adds one)")
	acceptNewFailures  = flag.Bool("accept-new-failures", false, "with -update, also add the queries that fail and are not listed, and record changed classes")
	onlyFiles          = flag.String("conformance.files", "", "comma-separated golden files to run (e.g. array.sql,map.sql)")
	goldenDir          = filepath.Join("testdata", "spark-sql-tests")
	knownFailuresFile  = filepath.Join("testdata", "known-failures.txt")
	knownFailuresTitle = `# Known failures of the Spark golden-file conformance test (gen/conformance).
#
# One query per line: FILE:INDEX CLASS, then "#" and the start of the query.
# INDEX is the query's 1-based "-- !query" block in results/FILE.out; CLASS is
# crash | wrong_result | wrong_accept | run_error | unsupported (see doc.go).
# The list can only shrink: a listed query that passes fails the test until
# it is removed (go test ./gen/conformance -update removes every such line);
# a failing query that is not listed, or listed with another class, fails
# the test (-update -accept-new-failures records it, for a reviewer to see).
`
)

// Classes of an evaluated query.
const (
	classPass        = "pass"         // same rows as Spark
	classPassError   = "pass_error"   // Spark raises an error; pipegen names the same error class, or both fail at run time
	classBothReject  = "both_reject"  // Spark raises an error; validate rejects the query for another reason (a construct it lacks)
	classCrash       = "crash"        // panic, exit 2, hang, Go that does not compile, a table that cannot be read
	classWrongResult = "wrong_result" // rows that differ from Spark's
	classWrongAccept = "wrong_accept" // Spark raises an error; pipegen returns rows, or validate accepts what Spark rejects before running it
	classRunError    = "run_error"    // Spark returns rows; pipegen's flow fails at run time
	classUnsupported = "unsupported"  // Spark returns rows; validate rejects the query
	classSkipped     = "not_evaluated"
)

var failingClasses = []string{classCrash, classWrongResult, classWrongAccept, classRunError, classUnsupported}

func passing(class string) bool {
	return class == classPass || class == classPassError || class == classBothReject
}

// result is a classified query.
type result struct {
	q      *query
	o      *outcome
	class  string
	detail string
}

func TestSparkGolden(t *testing.T) {
	names, err := goldenNames(goldenDir)
	if err != nil || len(names) == 0 {
		t.Fatalf("no golden files under %s: %v", goldenDir, err)
	}
	var files []string
	for _, name := range names {
		if *onlyFiles == "" || slices.Contains(strings.Split(*onlyFiles, ","), name) {
			files = append(files, name)
		}
	}
	if len(files) == 0 {
		t.Fatalf("-conformance.files=%s names no file of %s/inputs", *onlyFiles, goldenDir)
	}
	known, err := readKnownFailures(knownFailuresFile)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	results := map[string][]result{}
	t.Run("file", func(t *testing.T) {
		for _, name := range files {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				g, err := loadGolden(goldenDir, name)
				if err != nil {
					t.Fatal(err)
				}
				qs := plan(g)
				outs := runFile(t, qs)
				var rs []result
				for _, q := range qs {
					rs = append(rs, classify(q, outs[q]))
				}
				mu.Lock()
				results[name] = rs
				mu.Unlock()
			})
		}
	})
	if t.Failed() {
		return
	}
	checkKnownFailures(t, files, results, known)
	summary := summarize(files, results)
	t.Log("\n" + summary)
	writeReport(t, summary, files, results)
}

// classify compares pipegen's outcome with Spark's answer.
func classify(q *query, o *outcome) result {
	r := result{q: q, o: o}
	want := q.Block
	switch {
	case q.Skip != "":
		r.class, r.detail = classSkipped, q.Skip
	case o.Crash != "":
		r.class, r.detail = classCrash, o.Crash
	case want.Error != "":
		switch {
		case o.Rejected != "" && namesClass(o.Codes, want.ErrorClass):
			r.class, r.detail = classPassError, fmt.Sprintf("Spark: %s %s\npipegen: %s", want.Error, want.ErrorClass, o.Rejected)
		case o.Rejected != "":
			r.class, r.detail = classBothReject, fmt.Sprintf("Spark: %s %s\npipegen: %s", want.Error, want.ErrorClass, o.Rejected)
		case o.RunError != "" && (namesClass(o.Codes, want.ErrorClass) || !analysisError(want.Error)):
			r.class, r.detail = classPassError, fmt.Sprintf("Spark: %s %s\npipegen's flow failed: %s", want.Error, want.ErrorClass, o.RunError)
		case o.RunError != "":
			// Spark rejects the query before running it; validate
			// accepted it and the program failed on its rows.
			r.class, r.detail = classWrongAccept, fmt.Sprintf("Spark rejects the query: %s %s\nvalidate accepted it; the flow failed: %s", want.Error, want.ErrorClass, o.RunError)
		default:
			r.class, r.detail = classWrongAccept, fmt.Sprintf("Spark: %s %s\npipegen returned:\n%s", want.Error, want.ErrorClass, strings.Join(o.Rows, "\n"))
		}
	case o.Rejected != "":
		r.class, r.detail = classUnsupported, o.Rejected
	case o.RunError != "":
		r.class, r.detail = classRunError, o.RunError
	default:
		// A value with a line break spans lines of the golden file:
		// both sides are compared as lines.
		got, exp := lines(o.Rows), slices.Clone(want.Rows)
		if !q.Ordered {
			slices.Sort(got)
			slices.Sort(exp)
		}
		got, exp = trimOutputEnd(got), trimOutputEnd(exp)
		switch {
		case slices.Equal(got, exp), len(exp) == 0 && len(o.Rows) == 1 && strings.TrimSpace(o.Rows[0]) == "":
			// An empty output is also what one row of one empty (or
			// blank: the suite strips the output's trailing whitespace)
			// string prints.
			r.class = classPass
		default:
			r.class = classWrongResult
			order := ""
			if q.Ordered {
				g2, e2 := slices.Clone(got), slices.Clone(exp)
				slices.Sort(g2)
				slices.Sort(e2)
				if slices.Equal(g2, e2) {
					order = " (the same rows in another order)"
				}
			}
			r.detail = fmt.Sprintf("rows differ%s\nSpark:\n%s\npipegen:\n%s", order, indent(want.Rows), indent(o.Rows))
		}
	}
	return r
}

// analysisError reports whether Spark's exception is raised before the
// query runs (parse and analysis), not by its rows.
func analysisError(exception string) bool {
	return strings.HasSuffix(exception, "AnalysisException") || strings.HasSuffix(exception, "ParseException")
}

// trimOutputEnd drops the whitespace at the end of an output, as Spark's
// suite does when it writes and reads a golden file (replaceAll("\\s+$", "")):
// a last row that ends in empty strings loses its trailing tabs there.
func trimOutputEnd(rows []string) []string {
	for len(rows) > 0 {
		last := strings.TrimRight(rows[len(rows)-1], " \t\n\v\f\r")
		if last != "" || len(rows) == 1 {
			rows[len(rows)-1] = last
			return rows
		}
		rows = rows[:len(rows)-1]
	}
	return rows
}

func lines(rows []string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Split(r, "\n")...)
	}
	return out
}

func namesClass(codes []string, class string) bool {
	if class == "" {
		return false
	}
	top, _, _ := strings.Cut(class, ".")
	for _, c := range codes {
		if c == class || c == top {
			return true
		}
	}
	return false
}

func indent(lines []string) string {
	if len(lines) == 0 {
		return "  (no rows)"
	}
	return "  " + strings.Join(lines, "\n  ")
}

// knownFailure is one line of the known-failures list.
type knownFailure struct {
	class, comment string
}

func readKnownFailures(path string) (map[string]knownFailure, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return map[string]knownFailure{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]knownFailure{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		body, comment, _ := strings.Cut(line, "#")
		fields := strings.Fields(body)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 || !strings.Contains(fields[0], ":") || !slices.Contains(failingClasses, fields[1]) {
			return nil, fmt.Errorf("%s:%d: want \"FILE:INDEX CLASS  # query\" with CLASS one of %s, got %q", path, n, strings.Join(failingClasses, ", "), line)
		}
		if _, dup := out[fields[0]]; dup {
			return nil, fmt.Errorf("%s:%d: %s is listed twice", path, n, fields[0])
		}
		out[fields[0]] = knownFailure{class: fields[1], comment: strings.TrimSpace(comment)}
	}
	return out, sc.Err()
}

// checkKnownFailures fails the test on a failing query that is not listed
// (or listed with another class) and on a listed query that now passes;
// with -update it rewrites the list: without the passing queries, and
// with -accept-new-failures also with the new failures.
func checkKnownFailures(t *testing.T, files []string, results map[string][]result, known map[string]knownFailure) {
	next := map[string]knownFailure{}
	for id, k := range known {
		file, _, _ := strings.Cut(id, ":")
		if !slices.Contains(files, file) {
			next[id] = k // not run this time: kept as is
		}
	}
	var fixed, added, changed []string
	for _, file := range files {
		for _, r := range results[file] {
			id := r.q.ID()
			k, listed := known[id]
			switch {
			case r.class == classSkipped:
				if listed && !*update {
					t.Errorf("%s is listed as %s but is no longer evaluated (%s): remove it from %s", id, k.class, r.detail, knownFailuresFile)
				}
				if listed {
					fixed = append(fixed, id)
				}
			case passing(r.class):
				if listed {
					fixed = append(fixed, id)
					if !*update {
						t.Errorf("%s now passes (%s): remove it from %s (go test ./gen/conformance -update)\n  %s", id, r.class, knownFailuresFile, firstLine(r.q.Block.SQL))
					}
				}
			case !listed:
				added = append(added, id)
				next[id] = knownFailure{class: r.class, comment: firstLine(r.q.Block.SQL)}
				if !*acceptNewFailures {
					t.Errorf("%s fails (%s) and is not in %s:\n  %s\n%s", id, r.class, knownFailuresFile, firstLine(r.q.Block.SQL), indentText(r.detail))
				}
			case k.class != r.class:
				changed = append(changed, id)
				next[id] = knownFailure{class: r.class, comment: k.comment}
				if !*acceptNewFailures {
					t.Errorf("%s is listed as %s but is now %s:\n  %s\n%s", id, k.class, r.class, firstLine(r.q.Block.SQL), indentText(r.detail))
				}
			default:
				next[id] = k
			}
		}
	}
	if !*update {
		return
	}
	if !*acceptNewFailures && (len(added) > 0 || len(changed) > 0) {
		// Only removals are written without -accept-new-failures.
		for _, id := range append(added, changed...) {
			if k, ok := known[id]; ok {
				next[id] = k
			} else {
				delete(next, id)
			}
		}
	}
	if err := writeKnownFailures(knownFailuresFile, next); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d removed, %d added, %d changed class", knownFailuresFile, len(fixed), len(added), len(changed))
}

func writeKnownFailures(path string, list map[string]knownFailure) error {
	ids := make([]string, 0, len(list))
	for id := range list {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, compareIDs)
	var b strings.Builder
	b.WriteString(knownFailuresTitle)
	for _, id := range ids {
		k := list[id]
		fmt.Fprintf(&b, "%-40s %-13s # %s\n", id, k.class, k.comment)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// compareIDs orders FILE:INDEX by file, then by index as a number.
func compareIDs(a, b string) int {
	fa, ia, _ := strings.Cut(a, ":")
	fb, ib, _ := strings.Cut(b, ":")
	if fa != fb {
		return strings.Compare(fa, fb)
	}
	return atoi(ia) - atoi(ib)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	l = strings.ReplaceAll(l, "#", "")
	if len(l) > 100 {
		l = l[:100] + "..."
	}
	return l
}

func indentText(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

var reportClasses = []string{classPass, classPassError, classBothReject, classCrash, classWrongResult, classWrongAccept, classRunError, classUnsupported, classSkipped}

// summarize returns the per-file table: queries per class, and the pass
// rates over the evaluated queries (all passes, and only the real
// agreement, without both_reject).
func summarize(files []string, results map[string][]result) string {
	var b strings.Builder
	b.WriteString("| file | evaluated | pass % | agree % | " + strings.Join(reportClasses, " | ") + " |\n")
	b.WriteString("|---|---:|---:|---:|" + strings.Repeat("---:|", len(reportClasses)) + "\n")
	total := map[string]int{}
	row := func(name string, counts map[string]int) {
		eval := 0
		for _, c := range reportClasses {
			if c != classSkipped {
				eval += counts[c]
			}
		}
		pass := counts[classPass] + counts[classPassError] + counts[classBothReject]
		agree := counts[classPass] + counts[classPassError]
		fmt.Fprintf(&b, "| %s | %d | %s | %s |", name, eval, pct(pass, eval), pct(agree, eval))
		for _, c := range reportClasses {
			fmt.Fprintf(&b, " %d |", counts[c])
		}
		b.WriteString("\n")
	}
	for _, f := range files {
		counts := map[string]int{}
		for _, r := range results[f] {
			counts[r.class]++
			total[r.class]++
		}
		row(f, counts)
	}
	row(fmt.Sprintf("**all %d files**", len(files)), total)
	return b.String()
}

func pct(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", 100*float64(n)/float64(d))
}

// writeReport writes the summary and every query that does not return
// Spark's rows (the errors both raise included) to
// conformance-report.md in the test's artifact directory (go test
// -artifacts keeps it).
func writeReport(t *testing.T, summary string, files []string, results map[string][]result) {
	var b strings.Builder
	b.WriteString("# Spark golden-file conformance\n\n" + summary + "\n")
	for _, f := range files {
		for _, r := range results[f] {
			if r.class == classPass {
				continue
			}
			fmt.Fprintf(&b, "## %s %s\n\n```sql\n%s\n```\n\n```\n%s\n```\n\n", r.q.ID(), r.class, r.q.Block.SQL, strings.TrimSpace(r.detail))
		}
	}
	path := filepath.Join(t.ArtifactDir(), "conformance-report.md")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("report: %s", path)
}
