package delta_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/parquetio"
)

// An engine table's outcome: read identically to the expected rows
// published with it, refused with an error naming the table and saying
// why, or checked by a dedicated test (log-only tables without data).
type outcome struct {
	refused string // the refusal's error contains this
	checked string // the test that checks the table
	// expectedWrong says why the published expected rows are not what the
	// protocol gives (the table still must read as the protocol says).
	expectedWrong string
}

// engineTableOutcomes lists every table of testdata/delta_tables that is
// not read identically to its expected rows. A table missing here must
// read identically; a table of the tree missing from both fails the test.
var engineTableOutcomes = map[string]outcome{
	// delta-io/delta golden tables (written by Spark), with the expected
	// rows delta-kernel-rs publishes beside them.
	"kernel-golden/canonicalized-paths-normal-a":                                   {checked: "TestCanonicalizedPaths"},
	"kernel-golden/canonicalized-paths-normal-b":                                   {checked: "TestCanonicalizedPaths"},
	"kernel-golden/canonicalized-paths-special-a":                                  {checked: "TestCanonicalizedPaths"},
	"kernel-golden/canonicalized-paths-special-b":                                  {checked: "TestCanonicalizedPaths"},
	"kernel-golden/checkpoint":                                                     {checked: "TestSparkCheckpoint (the same table as delta-golden/checkpoint)"},
	"kernel-golden/delete-re-add-same-file-different-transactions":                 {checked: "TestReAddSameFile"},
	"kernel-golden/log-replay-special-characters-b":                                {checked: "TestSpecialCharacterPath"},
	"kernel-golden/data-reader-absolute-paths-escaped-chars":                       {refused: "has no protocol or metaData action"},
	"kernel-golden/deltalog-commit-info":                                           {refused: "without schemaString"}, // its commitInfo: TestTolerantActions,
	"kernel-golden/update-deleted-directory":                                       {refused: "without schemaString"},
	"kernel-golden/deltalog-invalid-protocol-version":                              {refused: "reader version 99"},
	"kernel-golden/deltalog-state-reconstruction-from-checkpoint-missing-metadata": {refused: "has no protocol or metaData action"},
	"kernel-golden/deltalog-state-reconstruction-from-checkpoint-missing-protocol": {refused: "has no protocol or metaData action"},
	"kernel-golden/deltalog-state-reconstruction-without-metadata":                 {refused: "has no protocol or metaData action"},
	"kernel-golden/deltalog-state-reconstruction-without-protocol":                 {refused: "has no protocol or metaData action"},
	"kernel-golden/hive":                                                           {refused: "not a Delta table"},
	"kernel-golden/no-delta-log-folder":                                            {refused: "not a Delta table"},
	"kernel-golden/versions-not-contiguous":                                        {refused: "log is missing commit 1"},
	"kernel-golden/data-reader-partition-values": {expectedWrong: "the expected rows hold the TIMESTAMP partition value " +
		"2021-09-08 11:11:11 read in a session time zone of UTC-7 (18:11:11 UTC); the protocol reads a partition timestamp " +
		"without zone as UTC (delta-kernel-rs skips this table for the same reason); TestPartitionValues checks the rows"},
	// The tables copied from shared/data/delta_tables, checked by their
	// own tests (the dat ones against expected rows below).
	"delta-golden/basic-with-inserts-merge":                       {checked: "TestGoldenTables"},
	"delta-golden/checkpoint":                                     {checked: "TestSparkCheckpoint"},
	"delta-golden/data-reader-partition-values":                   {checked: "TestPartitionValues"},
	"delta-golden/snapshot-data2-deleted":                         {checked: "TestGoldenTables"},
	"delta-golden/time-travel-schema-changes-b":                   {checked: "TestTimeTravelSchemaChange"},
	"delta-golden/type-widening-nested":                           {checked: "TestTypeWideningNested"},
	"delta-kernel-rs/app-txn-checkpoint":                          {checked: "TestAppTxnCheckpoint"},
	"delta-kernel-rs/type-widening":                               {checked: "TestKernelRsTables"},
	"delta-kernel-rs/table-with-dv-small":                         {checked: "TestKernelRsTables"},
	"delta-kernel-rs/with-short-dv":                               {checked: "TestKernelRsTables"},
	"delta-kernel-rs/v2-checkpoints-json-with-last-checkpoint":    {checked: "TestKernelRsV2Checkpoints"},
	"delta-kernel-rs/v2-checkpoints-json-with-sidecars":           {checked: "TestKernelRsV2Checkpoints"},
	"delta-kernel-rs/v2-checkpoints-json-without-sidecars":        {checked: "TestKernelRsV2Checkpoints"},
	"delta-kernel-rs/v2-checkpoints-parquet-with-last-checkpoint": {checked: "TestKernelRsV2Checkpoints"},
	"delta-kernel-rs/v2-checkpoints-parquet-with-sidecars":        {checked: "TestKernelRsV2Checkpoints"},
	"delta-kernel-rs/v2-checkpoints-parquet-without-sidecars":     {checked: "TestKernelRsV2Checkpoints"},
	"delta-kernel-rs/v2-classic-checkpoint-json":                  {checked: "TestKernelRsV2Checkpoints"},
	"delta-kernel-rs/v2-classic-checkpoint-parquet":               {checked: "TestKernelRsV2Checkpoints"},
	"delta-rs/simple_table_with_cdc":                              {checked: "TestChangeDataFeedTablesOpen"},
	"delta-rs/cdf-table-non-partitioned":                          {checked: "TestGoldenTables"},
	"delta-rs/table_with_deletion_logs":                           {checked: "TestDeltaRsTables"},
	"delta-rs/table_with_column_mapping":                          {checked: "TestDeltaRsTables"},
	"delta-rs/checkpoint-v2-table":                                {checked: "TestDeltaRsTables"},
	"delta-rs/cdf-table-with-cdc-and-dvs":                         {checked: "TestDeltaRsTables"},
	"delta-rs/table_with_liquid_clustering":                       {checked: "TestDeltaRsTables"},
	"delta-rs/delta-2.2.0-partitioned-types":                      {checked: "TestDeltaRsTables"},
	"delta-rs/table_with_edge_timestamps":                         {checked: "TestDeltaRsTables"},
	"delta-rs/simple_table_features":                              {refused: "reader version 5"},
	"delta-rs/table-with-domain-metadata":                         {refused: "no such file or directory"}, // a log without its data files
}

