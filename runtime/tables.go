package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/table"
	"github.com/pipegen/pipegen/runtime/types"
)

// tableHandle is one Delta table the update reads or writes. Commits from
// this process are serialized per table; commits from elsewhere (there
// should be none: the pipeline lock) are detected by the Delta log and
// retried.
type tableHandle struct {
	name string
	path string
	desc *tableDesc // nil for a table source
	// owner is the pipeline that writes the table, recorded in the
	// metadata the handle writes (see claimTables); zero outside an update.
	owner pipelineIdentity
	mu    sync.Mutex
}

// tableFile is a data file to read: its path, Delta partition values and
// deletion vector, and how its table's files are read (column mapping).
type tableFile struct {
	path            string
	size            int64
	partitionValues map[string]string
	stats           string // the add's statistics JSON, "" if none
	dv              *delta.DeletionVector
	layout          *delta.FileLayout
}

// open opens the file for reading as schema (logical column names): its
// partition values filled in, its columns found by physical name or id
// under column mapping, the rows its deletion vector deletes left out.
func (f tableFile) open(schema types.Schema) (*delta.FileReader, error) {
	return f.layout.Open(f.path, f.partitionValues, f.dv, schema)
}

// tableFileOf is the tableFile of an add action of the table at table.
func tableFileOf(table string, layout *delta.FileLayout, a delta.Add) tableFile {
	return tableFile{path: delta.FilePath(table, a.Path), size: a.Size, partitionValues: a.PartitionValues, stats: a.Stats, dv: a.DeletionVector, layout: layout}
}

// txnAction is the Delta txn a commit carries: the flow's id and batch.
type txnAction struct {
	AppID   string
	Version int64
	// Progress, when set, is what the batch read, recorded in the commit
	// (commitInfo.pipegenProgress) so a lost checkpoint can be rebuilt
	// from the table's log (see checkpointrepair.go).
	Progress *checkpoint.CommitRecord
}

// apply sets t as the txn of the commit of opts, with its progress
// record.
func (t *txnAction) apply(opts *delta.WriteOptions) {
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
func (t *txnAction) alreadyCommitted(table string, s *delta.Snapshot) error {
	if t == nil || s == nil {
		return nil
	}
	if v, ok := s.TxnVersion(t.AppID); ok && v >= t.Version {
		return fmt.Errorf("table %s already holds transaction %d of %s (its log records version %d for that application id): the batch is not committed again; "+
			"the flow's checkpoint is behind its table: rerun the update, which rebuilds it, or run with --full-refresh %s", table, t.Version, t.AppID, v, table)
	}
	return nil
}

func newTableHandle(name, path string, desc *tableDesc) *tableHandle {
	return &tableHandle{name: name, path: path, desc: desc}
}

// snapshot loads the latest snapshot, or nil when the table does not exist.
func (h *tableHandle) snapshot() (*delta.Snapshot, error) {
	s, err := delta.Load(h.path)
	if errors.Is(err, delta.ErrNoTable) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", h.name, err)
	}
	return s, nil
}

// meta loads the latest snapshot without its data files (Files is nil;
// see delta.LoadMetadata), or nil when the table does not exist: enough
// to append, to check a txn, the schema or the version, at a cost that
// does not grow with the table's files.
func (h *tableHandle) meta() (*delta.Snapshot, error) {
	s, err := delta.LoadMetadata(h.path)
	if errors.Is(err, delta.ErrNoTable) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", h.name, err)
	}
	return s, nil
}

func (h *tableHandle) exists() (bool, error) {
	v, err := h.latestVersion()
	return v >= 0, err
}

// latestVersion returns the latest version, -1 when there is none.
func (h *tableHandle) latestVersion() (int64, error) {
	v, err := delta.LatestVersion(h.path)
	if errors.Is(err, delta.ErrNoTable) {
		return -1, nil
	}
	if err != nil {
		return -1, fmt.Errorf("table %s: %w", h.name, err)
	}
	return v, nil
}

// files returns the tableFiles of adds of the table at the snapshot s
// (which may have no Files: only its metadata is used).
func (h *tableHandle) files(s *delta.Snapshot, adds []delta.Add) []tableFile {
	out := make([]tableFile, len(adds))
	layout := delta.NewFileLayout(h.path, delta.Metadata{})
	if s != nil {
		layout = s.Layout()
	}
	for i, a := range adds {
		out[i] = tableFileOf(h.path, layout, a)
	}
	return out
}

// liveFiles returns the data files of the latest snapshot (none when the
// table does not exist yet).
func (h *tableHandle) liveFiles() ([]tableFile, error) {
	s, err := h.snapshot()
	if err != nil || s == nil {
		return nil, err
	}
	return h.files(s, s.Files), nil
}

