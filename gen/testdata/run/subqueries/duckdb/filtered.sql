-- The same query: WHERE keeps only TRUE (a NULL IN drops the row).
WITH a AS (SELECT * FROM read_json('data/a.json', columns = {k: 'INTEGER', s: 'VARCHAR'})),
     b AS (SELECT * FROM read_json('data/b.json', columns = {k: 'BIGINT', s: 'VARCHAR'}))
SELECT k, s FROM a
WHERE s IN (SELECT s FROM b) AND k >= (SELECT min(k) FROM b)
