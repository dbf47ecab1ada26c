// read_delta.mjs: print the live rows of a Delta table as DuckDB reads them,
// replaying the _delta_log with DuckDB's built-in JSON and Parquet readers
// (no delta extension). It is the independent oracle of pipegen's Delta
// cross-check tests (runtime/delta/deltatest).
//
// usage: node read_delta.mjs <table dir> [version] [<table dir> [version]]...
//
// Output: one JSON object per live row (to_json of the row, columns in schema
// order, BINARY columns as hex), sorted. Only JSON commits are replayed
// (tables whose early commits were cleaned up after a checkpoint are not
// supported); partition values come from the log's add actions. A
// partitioned table must also follow the protocol's layout (see
// checkPartitionLayout), or the script fails. With
// several tables (one DuckDB for all: starting it costs more than reading a
// small table), each table's rows follow a line `=== <table dir>`.
import { DuckDBInstance } from '@duckdb/node-api';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node read_delta.mjs <table dir> [version] [<table dir> [version]]...');
  process.exit(2);
}
const jobs = [];
for (let i = 0; i < args.length; ) {
  const table = args[i++];
  let version = null;
  if (i < args.length && /^-?\d+$/.test(args[i])) {
    const v = args[i++];
    version = v === '-1' ? null : BigInt(v);
  }
  jobs.push([table, version]);
}

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
await con.run("SET TimeZone = 'UTC'");

const q = (s) => "'" + String(s).replaceAll("'", "''") + "'";
const ident = (s) => '"' + String(s).replaceAll('"', '""') + '"';

for (const [table, version] of jobs) {
  if (jobs.length > 1) console.log(`=== ${table}`);
  for (const r of await readTable(table, version)) console.log(r);
}

