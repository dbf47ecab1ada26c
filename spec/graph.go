package spec

import (
	"sort"
	"strings"
)

// This file holds the dataset graph's structural rules: cycles, stream and
// batch reads, empty pipelines, and the topological order.

// reads returns the references of a relation: a view's query's, or those of
// every flow into a table.
func (rl *rel) reads() []ref {
	if rl.kind == relTV {
		return rl.refs
	}
	var out []ref
	for _, fn := range rl.flows {
		out = append(out, fn.refs...)
	}
	return out
}

// cycles reports every strongly connected component of the read graph that
// is a cycle [CIRCULAR_DEPENDENCY], once, at the reference that leaves its
// first-defined member, and marks its members failed.
func (r *resolver) cycles() {
	n := len(r.relOrder)
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next := 0
	var sccs [][]int
	var strong func(v int)
	strong = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, f := range r.relOrder[v].reads() {
			w := f.rel.index
			if index[w] < 0 {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var scc []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			sccs = append(sccs, scc)
		}
	}
	for v := range r.relOrder {
		if index[v] < 0 {
			strong(v)
		}
	}
	for _, scc := range sccs {
		sort.Ints(scc)
		start := r.relOrder[scc[0]]
		in := map[*rel]bool{}
		for _, i := range scc {
			in[r.relOrder[i]] = true
		}
		path, first := r.cyclePath(start, in)
		if path == nil {
			continue // a single relation that does not read itself
		}
		for rl := range in {
			rl.failed = true
		}
		r.errorf(first.pos(), "CIRCULAR_DEPENDENCY", "a dataset cannot read itself, directly or through other datasets",
			"circular dependency: %s", strings.Join(path, " -> "))
	}
}

// cyclePath finds the shortest cycle from start back to it within the
// component in (breadth first, references in order) and returns its names
// and the first reference on it.
func (r *resolver) cyclePath(start *rel, in map[*rel]bool) ([]string, ref) {
	type step struct {
		rl   *rel
		prev *step
		via  ref
	}
	seen := map[*rel]bool{}
	queue := []*step{{rl: start}}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, f := range s.rl.reads() {
			if !in[f.rel] {
				continue
			}
			if f.rel == start {
				var chain []*step // s back to the start
				for t := s; t != nil; t = t.prev {
					chain = append(chain, t)
				}
				var names []string
				for i := len(chain) - 1; i >= 0; i-- {
					names = append(names, chain[i].rl.name)
				}
				names = append(names, start.name)
				first := f
				if len(chain) > 1 {
					first = chain[len(chain)-2].via
				}
				return names, first
			}
			if !seen[f.rel] {
				seen[f.rel] = true
				queue = append(queue, &step{rl: f.rel, prev: s, via: f})
			}
		}
	}
	return nil, ref{}
}

// viewStreaming reports whether a temporary view's query reads a stream.
func (r *resolver) viewStreaming(rl *rel) bool {
	switch rl.streaming {
	case 1:
		return true
	case -1, 2:
		return false
	}
	rl.streaming = 2
	s := false
	for _, f := range rl.refs {
		if f.Streaming {
			s = true
		}
	}
	if s {
		rl.streaming = 1
	} else {
		rl.streaming = -1
	}
	return s
}

// streamingRules applies SDP's stream/batch read rules to every view and
// flow (sdp-graph cases 14-17 and 25).
func (r *resolver) streamingRules() {
	for _, rl := range r.relOrder {
		if rl.kind == relTV && !r.readRules(rl.refs) {
			rl.failed = true
		}
	}
	for _, fn := range r.flows {
		if fn.target == nil || fn.failed {
			continue
		}
		ok := r.readRules(fn.refs)
		streaming := false
		for _, f := range fn.refs {
			streaming = streaming || f.Streaming
		}
		switch {
		case fn.cdc != nil:
		case fn.target.kind == relMV && streaming:
			r.errorf(fn.text.Pos, "INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_MATERIALIZED_VIEW", "read the inputs without STREAM(...), or make "+fn.target.name+" a streaming_table",
				"materialized view %q reads a stream; its query must be a batch query", fn.target.name)
			ok = false
		case fn.once && streaming:
			r.errorf(fn.text.Pos, "INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_ONCE_FLOW", "read the inputs without STREAM(...), or remove once: true",
				"once flow %q reads a stream; a once flow runs a batch query", fn.name)
			ok = false
		case fn.target.kind == relST && !fn.once && !streaming && len(fn.refs) > 0:
			r.errorf(fn.text.Pos, "INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE", "read an input with STREAM(name), make "+fn.target.name+" a materialized_view, or use a once flow",
				"%s reads no stream; a streaming table is written by streaming queries", fn.describe())
			ok = false
		}
		if !ok {
			fn.failed = true
			fn.target.failed = true
		}
	}
}

func (fn *flowNode) describe() string {
	if fn.isDflt {
		return "the query of streaming table \"" + fn.name + "\""
	}
	return "flow \"" + fn.name + "\""
}

// readRules checks each reference's stream/batch mode against what it
// reads.
func (r *resolver) readRules(refs []ref) bool {
	ok := true
	for _, f := range refs {
		switch {
		case f.Streaming && f.rel.kind == relMV:
			r.errorf(f.pos(), "STREAMING_READ_OF_MATERIALIZED_VIEW", "read it without STREAM(...) from a materialized view instead",
				"STREAM(%s) reads materialized view %q as a stream; a materialized view is rewritten on every update, so a stream of it would break or miss changes", f.rel.name, f.rel.name)
			ok = false
		case f.Streaming && f.rel.kind == relTV && !r.viewStreaming(f.rel):
			r.errorf(f.pos(), "INCOMPATIBLE_BATCH_VIEW_READ", "read it without STREAM(...)",
				"STREAM(%s) reads temporary view %q as a stream, but the view is a batch query", f.rel.name, f.rel.name)
			ok = false
		case !f.Streaming && f.rel.kind == relTV && r.viewStreaming(f.rel):
			r.errorf(f.pos(), "INCOMPATIBLE_STREAMING_VIEW_READ", "read it with STREAM("+f.rel.name+")",
				"%s is read as a batch here (without STREAM), but temporary view %q is a streaming query", f.rel.name, f.rel.name)
			ok = false
		}
	}
	return ok
}

// emptyPipeline rejects a pipeline with no table [RUN_EMPTY_PIPELINE].
func (r *resolver) emptyPipeline() {
	for _, rl := range r.relOrder {
		if rl.kind == relST || rl.kind == relMV {
			return
		}
	}
	r.errorf(r.ast.Pipeline.Pos, "RUN_EMPTY_PIPELINE", "add a dataset of kind streaming_table or materialized_view",
		"pipeline %q defines no table, so an update would do nothing", r.ast.Pipeline.Value)
}

// topoOrder returns the relations so that each comes after every relation
// it reads, ties broken by definition order; relations on a cycle are left
// out.
func (r *resolver) topoOrder() []*rel {
	n := len(r.relOrder)
	indeg := make([]int, n)
	users := make([][]int, n)
	for _, rl := range r.relOrder {
		seen := map[int]bool{}
		for _, f := range rl.reads() {
			if w := f.rel.index; !seen[w] {
				seen[w] = true
				indeg[rl.index]++
				users[w] = append(users[w], rl.index)
			}
		}
	}
	var ready []int
	for i := range indeg {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	var out []*rel
	for len(ready) > 0 {
		sort.Ints(ready)
		v := ready[0]
		ready = ready[1:]
		out = append(out, r.relOrder[v])
		for _, u := range users[v] {
			if indeg[u]--; indeg[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	return out
}
