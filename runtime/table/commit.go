package table

import (
	"fmt"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// Ensure creates the table if it does not exist, and evolves its schema
// (new nullable columns) when the dataset's schema grew. An incompatible
// change fails with the instruction to run a full refresh.
func (h *Handle) Ensure(d *Desc) error {
	return h.retryCommit(false, func(s *delta.Snapshot) (err error) {
		var opts delta.WriteOptions
		if s == nil {
			if opts.Metadata, err = h.metadataFor(d, d.Columns, "", time.Now()); err != nil {
				return err
			}
			opts.Operation = "CREATE TABLE"
			opts.OperationParameters = map[string]any{"isManaged": "false", "description": d.Comment, "partitionBy": partitionJSON(d.PartitionBy), "properties": "{}"}
		} else {
			if d.Kind != MaterializedView {
				if err := CheckPartitioning(h.Name, s.Metadata.PartitionColumns, d.PartitionBy); err != nil {
					return err
				}
			}
			schema, widened, changed, err := evolve(h.Name, s.Schema, d.Columns)
			if err == nil {
				err = checkWidenedPartitions(h.Name, widened, s.Metadata.PartitionColumns)
			}
			if err != nil {
				return err
			}
			if !changed {
				return nil
			}
			created := time.UnixMilli(0)
			if s.Metadata.CreatedTime != nil {
				created = time.UnixMilli(*s.Metadata.CreatedTime)
			}
			if opts.Metadata, err = h.metadataFor(d, schema, s.Metadata.ID, created); err != nil {
				return err
			}
			// The type change history is kept (protocol: writers preserve
			// delta.typeChanges), and so is the property enabling it.
			if opts.Metadata.SchemaString, err = delta.WidenedSchemaString(s.Metadata.SchemaString, schema, widened); err != nil {
				return fmt.Errorf("table %s: %w", h.Name, err)
			}
			opts.Operation = "ADD COLUMNS"
			opts.OperationParameters = map[string]any{}
			if len(widened) > 0 || delta.TypeWideningEnabled(s.Metadata.Configuration) {
				opts.Metadata.Configuration[delta.TypeWideningProperty] = "true"
			}
			if len(widened) > 0 {
				opts.Operation = "CHANGE COLUMN"
				changes := make([]map[string]any, len(widened))
				for i, w := range widened {
					changes[i] = map[string]any{"column": w.Column, "fromType": delta.TypeName(w.From), "toType": delta.TypeName(w.To)}
				}
				opts.OperationParameters = map[string]any{"typeChanges": changes}
			}
		}
		if _, err = delta.Append(h.Path, s, nil, opts); err != nil {
			return fmt.Errorf("table %s: %w", h.Name, err)
		}
		return nil
	})
}

func partitionJSON(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = fmt.Sprintf("%q", c)
	}
	return "[" + strings.Join(q, ",") + "]"
}

func (h *Handle) adds(files []DataFile) []delta.Add {
	now := time.Now()
	out := make([]delta.Add, len(files))
	for i, f := range files {
		out[i] = delta.NewAdd(f.Rel, f.PartitionValues, parquetio.FileInfo{Size: f.Size, NumRecords: f.Rows, Stats: f.Stats}, now)
	}
	return out
}

// CommitAppend commits the files as a blind append with the flow's txn
// (nil for none), op and params being commitInfo's operation and
// operationParameters. An append needs the table's metadata, not its
// files. It fails when the table does not exist or already holds txn
// (a batch is never committed twice).
func (h *Handle) CommitAppend(files []DataFile, txn *Txn, op string, params map[string]any) error {
	adds := h.adds(files)
	return h.commitExisting(delta.WriteOptions{Operation: op, OperationParameters: params}, txn, false, func(s *delta.Snapshot, opts delta.WriteOptions) error {
		_, err := delta.Append(h.Path, s, adds, opts)
		return err
	})
}

