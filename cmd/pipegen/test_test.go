package main

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestTestCommandExitCodes runs the failing tests of
// testdata/script/test_failure.txtar in process: exit 1 when a test fails,
// 0 when the selected tests pass, 2 for a usage error; the JUnit report is
// well-formed XML whose counts are those of the text report.
func TestTestCommandExitCodes(t *testing.T) {
	t.Setenv("PIPEGEN_CACHE", testBuildCache())
	ar, err := txtar.ParseFile(filepath.Join("testdata", "script", "test_failure.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec := filepath.Join(dir, "pipeline.yaml")
	pipegen := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"pipegen", "test"}, args...), nil, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	if code, out, errOut := pipegen(spec); code != exitDiagnostics || !strings.Contains(out, "FAIL: 3 of 4 tests failed") {
		t.Errorf("failing tests: exit %d, want 1\n%s%s", code, out, errOut)
	}
	if code, out, errOut := pipegen("--run", "^keeps", spec); code != exitOK || !strings.Contains(out, "ok: 1 test passed") {
		t.Errorf("passing test: exit %d, want 0\n%s%s", code, out, errOut)
	}
	if code, _, _ := pipegen("--format", "xml", spec); code != exitUsage {
		t.Errorf("--format xml: exit %d, want 2", code)
	}
	if code, _, errOut := pipegen(filepath.Join(dir, "none.yaml")); code != exitDiagnostics || !strings.Contains(errOut, "has no tests") {
		t.Errorf("a spec without tests: exit %d, want 1 saying so (%s)", code, errOut)
	}
	code, out, _ := pipegen("--format", "junit", spec)
	if code != exitDiagnostics {
		t.Errorf("junit: exit %d, want 1", code)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("junit output is not XML: %v\n%s", err, out)
	}
	if doc.Tests != 4 || doc.Failures != 2 || doc.Errors != 1 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 4 {
		t.Fatalf("junit counts: %+v", doc)
	}
	f := doc.Suites[0].Cases[1].Failure
	if f == nil || !strings.Contains(f.Text, "\n  - {customer: \"ann\", total: 30}\n  + {customer: \"ann\", total: 25}") {
		t.Errorf("wrong_total's failure lacks the diff: %+v", f)
	}
}
