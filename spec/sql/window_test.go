package sql

import "testing"

// TestCheckWindows checks window functions and QUALIFY: the Window nodes
// (one per window specification), Spark's default frames, the result
// types and nullability, and windows over aggregates.
func TestCheckWindows(t *testing.T) {
	runCheckCases(t, []checkCase{
		{"SELECT a, row_number() OVER (PARTITION BY x ORDER BY id DESC) AS rn FROM t1 QUALIFY rn = 1", `
Project [a#1 AS a, row_number() OVER (...)#3 AS rn] -> a STRING, rn INT NOT NULL
  Filter (row_number() OVER (...)#3 = 1) -> id INT NOT NULL, a STRING, x BIGINT, ` + "`row_number() OVER (...)`" + ` INT NOT NULL HIDDEN
    Window [row_number()] partition=[x#2] order=[id#0 DESC NULLS LAST] -> id INT NOT NULL, a STRING, x BIGINT, ` + "`row_number() OVER (...)`" + ` INT NOT NULL HIDDEN
      Scan t1 -> id INT NOT NULL, a STRING, x BIGINT`},
		// One Window per specification; Spark's default frames.
		{"SELECT id, sum(x) OVER (ORDER BY id) AS running, sum(x) OVER () AS total, count(*) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS n3 FROM t1", `
Project [id#0 AS id, sum(x) OVER (...)#3 AS running, sum(x) OVER (...)#5 AS total, count(1) OVER (...)#4 AS n3] -> id INT NOT NULL, running BIGINT, total BIGINT, n3 BIGINT NOT NULL
  Window [sum(x#2) ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING] partition=[] order=[] -> id INT NOT NULL, a STRING, x BIGINT, ` + "`sum(x) OVER (...)`" + ` BIGINT HIDDEN, ` + "`count(1) OVER (...)`" + ` BIGINT NOT NULL HIDDEN, ` + "`sum(x) OVER (...)`" + ` BIGINT HIDDEN
    Window [sum(x#2) RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, count() ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING] partition=[] order=[id#0 ASC NULLS FIRST] -> id INT NOT NULL, a STRING, x BIGINT, ` + "`sum(x) OVER (...)`" + ` BIGINT HIDDEN, ` + "`count(1) OVER (...)`" + ` BIGINT NOT NULL HIDDEN
      Scan t1 -> id INT NOT NULL, a STRING, x BIGINT`},
		// Windows over an aggregate: ranks of sums.
		{"SELECT x, sum(id) AS s, rank() OVER (ORDER BY sum(id) DESC) AS r FROM t1 GROUP BY x", `
Project [x#0 AS x, sum(id)#1 AS s, rank() OVER (...)#2 AS r] -> x BIGINT, s BIGINT, r INT NOT NULL
  Window [rank()] partition=[] order=[sum(id)#1 DESC NULLS LAST] -> x BIGINT, ` + "`sum(id)`" + ` BIGINT, ` + "`rank() OVER (...)`" + ` INT NOT NULL HIDDEN
    Aggregate groups=[x#2] aggs=[sum(id#0)] -> x BIGINT, ` + "`sum(id)`" + ` BIGINT
      Scan t1 -> id INT NOT NULL, a STRING, x BIGINT`},
	}, FormatPlan)
	// A named window is its definition: the same plan as written inline,
	// whether the WINDOW clause comes before QUALIFY or after it, and
	// through a window defined as another.
	inline := "SELECT a, row_number() OVER (PARTITION BY x ORDER BY id DESC) AS rn, sum(id) OVER (PARTITION BY x ORDER BY id DESC) AS s FROM t1 QUALIFY rn = 1"
	cat := newTestCatalog()
	want, errs := checkText(t, cat, inline)
	if errs != nil {
		t.Fatal(errString(errs))
	}
	for _, named := range []string{
		"SELECT a, row_number() OVER w AS rn, sum(id) OVER w AS s FROM t1 WINDOW w AS (PARTITION BY x ORDER BY id DESC) QUALIFY rn = 1",
		"SELECT a, row_number() OVER (w) AS rn, sum(id) OVER w AS s FROM t1 QUALIFY rn = 1 WINDOW w AS (PARTITION BY x ORDER BY id DESC)",
		"SELECT a, row_number() OVER w2 AS rn, sum(id) OVER W AS s FROM t1 WINDOW w AS (PARTITION BY x ORDER BY id DESC), w2 AS w QUALIFY rn = 1",
	} {
		runCheckCases(t, []checkCase{{named, FormatPlan(want)}}, FormatPlan)
	}
	runCheckCases(t, []checkCase{
		{"SELECT row_number() OVER (ORDER BY i) AS a, rank() OVER (ORDER BY i) AS b, dense_rank() OVER (ORDER BY i) AS c, percent_rank() OVER (ORDER BY i) AS d, cume_dist() OVER (ORDER BY i) AS e, ntile(3) OVER (ORDER BY i) AS f FROM nums",
			"a INT NOT NULL, b INT NOT NULL, c INT NOT NULL, d DOUBLE NOT NULL, e DOUBLE NOT NULL, f INT NOT NULL"},
		{"SELECT lag(i) OVER (ORDER BY i) AS a, lead(i, 2, 0) OVER (ORDER BY i) AS b, lag(str, 1, 'none') OVER (ORDER BY i) AS c, lead(i, 1, 0L) OVER (ORDER BY i) AS d FROM nums",
			"a INT, b INT NOT NULL, c STRING, d BIGINT NOT NULL"},
		{"SELECT first_value(str) OVER (PARTITION BY bool ORDER BY ts) AS a, last_value(str, true) OVER (ORDER BY ts ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS b, nth_value(i, 2) OVER (ORDER BY ts) AS c FROM nums",
			"a STRING, b STRING, c INT"},
		{"SELECT avg(d) OVER (ORDER BY l RANGE BETWEEN 10 PRECEDING AND CURRENT ROW) AS a, count(str) OVER (ORDER BY dt RANGE BETWEEN INTERVAL 7 DAYS PRECEDING AND CURRENT ROW) AS b, max(i) OVER (ORDER BY ts RANGE BETWEEN INTERVAL 1 HOUR PRECEDING AND INTERVAL 1 HOUR FOLLOWING) AS c FROM nums",
			"a DOUBLE, b BIGINT NOT NULL, c INT"},
		{"SELECT customer_id, order_id FROM orders_silver QUALIFY row_number() OVER (PARTITION BY customer_id ORDER BY event_ts DESC) = 1",
			"customer_id STRING, order_id STRING NOT NULL"},
		{"SELECT x, sum(sum(id)) OVER (ORDER BY x) AS running FROM t1 GROUP BY x QUALIFY running > 1",
			"x BIGINT, running BIGINT"},
	}, func(p Plan) string { return formatColumns(p.Output()) })
}

