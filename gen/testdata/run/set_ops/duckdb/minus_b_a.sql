-- MINUS ALL is EXCEPT ALL.
SELECT k, s FROM read_json('data/b.json', columns = {k: 'BIGINT', s: 'VARCHAR'})
EXCEPT ALL
SELECT CAST(k AS BIGINT) AS k, s FROM read_json('data/a.json', columns = {k: 'INTEGER', s: 'VARCHAR'})
