package sql

import (
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

func checkText(t *testing.T, cat Catalog, text string) (Plan, []*Error) {
	t.Helper()
	q, errs := ParseQuery(text)
	if errs != nil {
		return nil, errs
	}
	return Check(q, cat)
}

// TestCheckSchemas checks the output columns (names, types, nullability)
// of queries; the expected types are Spark 4's in ANSI mode.
func TestCheckSchemas(t *testing.T) {
	runCheckCases(t, []checkCase{
		// DESIGN.md's example pipeline.
		{"SELECT *, _metadata.file_path AS source_file FROM STREAM(raw_orders)",
			"order_id STRING NOT NULL, customer_id STRING, amount DECIMAL(12,2), event_ts TIMESTAMP, items ARRAY<STRUCT<sku: STRING, qty: INT>>, source_file STRING NOT NULL"},
		{"SELECT order_id, customer_id, amount, event_ts, to_date(event_ts) AS order_date FROM STREAM(raw_orders)",
			"order_id STRING NOT NULL, customer_id STRING, amount DECIMAL(12,2), event_ts TIMESTAMP, order_date DATE"},
		{"SELECT customer_id, count(DISTINCT order_id) AS orders, sum(amount) AS lifetime_value, max(event_ts) AS last_order_at FROM orders_silver GROUP BY customer_id",
			"customer_id STRING, orders BIGINT NOT NULL, lifetime_value DECIMAL(22,2), last_order_at TIMESTAMP"},
		{"SELECT *, 'eu' AS region FROM STREAM(raw_orders)",
			"order_id STRING NOT NULL, customer_id STRING, amount DECIMAL(12,2), event_ts TIMESTAMP, items ARRAY<STRUCT<sku: STRING, qty: INT>>, region STRING NOT NULL"},
		// Names of unaliased items, as Spark derives them.
		{"SELECT _metadata.file_path, o.amount, count(*), sum(amount), amount * 2, upper(customer_id), 1, 'x', NULL, CAST(amount AS INT) FROM raw_orders o GROUP BY ALL",
			"file_path STRING NOT NULL, amount DECIMAL(12,2), `count(1)` BIGINT NOT NULL, `sum(amount)` DECIMAL(22,2), `(amount * 2)` DECIMAL(14,2), `upper(customer_id)` STRING, `1` INT NOT NULL, x STRING NOT NULL, NULL VOID, `CAST(amount AS INT)` INT"},
		// Stars.
		{"SELECT * EXCEPT (items, amount) FROM raw_orders", "order_id STRING NOT NULL, customer_id STRING, event_ts TIMESTAMP"},
		{"SELECT o.*, c.name FROM orders_silver o JOIN customers c ON o.customer_id = c.customer_id",
			"order_id STRING NOT NULL, customer_id STRING, amount DECIMAL(12,2), event_ts TIMESTAMP, order_date DATE, name STRING"},
		{"SELECT AMOUNT, O.Order_Id, upper(Customer_ID) FROM raw_orders o", "amount DECIMAL(12,2), order_id STRING NOT NULL, `upper(Customer_ID)` STRING"},
		{"SELECT CUSTOMER_ID, count(*) AS n FROM orders_silver GROUP BY Customer_Id", "customer_id STRING, n BIGINT NOT NULL"},
		{"SELECT _metadata FROM raw_orders", "_metadata STRUCT<file_path: STRING NOT NULL, file_size: BIGINT NOT NULL> NOT NULL"},
		// Joins: outer sides become nullable; USING merges the keys.
		{"SELECT t1.id, t2.id AS id2, a, b FROM t1 LEFT JOIN t2 ON t1.id = t2.id", "id INT NOT NULL, id2 BIGINT, a STRING, b STRING"},
		{"SELECT t1.id, t2.id AS id2 FROM t1 RIGHT JOIN t2 ON t1.id = t2.id", "id INT, id2 BIGINT NOT NULL"},
		{"SELECT * EXCEPT (x) FROM t1 JOIN t2 USING (id, x)", "id INT NOT NULL, a STRING, b STRING"},
		{"SELECT * FROM t1 JOIN t2 USING (id, x)", "id INT NOT NULL, x BIGINT, a STRING, b STRING"},
		{"SELECT id, a, b FROM t1 LEFT JOIN t2 USING (id)", "id INT NOT NULL, a STRING, b STRING"},
		{"SELECT id, a, b FROM t1 RIGHT JOIN t2 USING (id)", "id BIGINT NOT NULL, a STRING, b STRING"},
		{"SELECT id, t1.id AS l, t2.id AS r FROM t1 FULL JOIN t2 USING (id)", "id BIGINT, l INT, r BIGINT"},
		{"SELECT * FROM t1 NATURAL JOIN t2", "id INT NOT NULL, x BIGINT, a STRING, b STRING"},
		{"SELECT * FROM t1 LEFT ANTI JOIN t2 USING (id)", "id INT NOT NULL, a STRING, x BIGINT"},
		{"SELECT t1.*, b FROM t1, t2", "id INT NOT NULL, a STRING, x BIGINT, b STRING"},
		// Lateral column aliases (Spark 3.4+, struct.sql and having.sql of
		// its golden files): a name that is no column is an earlier alias.
		{"SELECT amount * 2 AS a, a + 1 AS b FROM raw_orders", "a DECIMAL(14,2), b DECIMAL(15,2)"},
		{"SELECT customer_id AS c, upper(c) AS u, count(*) AS n FROM orders_silver GROUP BY customer_id", "c STRING, u STRING, n BIGINT NOT NULL"},
		// STRUCT(t.*) and STRUCT(s.*): a table's columns, a struct's fields.
		{"SELECT struct(t1.*) AS s, struct(o.*).order_id AS o FROM t1, orders_silver o", "s STRUCT<id: INT NOT NULL, a: STRING, x: BIGINT> NOT NULL, o STRING NOT NULL"},
		// A numeric HAVING condition is cast to BOOLEAN (having.sql).
		{"SELECT sum(amount) AS s FROM orders_silver HAVING count(*) + 1", "s DECIMAL(22,2)"},
		// Subqueries, WITH, VALUES.
		{"SELECT s.k, s.n FROM (SELECT customer_id AS k, count(*) AS n FROM orders_silver GROUP BY 1) AS s", "k STRING, n BIGINT NOT NULL"},
		{"SELECT y FROM (SELECT 1 AS x) s(y)", "y INT NOT NULL"},
		{"WITH a AS (SELECT 1 AS x), b (y) AS (SELECT x + 1 FROM a) SELECT * FROM b", "y INT NOT NULL"},
		{"SELECT * FROM VALUES (1, 'a'), (2.5, NULL) AS v(n, s)", "n DECIMAL(11,1) NOT NULL, s STRING"},
		{"VALUES (1, 2L), (NULL, 3)", "col1 INT, col2 BIGINT NOT NULL"},
		{"VALUES (1, 'a'), (2, 'b') tbl(n, s)", "n INT NOT NULL, s STRING NOT NULL"},
		{"SELECT t.v FROM (VALUES (1.5) AS t(v) UNION ALL VALUES 2 x) t", "v DECIMAL(11,1) NOT NULL"},
		// Set operations take the first input's names and the wider types.
		{"SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2L, NULL", "a BIGINT NOT NULL, b STRING"},
		{"SELECT i FROM nums UNION SELECT d52 FROM nums", "i DECIMAL(12,2) NOT NULL"},
		{"SELECT dt FROM nums UNION ALL SELECT ts FROM nums", "dt TIMESTAMP"},
		{"SELECT 1 UNION ALL SELECT '2'", "`1` BIGINT NOT NULL"},
		{"SELECT arr FROM nums UNION ALL SELECT array(1L, NULL)", "arr ARRAY<BIGINT>"},
		// Aggregates.
		{"SELECT sum(b), sum(i), sum(l), sum(f), sum(d), sum(d52), sum(d380), sum(str) FROM nums",
			"`sum(b)` BIGINT, `sum(i)` BIGINT, `sum(l)` BIGINT, `sum(f)` DOUBLE, `sum(d)` DOUBLE, `sum(d52)` DECIMAL(15,2), `sum(d380)` DECIMAL(38,0), `sum(str)` DOUBLE"},
		{"SELECT avg(i), avg(d), avg(d52), avg(d3818), mean(l) FROM nums",
			"`avg(i)` DOUBLE, `avg(d)` DOUBLE, `avg(d52)` DECIMAL(9,6), `avg(d3818)` DECIMAL(38,22), `mean(l)` DOUBLE"},
		{"SELECT count(*), count(str), count(DISTINCT str, i), count_if(bool), min(str), max(dt), first(str), last(i, true), any_value(ts) FROM nums",
			"`count(1)` BIGINT NOT NULL, `count(str)` BIGINT NOT NULL, `count(DISTINCT str, i)` BIGINT NOT NULL, `count_if(bool)` BIGINT NOT NULL, `min(str)` STRING, `max(dt)` DATE, `first(str)` STRING, `last(i, true)` INT, `any_value(ts)` TIMESTAMP"},
		{"SELECT collect_list(str), collect_set(i), array_agg(d) FROM nums",
			"`collect_list(str)` ARRAY<STRING> NOT NULL, `collect_set(i)` ARRAY<INT> NOT NULL, `array_agg(d)` ARRAY<DOUBLE> NOT NULL"},
		{"SELECT str, bool, sum(i) AS n FROM nums GROUP BY ROLLUP(str, bool)", "str STRING, bool BOOLEAN, n BIGINT"},
		{"SELECT i, sum(l) AS n FROM nums GROUP BY GROUPING SETS ((i), ())", "i INT, n BIGINT"},
		{"SELECT str, i, grouping(str) AS gs, grouping_id() AS g, grouping_id(str, i) AS g2 FROM nums GROUP BY ROLLUP(str, i) HAVING grouping(i) = 0 ORDER BY grouping(str)",
			"str STRING, i INT, gs TINYINT NOT NULL, g BIGINT NOT NULL, g2 BIGINT NOT NULL"},
		{"SELECT i, e.v, p.pos, p.x FROM nums, LATERAL explode(arr) AS e(v), LATERAL posexplode(array(str)) p(pos, x)", "i INT NOT NULL, v INT, pos INT NOT NULL, x STRING"},
		{"SELECT * FROM nums n, LATERAL explode(n.arr)", "b TINYINT NOT NULL, s SMALLINT NOT NULL, i INT NOT NULL, l BIGINT NOT NULL, f FLOAT NOT NULL, d DOUBLE NOT NULL, d52 DECIMAL(5,2) NOT NULL, d102 DECIMAL(10,2), d380 DECIMAL(38,0), d3818 DECIMAL(38,18), str STRING, bool BOOLEAN, dt DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, bin BINARY, iv INTERVAL DAY TO SECOND, arr ARRAY<INT>, m MAP<STRING, BIGINT>, st STRUCT<x: INT NOT NULL, y: STRING>, col INT"},
		{"SELECT str, bool, sum(i) AS n FROM nums GROUP BY str, bool WITH CUBE", "str STRING, bool BOOLEAN, n BIGINT"},
		{"SELECT i, sum(l) AS n FROM nums GROUP BY i", "i INT NOT NULL, n BIGINT"},
		{"SELECT mode(str) AS m, percentile_approx(i, array(0.25, 0.5)) AS ps, percentile_approx(d, 0.5) AS p, percentile_cont(0.5) WITHIN GROUP (ORDER BY i), percentile_disc(0.25) WITHIN GROUP (ORDER BY d ASC) AS pd FROM nums",
			"m STRING, ps ARRAY<INT>, p DOUBLE, `percentile_cont(0.5) WITHIN GROUP (ORDER BY i)` DOUBLE, pd DOUBLE"},
		{"SELECT i + 1 AS j, count(*) AS n FROM nums GROUP BY i + 1", "j INT NOT NULL, n BIGINT NOT NULL"},
		{"SELECT upper(str) AS u, count(*) AS n FROM nums GROUP BY str ORDER BY n DESC", "u STRING, n BIGINT NOT NULL"},
		{"SELECT count(*) AS n FROM nums HAVING count(*) > 1", "n BIGINT NOT NULL"},
		{"SELECT DISTINCT str, i FROM nums", "str STRING, i INT NOT NULL"},
		// Parameters.
		{"SELECT ${env} AS e, '${env}/x' AS p, ${limit} * 2 AS n", "e STRING NOT NULL, p STRING NOT NULL, n INT NOT NULL"},
		// Temporary views are inlined.
		{"SELECT * FROM big_orders", "order_id STRING NOT NULL, amount DECIMAL(12,2)"},
	}, func(p Plan) string { return formatColumns(p.Output()) })
}

// checkCase is a query and the text its plan should show.
type checkCase struct{ query, want string }

// runCheckCases checks each query over newTestCatalog (with the view
// big_orders) and compares show(plan) with want.
func runCheckCases(t *testing.T, cases []checkCase, show func(Plan) string) {
	t.Helper()
	cat := newTestCatalog()
	addView(t, cat, "big_orders", "SELECT order_id, amount FROM orders_silver WHERE amount > 100")
	for _, tt := range cases {
		p, errs := checkText(t, cat, tt.query)
		if errs != nil {
			t.Errorf("%s: %s", tt.query, errString(errs))
			continue
		}
		if got, want := strings.TrimSpace(show(p)), strings.TrimSpace(tt.want); got != want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", tt.query, got, want)
		}
	}
}

