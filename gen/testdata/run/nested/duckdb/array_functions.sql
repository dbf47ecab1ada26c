-- Spark semantics spelled in DuckDB:
--   * array_distinct keeps the first of equal elements, in order, and one
--     NULL; DuckDB's list_distinct drops NULLs and the order: list_filter
--     with list_position (which finds NULL).
--   * sort_array puts NULLs first ascending and last descending.
--   * flatten is NULL when an inner array is; DuckDB's skips NULL lists.
--   * slice(xs, start, n) is 1-based with a length; DuckDB's list_slice
--     takes an inclusive end, and a negative start past the front gives an
--     empty array in Spark.
--   * sequence counts down by -1 when start > stop; generate_series needs
--     the step.
--   * arrays_zip names the fields after the columns and pads with NULLs.
--   * array_join of only NULL elements is '' in Spark, NULL in DuckDB.
WITH a AS (
  SELECT * FROM read_json('../lambdas/data/arrays.json', format = 'newline_delimited',
                          columns = {id: 'INTEGER', xs: 'INTEGER[]', words: 'VARCHAR[]'})
)
SELECT id,
       list_filter(xs, lambda x, i: list_position(xs, x) = i) AS distinct_xs,
       CASE WHEN words IS NULL THEN NULL ELSE coalesce(array_to_string(words, ','), '') END AS joined,
       array_to_string(list_transform(words, lambda w: coalesce(w, '-')), ',') AS joined_nulls,
       CASE WHEN xs IS NULL THEN NULL ELSE coalesce(array_to_string(xs, '/'), '') END AS joined_ints,
       list_max(xs) AS max_x,
       list_min(words) AS min_word,
       list_sort(xs, 'ASC', 'NULLS FIRST') AS asc_xs,
       list_sort(xs, 'DESC', 'NULLS LAST') AS desc_xs,
       CASE WHEN xs IS NULL THEN NULL ELSE flatten([xs, xs]) END AS twice,
       list_slice(xs, 2, 3) AS middle,
       CASE WHEN xs IS NULL THEN NULL WHEN len(xs) >= 2 THEN list_slice(xs, len(xs) - 1, len(xs)) ELSE [] END AS last_two,
       generate_series(1, id) AS up,
       generate_series(id, 1, -1) AS down,
       generate_series(0, id * 10, 4) AS by_four,
       list_transform(range(greatest(len(xs), len(words))), lambda i: {'xs': xs[i + 1], 'words': words[i + 1]}) AS zipped
FROM a
