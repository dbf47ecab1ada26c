package sql

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// TestParseExprShape checks precedence and desugaring through the
// fully parenthesised SQL the parser's tree prints as.
func TestParseExprShape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a + b * c - d", "((a + (b * c)) - d)"},
		{"a - b - c", "((a - b) - c)"},
		{"a / b % c DIV d", "(((a / b) % c) DIV d)"},
		{"a || b + c", "((a || b) + c)"},
		{"a + b = c * d", "((a + b) = (c * d))"},
		{"a & b | c ^ d", "((a & b) | (c ^ d))"},
		{"a = b == c", "((a = b) == c)"},
		{"a <=> b AND c <> d AND e != f", "(((a <=> b) AND (c <> d)) AND (e != f))"},
		{"NOT a = 1 AND b OR c", "(((NOT (a = 1)) AND b) OR c)"},
		{"NOT NOT a", "(NOT (NOT a))"},
		{"!a", "(NOT a)"},
		{"a OR b AND c", "(a OR (b AND c))"},
		{"a = b IS NULL", "((a = b) IS NULL)"},
		{"a IS NOT NULL", "(a IS NOT NULL)"},
		{"a IS TRUE OR b IS NOT FALSE OR c IS UNKNOWN", "(((a IS TRUE) OR (b IS NOT FALSE)) OR (c IS UNKNOWN))"},
		{"a IS DISTINCT FROM b", "(a IS DISTINCT FROM b)"},
		{"a IS NOT DISTINCT FROM b + 1", "(a IS NOT DISTINCT FROM (b + 1))"},
		{"x BETWEEN 1 AND 2 AND y", "((x BETWEEN 1 AND 2) AND y)"},
		{"x NOT BETWEEN a + 1 AND b", "(x NOT BETWEEN (a + 1) AND b)"},
		{"x IN (1, 2, 3)", "(x IN (1, 2, 3))"},
		{"x NOT IN ('a')", "(x NOT IN (a))"},
		{"x IN (SELECT a FROM t)", "(x IN (subquery))"},
		{"s LIKE 'a%'", "s LIKE a%"},
		{"s NOT ILIKE 'a%'", "s NOT ILIKE a%"},
		{"s RLIKE '^a' OR s REGEXP 'b'", "(s RLIKE ^a OR s RLIKE b)"},
		{"-a * b", "((- a) * b)"},
		{"- -a", "(- (- a))"},
		{"~a & b", "((~ a) & b)"},
		{"-2147483648", "-2147483648"},
		{"-(1)", "(- 1)"},
		{"CASE WHEN a > 1 THEN 'x' WHEN a > 0 THEN 'y' ELSE 'z' END", "CASE WHEN (a > 1) THEN x WHEN (a > 0) THEN y ELSE z END"},
		{"CASE a WHEN 1 THEN 'x' END", "CASE a WHEN 1 THEN x END"},
		{"CAST(a AS DECIMAL(10,2))", "CAST(a AS DECIMAL(10,2))"},
		{"TRY_CAST(a AS INT)", "TRY_CAST(a AS INT)"},
		{"a::bigint + 1", "(CAST(a AS BIGINT) + 1)"},
		{"a.b::string", "CAST(a.b AS STRING)"},
		{"CAST(x AS ARRAY<STRUCT<a: INT, b VARCHAR(3)>>)", "CAST(x AS ARRAY<STRUCT<a: INT, b: STRING>>)"},
		{"count(*)", "count(1)"},
		{"count(DISTINCT a, b)", "count(DISTINCT a, b)"},
		{"sum(a) FILTER (WHERE b > 1)", "sum(a) FILTER (WHERE (b > 1))"},
		{"first(a IGNORE NULLS)", "first(a, true)"},
		{"last_value(a) respect nulls OVER w", "last_value(a, false) OVER (...)"},
		{"nth_value(a, 2) IGNORE NULLS OVER w", "nth_value(a, 2, true) OVER (...)"},
		{"COUNT(ALL a)", "count(a)"},
		{"now()", "now()"},
		{"current_date", "current_date()"},
		{"current_timestamp + INTERVAL 1 HOUR", "(current_timestamp() + INTERVAL '0 01:00:00' DAY TO SECOND)"},
		{"s.a.b[0]['k'].c", "s.a.b[0][k].c"},
		{"f(x).y", "f(x).y"},
		{"`weird name`.`a``b`", "weird name.a`b"},
		{"transform(arr, x -> x + 1)", "transform(arr, x -> (x + 1))"},
		{"zip_with(a, b, (x, y) -> x * y)", "zip_with(a, b, (x, y) -> (x * y))"},
		{"row_number() OVER (PARTITION BY a ORDER BY b DESC NULLS LAST ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)", "row_number() OVER (...)"},
		{"sum(x) OVER w", "sum(x) OVER (...)"},
		{"(a, b)", "struct(a, b)"},
		{"((a + b))", "(a + b)"},
		{"EXISTS (SELECT 1)", "exists(subquery)"},
		{"(SELECT max(a) FROM t) + 1", "(scalarsubquery() + 1)"},
		{"trim(s)", "trim(s)"},
		{"trim(BOTH 'x' FROM s)", "trim(x, s)"},
		{"trim(LEADING FROM s)", "ltrim(s)"},
		{"trim(TRAILING 'y' FROM s)", "rtrim(y, s)"},
		{"substring(s FROM 2 FOR 3)", "substring(s, 2, 3)"},
		{"substr(s, 2)", "substr(s, 2)"},
		{"extract(YEAR FROM ts) + EXTRACT(hour FROM ts)", "(date_part(YEAR, ts) + date_part(hour, ts))"},
		{"${p} + 1", "(${p} + 1)"},
		{"'a' 'b' \"c\"", "abc"},
		{"'x-${env}-' 'y'", "x-${env}-y"},
		{"left(s, 2) || right(s, 1)", "(left(s, 2) || right(s, 1))"},
		{"date = DATE '2024-02-29'", "(date = DATE '2024-02-29')"},
		{"a -- comment\n + /* block /* nested */ */ b", "(a + b)"},
	}
	for _, tt := range tests {
		e, errs := ParseExpr(tt.in)
		if len(errs) > 0 {
			t.Errorf("ParseExpr(%q): %v", tt.in, errs[0])
			continue
		}
		if got := exprSQL(e.ast.(astExpr)); got != tt.want {
			t.Errorf("ParseExpr(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestParseLiterals checks literal types and values.
func TestParseLiterals(t *testing.T) {
	dec := func(p, s int) types.Type { return types.DecimalOf(p, s) }
	tests := []struct {
		in   string
		typ  types.Type
		want any
	}{
		{"1", types.IntType, int32(1)},
		{"2147483647", types.IntType, int32(2147483647)},
		{"2147483648", types.LongType, int64(2147483648)},
		{"-2147483648", types.IntType, int32(-2147483648)},
		{"-2147483649", types.LongType, int64(-2147483649)},
		{"9223372036854775808", dec(19, 0), types.Decimal{Lo: 1 << 63}},
		{"12L", types.LongType, int64(12)},
		{"12S", types.ShortType, int16(12)},
		{"-128Y", types.ByteType, int8(-128)},
		{"1.5", dec(2, 1), types.DecimalFromInt64(15)},
		{"-1.5", dec(2, 1), types.DecimalFromInt64(-15)},
		{".5", dec(1, 1), types.DecimalFromInt64(5)},
		{"5.", dec(1, 0), types.DecimalFromInt64(5)},
		{"0.001", dec(3, 3), types.DecimalFromInt64(1)},
		{"123.4500", dec(7, 4), types.DecimalFromInt64(1234500)},
		{"1.5BD", dec(2, 1), types.DecimalFromInt64(15)},
		{"1e3BD", dec(4, 0), types.DecimalFromInt64(1000)},
		{"1e3", types.DoubleType, 1000.0},
		{"1.5E-2", types.DoubleType, 0.015},
		{"2D", types.DoubleType, 2.0},
		{"2.5F", types.FloatType, float32(2.5)},
		// A doubled quote is one quote (Spark 4: literals.sql.out,
		// SELECT "S""par""k" AS c1, ... gives S"par"k, S"par"k, S""par""k).
		{"'it''s'", types.StringType, "it's"},
		{`"S""par""k"`, types.StringType, `S"par"k`},
		{`'S""par""k'`, types.StringType, `S""par""k`},
		{`"S''par''k"`, types.StringType, `S''par''k`},
		{"''", types.StringType, ""},
		{"''''", types.StringType, "'"},
		{"'S' 'par' 'k'", types.StringType, "Spark"},
		{`'a\tb\n\u0041\101\%'`, types.StringType, "a\tb\nAA\\%"},
		{`"double"`, types.StringType, "double"},
		{`r'\d+'`, types.StringType, `\d+`},
		{`'\${x}'`, types.StringType, "${x}"},
		{"TRUE", types.BooleanType, true},
		{"NULL", types.VoidType, nil},
		{"DATE '1970-01-02'", types.DateType, types.Date(1)},
		{"DATE '2024-3-1'", types.DateType, types.Date(19783)},
		{"TIMESTAMP '1970-01-01 00:00:01.5'", types.TimestampType, types.Timestamp(1_500_000)},
		{"TIMESTAMP '1970-01-01T01:00:00+01:00'", types.TimestampType, types.Timestamp(0)},
		{"TIMESTAMP '1970-01-02'", types.TimestampType, types.Timestamp(86_400_000_000)},
		// Zone suffixes, as Spark's stringToTimestamp reads them
		// (datetime-formatting.sql, timestamp.sql).
		{"TIMESTAMP '1970-01-01 00:00:00 UTC'", types.TimestampType, types.Timestamp(0)},
		{"TIMESTAMP '1970-01-01 08:00:00+08:00'", types.TimestampType, types.Timestamp(0)},
		{"TIMESTAMP '1970-01-01 08:00:00.000UTC+080000'", types.TimestampType, types.Timestamp(0)},
		{"TIMESTAMP '1970-01-01 01:00:00.000Europe/Paris'", types.TimestampType, types.Timestamp(0)},
		{"TIMESTAMP '2018-11-17 13:33:33.5Z'", types.TimestampType, types.Timestamp(1542461613_500_000)},
		{"TIMESTAMP_NTZ '1970-01-01 00:00:02'", types.TimestampNTZType, types.Timestamp(2_000_000)},
		{"X'0aFF'", types.BinaryType, []byte{0x0a, 0xff}},
		{"INTERVAL '15' MINUTE", types.IntervalType, types.Interval(15 * 60_000_000)},
		{"INTERVAL 15 MINUTES", types.IntervalType, types.Interval(15 * 60_000_000)},
		{"INTERVAL 1 DAY 2 HOURS", types.IntervalType, types.Interval(26 * 3_600_000_000)},
		{"INTERVAL '1 day 2 hours'", types.IntervalType, types.Interval(26 * 3_600_000_000)},
		{"INTERVAL -1.5 SECONDS", types.IntervalType, types.Interval(-1_500_000)},
		{"INTERVAL '1 02:03:04.5' DAY TO SECOND", types.IntervalType, types.Interval(((26*60+3)*60+4)*1_000_000 + 500_000)},
		{"INTERVAL '02:03' HOUR TO MINUTE", types.IntervalType, types.Interval((2*60 + 3) * 60_000_000)},
	}
	for _, tt := range tests {
		e, errs := ParseExpr(tt.in)
		if len(errs) > 0 {
			t.Errorf("ParseExpr(%q): %v", tt.in, errs[0])
			continue
		}
		lit, ok := e.ast.(*litExpr)
		if !ok {
			t.Errorf("ParseExpr(%q) = %T, want a literal", tt.in, e.ast)
			continue
		}
		if !lit.typ.Equal(tt.typ) || !reflect.DeepEqual(lit.val, tt.want) {
			t.Errorf("ParseExpr(%q) = %s %#v, want %s %#v", tt.in, lit.typ, lit.val, tt.typ, tt.want)
		}
	}
}

func TestParseStringInterpolation(t *testing.T) {
	e, errs := ParseExpr("'${env}/orders/' \"${day}\"")
	if errs != nil {
		t.Fatal(errs[0])
	}
	s, ok := e.ast.(*strExpr)
	if !ok {
		t.Fatalf("got %T, want *strExpr", e.ast)
	}
	want := []strPart{{param: "env", pos: 1}, {text: "/orders/"}, {param: "day", pos: 18}}
	if !reflect.DeepEqual(s.parts, want) {
		t.Errorf("parts = %+v, want %+v", s.parts, want)
	}
}

// errString prints errors as "offset-end CODE message (hint)".
func errString(errs []*Error) string {
	var b strings.Builder
	for i, e := range errs {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%d-%d %s %s", e.Offset, e.End, e.Code, e.Error())
	}
	return b.String()
}

func TestParseQueryErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "0-0 PARSE_SYNTAX_ERROR syntax error at end of input (expected SELECT, VALUES or WITH)"},
		{"SELECT", "6-6 PARSE_SYNTAX_ERROR syntax error at end of input (expected an expression)"},
		{"SELECT FROM t", "7-11 PARSE_SYNTAX_ERROR syntax error at or near 'FROM' (expected an expression)"},
		{"SELECT a +, b * FROM t WHERE = 1",
			"10-11 PARSE_SYNTAX_ERROR syntax error at or near ',' (expected an expression); " +
				"16-20 PARSE_SYNTAX_ERROR syntax error at or near 'FROM' (expected an expression); " +
				"29-30 PARSE_SYNTAX_ERROR syntax error at or near '=' (expected an expression)"},
		{"SELECT a FROM t WHERE", "21-21 PARSE_SYNTAX_ERROR syntax error at end of input (expected an expression)"},
		{"SELECT a FROM", "13-13 PARSE_SYNTAX_ERROR syntax error at end of input (expected a table name)"},
		{"SELECT a FROM t t2 t3", "19-21 PARSE_SYNTAX_ERROR syntax error at or near 't3' (expected end of input)"},
		{"SELECT 'abc", "7-11 PARSE_SYNTAX_ERROR string literal is not closed (close it with ')"},
		{"SELECT `abc", "7-11 PARSE_SYNTAX_ERROR quoted identifier is not closed (close it with `)"},
		{"SELECT a /* x", "9-11 UNCLOSED_BRACKETED_COMMENT comment is not closed (close it with */)"},
		{"SELECT a # b", "9-10 PARSE_SYNTAX_ERROR unexpected character '#'"},
		{"SELECT ${x", "7-10 PARSE_SYNTAX_ERROR parameter reference is not closed (close it with })"},
		{"SELECT ${a b}", "7-13 PARSE_SYNTAX_ERROR invalid parameter reference \"${a b}\" (a parameter name has letters, digits, '_', '-' and '.')"},
		{"SELECT (a + b FROM t", "14-18 PARSE_SYNTAX_ERROR syntax error at or near 'FROM' (expected ')')"},
		{"SELECT a FROM t GROUP a", "22-23 PARSE_SYNTAX_ERROR syntax error at or near 'a' (expected BY)"},
		{"SELECT a FROM t ORDER BY", "24-24 PARSE_SYNTAX_ERROR syntax error at end of input (expected an expression)"},
		{"SELECT CASE END", "12-15 PARSE_SYNTAX_ERROR syntax error at or near 'END' (expected an expression)"},
		{"SELECT CASE WHEN a THEN b", "25-25 PARSE_SYNTAX_ERROR syntax error at end of input (expected END)"},
		{"SELECT CAST(a INT)", "14-17 PARSE_SYNTAX_ERROR syntax error at or near 'INT' (expected AS)"},
		{"SELECT CAST(a AS STRNG)", "17-22 UNSUPPORTED_DATATYPE unknown data type \"STRNG\" (did you mean \"STRING\"?)"},
		{"SELECT 300Y", "7-11 INVALID_NUMERIC_LITERAL_RANGE numeric literal 300Y is outside the range of TINYINT [-128, 127]"},
		{"SELECT 1" + strings.Repeat("0", 40), "7-48 INVALID_NUMERIC_LITERAL_RANGE numeric literal 1" + strings.Repeat("0", 40) + " needs 41 digits, more than DECIMAL's 38"},
		{"SELECT DATE '2024-02-30'", "12-24 INVALID_TYPED_LITERAL the value of the typed literal DATE is invalid: \"2024-02-30\""},
		{"SELECT TIMESTAMP 'x'", "17-20 INVALID_TYPED_LITERAL the value of the typed literal TIMESTAMP is invalid: \"x\""},
		{"SELECT INTERVAL 1 YEAR 2 DAYS", "7-29 INVALID_INTERVAL_FORMAT cannot mix year-month and day-time fields: INTERVAL 1 YEAR 2 DAYS (write two literals, one of years and months and one of days and times, and add them to the date or timestamp one after the other)"},
		{"SELECT INTERVAL 1 FORTNIGHT", "18-27 INVALID_INTERVAL_FORMAT invalid interval unit \"FORTNIGHT\" (use YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND or MICROSECOND)"},
		{"SELECT INTERVAL 'x y'", "7-21 INVALID_INTERVAL_FORMAT cannot parse the INTERVAL value: x y"},
		{"SELECT a FROM t JOIN u ON", "25-25 PARSE_SYNTAX_ERROR syntax error at end of input (expected an expression)"},
		{"SELECT a FROM t NATURAL u", "24-25 PARSE_SYNTAX_ERROR syntax error at or near 'u' (expected JOIN)"},
		{"SELECT a FROM a.b.c.d", "14-21 REQUIRES_SINGLE_PART_NAMESPACE table name \"a.b.c.d\" has 4 parts (write catalog.schema.table at most)"},
		{"SELECT a FROM f(1)", "15-16 PARSE_SYNTAX_ERROR syntax error at or near '(' (table-valued functions other than range are not supported)"},
		{"WITH RECURSIVE t AS (SELECT 1) SELECT 1", "5-14 PARSE_SYNTAX_ERROR syntax error at or near 'RECURSIVE' (recursive WITH is not supported)"},
		{"SELECT a FROM t CLUSTER BY a", "16-23 PARSE_SYNTAX_ERROR syntax error at or near 'CLUSTER' (use ORDER BY)"},
		{"SELECT f(a => 1)", "9-10 PARSE_SYNTAX_ERROR syntax error at or near 'a' (named arguments are not supported)"},
		{"SELECT lag(x) IGNORE NULLS OVER (ORDER BY y) FROM t", "14-20 PARSE_SYNTAX_ERROR syntax error at or near 'IGNORE' (IGNORE NULLS applies to first, last, first_value, last_value, any_value and nth_value, not lag)"},
		{"SELECT first(x, true) IGNORE NULLS FROM t", "22-28 PARSE_SYNTAX_ERROR syntax error at or near 'IGNORE' (first already has its ignore-nulls argument: write either the argument or IGNORE NULLS)"},
		{"SELECT nth_value(x RESPECT NULLS, 2) OVER (ORDER BY y) FROM t", "19-26 PARSE_SYNTAX_ERROR syntax error at or near 'RESPECT' (write RESPECT NULLS after the arguments of nth_value)"},
		{"SELECT a FROM t LATERAL VIEW explode(x)", "39-39 PARSE_SYNTAX_ERROR syntax error at end of input (expected a table alias after the generator (LATERAL VIEW explode(xs) t AS x))"},
		{"SELECT a FROM t WINDOW w (PARTITION BY a)", "25-26 PARSE_SYNTAX_ERROR syntax error at or near '(' (expected AS)"},
		{"SELECT a LIKE ANY ()", "19-20 PARSE_SYNTAX_ERROR syntax error at or near ')' (expected something between '(' and ')': LIKE ANY needs at least one pattern)"},
		{"SELECT 1 UNION", "14-14 PARSE_SYNTAX_ERROR syntax error at end of input (expected SELECT, VALUES or WITH)"},
		{"SELECT a, FROM t", "10-14 PARSE_SYNTAX_ERROR syntax error at or near 'FROM' (expected an expression)"},
		{"SELECT (SELECT a FROM) AS x, b + FROM t",
			"21-22 PARSE_SYNTAX_ERROR syntax error at or near ')' (expected a table name); " +
				"33-37 PARSE_SYNTAX_ERROR syntax error at or near 'FROM' (expected an expression)"},
		{"SELECT a FROM (SELECT b FROM u WHERE) x WHERE c = = 1",
			"36-37 PARSE_SYNTAX_ERROR syntax error at or near ')' (expected an expression); " +
				"50-51 PARSE_SYNTAX_ERROR syntax error at or near '=' (expected an expression)"},
		{"SELECT " + strings.Repeat("(", 400) + "1" + strings.Repeat(")", 400), "306-307 PARSE_SYNTAX_ERROR query is nested too deeply (nest at most 300 levels)"},
	}
	for _, tt := range tests {
		q, errs := ParseQuery(tt.in)
		if got := errString(errs); got != tt.want {
			t.Errorf("ParseQuery(%q) errors:\n got %s\nwant %s", tt.in, got, tt.want)
		}
		if q != nil && len(errs) > 0 {
			t.Errorf("ParseQuery(%q) returned a query and errors", tt.in)
		}
	}
}