// addView checks query and adds it to cat as a temporary view.
func addView(t *testing.T, cat *testCatalog, name, query string) {
	t.Helper()
	p, errs := checkText(t, cat, query)
	if errs != nil {
		t.Fatalf("view %s: %s", name, errString(errs))
	}
	cat.rels[name] = &Relation{Name: name, Kind: TemporaryViewRelation, Columns: p.Output(), View: p}
}

// TestCheckExprTypes checks the type, nullability and implicit casts of
// expressions over the nums relation.
func TestCheckExprTypes(t *testing.T) {
	tests := []struct{ expr, typ, plan string }{
		// Arithmetic: numeric widening; / is fractional; DIV is BIGINT.
		{"b + s", "SMALLINT NOT NULL", "(CAST(b#0 AS SMALLINT) + s#1)"},
		{"i + l", "BIGINT NOT NULL", "(CAST(i#2 AS BIGINT) + l#3)"},
		{"i * f", "DOUBLE NOT NULL", "(CAST(i#2 AS DOUBLE) * CAST(f#4 AS DOUBLE))"},
		{"f + f", "FLOAT NOT NULL", "(f#4 + f#4)"},
		{"i / 2", "DOUBLE NOT NULL", "(CAST(i#2 AS DOUBLE) / CAST(2 AS DOUBLE))"},
		{"f / f", "DOUBLE NOT NULL", "(CAST(f#4 AS DOUBLE) / CAST(f#4 AS DOUBLE))"},
		{"l DIV 2", "BIGINT NOT NULL", "(l#3 DIV CAST(2 AS BIGINT))"},
		{"d DIV 2", "BIGINT NOT NULL", "(CAST(d#5 AS BIGINT) DIV CAST(2 AS BIGINT))"},
		{"i % 3", "INT NOT NULL", "(i#2 % 3)"},
		{"-i", "INT NOT NULL", "(- i#2)"},
		{"+i", "INT NOT NULL", "i#2"},
		{"~l", "BIGINT NOT NULL", "(~ l#3)"},
		{"i & 1L", "BIGINT NOT NULL", "(CAST(i#2 AS BIGINT) & 1L)"},
		// DECIMAL arithmetic (DecimalPrecision, allowPrecisionLoss=true).
		{"d52 + d102", "DECIMAL(11,2)", "(d52#6 + d102#7)"},
		{"d52 - 1.5", "DECIMAL(6,2) NOT NULL", "(d52#6 - 1.5BD)"},
		{"d52 * d102", "DECIMAL(16,4)", "(d52#6 * d102#7)"},
		{"d102 / d102", "DECIMAL(23,13)", "(d102#7 / d102#7)"},
		{"d102 % d52", "DECIMAL(5,2)", "(d102#7 % d52#6)"},
		{"d3818 * d3818", "DECIMAL(38,6)", "(d3818#9 * d3818#9)"},
		{"d380 + d3818", "DECIMAL(38,6)", "(d380#8 + d3818#9)"},
		{"d380 / d3818", "DECIMAL(38,6)", "(d380#8 / d3818#9)"},
		{"d52 * 2", "DECIMAL(7,2) NOT NULL", "(d52#6 * CAST(2 AS DECIMAL(1,0)))"},
		{"d52 * i", "DECIMAL(16,2) NOT NULL", "(d52#6 * CAST(i#2 AS DECIMAL(10,0)))"},
		{"d52 + l", "DECIMAL(23,2) NOT NULL", "(d52#6 + CAST(l#3 AS DECIMAL(20,0)))"},
		{"d52 * d", "DOUBLE NOT NULL", "(CAST(d52#6 AS DOUBLE) * d#5)"},
		{"d52 DIV 2", "BIGINT NOT NULL", "(d52#6 DIV CAST(2 AS DECIMAL(1,0)))"},
		{"1.0 / 3", "DECIMAL(7,6) NOT NULL", "(1.0BD / CAST(3 AS DECIMAL(1,0)))"},
		{"1.5 + 1", "DECIMAL(3,1) NOT NULL", "(1.5BD + CAST(1 AS DECIMAL(1,0)))"},
		// STRING operands are promoted (ANSI string promotion).
		{"str + 1", "BIGINT", "(CAST(str#10 AS BIGINT) + CAST(1 AS BIGINT))"},
		{"str * 1.5", "DOUBLE", "(CAST(str#10 AS DOUBLE) * CAST(1.5BD AS DOUBLE))"},
		{"str + str", "DOUBLE", "(CAST(str#10 AS DOUBLE) + CAST(str#10 AS DOUBLE))"},
		{"-str", "DOUBLE", "(- CAST(str#10 AS DOUBLE))"},
		{"NULL + i", "INT", "(NULL:INT + i#2)"},
		// Dates, timestamps and intervals.
		{"dt + 1", "DATE", "date_add(dt#12, 1)"},
		{"1 + dt", "DATE", "date_add(dt#12, 1)"},
		{"dt - l", "DATE", "date_sub(dt#12, CAST(l#3 AS INT))"},
		{"dt - dt", "INTERVAL DAY TO SECOND", "(dt#12 - dt#12)"},
		{"ts - ts", "INTERVAL DAY TO SECOND", "(ts#13 - ts#13)"},
		{"ts - dt", "INTERVAL DAY TO SECOND", "(ts#13 - CAST(dt#12 AS TIMESTAMP))"},
		{"dt - '2024-01-01'", "INTERVAL DAY TO SECOND", "(dt#12 - CAST(\"2024-01-01\" AS DATE))"},
		{"ts + iv", "TIMESTAMP", "(ts#13 + iv#16)"},
		{"iv + ts", "TIMESTAMP", "(ts#13 + iv#16)"},
		{"ntz - INTERVAL '15' MINUTE", "TIMESTAMP_NTZ", "(ntz#14 - INTERVAL '0 00:15:00' DAY TO SECOND)"},
		{"dt + INTERVAL 1 DAY", "DATE", "date_add(dt#12, date_part(\"DAY\", INTERVAL '1 00:00:00' DAY TO SECOND))"},
		{"dt + INTERVAL 25 HOURS", "TIMESTAMP", "(CAST(dt#12 AS TIMESTAMP) + INTERVAL '1 01:00:00' DAY TO SECOND)"},
		{"iv * 2", "INTERVAL DAY TO SECOND", "(iv#16 * 2)"},
		{"iv + iv", "INTERVAL DAY TO SECOND", "(iv#16 + iv#16)"},
		// Comparisons.
		{"i = l", "BOOLEAN NOT NULL", "(CAST(i#2 AS BIGINT) = l#3)"},
		{"i = 1.5", "BOOLEAN NOT NULL", "(CAST(i#2 AS DECIMAL(11,1)) = CAST(1.5BD AS DECIMAL(11,1)))"},
		{"d52 > 0", "BOOLEAN NOT NULL", "(d52#6 > CAST(0 AS DECIMAL(5,2)))"},
		{"d52 < d102", "BOOLEAN", "(CAST(d52#6 AS DECIMAL(10,2)) < d102#7)"},
		{"d52 = d", "BOOLEAN NOT NULL", "(CAST(d52#6 AS DOUBLE) = d#5)"},
		{"str = 1", "BOOLEAN", "(CAST(str#10 AS BIGINT) = CAST(1 AS BIGINT))"},
		{"str = 1.5", "BOOLEAN", "(CAST(str#10 AS DOUBLE) = CAST(1.5BD AS DOUBLE))"},
		{"str = dt", "BOOLEAN", "(CAST(str#10 AS DATE) = dt#12)"},
		{"str = bool", "BOOLEAN", "(CAST(str#10 AS BOOLEAN) = bool#11)"},
		{"ts > dt", "BOOLEAN", "(ts#13 > CAST(dt#12 AS TIMESTAMP))"},
		{"ntz > ts", "BOOLEAN", "(CAST(ntz#14 AS TIMESTAMP) > ts#13)"},
		{"ntz > dt", "BOOLEAN", "(ntz#14 > CAST(dt#12 AS TIMESTAMP_NTZ))"},
		{"f = l", "BOOLEAN NOT NULL", "(CAST(f#4 AS DOUBLE) = CAST(l#3 AS DOUBLE))"},
		{"str <=> NULL", "BOOLEAN NOT NULL", "(str#10 <=> NULL:STRING)"},
		{"st = st", "BOOLEAN", "(st#19 = st#19)"},
		// Logic and predicates.
		{"bool AND str", "BOOLEAN", "(bool#11 AND CAST(str#10 AS BOOLEAN))"},
		{"NOT bool", "BOOLEAN", "(NOT bool#11)"},
		{"str IS NULL", "BOOLEAN NOT NULL", "(str#10 IS NULL)"},
		{"bool IS NOT TRUE", "BOOLEAN NOT NULL", "(NOT (bool#11 <=> true))"},
		{"bool IS UNKNOWN", "BOOLEAN NOT NULL", "(bool#11 IS NULL)"},
		{"i IS DISTINCT FROM l", "BOOLEAN NOT NULL", "(NOT (CAST(i#2 AS BIGINT) <=> l#3))"},
		{"i IN (1, 2L, '3')", "BOOLEAN NOT NULL", "(CAST(i#2 AS BIGINT) IN (CAST(1 AS BIGINT), 2L, CAST(\"3\" AS BIGINT)))"},
		{"str NOT IN ('a', NULL)", "BOOLEAN", "(str#10 NOT IN (\"a\", NULL:STRING))"},
		{"i BETWEEN 1 AND l", "BOOLEAN NOT NULL", "((i#2 >= 1) AND (CAST(i#2 AS BIGINT) <= l#3))"},
		{"d52 NOT BETWEEN 0 AND 9.5", "BOOLEAN NOT NULL", "(NOT ((d52#6 >= CAST(0 AS DECIMAL(5,2))) AND (d52#6 <= CAST(9.5BD AS DECIMAL(5,2)))))"},
		{"str LIKE 'a\\%%' ESCAPE '\\\\'", "BOOLEAN", "(str#10 LIKE \"a\\\\%%\" ESCAPE '\\\\')"},
		{"i NOT ILIKE 'A%'", "BOOLEAN NOT NULL", "(CAST(i#2 AS STRING) NOT ILIKE \"A%\")"},
		{"str RLIKE '^a'", "BOOLEAN", "rlike(str#10, \"^a\")"},
		// LIKE ANY / ALL are the OR / AND of one LIKE per pattern (Spark's LikeAny, NotLikeAll).
		{"str LIKE ANY ('a%', NULL)", "BOOLEAN", "((str#10 LIKE \"a%\") OR (str#10 LIKE NULL:STRING))"},
		{"str NOT ILIKE ALL ('a%', '%b')", "BOOLEAN", "((str#10 NOT ILIKE \"a%\") AND (str#10 NOT ILIKE \"%b\"))"},
		{"str || i", "STRING", "(str#10 || CAST(i#2 AS STRING))"},
		{"bin || bin", "BINARY", "(bin#15 || bin#15)"},
		{"arr || array(1L)", "ARRAY<BIGINT>", "(CAST(arr#17 AS ARRAY<BIGINT>) || CAST(array(1L) AS ARRAY<BIGINT>))"},
		// CASE and friends.
		{"CASE WHEN i > 0 THEN 'pos' WHEN i < 0 THEN -1 END", "BIGINT", "CASE WHEN (i#2 > 0) THEN CAST(\"pos\" AS BIGINT) WHEN (i#2 < 0) THEN CAST(-1 AS BIGINT) END"},
		{"CASE i WHEN 1 THEN 'one' WHEN 2L THEN 'two' ELSE str END", "STRING", "CASE WHEN (i#2 = 1) THEN \"one\" WHEN (CAST(i#2 AS BIGINT) = 2L) THEN \"two\" ELSE str#10 END"},
		{"CASE WHEN bool THEN 1 ELSE 2.5 END", "DECIMAL(11,1) NOT NULL", "CASE WHEN bool#11 THEN CAST(1 AS DECIMAL(11,1)) ELSE CAST(2.5BD AS DECIMAL(11,1)) END"},
		{"if(bool, i, d)", "DOUBLE NOT NULL", "CASE WHEN bool#11 THEN CAST(i#2 AS DOUBLE) ELSE d#5 END"},
		{"nullif(str, '')", "STRING", "CASE WHEN (str#10 = \"\") THEN NULL:STRING ELSE str#10 END"},
		{"coalesce(str, 'x')", "STRING NOT NULL", "coalesce(str#10, \"x\")"},
		{"nvl(d102, d52)", "DECIMAL(10,2) NOT NULL", "coalesce(d102#7, CAST(d52#6 AS DECIMAL(10,2)))"},
		{"coalesce(b, l, NULL)", "BIGINT NOT NULL", "coalesce(CAST(b#0 AS BIGINT), l#3, NULL:BIGINT)"},
		{"coalesce(i, f)", "DOUBLE NOT NULL", "coalesce(CAST(i#2 AS DOUBLE), CAST(f#4 AS DOUBLE))"},
		{"coalesce(d52, f)", "DOUBLE NOT NULL", "coalesce(CAST(d52#6 AS DOUBLE), CAST(f#4 AS DOUBLE))"},
		{"greatest(b, s, i)", "INT NOT NULL", "greatest(CAST(b#0 AS INT), CAST(s#1 AS INT), i#2)"},
		{"least(d102, NULL)", "DECIMAL(10,2)", "least(d102#7, NULL:DECIMAL(10,2))"},
		// Casts.
		{"CAST(str AS INT)", "INT", "CAST(str#10 AS INT)"},
		{"TRY_CAST(i AS DATE)", "", ""},
		{"TRY_CAST(str AS DATE)", "DATE", "TRY_CAST(str#10 AS DATE)"},
		{"TRY_CAST(i AS STRING)", "STRING", "TRY_CAST(i#2 AS STRING)"},
		{"str::decimal(10,2)", "DECIMAL(10,2)", "CAST(str#10 AS DECIMAL(10,2))"},
		{"CAST(NULL AS DATE)", "DATE", "NULL:DATE"},
		{"CAST(i AS INT)", "INT NOT NULL", "i#2"},
		{"CAST(arr AS ARRAY<STRING>)", "ARRAY<STRING>", "CAST(arr#17 AS ARRAY<STRING>)"},
		{"int(d)", "INT NOT NULL", "CAST(d#5 AS INT)"},
		{"string(dt)", "STRING", "CAST(dt#12 AS STRING)"},
		// Functions.
		{"upper(i)", "STRING NOT NULL", "upper(CAST(i#2 AS STRING))"},
		{"concat(str, i, dt)", "STRING", "concat(str#10, CAST(i#2 AS STRING), CAST(dt#12 AS STRING))"},
		{"concat_ws('-', str, arr)", "STRING NOT NULL", "concat_ws(\"-\", str#10, CAST(arr#17 AS ARRAY<STRING>))"},
		{"length(bin)", "INT", "length(bin#15)"},
		{"substring(str, 2)", "STRING", "substring(str#10, 2)"},
		{"substr(str, l, 2)", "STRING", "substring(str#10, CAST(l#3 AS INT), 2)"},
		{"split(str, ',')", "ARRAY<STRING>", "split(str#10, \",\")"},
		{"year(ts)", "INT", "year(CAST(ts#13 AS DATE))"},
		{"dayofmonth(str)", "INT", "day(CAST(str#10 AS DATE))"},
		{"hour(dt)", "INT", "hour(CAST(dt#12 AS TIMESTAMP))"},
		{"datediff(ts, dt)", "INT", "datediff(CAST(ts#13 AS DATE), dt#12)"},
		{"date_add(dt, 1L)", "", ""}, // Spark refuses BIGINT days (date.sql.out)
		{"to_date(str, 'yyyy-MM-dd')", "DATE", "to_date(str#10, \"yyyy-MM-dd\")"},
		{"to_timestamp(dt)", "TIMESTAMP", "to_timestamp(dt#12)"},
		{"date_format(dt, 'yyyy')", "STRING", "date_format(CAST(dt#12 AS TIMESTAMP), \"yyyy\")"},
		{"date_trunc('hour', ts)", "TIMESTAMP", "date_trunc(\"hour\", ts#13)"},
		{"current_date()", "DATE NOT NULL", "current_date()"},
		{"current_timestamp", "TIMESTAMP NOT NULL", "current_timestamp()"},
		{"now()", "TIMESTAMP NOT NULL", "current_timestamp()"},
		{"abs(d52)", "DECIMAL(5,2) NOT NULL", "abs(d52#6)"},
		{"round(d52, 1)", "DECIMAL(5,1) NOT NULL", "round(d52#6, 1)"},
		{"round(d52)", "DECIMAL(4,0) NOT NULL", "round(d52#6)"},
		{"round(d102, -2)", "DECIMAL(9,0)", "round(d102#7, -2)"},
		{"round(d, 2)", "DOUBLE NOT NULL", "round(d#5, 2)"},
		{"floor(d52)", "DECIMAL(4,0) NOT NULL", "floor(d52#6)"},
		{"ceil(d)", "BIGINT NOT NULL", "ceil(d#5)"},
		{"ceiling(i)", "BIGINT NOT NULL", "ceil(i#2)"},
		// ceil/floor with a scale: RoundCeil/RoundFloor over DECIMAL (ceil-floor-with-scale-param.sql.out).
		{"ceil(i, -1)", "DECIMAL(11,0)", "ceil(CAST(i#2 AS DECIMAL(10,0)), -1)"},
		{"floor(d52, 1)", "DECIMAL(5,1)", "floor(d52#6, 1)"},
		{"ceil(d52, -3)", "DECIMAL(4,0)", "ceil(d52#6, -3)"},
		{"floor(d, 2)", "DECIMAL(18,2)", "floor(CAST(d#5 AS DECIMAL(30,15)), 2)"},
		// Arrays, maps, structs.
		{"array_size(NULL)", "INT", "NULL:INT"},
		{"(1 AS a, 'x' b, 2)", "STRUCT<a: INT NOT NULL, b: STRING NOT NULL, col3: INT NOT NULL> NOT NULL", "struct(1, \"x\", 2)"},
		{"arr[0]", "INT", "arr#17[0]"},
		{"arr[l]", "INT", "arr#17[CAST(l#3 AS INT)]"},
		{"m['k']", "BIGINT", "m#18[\"k\"]"},
		{"st.x", "INT", "st#19.x"},
		{"st['y']", "STRING", "st#19.y"},
		{"element_at(arr, 1)", "INT", "element_at(arr#17, 1)"},
		{"element_at(m, 'k')", "BIGINT", "element_at(m#18, \"k\")"},
		{"array_contains(arr, 1L)", "BOOLEAN", "array_contains(CAST(arr#17 AS ARRAY<BIGINT>), 1L)"},
		{"array_contains(arr, 1)", "BOOLEAN", "array_contains(arr#17, 1)"},
		{"size(m)", "INT", "size(m#18)"},
		{"hex(i)", "STRING NOT NULL", "hex(CAST(i#2 AS BIGINT))"},
		{"hex(bin)", "STRING", "hex(bin#15)"},
		{"hex(str)", "STRING", "hex(str#10)"},
		{"hex(d)", "", ""},
		{"unhex(str)", "BINARY", "unhex(str#10)"},
		{"json_array_length(str)", "INT", "json_array_length(str#10)"},
		{"array_size(arr)", "INT", "array_size(arr#17)"},
		{"array_size(m)", "", ""},
		{"timestampdiff(HOUR, ts, ts)", "BIGINT", "timestampdiff(\"HOUR\", ts#13, ts#13)"},
		{"datediff(month, dt, ts)", "BIGINT", "timestampdiff(\"MONTH\", CAST(dt#12 AS TIMESTAMP), ts#13)"},
		{"datediff(dt, dt)", "INT", "datediff(dt#12, dt#12)"},
		{"timestampadd(QUARTER, i, ntz)", "TIMESTAMP_NTZ", "timestampadd(\"QUARTER\", CAST(i#2 AS BIGINT), ntz#14)"},
		{"dateadd(DAYOFYEAR, 1, dt)", "TIMESTAMP", "timestampadd(\"DAYOFYEAR\", CAST(1 AS BIGINT), CAST(dt#12 AS TIMESTAMP))"},
		{"convert_timezone('Europe/Brussels', ts)", "TIMESTAMP_NTZ", "convert_timezone(current_timezone(), \"Europe/Brussels\", CAST(ts#13 AS TIMESTAMP_NTZ))"},
		{"date_add(dt, 1)", "DATE", "date_add(dt#12, 1)"},
		{"array(1, 2.5, NULL)", "ARRAY<DECIMAL(11,1)> NOT NULL", "array(CAST(1 AS DECIMAL(11,1)), CAST(2.5BD AS DECIMAL(11,1)), NULL:DECIMAL(11,1))"},
		{"map('a', 1, 'b', l)", "MAP<STRING, BIGINT> NOT NULL", "map(\"a\", CAST(1 AS BIGINT), \"b\", l#3)"},
		{"struct(i, str, 1)", "STRUCT<i: INT NOT NULL, str: STRING, col3: INT NOT NULL> NOT NULL", "struct(i#2, str#10, 1)"},
		{"named_struct('p', i, 'q', str)", "STRUCT<p: INT NOT NULL, q: STRING> NOT NULL", "named_struct(\"p\", i#2, \"q\", str#10)"},
		{"(i, str)", "STRUCT<i: INT NOT NULL, str: STRING> NOT NULL", "struct(i#2, str#10)"},
		{"struct(i AS x, str, i + 1 y, str || str)", "STRUCT<x: INT NOT NULL, str: STRING, y: INT NOT NULL, col4: STRING> NOT NULL", "struct(i#2, str#10, (i#2 + 1), (str#10 || str#10))"},
		// Parameters: ${name}, inside strings, and bare names after columns.
		{"${limit} + i", "INT NOT NULL", "(${limit} + i#2)"},
		{"'v=${limit}'", "STRING NOT NULL", "concat(\"v=\", CAST(${limit} AS STRING))"},
		{"env = 'prod'", "BOOLEAN NOT NULL", "(${env} = \"prod\")"},
		{"ts > current_timestamp() - ${lateness}", "BOOLEAN", "(ts#13 > (current_timestamp() - ${lateness}))"},
	}
	checkExprCases(t, tests, types.Type.String)
}

