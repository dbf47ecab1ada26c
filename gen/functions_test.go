package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/gen/gentest"
	"github.com/pipegen/pipegen/spec/sql"
)

// functionsSpec is a pipeline over one source holding a column of each
// common type; the test adds one materialized view per function call.
const functionsSpec = `pipeline: functions
catalog: main
schema: fns
sources:
  t:
    files: {path: data, format: json}
    schema: s STRING, i INT, l BIGINT, d DOUBLE, dec DECIMAL(10,2), dt DATE, ts TIMESTAMP, b BOOLEAN, arr ARRAY<INT>, bin BINARY
datasets:
`

// sampleArgs are arguments of the right types for calls of a rule.
var sampleArgs = map[sql.ArgRule]string{
	sql.ArgAny: "i", sql.ArgNumeric: "d", sql.ArgInt: "i", sql.ArgLong: "l", sql.ArgDouble: "d",
	sql.ArgString: "s", sql.ArgStringOrBinary: "s", sql.ArgBoolean: "b", sql.ArgDate: "dt",
	sql.ArgTimestamp: "ts", sql.ArgDatetime: "s", sql.ArgCommon: "i", sql.ArgCommonValue: "i",
	sql.ArgOrderable: "i", sql.ArgArray: "arr", sql.ArgArrayOrMap: "arr", sql.ArgElement: "1",
	sql.ArgIndexOrKey: "1", sql.ArgStringOrStringArray: "s", sql.ArgIntConst: "1",
	sql.ArgStringConst: "'a'", sql.ArgBooleanConst: "true", sql.ArgNumericCommon: "i",
	sql.ArgDoubleConst: "0.5", sql.ArgLongStringOrBinary: "l", sql.ArgPercentages: "0.5", sql.ArgTimestampNTZ: "ts",
}