// prune returns the files the filter terms do not rule out (see
// delta.Pruner), judged by the table's latest metadata, and how many
// they ruled out.
func (h *tableHandle) prune(files []tableFile, terms []delta.PruneTerm) ([]tableFile, int, error) {
	if len(terms) == 0 || len(files) == 0 {
		return files, 0, nil
	}
	s, err := h.meta()
	if err != nil {
		return nil, 0, err
	}
	p := delta.NewPruner(s, terms)
	if p == nil {
		return files, 0, nil
	}
	keep := make([]tableFile, 0, len(files))
	for _, f := range files {
		if !p.Skip(f.partitionValues, f.stats) {
			keep = append(keep, f)
		}
	}
	return keep, len(files) - len(keep), nil
}

// currentSchema returns the schema in the table's metadata.
func (h *tableHandle) currentSchema() (types.Schema, error) {
	s, err := h.meta()
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, fmt.Errorf("table %s does not exist at %s", h.name, h.path)
	}
	return s.Schema, nil
}

// numRecords sums numRecords of the live files' statistics, less the
// rows their deletion vectors delete.
func (h *tableHandle) numRecords() (int64, error) {
	s, err := h.snapshot()
	if err != nil || s == nil {
		return 0, err
	}
	var n int64
	for _, f := range s.Files {
		var st struct {
			NumRecords int64 `json:"numRecords"`
		}
		if json.Unmarshal([]byte(f.Stats), &st) == nil {
			n += st.NumRecords
		}
		if f.DeletionVector != nil { // numRecords counts the file's rows, deleted ones too
			n -= f.DeletionVector.Cardinality
		}
	}
	return n, nil
}

// signature identifies the table's state for a materialized view's no-op
// check: its id (a re-created table differs) and version.
func (h *tableHandle) signature() (string, error) {
	s, err := h.meta()
	if err != nil {
		return "", err
	}
	if s == nil {
		return "absent", nil
	}
	return fmt.Sprintf("%s@%d", s.Metadata.ID, s.Version), nil
}

// filesBetween returns the files a streaming read takes for versions
// (from, to]: with from = -1, the snapshot at to (Delta's streaming source
// starts from the table's snapshot); otherwise the files added by each
// commit. A commit that is not append-only fails the read.
func (h *tableHandle) filesBetween(from, to int64) ([]tableFile, error) {
	if from < 0 {
		s, err := delta.LoadVersion(h.path, to)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", h.name, err)
		}
		return h.files(s, s.Files), nil
	}
	commits, err := delta.ReadCommits(h.path, from, to)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", h.name, err)
	}
	m, err := h.meta()
	if err != nil {
		return nil, err
	}
	var out []tableFile
	for _, c := range commits {
		if !c.AppendOnly() {
			return nil, &notAppendError{table: h.name, version: c.Version}
		}
		out = append(out, h.files(m, c.Adds())...)
	}
	return out, nil
}

// notAppendError is the error of a streaming read of a table that changed
// by other means than appends (Delta's "data update detected" of a
// streaming source).
type notAppendError struct {
	table   string
	version int64
}

func (e *notAppendError) Error() string {
	return fmt.Sprintf("table %s changed at version %d by an operation that is not an append (a full refresh, a delete or an overwrite); "+
		"a streaming read only follows appends: run a full refresh of the tables that stream from %s", e.table, e.version, e.table)
}

// batchCommitted reports whether the table holds a txn for appID at
// version batch or later: the batch's output was committed.
func (h *tableHandle) batchCommitted(appID string, batch int64) (bool, error) {
	s, err := h.meta()
	if err != nil || s == nil {
		return false, err
	}
	v, ok := s.TxnVersion(appID)
	return ok && v >= batch, nil
}

// metadataFor returns the Delta metadata for a dataset: its schema,
// partition columns, properties (plus the owning pipeline's, see
// PipelineIDProperty) as configuration and comment.
func (h *tableHandle) metadataFor(d *tableDesc, schema types.Schema, id string, created time.Time) (*delta.Metadata, error) {
	conf := map[string]string{}
	for k, v := range d.properties {
		conf[k] = v
	}
	h.ownerConfiguration(conf)
	m, err := delta.NewMetadata(schema, d.partitionBy, conf, created)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", d.name, err)
	}
	m.Name = &d.table
	if d.comment != "" {
		m.Description = &d.comment
	}
	if id != "" {
		m.ID = id
	}
	return &m, nil
}

