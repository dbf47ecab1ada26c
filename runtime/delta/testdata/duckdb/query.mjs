// query.mjs: run one DuckDB query and print its rows, one JSON object per
// row (to_json of the row), for tests that compare pipegen's results with
// DuckDB's (runtime/delta/deltatest.QueryRows). The session time zone is
// UTC; relative file paths resolve against the working directory.
//
// usage: node query.mjs <sql>
import { DuckDBInstance } from '@duckdb/node-api';

const [sql] = process.argv.slice(2);
if (!sql) {
  console.error('usage: node query.mjs <sql>');
  process.exit(2);
}
const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
await con.run("SET TimeZone = 'UTC'");
const rows = (await con.runAndReadAll(`SELECT CAST(to_json(q) AS VARCHAR) AS j FROM (${sql}) q`)).getRows().map((r) => r[0]);
rows.sort();
for (const r of rows) console.log(r);
