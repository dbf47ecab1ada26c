package runtime

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/table"
)

// VacuumOptions are the `vacuum` command's flags.
type VacuumOptions struct {
	// Retain protects files younger than it, or removed from their table
	// less than it ago; nil means each table's
	// delta.deletedFileRetentionDuration (default 168h, Delta's week).
	Retain *time.Duration
	// AllowShortRetention accepts a Retain below a table's
	// delta.deletedFileRetentionDuration; without it Vacuum refuses such a
	// Retain before removing anything, as Delta does unless
	// spark.databricks.delta.retentionDurationCheck.enabled is false: files
	// younger than the table's retention may still be needed by readers of
	// older versions and by change-feed readers that have not caught up.
	AllowShortRetention bool
	// DryRun prints what would be removed and removes nothing.
	DryRun bool
}

// Vacuum removes, from every table the pipeline writes, the data files no
// version within the retention needs, and the log files past the table's
// log retention (delta.Vacuum: Delta's VACUUM and metadata cleanup). It
// takes the pipeline's lock, so no update writes meanwhile (files a
// running update wrote but has not committed are thus never at risk). It
// prints one line per table to w (and, with DryRun, each file) and records
// a maintenance_progress event per table.
func Vacuum(p *Pipeline, opts RunOptions, vo VacuumOptions, w io.Writer) (err error) {
	u, err := newUpdate(p, opts, Trigger{})
	if err != nil {
		return err
	}
	lk, err := acquireLock(u.storage, u.id)
	if err != nil {
		return err
	}
	defer lk.release()
	if u.log, err = eventlog.Open(u.storage, p.Name, u.id); err != nil {
		return err
	}
	defer u.log.Close()
	verb := "removed"
	if vo.DryRun {
		verb = "would remove"
	}
	var tables []*table.Handle
	var short []string
	for _, d := range p.Datasets {
		h := u.handles[d.DatasetName()]
		s, err := h.Meta()
		if err != nil {
			return err
		}
		if s == nil {
			continue
		}
		tables = append(tables, h)
		keep := delta.TableDuration(s.Metadata.Configuration, delta.DeletedFileRetentionProperty, delta.DefaultDeletedFileRetention)
		if vo.Retain != nil && *vo.Retain < keep {
			short = append(short, fmt.Sprintf("table %s (%s = %s)", h.Name, delta.DeletedFileRetentionProperty, keep))
		}
	}
	if len(short) > 0 && !vo.AllowShortRetention {
		return fmt.Errorf("--retain %s is shorter than the retention of %s; a shorter retention deletes files that reads of older versions "+
			"and change-feed readers that have not caught up still need (those readers then need a full refresh): "+
			"use a --retain of at least the table's retention, lower the table's %s, or pass --allow-short-retention to vacuum anyway "+
			"(Delta's spark.databricks.delta.retentionDurationCheck.enabled=false); nothing was removed",
			*vo.Retain, strings.Join(short, ", "), delta.DeletedFileRetentionProperty)
	}
	for _, h := range tables {
		res, err := delta.Vacuum(h.Path, delta.VacuumOptions{Retention: vo.Retain, DryRun: vo.DryRun})
		if err != nil {
			u.log.EmitError("maintenance_progress", fmt.Sprintf("Vacuum of %s failed.", h.Name), err, nil)
			return fmt.Errorf("vacuum %s: %w", h.Name, err)
		}
		msg := fmt.Sprintf("table %s: %s %d data files (%s) and %d log files; retention %s",
			h.Name, verb, len(res.Files), humanBytes(res.Bytes), len(res.LogFiles), res.Retention)
		fmt.Fprintln(w, msg)
		if vo.DryRun {
			for _, f := range append(res.Files, res.LogFiles...) {
				fmt.Fprintf(w, "  %s\n", f)
			}
		}
		u.log.Emit(eventlog.Event{Type: "maintenance_progress", Origin: eventlog.Origin{Dataset: h.Name}, Message: msg,
			Details: map[string]any{"maintenance_progress": map[string]any{
				"operation": "VACUUM", "dry_run": vo.DryRun, "retention_hours": res.Retention.Hours(),
				"num_deleted_files": len(res.Files), "deleted_bytes": res.Bytes, "num_deleted_log_files": len(res.LogFiles),
			}}})
	}
	return nil
}