// evolve returns the schema the table must have to take rows of want, or
// an error telling the user a full refresh is needed. Columns are matched
// by name, case-insensitively as Spark does: existing columns keep their
// place; new columns are appended (nullable: old rows read them as NULL);
// columns the query no longer produces stay and must be nullable. A
// top-level column whose type widens as Delta's type widening allows
// (types.Widens: INT → BIGINT, FLOAT → DOUBLE, DECIMAL precision up, ...)
// takes the wider type, listed in widened (the table then needs the
// typeWidening feature; old files are read converted); any other type
// change needs a full refresh.
func evolve(table string, have, want types.Schema) (out types.Schema, widened []delta.Widening, changed bool, err error) {
	out = append(types.Schema(nil), have...)
	for _, f := range want {
		i := have.Index(f.Name)
		if i < 0 {
			nf := f
			nf.Nullable = true
			out = append(out, nf)
			changed = true
			continue
		}
		if !have[i].Type.EqualIgnoringNullability(f.Type) {
			if !types.Widens(have[i].Type, f.Type) {
				return nil, nil, false, fmt.Errorf("table %s: column %s changed type from %s to %s, which is not a change Delta's type widening allows; the existing rows cannot be kept: "+
					"a full refresh is required: run with --full-refresh %s", table, f.Name, have[i].Type, f.Type, table)
			}
			out[i].Type = f.Type
			widened = append(widened, delta.Widening{Column: have[i].Name, From: have[i].Type, To: f.Type})
			changed = true
		}
		if f.Nullable && !have[i].Nullable {
			out[i].Nullable = true
			changed = true
		}
	}
	for _, f := range have {
		if want.Index(f.Name) < 0 && !f.Nullable {
			return nil, nil, false, fmt.Errorf("table %s: NOT NULL column %s is no longer produced; a full refresh is required: run with --full-refresh %s",
				table, f.Name, table)
		}
	}
	return out, widened, changed, nil
}

// checkSchema reports whether rows of d's schema and partitioning can be
// written to the existing table without a full refresh, and the widenings
// (Delta's type widening) the next update applies to its columns.
func (h *tableHandle) checkSchema(d *tableDesc) ([]delta.Widening, error) {
	s, err := h.meta()
	if err != nil || s == nil {
		return nil, err
	}
	if d.kind == MaterializedView {
		return nil, nil // replaced as a whole, schema and partitioning included
	}
	if err := checkPartitioning(h.name, s.Metadata.PartitionColumns, d.partitionBy); err != nil {
		return nil, err
	}
	_, widened, _, err := evolve(h.name, s.Schema, d.columns)
	if err == nil {
		err = checkWidenedPartitions(h.name, widened, s.Metadata.PartitionColumns)
	}
	return widened, err
}

// checkWidenedPartitions refuses to widen a partition column: its values
// live in the log's partitionValues and the folder names, written for the
// old type, so only a full refresh changes it.
func checkWidenedPartitions(table string, widened []delta.Widening, partitionColumns []string) error {
	for _, w := range widened {
		for _, pc := range partitionColumns {
			if strings.EqualFold(pc, w.Column) {
				return fmt.Errorf("table %s: partition column %s changed type from %s to %s; pipegen widens only columns that do not partition the table: "+
					"a full refresh is required: run with --full-refresh %s", table, w.Column, w.From, w.To, table)
			}
		}
	}
	return nil
}

// partitioningChange describes how d's partition columns differ from those
// of the existing table ("" when they do not, or the table is absent).
func (h *tableHandle) partitioningChange(d *tableDesc) (string, error) {
	s, err := h.meta()
	if err != nil || s == nil {
		return "", err
	}
	if samePartitioning(s.Metadata.PartitionColumns, d.partitionBy) {
		return "", nil
	}
	return fmt.Sprintf("from %s to %s", partitionList(s.Metadata.PartitionColumns), partitionList(d.partitionBy)), nil
}

// checkPartitioning fails when a table partitioned by have would be
// written as partitioned by want: its files are laid out by have, so
// only a full refresh can change that (as in Spark, where appending with
// other partition columns fails).
func checkPartitioning(table string, have, want []string) error {
	if samePartitioning(have, want) {
		return nil
	}
	return fmt.Errorf("table %s: its partition columns change from %s to %s; the existing files are laid out by the old ones: "+
		"a full refresh is required: run with --full-refresh %s", table, partitionList(have), partitionList(want), table)
}

// samePartitioning compares partition column lists, names
// case-insensitively as Spark does.
func samePartitioning(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}

func partitionList(cols []string) string {
	if len(cols) == 0 {
		return "none"
	}
	return "(" + strings.Join(cols, ", ") + ")"
}

