// Package table is one Delta table of a pipeline as the runtime reads and
// writes it:
//
//   - Handle, a table the update reads or writes: its latest snapshot or
//     metadata, its live files and the files a streaming read takes
//     (File), and its commits, one retry loop serialized per table
//     (Ensure: create or evolve the schema; CommitAppend, CommitReplace,
//     CommitMerge, Truncate), each with the flow's Txn so that a batch is
//     never committed twice;
//   - Desc, the descriptor of a table the pipeline defines (name, kind,
//     columns, partitioning, comment, properties);
//   - schema evolution (CheckSchemaChange, Handle.CheckSchema): columns
//     added, types widened as Delta's type widening allows, anything else
//     a full refresh;
//   - ownership (Owner, PipelineIDProperty): as on Databricks, a table
//     records the one pipeline that writes it;
//   - data files (FileWriter, DataFile) and the split of a partitioned
//     table's rows into partition values and data columns (Partitioner).
//
// The semantics are the Delta protocol's (runtime/delta holds the log,
// the actions and the commit itself). The runtime root (the update, its
// flows and sinks) uses this package; it never imports the runtime root.
package table
