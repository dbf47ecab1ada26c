package runtime

import (
	"fmt"

	"github.com/pipegen/pipegen/runtime/statecodec"
)

// The aggregation state of a materialized view refreshed with
// GROUP_AGGREGATE is the generated code's hash table itself (group key →
// accumulators, and the keys in order of first appearance), kept between
// refreshes in the flow's checkpoint and encoded by runtime/statecodec.

// Set is the set of distinct values of a DISTINCT aggregate
// (count(DISTINCT x), sum(DISTINCT x), ...) for one group, which generated
// code keeps in its accumulators as runtime.Set[K]: statecodec.Set, whose
// elements a saved state keeps encoded until the set is changed.
type Set[K comparable] = statecodec.Set[K]

// SeedAggregate makes the aggregation state saved by the previous refresh
// of a GROUP_AGGREGATE materialized view the first partial state of l, so
// that merging the workers' partial states folds the new rows into it. In
// any other refresh it does nothing. Generated code calls it before it
// merges the partial states of its top-level aggregation. A saved state
// that does not decode into a T is an error wrapping
// statecodec.ErrDamaged, on which the refresh is recomputed.
func SeedAggregate[T any](ctx *FlowContext, l *Locals[T]) error {
	if ctx.incr == nil || ctx.incr.state == nil {
		return nil
	}
	v := new(T)
	if err := statecodec.Decode(ctx.incr.state, v); err != nil {
		return fmt.Errorf("flow %s: %w: %w", ctx.flow.Name, statecodec.ErrDamaged, err)
	}
	l.mu.Lock()
	l.all = append([]*T{v}, l.all...)
	l.mu.Unlock()
	return nil
}

// KeepAggregate records v, the merged aggregation state of a
// materialized view's top-level aggregation, to be saved with the refresh
// for the next one. Generated code calls it once the partial states are
// merged.
func KeepAggregate[T any](ctx *FlowContext, v *T) error {
	ctx.keptState = v
	return nil
}
