package runtime

import (
	"errors"
	"slices"
	"strings"
)

// preflight checks, before the update writes anything, what would
// otherwise fail it half-way with some tables written: a streaming table
// whose partition columns changed (it needs a full refresh, and is not
// being fully refreshed). Every problem is reported, one per line.
func (u *update) preflight(plan *flowPlan) error {
	runs := map[string]bool{}
	for f := range plan.run {
		runs[f.Target.DatasetName()] = true
	}
	var problems []string
	for _, d := range u.p.Datasets {
		td := d.tableDesc()
		if !runs[td.name] || slices.Contains(plan.reset, td.name) {
			continue
		}
		if td.kind == MaterializedView {
			continue // replaced as a whole, partitioning included
		}
		h := u.handles[td.name]
		s, err := h.meta()
		if err != nil {
			return err
		}
		if s == nil {
			continue
		}
		if err := checkPartitioning(h.name, s.Metadata.PartitionColumns, td.partitionBy); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}
