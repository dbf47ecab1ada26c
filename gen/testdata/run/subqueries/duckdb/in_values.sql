-- The same query over the same files: DuckDB's IN / NOT IN / EXISTS and
-- scalar subqueries follow the SQL standard, as Spark's do.
WITH a AS (SELECT * FROM read_json('data/a.json', columns = {k: 'INTEGER', s: 'VARCHAR'})),
     b AS (SELECT * FROM read_json('data/b.json', columns = {k: 'BIGINT', s: 'VARCHAR'}))
SELECT k, s,
       k IN (SELECT k FROM b) AS in_b,
       k NOT IN (SELECT k FROM b) AS not_in_b,
       k NOT IN (SELECT k FROM b WHERE k IS NOT NULL) AS not_in_b_nonnull,
       k IN (SELECT k FROM b WHERE k > 100) AS in_empty,
       EXISTS (SELECT 1 FROM b WHERE k = 4) AS has_4,
       NOT EXISTS (SELECT 1 FROM b WHERE k > 100) AS none_big,
       (SELECT max(k) FROM b) AS max_b,
       (SELECT k FROM b WHERE k > 100) AS scalar_empty
FROM a
