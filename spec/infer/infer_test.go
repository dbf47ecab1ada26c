package infer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func inferText(t *testing.T, name, content string, opts Options) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Infer([]string{p}, opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ddl, err := FormatSchema(res.Schema)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(ddl, "\n", " ")
}

// TestWidening checks the rules of the package doc, each in both orders of
// the values (widening is commutative).
func TestWidening(t *testing.T) {
	for _, tc := range []struct {
		values []string // CSV field texts, one per record
		want   string
	}{
		{[]string{"43200000", "true"}, "v STRING"},
		{[]string{"214748364700", "1"}, "v BIGINT"},
		{[]string{"01220", "5"}, "v STRING"},
		{[]string{"0", "0.5"}, "v DOUBLE"},
		{[]string{"-0", "7"}, "v BIGINT"},
		{[]string{"9223372036854775808", "1"}, "v DECIMAL(38,0)"},
		{[]string{"123456789012345678901234567890123456789", "1"}, "v STRING"},
		{[]string{"1.5", "2"}, "v DOUBLE"},
		{[]string{"1e3", "2"}, "v DOUBLE"},
		{[]string{"1e400", "2"}, "v STRING"},
		{[]string{"-1.5e309", "0.5"}, "v STRING"},
		{[]string{"1e-400", "2"}, "v DOUBLE"},
		{[]string{"12345678901234567", "0.5"}, "v DECIMAL(18,1)"},
		{[]string{"2024-01-31", "2024-02-01T10:00:00Z"}, "v TIMESTAMP"},
		{[]string{"2024-01-31", ""}, "v DATE"},
		{[]string{"2024-01-31", "7"}, "v STRING"},
		{[]string{"TRUE", "false"}, "v BOOLEAN"},
		{[]string{"", ""}, "v STRING"},
		{[]string{" 1", "2"}, "v STRING"},
	} {
		for _, order := range [][]string{tc.values, {tc.values[1], tc.values[0]}} {
			got := inferText(t, "a.csv", "v\n"+strings.Join(order, "\n")+"\n", Options{})
			if got != tc.want {
				t.Errorf("%q: got %s, want %s", order, got, tc.want)
			}
		}
	}
}

func TestOptions(t *testing.T) {
	csv := "a,b\n1.25,2024-01-02 03:04:05\n10.5,2024-01-02T03:04:05.123\n"
	if got, want := inferText(t, "a.csv", csv, Options{}), "a DOUBLE, b TIMESTAMP"; got != want {
		t.Errorf("default: got %s, want %s", got, want)
	}
	if got, want := inferText(t, "a.csv", csv, Options{Decimals: true, TimestampNTZ: true}), "a DECIMAL(4,2), b TIMESTAMP_NTZ"; got != want {
		t.Errorf("--decimals --timestamp-ntz: got %s, want %s", got, want)
	}
	zoned := "b\n2024-01-02 03:04:05\n2024-01-02T03:04:05+02:00\n"
	if got, want := inferText(t, "a.csv", zoned, Options{TimestampNTZ: true}), "b TIMESTAMP"; got != want {
		t.Errorf("an offset in one value: got %s, want %s", got, want)
	}
}

func TestJSON(t *testing.T) {
	for _, tc := range []struct{ lines, want string }{
		{`{"a":[214748364700,1]}` + "\n" + `{"a":[1,214748364700]}`, "a ARRAY<BIGINT>"},
		{`{"a":[1]}` + "\n" + `{"a":[1.5]}`, "a ARRAY<DOUBLE>"},
		{`{"a":"12"}` + "\n" + `{"a":"2024-01-01"}`, "a STRING"},
		{`{"a":"2024-01-01"}` + "\n" + `{"a":null}`, "a DATE"},
		{`{"a":{"x":1}}` + "\n" + `{"a":{"y":"z"},"b":true}`, "a STRUCT<x: BIGINT, y: STRING>, b BOOLEAN"},
		{`{"a":{"x":1}}` + "\n" + `{"a":5}`, "a STRING"},
		{`{"a":12}` + "\n" + `{"a":"x"}`, "a STRING"},
		{`{"a":[]}`, "a ARRAY<STRING>"},
		{`{"table":1,"my col":2}`, "table BIGINT, `my col` BIGINT"},
		{`{"m":{"k1":1,"k2":2}}` + "\n" + `{"m":{"k3":3.5}}`, "m MAP<STRING, DOUBLE>"},
	} {
		got := inferText(t, "a.json", tc.lines+"\n", Options{MapThreshold: 2})
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.lines, got, tc.want)
		}
	}
}