// engineTable is a table of testdata/delta_tables with the folder of its
// expected rows ("" when none is published).
type engineTable struct {
	name, table, expected string
}

// findEngineTables lists the tables of testdata/delta_tables: folders
// with a `delta/` table (DAT and golden layout) or a `_delta_log`.
func findEngineTables(t *testing.T) []engineTable {
	var out []engineTable
	groups, _ := os.ReadDir(tables)
	for _, g := range groups {
		if !g.IsDir() {
			continue
		}
		entries, _ := os.ReadDir(filepath.Join(tables, g.Name()))
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			dir := filepath.Join(tables, g.Name(), e.Name())
			et := engineTable{name: g.Name() + "/" + e.Name(), table: dir}
			if _, err := os.Stat(filepath.Join(dir, "delta")); err == nil {
				et.table = filepath.Join(dir, "delta")
			}
			// DAT: expected/latest/table_content.parquet; golden tables
			// of delta-kernel-rs: expected/*.parquet.
			for _, exp := range []string{filepath.Join(dir, "expected", "latest", "table_content.parquet"), filepath.Join(dir, "expected", "*.parquet")} {
				if m, _ := filepath.Glob(exp); len(m) > 0 {
					et.expected = exp
					break
				}
			}
			out = append(out, et)
		}
	}
	if len(out) < 90 {
		t.Fatalf("found %d engine tables under %s, want at least 90", len(out), tables)
	}
	return out
}

// readEngineTable reads the latest snapshot of table and the expected
// rows in the Parquet files matching the pattern expected (written by the
// engine with the table's logical column names), both rendered by parquetio.FormatRow for
// the table's schema and sorted.
func readEngineTable(t *testing.T, table, expected string) (got, want []string, err error) {
	t.Helper()
	snap, err := delta.Load(table)
	if err != nil {
		return nil, nil, err
	}
	rows, err := snap.ReadAll(nil)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range rows {
		got = append(got, parquetio.FormatRow(r, snap.Schema))
	}
	slices.Sort(got)
	files, _ := filepath.Glob(expected)
	for _, f := range files {
		want = append(want, readParquetFile(t, f, snap.Schema)...)
	}
	slices.Sort(want)
	return got, want, nil
}

