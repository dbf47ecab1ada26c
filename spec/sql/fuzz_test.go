package sql

import "testing"

// parseSeeds are valid and invalid texts the fuzzers start from.
var parseSeeds = []string{
	"SELECT *, _metadata.file_path AS source_file FROM STREAM(raw_orders)",
	"SELECT order_id, customer_id, amount, event_ts, to_date(event_ts) AS order_date FROM STREAM(orders_bronze)",
	"SELECT customer_id, count(DISTINCT order_id) AS orders, sum(amount) AS lifetime_value, max(event_ts) AS last_order_at FROM orders_silver GROUP BY customer_id",
	"WITH a AS (SELECT 1 AS x) SELECT * FROM a JOIN b USING (x) LEFT JOIN c ON a.x = c.x WHERE x BETWEEN 1 AND 2",
	"SELECT a, b, sum(c) FROM t GROUP BY ROLLUP(a, b) HAVING sum(c) > 1 ORDER BY 1 DESC NULLS LAST LIMIT 10",
	"SELECT CASE x WHEN 1 THEN 'a' ELSE 'b' END, CAST(y AS DECIMAL(10,2)), y::string FROM t",
	"VALUES (1, 'a'), (2, 'b')",
	"SELECT 1 UNION ALL SELECT 2 UNION SELECT 3",
	"SELECT INTERVAL '1 day 2 hours', DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00', X'00ff', 1.5BD, 1e3, 12L",
	"SELECT '${env}-x' AS env, ${p} + 1 FROM ${cat}.s.t",
	"SELECT transform(a, x -> x + 1), s.a.b[0]['k'] FROM t",
	"SELECT a +, b * FROM t WHERE = 1",
	"SELECT 'abc",
	"SELECT (((",
	"a STRING NOT NULL, b DECIMAL(12,2) COMMENT 'x', c ARRAY<STRUCT<sku: STRING, qty: INT>>",
}

func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		q, errs := ParseQuery(text)
		if (q == nil) == (len(errs) == 0) {
			t.Fatalf("ParseQuery(%q): query %v with %d errors", text, q != nil, len(errs))
		}
		for _, e := range errs {
			if e.Offset < 0 || e.Offset > len(text) || e.End > len(text) || e.Message == "" {
				t.Fatalf("ParseQuery(%q): bad error %+v", text, e)
			}
		}
		if q != nil {
			q.References()
		}
		ParseExpr(text)
		ParseSchema(text)
		ParseType(text)
	})
}
