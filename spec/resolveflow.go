package spec

import (
	"strings"
	_ "time/tzdata" // session_time_zone is checked wherever pipegen runs
)

// addDataset resolves one dataset's own settings.
func (r *resolver) addDataset(d *DatasetDecl) {
	ds := &Dataset{Name: d.Name.Value, Pos: d.Name.Pos}
	rl := &rel{name: ds.Name, pos: ds.Pos, ds: ds, dsDecl: d}
	switch d.Kind.Value {
	case "streaming_table":
		ds.Kind, rl.kind = StreamingTable, relST
	case "materialized_view":
		ds.Kind, rl.kind = MaterializedView, relMV
	default:
		ds.Kind, rl.kind = TemporaryView, relTV
	}
	if !r.addRel(rl) {
		return
	}
	if ds.Kind != TemporaryView {
		ds.Table = TableName{Catalog: r.p.Catalog, Schema: r.p.Schema, Table: Lit(ds.Name)}
	}
	ds.Comment = r.template(d.Comment)
	for _, kv := range d.Properties {
		ds.Properties = append(ds.Properties, Property{Key: kv.Key.Value, Value: r.template(kv.Value)})
		// SDP reads pipelines.reset.allowed as a boolean (any case); a
		// value the runtime would read as true must not pass for a
		// protection.
		if kv.Key.Value == "pipelines.reset.allowed" && !strings.Contains(kv.Value.Value, "${") &&
			!strings.EqualFold(kv.Value.Value, "true") && !strings.EqualFold(kv.Value.Value, "false") {
			r.errorf(kv.Value.Pos, "", "write true or false", "table property pipelines.reset.allowed of %q is %q, not a boolean", ds.Name, kv.Value.Value)
		}
	}
	if ds.Kind == TemporaryView {
		if len(d.Properties) > 0 {
			r.errorf(d.Properties[0].Key.Pos, "", "remove them: a temporary view is not stored", "temporary view %q cannot have properties", ds.Name)
		}
		if d.PartitionBy.Set() {
			r.errorf(d.PartitionBy.Pos, "", "remove it: a temporary view is not stored", "temporary view %q cannot be partitioned", ds.Name)
		}
		if len(d.Expectations) > 0 {
			r.errorf(d.Expectations[0].Pos, "", "put the expectations on a table that reads the view", "expectations on temporary view %q are not supported", ds.Name)
		}
		if !d.Query.Set() {
			r.errorf(d.Name.Pos, "", "add query: SELECT ...", "temporary view %q has no query", ds.Name)
			rl.failed = true
		}
	}
	if d.Schema.Set() {
		rl.declared = r.parseSchema(d.Schema, rl)
	}
}

// addFlow enters a flow into the flow namespace and its target's flows.
func (r *resolver) addFlow(fn *flowNode) {
	key := strings.ToLower(fn.name)
	if prev, ok := r.flowNames[key]; ok {
		what := "flow"
		if prev.isDflt {
			what = "default flow of dataset"
		}
		r.errorf(fn.pos, "PIPELINE_DUPLICATE_IDENTIFIERS.FLOW", "rename the flow", "flow %q is already defined as the %s %q at %s", fn.name, what, prev.name, prev.pos)
		fn.failed = true
		return
	}
	r.flowNames[key] = fn
	r.flows = append(r.flows, fn)
	if fn.target != nil {
		fn.target.flows = append(fn.target.flows, fn)
	}
}

