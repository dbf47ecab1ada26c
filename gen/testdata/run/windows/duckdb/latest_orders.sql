SELECT user_id, id, order_date, status
FROM read_csv('../../data/jaffle_shop/orders/*.csv', header = true,
              columns = {id: 'INTEGER', user_id: 'INTEGER', order_date: 'DATE', status: 'VARCHAR'})
QUALIFY row_number() OVER (PARTITION BY user_id ORDER BY order_date DESC, id DESC) = 1
