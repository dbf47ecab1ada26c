-- DuckDB's INTERSECT compares rows null-safe, as Spark does.
SELECT CAST(k AS BIGINT) AS k, s FROM read_json('data/a.json', columns = {k: 'INTEGER', s: 'VARCHAR'})
INTERSECT
SELECT k, s FROM read_json('data/b.json', columns = {k: 'BIGINT', s: 'VARCHAR'})