// addNamedFlow resolves one entry of flows:.
func (r *resolver) addNamedFlow(d *FlowDecl) {
	fn := &flowNode{name: d.Name.Value, pos: d.Name.Pos, decl: d, text: d.Query, once: d.Once.Value, cdc: d.AutoCDC, comment: d.Comment.Value}
	if strings.Contains(fn.name, ".") {
		r.errorf(fn.pos, "MULTIPART_FLOW_NAME_NOT_SUPPORTED", "use a name without dots", "flow name %q has more than one part", fn.name)
		return
	}
	if rl, ok := r.rels[strings.ToLower(fn.name)]; ok && !(rl.ds != nil && rl.dsDecl.Query.Set() && rl.kind != relTV) {
		r.errorf(fn.pos, "PIPELINE_DUPLICATE_IDENTIFIERS.FLOW", "rename the flow: datasets and flows share one namespace",
			"flow %q has the name of %s %q at %s", fn.name, rl.kindName(), rl.name, rl.pos)
		return
	}
	switch {
	case d.Query.Set() && d.AutoCDC != nil:
		r.errorf(d.AutoCDC.Pos, "", "remove query: or auto_cdc:", "flow %q has both a query and auto_cdc", fn.name)
		fn.failed = true
	case !d.Query.Set() && d.AutoCDC == nil:
		r.errorf(fn.pos, "", "add query: SELECT ... FROM STREAM(...) or auto_cdc: {...}", "flow %q has neither a query nor auto_cdc", fn.name)
		fn.failed = true
	case d.AutoCDC != nil && d.Once.Value:
		r.errorf(d.Once.Pos, "", "remove once: true", "auto_cdc flow %q cannot be a once flow", fn.name)
		fn.failed = true
	}
	tg, ok := r.rels[strings.ToLower(d.Target.Value)]
	switch {
	case !ok:
		var names []string
		for _, rl := range r.relOrder {
			if rl.ds != nil {
				names = append(names, rl.name)
			}
		}
		hint := didYouMean(d.Target.Value, names)
		if hint == "" {
			hint = "declare it under datasets: with kind: streaming_table"
		}
		r.errorf(d.Target.Pos, "TABLE_OR_VIEW_NOT_FOUND", hint, "flow %q targets %q, which is not a dataset of this pipeline", fn.name, d.Target.Value)
		fn.failed = true
		r.flowNames[strings.ToLower(fn.name)] = fn
		return
	case tg.kind == relSource:
		r.errorf(d.Target.Pos, "FLOW_TARGET_NOT_TABLE", "write into a streaming table of this pipeline", "flow %q targets source %q; sources are read, not written", fn.name, tg.name)
		fn.failed = true
	case tg.kind == relTV:
		r.errorf(d.Target.Pos, "FLOW_TARGET_NOT_TABLE", "make the target a streaming_table", "flow %q targets temporary view %q; flows write tables, views are defined by their query", fn.name, tg.name)
		fn.failed = true
	default:
		fn.target = tg
	}
	r.addFlow(fn)
}

// datasetRules applies the rules on a dataset's flows.
func (r *resolver) datasetRules() {
	for _, rl := range r.relOrder {
		if rl.ds == nil || rl.kind == relTV {
			continue
		}
		switch {
		case len(rl.flows) == 0:
			if rl.dsDecl.Query.Set() {
				continue // its default flow was a duplicate, reported there
			}
			r.errorf(rl.pos, "PIPELINE_DATASET_WITHOUT_FLOW", "add query: SELECT ..., or a flow with target: "+rl.name,
				"%s %q has no query and no flow writes it", rl.kindName(), rl.name)
			rl.failed = true
		case rl.kind == relMV && len(rl.flows) > 1:
			for _, fn := range rl.flows[1:] {
				r.errorf(fn.decl.Target.Pos, "MATERIALIZED_VIEW_WITH_MULTIPLE_QUERIES", "write a streaming table, or combine the queries with UNION ALL",
					"materialized view %q already has a query; flow %q cannot also write it", rl.name, fn.name)
				fn.failed = true
			}
			rl.failed = true
			continue
		}
		var cdc, other *flowNode
		for _, fn := range rl.flows {
			if fn.cdc != nil {
				cdc = fn
			} else {
				other = fn
			}
		}
		if cdc != nil && rl.kind == relMV {
			r.errorf(cdc.decl.Target.Pos, "", "make the target a streaming_table", "auto_cdc flow %q targets materialized view %q", cdc.name, rl.name)
			cdc.failed, rl.failed = true, true
		} else if cdc != nil && other != nil {
			r.errorf(cdc.decl.Target.Pos, "", "give the AUTO CDC target no query and no other flows", "auto_cdc flow %q and %s %q both write %q",
				cdc.name, map[bool]string{true: "the default flow", false: "flow"}[other.isDflt], other.name, rl.name)
			cdc.failed, rl.failed = true, true
		}
	}
}