// TestEngineTables reads every table of testdata/delta_tables (tables
// written by Spark, Databricks, delta-rs and delta-kernel-rs) and asserts
// its outcome: identical to the published expected rows, refused with a
// clear error, or checked by a dedicated test. It logs the tally per
// origin.
func TestEngineTables(t *testing.T) {
	type tally struct{ identical, refused, checked int }
	tallies := map[string]*tally{}
	reasons := map[string]int{} // "origin: refusal" -> tables
	for _, et := range findEngineTables(t) {
		origin, _, _ := strings.Cut(et.name, "/")
		if tallies[origin] == nil {
			tallies[origin] = &tally{}
		}
		o, listed := engineTableOutcomes[et.name]
		t.Run(et.name, func(t *testing.T) {
			switch {
			case o.checked != "":
				tallies[origin].checked++
			case o.refused != "":
				_, err := delta.Load(et.table)
				if err == nil {
					if snap, _ := delta.Load(et.table); snap != nil {
						_, err = snap.ReadAll(nil)
					}
				}
				if err == nil || !strings.Contains(err.Error(), o.refused) || !strings.Contains(err.Error(), et.table) {
					t.Fatalf("err = %v, want a refusal naming the table and saying %q", err, o.refused)
				}
				tallies[origin].refused++
				reasons[origin+": "+o.refused]++
			case et.expected == "":
				t.Fatalf("no expected rows and no outcome listed in engineTableOutcomes (listed: %v)", listed)
			default:
				got, want, err := readEngineTable(t, et.table, et.expected)
				if err != nil {
					t.Fatal(err)
				}
				if o.expectedWrong != "" {
					if slices.Equal(got, want) {
						t.Fatalf("reads as the expected rows, which were listed as wrong: %s", o.expectedWrong)
					}
					tallies[origin].checked++
					return
				}
				if !slices.Equal(got, want) {
					t.Fatalf("rows differ from %s\n got (%d):\n  %s\nwant (%d):\n  %s", et.expected,
						len(got), strings.Join(got, "\n  "), len(want), strings.Join(want, "\n  "))
				}
				tallies[origin].identical++
			}
		})
	}
	var origins []string
	for o := range tallies {
		origins = append(origins, o)
	}
	sort.Strings(origins)
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s %9s %7s %7s\n", "origin", "identical", "refused", "checked")
	for _, o := range origins {
		x := tallies[o]
		fmt.Fprintf(&b, "%-16s %9d %7d %7d\n", o, x.identical, x.refused, x.checked)
	}
	fmt.Fprintf(&b, "refusals (origin: what the error says, tables):\n")
	for _, r := range slices.Sorted(maps.Keys(reasons)) {
		fmt.Fprintf(&b, "  %s: %d\n", r, reasons[r])
	}
	t.Logf("engine tables read (checked: by the dedicated test named in engineTableOutcomes, or against rows the protocol gives where the published ones are wrong):\n%s", b.String())
}

// TestCanonicalizedPaths: a remove naming a file by its `file:` URI
// removes the add that named it by its absolute path (the four
// canonicalized-paths golden tables leave no live file).
func TestCanonicalizedPaths(t *testing.T) {
	for _, name := range []string{"normal-a", "normal-b", "special-a", "special-b"} {
		snap, err := delta.Load(filepath.Join(tables, "kernel-golden", "canonicalized-paths-"+name, "delta"))
		if err != nil {
			t.Fatal(err)
		}
		if len(snap.Files) != 0 {
			t.Errorf("%s: live files %v, want none", name, snap.Files)
		}
	}
}

