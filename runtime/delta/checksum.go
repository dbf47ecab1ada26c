package delta

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/pipegen/pipegen/runtime/storage"
)

// VersionChecksum is a version checksum file, `_delta_log/<version>.crc`
// (the Delta protocol's "Version Checksum File", written by Spark beside
// each commit): the table's protocol, metadata, transaction identifiers,
// live file count and size at one version, so that a reader learns what a
// writer needs without replaying the log. pipegen writes one beside each
// commit it makes when it knows the previous version's checksum or the
// whole state (and beside each checkpoint), and LoadMetadata reads the
// latest version's instead of the checkpoint, whose size grows with the
// table's files.
type VersionChecksum struct {
	// TableSizeBytes is the sum of the live files' sizes, in bytes.
	TableSizeBytes int64 `json:"tableSizeBytes"`
	// NumFiles is the number of live files.
	NumFiles int64 `json:"numFiles"`
	// NumMetadata and NumProtocol are 1 in a valid table.
	NumMetadata int64 `json:"numMetadata"`
	NumProtocol int64 `json:"numProtocol"`
	// SetTransactions are the latest txn action of every application id.
	// The field is optional in the protocol; pipegen always writes it
	// (possibly empty) and trusts a checksum only when it is present.
	SetTransactions []Txn     `json:"setTransactions"`
	Metadata        *Metadata `json:"metadata"`
	Protocol        *Protocol `json:"protocol"`
}

// ChecksumPath returns the path of version's checksum file.
func ChecksumPath(table string, version int64) string {
	return storage.Join(LogDir(table), fmt.Sprintf("%020d.crc", version))
}

// ReadChecksum reads the checksum file of version; ok is false when there
// is none or it cannot serve as the version's protocol, metadata and
// transactions (unreadable, incomplete or without setTransactions), in
// which case readers replay the log instead.
func ReadChecksum(table string, version int64) (c VersionChecksum, ok bool) {
	data, err := storage.ReadFile(ChecksumPath(table, version))
	if err != nil {
		return VersionChecksum{}, false
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return VersionChecksum{}, false
	}
	if c.Metadata == nil || c.Protocol == nil || c.SetTransactions == nil || c.NumMetadata != 1 || c.NumProtocol != 1 || c.NumFiles < 0 {
		return VersionChecksum{}, false
	}
	return c, true
}

// checksumOf returns the checksum of a replayed state.
func checksumOf(st *state) (VersionChecksum, bool) {
	if st.protocol == nil || st.metadata == nil {
		return VersionChecksum{}, false
	}
	c := VersionChecksum{NumMetadata: 1, NumProtocol: 1, Metadata: st.metadata, Protocol: st.protocol, SetTransactions: []Txn{}}
	for _, f := range st.files {
		c.NumFiles++
		c.TableSizeBytes += f.Size
	}
	for _, t := range st.txnFull {
		c.SetTransactions = append(c.SetTransactions, t)
	}
	slices.SortFunc(c.SetTransactions, func(a, b Txn) int { return strings.Compare(a.AppID, b.AppID) })
	return c, true
}

// advance returns the checksum of the version made by actions on top of
// the version c describes. ok is false when the actions do not say enough
// (a remove without its size).
func (c VersionChecksum) advance(actions []Action) (VersionChecksum, bool) {
	next := c
	next.SetTransactions = slices.Clone(c.SetTransactions)
	if next.SetTransactions == nil {
		next.SetTransactions = []Txn{}
	}
	for _, a := range actions {
		switch {
		case a.Protocol != nil:
			next.Protocol, next.NumProtocol = a.Protocol, 1
		case a.MetaData != nil:
			next.Metadata, next.NumMetadata = a.MetaData, 1
		case a.Add != nil:
			next.NumFiles++
			next.TableSizeBytes += a.Add.Size
		case a.Remove != nil:
			if a.Remove.Size == nil {
				return VersionChecksum{}, false
			}
			next.NumFiles--
			next.TableSizeBytes -= *a.Remove.Size
		case a.Txn != nil:
			i := slices.IndexFunc(next.SetTransactions, func(t Txn) bool { return t.AppID == a.Txn.AppID })
			if i >= 0 {
				next.SetTransactions[i] = *a.Txn
			} else {
				next.SetTransactions = append(next.SetTransactions, *a.Txn)
				slices.SortFunc(next.SetTransactions, func(a, b Txn) int { return strings.Compare(a.AppID, b.AppID) })
			}
		}
	}
	if next.Metadata == nil || next.Protocol == nil || next.NumFiles < 0 {
		return VersionChecksum{}, false
	}
	return next, true
}

// writeChecksumAfter writes the checksum of the version this process just
// committed with actions on top of readVersion: from the cached state when
// this process holds the table's whole state, else from readVersion's
// checksum. A version whose checksum cannot be derived gets none (readers
// fall back to the log); as the file is optional, a failure to write it
// is not an error of the commit.
func writeChecksumAfter(table string, readVersion, version int64, actions []Action) {
	c := cacheOf(table)
	c.mu.Lock()
	var sum VersionChecksum
	ok := false
	if c.st != nil && c.st.version == version {
		sum, ok = checksumOf(c.st)
	}
	c.mu.Unlock()
	if !ok {
		prev := VersionChecksum{SetTransactions: []Txn{}}
		if readVersion >= 0 {
			if prev, ok = ReadChecksum(table, readVersion); !ok {
				return
			}
		}
		if sum, ok = prev.advance(actions); !ok {
			return
		}
	}
	writeChecksum(table, version, sum)
}

// writeChecksum writes a checksum file atomically, without fsync
// (storage.NoSync): a checksum lost or torn by a crash is
// ignored by ReadChecksum, and the commit it describes is durable.
func writeChecksum(table string, version int64, sum VersionChecksum) {
	sum.Metadata = sum.Metadata.complete()
	data, err := json.Marshal(sum)
	if err != nil {
		return
	}
	storage.ReplaceFile(ChecksumPath(table, version), data, storage.NoSync)
}

// snapshot returns the snapshot without files of the version c describes.
func (c VersionChecksum) snapshot(table string, version int64) (*Snapshot, error) {
	st := newState()
	st.protocol, st.metadata = c.Protocol, c.Metadata
	for _, t := range c.SetTransactions {
		st.txns[t.AppID] = t.Version
		st.txnFull[t.AppID] = t
	}
	return st.snapshot(table, version)
}