// specialCalls are calls whose constant arguments must be meaningful, and
// calls of further argument types (DECIMAL and BINARY variants).
var specialCalls = map[string][]string{
	"date_trunc":            {"date_trunc('month', ts)"},
	"trunc":                 {"trunc(dt, 'month')"},
	"window":                {"window(ts, '10 minutes')", "window(ts, '1 hour', '1 hour', '15 minutes')"},
	"date_format":           {"date_format(ts, 'yyyy-MM-dd')", "date_format(CAST(ts AS TIMESTAMP_NTZ), 'HH:mm z')"},
	"to_char":               {"to_char(dt, 'yyyy-MM-dd F')"},
	"to_date":               {"to_date(s, 'yyyy-MM-dd')", "to_date(ts)"},
	"to_timestamp":          {"to_timestamp(s, 'yyyy-MM-dd')", "to_timestamp(dt)"},
	"named_struct":          {"named_struct('a', i)"},
	"map":                   {"map(s, i)"},
	"next_day":              {"next_day(dt, 'MON')"},
	"concat_ws":             {"concat_ws('-', s, s)"},
	"split_part":            {"split_part(s, ',', 1)"},
	"sha2":                  {"sha2(s, 256)", "sha2(bin, 512)"},
	"md5":                   {"md5(s)", "md5(bin)"},
	"length":                {"length(s)", "length(bin)"},
	"lpad":                  {"lpad(s, 5)", "lpad(s, 5, 'xy')", "lpad(bin, 5)", "lpad(bin, 5, bin)", "lpad(bin, 5, 'x')"},
	"rpad":                  {"rpad(s, 5)", "rpad(bin, 5)", "rpad(bin, 5, bin)", "rpad(s, 5, bin)"},
	"make_timestamp":        {"make_timestamp(2024, 1, 2, 3, 4, 5.5)", "make_timestamp(2024, 1, 2, 3, 4, d, 'UTC')"},
	"format_string":         {"format_string('%s %d %.2f %s', s, i, d, dec)"},
	"log":                   {"log(10, d)", "log(d)"},
	"abs":                   {"abs(i)", "abs(dec)"},
	"round":                 {"round(d)", "round(dec, 1)"},
	"bround":                {"bround(d, 1)", "bround(dec, 1)"},
	"floor":                 {"floor(d)", "floor(dec)"},
	"ceil":                  {"ceil(d)", "ceil(dec)"},
	"sign":                  {"sign(i)", "sign(dec)"},
	"hash":                  {"hash(s, i, dec, ts, arr)"},
	"xxhash64":              {"xxhash64(s, i, dec, ts, arr)"},
	"unix_timestamp":        {"unix_timestamp(s)", "unix_timestamp(ts)", "unix_timestamp(dt)", "unix_timestamp(s, 'yyyy-MM-dd')"},
	"timestamp_seconds":     {"timestamp_seconds(l)", "timestamp_seconds(d)", "timestamp_seconds(dec)"},
	"try_divide":            {"try_divide(i, i)", "try_divide(dec, dec)"},
	"try_add":               {"try_add(l, l)", "try_add(dec, dec)"},
	"pmod":                  {"pmod(i, i)", "pmod(d, 2)", "pmod(dec, dec)"},
	"sum":                   {"sum(i)", "sum(dec)", "sum(DISTINCT l)", "CAST(sum(ts - ts) AS STRING)", "CAST(sum(DISTINCT make_ym_interval(i)) AS STRING)", "CAST(sum(ts - ts) OVER (ORDER BY i) AS STRING)"},
	"avg":                   {"avg(i)", "avg(dec)", "CAST(avg(make_ym_interval(i)) AS STRING)", "CAST(avg(DISTINCT ts - ts) AS STRING)", "CAST(avg(make_ym_interval(i)) OVER (PARTITION BY s) AS STRING)"},
	"approx_count_distinct": {"approx_count_distinct(s)", "approx_count_distinct(dec)"},
	"min_by":                {"min_by(s, ts)"},
	"binary":                {"binary(s)"},
	"date":                  {"date(s)", "date(ts)"},
	"timestamp":             {"timestamp(s)", "timestamp(dt)"},
	"max_by":                {"max_by(s, dec)"},
	"map_keys":              {"map_keys(map(s, i))"},
	"map_values":            {"map_values(map(s, i))"},
	"map_from_arrays":       {"map_from_arrays(array(s), arr)"},
	"flatten":               {"flatten(array(arr, arr))"},
	"sequence":              {"sequence(i, i)", "sequence(l, l, 2)", "sequence(dt, dt)", "sequence(ts, ts, INTERVAL 1 HOUR)"},
	"arrays_zip":            {"arrays_zip(arr, array(s))"},
	"array_join":            {"array_join(arr, ',')", "array_join(array(s), ',', '-')"},
	"sort_array":            {"sort_array(arr, false)", "sort_array(array(1))"},
	"slice":                 {"slice(arr, 1, 2)"},
	"from_json":             {"from_json(s, 'a INT, b ARRAY<STRING>, c STRUCT<d TIMESTAMP>')", "from_json(s, 'MAP<STRING, DOUBLE>')"},
	"to_json":               {"to_json(named_struct('a', i, 'b', arr, 'c', dec, 'd', ts))", "to_json(arr)"},
	"transform":             {"transform(arr, x -> x + 1)", "transform(arr, (x, j) -> j)"},
	"filter":                {"filter(arr, x -> x > 1)"},
	"exists":                {"exists(arr, x -> x > 1)"},
	"forall":                {"forall(arr, x -> x > 1)"},
	"aggregate":             {"aggregate(arr, 0L, (a, x) -> a + x, a -> a * 2)"},
	"array_sort":            {"array_sort(arr)", "array_sort(arr, (l, r) -> coalesce(r - l, 0))"},
	"hex":                   {"hex(l)", "hex(s)", "hex(bin)"},
	"timestampdiff":         {"timestampdiff(HOUR, ts, ts)", "datediff(MONTH, dt, CAST(ts AS TIMESTAMP_NTZ))"},
	"timestampadd":          {"timestampadd(MONTH, i, ts)", "dateadd(WEEK, l, CAST(ts AS TIMESTAMP_NTZ))"},
	"convert_timezone":      {"convert_timezone('UTC', ts)", "convert_timezone('UTC', 'Asia/Tokyo', CAST(s AS TIMESTAMP_NTZ))"},
	"mode":                  {"mode(s)", "mode(d)", "mode(dt)", "mode(i, true)", "mode() WITHIN GROUP (ORDER BY l DESC)"},
	"try_sum":               {"try_sum(i)", "try_sum(dec)", "try_sum(d)"},
	"try_avg":               {"try_avg(l)", "try_avg(dec)"},
	"bit_xor":               {"bit_xor(i)", "bit_xor(DISTINCT l)"},
	"date_part": {"date_part('SECOND', ts)", "extract(SECOND FROM CAST(ts AS TIMESTAMP_NTZ))", "extract(YEAROFWEEK FROM dt)", "extract(DOW_ISO FROM ts)",
		"extract(YEAR FROM make_ym_interval(i, i))", "extract(MONTH FROM make_ym_interval(i))", "date_part('DAY', ts - ts)",
		"extract(HOUR FROM ts - ts)", "extract(MINUTE FROM ts - ts)", "extract(SECOND FROM ts - ts)"},
	"make_ym_interval":   {"CAST(make_ym_interval(i, i) AS STRING)", "CAST(dt + make_ym_interval(i) AS STRING)"},
	"make_dt_interval":   {"CAST(make_dt_interval(i, i, i, dec) AS STRING)", "CAST(make_dt_interval() AS STRING)"},
	"to_timestamp_ntz":   {"to_timestamp_ntz(s)", "to_timestamp_ntz(ts)"},
	"hour":               {"hour(ts)", "hour(CAST(ts AS TIMESTAMP_NTZ))"},
	"minute":             {"minute(ts)", "minute(CAST(ts AS TIMESTAMP_NTZ))"},
	"second":             {"second(ts)", "second(CAST(ts AS TIMESTAMP_NTZ))"},
	"percentile_approx":  {"percentile_approx(d, 0.5)", "percentile_approx(i, 0.25, 100)", "percentile_approx(l, array(0.25, 0.5, 1))"},
	"percentile_cont":    {"percentile_cont(0.25) WITHIN GROUP (ORDER BY d)"},
	"percentile_disc":    {"percentile_disc(0.25) WITHIN GROUP (ORDER BY i)"},
	"bit_count":          {"bit_count(i)", "bit_count(l)", "bit_count(b)"},
	"getbit":             {"getbit(l, i)", "getbit(i, 1)"},
	"shiftleft":          {"shiftleft(i, 2)", "shiftleft(l, i)"},
	"shiftright":         {"shiftright(i, 2)", "shiftright(l, i)"},
	"shiftrightunsigned": {"shiftrightunsigned(i, 2)", "shiftrightunsigned(l, i)"},
	"to_binary":          {"to_binary(s)", "to_binary(s, 'base64')"},
	"try_to_binary":      {"try_to_binary(s, 'utf-8')"},
	"encode":             {"encode(s, 'UTF-16')"},
	"decode":             {"decode(bin, 'utf-8')", "decode(i, 1, 'one', 2, 'two', 'other')"},
	"elt":                {"elt(i, s, 'b')"},
	"get":                {"get(arr, i)"},
	"array_append":       {"array_append(arr, i)", "array_append(array(s), NULL)"},
	"array_prepend":      {"array_prepend(arr, 1)"},
	"array_insert":       {"array_insert(arr, i, 5)"},
	"array_compact":      {"array_compact(arr)", "array_compact(array(1, NULL))"},
	"map_contains_key":   {"map_contains_key(map(s, i), 'a')"},
	"nanvl":              {"nanvl(d, 0)"},
	"zip_with":           {"zip_with(arr, array(s), (x, y) -> concat(x, y))", "zip_with(arr, arr, 1)", "zip_with(arr, array(d), (x, y) -> y)"},
	"transform_values":   {"transform_values(map(s, i), (k, v) -> v + 1)", "transform_values(map(s, i), 1)"},
	"transform_keys":     {"transform_keys(map(s, i), (k, v) -> concat(k, 'x'))", "transform_keys(map(s, i), (k, v) -> v)"},
	"map_filter":         {"map_filter(map(s, i), (k, v) -> v > 1)"},
	"map_zip_with":       {"map_zip_with(map(s, i), map(s, d), (k, a, b) -> a + b)", "map_zip_with(map(s, i), map(s, d), 1)", "map_zip_with(map(s, i), map(s, d), (k, a, b) -> k)"},
	"regexp_substr":      {"regexp_substr(s, 'a+')"},
	"regexp_instr":       {"regexp_instr(s, 'a+')", "regexp_instr(s, '(a)', 1)"},
	// Calls that need a GROUP BY: the rest of the query after the call.
	"grouping":    {"grouping(s) AS v, s FROM t GROUP BY ROLLUP (s, i) --"},
	"grouping_id": {"grouping_id() AS v, s, i FROM t GROUP BY CUBE (s, i) --", "grouping_id(s, i) AS v FROM t GROUP BY s, i WITH ROLLUP --"},
}

