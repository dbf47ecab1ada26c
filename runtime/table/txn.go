package table

import (
	"encoding/json"
	"fmt"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/delta"
)

// Txn is the Delta txn action a commit carries (Delta protocol,
// "Transaction Identifiers"): the flow's id as appId and its micro-batch
// or refresh number as version, so that a batch is committed once.
type Txn struct {
	// AppID is the flow's id (its checkpoint's metadata id); Version the
	// batch or refresh number.
	AppID   string
	Version int64
	// Progress, when set, is what the batch read, recorded in the commit
	// (commitInfo.pipegenProgress) so a lost checkpoint can be rebuilt
	// from the table's log (the runtime's checkpoint repair).
	Progress *checkpoint.CommitRecord
}

// apply sets t as the txn of the commit of opts, with its progress
// record.
func (t *Txn) apply(opts *delta.WriteOptions) {
	if t == nil {
		return
	}
	opts.Txn = &delta.Txn{AppID: t.AppID, Version: t.Version}
	if t.Progress != nil {
		opts.Progress = mustJSONCompact(t.Progress)
	}
}

// alreadyCommitted fails when s holds t's transaction already (a txn of
// the same appId at t's version or later): a micro-batch or refresh is
// never committed twice, whatever the checkpoint says.
func (t *Txn) alreadyCommitted(table string, s *delta.Snapshot) error {
	if t == nil || s == nil {
		return nil
	}
	if v, ok := s.TxnVersion(t.AppID); ok && v >= t.Version {
		return fmt.Errorf("table %s already holds transaction %d of %s (its log records version %d for that application id): the batch is not committed again; "+
			"the flow's checkpoint is behind its table: rerun the update, which rebuilds it, or run with --full-refresh %s", table, t.Version, t.AppID, v, table)
	}
	return nil
}

// NotAppendError is the error of a streaming read of a table that changed
// by other means than appends (Delta's "data update detected" of a
// streaming source).
type NotAppendError struct {
	// Table is the table's name; Version the commit that is not an append.
	Table   string
	Version int64
}

// Error names the table and version and says a full refresh of the
// tables that stream from it is needed.
func (e *NotAppendError) Error() string {
	return fmt.Sprintf("table %s changed at version %d by an operation that is not an append (a full refresh, a delete or an overwrite); "+
		"a streaming read only follows appends: run a full refresh of the tables that stream from %s", e.Table, e.Version, e.Table)
}

// mustJSONCompact is v as compact JSON; only this package's and
// checkpoint's plain structs are marshalled, which cannot fail.
func mustJSONCompact(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own plain structs are marshalled
	}
	return b
}