// TestCheckWindowErrors checks what Spark rejects in window functions.
func TestCheckWindowErrors(t *testing.T) {
	tests := []struct{ query, want string }{
		{"SELECT row_number() FROM t1", `7-19 WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE window function row_number needs an OVER clause (add OVER (ORDER BY ...))`},
		{"SELECT rank() OVER (PARTITION BY x) FROM t1", `7-35 WINDOW_FUNCTION_WITHOUT_ORDER window function rank needs an ordered window (add ORDER BY to the OVER clause)`},
		{"SELECT upper(a) OVER () FROM t1", `7-23 UNSUPPORTED_EXPR_FOR_WINDOW upper is not a window or aggregate function (use a window function (row_number, rank, lag, ...) or an aggregate)`},
		{"SELECT a FROM t1 WHERE row_number() OVER (ORDER BY id) = 1", `23-54 UNSUPPORTED_EXPR_FOR_WINDOW window function row_number is not allowed in WHERE (compute it in a subquery, or filter with QUALIFY)`},
		{"SELECT count(DISTINCT a) OVER () FROM t1", `7-32 UNSUPPORTED_FEATURE DISTINCT is not allowed in a window aggregate`},
		{"SELECT row_number() OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t1", `38-78 INVALID_WINDOW_SPEC_FOR_AGGREGATION_FUNC window function row_number takes no frame: it works on the ordered partition (leave the frame out)`},
		{"SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM t1", `45-72 INVALID_WINDOW_SPEC the frame's start is after its end`},
		{"SELECT sum(x) OVER (ORDER BY id, a RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t1", `49-76 INVALID_WINDOW_SPEC a RANGE frame with an offset needs exactly one ORDER BY expression, not 2`},
		{"SELECT sum(x) OVER (ORDER BY a RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t1", `45-46 DATATYPE_MISMATCH a RANGE frame over STRING values cannot have an offset of type INT`},
		{"SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN id PRECEDING AND CURRENT ROW) FROM t1", `45-47 UNRESOLVED_COLUMN column "id" does not exist (the query reads no columns here)`},
		{"SELECT ntile(0) OVER (ORDER BY id) FROM t1", `13-14 DATATYPE_MISMATCH the number of buckets of ntile must be an integer constant of at least 1`},
		{"SELECT lag(a, x) OVER (ORDER BY id) FROM t1", `14-15 DATATYPE_MISMATCH the offset of lag must be an integer constant of at least 0`},
		{"SELECT a FROM t1 QUALIFY id > 1", `25-31 MISSING_WINDOW_FUNCTION QUALIFY needs a window function in the SELECT list or in its condition (filter with WHERE or HAVING instead)`},
		{"SELECT sum(x) OVER w FROM t1", `14-20 MISSING_WINDOW_SPECIFICATION window "w" is not defined (define it in the WINDOW clause of the same SELECT: WINDOW w AS (PARTITION BY ... ORDER BY ...))`},
		{"SELECT sum(x) OVER w FROM t1 WINDOW v AS (ORDER BY id)", `14-20 MISSING_WINDOW_SPECIFICATION window "w" is not defined (define it in the WINDOW clause of the same SELECT: WINDOW w AS (PARTITION BY ... ORDER BY ...))`},
		{"SELECT sum(x) OVER w FROM (SELECT * FROM t1 WINDOW w AS (ORDER BY id)) s", `14-20 MISSING_WINDOW_SPECIFICATION window "w" is not defined (define it in the WINDOW clause of the same SELECT: WINDOW w AS (PARTITION BY ... ORDER BY ...))`},
		{"SELECT x, sum(id) OVER (ORDER BY a) FROM t1 GROUP BY x", `14-16 MISSING_AGGREGATION column "id" is neither grouped nor aggregated (add it to GROUP BY, or aggregate it, e.g. any_value(id))`},
		{"SELECT order_id, row_number() OVER (PARTITION BY customer_id ORDER BY event_ts) FROM STREAM(orders_silver)", `17-27 NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING window function row_number cannot run over a stream: this query reads STREAM(...) (compute it in a materialized view that reads the table without STREAM(...))`},
		{"SELECT row_number() OVER (ORDER BY row_number() OVER (ORDER BY id)) FROM t1", `35-66 UNSUPPORTED_EXPR_FOR_WINDOW window function row_number is not allowed in a window specification (compute it in a subquery, or filter with QUALIFY)`},
	}
	checkErrorCases(t, tests)
}
