// Package delta implements the parts of the Delta Lake transaction protocol
// (https://github.com/delta-io/delta/blob/master/PROTOCOL.md) that pipegen
// needs: it writes tables of reader version 1 and writer version 2 (4
// with the change data feed; reader 3 and writer 7 with the timestampNtz
// feature for TIMESTAMP_NTZ columns, see requiredProtocol), and reads
// those and tables of other engines with the reader features it
// implements: column mapping (name and id), deletion vectors, V2
// checkpoints, type widening, timestampNtz and vacuumProtocolCheck. It
// refuses to write a table with features it cannot write (CheckWritable).
//
// A table is a directory with Parquet data files and a `_delta_log/` of
// JSON commits (`<20-digit version>.json`) and, from Spark, V1 Parquet
// checkpoints (single or multi-part) or V2 checkpoints (UUID-named JSON or
// Parquet, with sidecars). This package replays the log into snapshots (Load,
// LoadVersion), reads the commits after a version for streaming readers
// (ReadCommits), creates commits exclusively so concurrent writers cannot
// overwrite each other (Commit, Append, Overwrite, ReplaceFiles), reads a
// snapshot's rows through runtime/parquetio (Snapshot.Scan), and reads the
// change data feed between versions (ReadChangeFeed).
package delta

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/pipegen/pipegen/runtime/parquetio"
)

// EngineInfo is written as commitInfo.engineInfo ("pipegen/<version>").
// Package runtime owns the version and should set this at start-up
// (delta cannot import runtime).
var EngineInfo = "pipegen/dev"

// Action is one line of a commit file: exactly one of its fields is set
// (protocol, "Actions"). Fields and actions of kinds pipegen does not
// model (domainMetadata, fields added by later protocol versions) are
// ignored when read, as the protocol asks; Sidecar and CheckpointMetadata
// only occur in V2 checkpoints and are never written.
type Action struct {
	Protocol           *Protocol           `json:"protocol,omitempty"`
	MetaData           *Metadata           `json:"metaData,omitempty"`
	Add                *Add                `json:"add,omitempty"`
	Remove             *Remove             `json:"remove,omitempty"`
	Txn                *Txn                `json:"txn,omitempty"`
	CommitInfo         *CommitInfo         `json:"commitInfo,omitempty"`
	CDC                *CDC                `json:"cdc,omitempty"`
	Sidecar            *Sidecar            `json:"sidecar,omitempty"`
	CheckpointMetadata *CheckpointMetadata `json:"checkpointMetadata,omitempty"`
}

// Sidecar is the sidecar action of a V2 checkpoint ("Sidecar File
// Information"): a Parquet file of `_delta_log/_sidecars/` holding some of
// the checkpoint's add and remove actions. Path is URI-encoded, usually the
// file name only; SizeInBytes in bytes; ModificationTime in milliseconds.
type Sidecar struct {
	Path             string            `json:"path"`
	SizeInBytes      int64             `json:"sizeInBytes"`
	ModificationTime int64             `json:"modificationTime"`
	Tags             map[string]string `json:"tags,omitempty"`
}

// CheckpointMetadata is the checkpointMetadata action of a V2 checkpoint
// ("Checkpoint Metadata"): the version the checkpoint holds.
type CheckpointMetadata struct {
	Version int64             `json:"version"`
	Tags    map[string]string `json:"tags,omitempty"`
}

// Protocol is the protocol action ("Protocol Evolution"): the reader and
// writer versions a client needs; features only with versions 3 and 7.
type Protocol struct {
	MinReaderVersion int      `json:"minReaderVersion"`
	MinWriterVersion int      `json:"minWriterVersion"`
	ReaderFeatures   []string `json:"readerFeatures,omitempty"`
	WriterFeatures   []string `json:"writerFeatures,omitempty"`
}

// Format is metaData.format: the data file format, always "parquet".
type Format struct {
	Provider string            `json:"provider"`
	Options  map[string]string `json:"options"`
}

