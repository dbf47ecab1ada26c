-- LATERAL VIEW OUTER explode(xs) keeps rows with a NULL or empty xs (x
-- NULL); the plain LATERAL VIEW explode(words) then drops rows whose words
-- are NULL or empty. DuckDB's unnest drops them, so the outer side is a
-- UNION.
WITH a AS (
  SELECT id, xs, words FROM read_json('../lambdas/data/arrays.json', format = 'newline_delimited',
                                      columns = {id: 'INTEGER', xs: 'INTEGER[]', words: 'VARCHAR[]'})
), ax AS (
  SELECT id, unnest(xs) AS x, words FROM a
  UNION ALL
  SELECT id, NULL, words FROM a WHERE xs IS NULL OR len(xs) = 0
)
SELECT id, x, unnest(words) AS w FROM ax
