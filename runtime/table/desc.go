package table

import (
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// Kind is the kind of a table a pipeline defines (Spark Declarative
// Pipelines' dataset kinds); the runtime root names it DatasetKind.
type Kind string

// The kinds of tables a pipeline writes.
const (
	// StreamingTable is appended to by its flows' micro-batches; its schema
	// evolves (columns added, types widened) and its partitioning is kept.
	StreamingTable Kind = "streaming_table"
	// MaterializedView is replaced whole, schema and partitioning included,
	// by each refresh that recomputes it.
	MaterializedView Kind = "materialized_view"
)

// Desc is the descriptor of a table a pipeline defines: what its Delta
// metadata records and what its commits must keep. The runtime root builds
// it from the generated Table.
type Desc struct {
	// Name is the dataset's name in the pipeline; Kind its kind.
	Name string
	Kind Kind
	// Catalog, Schema and Table name the table (Table defaults to Name);
	// it lives at <warehouse>/<catalog>/<schema>/<table>.
	Catalog, Schema, Table string
	// Comment is the table's description ("" for none) and Properties its
	// table properties (the metadata's configuration).
	Comment    string
	Properties map[string]string
	// PartitionBy are the partition columns, in order (none: the table is
	// not partitioned).
	PartitionBy []string
	// Columns is the schema of the rows the pipeline writes.
	Columns types.Schema
}

// ResetAllowed reports whether a full refresh may truncate the table
// (SDP's pipelines.reset.allowed table property, default true). Like
// Spark's boolean table properties, the value is case-insensitive: "False"
// protects the table as "false" does.
func (d *Desc) ResetAllowed() bool {
	return !strings.EqualFold(strings.TrimSpace(d.Properties["pipelines.reset.allowed"]), "false")
}
