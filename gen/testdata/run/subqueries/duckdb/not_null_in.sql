-- The same query: a NOT NULL value IN a subquery is TRUE when found,
-- NULL when not found and the subquery had a NULL, FALSE otherwise.
WITH a AS (SELECT * FROM read_json('data/a.json', columns = {k: 'INTEGER', s: 'VARCHAR'})),
     b AS (SELECT * FROM read_json('data/b.json', columns = {k: 'BIGINT', s: 'VARCHAR'}))
SELECT k, s,
       coalesce(k, 0) IN (SELECT k FROM b) AS in_b,
       coalesce(k, 0) NOT IN (SELECT k FROM b WHERE k IS NOT NULL) AS not_in_b_nonnull,
       4 IN (SELECT k FROM b) AS four_in_b
FROM a
