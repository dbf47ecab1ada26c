package delta

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/types"
)

// CommitEntry is one commit of the log with its actions, for streaming
// readers that follow a table.
type CommitEntry struct {
	Version int64
	// Timestamp is commitInfo.inCommitTimestamp (tables with in-commit
	// timestamps) or commitInfo.timestamp in milliseconds, or the commit
	// file's modification time when it has no commitInfo.
	Timestamp int64
	Actions   []Action
}

// Adds returns the commit's add actions.
func (c CommitEntry) Adds() []Add {
	var out []Add
	for _, a := range c.Actions {
		if a.Add != nil {
			out = append(out, *a.Add)
		}
	}
	return out
}

// AppendOnly reports whether the commit only added data: no remove with
// dataChange=true (a compaction's removes carry dataChange=false) and no
// add with a deletion vector and dataChange=true (a DELETE, UPDATE or
// MERGE that marked rows of an existing file deleted). A
// streaming reader of an append-only source fails on other commits, as
// Spark's Delta source does unless told to skip them.
func (c CommitEntry) AppendOnly() bool {
	for _, a := range c.Actions {
		if a.Remove != nil && a.Remove.DataChange {
			return false
		}
		// An add with a deletion vector that changes data deletes rows of
		// a file added before (protocol, "Deletion Vectors"), even when
		// the writer left out the remove of the file's previous version.
		if a.Add != nil && a.Add.DataChange && a.Add.DeletionVector != nil {
			return false
		}
	}
	return true
}

// Txn returns the commit's txn action for appID, if any.
func (c CommitEntry) Txn(appID string) (Txn, bool) {
	for _, a := range c.Actions {
		if a.Txn != nil && a.Txn.AppID == appID {
			return *a.Txn, true
		}
	}
	return Txn{}, false
}

// ReadCommits returns the commits of the table after version after, up to
// and including until (-1: the latest), in version order. It fails naming
// the table when a commit in the range is missing (cleaned up) or corrupt.
func ReadCommits(table string, after, until int64) ([]CommitEntry, error) {
	if until < 0 {
		latest, err := LatestVersion(table)
		if err != nil {
			return nil, err
		}
		until = latest
	}
	var out []CommitEntry
	for v := after + 1; v <= until; v++ {
		c, err := ReadCommit(table, v)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("table %s: commit %d is missing from the log (cleaned up?); restart the reader from a snapshot", table, v)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// ReadCommit returns one commit of the table.
func ReadCommit(table string, version int64) (CommitEntry, error) {
	path := CommitPath(table, version)
	actions, err := readCommitFile(path)
	if err != nil {
		return CommitEntry{}, fmt.Errorf("table %s: %w", table, err)
	}
	c := CommitEntry{Version: version, Actions: actions}
	for _, a := range actions {
		if a.CommitInfo != nil {
			c.Timestamp = a.CommitInfo.Timestamp
			if ict := a.CommitInfo.InCommitTimestamp; ict != nil {
				c.Timestamp = *ict
			}
		}
	}
	if c.Timestamp == 0 {
		if fi, err := storage.StatFile(path); err == nil {
			c.Timestamp = fi.ModTime.UnixMilli()
		}
	}
	return c, nil
}

// OpenFile opens a data file of the table (an add action's path, URI
// encoded) for reading as want, with its partition values for the table's
// partition columns. It applies neither column mapping nor deletion
// vectors: use Snapshot.Layout for files of tables that may have them.
func OpenFile(table string, partitionColumns []string, path string, pv PartitionValues, want types.Schema) (*FileReader, error) {
	return layoutOf(table, Metadata{PartitionColumns: partitionColumns}).Open(FilePath(table, path), pv, nil, want)
}

// Scanner reads the rows of a snapshot's live files, one file after the
// other, in the canonical layout of a wanted schema.
type Scanner struct {
	snap   *Snapshot
	layout *FileLayout
	want   types.Schema
	files  []Add
	next   int
	cur    *FileReader
}

// Scan returns a Scanner of the snapshot's rows as want (nil: the table's
// schema). Columns are matched by name; columns missing from older files
// read as NULL; partition columns come from the log; column mapping and
// deletion vectors are applied (rows a file's vector deletes are skipped).
func (s *Snapshot) Scan(want types.Schema) *Scanner {
	if want == nil {
		want = s.Schema
	}
	return &Scanner{snap: s, layout: s.Layout(), want: want, files: s.Files}
}

// ScanFiles returns a Scanner of some of the table's files (for example a
// streaming micro-batch's adds) as want.
func (s *Snapshot) ScanFiles(files []Add, want types.Schema) *Scanner {
	sc := s.Scan(want)
	sc.files = files
	return sc
}

// ReadRows reads up to len(rows) rows; io.EOF after the last file. Rows
// are valid until the next call.
func (sc *Scanner) ReadRows(rows []parquet.Row) (int, error) {
	for {
		if sc.cur == nil {
			if sc.next >= len(sc.files) {
				return 0, io.EOF
			}
			f := sc.files[sc.next]
			sc.next++
			r, err := sc.layout.Open(FilePath(sc.snap.Table, f.Path), f.PartitionValues, f.DeletionVector, sc.want)
			if err != nil {
				return 0, err
			}
			sc.cur = r
		}
		n, err := sc.cur.ReadRows(rows)
		if errors.Is(err, io.EOF) {
			cerr := sc.cur.Close()
			sc.cur = nil
			if cerr != nil {
				return n, cerr
			}
			if n > 0 {
				return n, nil
			}
			continue
		}
		if err != nil {
			return n, fmt.Errorf("table %s: %w", sc.snap.Table, err)
		}
		return n, nil
	}
}

// Close closes the file being read.
func (sc *Scanner) Close() error {
	if sc.cur != nil {
		err := sc.cur.Close()
		sc.cur = nil
		return err
	}
	return nil
}

// ReadAll returns every row of the snapshot as generic values (see
// parquetio.Decode), for tests, `show` commands and small tables.
func (s *Snapshot) ReadAll(want types.Schema) ([][]any, error) {
	sc := s.Scan(want)
	defer sc.Close()
	return parquetio.DecodeAll(sc, sc.want)
}