func TestParseQueries(t *testing.T) {
	for _, in := range []string{
		"SELECT *, _metadata.file_path AS source_file FROM STREAM(raw_orders)",
		"SELECT * FROM STREAM raw_orders o",
		"SELECT DISTINCT a, b c, d AS `e f` FROM t;",
		"SELECT * EXCEPT (a, s.b) FROM t",
		"SELECT t.*, u.* FROM t, u",
		"SELECT * FROM a JOIN b USING (id) LEFT JOIN c ON a.x = c.x RIGHT OUTER JOIN d ON TRUE FULL JOIN e ON 1 = 1",
		"SELECT * FROM a LEFT SEMI JOIN b ON a.x = b.x LEFT ANTI JOIN c ON a.x = c.x CROSS JOIN d NATURAL JOIN e",
		"SELECT * FROM (a JOIN b ON a.x = b.x) JOIN c USING (y)",
		"SELECT * FROM (SELECT 1 AS x) AS s(y)",
		"SELECT * FROM VALUES (1, 'a'), (2, 'b') AS v(n, s)",
		"VALUES 1, 2, 3",
		"WITH a AS (SELECT 1), b (x) AS (SELECT * FROM a) SELECT * FROM b",
		"SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 1 ORDER BY 2 DESC NULLS FIRST LIMIT 10 OFFSET 5",
		"SELECT a, b, sum(c) FROM t GROUP BY GROUPING SETS ((a, b), (a), ())",
		"SELECT a, b, sum(c) FROM t GROUP BY CUBE (a, b)",
		"SELECT a, sum(c) FROM t GROUP BY ALL",
		"SELECT a FROM t QUALIFY row_number() OVER (PARTITION BY a ORDER BY b) = 1",
		"SELECT 1 UNION ALL SELECT 2 UNION SELECT 3 EXCEPT SELECT 4 INTERSECT SELECT 5 MINUS SELECT 6",
		"(SELECT 1) UNION ALL (SELECT 2 ORDER BY 1 LIMIT 1)",
		"TABLE t",
		"SELECT 1 AS date, 2 interval, 3 year FROM t",
		"SELECT a FROM t WHERE x IN (SELECT y FROM u) AND EXISTS (SELECT 1 FROM v)",
		"SELECT * FROM ${cat}.crm.customers",
		"SELECT '${env}' AS env",
		"select a from t where b group by c having d order by e limit 1",
	} {
		if _, errs := ParseQuery(in); errs != nil {
			t.Errorf("ParseQuery(%q): %s", in, errString(errs))
		}
	}
}

