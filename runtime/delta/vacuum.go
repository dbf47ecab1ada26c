package delta

import (
	"fmt"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/storage"
)

// VacuumOptions configure Vacuum.
type VacuumOptions struct {
	// Retention protects files: a file younger than it, or removed from
	// the table less than it ago, is kept. Nil means the table's
	// delta.deletedFileRetentionDuration (default one week).
	Retention *time.Duration
	// DryRun lists what would be removed without removing it.
	DryRun bool
	// Now is the current time; the zero value means time.Now().
	Now time.Time
}

// VacuumResult is what Vacuum removed (or, with DryRun, would remove).
type VacuumResult struct {
	// Files are the data and change data files, relative to the table
	// root, sorted; Bytes is their total size.
	Files []string
	Bytes int64
	// LogFiles are the expired commits and checkpoints of `_delta_log`
	// (see CleanupExpiredLogs), relative to the table root.
	LogFiles []string
	// Retention is the retention applied.
	Retention time.Duration
}

// Vacuum removes the files of a table that no version within the
// retention needs, with the semantics of Delta's VACUUM: a file under the
// table's folder (data files, `_change_data/` files, files of writes that
// never committed) is removed when the latest snapshot does not reference
// it, it is not a tombstone removed less than Retention ago, and it was
// last modified more than Retention ago. Any snapshot of the last
// Retention therefore still reads: its files are live, or were removed
// after it, hence within the retention. Hidden files and folders (names
// starting with "." or "_", except `_change_data` and partition folders
// "col=value") and `_delta_log` are not touched by that step; empty
// partition folders left behind are removed. Then the log files expired
// under the table's delta.logRetentionDuration are removed, as Delta's
// metadata cleanup does.
//
// The caller must hold off writers of the table (pipegen holds the
// pipeline's lock): a writer's data files are not referenced until its
// commit.
func Vacuum(table string, opts VacuumOptions) (VacuumResult, error) {
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	snap, err := Load(table)
	if err != nil {
		return VacuumResult{}, err
	}
	// Deletion vector files, for one, are referenced by no add's path:
	// vacuuming a table with features pipegen cannot write would lose them.
	if err := CheckWritable(table, snap.Protocol, snap.Metadata); err != nil {
		return VacuumResult{}, fmt.Errorf("vacuum %w", err)
	}
	res := VacuumResult{Retention: TableDuration(snap.Metadata.Configuration, DeletedFileRetentionProperty, DefaultDeletedFileRetention)}
	if opts.Retention != nil {
		res.Retention = max(*opts.Retention, 0)
	}
	cutoff := now.Add(-res.Retention)
	valid := map[string]bool{}
	err = withState(table, snap.Version, func(st *state) error {
		for _, a := range st.files {
			valid[pathKey(a.Path)] = true
		}
		for _, r := range st.removes {
			if r.DeletionTimestamp == nil || *r.DeletionTimestamp > cutoff.UnixMilli() {
				valid[pathKey(r.Path)] = true
			}
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	root, err := storage.Abs(table)
	if err != nil {
		return res, err
	}
	store := storage.At(table)
	objects, err := store.List("", storage.ListOptions{})
	if err != nil {
		return res, fmt.Errorf("table %s: vacuum: %w", table, err)
	}
	var dirs []string
	for _, o := range objects {
		rel := o.Key
		if vacuumSkips(rel) {
			continue
		}
		if i := strings.LastIndexByte(rel, '/'); i > 0 {
			dirs = append(dirs, rel[:i])
		}
		if valid[rel] || valid[pathKey(EncodePath(rel))] || valid[storage.Join(root, rel)] {
			continue
		}
		if o.ModTime.After(cutoff) {
			continue
		}
		res.Files = append(res.Files, rel)
		res.Bytes += o.Size
	}
	if !opts.DryRun {
		for _, rel := range res.Files {
			if err := store.Delete(rel); err != nil {
				return res, fmt.Errorf("table %s: vacuum: %w", table, err)
			}
		}
		if p, ok := store.(storage.FolderPruner); ok {
			p.RemoveEmptyFolders(dirs)
		}
	}
	logs, err := CleanupExpiredLogs(table, TableDuration(snap.Metadata.Configuration, LogRetentionProperty, DefaultLogRetention), now, opts.DryRun)
	if err != nil {
		return res, err
	}
	for _, p := range logs {
		rel, _ := storage.Rel(table, p)
		res.LogFiles = append(res.LogFiles, rel)
	}
	return res, nil
}

// vacuumSkips reports whether vacuum leaves a file alone: the log, hidden
// files and the files of hidden folders other than `_change_data` and
// partition folders. The temporary file of a write that never committed
// (storage.Local's ".<name>.<random>.tmp", left by a killed writer) is
// not skipped: it goes once older than the retention.
func vacuumSkips(rel string) bool {
	segs := strings.Split(rel, "/")
	for _, d := range segs[:len(segs)-1] {
		if d == "_delta_log" || (hiddenName(d) && d != "_change_data" && !strings.Contains(d, "=")) {
			return true
		}
	}
	name := segs[len(segs)-1]
	return hiddenName(name) && !(strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp"))
}

func hiddenName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}