// callsOf returns calls of fn with sample arguments, or nil when fn takes
// arguments this test cannot make up (lambda functions).
func callsOf(fn *sql.Function) []string {
	if c, ok := specialCalls[fn.Name]; ok {
		return c
	}
	n := fn.MinArgs
	if n == 0 && len(fn.Args) > 0 && fn.Variadic {
		n = 1
	}
	args := make([]string, n)
	for i := range args {
		a, ok := sampleArgs[fn.ArgRuleAt(i)]
		if !ok {
			return nil
		}
		args[i] = a
	}
	return []string{fn.Name + "(" + strings.Join(args, ", ") + ")"}
}

// TestEveryFunctionCompiles generates and builds one program calling every
// scalar and aggregate function of the function table (sql.Functions) with
// arguments of each type its implementation distinguishes: the table is
// the single description of the catalog, so a function the checker
// accepts must compile unless the table marks it sql.ImplNone, in which
// case the generator must say it is unsupported.
func TestEveryFunctionCompiles(t *testing.T) {
	var src strings.Builder
	src.WriteString(functionsSpec)
	n := 0
	for _, fn := range sql.Functions() {
		if fn.Kind != sql.ScalarFunc && fn.Kind != sql.AggregateFunc {
			continue
		}
		for _, call := range callsOf(fn) {
			one := fmt.Sprintf("  f%d:\n    kind: materialized_view\n    query: SELECT %s AS v FROM t\n", n, call)
			n++
			p, diags := loadSpec(functionsSpec + one)
			if fn.Impl.Kind == sql.ImplNone {
				// spec rejects it (sql.Uncompilable): Generate never sees it.
				if !strings.Contains(diags, "function "+fn.Name+" is not supported yet") {
					t.Errorf("%s: the table marks %s not compiled, but spec says %q", call, fn.Name, diags)
				}
				continue
			}
			if diags != "" {
				t.Errorf("%s does not check: %s", call, diags)
				continue
			}
			_, err := Generate(p, Options{Version: "test"})
			switch {
			case err != nil:
				t.Errorf("%s: %v", call, err)
			default:
				src.WriteString(one)
			}
		}
	}
	if t.Failed() {
		return
	}
	_, files := generate(t, "functions.yaml", []byte(src.String()))
	if dir := os.Getenv("PIPEGEN_KEEP"); dir != "" {
		for name, data := range files {
			os.WriteFile(filepath.Join(dir, name), data, 0o644)
		}
	}
	gentest.Build(t, files)
}