// checkExprCases checks each expression over the nums relation and
// compares its type ("" for an expected error) and its printed form.
func checkExprCases(t *testing.T, tests []struct{ expr, typ, plan string }, showType func(types.Type) string) {
	t.Helper()
	cat := newTestCatalog()
	cols := cat.rels["nums"].Columns
	for _, tt := range tests {
		pe, errs := ParseExpr(tt.expr)
		if errs != nil {
			t.Errorf("%s: %s", tt.expr, errString(errs))
			continue
		}
		e, errs := CheckExpr(pe, cols, cat)
		if tt.typ == "" {
			if errs == nil {
				t.Errorf("%s: checked as %s, want an error", tt.expr, FormatExpr(e))
			}
			continue
		}
		if errs != nil {
			t.Errorf("%s: %s", tt.expr, errString(errs))
			continue
		}
		typ := showType(e.ResultType())
		if !e.IsNullable() {
			typ += " NOT NULL"
		}
		if typ != tt.typ || FormatExpr(e) != tt.plan {
			t.Errorf("%s:\n got %s  %s\nwant %s  %s", tt.expr, typ, FormatExpr(e), tt.typ, tt.plan)
		}
	}
}

func TestCheckExprNoColumns(t *testing.T) {
	// A pipeline check (DESIGN.md): bare names are parameters.
	cat := &testCatalog{params: map[string]types.Type{"source_catalog": types.StringType, "target_catalog": types.StringType}}
	pe, errs := ParseExpr("source_catalog != target_catalog OR target_catalog LIKE '%_dev'")
	if errs != nil {
		t.Fatal(errString(errs))
	}
	e, errs := CheckExpr(pe, nil, cat)
	if errs != nil {
		t.Fatal(errString(errs))
	}
	if got, want := FormatExpr(e), `((${source_catalog} <> ${target_catalog}) OR (${target_catalog} LIKE "%_dev"))`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	pe, _ = ParseExpr("target_catalgo = 'x'")
	_, errs = CheckExpr(pe, nil, cat)
	if got, want := errString(errs), `0-14 UNRESOLVED_COLUMN column "target_catalgo" does not exist (the query reads no columns here)`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestCheckNilCatalog(t *testing.T) {
	p, errs := checkText(t, nil, "SELECT 1 + 1 AS two")
	if errs != nil || formatColumns(p.Output()) != "two INT NOT NULL" {
		t.Errorf("got %v %s", p, errString(errs))
	}
	_, errs = checkText(t, nil, "SELECT * FROM t WHERE x = ${p}")
	if got := errString(errs); !strings.Contains(got, "TABLE_OR_VIEW_NOT_FOUND") {
		t.Errorf("got %s", got)
	}
}
