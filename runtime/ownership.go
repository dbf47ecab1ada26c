package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/table"
)

// pipelineIdentity is <storage>/pipeline.json: the pipeline's id, made
// once when the storage is first used and kept as long as the storage is,
// so that every update of one pipeline (one storage) writes its tables as
// the same owner.
type pipelineIdentity struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
}

// loadPipelineIdentity reads <storage>/pipeline.json, creating it with a
// new random id when absent; a renamed pipeline keeps its id (the name
// is rewritten). The caller holds the pipeline's lock.
func loadPipelineIdentity(storageDir, name string) (pipelineIdentity, error) {
	path := storage.Join(storageDir, "pipeline.json")
	var id pipelineIdentity
	err := checkpoint.ReadJSON(path, &id)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		id = pipelineIdentity{ID: newID(), Name: name, Created: time.Now().UTC()}
	case err != nil:
		return id, fmt.Errorf("pipeline identity: %w; restore it from a backup (the tables name the id they belong to in %s)", err, table.PipelineIDProperty)
	case id.ID == "":
		return id, fmt.Errorf("pipeline identity: %s has no id; restore it from a backup (the tables name the id they belong to in %s)", path, table.PipelineIDProperty)
	case id.Name == name:
		return id, nil
	default:
		id.Name = name
	}
	if err := checkpoint.WriteJSON(path, id); err != nil {
		return id, fmt.Errorf("pipeline identity: %w", err)
	}
	return id, nil
}

// claimTables makes sure this update may write the tables it writes,
// before anything is written: the targets of the flows in plan.run.
//   - A table that does not exist yet is created with this pipeline's id
//     (table.Handle's metadata).
//   - A table without pipelines.pipelineId (written before pipegen
//     recorded owners) is adopted: a metadata-only commit (SET
//     TBLPROPERTIES; streaming readers skip it) adds the properties.
//   - A table owned by another pipeline id fails the update, naming the
//     tables and the ways out, unless plan.reset selects it: a full
//     refresh by this pipeline truncates the table and takes it over (its
//     truncating commit records the new owner; the old owner's next
//     update then fails). Databricks instead requires the table to be
//     dropped or moved first; a full refresh is pipegen's equivalent,
//     since it keeps none of the old rows.
func (u *update) claimTables(plan *flowPlan) error {
	for _, h := range u.handles {
		if h.Desc != nil {
			h.Owner = table.Owner{ID: u.identity.ID, Name: u.identity.Name}
		}
	}
	written := map[string]bool{}
	for f := range plan.run {
		written[f.Target.DatasetName()] = true
	}
	var conflicts, names []string
	for _, name := range slices.Sorted(maps.Keys(written)) {
		h, err := u.handle(name)
		if err != nil {
			return err
		}
		s, err := h.Meta()
		if err != nil {
			return err
		}
		if s == nil {
			continue
		}
		if err := delta.CheckWritable(fmt.Sprintf("table %s (%s)", name, h.Path), s.Protocol, s.Metadata); err != nil {
			return err
		}
		id, owner := table.OwnerOf(s.Metadata)
		switch {
		case id == u.identity.ID:
		case id == "":
			if err := h.Adopt(); err != nil {
				return err
			}
			u.log.Emit(eventlog.Event{Type: "flow_progress", Origin: eventlog.Origin{Dataset: name},
				Message: fmt.Sprintf("Table %s had no %s: pipeline %s (id %s) now manages it.", name, table.PipelineIDProperty, u.p.Name, u.identity.ID)})
		case slices.Contains(plan.reset, name):
			u.log.Emit(eventlog.Event{Type: "flow_progress", Level: "WARN", Origin: eventlog.Origin{Dataset: name},
				Message: fmt.Sprintf("Table %s was managed by pipeline %s; this full refresh takes it over for pipeline %s (id %s).", name, table.DescribeOwner(id, owner), u.p.Name, u.identity.ID)})
		default:
			names = append(names, name)
			conflicts = append(conflicts, fmt.Sprintf("table %s (%s) is managed by pipeline %s, not by this pipeline %s (id %s, storage %s)",
				name, h.Path, table.DescribeOwner(id, owner), u.p.Name, u.identity.ID, u.storage))
		}
	}
	if len(conflicts) == 0 {
		return nil
	}
	return fmt.Errorf("[TABLE_OWNED_BY_ANOTHER_PIPELINE] %s; nothing was written. A table is managed by one pipeline: "+
		"give this pipeline's dataset another catalog, schema or table name; or run with the owning pipeline's --storage "+
		"(the one whose pipeline.json holds that id); or, to move the table to this pipeline, rerun with --full-refresh %s "+
		"(its rows are recomputed from this pipeline's input and the other pipeline can no longer write it)",
		strings.Join(conflicts, "; "), strings.Join(names, ","))
}
