package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"time"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/table"
	"github.com/pipegen/pipegen/runtime/types"
)

// The set of datasets a pipeline had is recorded in <storage>/datasets.json,
// so that an update of a changed spec can say what happened to the tables
// of datasets that were renamed or removed: pipegen leaves them, with their
// flows' checkpoints, as they are (SDP does not drop the table of a dataset
// removed from the source code either; a user who wants it gone drops it).

// datasetRecord is one dataset in datasets.json.
type datasetRecord struct {
	Kind  string   `json:"kind"`
	Path  string   `json:"path"`
	Flows []string `json:"flows"`
	// Removed is when an update first ran without the dataset in the spec.
	Removed *time.Time `json:"removed,omitempty"`
}

// reconcileDatasets compares the pipeline's datasets with those recorded
// by earlier updates: a recorded dataset the spec no longer defines is
// reported once (WARN) as left alone; a new one is reported as created and
// backfilled by this update. The record is then rewritten.
func (u *update) reconcileDatasets() error {
	path := u.storagePath("datasets.json")
	rec := map[string]*datasetRecord{}
	if err := checkpoint.ReadJSON(path, &rec); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	first := len(rec) == 0
	current := map[string]bool{}
	for _, d := range u.p.Datasets {
		name := d.DatasetName()
		current[name] = true
		var flows []string
		for _, f := range u.p.Flows {
			if f.Target.DatasetName() == name {
				flows = append(flows, f.Name)
			}
		}
		old := rec[name]
		if old == nil && !first {
			u.log.Emit(eventlog.Event{Type: "dataset_definition", Origin: eventlog.Origin{Dataset: name},
				Message: fmt.Sprintf("Dataset %s is new in the pipeline: its table is created and backfilled from all available input.", name),
				Details: map[string]any{"dataset_definition": map[string]any{"change": "ADDED"}}})
		}
		rec[name] = &datasetRecord{Kind: string(d.datasetDesc().Kind), Path: u.handles[name].Path, Flows: flows}
	}
	names := make([]string, 0, len(rec))
	for name := range rec {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		r := rec[name]
		if current[name] || r.Removed != nil {
			continue
		}
		now := time.Now().UTC()
		r.Removed = &now
		u.log.Emit(eventlog.Event{Type: "dataset_definition", Level: "WARN", Origin: eventlog.Origin{Dataset: name},
			Message: fmt.Sprintf("Dataset %s is no longer defined in the pipeline (removed or renamed): its table at %s and the checkpoints of its flows (%v) are left as they are; drop them by hand when they are no longer needed.",
				name, r.Path, r.Flows),
			Details: map[string]any{"dataset_definition": map[string]any{"change": "REMOVED", "location": r.Path, "flows": r.Flows}}})
	}
	return checkpoint.WriteJSON(path, rec)
}

// CheckSchemaChange says how a table whose schema was have takes rows of
// schema want without a full refresh, by the rules updates apply
// (columns matched by name, case-insensitively, as Spark does): it returns
// the columns added (old rows read them as NULL) and the columns whose
// type widens (Delta's type widening, types.Widens: a metaData action,
// old files read converted), or an error naming the table and saying that
// `--full-refresh TABLE` is needed (a column changed type otherwise, a NOT
// NULL column is no longer produced, a partition column among
// partitionColumns would widen). A materialized view is replaced whole and
// never needs this.
//
// It is table.CheckSchemaChange, which pipegen diff calls by this name.
func CheckSchemaChange(name string, have, want types.Schema, partitionColumns []string) (added []string, widened []delta.Widening, err error) {
	return table.CheckSchemaChange(name, have, want, partitionColumns)
}
