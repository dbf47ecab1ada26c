// Package conformance runs Apache Spark's own SQL conformance suite, the
// golden files of SQLQueryTestSuite (testdata/spark-sql-tests, see its
// SOURCE.md), through pipegen's real path and measures how many queries
// pipegen answers as Spark does. The package has no code besides its
// test; it sits in gen, beside gen/difftest, because it drives the same
// stages a user's `pipegen run` does without the CLI: spec load and
// check, gen, go build of the generated program (gen/gentest), one update
// into a temporary warehouse, and the tables read back with
// runtime/delta.
//
// The golden files are the .sql files under testdata/spark-sql-tests/inputs,
// subfolders included (subquery/in-subquery/in-basic.sql), each named by its
// path there; their results are at the same path under results/ (older
// files number their blocks, "-- !query 3"). For each golden file the test
// splits the input into statements (and checks them against the result
// file), keeps the views (CREATE TEMPORARY
// VIEW ... AS VALUES / AS SELECT), tables and SET settings in effect, and
// turns every query into a materialized view of a pipeline whose views
// are temporary views (session time zone America/Los_Angeles, as the
// suite's). A table made by CREATE TABLE t (cols) and filled by INSERT
// ... VALUES / SELECT becomes a view of the inserted rows cast to the
// columns' types; CREATE TABLE t AS query, a view of the query.
//
// Each query is validated alone, so that a rejected query does not keep
// the others from running; the accepted ones of a file are compiled into
// one program (one per redefinition of a view), and a query whose Go does
// not compile is charged by the compiler's error positions and left out of
// the rebuilt program. A program that dies runs again on halves of the
// flows it did not finish (--refresh), down to the flow that dies.
//
// Not evaluated (counted apart, never as passing): queries under a SET
// that is not Spark's default (but spark.sql.groupByAliases=false, which
// only makes Spark reject more, for queries Spark answers), reading
// SQLQueryTestSuite's own test tables (testData, arrayData...) or a table
// of another shape, values of rand(seed), and queries with ORDER BY or no
// rows whose result has two columns of the same name (no table can hold
// them; the others run with their columns renamed c1..cn).
//
// Rows are rendered as SQLQueryTestSuite prints them (HiveResult's
// strings: NULL, decimals at their scale, Java's Double.toString,
// timestamps in the session zone without an offset, [a,b], {k:v},
// {"f":v}) and compared in order when the query ends in ORDER BY, as
// sorted lines otherwise. Each evaluated query gets a class:
//
//	pass          the same rows as Spark
//	pass_error    Spark raises an error; pipegen names the same error class, or both fail at run time
//	both_reject   Spark raises an error; validate rejects the query for another reason (a construct it lacks)
//	crash         panic, exit 2, hang, Go that does not compile, a table that cannot be read back
//	wrong_result  rows that differ from Spark's
//	wrong_accept  Spark raises an error; pipegen returns rows, or its flow fails at run time where Spark rejects the query before running it
//	run_error     Spark returns rows; pipegen's flow fails at run time
//	unsupported   Spark returns rows; validate rejects the query
//
// The first three pass. testdata/known-failures.txt lists the queries of
// the other classes, one "FILE:INDEX CLASS" a line; the test fails on any
// failing query that is not listed with its class, and on a listed query
// that passes (go test -update removes those lines; only
// -accept-new-failures adds lines). It logs the pass rate per file and
// writes every non-passing query with both answers to
// conformance-report.md in its artifact directory (go test -artifacts).
package conformance
