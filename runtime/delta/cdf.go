package delta

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// Change data feed metadata columns ("Change Data Files", Delta's
// table_changes): the kind of change, and the version and time of the
// commit that made it.
const (
	ChangeTypeColumn      = "_change_type"
	CommitVersionColumn   = "_commit_version"
	CommitTimestampColumn = "_commit_timestamp"
)

// The values of _change_type.
const (
	ChangeInsert          = "insert"
	ChangeDelete          = "delete"
	ChangeUpdatePreimage  = "update_preimage"
	ChangeUpdatePostimage = "update_postimage"
)

// ChangeFeedSchema returns want followed by the three change data feed
// columns: _change_type STRING, _commit_version BIGINT, _commit_timestamp
// TIMESTAMP.
func ChangeFeedSchema(want types.Schema) types.Schema {
	out := append(types.Schema{}, want...)
	return append(out,
		types.Field{Name: ChangeTypeColumn, Type: types.StringType},
		types.Field{Name: CommitVersionColumn, Type: types.LongType},
		types.Field{Name: CommitTimestampColumn, Type: types.TimestampType},
	)
}

// ReadChangeFeed returns the row-level changes of the table from version
// start to end inclusive (-1: latest), as rows of ChangeFeedSchema(want)
// (want nil: the table's schema at end), in commit order ("Reader
// Requirements for AddCDCFile"): a commit with cdc actions contributes the
// rows of its `_change_data/` files (their _change_type column says what
// changed); a commit without contributes its added files' rows as inserts
// and its removed files' rows as deletes (dataChange=true only), less the
// rows their deletion vectors delete, and, for a file whose deletion
// vector it replaced, the rows the new vector deletes as deletes.
//
// Errors name the table; a version in the range whose commit is gone fails.
func ReadChangeFeed(table string, start, end int64, want types.Schema) ([][]any, error) {
	endSnap, err := LoadVersion(table, end)
	if err != nil {
		return nil, err
	}
	if want == nil {
		want = endSnap.Schema
	}
	if start < 0 || start > endSnap.Version {
		return nil, fmt.Errorf("table %s: change feed start version %d is outside 0..%d", table, start, endSnap.Version)
	}
	commits, err := ReadCommits(table, start-1, endSnap.Version)
	if err != nil {
		return nil, err
	}
	withType := append(append(types.Schema{}, want...), types.Field{Name: ChangeTypeColumn, Type: types.StringType, Nullable: true})
	var out [][]any
	var before *Snapshot // partition columns and values of removed files
	for _, c := range commits {
		meta := endSnap.Metadata
		for _, a := range c.Actions {
			if a.MetaData != nil {
				meta = *a.MetaData
			}
		}
		layout := layoutOf(table, meta)
		emit := func(rows [][]any, changeType string) {
			for _, r := range rows {
				ct := changeType
				if ct == "" {
					ct, _ = r[len(want)].(string)
				}
				row := append(r[:len(want):len(want)], ct, c.Version, types.Timestamp(c.Timestamp*1000))
				out = append(out, row)
			}
		}
		hasCDC := false
		for _, a := range c.Actions {
			if a.CDC != nil {
				hasCDC = true
				rows, err := readAllFile(layout, a.CDC.Path, a.CDC.PartitionValues, nil, withType)
				if err != nil {
					return nil, err
				}
				emit(rows, "")
			}
		}
		if hasCDC {
			continue
		}
		// A file whose deletion vector the commit replaced (an add and a
		// remove of the same path, the add with a vector): the change is
		// the deletion of the rows the new vector adds to the old one.
		removed := map[string]*Remove{}
		for _, a := range c.Actions {
			if a.Remove != nil && a.Remove.DataChange {
				removed[pathKey(a.Remove.Path)] = a.Remove
			}
		}
		replaced := map[string]bool{}
		for _, a := range c.Actions {
			if a.Add == nil || !a.Add.DataChange || a.Add.DeletionVector == nil {
				continue
			}
			if r, ok := removed[pathKey(a.Add.Path)]; ok {
				rows, err := newlyDeleted(layout, *a.Add, r.DeletionVector, want)
				if err != nil {
					return nil, err
				}
				emit(rows, ChangeDelete)
				replaced[pathKey(a.Add.Path)] = true
			}
		}
		for _, a := range c.Actions {
			switch {
			case a.Add != nil && a.Add.DataChange && replaced[pathKey(a.Add.Path)]:
			case a.Remove != nil && a.Remove.DataChange && replaced[pathKey(a.Remove.Path)]:
			case a.Add != nil && a.Add.DataChange:
				rows, err := readAllFile(layout, a.Add.Path, a.Add.PartitionValues, a.Add.DeletionVector, want)
				if err != nil {
					return nil, err
				}
				emit(rows, ChangeInsert)
			case a.Remove != nil && a.Remove.DataChange:
				pv := a.Remove.PartitionValues
				if pv == nil && len(meta.PartitionColumns) > 0 {
					if before == nil || before.Version != c.Version-1 {
						if before, err = LoadVersion(table, c.Version-1); err != nil {
							return nil, err
						}
					}
					for _, f := range before.Files {
						if pathKey(f.Path) == pathKey(a.Remove.Path) {
							pv = f.PartitionValues
						}
					}
				}
				rows, err := readAllFile(layout, a.Remove.Path, pv, a.Remove.DeletionVector, want)
				if err != nil {
					return nil, err
				}
				emit(rows, ChangeDelete)
			}
		}
	}
	return out, nil
}

// ErrChangeDataVacuumed is wrapped by ReadChangeFeed's error when a file
// a commit of the range names is gone: VACUUM removed it (its retention
// was shorter than the reader's lag). The reader cannot resume; it must
// start over from the table's snapshot.
var ErrChangeDataVacuumed = errors.New("the change feed needs files that VACUUM may have deleted")

// newlyDeleted returns the rows of the file of add that its deletion
// vector deletes and the vector old (nil: none) did not.
func newlyDeleted(layout *FileLayout, add Add, old *DeletionVector, want types.Schema) ([][]any, error) {
	now, err := add.DeletionVector.Load(layout.table)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", layout.table, err)
	}
	if old != nil {
		before, err := old.Load(layout.table)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", layout.table, err)
		}
		now.AndNot(before)
	}
	all, err := readAllFile(layout, add.Path, add.PartitionValues, nil, want)
	if err != nil {
		return nil, err
	}
	var out [][]any
	for i, r := range all {
		if now.Contains(uint64(i)) {
			out = append(out, r)
		}
	}
	return out, nil
}

func readAllFile(layout *FileLayout, path string, pv PartitionValues, dv *DeletionVector, want types.Schema) ([][]any, error) {
	table := layout.table
	r, err := layout.Open(FilePath(table, path), pv, dv, want)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "no such file") {
			return nil, fmt.Errorf("%w (%w)", err, ErrChangeDataVacuumed)
		}
		return nil, err
	}
	defer r.Close()
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", table, err)
	}
	return rows, nil
}
