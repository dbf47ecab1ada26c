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

// checkSeeds are queries over newTestCatalog's relations.
var checkSeeds = []string{
	"SELECT customer_id, sum(amount) AS total FROM orders_silver WHERE amount > 0 GROUP BY customer_id HAVING count(*) > 1 ORDER BY total DESC LIMIT 5",
	"SELECT t1.a, t2.b FROM t1 JOIN t2 ON t2.id = t1.id AND t1.a > 'x' AND t1.x + 1 = t2.x",
	"SELECT id, a, b FROM t1 FULL JOIN t2 USING (id)",
	"SELECT * FROM t1 NATURAL JOIN t2",
	"SELECT a FROM t1 ORDER BY x, upper(a)",
	"SELECT i FROM nums UNION ALL SELECT l FROM nums UNION SELECT NULL",
	"SELECT str, bool, count(*) FROM nums GROUP BY CUBE(str, bool)",
	"WITH a AS (SELECT id FROM t1) SELECT x.id FROM a x JOIN a y ON x.id = y.id",
	"SELECT d52 * d102, d380 / d3818, str + 1, dt + 1, ts - dt, iv * 2, arr[0], m['k'], st.x FROM nums",
	"SELECT coalesce(i, l), if(bool, i, d), nullif(str, ''), CASE i WHEN 1 THEN 'a' END, i BETWEEN 1 AND 2 FROM nums",
	"SELECT * FROM VALUES (1, 'a'), (2.5, NULL) AS v(n, s)",
	"SELECT '${env}-x', ${limit} + 1, env FROM nums",
	"SELECT * EXCEPT (x) FROM t1 LEFT ANTI JOIN t2 USING (id)",
}

func FuzzCheck(f *testing.F) {
	for _, s := range append(checkSeeds, parseSeeds...) {
		f.Add(s)
	}
	cat := newTestCatalog()
	p, _ := ParseQuery("SELECT order_id, amount FROM orders_silver WHERE amount > 100")
	view, _ := Check(p, cat)
	cat.rels["big_orders"] = &Relation{Name: "big_orders", Kind: TemporaryViewRelation, Columns: view.Output(), View: view}
	cols := cat.rels["nums"].Columns
	f.Fuzz(func(t *testing.T, text string) {
		if q, errs := ParseQuery(text); errs == nil {
			plan, errs := Check(q, cat)
			if (plan == nil) == (len(errs) == 0) {
				t.Fatalf("Check(%q): plan %v with %d errors", text, plan != nil, len(errs))
			}
			for _, e := range errs {
				if e.Offset < 0 || e.Offset > len(text) || e.End > len(text) || e.Message == "" {
					t.Fatalf("Check(%q): bad error %+v", text, e)
				}
			}
			if plan != nil {
				FormatPlan(plan)
			}
		}
		if pe, errs := ParseExpr(text); errs == nil {
			e, errs := CheckExpr(pe, cols, cat)
			if (e == nil) == (len(errs) == 0) {
				t.Fatalf("CheckExpr(%q): expr %v with %d errors", text, e != nil, len(errs))
			}
		}
	})
}
