-- posexplode_outer: 0-based positions (DuckDB lists are 1-based), and one
-- row of NULLs for a NULL or empty array (DuckDB's unnest yields none).
WITH ev AS (
  SELECT id, list_transform(payload.commits, lambda c: c.sha) AS shas
  FROM read_json('../../data/github_events/*.json', format = 'newline_delimited',
                 columns = {id: 'VARCHAR', type: 'VARCHAR',
                            payload: 'STRUCT(commits STRUCT(sha VARCHAR, author STRUCT(name VARCHAR, email VARCHAR), message VARCHAR, "distinct" BOOLEAN)[])'})
  WHERE type IN ('PushEvent', 'CreateEvent')
)
SELECT id, CAST(p - 1 AS INTEGER) AS pos, shas[p] AS sha FROM ev, unnest(generate_series(1, len(shas))) AS t(p)
UNION ALL
SELECT id, NULL, NULL FROM ev WHERE shas IS NULL OR len(shas) = 0
