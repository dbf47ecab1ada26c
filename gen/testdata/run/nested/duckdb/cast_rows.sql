-- Casts of nested values convert element by element and field by field.
WITH a AS (
  SELECT * FROM read_json('../lambdas/data/arrays.json', format = 'newline_delimited',
                          columns = {id: 'INTEGER', xs: 'INTEGER[]', pairs: 'STRUCT(k VARCHAR, v INTEGER)[]'})
)
SELECT id, CAST(xs AS VARCHAR[]) AS strs, CAST(pairs AS STRUCT(k VARCHAR, v BIGINT)[]) AS wide, {'a': [1]} AS s1 FROM a
UNION ALL
SELECT -1, [NULL]::VARCHAR[], NULL, {'a': [NULL]::INTEGER[]} FROM a WHERE id = 1
