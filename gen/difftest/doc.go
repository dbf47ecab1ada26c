// Package difftest holds pipegen's differential SQL test: a corpus of
// queries (testdata/corpus/*.yaml) over real data (jaffle_shop, online
// retail, flight summaries, GitHub events) and generated edge-case tables
// (NULLs, empty input, extreme numbers, Unicode text, timestamps around
// daylight-saving changes) is compiled by pipegen into one program, one
// materialized view per query, run once, and each table is compared with
// what DuckDB (@duckdb/node-api) returns for the same query.
//
// Where Spark's semantics, which pipegen follows, differ from DuckDB's,
// the corpus entry says so in its note and either gives DuckDB a query
// written to compute Spark's answer (duckdb:) or states Spark's result
// outright (expect:). Entries with error: must fail their flow with that
// ANSI error instead. The package has no code besides its test.
package difftest
