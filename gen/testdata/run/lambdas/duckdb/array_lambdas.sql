-- The same results in DuckDB, Spark's semantics spelled out where the
-- dialects differ:
--   * DuckDB lambda indexes are 1-based, Spark's 0-based: i - 1.
--   * exists/forall are three-valued in Spark (NULL when no element decides
--     and some predicate is NULL); DuckDB has no such function: CASE.
--   * DuckDB's list_sort puts NULLs first by default, Spark's array_sort
--     last: 'NULLS LAST'.
--   * Spark's concat is NULL when an argument is; DuckDB's skips NULLs: ||.
--   * array_sort with a comparator has no DuckDB counterpart: list_sort DESC.
--   * DuckDB's list_reduce wants the start value of the elements' type: the
--     elements are cast first, or the fold is written as array_to_string.
SELECT id,
       list_transform(xs, lambda x: x * 2::BIGINT) AS doubled,
       list_transform(xs, lambda x, i: i - 1) AS idx,
       list_filter(xs, lambda x: x > 1) AS big,
       list_filter(xs, lambda x, i: (i - 1) % 2 = 0) AS even_pos,
       CASE WHEN xs IS NULL THEN NULL
            WHEN len(list_filter(xs, lambda x: x > 2)) > 0 THEN true
            WHEN len(list_filter(xs, lambda x: (x > 2) IS NULL)) > 0 THEN NULL
            ELSE false END AS any_gt2,
       CASE WHEN xs IS NULL THEN NULL
            WHEN len(list_filter(xs, lambda x: NOT (x > 0))) > 0 THEN false
            WHEN len(list_filter(xs, lambda x: (x > 0) IS NULL)) > 0 THEN NULL
            ELSE true END AS all_pos,
       list_reduce(list_transform(xs, lambda x: x::BIGINT), lambda acc, x: acc + x, 0::BIGINT) AS total,
       list_reduce(list_transform(xs, lambda x: x::BIGINT), lambda acc, x: acc + coalesce(x, 0), 0::BIGINT) * 10 AS total10,
       list_sort(xs, 'ASC', 'NULLS LAST') AS sorted,
       list_sort(list_filter(xs, lambda x: x IS NOT NULL), 'DESC') AS sorted_desc,
       list_sort(words, 'ASC', 'NULLS LAST') AS words_sorted,
       list_transform(pairs, lambda p: p.k) AS keys,
       list_transform(pairs, lambda p: p.v + 1) AS vs,
       array_to_string(list_transform(pairs, lambda p: coalesce(p.k, '?')), '') AS keys_joined,
       list_transform(xs, lambda x: list_transform(words, lambda w: w || CAST(x AS VARCHAR))) AS nested
FROM read_json('data/arrays.json', format = 'newline_delimited',
               columns = {id: 'INTEGER', xs: 'INTEGER[]', words: 'VARCHAR[]', pairs: 'STRUCT(k VARCHAR, v INTEGER)[]'})
