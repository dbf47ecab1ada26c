package sql

import "testing"

// TestCheckGenerators checks explode and friends in the SELECT list and in
// LATERAL VIEW: the Generate node, the generated columns' names, types and
// nullability (Spark's defaults: col, key, value, pos, the struct's fields).
func TestCheckGenerators(t *testing.T) {
	runCheckCases(t, []checkCase{
		{"SELECT a, explode(array(id, 2)) FROM t1 WHERE x > 0", `
Project [a#1 AS a, col#3 AS col] -> a STRING, col INT NOT NULL
  Generate explode array(id#0, 2) -> id INT NOT NULL, a STRING, x BIGINT, col INT NOT NULL
    Filter (x#2 > CAST(0 AS BIGINT)) -> id INT NOT NULL, a STRING, x BIGINT
      Scan t1 -> id INT NOT NULL, a STRING, x BIGINT`},
	}, FormatPlan)
	runCheckCases(t, []checkCase{
		{"SELECT explode(m) FROM nums", "key STRING NOT NULL, value BIGINT"},
		{"SELECT explode(m) AS (k, v) FROM nums", "k STRING NOT NULL, v BIGINT"},
		{"SELECT posexplode(arr) FROM nums", "pos INT NOT NULL, col INT"},
		{"SELECT posexplode_outer(array(1)) AS (p, x) FROM nums", "p INT, x INT"},
		{"SELECT explode(array(1, 2)) AS n FROM nums WHERE i > 0", "n INT NOT NULL"},
		{"SELECT order_id, inline(items) FROM raw_orders", "order_id STRING NOT NULL, sku STRING, qty INT"},
		{"SELECT explode_outer(items) AS it FROM raw_orders", "it STRUCT<sku: STRING, qty: INT>"},
		// LATERAL VIEW: its columns are qualified by its alias and seen by WHERE.
		{"SELECT i, x FROM nums LATERAL VIEW explode(arr) t AS x WHERE t.x > 1", "i INT NOT NULL, x INT"},
		{"SELECT i, t.col FROM nums LATERAL VIEW OUTER explode(arr) t", "i INT NOT NULL, col INT"},
		{"SELECT k, v, p, y FROM nums LATERAL VIEW explode(m) mm AS k, v LATERAL VIEW posexplode(array(v)) q AS p, y",
			"k STRING NOT NULL, v BIGINT, p INT NOT NULL, y BIGINT"},
		{"SELECT order_id, it.sku, count(*) AS n FROM raw_orders LATERAL VIEW explode(items) e AS it GROUP BY order_id, it.sku",
			"order_id STRING NOT NULL, sku STRING, n BIGINT NOT NULL"},
	}, func(p Plan) string { return formatColumns(p.Output()) })
}

// TestCheckGeneratorErrors checks the generators Spark rejects.
func TestCheckGeneratorErrors(t *testing.T) {
	tests := []struct{ query, want string }{
		{"SELECT explode(arr), explode(arr) FROM nums", `21-33 UNSUPPORTED_GENERATOR.MULTI_GENERATOR only one generator is allowed in a SELECT list (use LATERAL VIEW for the others)`},
		{"SELECT size(explode(arr)) FROM nums", `12-24 UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS generator explode is only allowed alone in a SELECT item or in LATERAL VIEW (give it a SELECT item of its own, or use LATERAL VIEW)`},
		{"SELECT i FROM nums WHERE explode(arr) > 1", `25-37 UNSUPPORTED_GENERATOR.OUTSIDE_SELECT generator explode is only allowed alone in a SELECT item or in LATERAL VIEW (give it a SELECT item of its own, or use LATERAL VIEW)`},
		{"SELECT explode(i) FROM nums", `15-16 DATATYPE_MISMATCH explode needs an ARRAY or a MAP, not INT`},
		{"SELECT explode(m) AS k FROM nums", `21-22 UDTF_ALIAS_NUMBER_MISMATCH explode yields 2 columns but 1 names are given (give 2 names, e.g. AS (key, value))`},
		{"SELECT inline(arr) FROM nums", `14-17 DATATYPE_MISMATCH inline needs an array of structs, not ARRAY<INT>`},
		{"SELECT explode(arr), count(*) FROM nums", `7-19 UNSUPPORTED_FEATURE a generator in a SELECT list with aggregation is not supported yet (aggregate in a subquery, then explode in the outer query)`},
		{"SELECT i FROM nums LATERAL VIEW upper(str) t AS u", `32-42 NOT_A_GENERATOR upper is not a generator function (use explode, posexplode, inline or their _outer forms)`},
		{"SELECT i FROM nums LATERAL VIEW explode(m) t AS k", `48-49 UDTF_ALIAS_NUMBER_MISMATCH explode yields 2 columns but 1 names are given (give 2 names, e.g. AS (key, value))`},
		{"SELECT i AS (a, b) FROM nums", `13-17 MULTI_ALIAS_WITHOUT_GENERATOR AS (...) names the columns of a generator such as explode; this item is one column (give the item one name)`},
		{"SELECT x FROM nums LATERAL VIEW explode(arr) t AS y", `7-8 UNRESOLVED_COLUMN column "x" does not exist`},
	}
	checkErrorCases(t, tests)
}
