-- NULL keys: Spark puts NULLs first in ascending order (written out for
-- DuckDB); a NULL partition key is one partition in both. first_value(v,
-- true) and first(v IGNORE NULLS) are DuckDB's first_value(v IGNORE NULLS).
SELECT k, ts, v,
       row_number() OVER (PARTITION BY k ORDER BY ts NULLS FIRST, v NULLS FIRST) AS rn,
       rank() OVER (PARTITION BY k ORDER BY ts NULLS FIRST) AS r,
       sum(v) OVER (PARTITION BY k ORDER BY ts NULLS FIRST) AS running,
       count(v) OVER (PARTITION BY k ORDER BY ts NULLS FIRST RANGE BETWEEN INTERVAL 2 HOURS PRECEDING AND CURRENT ROW) AS recent,
       first_value(v IGNORE NULLS) OVER (PARTITION BY k ORDER BY ts NULLS FIRST, v NULLS FIRST) AS first_known,
       last_value(v) OVER (PARTITION BY k ORDER BY ts NULLS FIRST, v NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_v,
       last_value(v IGNORE NULLS) OVER (PARTITION BY k ORDER BY ts NULLS FIRST, v NULLS FIRST) AS last_known,
       first_value(v IGNORE NULLS) OVER (PARTITION BY k ORDER BY ts DESC NULLS LAST, v DESC NULLS LAST) AS latest_known,
       lag(v, 1, 0) OVER (PARTITION BY k ORDER BY ts NULLS FIRST, v NULLS FIRST) AS prev_v
FROM read_json('data/readings.json', format = 'newline_delimited',
               columns = {k: 'VARCHAR', ts: 'TIMESTAMPTZ', v: 'INTEGER'})
