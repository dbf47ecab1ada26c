// Package table is one Delta table of a pipeline as the runtime writes it:
// the writing of its data files (FileWriter, DataFile) and the split of a
// partitioned table's rows into partition values and data columns
// (Partitioner), as the Delta protocol lays them out. The runtime root
// (the update, its flows and sinks) uses this package; it never imports
// the runtime root.
package table
