-- LATERAL VIEW explode is DuckDB's unnest.
SELECT id, c.sha AS sha, c.author.name AS author, length(c.message) AS message_length
FROM (SELECT id, unnest(payload.commits) AS c
      FROM read_json('../../data/github_events/*.json', format = 'newline_delimited',
                     columns = {id: 'VARCHAR', type: 'VARCHAR',
                                payload: 'STRUCT(commits STRUCT(sha VARCHAR, author STRUCT(name VARCHAR, email VARCHAR), message VARCHAR, "distinct" BOOLEAN)[])'})
      WHERE type = 'PushEvent')
