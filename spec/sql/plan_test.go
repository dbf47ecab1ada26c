package sql

import (
	"testing"
)

// TestPlanShapes checks the operator trees of plan.go's conventions.
func TestPlanShapes(t *testing.T) {
	runCheckCases(t, []checkCase{
		{`SELECT customer_id, sum(amount) AS total FROM orders_silver WHERE amount > 0 GROUP BY customer_id HAVING sum(amount) > 100 AND count(*) > 1 ORDER BY total DESC LIMIT 5`, `
Limit 5 -> customer_id STRING, total DECIMAL(22,2)
  Sort [total#1 DESC NULLS LAST] -> customer_id STRING, total DECIMAL(22,2)
    Project [customer_id#0 AS customer_id, sum(amount)#1 AS total] -> customer_id STRING, total DECIMAL(22,2)
      Filter ((sum(amount)#1 > CAST(100 AS DECIMAL(22,2))) AND (count(1)#2 > CAST(1 AS BIGINT))) -> customer_id STRING, ` + "`sum(amount)`" + ` DECIMAL(22,2), ` + "`count(1)`" + ` BIGINT NOT NULL
        Aggregate groups=[customer_id#1] aggs=[sum(amount#2), count(*)] -> customer_id STRING, ` + "`sum(amount)`" + ` DECIMAL(22,2), ` + "`count(1)`" + ` BIGINT NOT NULL
          Filter (amount#2 > CAST(0 AS DECIMAL(12,2))) -> order_id STRING NOT NULL, customer_id STRING, amount DECIMAL(12,2), event_ts TIMESTAMP, order_date DATE
            Scan orders_silver -> order_id STRING NOT NULL, customer_id STRING, amount DECIMAL(12,2), event_ts TIMESTAMP, order_date DATE`},
		{`SELECT t1.a, t2.b FROM t1 JOIN t2 ON t2.id = t1.id AND t1.a > 'x' AND t1.x + 1 = t2.x AND (t1.a = t2.b OR t2.b IS NULL)`, `
Project [a#1 AS a, b#4 AS b] -> a STRING, b STRING
  Join INNER keys=[CAST(id#0 AS BIGINT) = id#0, (x#2 + CAST(1 AS BIGINT)) = CAST(x#2 AS BIGINT)] residual=((a#1 > "x") AND ((a#1 = b#4) OR (b#4 IS NULL))) -> id INT NOT NULL, a STRING, x BIGINT, id BIGINT NOT NULL, b STRING, x INT
    Scan t1 -> id INT NOT NULL, a STRING, x BIGINT
    Scan t2 -> id BIGINT NOT NULL, b STRING, x INT`},
		{`SELECT id, a, b FROM t1 FULL JOIN t2 USING (id)`, `
Project [id#0 AS id, a#1 AS a, b#3 AS b] -> id BIGINT, a STRING, b STRING
  Project [coalesce(CAST(id#0 AS BIGINT), id#3) AS id, a#1 AS a, x#2 AS x, b#4 AS b, x#5 AS x, id#0 AS id, id#3 AS id] -> id BIGINT, a STRING, x BIGINT, b STRING, x INT, id INT HIDDEN, id BIGINT HIDDEN
    Join FULL keys=[CAST(id#0 AS BIGINT) = id#0] -> id INT, a STRING, x BIGINT, id BIGINT, b STRING, x INT
      Scan t1 -> id INT NOT NULL, a STRING, x BIGINT
      Scan t2 -> id BIGINT NOT NULL, b STRING, x INT`},
		{`SELECT a FROM t1 WHERE id > 0 ORDER BY x, upper(a)`, `
Project [a#0 AS a] -> a STRING
  Sort [x#1 ASC NULLS FIRST, upper(a#0) ASC NULLS FIRST] -> a STRING, x BIGINT HIDDEN
    Project [a#1 AS a, x#2 AS x] -> a STRING, x BIGINT HIDDEN
      Filter (id#0 > 0) -> id INT NOT NULL, a STRING, x BIGINT
        Scan t1 -> id INT NOT NULL, a STRING, x BIGINT`},
		{`SELECT i FROM nums UNION ALL SELECT l FROM nums UNION ALL SELECT NULL`, `
Union ALL -> i BIGINT
  Project [CAST(i#0 AS BIGINT) AS i] -> i BIGINT NOT NULL
    Project [i#2 AS i] -> i INT NOT NULL
      Scan nums -> b TINYINT NOT NULL, s SMALLINT NOT NULL, i INT NOT NULL, l BIGINT NOT NULL, f FLOAT NOT NULL, d DOUBLE NOT NULL, d52 DECIMAL(5,2) NOT NULL, d102 DECIMAL(10,2), d380 DECIMAL(38,0), d3818 DECIMAL(38,18), str STRING, bool BOOLEAN, dt DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, bin BINARY, iv INTERVAL DAY TO SECOND, arr ARRAY<INT>, m MAP<STRING, BIGINT>, st STRUCT<x: INT NOT NULL, y: STRING>
  Project [l#3 AS l] -> l BIGINT NOT NULL
    Scan nums -> b TINYINT NOT NULL, s SMALLINT NOT NULL, i INT NOT NULL, l BIGINT NOT NULL, f FLOAT NOT NULL, d DOUBLE NOT NULL, d52 DECIMAL(5,2) NOT NULL, d102 DECIMAL(10,2), d380 DECIMAL(38,0), d3818 DECIMAL(38,18), str STRING, bool BOOLEAN, dt DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, bin BINARY, iv INTERVAL DAY TO SECOND, arr ARRAY<INT>, m MAP<STRING, BIGINT>, st STRUCT<x: INT NOT NULL, y: STRING>
  Project [CAST(NULL#0 AS BIGINT) AS NULL] -> NULL BIGINT
    Project [NULL AS NULL] -> NULL VOID
      Values [()] -> `},
		{`SELECT 1 UNION SELECT 2 UNION ALL SELECT 3`, `
Union ALL -> ` + "`1`" + ` INT NOT NULL
  Union DISTINCT -> ` + "`1`" + ` INT NOT NULL
    Project [1 AS ` + "`1`" + `] -> ` + "`1`" + ` INT NOT NULL
      Values [()] -> 
    Project [2 AS ` + "`2`" + `] -> ` + "`2`" + ` INT NOT NULL
      Values [()] -> 
  Project [3 AS ` + "`3`" + `] -> ` + "`3`" + ` INT NOT NULL
    Values [()] -> `},
		{`SELECT DISTINCT a FROM t1 ORDER BY a DESC NULLS FIRST`, `
Sort [a#0 DESC NULLS FIRST] -> a STRING
  Distinct -> a STRING
    Project [a#1 AS a] -> a STRING
      Scan t1 -> id INT NOT NULL, a STRING, x BIGINT`},
		{`SELECT a, x, count(*) FROM t1 GROUP BY CUBE(a, x)`, `
Project [a#0 AS a, x#1 AS x, count(1)#2 AS ` + "`count(1)`" + `] -> a STRING, x BIGINT, ` + "`count(1)`" + ` BIGINT NOT NULL
  Aggregate groups=[a#1, x#2] aggs=[count(*)] sets=[[0 1] [0] [1] []] -> a STRING, x BIGINT, ` + "`count(1)`" + ` BIGINT NOT NULL
    Scan t1 -> id INT NOT NULL, a STRING, x BIGINT`},
		{`SELECT id, count(*) FROM t1 GROUP BY ROLLUP(id)`, `
Project [id#0 AS id, count(1)#1 AS ` + "`count(1)`" + `] -> id INT, ` + "`count(1)`" + ` BIGINT NOT NULL
  Aggregate groups=[id#0] aggs=[count(*)] sets=[[0] []] -> id INT, ` + "`count(1)`" + ` BIGINT NOT NULL
    Scan t1 -> id INT NOT NULL, a STRING, x BIGINT`},
		{`SELECT * FROM big_orders o JOIN customers c ON o.order_id = c.customer_id`, `
Project [order_id#0 AS order_id, amount#1 AS amount, customer_id#2 AS customer_id, name#3 AS name, city#4 AS city, seq#5 AS seq] -> order_id STRING NOT NULL, amount DECIMAL(12,2), customer_id STRING NOT NULL, name STRING, city STRING, seq BIGINT NOT NULL
  Join INNER keys=[order_id#0 = customer_id#0] -> order_id STRING NOT NULL, amount DECIMAL(12,2), customer_id STRING NOT NULL, name STRING, city STRING, seq BIGINT NOT NULL
    Project [order_id#0 AS order_id, amount#2 AS amount] -> order_id STRING NOT NULL, amount DECIMAL(12,2)
      Filter (amount#2 > CAST(100 AS DECIMAL(12,2))) -> order_id STRING NOT NULL, customer_id STRING, amount DECIMAL(12,2), event_ts TIMESTAMP, order_date DATE
        Scan orders_silver -> order_id STRING NOT NULL, customer_id STRING, amount DECIMAL(12,2), event_ts TIMESTAMP, order_date DATE
    Scan customers -> customer_id STRING NOT NULL, name STRING, city STRING, seq BIGINT NOT NULL`},
		{`WITH a AS (SELECT id FROM t1) SELECT x.id FROM a x JOIN a y ON x.id = y.id`, `
Project [id#0 AS id] -> id INT NOT NULL
  Join INNER keys=[id#0 = id#0] -> id INT NOT NULL, id INT NOT NULL
    Project [id#0 AS id] -> id INT NOT NULL
      Scan t1 -> id INT NOT NULL, a STRING, x BIGINT
    Project [id#0 AS id] -> id INT NOT NULL
      Scan t1 -> id INT NOT NULL, a STRING, x BIGINT`},
		{`SELECT t1.a FROM t1 LEFT SEMI JOIN t2 USING (id)`, `
Project [a#1 AS a] -> a STRING
  Join LEFT SEMI keys=[CAST(id#0 AS BIGINT) = id#0] -> id INT NOT NULL, a STRING, x BIGINT
    Scan t1 -> id INT NOT NULL, a STRING, x BIGINT
    Scan t2 -> id BIGINT NOT NULL, b STRING, x INT`},
		{`SELECT 1 AS one`, `
Project [1 AS one] -> one INT NOT NULL
  Values [()] -> `},
	}, FormatPlan)
}
