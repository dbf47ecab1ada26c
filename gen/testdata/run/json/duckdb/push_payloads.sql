-- get_json_object is json_extract_string; to_json writes compact JSON in
-- both engines. from_json(...).commits.sha is the wildcard extraction.
SELECT id,
       json_extract_string(payload, '$.commits[0].author.name') AS first_author,
       CAST(json_extract_string(payload, '$.size') AS INTEGER) AS size,
       json_extract_string(payload, '$.commits[*].sha') AS shas,
       CAST(to_json(struct_pack(id := id, n := json_array_length(payload, '$.commits'))) AS VARCHAR) AS summary
FROM read_json('../../data/github_events/*.json', format = 'newline_delimited',
               columns = {id: 'VARCHAR', type: 'VARCHAR', payload: 'JSON'})
WHERE type = 'PushEvent'
