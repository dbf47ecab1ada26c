package delta

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/types"
)

// ErrConflict is matched (errors.Is) by the error Commit returns when
// another writer created the version first.
var ErrConflict = errors.New("concurrent commit")

// ConflictError says that version Version of Table was committed by another
// writer between this writer's read and its commit. The caller may re-read
// the table and retry, or give up.
type ConflictError struct {
	Table   string
	Version int64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("commit %s: version %d was committed by another writer; reload the table and retry", e.Table, e.Version)
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// Commit writes actions as version readVersion+1 of the table ("Creation of
// New Log Entries") with the Store's PutIfAbsent, which fails if the
// version exists, so a commit is never overwritten (storage.Local: a
// hidden temporary file in `_delta_log`, fsynced, hard-linked to the
// version's name, then the directory fsynced). readVersion is -1
// for a new table, whose first commit must hold a protocol and a metaData
// action. It returns the new version, or a *ConflictError (ErrConflict)
// when another writer won the race for that version.
func Commit(table string, readVersion int64, actions []Action) (int64, error) {
	version := readVersion + 1
	if readVersion < -1 {
		return -1, fmt.Errorf("commit %s: invalid read version %d", table, readVersion)
	}
	if version == 0 {
		var p, m bool
		for _, a := range actions {
			p = p || a.Protocol != nil
			m = m || a.MetaData != nil
		}
		if !p || !m {
			return -1, fmt.Errorf("commit %s: the first commit of a table needs a protocol and a metaData action", table)
		}
	}
	data, err := encodeActions(actions)
	if err != nil {
		return -1, fmt.Errorf("commit %s: %w", table, err)
	}
	// PutIfAbsent creates the log's folders durably (the table's too, for
	// version 0) and fails with ErrExist when the version exists.
	if err := storage.At(table).PutIfAbsent(commitKey(version), data); err != nil {
		if errors.Is(err, storage.ErrExist) {
			return -1, &ConflictError{Table: table, Version: version}
		}
		return -1, fmt.Errorf("commit %s: version %d: %w", table, version, err)
	}
	return version, nil
}

// CommitRetries bounds the retries of a commit that lost a race (Retry).
const CommitRetries = 10

// Retry runs commit, which reads the table's latest snapshot and commits
// against it, again while it fails with ErrConflict (another writer
// committed first), at most CommitRetries times more; it returns commit's
// last error, or nil.
func Retry(commit func() error) error {
	for attempt := 0; ; attempt++ {
		err := commit()
		if !errors.Is(err, ErrConflict) || attempt >= CommitRetries {
			return err
		}
	}
}

// NewMetadata returns the metaData action of a new table: a random UUID id,
// format parquet, schema s, partition columns (names of s's columns) and
// table configuration (may be nil).
func NewMetadata(s types.Schema, partitionColumns []string, configuration map[string]string, created time.Time) (Metadata, error) {
	for _, c := range partitionColumns {
		i := s.Index(c)
		if i < 0 {
			return Metadata{}, fmt.Errorf("partition column %q is not a column of the schema", c)
		}
		if s[i].Type.IsNested() {
			return Metadata{}, fmt.Errorf("partition column %q has nested type %s", c, s[i].Type)
		}
	}
	ct := created.UnixMilli()
	if configuration == nil {
		configuration = map[string]string{}
	}
	return Metadata{
		ID:               newUUID(),
		Format:           Format{Provider: "parquet", Options: map[string]string{}},
		SchemaString:     SchemaString(s),
		PartitionColumns: append([]string{}, partitionColumns...),
		Configuration:    configuration,
		CreatedTime:      &ct,
	}, nil
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// WriteOptions complete the commits made by Append, Overwrite and
// ReplaceFiles.
type WriteOptions struct {
	// Metadata is written with the commit: required for a new table (then a
	// protocol action is written too: reader 1 and writer 2, writer 4 when
	// its configuration enables the change data feed, reader 3 and writer 7
	// with table features when its schema has TIMESTAMP_NTZ columns), or a
	// schema or property change (the protocol is upgraded in the same
	// commit when the new metadata needs more).
	Metadata *Metadata
	// Txn, when set, records the application's transaction version in the
	// same commit, so that data and progress commit atomically.
	Txn *Txn
	// Operation and OperationParameters go to commitInfo; each helper has
	// a default ("WRITE" with mode Append or Overwrite, "MERGE").
	Operation           string
	OperationParameters map[string]any
	// Now is the commit time; the zero value means time.Now().
	Now time.Time
	// Changes are the cdc actions of the commit (protocol, "Add CDC
	// File"): the `_change_data/` files that hold its row-level changes,
	// written by a commit that rewrites files of a table with the change
	// data feed enabled.
	Changes []CDC
	// Progress goes to commitInfo.pipegenProgress (see CommitInfo).
	Progress json.RawMessage
}

// Append commits adds to the table of snap (nil for a new table, with
// opts.Metadata set) as a blind append: commitInfo operation WRITE, mode
// Append, isBlindAppend true. It returns the new version or a
// *ConflictError.
func Append(table string, snap *Snapshot, adds []Add, opts WriteOptions) (int64, error) {
	return write(table, snap, nil, adds, opts, "WRITE", "Append")
}

// Overwrite replaces every live file of snap by adds in one commit
// (readers see the old rows or the new ones, never none): removes with
// dataChange=true, then the adds. Used to replace materialized views.
func Overwrite(table string, snap *Snapshot, adds []Add, opts WriteOptions) (int64, error) {
	var removes []Add
	if snap != nil {
		removes = snap.Files
	}
	return write(table, snap, removes, adds, opts, "WRITE", "Overwrite")
}

// ReplaceFiles removes the given live files of snap and adds others in one
// commit (an upsert or delete that rewrites some files). Operation defaults
// to MERGE.
func ReplaceFiles(table string, snap *Snapshot, removes, adds []Add, opts WriteOptions) (int64, error) {
	if snap == nil && len(removes) > 0 {
		return -1, fmt.Errorf("commit %s: cannot remove files from a table that does not exist", table)
	}
	if snap != nil {
		live := map[string]bool{}
		for _, f := range snap.Files {
			live[pathKey(f.Path)] = true
		}
		for _, r := range removes {
			if !live[pathKey(r.Path)] {
				return -1, fmt.Errorf("commit %s: file %s is not live at version %d", table, r.Path, snap.Version)
			}
		}
	}
	return write(table, snap, removes, adds, opts, "MERGE", "")
}

func write(table string, snap *Snapshot, removes, adds []Add, opts WriteOptions, op, mode string) (int64, error) {
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	readVersion := int64(-1)
	var actions []Action
	if snap == nil {
		if opts.Metadata == nil {
			return -1, fmt.Errorf("commit %s: a new table needs WriteOptions.Metadata", table)
		}
		p, err := requiredProtocol(*opts.Metadata)
		if err != nil {
			return -1, fmt.Errorf("commit %s: %w", table, err)
		}
		actions = append(actions, Action{Protocol: &p})
	} else {
		readVersion = snap.Version
		m := snap.Metadata
		if opts.Metadata != nil {
			m = *opts.Metadata
		}
		if err := checkWritable(table, snap.Protocol, m, len(removes) > 0); err != nil {
			return -1, err
		}
		need, err := requiredProtocol(m)
		if err != nil {
			return -1, fmt.Errorf("commit %s: %w", table, err)
		}
		if p, changed := upgradeProtocol(snap.Protocol, need); changed {
			actions = append(actions, Action{Protocol: &p})
		}
	}
	if len(opts.Changes) > 0 {
		m := opts.Metadata
		if m == nil && snap != nil {
			m = &snap.Metadata
		}
		if m == nil || !ChangeDataFeedEnabled(m.Configuration) {
			return -1, fmt.Errorf("commit %s: change data files need the table property %s=true", table, ChangeDataFeedProperty)
		}
	}
	if opts.Operation != "" {
		op = opts.Operation
	}
	params := opts.OperationParameters
	if params == nil {
		params = map[string]any{}
		if mode != "" {
			params["mode"] = mode
		}
		var parts []string
		if opts.Metadata != nil {
			parts = opts.Metadata.PartitionColumns
		} else if snap != nil {
			parts = snap.Metadata.PartitionColumns
		}
		if mode != "" {
			params["partitionBy"] = partitionByJSON(parts)
		}
	}
	blind := len(removes) == 0
	info := &CommitInfo{Timestamp: now.UnixMilli(), Operation: op, OperationParameters: params, IsolationLevel: "Serializable", IsBlindAppend: &blind, EngineInfo: EngineInfo, Progress: opts.Progress}
	if snap != nil {
		info.ReadVersion = &readVersion
	}
	actions = append([]Action{{CommitInfo: info}}, actions...)
	if opts.Metadata != nil {
		actions = append(actions, Action{MetaData: opts.Metadata})
	}
	if opts.Txn != nil {
		t := *opts.Txn
		if t.LastUpdated == nil {
			ms := now.UnixMilli()
			t.LastUpdated = &ms
		}
		actions = append(actions, Action{Txn: &t})
	}
	for _, r := range removes {
		rm := RemoveOf(r, now, true)
		actions = append(actions, Action{Remove: &rm})
	}
	for i := range adds {
		actions = append(actions, Action{Add: &adds[i]})
	}
	for i := range opts.Changes {
		actions = append(actions, Action{CDC: &opts.Changes[i]})
	}
	version, err := Commit(table, readVersion, actions)
	if err != nil {
		return version, err
	}
	noteCommit(table, readVersion, actions)
	writeChecksumAfter(table, readVersion, version, actions)
	m := opts.Metadata
	if m == nil {
		m = &snap.Metadata
	}
	maybeCheckpoint(table, version, m.Configuration, now)
	return version, nil
}

func partitionByJSON(cols []string) string {
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = fmt.Sprintf("%q", c)
	}
	return "[" + strings.Join(quoted, ",") + "]"
}

// PartitionPath returns the Hive-style directory of a partition, as Spark
// names it: `col=value/...` (slash-separated, a key) in partition order, values escaped as Hive
// escapes path names (%XX for control characters and "#%'*/:=?\{[]^ and
// DEL), NULL or "" as __HIVE_DEFAULT_PARTITION__. The directory name is
// only a convention; readers take partition values from the log.
func PartitionPath(partitionColumns []string, values PartitionValues) string {
	parts := make([]string, len(partitionColumns))
	for i, c := range partitionColumns {
		v := values[c]
		if v == "" {
			v = "__HIVE_DEFAULT_PARTITION__"
		} else {
			v = escapeHive(v)
		}
		parts[i] = escapeHive(c) + "=" + v
	}
	return path.Join(parts...)
}

func escapeHive(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte("\"#%'*/:=?\\{[]^", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}
