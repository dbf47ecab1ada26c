-- explode of a MAP yields key and value (DuckDB: unnest of map_entries).
SELECT id, e.key AS key, e.value AS value
FROM (SELECT id, unnest(map_entries(attrs)) AS e
      FROM read_json('data/maps.json', format = 'newline_delimited',
                     columns = {id: 'INTEGER', attrs: 'MAP(VARCHAR, INTEGER)'}))
