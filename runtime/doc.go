// Package runtime runs the programs pipegen generates: it owns the pipeline
// graph, updates and their triggers, flows and micro-batches, checkpoints,
// the per-pipeline lock and the operations behind the program's commands
// (its command line is package runtime/cli); it writes the event log through
// runtime/eventlog.
//
// Generated code is thin: it declares typed row structs, decoders and one
// function per flow, and wires them together with the types of this package
// (Pipeline, FileSource, TableSource, Dataset, Flow). Everything stateful
// (what was read, what was committed, what to do after a crash) happens here.
//
// Semantics follow Spark Declarative Pipelines and Databricks Lakeflow
// Declarative Pipelines: streaming tables advance in micro-batches that
// commit their output and their progress atomically (a Delta `txn` action
// with the flow's id and batch id), materialized views are recomputed and
// replaced in one commit, and the trigger `available_now` drains the backlog
// present when the update starts and exits. AUTO CDC flows (cdcflow.go,
// with the merge and its key-range store in runtime/cdc) merge change
// feeds into their targets as SCD type 1 or 2, rewriting only the files
// that hold changed keys, and write the Delta change data feed that
// ChangeFeed reads (docs/flows.md).
package runtime