// Metadata is the metaData action ("Change Metadata"). SchemaString is the
// table schema in Delta's JSON form (see SchemaString and ParseSchema);
// CreatedTime is in milliseconds since the epoch.
type Metadata struct {
	ID               string            `json:"id"`
	Name             *string           `json:"name,omitempty"`
	Description      *string           `json:"description,omitempty"`
	Format           Format            `json:"format"`
	SchemaString     string            `json:"schemaString"`
	PartitionColumns []string          `json:"partitionColumns"`
	Configuration    map[string]string `json:"configuration"`
	CreatedTime      *int64            `json:"createdTime,omitempty"`
}

// PartitionValues maps partition column names to serialized values
// (protocol, "Partition Value Serialization"). A NULL value is stored as
// "" and written as JSON null, as the protocol treats both alike.
type PartitionValues map[string]string

// MarshalJSON writes "" values as null.
func (p PartitionValues) MarshalJSON() ([]byte, error) {
	if p == nil {
		return []byte("{}"), nil
	}
	m := make(map[string]*string, len(p))
	for k, v := range p {
		if v != "" {
			v := v
			m[k] = &v
		} else {
			m[k] = nil
		}
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads null values as "".
func (p *PartitionValues) UnmarshalJSON(b []byte) error {
	var m map[string]*string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*p = make(PartitionValues, len(m))
	for k, v := range m {
		if v != nil {
			(*p)[k] = *v
		} else {
			(*p)[k] = ""
		}
	}
	return nil
}

// Add is the add action ("Add File and Remove File"). Path is a URI
// relative to the table root (or absolute), percent-encoded as RFC 2396
// says; Size is in bytes; ModificationTime in milliseconds since the epoch;
// Stats is the per-file statistics JSON ("Per-file Statistics").
type Add struct {
	Path             string            `json:"path"`
	PartitionValues  PartitionValues   `json:"partitionValues"`
	Size             int64             `json:"size"`
	ModificationTime int64             `json:"modificationTime"`
	DataChange       bool              `json:"dataChange"`
	Stats            string            `json:"stats,omitempty"`
	Tags             map[string]string `json:"tags,omitempty"`
	// DeletionVector, when set, names the rows of the file that are
	// deleted (protocol, "Deletion Vectors"); scans skip them.
	DeletionVector *DeletionVector `json:"deletionVector,omitempty"`
}

// Remove is the remove action ("Add File and Remove File"); the file stays
// on disk as a tombstone until vacuumed. DeletionTimestamp is in
// milliseconds since the epoch. PartitionValues is always written (an
// empty object for an unpartitioned table): with ExtendedFileMetadata the
// protocol requires it, and Size.
type Remove struct {
	Path                 string            `json:"path"`
	DeletionTimestamp    *int64            `json:"deletionTimestamp,omitempty"`
	DataChange           bool              `json:"dataChange"`
	ExtendedFileMetadata bool              `json:"extendedFileMetadata,omitempty"`
	PartitionValues      PartitionValues   `json:"partitionValues"`
	Size                 *int64            `json:"size,omitempty"`
	Tags                 map[string]string `json:"tags,omitempty"`
	DeletionVector       *DeletionVector   `json:"deletionVector,omitempty"`
}

// Txn is the transaction identifier action ("Transaction Identifiers"):
// the latest version an application (AppID) committed, used to make
// streaming writes idempotent. LastUpdated is in milliseconds.
type Txn struct {
	AppID       string `json:"appId"`
	Version     int64  `json:"version"`
	LastUpdated *int64 `json:"lastUpdated,omitempty"`
}

// CommitInfo is the commitInfo action ("Commit Provenance Information").
// Timestamp is in milliseconds since the epoch. The protocol leaves
// commitInfo free-form: fields pipegen does not model are dropped when
// read, and a field of another JSON type than pipegen's (delta-rs writes
// numbers in operationMetrics, Spark strings) reads as its zero value
// rather than failing the commit (see UnmarshalJSON).
type CommitInfo struct {
	Timestamp           int64          `json:"timestamp"`
	Operation           string         `json:"operation"`
	OperationParameters map[string]any `json:"operationParameters"`
	ReadVersion         *int64         `json:"readVersion,omitempty"`
	IsolationLevel      string         `json:"isolationLevel,omitempty"`
	IsBlindAppend       *bool          `json:"isBlindAppend,omitempty"`
	// OperationMetrics values are strings (Spark) or numbers (delta-rs).
	OperationMetrics map[string]any `json:"operationMetrics,omitempty"`
	EngineInfo       string         `json:"engineInfo,omitempty"`
	TxnID            string         `json:"txnId,omitempty"`
	// InCommitTimestamp is the commit's time in milliseconds on tables
	// with the inCommitTimestamp feature ("In-Commit Timestamps"), which
	// readers use as the commit's timestamp.
	InCommitTimestamp *int64 `json:"inCommitTimestamp,omitempty"`
	// Progress is the writing application's record of what the commit
	// read, beside its txn action (pipegen: a streaming flow's name, query
	// id, micro-batch and ingested files), so that a lost checkpoint can
	// be rebuilt from the log. The protocol lets commitInfo hold any
	// field; other readers ignore this one.
	Progress json.RawMessage `json:"pipegenProgress,omitempty"`
}

// UnmarshalJSON decodes a commitInfo tolerantly: a field whose JSON type
// differs from the modelled one is skipped (left zero) instead of failing,
// since no reader may depend on commitInfo's shape. Malformed JSON still
// fails.
func (c *CommitInfo) UnmarshalJSON(b []byte) error {
	type plain CommitInfo
	var x plain
	err := json.Unmarshal(b, &x)
	var typeErr *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &typeErr) {
		return err
	}
	*c = CommitInfo(x)
	return nil
}

// CDC is the cdc action ("Add CDC File"): a file of `_change_data/` with
// the changes of its commit, with a `_change_type` column.
type CDC struct {
	Path            string            `json:"path"`
	PartitionValues PartitionValues   `json:"partitionValues"`
	Size            int64             `json:"size"`
	DataChange      bool              `json:"dataChange"`
	Tags            map[string]string `json:"tags,omitempty"`
}

// NewAdd returns the add action of a data file written by
// parquetio.Writer at path (relative to the table root, not yet encoded),
// with dataChange=true.
func NewAdd(path string, partitionValues PartitionValues, info parquetio.FileInfo, modified time.Time) Add {
	return Add{
		Path:             EncodePath(path),
		PartitionValues:  partitionValues,
		Size:             info.Size,
		ModificationTime: modified.UnixMilli(),
		DataChange:       true,
		Stats:            info.Stats,
	}
}

// RemoveOf returns the remove action of a live file, with its size and
// partition values (extendedFileMetadata=true), deleted at deleted.
// dataChange=false marks a rearrangement (compaction) that does not change
// the table's rows.
func RemoveOf(a Add, deleted time.Time, dataChange bool) Remove {
	ts, size := deleted.UnixMilli(), a.Size
	return Remove{
		Path:                 a.Path,
		DeletionTimestamp:    &ts,
		DataChange:           dataChange,
		ExtendedFileMetadata: true,
		PartitionValues:      a.PartitionValues,
		Size:                 &size,
		Tags:                 a.Tags,
	}
}

// complete returns a copy of m with the fields the protocol requires
// present: the format's provider ("parquet") and options, the partition
// columns and the configuration as empty collections rather than null.
func (m *Metadata) complete() *Metadata {
	c := *m
	if c.Format.Provider == "" {
		c.Format.Provider = "parquet"
	}
	if c.Format.Options == nil {
		c.Format.Options = map[string]string{}
	}
	if c.PartitionColumns == nil {
		c.PartitionColumns = []string{}
	}
	if c.Configuration == nil {
		c.Configuration = map[string]string{}
	}
	return &c
}

// encodeActions renders actions as newline-delimited JSON.
func encodeActions(actions []Action) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for i, a := range actions {
		n := 0
		for _, set := range []bool{a.Protocol != nil, a.MetaData != nil, a.Add != nil, a.Remove != nil, a.Txn != nil, a.CommitInfo != nil, a.CDC != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			return nil, fmt.Errorf("action %d sets %d kinds, want exactly one", i, n)
		}
		if a.MetaData != nil {
			a.MetaData = a.MetaData.complete()
		}
		if a.Add != nil && a.Add.PartitionValues == nil {
			x := *a.Add
			x.PartitionValues = PartitionValues{}
			a.Add = &x
		}
		if err := enc.Encode(a); err != nil {
			return nil, fmt.Errorf("action %d: %w", i, err)
		}
	}
	return b.Bytes(), nil
}
