package runtime

import (
	"errors"
	"fmt"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// flowType returns the event log's flow_type of a flow kind (Databricks
// event log, flow_definition): a once flow is an APPEND flow that runs
// once.
func (k FlowKind) flowType() string {
	if k == OnceFlow {
		return string(AppendFlow)
	}
	return string(k)
}

// readsChangeFeed reports whether flow f reads input name as a change feed.
func readsChangeFeed(f *Flow, name string) bool {
	for _, in := range f.Inputs {
		if in.ChangeFeed && in.Relation.relationName() == name {
			return true
		}
	}
	return false
}

// ChangeFeed is a table of the pipeline read as its change data feed: a
// STREAM(x) read by a flow or view with `read_change_feed: true` (Delta's
// readChangeFeed streaming option). Each micro-batch reads the row-level
// changes of the table versions it covers: the table's columns, then
// _change_type (insert, update_preimage, update_postimage, delete),
// _commit_version and _commit_timestamp (see delta.ChangeFeedSchema). Its
// first micro-batch reads the table's snapshot as inserts, as Delta does
// for a change feed stream without a starting version.
//
// This is how a streaming table follows an AUTO CDC target, whose commits
// update and delete rows: a plain STREAM(x) only follows appends.
type ChangeFeed[T any] struct {
	// Table is the dataset read.
	Table Dataset
	// Codec's Schema is the table's columns then the three change columns.
	Codec RowCodec[T]
}

func (c *ChangeFeed[T]) relationName() string { return c.Table.DatasetName() }

func (c *ChangeFeed[T]) scan(ctx *FlowContext, opts ScanOptions, fn func(*Worker, []T) error) error {
	name := c.relationName()
	var vr checkpoint.VersionRange
	ok := false
	if ctx.batch != nil {
		vr, ok = ctx.batch.feeds[name]
	}
	if !opts.Streaming || !ok {
		return fmt.Errorf("the change feed of %s is only read as a stream (STREAM(%s))", name, name)
	}
	h, err := ctx.u.handle(name)
	if err != nil {
		return err
	}
	n := len(c.Codec.Schema) - 3
	if n < 0 {
		return fmt.Errorf("the change feed schema of %s lacks the change columns", name)
	}
	want := c.Codec.Schema[:n]
	var rows [][]any
	if vr.From < 0 {
		snap, err := delta.LoadVersion(h.Path, vr.To)
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
		commit, err := delta.ReadCommit(h.Path, vr.To)
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
		if rows, err = snap.ReadAll(want); err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
		for i, r := range rows {
			rows[i] = append(r, delta.ChangeInsert, vr.To, types.Timestamp(commit.Timestamp*1000))
		}
	} else if rows, err = delta.ReadChangeFeed(h.Path, vr.From+1, vr.To, want); err != nil {
		if errors.Is(err, delta.ErrChangeDataVacuumed) {
			// The reader's checkpoint points at versions whose files are
			// gone: only a full refresh, which reads the snapshot, resumes.
			return fmt.Errorf("read the change feed of %s: %w; to recover, run --full-refresh %s (it restarts from the snapshot of the table it reads)",
				name, err, ctx.flow.Target.DatasetName())
		}
		return fmt.Errorf("read the change feed of %s: %w", name, err)
	}
	w := ctx.Worker()
	enc := parquetio.NewEncoder(c.Codec.Schema)
	var row parquet.Row
	chunk := make([]T, 0, min(len(rows), scanChunk))
	for i, r := range rows {
		if row, err = enc.Append(row[:0], r); err != nil {
			return fmt.Errorf("read the change feed of %s: %w", name, err)
		}
		chunk = append(chunk, *new(T))
		if err := c.Codec.Assemble(row, &chunk[len(chunk)-1], &w.Arena); err != nil {
			return fmt.Errorf("read the change feed of %s: %w", name, err)
		}
		if len(chunk) == cap(chunk) || i == len(rows)-1 {
			ctx.metrics.inputRows.Add(int64(len(chunk)))
			if err := fn(w, chunk); err != nil {
				return err
			}
			chunk = chunk[:0]
		}
	}
	return nil
}