func TestGroupingSetsParse(t *testing.T) {
	tests := []struct {
		in   string
		sets [][]int
	}{
		{"SELECT 1 FROM t GROUP BY a, b", nil},
		{"SELECT 1 FROM t GROUP BY ROLLUP(a, b)", [][]int{{0, 1}, {0}, {}}},
		{"SELECT 1 FROM t GROUP BY CUBE(a, b)", [][]int{{0, 1}, {0}, {1}, {}}},
		{"SELECT 1 FROM t GROUP BY GROUPING SETS ((a, b), a, ())", [][]int{{0, 1}, {2}, {}}},
		{"SELECT 1 FROM t GROUP BY a, ROLLUP(b)", [][]int{{0, 1}, {0}}},
		{"SELECT 1 FROM t GROUP BY ROLLUP((a, b), c)", [][]int{{0, 1, 2}, {0, 1}, {}}},
		{"SELECT 1 FROM t GROUP BY a, b WITH ROLLUP", [][]int{{0, 1}, {0}, {}}},
		{"SELECT 1 FROM t GROUP BY a, b WITH CUBE", [][]int{{0, 1}, {0}, {1}, {}}},
	}
	for _, tt := range tests {
		q, errs := ParseQuery(tt.in)
		if errs != nil {
			t.Fatalf("%s: %s", tt.in, errString(errs))
		}
		g := q.ast.(*queryStmt).body.(*selectStmt).groupBy
		if !reflect.DeepEqual(g.sets, tt.sets) {
			t.Errorf("%s: sets = %v, want %v", tt.in, g.sets, tt.sets)
		}
	}
}