// readTable returns the live rows of the table at version (null: latest),
// sorted.
async function readTable(table, version) {
  const logGlob = table.replace(/\/+$/, '') + '/_delta_log/*.json';
  await con.run(`
    CREATE OR REPLACE TEMP TABLE actions AS
    SELECT CAST(regexp_extract(filename, '(\\d{20})\\.json$', 1) AS BIGINT) AS version, json
    FROM read_ndjson_objects(${q(logGlob)}, filename = true)
    WHERE regexp_matches(filename, '\\d{20}\\.json$')
      ${version === null ? '' : `AND CAST(regexp_extract(filename, '(\\d{20})\\.json$', 1) AS BIGINT) <= ${version}`}
  `);

  const meta = (await con.runAndReadAll(`
    SELECT json ->> '$.metaData.schemaString', CAST(json -> '$.metaData.partitionColumns' AS VARCHAR)
    FROM actions WHERE json_extract(json, '$.metaData') IS NOT NULL ORDER BY version DESC LIMIT 1
  `)).getRows();
  if (meta.length === 0) {
    console.error(`table ${table}: no metaData action in the log`);
    process.exit(1);
  }
  const fields = JSON.parse(meta[0][0]).fields;
  const partitionColumns = JSON.parse(meta[0][1] ?? '[]');

  // Live files: the latest add or remove of each (URI-decoded) path wins.
  const live = (await con.runAndReadAll(`
    WITH acts AS (
      SELECT version,
             url_decode(COALESCE(json ->> '$.add.path', json ->> '$.remove.path')) AS path,
             CAST(json -> '$.add.partitionValues' AS VARCHAR) AS pv,
             json_extract(json, '$.add') IS NOT NULL AS is_add
      FROM actions
      WHERE json_extract(json, '$.add') IS NOT NULL OR json_extract(json, '$.remove') IS NOT NULL
    )
    SELECT path, pv FROM acts
    QUALIFY row_number() OVER (PARTITION BY path ORDER BY version DESC) = 1 AND is_add
    ORDER BY path
  `)).getRows();
  if (live.length === 0) return [];

  const duckType = (t) => {
    if (typeof t !== 'string') throw new Error('nested partition column type');
    const simple = {
      integer: 'INTEGER', long: 'BIGINT', short: 'SMALLINT', byte: 'TINYINT', float: 'FLOAT', double: 'DOUBLE',
      boolean: 'BOOLEAN', string: 'VARCHAR', binary: 'BLOB', date: 'DATE', timestamp: 'TIMESTAMPTZ',
      timestamp_ntz: 'TIMESTAMP',
    };
    if (simple[t]) return simple[t];
    if (t.startsWith('decimal')) return t.toUpperCase();
    throw new Error(`unsupported partition column type ${t}`);
  };

  const root = table.replace(/\/+$/, '');
  const files = live.map(([path]) => (path.startsWith('/') ? path : root + '/' + path));
  const fileList = '[' + files.map(q).join(', ') + ']';
  // hive_partitioning = false: the columns are the data files' own, not
  // guessed from folder names.
  const present = new Set(
    (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${fileList}, union_by_name = true, hive_partitioning = false)`))
      .getRows().map((r) => String(r[0]).toLowerCase()));

  const isPartition = (name) => partitionColumns.some((c) => c.toLowerCase() === name.toLowerCase());
  if (partitionColumns.length > 0) await checkPartitionLayout(table, root, partitionColumns, live, files, present);
  const pvRows = live.map(([, pv], i) => {
    const values = JSON.parse(pv ?? '{}') ?? {};
    const cells = partitionColumns.map((c) => (values[c] === null || values[c] === undefined ? 'NULL' : q(values[c])));
    return `(${q(files[i])}${cells.map((c) => ', ' + c).join('')})`;
  });
  const pvCols = ['filename', ...partitionColumns.map((c, i) => `p${i}`)];

  const exprs = fields.map((f) => {
    let e;
    if (isPartition(f.name)) {
      const i = partitionColumns.findIndex((c) => c.toLowerCase() === f.name.toLowerCase());
      e = f.type === 'binary'
        ? `encode(NULLIF(pv.p${i}, ''))`
        : `CAST(NULLIF(pv.p${i}, '') AS ${duckType(f.type)})`;
    } else if (present.has(f.name.toLowerCase())) {
      e = `t.${ident(f.name)}`;
    } else {
      e = 'NULL';
    }
    if (f.type === 'binary') e = `hex(${e})`;
    return `${ident(f.name)} := ${e}`;
  });

  const sql = `
    SELECT CAST(to_json(struct_pack(${exprs.join(', ')})) AS VARCHAR) AS j
    FROM read_parquet(${fileList}, union_by_name = true, filename = true, hive_partitioning = false) t
    JOIN (VALUES ${pvRows.join(', ')}) pv(${pvCols.join(', ')}) ON t.filename = pv.filename
  `;
  const rows = (await con.runAndReadAll(sql)).getRows().map((r) => r[0]);
  rows.sort();
  return rows;
}

// checkPartitionLayout fails the script unless a partitioned table's live
// files follow the protocol and Spark's layout: every add has a value (or
// null) for every partition column; no data file holds a partition column
// (Spark, Databricks and delta-rs never store them, and readers that take
// the column from the file would disagree with the log); and where a
// file's path has Hive-style folders `col=value/` for the partition
// columns, DuckDB's Hive-partitioning reader decodes from them the values
// the log holds (escaping as Spark's escapePathName, NULL as
// __HIVE_DEFAULT_PARTITION__).
async function checkPartitionLayout(table, root, partitionColumns, live, files, present) {
  const errors = [];
  const logValues = live.map(([path, pv]) => {
    const values = JSON.parse(pv ?? '{}') ?? {};
    for (const c of partitionColumns) {
      if (!(c in values)) errors.push(`add ${path} has no partition value for column ${c}`);
    }
    return values;
  });
  for (const c of partitionColumns) {
    if (present.has(c.toLowerCase())) errors.push(`partition column ${c} is stored in the data files`);
  }
  const hive = [];
  live.forEach(([path], i) => {
    const segs = path.split('/');
    const dirs = segs.slice(0, -1).slice(-partitionColumns.length);
    if (dirs.length === partitionColumns.length &&
        dirs.every((d, j) => d.toLowerCase().startsWith(partitionColumns[j].toLowerCase() + '='))) hive.push(i);
  });
  for (const i of hive) {
    const cols = partitionColumns.map((c) => `CAST(${ident(c)} AS VARCHAR)`).join(', ');
    const rows = (await con.runAndReadAll(`
      SELECT DISTINCT ${cols}
      FROM read_parquet(${q(files[i])}, hive_partitioning = true, hive_types_autocast = false)
    `)).getRows();
    for (const r of rows) {
      partitionColumns.forEach((c, j) => {
        const folder = r[j] === null ? null : String(r[j]);
        const log = logValues[i][c] === undefined || logValues[i][c] === '' ? null : logValues[i][c];
        // DuckDB reads a folder value spelled "null" as NULL too.
        if (folder !== log && !(folder === null && String(log).toLowerCase() === 'null')) {
          errors.push(`file ${live[i][0]}: its folder says ${c}=${JSON.stringify(folder)}, the log ${JSON.stringify(log)}`);
        }
      });
    }
  }
  if (errors.length > 0) {
    console.error(`table ${table}: the partitioned layout does not follow the protocol:\n  ${errors.join('\n  ')}`);
    process.exit(1);
  }
}
