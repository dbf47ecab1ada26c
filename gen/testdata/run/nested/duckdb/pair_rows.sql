-- inline_outer: a NULL struct element gives a row of NULLs (as DuckDB's
-- unnest does); a NULL or empty array one row of NULLs (DuckDB: none).
WITH a AS (
  SELECT id, pairs FROM read_json('../lambdas/data/arrays.json', format = 'newline_delimited',
                                  columns = {id: 'INTEGER', pairs: 'STRUCT(k VARCHAR, v INTEGER)[]'})
)
SELECT id, p.k AS k, p.v AS v FROM (SELECT id, unnest(pairs) AS p FROM a)
UNION ALL
SELECT id, NULL, NULL FROM a WHERE pairs IS NULL OR len(pairs) = 0