// retryCommit runs commit under h's lock with the table's latest snapshot
// (with its live files when withFiles, else its metadata only; nil when
// the table does not exist yet), and again from a fresh snapshot for as
// long as another writer committed the version it tried first
// (delta.Retry). It is the one commit loop of a table handle.
func (h *Handle) retryCommit(withFiles bool, commit func(s *delta.Snapshot) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	load := h.Meta
	if withFiles {
		load = h.Snapshot
	}
	return delta.Retry(func() error {
		s, err := load()
		if err != nil {
			return err
		}
		return commit(s)
	})
}

// commitExisting commits to the existing table with write, given the
// latest snapshot (with its live files when withFiles, else its metadata
// only) and opts with the flow's txn; it reloads and retries when another
// writer committed first.
func (h *Handle) commitExisting(opts delta.WriteOptions, txn *Txn, withFiles bool, write func(s *delta.Snapshot, opts delta.WriteOptions) error) error {
	txn.apply(&opts)
	return h.retryCommit(withFiles, func(s *delta.Snapshot) error {
		if s == nil {
			return fmt.Errorf("table %s does not exist at %s", h.Name, h.Path)
		}
		if err := txn.alreadyCommitted(h.Name, s); err != nil {
			return err
		}
		if err := write(s, opts); err != nil {
			return fmt.Errorf("commit %s: %w", h.Name, err)
		}
		return nil
	})
}

// CommitReplace replaces the table's contents (and schema) with files in
// one commit: readers see the old rows or the new, never none. The
// metadata is rewritten (the table's id and creation time kept) when the
// schema, the partitioning or the owner changes; txn may be nil. The
// table is created when absent.
func (h *Handle) CommitReplace(d *Desc, files []DataFile, txn *Txn) error {
	adds := h.adds(files)
	return h.retryCommit(true, func(s *delta.Snapshot) (err error) {
		opts := delta.WriteOptions{Operation: "CREATE OR REPLACE TABLE AS SELECT", OperationParameters: map[string]any{
			"isManaged": "false", "description": d.Comment, "partitionBy": partitionJSON(d.PartitionBy), "properties": "{}",
		}}
		txn.apply(&opts)
		if err := txn.alreadyCommitted(h.Name, s); err != nil {
			return err
		}
		id, created := "", time.Now()
		if s != nil {
			id = s.Metadata.ID
			if s.Metadata.CreatedTime != nil {
				created = time.UnixMilli(*s.Metadata.CreatedTime)
			}
		}
		// A full refresh that takes the table over from another pipeline
		// records the new owner in this commit.
		if s == nil || !types.StructOf(s.Schema...).Equal(types.StructOf(d.Columns...)) || !samePartitioning(s.Metadata.PartitionColumns, d.PartitionBy) ||
			!h.ownedBy(s.Metadata) {
			if opts.Metadata, err = h.metadataFor(d, d.Columns, id, created); err != nil {
				return err
			}
		}
		if _, err = delta.Overwrite(h.Path, s, adds, opts); err != nil {
			return fmt.Errorf("commit %s: %w", h.Name, err)
		}
		return nil
	})
}

// Truncate removes every row of the table for a full refresh and resets
// its schema to the dataset's; it creates the table when absent.
func (h *Handle) Truncate(d *Desc) error {
	return h.CommitReplace(d, nil, nil)
}

// CommitMerge commits a copy-on-write rewrite of some files (removes
// replaced by adds) with its change data files (Delta's cdc actions) and
// the flow's txn, as a MERGE with params. It fails when the files it
// removes are no longer live.
func (h *Handle) CommitMerge(removes, adds []delta.Add, changes []delta.CDC, txn *Txn, params map[string]any) error {
	opts := delta.WriteOptions{Operation: "MERGE", OperationParameters: params, Changes: changes}
	return h.commitExisting(opts, txn, true, func(s *delta.Snapshot, opts delta.WriteOptions) error {
		_, err := delta.ReplaceFiles(h.Path, s, removes, adds, opts)
		return err
	})
}
