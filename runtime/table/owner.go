package table

import (
	"fmt"
	"maps"

	"github.com/pipegen/pipegen/runtime/delta"
)

// Table properties that record which pipeline manages a table, as on
// Databricks, where a table belongs to the one pipeline named by its
// pipelines.pipelineId property and another pipeline cannot write it.
const (
	// PipelineIDProperty holds the id of the pipeline (its storage's
	// pipeline.json) that manages the table.
	PipelineIDProperty = "pipelines.pipelineId"
	// PipelineNameProperty holds that pipeline's name, for messages only:
	// ownership is decided by the id.
	PipelineNameProperty = "pipelines.pipelineName"
)

// Owner is the pipeline that writes a table, as its metadata records it
// (PipelineIDProperty, PipelineNameProperty): the id of the pipeline's
// storage (pipeline.json) and its name.
type Owner struct {
	// ID decides ownership; Name is for messages only.
	ID, Name string
}

// OwnerOf returns the pipeline id and name recorded in a table's
// metadata ("" when the table predates ownership or was written by
// another engine).
func OwnerOf(m delta.Metadata) (id, name string) {
	return m.Configuration[PipelineIDProperty], m.Configuration[PipelineNameProperty]
}

// DescribeOwner names the pipeline of id and name (OwnerOf) for messages:
// "name (id ID)", or "id ID" when the name is unknown.
func DescribeOwner(id, name string) string {
	if name == "" {
		return "id " + id
	}
	return fmt.Sprintf("%s (id %s)", name, id)
}

// ownerConfiguration adds the owner properties of h's pipeline to conf
// (nothing when h has no Owner: a handle outside an update).
func (h *Handle) ownerConfiguration(conf map[string]string) {
	if h.Owner.ID == "" {
		return
	}
	conf[PipelineIDProperty] = h.Owner.ID
	conf[PipelineNameProperty] = h.Owner.Name
}

// ownedBy reports whether metadata m records h's pipeline as its owner
// (true when h has none to record), by id and name.
func (h *Handle) ownedBy(m delta.Metadata) bool {
	id, name := OwnerOf(m)
	return h.Owner.ID == "" || (id == h.Owner.ID && name == h.Owner.Name)
}

// Adopt records h's pipeline as the owner of an existing table: a commit
// with the same metadata (id, schema, partitioning, other properties) plus
// the owner properties, and no data change (SET TBLPROPERTIES; streaming
// readers skip it). It does nothing when the table is absent or already
// records h's owner.
func (h *Handle) Adopt() error {
	return h.retryCommit(false, func(s *delta.Snapshot) error {
		if s == nil || h.ownedBy(s.Metadata) {
			return nil
		}
		m := s.Metadata
		m.Configuration = maps.Clone(m.Configuration)
		if m.Configuration == nil {
			m.Configuration = map[string]string{}
		}
		h.ownerConfiguration(m.Configuration)
		_, err := delta.Append(h.Path, s, nil, delta.WriteOptions{Metadata: &m, Operation: "SET TBLPROPERTIES",
			OperationParameters: map[string]any{"properties": fmt.Sprintf("{%q:%q,%q:%q}",
				PipelineIDProperty, h.Owner.ID, PipelineNameProperty, h.Owner.Name)}})
		if err != nil {
			return fmt.Errorf("table %s: record its pipeline: %w", h.Name, err)
		}
		return nil
	})
}
