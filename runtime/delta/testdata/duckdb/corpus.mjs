// corpus.mjs: run a batch of DuckDB queries for pipegen's differential SQL
// corpus (gen/difftest) in one process and print their rows.
//
// usage: node corpus.mjs <batch.json>
//
// The batch is {"timezone": "...", "setup": ["CREATE TABLE ...", ...],
// "queries": [{"name": "...", "sql": "..."}, ...]}. Output: one JSON line
// per result row, {"q": name, "row": <to_json of the row, timestamps in UTC>}, or one
// {"q": name, "error": message} when the query fails. Relative paths in
// the SQL resolve against the working directory.
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: node corpus.mjs <batch.json>');
  process.exit(2);
}
const batch = JSON.parse(readFileSync(file, 'utf8'));
const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
await con.run(`SET TimeZone = '${batch.timezone ?? 'UTC'}'`);
for (const s of batch.setup ?? []) await con.run(s);
const tz = batch.timezone ?? 'UTC';
const out = [];
for (const q of batch.queries) {
  try {
    // The query runs in the batch's time zone; its rows are rendered in UTC
    // (TIMESTAMPTZ as ...+00), the form deltatest.RowValues reads.
    await con.run(`CREATE OR REPLACE TEMP TABLE corpus_result_ AS SELECT * FROM (${q.sql})`);
    await con.run("SET TimeZone = 'UTC'");
    const rows = (await con.runAndReadAll('SELECT CAST(to_json(corpus_row_) AS VARCHAR) AS j FROM corpus_result_ corpus_row_')).getRows();
    for (const r of rows) out.push(JSON.stringify({ q: q.name, row: r[0] }));
  } catch (e) {
    out.push(JSON.stringify({ q: q.name, error: String(e?.message ?? e) }));
  } finally {
    await con.run(`SET TimeZone = '${tz}'`);
  }
}
process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