func TestSampleLimit(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("v\n")
	for i := 0; i < 100; i++ {
		b.WriteString("1\n")
	}
	b.WriteString("x\n") // beyond the limit: not seen
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte(b.String()), 0o644)
	res, err := Infer([]string{dir}, Options{MaxRecords: 100})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Limited || res.Records != 100 || res.Schema.String() != "v BIGINT" {
		t.Errorf("got limited=%v records=%d schema %s", res.Limited, res.Records, res.Schema)
	}
	res, err = Infer([]string{dir}, Options{MaxRecords: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Limited || res.Records != 101 || res.Schema.String() != "v STRING" {
		t.Errorf("got limited=%v records=%d schema %s", res.Limited, res.Records, res.Schema)
	}
	res, err = Infer([]string{dir}, Options{MaxBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Limited || res.Records != 4 { // "v\n1\n1\n1\n1\n" is 10 bytes
		t.Errorf("byte limit: got limited=%v records=%d", res.Limited, res.Records)
	}
}

// TestRootNeverMap: the columns stay columns whatever the map threshold.
func TestRootNeverMap(t *testing.T) {
	if got, want := inferText(t, "a.json", `{"a":1,"b":2,"c":3}`+"\n", Options{MapThreshold: 1}), "a BIGINT, b BIGINT, c BIGINT"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestTableAndParquetSchemas: a Delta table folder gives its snapshot's
// schema (dat's basic_partitioned, written by Spark: letter, number,
// a_float), a Parquet file its footer's (flight_summary's Spark part
// file: two optional strings and an optional INT64).
func TestTableAndParquetSchemas(t *testing.T) {
	for _, tc := range []struct{ path, format, want string }{
		{"../../runtime/delta/testdata/delta_tables/dat/basic_partitioned/delta", "delta", "letter STRING, number BIGINT, a_float DOUBLE"},
		{"../../cmd/pipegen/testdata/infer/flight_summary_parquet", "parquet", "DEST_COUNTRY_NAME STRING, ORIGIN_COUNTRY_NAME STRING, count BIGINT"},
	} {
		res, err := Infer([]string{tc.path}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Format != tc.format || res.Schema.String() != tc.want {
			t.Errorf("%s: got %s %s, want %s %s", tc.path, res.Format, res.Schema, tc.format, tc.want)
		}
	}
}

// TestMalformedRecordsLeftOut: records the readers find malformed (a JSON
// number with a leading zero, a CSV quote left open) are left out of the
// inference, counted, and the first is located by file and line.
func TestMalformedRecordsLeftOut(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		n             int
		want          string
	}{
		{"a.json", "{\"v\": 1}\n{\"v\": 01220}\n{\"v\": 2}\n{\"v\": [}\n", 2, "a.json:2"},
		{"a.csv", "v,w\n1,2\n\"x,3\n", 1, "a.csv:3"},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Infer([]string{p}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Malformed != tc.n || res.FirstMalformed != filepath.Join(dir, tc.want) {
			t.Errorf("%s: %d malformed, first at %q; want %d, first at %s", tc.name, res.Malformed, res.FirstMalformed, tc.n, tc.want)
		}
	}
}

// TestTextFiles: text files (.txt, .log) have the text format's fixed
// columns, value STRING, without sampling; beside files of a format with
// columns to infer they are left out, as a README is.
func TestTextFiles(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"logs/app.log": "a\nb\n", "logs/b.txt": "c\n", "mixed/d.csv": "id,n\n1,2\n", "mixed/README.txt": "about\n"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Infer([]string{filepath.Join(dir, "logs")}, Options{})
	if err != nil || res.Format != "text" || res.Schema.String() != "value STRING" || res.Files != 2 {
		t.Errorf("text folder: %+v, %v", res, err)
	}
	res, err = Infer([]string{filepath.Join(dir, "mixed")}, Options{})
	if err != nil || res.Format != "csv" || res.Schema.String() != "id BIGINT, n BIGINT" || len(res.Skipped) != 1 || filepath.Base(res.Skipped[0]) != "README.txt" {
		t.Errorf("csv beside a README.txt: %+v, %v", res, err)
	}
	res, err = Infer([]string{filepath.Join(dir, "mixed", "README.txt")}, Options{Format: "text"})
	if err != nil || res.Schema.String() != "value STRING" {
		t.Errorf("--format text: %+v, %v", res, err)
	}
}
