-- Spark sorts NULLs first in ascending order, DuckDB last: NULLS FIRST is
-- written out (no key here is NULL, but the rule holds for every query).
SELECT id, user_id, order_date, status,
       row_number() OVER (PARTITION BY user_id ORDER BY order_date NULLS FIRST, id NULLS FIRST) AS order_seq,
       rank() OVER (ORDER BY order_date NULLS FIRST) AS date_rank,
       dense_rank() OVER (ORDER BY order_date NULLS FIRST) AS date_dense_rank,
       percent_rank() OVER (PARTITION BY status ORDER BY order_date NULLS FIRST) AS pct,
       cume_dist() OVER (PARTITION BY status ORDER BY order_date NULLS FIRST) AS cume,
       ntile(4) OVER (ORDER BY id NULLS FIRST) AS quartile,
       ntile(7) OVER (PARTITION BY status ORDER BY id NULLS FIRST) AS septile,
       lag(order_date) OVER (PARTITION BY user_id ORDER BY order_date NULLS FIRST, id NULLS FIRST) AS prev_date,
       lead(id, 2, -1) OVER (ORDER BY id NULLS FIRST) AS id_after_next,
       count(*) OVER (PARTITION BY user_id) AS user_orders,
       first_value(status) OVER (PARTITION BY user_id ORDER BY order_date NULLS FIRST, id NULLS FIRST) AS first_status,
       max(id) OVER (PARTITION BY status ORDER BY order_date NULLS FIRST) AS max_id_so_far
FROM read_csv('../../data/jaffle_shop/orders/*.csv', header = true,
              columns = {id: 'INTEGER', user_id: 'INTEGER', order_date: 'DATE', status: 'VARCHAR'})