func TestReferences(t *testing.T) {
	tests := []struct {
		in   string
		want []TableRef
	}{
		{"SELECT * FROM STREAM(raw_orders)", []TableRef{{Parts: []string{"raw_orders"}, Streaming: true, Offset: 21, End: 31}}},
		{"SELECT * FROM STREAM raw_orders", []TableRef{{Parts: []string{"raw_orders"}, Streaming: true, Offset: 21, End: 31}}},
		{"SELECT * FROM main.`my schema`.t", []TableRef{{Parts: []string{"main", "my schema", "t"}, Offset: 14, End: 32}}},
		{"SELECT * FROM ${c}.crm.customers", []TableRef{{Parts: []string{"${c}", "crm", "customers"}, Offset: 14, End: 32}}},
		{"WITH a AS (SELECT * FROM x), b AS (SELECT * FROM a) SELECT * FROM b JOIN A ON TRUE JOIN y ON TRUE", []TableRef{
			{Parts: []string{"x"}, Offset: 25, End: 26},
			{Parts: []string{"y"}, Offset: 88, End: 89},
		}},
		{"WITH a AS (SELECT * FROM a) SELECT * FROM a", []TableRef{{Parts: []string{"a"}, Offset: 25, End: 26}}},
		{"SELECT (SELECT max(v) FROM s) FROM t WHERE k IN (SELECT k FROM u) UNION ALL SELECT * FROM (SELECT * FROM w)", []TableRef{
			{Parts: []string{"s"}, Offset: 27, End: 28},
			{Parts: []string{"t"}, Offset: 35, End: 36},
			{Parts: []string{"u"}, Offset: 63, End: 64},
			{Parts: []string{"w"}, Offset: 105, End: 106},
		}},
		{"SELECT 1", nil},
	}
	for _, tt := range tests {
		q, errs := ParseQuery(tt.in)
		if errs != nil {
			t.Fatalf("%s: %s", tt.in, errString(errs))
		}
		if got := q.References(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("References(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestParseExprErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "0-0 PARSE_SYNTAX_ERROR syntax error at end of input (expected an expression)"},
		{"a >", "3-3 PARSE_SYNTAX_ERROR syntax error at end of input (expected an expression)"},
		{"a > 0 b", "6-7 PARSE_SYNTAX_ERROR syntax error at or near 'b' (expected end of input)"},
		{"a IS 1", "5-6 PARSE_SYNTAX_ERROR syntax error at or near '1' (expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM)"},
		{"a BETWEEN 1", "11-11 PARSE_SYNTAX_ERROR syntax error at end of input (expected AND)"},
		{"x IN 1", "5-6 PARSE_SYNTAX_ERROR syntax error at or near '1' (expected '(')"},
		{"f(a,)", "4-5 PARSE_SYNTAX_ERROR syntax error at or near ')' (expected an expression)"},
		{"a[1", "3-3 PARSE_SYNTAX_ERROR syntax error at end of input (expected ']')"},
		{"a.", "2-2 PARSE_SYNTAX_ERROR syntax error at end of input (expected a field name)"},
		{"f(x).*", "5-6 PARSE_SYNTAX_ERROR syntax error at or near '*' (expected a field name)"},
		{"s LIKE 'a' ESCAPE 1", "18-19 PARSE_SYNTAX_ERROR syntax error at or near '1' (expected a one-character string after ESCAPE)"},
	}
	for _, tt := range tests {
		_, errs := ParseExpr(tt.in)
		if got := errString(errs); got != tt.want {
			t.Errorf("ParseExpr(%q) errors:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// TestNonReservedNames checks that Spark's non-reserved keywords name
// tables, columns, aliases and CTEs, and that reserved ones (ANSI mode) do
// not name a table.
func TestNonReservedNames(t *testing.T) {
	for _, q := range []string{
		"SELECT * FROM STREAM(nulls)",
		"SELECT * FROM nulls",
		"SELECT * FROM STREAM nulls",
		"SELECT a nulls FROM t",
		"SELECT a FROM t nulls",
		"SELECT * FROM first JOIN last USING (value)",
		"WITH nulls AS (SELECT 1 AS first) SELECT first FROM nulls",
		"SELECT nulls, first, last, window, year, value, month, date, timestamp, key, range, type, user_id FROM t",
		"SELECT first, count(*) FROM t GROUP BY first ORDER BY window NULLS LAST",
		"SELECT a FROM t WHERE first = 1 AND last <> 2 OR window IS NULL",
		"SELECT a.first FROM t a JOIN u b ON a.first = b.last",
		"SELECT row_number() OVER (PARTITION BY window ORDER BY value) FROM t",
		"SELECT t.window.start, value.x FROM t",
		"SELECT transform(arr, value -> value + 1) FROM t",
		"SELECT CAST(value AS INT), year + 1, -value FROM t",
	} {
		if _, errs := ParseQuery(q); errs != nil {
			t.Errorf("%s: %s", q, errString(errs))
		}
	}
	for q, want := range map[string]string{
		"SELECT * FROM select":        "14-20 PARSE_SYNTAX_ERROR syntax error at or near 'select' (expected a table name (SELECT is a reserved word: quote it as `select` to use it as a name))",
		"SELECT * FROM STREAM(union)": "21-26 PARSE_SYNTAX_ERROR syntax error at or near 'union' (expected a table name (UNION is a reserved word: quote it as `union` to use it as a name))",
	} {
		_, errs := ParseQuery(q)
		if got := errString(errs); got != want {
			t.Errorf("%s:\n got %s\nwant %s", q, got, want)
		}
	}
	if _, errs := ParseQuery("SELECT * FROM `select`"); errs != nil {
		t.Errorf("a quoted reserved word: %s", errString(errs))
	}
}
