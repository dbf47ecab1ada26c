package checkpoint

import (
	"time"

	"github.com/pipegen/pipegen/runtime/storage"
)

// RefreshFile is the name of a materialized view's Refresh record in its
// checkpoint folder, and OnceFile that of a once flow's Once record.
const (
	RefreshFile = "refresh.json"
	OnceFile    = "once.json"
)

// Refresh is what a materialized view's last refresh read (RefreshFile):
// an update whose definition and inputs are the same is a no-op.
type Refresh struct {
	// Definition is the flow's definition hash.
	Definition string `json:"definition"`
	// Params identifies the parameter values of the refresh: a query that
	// uses ${param} means something else when the value changes.
	Params string `json:"params,omitempty"`
	// Inputs is the signature of each input as read, by input name.
	Inputs map[string]string `json:"inputs"`
	// Refreshes counts the refreshes recorded.
	Refreshes int64 `json:"refreshes"`
	// FlowID is the txn appId of the view's commits.
	FlowID string `json:"flowId"`
	// StateFile is the aggregation state saved by the last refresh, for a
	// GROUP_AGGREGATE refresh (see the runtime's refreshplan.go).
	StateFile string `json:"stateFile,omitempty"`
}

// Once records that a once flow ran since its target's last full refresh
// (OnceFile).
type Once struct {
	// FlowID is the txn appId of the flow's commit.
	FlowID string `json:"flowId"`
	// Done is set once the flow's commit is in the table, at At (UTC).
	Done bool      `json:"done"`
	At   time.Time `json:"at"`
}

// IDs returns the flow ids (Delta txn appIds) a flow's checkpoint folder
// dir holds: those of metadata.json, OnceFile and RefreshFile, in that
// order; a missing or unreadable file adds none.
func IDs(dir string) []string {
	var ids []string
	var meta Meta
	if ReadJSON(storage.Join(dir, "metadata.json"), &meta) == nil && meta.ID != "" {
		ids = append(ids, meta.ID)
	}
	var once Once
	if ReadJSON(storage.Join(dir, OnceFile), &once) == nil && once.FlowID != "" {
		ids = append(ids, once.FlowID)
	}
	var mv Refresh
	if ReadJSON(storage.Join(dir, RefreshFile), &mv) == nil && mv.FlowID != "" {
		ids = append(ids, mv.FlowID)
	}
	return ids
}
