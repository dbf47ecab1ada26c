package delta

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// CommitEntry is one commit of the log with its actions, for streaming
// readers that follow a table.
type CommitEntry struct {
	Version int64
	// Timestamp is commitInfo.timestamp in milliseconds, or the commit
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
// dataChange=true (a compaction's removes carry dataChange=false). A
// streaming reader of an append-only source fails on other commits, as
// Spark's Delta source does unless told to skip them.
func (c CommitEntry) AppendOnly() bool {
	for _, a := range c.Actions {
		if a.Remove != nil && a.Remove.DataChange {
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
		}
	}
	if c.Timestamp == 0 {
		if fi, err := os.Stat(path); err == nil {
			c.Timestamp = fi.ModTime().UnixMilli()
		}
	}
	return c, nil
}

// partitionValuesFor returns the partition values of a file restricted to
// the table's partition columns (absent ones are NULL), for parquetio.Open.
func partitionValuesFor(partitionColumns []string, pv PartitionValues) map[string]string {
	if len(partitionColumns) == 0 {
		return nil
	}
	m := make(map[string]string, len(partitionColumns))
	for _, c := range partitionColumns {
		m[c] = pv[c]
	}
	return m
}

// FileReader reads one data file of a table.
type FileReader struct {
	*parquetio.Reader
	f *os.File
}

// Close closes the reader and its file.
func (r *FileReader) Close() error {
	err := r.Reader.Close()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// OpenFile opens a data file of the table (an add action's path, URI
// encoded) for reading as want, with its partition values for the table's
// partition columns.
func OpenFile(table string, partitionColumns []string, path string, pv PartitionValues, want types.Schema) (*FileReader, error) {
	local := FilePath(table, path)
	f, err := os.Open(local)
	if err != nil {
		return nil, fmt.Errorf("table %s: data file %s: %w", table, path, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("table %s: data file %s: %w", table, path, err)
	}
	r, err := parquetio.Open(local, f, info.Size(), want, partitionValuesFor(partitionColumns, pv))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("table %s: %w", table, err)
	}
	return &FileReader{Reader: r, f: f}, nil
}

// Scanner reads the rows of a snapshot's live files, one file after the
// other, in the canonical layout of a wanted schema.
type Scanner struct {
	snap  *Snapshot
	want  types.Schema
	files []Add
	next  int
	cur   *FileReader
}

// Scan returns a Scanner of the snapshot's rows as want (nil: the table's
// schema). Columns are matched by name; columns missing from older files
// read as NULL; partition columns come from the log.
func (s *Snapshot) Scan(want types.Schema) *Scanner {
	if want == nil {
		want = s.Schema
	}
	return &Scanner{snap: s, want: want, files: s.Files}
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
			r, err := OpenFile(sc.snap.Table, sc.snap.Metadata.PartitionColumns, f.Path, f.PartitionValues, sc.want)
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
