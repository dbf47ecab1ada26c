-- Spark's array_sort puts NULLs last; DuckDB's list_sort first by default.
SELECT id,
       list_transform(payload.commits, lambda c: c.sha) AS shas,
       list_transform(payload.commits, lambda c: c.author.name) AS authors,
       list_transform(payload.commits, lambda c: substring(c.sha, 1, 7)) AS short_shas,
       list_transform(list_filter(payload.commits, lambda c: c."distinct"), lambda c: c.message) AS distinct_messages,
       CASE WHEN payload.commits IS NULL THEN NULL
            WHEN len(list_filter(payload.commits, lambda c: c.message LIKE '%fix%')) > 0 THEN true
            WHEN len(list_filter(payload.commits, lambda c: (c.message LIKE '%fix%') IS NULL)) > 0 THEN NULL
            ELSE false END AS mentions_fix,
       CASE WHEN payload.commits IS NULL THEN NULL
            WHEN len(list_filter(payload.commits, lambda c: NOT c."distinct")) > 0 THEN false
            WHEN len(list_filter(payload.commits, lambda c: c."distinct" IS NULL)) > 0 THEN NULL
            ELSE true END AS all_distinct,
       list_reduce(list_transform(payload.commits, lambda c: length(c.message)), lambda acc, x: acc + x, 0) AS message_chars,
       list_sort(list_transform(payload.commits, lambda c: c.author.name), 'ASC', 'NULLS LAST') AS authors_sorted
FROM read_json('../../data/github_events/*.json', format = 'newline_delimited',
               columns = {id: 'VARCHAR', type: 'VARCHAR',
                          payload: 'STRUCT(size INTEGER, ref VARCHAR, commits STRUCT(sha VARCHAR, author STRUCT(name VARCHAR, email VARCHAR), message VARCHAR, "distinct" BOOLEAN)[])'})
WHERE type = 'PushEvent'
