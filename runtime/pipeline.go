package runtime

import (
	"github.com/pipegen/pipegen/runtime/refresh"
	"github.com/pipegen/pipegen/runtime/table"
	"github.com/pipegen/pipegen/runtime/types"
)

// Pipeline is the whole graph of a generated program: what Main runs.
// Generated code builds one Pipeline value in its main function.
type Pipeline struct {
	// Name is the spec's `pipeline` name; it names the storage folder and
	// appears in every event (origin.pipeline_name).
	Name        string
	Description string
	// Spec is the spec file the program was generated from, as given to
	// pipegen (relative), for messages.
	Spec string
	// GenVersion is the pipegen version that generated the program.
	GenVersion string
	// Parameters are the spec's parameters with their defaults; `run
	// --param k=v` overrides them.
	Parameters []Param
	// Checks are asserted at the start of every update, after parameters
	// are bound.
	Checks []Check
	// Catalog and Schema are the defaults for table names; they may hold
	// ${param} references.
	Catalog, Schema string
	// Trigger is the spec's default trigger ("available_now", "once" or
	// "interval=30s"); empty means available_now.
	Trigger string
	// SessionTimeZone is the IANA zone used to render and parse zone-less
	// timestamps; empty means UTC.
	SessionTimeZone string
	// Sources are the inputs the pipeline does not produce.
	Sources []Source
	// Datasets are the streaming tables and materialized views (temporary
	// views are inlined into the flows that read them).
	Datasets []Dataset
	// Flows write into Datasets. Their order is a topological order of the
	// graph: a flow comes after every flow that writes a table it reads.
	Flows []*Flow
}

// ParamType is the type of a pipeline parameter.
type ParamType string

// Parameter types, as written in the spec.
const (
	StringParam   ParamType = "string"
	IntParam      ParamType = "int"
	BoolParam     ParamType = "bool"
	DurationParam ParamType = "duration"
)

// Param is a pipeline parameter.
type Param struct {
	Name        string
	Type        ParamType
	Default     string // the default as text; empty with HasDefault false means required
	HasDefault  bool
	Description string
}

// Check is a pipeline-level assertion evaluated when an update starts; an
// update whose check is not TRUE fails before any flow runs.
type Check struct {
	// Text is the SQL expression as written in the spec.
	Text string
	// Eval evaluates the check against the bound parameters.
	Eval func(p *Params) (types.Null[bool], error)
}

// Source is a file source or a table source; see FileSource and TableSource.
type Source interface {
	// SourceName returns the source's name in the spec.
	SourceName() string
	relation
}

// Dataset is a streaming table or a materialized view; see Table.
type Dataset interface {
	// DatasetName returns the dataset's name in the spec.
	DatasetName() string
	relation
	datasetDesc() *datasetDesc
}

// DatasetKind is the kind of a Dataset: the kind of the table it writes.
type DatasetKind = table.Kind

// Dataset kinds, with SDP's meanings (see table.Kind).
const (
	StreamingTable   DatasetKind = table.StreamingTable
	MaterializedView DatasetKind = table.MaterializedView
)

// FlowKind is how a flow writes its target; the names are the event log's
// flow_type values.
type FlowKind string

// Flow kinds.
const (
	// AppendFlow is a streaming flow: each micro-batch appends the rows its
	// query produces from the new input.
	AppendFlow FlowKind = "APPEND"
	// CompleteFlow recomputes a materialized view from a snapshot of its
	// inputs and replaces the table in one commit.
	CompleteFlow FlowKind = "MATERIALIZED_VIEW"
	// OnceFlow is a batch query that appends once, in the first update and
	// again only after a full refresh of its target.
	OnceFlow FlowKind = "ONCE"
	// ChangeFlow applies a change feed with AUTO CDC.
	ChangeFlow FlowKind = "CHANGE"
)

// Flow is one query writing into a dataset. Run is the generated function
// compiled from the flow's SQL; it reads its inputs with Scan and writes
// with the sinks of its target.
type Flow struct {
	Name   string
	Target Dataset
	Kind   FlowKind
	// Inputs are the relations the query reads, with how it reads them.
	Inputs []Input
	// Definition identifies the flow's compiled definition (a hash of its
	// query and output schema, computed by pipegen). A materialized view
	// whose definition and inputs did not change is not recomputed; a
	// streaming flow whose inputs changed needs a full refresh.
	Definition string
	// Run executes the flow's query over the current micro-batch (streaming
	// flows) or over snapshots of its inputs (other flows).
	Run func(ctx *FlowContext) error
	// Incremental is the technique a materialized view's query allows when
	// its input only received appends since the last refresh:
	// refresh.AppendOnly (a row-wise query: the new rows' results are
	// appended) or refresh.GroupAggregate (a top-level aggregation with
	// decomposable aggregates: the saved aggregation state absorbs the new
	// rows; see SeedAggregate). Empty means always
	// refresh.CompleteRecompute, for the reason NotIncremental gives. Set
	// by pipegen, from spec.Flow.Refresh.
	Incremental    refresh.Technique
	NotIncremental string
	// Watermark is set on a streaming flow with a stateful operator (a
	// window aggregation or a deduplication bounded by an event-time
	// watermark): each micro-batch saves the watermark and the operator's
	// state in the flow's checkpoint (see streamstate.go). Set by pipegen.
	Watermark *Watermark
	// Nondeterministic names a non-deterministic call of a materialized
	// view's query ("current_timestamp()", "rand()"), "" when there is
	// none: such a view is recomputed by every update, even when neither
	// its inputs nor its definition changed, as Databricks does. Set by
	// pipegen.
	Nondeterministic string
}

// Input is one relation a flow reads.
type Input struct {
	Relation Relation
	// Streaming is true for STREAM(x): only data added since the flow's
	// checkpoint is read, in micro-batches.
	Streaming bool
	// ChangeFeed is true when a streamed table is read as its change data
	// feed (Relation is then a *ChangeFeed; see read_change_feed).
	ChangeFeed bool
}

// Relation is anything a flow can read: a Source or a Dataset.
type Relation interface {
	relation
}

// relation is the runtime's non-generic view of a source or table.
type relation interface {
	relationName() string
}
