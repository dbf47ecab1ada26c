-- DuckDB also binds INTERSECT tighter than UNION and EXCEPT.
SELECT k FROM read_json('data/b.json', columns = {k: 'BIGINT', s: 'VARCHAR'})
UNION ALL
SELECT CAST(k AS BIGINT) FROM read_json('data/a.json', columns = {k: 'INTEGER', s: 'VARCHAR'})
INTERSECT
SELECT k FROM read_json('data/b.json', columns = {k: 'BIGINT', s: 'VARCHAR'})
EXCEPT
SELECT k + 10 FROM read_json('data/b.json', columns = {k: 'BIGINT', s: 'VARCHAR'})
