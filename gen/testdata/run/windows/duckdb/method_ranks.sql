SELECT payment_method, sum(amount) AS total,
       rank() OVER (ORDER BY sum(amount) DESC) AS r,
       sum(sum(amount)) OVER (ORDER BY sum(amount) DESC) AS cumulative
FROM read_csv('../../data/jaffle_shop/payments/*.csv', header = true,
              columns = {id: 'INTEGER', order_id: 'INTEGER', payment_method: 'VARCHAR', amount: 'INTEGER'})
GROUP BY payment_method
