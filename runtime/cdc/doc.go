// Package cdc is the machinery of AUTO CDC flows (Databricks AUTO CDC,
// formerly APPLY CHANGES INTO; DESIGN.md section 5) that does not depend
// on the runtime's flows: the merge of a micro-batch of changes onto a
// target's rows as SCD type 1 or 2 (merge.go), the order-preserving
// encoding keys and sequences are compared by (key.go), the key-range
// store of a target's data and state files (store.go), its partitioning
// (partition.go), and the rules a target's files record (rules.go).
//
// The runtime package declares the flow (runtime.AutoCDC, which generated
// code names), reads the change rows into a Batch, hands it to
// Store.Merge and commits the Merged result with the flow's progress in
// one Delta commit. This package never imports the runtime package.
package cdc
