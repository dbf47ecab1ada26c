-- Ascending keys are NULLS FIRST in Spark (written out for DuckDB).
SELECT id, order_id, amount,
       sum(amount) OVER (ORDER BY id NULLS FIRST) AS running,
       sum(amount) OVER (ORDER BY id NULLS FIRST ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS last3,
       avg(amount) OVER (PARTITION BY payment_method) AS method_avg,
       max(amount) OVER (ORDER BY id NULLS FIRST ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) AS next3_max,
       count(*) OVER (ORDER BY amount NULLS FIRST RANGE BETWEEN 100 PRECEDING AND 100 FOLLOWING) AS near_amount,
       min(amount) OVER (PARTITION BY order_id ORDER BY id NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS order_min,
       nth_value(amount, 2) OVER (PARTITION BY payment_method ORDER BY id NULLS FIRST) AS second_amount,
       list(id) OVER (PARTITION BY order_id ORDER BY id DESC) AS later_ids
FROM read_csv('../../data/jaffle_shop/payments/*.csv', header = true,
              columns = {id: 'INTEGER', order_id: 'INTEGER', payment_method: 'VARCHAR', amount: 'INTEGER'})
