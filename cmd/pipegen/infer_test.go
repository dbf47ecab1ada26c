package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/spec"
)

// TestInferSharedData infers the schema of each shared data set (copies in
// testdata with their SOURCE.md), writes it into a spec with --write, and
// runs the pipeline built on it: every record is read (the row counts of
// the data sets' SOURCE.md) and none goes to the rescued-data column. The
// sample is bounded (10,000 records by default), so for online_retail's
// 14,022 lines the schema read from the sample also reads the rest.
func TestInferSharedData(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	src := filepath.Join("..", "..", "runtime", "source", "testdata")
	for _, tc := range []struct {
		name, format string
		files        []string // copied into the landing folder
		records      int      // from the data set's SOURCE.md
		columns      string   // the inferred schema, as the README of infer shows it
		decimals     bool     // infer --decimals --timestamp-ntz
	}{
		{"tricky_csv", "csv", []string{"testdata/infer/tricky_csv/values.csv"}, 4,
			"id BIGINT,\nzip STRING,\nmixed STRING,\nbig DECIMAL(38,0),\nhuge STRING,\nprice DOUBLE,\nlocal_ts TIMESTAMP,\nzoned_ts TIMESTAMP,\nday DATE,\nflag BOOLEAN,\nnote STRING,\nshort_ts TIMESTAMP", false},
		{"tricky_csv_decimals", "csv", []string{"testdata/infer/tricky_csv/values.csv"}, 4,
			"id BIGINT,\nzip STRING,\nmixed STRING,\nbig DECIMAL(38,0),\nhuge STRING,\nprice DECIMAL(5,2),\nlocal_ts TIMESTAMP_NTZ,\nzoned_ts TIMESTAMP,\nday DATE,\nflag BOOLEAN,\nnote STRING,\nshort_ts TIMESTAMP_NTZ", true},
		{"tricky_json", "json", []string{"testdata/infer/tricky_json/events.jsonl"}, 4, "", false},
		{"tricky_json_decimals", "json", []string{"testdata/infer/tricky_json/events.jsonl"}, 4, "", true},
		{"github_events", "json", []string{src + "/github_events/2021-07-21-few-hours.json"}, 800, "", false},
		{"flight_summary_csv", "csv", glob(t, src+"/flight_summary/csv/*.csv"), 255 + 255 + 245 + 250 + 241 + 256,
			"DEST_COUNTRY_NAME STRING,\nORIGIN_COUNTRY_NAME STRING,\ncount BIGINT", false},
		{"flight_summary_json", "json", glob(t, src+"/flight_summary/json/*.json"), 1502,
			"ORIGIN_COUNTRY_NAME STRING,\nDEST_COUNTRY_NAME STRING,\ncount BIGINT", false},
		{"flight_summary_parquet", "parquet", []string{"testdata/infer/flight_summary_parquet/2010-summary.gz.parquet"}, 255,
			"DEST_COUNTRY_NAME STRING,\nORIGIN_COUNTRY_NAME STRING,\ncount BIGINT", false},
		{"online_retail", "csv", glob(t, src+"/online_retail/*.csv"), 14022, "", false},
		{"jaffle_customers", "csv", []string{src + "/jaffle_shop/raw_customers.csv"}, 100, "id BIGINT,\nfirst_name STRING,\nlast_name STRING", false},
		{"jaffle_orders", "csv", []string{src + "/jaffle_shop/raw_orders.csv"}, 99, "id BIGINT,\nuser_id BIGINT,\norder_date DATE,\nstatus STRING", false},
		{"jaffle_payments", "csv", []string{src + "/jaffle_shop/raw_payments.csv"}, 113, "id BIGINT,\norder_id BIGINT,\npayment_method STRING,\namount BIGINT", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			landing := filepath.Join(dir, "landing")
			os.MkdirAll(landing, 0o755)
			for _, f := range tc.files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(landing, filepath.Base(f)), data, 0o644)
			}
			specPath := writeSpec(t, dir, "pipeline.yaml", fmt.Sprintf(`pipeline: infer_%s
catalog: main
schema: inferred
sources:
  raw:
    files:
      path: landing
      format: %s
datasets:
  bronze:
    kind: streaming_table
    query: SELECT *, _rescued_data AS rescued FROM STREAM(raw)
  stats:
    kind: materialized_view
    query: SELECT count(*) AS records, count(rescued) AS rescued FROM bronze
`, tc.name, tc.format))
			var stdout, stderr bytes.Buffer
			// validate suggests infer while the schema is missing
			if code := Validate(&stdout, &stderr, []string{specPath}, spec.TextOutput, locations{}); code != exitDiagnostics ||
				!strings.Contains(stderr.String(), "pipegen infer --write "+specPath+" --source raw "+filepath.Join(dir, "landing")) {
				t.Fatalf("validate without a schema: exit %d\n%s", code, stderr.String())
			}
			stderr.Reset()
			if code := Infer(&stdout, &stderr, InferRequest{Paths: []string{landing}, Spec: specPath, Source: "raw",
				MapThreshold: 100, Decimals: tc.decimals, TimestampNTZ: tc.decimals}); code != exitOK {
				t.Fatalf("infer: exit %d\n%s", code, stderr.String())
			}
			text, _ := os.ReadFile(specPath)
			t.Logf("%s", text)
			if tc.columns != "" && !strings.Contains(string(text), "    schema: >-\n      "+strings.ReplaceAll(tc.columns, "\n", "\n      ")+"\n") {
				t.Errorf("inferred schema: want\n%s\nin\n%s", tc.columns, text)
			}
			stderr.Reset()
			if code := Validate(&stdout, &stderr, []string{specPath}, spec.TextOutput, locations{}); code != exitOK {
				t.Fatalf("validate: exit %d\n%s", code, stderr.String())
			}
			bin := buildSpec(t, specPath)
			mustRunProgram(t, dir, bin, "run")
			rows := showRows(t, dir, bin, "stats")
			if want := []string{"records,rescued", fmt.Sprintf("%d,0", tc.records)}; strings.Join(rows, "\n") != strings.Join(want, "\n") {
				t.Errorf("stats: got %q, want %q", rows, want)
			}
		})
	}
}

func glob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("glob %s: %v (no files)", pattern, err)
	}
	return m
}