// ensure creates the table if it does not exist, and evolves its schema
// (new nullable columns) when the dataset's schema grew. An incompatible
// change fails with the instruction to run a full refresh.
func (h *tableHandle) ensure(d *tableDesc) error {
	return h.retryCommit(false, func(s *delta.Snapshot) (err error) {
		var opts delta.WriteOptions
		if s == nil {
			if opts.Metadata, err = h.metadataFor(d, d.columns, "", time.Now()); err != nil {
				return err
			}
			opts.Operation = "CREATE TABLE"
			opts.OperationParameters = map[string]any{"isManaged": "false", "description": d.comment, "partitionBy": partitionJSON(d.partitionBy), "properties": "{}"}
		} else {
			if d.kind != MaterializedView {
				if err := checkPartitioning(h.name, s.Metadata.PartitionColumns, d.partitionBy); err != nil {
					return err
				}
			}
			schema, widened, changed, err := evolve(h.name, s.Schema, d.columns)
			if err == nil {
				err = checkWidenedPartitions(h.name, widened, s.Metadata.PartitionColumns)
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
				return fmt.Errorf("table %s: %w", h.name, err)
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
		if _, err = delta.Append(h.path, s, nil, opts); err != nil {
			return fmt.Errorf("table %s: %w", h.name, err)
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

func (h *tableHandle) adds(files []table.DataFile) []delta.Add {
	now := time.Now()
	out := make([]delta.Add, len(files))
	for i, f := range files {
		out[i] = delta.NewAdd(f.Rel, f.PartitionValues, parquetio.FileInfo{Size: f.Size, NumRecords: f.Rows, Stats: f.Stats}, now)
	}
	return out
}

// commitAppend commits the files as a blind append with the flow's txn.
// An append needs the table's metadata, not its files.
func (h *tableHandle) commitAppend(files []table.DataFile, txn *txnAction, op string, params map[string]any) error {
	adds := h.adds(files)
	return h.commitExisting(delta.WriteOptions{Operation: op, OperationParameters: params}, txn, false, func(s *delta.Snapshot, opts delta.WriteOptions) error {
		_, err := delta.Append(h.path, s, adds, opts)
		return err
	})
}

// retryCommit runs commit under h's lock with the table's latest snapshot
// (with its live files when withFiles, else its metadata only; nil when
// the table does not exist yet), and again from a fresh snapshot for as
// long as another writer committed the version it tried first
// (delta.Retry). It is the one commit loop of a table handle.
func (h *tableHandle) retryCommit(withFiles bool, commit func(s *delta.Snapshot) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	load := h.meta
	if withFiles {
		load = h.snapshot
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
func (h *tableHandle) commitExisting(opts delta.WriteOptions, txn *txnAction, withFiles bool, write func(s *delta.Snapshot, opts delta.WriteOptions) error) error {
	txn.apply(&opts)
	return h.retryCommit(withFiles, func(s *delta.Snapshot) error {
		if s == nil {
			return fmt.Errorf("table %s does not exist at %s", h.name, h.path)
		}
		if err := txn.alreadyCommitted(h.name, s); err != nil {
			return err
		}
		if err := write(s, opts); err != nil {
			return fmt.Errorf("commit %s: %w", h.name, err)
		}
		return nil
	})
}

// commitReplace replaces the table's contents (and schema) with files in
// one commit: readers see the old rows or the new, never none.
func (h *tableHandle) commitReplace(d *tableDesc, files []table.DataFile, txn *txnAction) error {
	adds := h.adds(files)
	return h.retryCommit(true, func(s *delta.Snapshot) (err error) {
		opts := delta.WriteOptions{Operation: "CREATE OR REPLACE TABLE AS SELECT", OperationParameters: map[string]any{
			"isManaged": "false", "description": d.comment, "partitionBy": partitionJSON(d.partitionBy), "properties": "{}",
		}}
		txn.apply(&opts)
		if err := txn.alreadyCommitted(h.name, s); err != nil {
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
		if s == nil || !types.StructOf(s.Schema...).Equal(types.StructOf(d.columns...)) || !samePartitioning(s.Metadata.PartitionColumns, d.partitionBy) ||
			!h.ownedBy(s.Metadata) {
			if opts.Metadata, err = h.metadataFor(d, d.columns, id, created); err != nil {
				return err
			}
		}
		if _, err = delta.Overwrite(h.path, s, adds, opts); err != nil {
			return fmt.Errorf("commit %s: %w", h.name, err)
		}
		return nil
	})
}

// truncate removes every row of the table for a full refresh and resets
// its schema to the dataset's; it creates the table when absent.
func (h *tableHandle) truncate(d *tableDesc) error {
	return h.commitReplace(d, nil, nil)
}

func init() {
	// Commits name the engine that wrote them (commitInfo.engineInfo).
	delta.EngineInfo = "pipegen/" + Version
}
