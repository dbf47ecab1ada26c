-- flatten is NULL when an inner array is NULL (DuckDB skips it).
SELECT id,
       map_keys(attrs) AS keys,
       map_values(attrs) AS vals,
       attrs AS rebuilt,
       CASE WHEN list_bool_or(list_transform(tags, lambda t: t IS NULL)) THEN NULL ELSE flatten(tags) END AS all_tags,
       cardinality(attrs) AS n
FROM read_json('data/maps.json', format = 'newline_delimited',
               columns = {id: 'INTEGER', attrs: 'MAP(VARCHAR, INTEGER)', tags: 'VARCHAR[][]'})
