package table

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/types"
)

// Handle is one Delta table a pipeline's update reads or writes. Commits from
// this process are serialized per table; commits from elsewhere (there
// should be none: the pipeline lock) are detected by the Delta log and
// retried.
type Handle struct {
	// Name is the pipeline's name of the table (its dataset or table
	// source), for messages; Path is the table's location (the folder that
	// holds _delta_log).
	Name, Path string
	// Desc is the table the pipeline defines (nil for a table source: a
	// table the pipeline reads and does not write).
	Desc *Desc
	// Owner is the pipeline that writes the table, recorded in the
	// metadata the handle writes (the runtime's claim of an update's
	// tables sets it); zero outside an update.
	Owner Owner
	mu    sync.Mutex
}

// New returns the handle of the table name at path, defined by desc (nil
// for a table the pipeline only reads). Nothing is read until it is used.
func New(name, path string, desc *Desc) *Handle {
	return &Handle{Name: name, Path: path, Desc: desc}
}

// Snapshot loads the latest snapshot, or nil when the table does not exist.
func (h *Handle) Snapshot() (*delta.Snapshot, error) {
	s, err := delta.Load(h.Path)
	if errors.Is(err, delta.ErrNoTable) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", h.Name, err)
	}
	return s, nil
}

// Meta loads the latest snapshot without its data files (Files is nil;
// see delta.LoadMetadata), or nil when the table does not exist: enough
// to append, to check a txn, the schema or the version, at a cost that
// does not grow with the table's files.
func (h *Handle) Meta() (*delta.Snapshot, error) {
	s, err := delta.LoadMetadata(h.Path)
	if errors.Is(err, delta.ErrNoTable) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", h.Name, err)
	}
	return s, nil
}

// Exists reports whether the table has a Delta log with a version.
func (h *Handle) Exists() (bool, error) {
	v, err := h.LatestVersion()
	return v >= 0, err
}

// LatestVersion returns the latest version, -1 when there is none.
func (h *Handle) LatestVersion() (int64, error) {
	v, err := delta.LatestVersion(h.Path)
	if errors.Is(err, delta.ErrNoTable) {
		return -1, nil
	}
	if err != nil {
		return -1, fmt.Errorf("table %s: %w", h.Name, err)
	}
	return v, nil
}

// Files returns the Files of adds of the table at the snapshot s
// (which may have no Files: only its metadata, for its layout, is used;
// nil when the table does not exist).
func (h *Handle) Files(s *delta.Snapshot, adds []delta.Add) []File {
	out := make([]File, len(adds))
	layout := delta.NewFileLayout(h.Path, delta.Metadata{})
	if s != nil {
		layout = s.Layout()
	}
	for i, a := range adds {
		out[i] = FileOf(h.Path, layout, a)
	}
	return out
}

// LiveFiles returns the data files of the latest snapshot (none when the
// table does not exist yet).
func (h *Handle) LiveFiles() ([]File, error) {
	s, err := h.Snapshot()
	if err != nil || s == nil {
		return nil, err
	}
	return h.Files(s, s.Files), nil
}

// Prune returns the files the filter terms do not rule out (see
// delta.Pruner), judged by the table's latest metadata, and how many
// they ruled out.
func (h *Handle) Prune(files []File, terms []delta.PruneTerm) ([]File, int, error) {
	if len(terms) == 0 || len(files) == 0 {
		return files, 0, nil
	}
	s, err := h.Meta()
	if err != nil {
		return nil, 0, err
	}
	p := delta.NewPruner(s, terms)
	if p == nil {
		return files, 0, nil
	}
	keep := make([]File, 0, len(files))
	for _, f := range files {
		if !p.Skip(f.partitionValues, f.stats) {
			keep = append(keep, f)
		}
	}
	return keep, len(files) - len(keep), nil
}

// CurrentSchema returns the schema in the table's metadata.
func (h *Handle) CurrentSchema() (types.Schema, error) {
	s, err := h.Meta()
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, fmt.Errorf("table %s does not exist at %s", h.Name, h.Path)
	}
	return s.Schema, nil
}

// NumRecords sums numRecords of the live files' statistics, less the
// rows their deletion vectors delete.
func (h *Handle) NumRecords() (int64, error) {
	s, err := h.Snapshot()
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

// Signature identifies the table's state for a materialized view's no-op
// check: its id (a re-created table differs) and version.
func (h *Handle) Signature() (string, error) {
	s, err := h.Meta()
	if err != nil {
		return "", err
	}
	if s == nil {
		return "absent", nil
	}
	return fmt.Sprintf("%s@%d", s.Metadata.ID, s.Version), nil
}

// FilesBetween returns the files a streaming read takes for versions
// (from, to]: with from = -1, the snapshot at to (Delta's streaming source
// starts from the table's snapshot); otherwise the files added by each
// commit. A commit that is not append-only fails the read.
func (h *Handle) FilesBetween(from, to int64) ([]File, error) {
	if from < 0 {
		s, err := delta.LoadVersion(h.Path, to)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", h.Name, err)
		}
		return h.Files(s, s.Files), nil
	}
	commits, err := delta.ReadCommits(h.Path, from, to)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", h.Name, err)
	}
	m, err := h.Meta()
	if err != nil {
		return nil, err
	}
	var out []File
	for _, c := range commits {
		if !c.AppendOnly() {
			return nil, &NotAppendError{Table: h.Name, Version: c.Version}
		}
		out = append(out, h.Files(m, c.Adds())...)
	}
	return out, nil
}

// BatchCommitted reports whether the table holds a txn for appID at
// version batch or later: the batch's output was committed.
func (h *Handle) BatchCommitted(appID string, batch int64) (bool, error) {
	s, err := h.Meta()
	if err != nil || s == nil {
		return false, err
	}
	v, ok := s.TxnVersion(appID)
	return ok && v >= batch, nil
}

// metadataFor returns the Delta metadata for a dataset: its schema,
// partition columns, properties (plus the owning pipeline's, see
// PipelineIDProperty) as configuration and comment.
func (h *Handle) metadataFor(d *Desc, schema types.Schema, id string, created time.Time) (*delta.Metadata, error) {
	conf := map[string]string{}
	for k, v := range d.Properties {
		conf[k] = v
	}
	h.ownerConfiguration(conf)
	m, err := delta.NewMetadata(schema, d.PartitionBy, conf, created)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", d.Name, err)
	}
	m.Name = &d.Table
	if d.Comment != "" {
		m.Description = &d.Comment
	}
	if id != "" {
		m.ID = id
	}
	return &m, nil
}

// TxnVersion returns the version of the table's txn for appID, -1 when
// it has none (or the table does not exist).
func (h *Handle) TxnVersion(appID string) (int64, error) {
	s, err := h.Meta()
	if err != nil || s == nil {
		return -1, err
	}
	if v, ok := s.TxnVersion(appID); ok {
		return v, nil
	}
	return -1, nil
}