// TestReAddSameFile: a file removed and added again is live once, with the
// later add's modification time.
func TestReAddSameFile(t *testing.T) {
	snap, err := delta.Load(filepath.Join(tables, "kernel-golden", "delete-re-add-same-file-different-transactions", "delta"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range snap.Files {
		got = append(got, fmt.Sprintf("%s@%d", f.Path, f.ModificationTime))
	}
	if want := []string{"bar@1697064972263", "foo@1700000000000"}; !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
}

// TestSpecialCharacterPath: an add's path is URI-decoded to the file name.
func TestSpecialCharacterPath(t *testing.T) {
	table := filepath.Join(tables, "kernel-golden", "log-replay-special-characters-b", "delta")
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Files) != 1 || filepath.Base(delta.FilePath(table, snap.Files[0].Path)) != "special p@#h" {
		t.Errorf("files %v, want one named %q", snap.Files, "special p@#h")
	}
}

// TestKernelRsTables reads tables of delta-kernel-rs' kernel/tests/data and
// compares them with the expected rows of its read tests
// (kernel/tests/integration/read/mod.rs: type_widening_basic,
// type_widening_decimal, short_dv, and the table-with-dv-small test, whose
// expected rows are the whole table since its predicate only skips files).
func TestKernelRsTables(t *testing.T) {
	for name, want := range map[string][]string{
		// Type widening: commit 0 wrote the narrow types (byte, int, float,
		// short, decimal(10,2), decimal(5,2), date ...), commit 1 widened
		// them and wrote the second row.
		"type-widening": {
			"1 | 2 | 3.4000000953674316 | 5.0 | 6.0 | 7.0 | 123.45 | 67.89000 | 1.0 | 2.0 | 3.0 | 4.0 | 2024-09-09 00:00:00",
			"9223372036854775807 | 9223372036854775807 | 1.234567890123 | 1.234567890123 | 1.234567890123 | 1.234567890123 | 12345678901234.56 | 12345678901.23456 | 123.4 | 12345.6 | 1234567890.1 | 123456789012345678.9 | 2024-09-09 12:34:56.123456",
		},
		"table-with-dv-small": {"1", "2", "3", "4", "5", "6", "7", "8"},
		"with-short-dv": {
			"3 | 3 | 2023-05-31 18:58:33.633 | 0.7918174793484931",
			"4 | 4 | 2023-05-31 18:58:33.633 | 0.9281049271981882",
			"5 | 5 | 2023-05-31 18:58:33.633 | 0.27796520310701633",
			"6 | 6 | 2023-05-31 18:58:33.633 | 0.15263801464228832",
			"7 | 7 | 2023-05-31 18:58:33.633 | 0.1981143710215575",
			"8 | 8 | 2023-05-31 18:58:33.633 | 0.3069439236599195",
			"9 | 9 | 2023-05-31 18:58:33.633 | 0.5175919190815845",
		},
	} {
		if got := formatted(t, filepath.Join(tables, "delta-kernel-rs", name)); !slices.Equal(got, want) {
			t.Errorf("%s rows:\n  %s\nwant:\n  %s", name, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	}
	// The widened table's older file holds the narrow physical types.
	snap, err := delta.LoadVersion(filepath.Join(tables, "delta-kernel-rs", "type-widening"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := snap.Schema.String(); !strings.HasPrefix(got, "byte_long TINYINT, int_long INT, float_double FLOAT") {
		t.Errorf("version 0 schema %s, want the narrow types", got)
	}
}

// TestV2CheckpointSidecars reads the V2 checkpoint golden tables (a
// UUID-named checkpoint in JSON or Parquet whose file actions are in a
// sidecar of `_delta_log/_sidecars/`) from the checkpoint alone: the
// commits before it removed, the rows are still the expected ones.
func TestV2CheckpointSidecars(t *testing.T) {
	for _, name := range []string{"v2-checkpoint-json", "v2-checkpoint-parquet"} {
		src := filepath.Join(tables, "kernel-golden", name)
		table := copyTable(t, filepath.Join(src, "delta"))
		os.Remove(delta.CommitPath(table, 0))
		os.Remove(delta.CommitPath(table, 1))
		got, want, err := readEngineTable(t, table, filepath.Join(src, "expected", "*.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%s from its checkpoint: %d rows, want the %d expected", name, len(got), len(want))
		}
		// Without its sidecar the checkpoint cannot be read: an error, not
		// a table with fewer rows.
		table = copyTable(t, table)
		sidecars, _ := filepath.Glob(filepath.Join(delta.LogDir(table), "_sidecars", "*.parquet"))
		for _, s := range sidecars {
			os.Remove(s)
		}
		if _, _, err := readEngineTable(t, table, filepath.Join(src, "expected", "*.parquet")); err == nil || !strings.Contains(err.Error(), "sidecar") {
			t.Errorf("%s without its sidecars: err = %v", name, err)
		}
	}
}

// TestDeltaRsTables reads tables of delta-rs' crates/test/tests/data
// (written by delta-rs, Spark and Databricks) that publish no expected rows:
// the rows read must number what the log says the live files hold, the
// numRecords of their statistics less the cardinality of their deletion
// vectors (the protocol requires numRecords on files with a vector).
func TestDeltaRsTables(t *testing.T) {
	for name, wantRows := range map[string]int64{
		"table_with_deletion_logs":      98, // deletion vectors
		"table_with_column_mapping":     5,  // column mapping, protocol (2,5)
		"checkpoint-v2-table":           44, // V2 checkpoint
		"cdf-table-with-cdc-and-dvs":    5,  // change data feed and deletion vectors
		"table_with_liquid_clustering":  10, // domain metadata, row tracking
		"delta-2.2.0-partitioned-types": 3,
		"table_with_edge_timestamps":    2,
	} {
		snap, err := delta.Load(filepath.Join(tables, "delta-rs", name))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := snap.ReadAll(nil)
		if err != nil {
			t.Fatal(err)
		}
		var live int64
		for _, f := range snap.Files {
			var st struct {
				NumRecords *int64 `json:"numRecords"`
			}
			if err := json.Unmarshal([]byte(f.Stats), &st); err != nil || st.NumRecords == nil {
				t.Fatalf("%s: file %s has no numRecords", name, f.Path)
			}
			live += *st.NumRecords
			if f.DeletionVector != nil {
				live -= f.DeletionVector.Cardinality
			}
		}
		if int64(len(rows)) != live || live != wantRows {
			t.Errorf("%s: %d rows read, the log's statistics say %d (want %d)", name, len(rows), live, wantRows)
		}
	}
}

// TestTypeWideningNested reads delta-io/delta's type-widening-nested golden
// table (INT widened to BIGINT in a struct field, map key and value, and
// array element) as Delta Kernel's DeltaTableReadsSuite expects it.
func TestTypeWideningNested(t *testing.T) {
	table := filepath.Join(tables, "delta-golden", "type-widening-nested")
	want := []string{
		"{1} | {2 -> 3} | [4, 5]",
		"{9223372036854775807} | {9223372036854775807 -> 9223372036854775807} | [9223372036854775807, -9223372036854775808]",
	}
	if got := formatted(t, table); !slices.Equal(got, want) {
		t.Errorf("rows:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	v0, err := delta.LoadVersion(table, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := v0.Schema.String(); got != "struct STRUCT<a: INT>, map MAP<INT, INT>, array ARRAY<INT>" {
		t.Errorf("version 0 schema %s, want the INT types before widening", got)
	}
}

// TestKernelRsV2Checkpoints reads delta-kernel-rs' V2 checkpoint tables
// (UUID-named checkpoints in JSON and Parquet, with and without sidecars,
// classic-named V2 checkpoints, `_last_checkpoint` naming a V2 one) and
// compares them with the rows of its tests
// (kernel/tests/integration/log/v2_checkpoints.rs), all one column id.
func TestKernelRsV2Checkpoints(t *testing.T) {
	ids := func(n int) []string {
		var out []string
		for i := 0; i < n; i++ {
			out = append(out, fmt.Sprint(i))
		}
		return out
	}
	concat := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		slices.Sort(out)
		return out
	}
	var fromCheckpoint []string
	sidecars := concat([]string{"0", "0", "0"}, ids(30), ids(100), ids(100), ids(1000))
	without := concat(ids(10), []string{"2718"})
	for name, want := range map[string][]string{
		"v2-checkpoints-json-with-sidecars":           sidecars,
		"v2-checkpoints-parquet-with-sidecars":        sidecars,
		"v2-checkpoints-json-without-sidecars":        without,
		"v2-checkpoints-parquet-without-sidecars":     without,
		"v2-classic-checkpoint-json":                  concat(ids(20)),
		"v2-classic-checkpoint-parquet":               concat(ids(20)),
		"v2-checkpoints-json-with-last-checkpoint":    concat(ids(10)),
		"v2-checkpoints-parquet-with-last-checkpoint": concat(ids(10)),
	} {
		table := filepath.Join(tables, "delta-kernel-rs", name)
		if got := formatted(t, table); !slices.Equal(got, want) {
			t.Errorf("%s: %d rows, want %d", name, len(got), len(want))
		}
		// From the newest checkpoint alone (the commits before it gone).
		cp := copyTable(t, table)
		snap, err := delta.Load(cp)
		if err != nil {
			t.Fatal(err)
		}
		for v := int64(0); v < snap.Version; v++ {
			os.Remove(delta.CommitPath(cp, v))
		}
		fresh := copyTable(t, cp)
		if got := formatted(t, fresh); !slices.Equal(got, want) {
			t.Errorf("%s from its checkpoint: %d rows, want %d", name, len(got), len(want))
		}
		fromCheckpoint = append(fromCheckpoint, fresh)
	}
	// DuckDB's replay of the checkpoints alone reads the same rows.
	deltatest.CheckAll(t, fromCheckpoint)
}
