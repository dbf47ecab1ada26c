package runtime

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/pipegen/pipegen/runtime/eventlog"
)

// flowPlan is which flows an update runs, and which tables it resets.
type flowPlan struct {
	run      map[*Flow]bool
	excluded map[*Flow]bool
	reset    []string
}

// selectFlows applies --refresh and --full-refresh: the selected tables'
// flows run, the others are EXCLUDED. Without a selection every flow runs.
func (u *update) selectFlows() (*flowPlan, error) {
	plan := &flowPlan{run: map[*Flow]bool{}, excluded: map[*Flow]bool{}}
	known := map[string]bool{}
	for _, d := range u.p.Datasets {
		known[d.DatasetName()] = true
	}
	check := func(names []string, flag string) error {
		for _, n := range names {
			if !known[n] {
				return fmt.Errorf("%s %s: the pipeline has no table %q (tables: %s)", flag, n, n, strings.Join(sortedKeys(known), ", "))
			}
		}
		return nil
	}
	if err := check(u.opts.Refresh, "--refresh"); err != nil {
		return nil, err
	}
	if err := check(u.opts.FullRefresh, "--full-refresh"); err != nil {
		return nil, err
	}
	selected := map[string]bool{}
	for _, n := range u.opts.Refresh {
		selected[n] = true
	}
	for _, n := range u.opts.FullRefresh {
		selected[n] = true
	}
	all := len(selected) == 0
	if u.opts.FullRefreshAll {
		for _, d := range u.p.Datasets {
			td := d.datasetDesc()
			if td.ResetAllowed() {
				plan.reset = append(plan.reset, td.Name)
			} else {
				u.log.Emit(eventlog.Event{Type: "flow_progress", Level: "WARN", Origin: eventlog.Origin{Dataset: td.Name},
					Message: fmt.Sprintf("Table %s has pipelines.reset.allowed = false: it is refreshed incrementally, not reset, by this full refresh.", td.Name)})
			}
		}
	}
	for _, n := range u.opts.FullRefresh {
		d := u.dataset(n)
		if !d.datasetDesc().ResetAllowed() {
			return nil, fmt.Errorf("[TABLE_NOT_RESETTABLE] table %s has pipelines.reset.allowed = false and cannot be fully refreshed; remove it from --full-refresh or change the property", n)
		}
		plan.reset = append(plan.reset, n)
	}
	for _, f := range u.p.Flows {
		if all || selected[f.Target.DatasetName()] {
			plan.run[f] = true
		} else {
			plan.excluded[f] = true
		}
	}
	return plan, nil
}

// runFlows runs the selected flows, each after every flow that writes a
// table it reads; independent flows run concurrently. A failed flow's
// downstream flows are SKIPPED; the update fails if any flow failed.
func (u *update) runFlows(plan *flowPlan) error {
	writers := map[string][]*Flow{}
	for _, f := range u.p.Flows {
		writers[f.Target.DatasetName()] = append(writers[f.Target.DatasetName()], f)
	}
	deps := map[*Flow][]*Flow{}
	for _, f := range u.p.Flows {
		for _, in := range f.Inputs {
			// By name: a table read as its change feed is a *ChangeFeed.
			for _, w := range writers[in.Relation.relationName()] {
				if w != f {
					deps[f] = append(deps[f], w)
				}
			}
		}
	}
	for _, f := range u.p.Flows {
		if plan.excluded[f] {
			u.flowEvent(f, statusExcluded, nil, nil)
			fmt.Fprintf(u.stderr, "flow %s: excluded (%s is not in the refresh selection)\n", f.Name, f.Target.DatasetName())
		} else {
			u.flowEvent(f, statusQueued, nil, nil)
		}
	}
	type result struct {
		status string
		done   chan struct{}
	}
	results := map[*Flow]*result{}
	for _, f := range u.p.Flows {
		results[f] = &result{done: make(chan struct{})}
	}
	sem := make(chan struct{}, maxConcurrentFlows)
	var wg sync.WaitGroup
	var failed sync.Map
	for _, f := range u.p.Flows {
		wg.Add(1)
		go func(f *Flow) {
			defer wg.Done()
			r := results[f]
			defer close(r.done)
			if plan.excluded[f] {
				r.status = statusExcluded
				return
			}
			for _, d := range deps[f] {
				<-results[d].done
				if s := results[d].status; s == statusStopped {
					r.status = statusStopped
					u.flowEvent(f, statusStopped, nil, nil)
					return
				} else if s == statusFailed || s == statusSkipped {
					r.status = statusSkipped
					u.flowEvent(f, statusSkipped, nil, fmt.Errorf("upstream flow %s %s", d.Name, strings.ToLower(s)))
					fmt.Fprintf(u.stderr, "flow %s: skipped (upstream flow %s %s)\n", f.Name, d.Name, strings.ToLower(s))
					return
				}
			}
			sem <- struct{}{}
			defer func() { <-sem }()
			if u.stopRequested() {
				r.status = statusStopped
				u.flowEvent(f, statusStopped, nil, nil)
				fmt.Fprintf(u.stderr, "flow %s: stopped before it started (the program was asked to stop)\n", f.Name)
				return
			}
			if err := u.runFlow(f); err != nil {
				r.status = statusFailed
				failed.Store(f.Name, err)
				return
			}
			r.status = statusCompleted
		}(f)
	}
	wg.Wait()
	var msgs []string
	failed.Range(func(k, v any) bool {
		msgs = append(msgs, fmt.Sprintf("flow %s: %v", k, v))
		return true
	})
	if len(msgs) > 0 {
		sort.Strings(msgs)
		return fmt.Errorf("%w: %s", errUpdateFailed, strings.Join(msgs, "; "))
	}
	return nil
}

// maxConcurrentFlows bounds how many flows run at once; each flow also
// uses several workers for its scans.
const maxConcurrentFlows = 4
