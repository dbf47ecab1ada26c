package spec

import (
	"strings"
	"time"
	_ "time/tzdata" // session_time_zone is checked wherever pipegen runs

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// This file resolves a syntax tree into the graph of sources, datasets and
// flows and applies SDP's graph rules (docs: /work/shared/cases/sdp-graph.md;
// the diagnostic codes are SDP's error classes). check.go then type-checks
// the graph in topological order.

// relKind is what a name in the relation namespace is.
type relKind uint8

const (
	relSource relKind = iota
	relST
	relMV
	relTV
)

// rel is a source or dataset during resolution.
type rel struct {
	name  string
	pos   Pos
	kind  relKind
	index int // definition order

	src     *Source
	srcDecl *SourceDecl
	ds      *Dataset
	dsDecl  *DatasetDecl

	// TV only: the view's query and what it reads.
	query *sql.Query
	text  Str
	refs  []ref

	flows []*flowNode // flows writing it (tables)

	failed     bool // a direct error in its definition or a flow into it
	downstream bool // an input failed, so it was not checked
	noSchema   bool // a table source without a schema
	// noSchemaWhy says where its table was looked for (" at PATH").
	noSchemaWhy string
	streaming   int8 // TV: 0 unknown, 1 streaming, -1 batch, 2 being computed
	checked     bool
	columns     []Column
	declared    types.Schema
}

// ref is one relation a query reads, resolved.
type ref struct {
	sql.TableRef
	rel  *rel
	text Str // the SQL text, for positions
	// shift is subtracted from offsets (AUTO CDC sources are checked as
	// `SELECT * FROM ...` built around the written text).
	shift int
	// changeFeed marks a streamed table read as its change data feed.
	changeFeed bool
}

func (f ref) pos() Pos { return f.text.PosAt(f.Offset - f.shift) }

// flowNode is a flow during resolution.
type flowNode struct {
	name    string
	pos     Pos
	decl    *FlowDecl // nil for a default flow
	target  *rel
	text    Str
	query   *sql.Query
	refs    []ref
	once    bool
	cdc     *AutoCDCDecl
	failed  bool
	flow    *Flow
	isDflt  bool
	comment string
}

// resolver turns a SpecAST into a Pipeline.
type resolver struct {
	diagSink
	ast         *SpecAST
	p           *Pipeline
	params      map[string]*Parameter
	paramNames  []string
	paramErrPos map[Pos]bool
	rels        map[string]*rel // by lower-case name
	relOrder    []*rel
	opts        Options
	flows       []*flowNode
	flowNames   map[string]*flowNode
	// changeFeed is set while the query of a flow or view that reads
	// change feeds is checked (see changefeed.go).
	changeFeed bool
	// watermark is the `watermark:` key of the flow being checked (see
	// watermark.go); viewNodes are the plan nodes of temporary views.
	watermark *streamWatermark
	viewNodes map[sql.Plan]bool
}

// Resolve resolves and type-checks a pipeline's syntax tree. The pipeline
// is nil when there are errors.
func Resolve(ast *SpecAST) (*Pipeline, Diagnostics) { return resolveWith(ast, Options{}) }

func resolveWith(ast *SpecAST, opts Options) (*Pipeline, Diagnostics) {
	r := &resolver{
		opts:        opts,
		ast:         ast,
		p:           &Pipeline{},
		params:      map[string]*Parameter{},
		paramErrPos: map[Pos]bool{},
		rels:        map[string]*rel{},
		flowNames:   map[string]*flowNode{},
	}
	r.resolve()
	r.diags.Sort()
	if r.diags.HasErrors() {
		return nil, r.diags
	}
	return r.p, r.diags
}

func (r *resolver) resolve() {
	ast := r.ast
	main := ast.Files[0]
	r.p.Name = ast.Pipeline.Value
	r.p.Description = ast.Description.Value
	r.p.File = main.Path
	for _, f := range ast.Files {
		r.p.Files = append(r.p.Files, f.Path)
	}
	r.resolveParams()
	r.resolveSettings()
	for _, s := range ast.Sources {
		r.addSource(s)
	}
	for _, d := range ast.Datasets {
		r.addDataset(d)
	}
	for _, rl := range r.relOrder {
		if rl.ds != nil && rl.dsDecl.Query.Set() && rl.kind != relTV {
			r.addFlow(&flowNode{name: rl.name, pos: rl.dsDecl.Query.Pos, target: rl, text: rl.dsDecl.Query, isDflt: true})
		}
	}
	for _, fd := range ast.Flows {
		r.addNamedFlow(fd)
	}
	r.datasetRules()
	r.datasetWatermarkRules()
	r.parseQueries()
	r.cycles()
	r.streamingRules()
	r.changeFeedRules()
	r.checkGraph()
	r.emptyPipeline()
	if !r.diags.HasErrors() {
		r.buildModel()
	}
}

// resolveSettings reads the pipeline-level settings.
func (r *resolver) resolveSettings() {
	ast := r.ast
	r.p.Catalog, r.p.Schema = Lit("main"), Lit("default")
	if ast.Catalog.Set() {
		r.p.Catalog = r.template(ast.Catalog)
	}
	if ast.Schema.Set() {
		r.p.Schema = r.template(ast.Schema)
	}
	if t := ast.Trigger; t != nil {
		switch {
		case t.Interval.Set():
			d, err := time.ParseDuration(t.Interval.Value)
			if err != nil || d <= 0 {
				r.errorf(t.Interval.Pos, "", "write a Go duration such as 30s, 5m or 1h", "trigger interval %q is not a positive duration", t.Interval.Value)
			}
			r.p.Trigger = Trigger{Mode: TriggerInterval, Interval: d}
		case t.Mode.Value == "once":
			r.p.Trigger = Trigger{Mode: TriggerOnce}
		}
	}
	r.p.SessionTimeZone = "UTC"
	if tz := ast.SessionTimeZone; tz.Set() {
		if _, err := time.LoadLocation(tz.Value); err != nil || tz.Value == "Local" {
			r.errorf(tz.Pos, "", "use an IANA name such as UTC or Europe/Paris", "unknown time zone %q", tz.Value)
		}
		r.p.SessionTimeZone = tz.Value
	}
	for _, c := range ast.Checks {
		r.checkSQLParams(c)
	}
}

// addRel enters a source or dataset into the relation namespace.
func (r *resolver) addRel(rl *rel) bool {
	key := strings.ToLower(rl.name)
	if prev, ok := r.rels[key]; ok {
		r.errorf(rl.pos, "PIPELINE_DUPLICATE_IDENTIFIERS.DATASET", "rename one of them: sources and datasets share one namespace",
			"%s %q is already defined as a %s at %s", rl.kindName(), rl.name, prev.kindName(), prev.pos)
		return false
	}
	rl.index = len(r.relOrder)
	r.rels[key] = rl
	r.relOrder = append(r.relOrder, rl)
	return true
}

func (rl *rel) kindName() string {
	switch rl.kind {
	case relSource:
		return "source"
	case relST:
		return "streaming table"
	case relMV:
		return "materialized view"
	}
	return "temporary view"
}
