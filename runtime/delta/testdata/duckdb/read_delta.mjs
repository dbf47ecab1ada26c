// read_delta.mjs: print the live rows of a Delta table as DuckDB reads them,
// replaying the _delta_log with DuckDB's built-in JSON and Parquet readers
// (no delta extension). It is the independent oracle of pipegen's Delta
// cross-check tests (runtime/delta/deltatest).
//
// usage: node read_delta.mjs [--where <sql>] <table dir> [version] [<table dir> [version]]...
//
// --where keeps only the rows satisfying a DuckDB condition over the
// table's columns (by their logical names), for tests of filtered reads.
//
// Output: one JSON object per live row (to_json of the row, columns in schema
// order, BINARY columns as hex), sorted. The replay starts from the newest
// complete checkpoint at or before the version (V1 single or multi-part
// Parquet, V2 UUID-named JSON or Parquet with its sidecars) and applies the
// JSON commits after it; partition values come from the log's add actions. The replay
// follows PROTOCOL.md: logical files are (canonical path, deletion vector
// id) pairs, rows a deletion vector deletes are left out
// (deletion_vectors.mjs), and under column mapping the columns are found by
// Parquet field id (id mode, top-level columns) or physical name, partition
// values by physical name. A partitioned table without column mapping must
// also follow the protocol's Hive-style layout (see checkPartitionLayout),
// or the script fails. With
// several tables (one DuckDB for all: starting it costs more than reading a
// small table), each table's rows follow a line `=== <table dir>`.
import { readdirSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { deletedRows } from './deletion_vectors.mjs';

const args = process.argv.slice(2);
let where = null;
if (args[0] === '--where') {
  where = args[1];
  args.splice(0, 2);
}
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

// checkpoint returns the newest complete checkpoint at or before version
// (null: any) of the log in logDir ("Checkpoints"): {version, sql}, sql
// selecting its actions as (version, json) rows like the commits', or null
// when there is none.
async function checkpoint(logDir, version) {
  const names = readdirSync(logDir);
  const byVersion = new Map(); // version -> {parts: Map(n -> [files]), v2: file}
  for (const name of names) {
    let m = name.match(/^(\d{20})\.checkpoint(?:\.(\d{10})\.(\d{10}))?\.parquet$/);
    const v2 = name.match(/^(\d{20})\.checkpoint\.[0-9a-f-]{36}\.(json|parquet)$/i);
    const v = BigInt((m ?? v2 ?? [])[1] ?? -1);
    if (v < 0n || (version !== null && v > version)) continue;
    if (!byVersion.has(v)) byVersion.set(v, { parts: new Map(), v2: null });
    const e = byVersion.get(v);
    if (v2) {
      e.v2 = name;
    } else {
      const n = m[3] ? Number(m[3]) : 1;
      if (!e.parts.has(n)) e.parts.set(n, []);
      e.parts.get(n).push(name);
    }
  }
  const versions = [...byVersion.keys()].sort((a, b) => (a < b ? 1 : -1));
  for (const v of versions) {
    const e = byVersion.get(v);
    let files = null;
    for (const [n, fs] of e.parts) if (fs.length === n) files = fs;
    if (files === null && e.v2 === null) continue; // an incomplete multi-part checkpoint
    let top;
    if (files === null && e.v2.endsWith('.json')) {
      top = `SELECT json FROM read_ndjson_objects(${q(logDir + '/' + e.v2)})`;
    } else {
      top = await parquetActions((files ?? [e.v2]).map((f) => logDir + '/' + f));
    }
    // V2 checkpoints name sidecar files holding their add and remove actions.
    const sidecars = (await con.runAndReadAll(`SELECT json ->> '$.sidecar.path' FROM (${top}) WHERE json_extract(json, '$.sidecar') IS NOT NULL`))
      .getRows().map((r) => logDir + '/_sidecars/' + decodeURIComponent(r[0]));
    let sql = `SELECT ${v} AS version, json FROM (${top})`;
    if (sidecars.length > 0) sql += ` UNION ALL SELECT ${v} AS version, json FROM (${await parquetActions(sidecars)})`;
    return { version: v, sql };
  }
  return null;
}

// parquetActions selects the actions of checkpoint Parquet files (one
// struct column per action kind, NULL where a row holds another kind) as
// JSON objects like those of the commits.
async function parquetActions(files) {
  const list = '[' + files.map(q).join(', ') + ']';
  const cols = new Set((await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${list}, union_by_name = true)`))
    .getRows().map((r) => String(r[0])));
  return ['add', 'remove', 'metaData', 'protocol', 'txn', 'sidecar'].filter((k) => cols.has(k))
    .map((k) => `SELECT CAST(json_object(${q(k)}, to_json(${ident(k)})) AS VARCHAR) AS json
      FROM read_parquet(${list}, union_by_name = true) WHERE ${ident(k)} IS NOT NULL`)
    .join(' UNION ALL ');
}

// readTable returns the live rows of the table at version (null: latest),
// sorted.
async function readTable(table, version) {
  const logDir = table.replace(/\/+$/, '') + '/_delta_log';
  const logGlob = logDir + '/*.json';
  const cp = await checkpoint(logDir, version);
  await con.run(`
    CREATE OR REPLACE TEMP TABLE actions AS
    ${cp === null ? '' : `${cp.sql} UNION ALL`}
    SELECT CAST(regexp_extract(filename, '(\\d{20})\\.json$', 1) AS BIGINT) AS version, json
    FROM read_ndjson_objects(${q(logGlob)}, filename = true)
    WHERE regexp_matches(filename, '\\d{20}\\.json$')
      ${version === null ? '' : `AND CAST(regexp_extract(filename, '(\\d{20})\\.json$', 1) AS BIGINT) <= ${version}`}
      ${cp === null ? '' : `AND CAST(regexp_extract(filename, '(\\d{20})\\.json$', 1) AS BIGINT) > ${cp.version}`}
  `);

  const meta = (await con.runAndReadAll(`
    SELECT json ->> '$.metaData.schemaString', CAST(json -> '$.metaData.partitionColumns' AS VARCHAR),
           json ->> '$.metaData.configuration."delta.columnMapping.mode"'
    FROM actions WHERE json_extract(json, '$.metaData') IS NOT NULL ORDER BY version DESC LIMIT 1
  `)).getRows();
  if (meta.length === 0) {
    console.error(`table ${table}: no metaData action in the log`);
    process.exit(1);
  }
  const fields = JSON.parse(meta[0][0]).fields;
  const mapped = meta[0][2] === 'name' || meta[0][2] === 'id';
  // physical is a field's name in the data files and partition values.
  const physical = (f) => (mapped && f.metadata?.['delta.columnMapping.physicalName']) || f.name;
  const partitionColumns = JSON.parse(meta[0][1] ?? '[]');

  // Live files: the latest add or remove of each logical file wins; a
  // logical file is its URI-decoded path (a file: URI and the absolute path
  // it names alike) with its deletion vector's id.
  const live = (await con.runAndReadAll(`
    WITH acts AS (
      SELECT version,
             regexp_replace(url_decode(COALESCE(json ->> '$.add.path', json ->> '$.remove.path')), '^file:(//)?(/)', '\\2') AS path,
             CAST(json -> '$.add.partitionValues' AS VARCHAR) AS pv,
             CAST(COALESCE(json -> '$.add.deletionVector', json -> '$.remove.deletionVector') AS VARCHAR) AS dv,
             json_extract(json, '$.add') IS NOT NULL AS is_add
      FROM actions
      WHERE json_extract(json, '$.add') IS NOT NULL OR json_extract(json, '$.remove') IS NOT NULL
    )
    SELECT path, pv, dv FROM acts
    QUALIFY row_number() OVER (PARTITION BY path, COALESCE(dv ->> '$.storageType' || (dv ->> '$.pathOrInlineDv') || COALESCE('@' || (dv ->> '$.offset'), ''), '') ORDER BY version DESC) = 1 AND is_add
    ORDER BY path
  `)).getRows();
  if (live.length === 0) return [];

  const duckType = (t) => {
    if (typeof t !== 'string') {
      // Nested types, for id-mode column mapping: fields by physical name.
      if (t.type === 'struct') return `STRUCT(${t.fields.map((f) => `${ident(physical(f))} ${duckType(f.type)}`).join(', ')})`;
      if (t.type === 'array') return `${duckType(t.elementType)}[]`;
      if (t.type === 'map') return `MAP(${duckType(t.keyType)}, ${duckType(t.valueType)})`;
      throw new Error(`unsupported type ${JSON.stringify(t)}`);
    }
    const simple = {
      integer: 'INTEGER', long: 'BIGINT', short: 'SMALLINT', byte: 'TINYINT', float: 'FLOAT', double: 'DOUBLE',
      boolean: 'BOOLEAN', string: 'VARCHAR', binary: 'BLOB', date: 'DATE', timestamp: 'TIMESTAMPTZ',
      timestamp_ntz: 'TIMESTAMP',
    };
    if (simple[t]) return simple[t];
    if (t.startsWith('decimal')) return t.toUpperCase();
    throw new Error(`unsupported partition column type ${t}`);
  };

  const isPartition = (name) => partitionColumns.some((c) => c.toLowerCase() === name.toLowerCase());
  const root = table.replace(/\/+$/, '');
  const files = live.map(([path]) => (path.startsWith('/') ? path : root + '/' + path));
  const fileList = '[' + files.map(q).join(', ') + ']';
  // In id mode columns are found by Parquet field id ("Reader Requirements
  // for Column Mapping"): DuckDB's schema parameter maps each field id to a
  // column (named by the physical name), NULL where a file lacks the id.
  // hive_partitioning = false: the columns are the data files' own, not
  // guessed from folder names.
  const byID = meta[0][2] === 'id'
    ? fields.filter((f) => !isPartition(f.name) && f.metadata?.['delta.columnMapping.id'] !== undefined)
    : [];
  const readOpts = (byID.length > 0
    ? `schema = map {${byID.map((f) => `${f.metadata['delta.columnMapping.id']}: {name: ${q(physical(f))}, type: ${q(duckType(f.type))}, default_value: NULL}`).join(', ')}}`
    : 'union_by_name = true') + ', hive_partitioning = false';
  const present = new Set(
    (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${fileList}, ${readOpts})`))
      .getRows().map((r) => String(r[0]).toLowerCase()));
  if (partitionColumns.length > 0 && !mapped) await checkPartitionLayout(table, root, partitionColumns, live, files, present);

  const fieldOf = (c) => fields.find((f) => f.name.toLowerCase() === c.toLowerCase());
  const pvRows = live.map(([, pv], i) => {
    const values = JSON.parse(pv ?? '{}') ?? {};
    const cells = partitionColumns.map((c) => {
      const v = values[fieldOf(c) ? physical(fieldOf(c)) : c];
      return v === null || v === undefined ? 'NULL' : q(v);
    });
    return `(${q(files[i])}${cells.map((c) => ', ' + c).join('')})`;
  });
  // The rows deletion vectors delete, as (file, row index) pairs.
  const deleted = [];
  live.forEach(([, , dv], i) => {
    const d = dv ? JSON.parse(dv) : null;
    if (d) for (const r of deletedRows(root, d)) deleted.push(`(${q(files[i])}, ${r})`);
  });
  const pvCols = ['filename', ...partitionColumns.map((c, i) => `p${i}`)];

  const exprs = fields.map((f) => {
    let e;
    if (isPartition(f.name)) {
      const i = partitionColumns.findIndex((c) => c.toLowerCase() === f.name.toLowerCase());
      e = f.type === 'binary'
        ? `encode(NULLIF(pv.p${i}, ''))`
        : `CAST(NULLIF(pv.p${i}, '') AS ${duckType(f.type)})`;
    } else if (present.has(physical(f).toLowerCase())) {
      e = logical(`t.${ident(physical(f))}`, f.type);
    } else {
      e = 'NULL';
    }
    if (f.type === 'binary') e = `hex(${e})`;
    return `${e} AS ${ident(f.name)}`;
  });

  const sql = `
    SELECT CAST(to_json(r) AS VARCHAR) AS j FROM (SELECT ${exprs.join(', ')}
    FROM read_parquet(${fileList}, ${readOpts}, filename = true, file_row_number = true) t
    JOIN (VALUES ${pvRows.join(', ')}) pv(${pvCols.join(', ')}) ON t.filename = pv.filename
    ${deleted.length === 0 ? '' : `ANTI JOIN (VALUES ${deleted.join(', ')}) d(filename, r)
      ON t.filename = d.filename AND t.file_row_number = d.r`}) r
    ${where === null ? '' : `WHERE ${where}`}
  `;
  const rows = (await con.runAndReadAll(sql)).getRows().map((r) => r[0]);
  rows.sort();
  return rows;

  // logical renames the nested fields of a value of Delta type t read from
  // a data file (physical names under column mapping) to the schema's, and
  // renders nested BINARY values as hex (top-level ones are hexed above).
  function logical(e, t) {
    const hasBinary = (t) => (t === 'binary' || (typeof t !== 'string' && JSON.stringify(t).includes('"binary"')));
    if (typeof t === 'string' || (!mapped && !hasBinary(t))) return e;
    if (t.type === 'struct') {
      const parts = t.fields.map((f) => `${ident(f.name)} := ${logical(`(${e}).${ident(physical(f))}`, f.type)}`);
      return `CASE WHEN ${e} IS NULL THEN NULL ELSE struct_pack(${parts.join(', ')}) END`;
    }
    if (t.type === 'array') {
      return `list_transform(${e}, x -> ${t.elementType === 'binary' ? 'hex(x)' : logical('x', t.elementType)})`;
    }
    if (t.type === 'map') {
      return `map_from_entries(list_transform(map_entries(${e}), kv -> struct_pack(key := ${logical('kv.key', t.keyType)}, value := ${logical('kv.value', t.valueType)})))`;
    }
    return e;
  }
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
