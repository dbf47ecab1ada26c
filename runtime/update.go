package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/table"
)

// RunOptions configure one update: the `run` command's flags.
type RunOptions struct {
	// Warehouse is the root of the tables: <warehouse>/<catalog>/<schema>/<table>.
	Warehouse string
	// Storage is the root of the pipeline's state (checkpoints, event log,
	// lock); empty means <warehouse>/_pipelines/<pipeline> (StorageDir).
	Storage string
	// BaseDir resolves relative source paths; empty means the working
	// directory.
	BaseDir string
	// Params are name=value overrides of the pipeline's parameters.
	Params []string
	// SourcePaths are NAME=PATH overrides of where sources are read: a
	// file source's folder, or a table source's Delta table folder
	// (relative paths against BaseDir). `pipegen test` points the sources
	// at its fixtures with them.
	SourcePaths []string
	// MetricsFile, when set, receives the update's metrics in Prometheus'
	// text format at its end (see metrics.go).
	MetricsFile string
	// Trigger is "available_now" (the default), "once" or "interval=D".
	Trigger string
	// Refresh selects the tables to update; the others are EXCLUDED.
	Refresh []string
	// FullRefresh selects tables to truncate and recompute from all
	// available input; FullRefreshAll selects every table.
	FullRefresh    []string
	FullRefreshAll bool
	// Stderr receives one line per flow as it completes.
	Stderr io.Writer
	// Stop, when closed, ends the update gracefully: running micro-batches
	// and refreshes finish and commit, nothing new starts, the update ends
	// CANCELED without error (what SIGINT and SIGTERM do; see Run).
	Stop <-chan struct{}
}

// Flow progress statuses, as in the Databricks event log.
const (
	statusQueued    = "QUEUED"
	statusStarting  = "STARTING"
	statusRunning   = "RUNNING"
	statusCompleted = "COMPLETED"
	statusFailed    = "FAILED"
	statusSkipped   = "SKIPPED"
	statusExcluded  = "EXCLUDED"
	statusIdle      = "IDLE"
	statusStopped   = "STOPPED"
)

// stopRequested reports whether the update was asked to stop (RunOptions.
// Stop); it marks the update as cut short, so it ends CANCELED.
func (u *update) stopRequested() bool {
	if !stopped(u.opts.Stop) {
		return false
	}
	if !u.cut.Swap(true) {
		u.progress("STOPPING")
	}
	return true
}

// update is one run of the pipeline.
type update struct {
	p       *Pipeline
	opts    RunOptions
	id      string
	start   time.Time
	loc     *time.Location
	params  *Params
	storage string
	log     *eventlog.Log
	stderr  io.Writer
	trigger Trigger

	// identity is the pipeline's id (<storage>/pipeline.json), recorded
	// in the tables it writes.
	identity pipelineIdentity

	// cut is set when a stop request cut the update short: a flow left
	// micro-batches for later or did not start.
	cut atomic.Bool

	mu      sync.Mutex
	handles map[string]*table.Handle
	sources map[string]*FileSourceInfo
	// listings are the file sources' folders as this update lists them
	// (once: the frozen frontier), with the attributes read so far.
	listings map[string]*fileFrontier

	// metrics collects the figures of --metrics-file (nil without it).
	metrics *updateMetrics
}

// errUpdateFailed is returned when at least one flow failed; the event log
// and stderr have the details.
var errUpdateFailed = errors.New("update failed")

// runUpdate runs one update: binds parameters, takes the lock, checks,
// resets what a full refresh selects, then runs every selected flow after
// the flows it depends on.
func runUpdate(p *Pipeline, opts RunOptions, tr Trigger, lk *lock) (err error) {
	u, err := newUpdate(p, opts, tr)
	if err != nil {
		return err
	}
	if lk == nil {
		l, err := acquireLock(u.storage, u.id)
		if err != nil {
			var le *lockedError
			if errors.As(err, &le) {
				u.logRefused(opts, tr, le)
			}
			return err
		}
		defer l.release()
	}
	u.log, err = eventlog.Open(u.storage, p.Name, u.id)
	if err != nil {
		return err
	}
	defer u.log.Close()
	u.createUpdate(opts, tr)
	u.progress("INITIALIZING")
	if opts.MetricsFile != "" {
		u.metrics = newUpdateMetrics()
	}
	defer func() {
		result := "completed"
		switch {
		case err != nil:
			result = "failed"
			u.log.EmitError("update_progress", fmt.Sprintf("Update %s is FAILED.", shortID(u.id)), err,
				map[string]any{"update_progress": map[string]any{"state": "FAILED"}})
		case u.cut.Load():
			result = "canceled"
			u.progress("CANCELED")
		default:
			u.progress("COMPLETED")
		}
		if u.metrics != nil {
			if merr := u.writeMetrics(opts.MetricsFile, result); merr != nil && u.stderr != nil {
				fmt.Fprintf(u.stderr, "%s: %v (the update's result is not changed)\n", p.Name, merr)
			}
		}
		if tr.interval > 0 && errors.Is(err, errUpdateFailed) {
			// The trigger goes on: say so among the update's own lines,
			// each with its time and update id.
			fmt.Fprintf(u.stderr, "%s: %v\n", p.Name, err)
		}
	}()
	if err := u.runChecks(); err != nil {
		return err
	}
	u.defineGraph()
	if err := u.reconcileDatasets(); err != nil {
		return err
	}
	plan, err := u.selectFlows()
	if err != nil {
		return err
	}
	if err := u.preflight(plan); err != nil {
		return err
	}
	if u.identity, err = loadPipelineIdentity(u.storage, p.Name); err != nil {
		return err
	}
	if err := u.claimTables(plan); err != nil {
		return err
	}
	u.progress("SETTING_UP_TABLES")
	reset, err := u.fullRefresh(plan.reset)
	if err != nil {
		return err
	}
	// A full refresh that a crash interrupted was finished above: its
	// tables are empty and are recomputed now, selected or not.
	for _, f := range u.p.Flows {
		if plan.excluded[f] && slices.Contains(reset, f.Target.DatasetName()) {
			delete(plan.excluded, f)
			plan.run[f] = true
		}
	}
	u.progress("RUNNING")
	return u.runFlows(plan)
}

// createUpdate writes the update's first event.
func (u *update) createUpdate(opts RunOptions, tr Trigger) {
	u.log.Emit(eventlog.Event{Type: "create_update", Message: fmt.Sprintf("Update %s started by %s.", shortID(u.id), causeOf(opts)),
		Details: map[string]any{"create_update": map[string]any{
			"cause": "USER_ACTION", "full_refresh": opts.FullRefreshAll,
			"full_refresh_selection": opts.FullRefresh, "refresh_selection": opts.Refresh,
			"trigger": tr.String(), "parameters": u.params.values,
		}}})
}

// logRefused records an update refused because another holds the lock:
// its own event file (named by its own update id, so the holder's files
// are not touched) with create_update and update_progress CANCELED,
// reason LOCKED and the holder, for `events` and the metrics. Failing to
// write it does not hide the refusal, which is returned anyway.
func (u *update) logRefused(opts RunOptions, tr Trigger, le *lockedError) {
	log, err := eventlog.Open(u.storage, u.p.Name, u.id)
	if err != nil {
		return
	}
	defer log.Close()
	u.log = log
	defer func() { u.log = nil }()
	u.createUpdate(opts, tr)
	progress := map[string]any{"state": "CANCELED", "reason": "LOCKED"}
	if h := le.holder; h != nil {
		progress["lock_holder"] = map[string]any{"update_id": h.Update, "pid": h.PID, "host": h.Host, "started": h.Started.Format(time.RFC3339)}
	}
	log.Emit(eventlog.Event{Type: "update_progress", Level: "WARN",
		Message: fmt.Sprintf("Update %s is CANCELED: %v.", shortID(u.id), le),
		Details: map[string]any{"update_progress": progress}})
}

// newUpdate returns an update with its parameters bound and every name
// resolved to a location (setup), before the lock is taken.
func newUpdate(p *Pipeline, opts RunOptions, tr Trigger) (*update, error) {
	u := &update{
		p:        p,
		opts:     opts,
		id:       newID(),
		start:    time.Now(),
		loc:      time.UTC,
		stderr:   opts.Stderr,
		trigger:  tr,
		handles:  map[string]*table.Handle{},
		listings: map[string]*fileFrontier{},
		sources:  map[string]*FileSourceInfo{},
	}
	if u.stderr == nil {
		u.stderr = io.Discard
	}
	if tr.interval > 0 {
		// A long-running program's lines say when and in which update.
		u.stderr = &stampedWriter{w: u.stderr, prefix: func() string {
			return LogTime() + " update " + shortID(u.id) + ": "
		}}
	}
	return u, u.setup()
}

// LogTime is the time at the start of the interval trigger's lines, and
// of the program's last line when such an update failed: UTC, to the
// millisecond (2024-03-01T12:34:56.789Z), as the event log's timestamps.
func LogTime() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

// stampedWriter writes each whole line to w after prefix() (the interval
// trigger's timestamp and update id); a partial line waits for its end.
type stampedWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix func() string
	buf    []byte
}

func (s *stampedWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf, p...)
	for {
		i := bytes.IndexByte(s.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		if _, err := io.WriteString(s.w, s.prefix()+string(s.buf[:i+1])); err != nil {
			return len(p), err
		}
		s.buf = s.buf[i+1:]
	}
}

func causeOf(opts RunOptions) string {
	switch {
	case opts.FullRefreshAll:
		return "a full refresh of all tables"
	case len(opts.FullRefresh) > 0:
		return "a full refresh of " + strings.Join(opts.FullRefresh, ", ")
	case len(opts.Refresh) > 0:
		return "a refresh of " + strings.Join(opts.Refresh, ", ")
	}
	return "the user"
}

// newID is a fresh id (eventlog.NewID) for an update, a flow or the data
// files of a micro-batch.
func newID() string { return eventlog.NewID() }

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func (u *update) progress(state string) {
	u.log.Emit(eventlog.Event{Type: "update_progress", Message: fmt.Sprintf("Update %s is %s.", shortID(u.id), state),
		Details: map[string]any{"update_progress": map[string]any{"state": state}}})
}

// setup binds parameters and resolves every name to a location.
func (u *update) setup() error {
	var err error
	if u.params, err = bindParams(u.p.Parameters, u.opts.Params); err != nil {
		return err
	}
	if tz := u.p.SessionTimeZone; tz != "" {
		if u.loc, err = time.LoadLocation(tz); err != nil {
			return fmt.Errorf("session_time_zone %q: %w", tz, err)
		}
	}
	// SQL functions render and parse zone-less date-times in the session
	// time zone, as Spark's spark.sql.session.timeZone.
	sqlfn.SetSessionTimeZone(u.loc)
	// Rows in messages name their columns as the spec does.
	for _, d := range u.p.Datasets {
		if r, ok := d.(columnNamer); ok {
			r.nameColumns()
		}
	}
	for _, s := range u.p.Sources {
		if r, ok := s.(columnNamer); ok {
			r.nameColumns()
		}
	}
	if u.opts.Warehouse == "" {
		u.opts.Warehouse = DefaultWarehouse
	}
	u.storage = StorageDir(u.opts.Warehouse, u.opts.Storage, u.p.Name)
	overrides, err := u.sourcePathOverrides()
	if err != nil {
		return err
	}
	catalog, err := u.params.Expand(u.p.Catalog)
	if err != nil {
		return err
	}
	schema, err := u.params.Expand(u.p.Schema)
	if err != nil {
		return err
	}
	for _, d := range u.p.Datasets {
		td := d.datasetDesc()
		parts := []string{td.Catalog, td.Schema, td.Table}
		for i := range parts {
			if parts[i], err = u.params.Expand(parts[i]); err != nil {
				return fmt.Errorf("dataset %s: %w", td.Name, err)
			}
		}
		if parts[0] == "" {
			parts[0] = catalog
		}
		if parts[1] == "" {
			parts[1] = schema
		}
		u.handles[td.Name] = table.New(td.Name, TableDir(u.opts.Warehouse, parts[0], parts[1], parts[2]), td.Desc)
	}
	for _, s := range u.p.Sources {
		switch s := s.(type) {
		case interface {
			Source
			tableName() string
		}:
			name, err := u.params.Expand(s.tableName())
			if err != nil {
				return fmt.Errorf("source %s: %w", s.SourceName(), err)
			}
			if o, ok := overrides[s.SourceName()]; ok {
				name = "delta.`" + strings.ReplaceAll(o, "`", "``") + "`"
			}
			if path, ok := DeltaPathName(name); ok {
				// delta.`/path/to/table`, as in Spark; relative to the
				// spec's folder like file sources.
				if !storage.IsAbs(path) && u.opts.BaseDir != "" {
					path = storage.Join(u.opts.BaseDir, path)
				}
				u.handles[s.SourceName()] = table.New(s.SourceName(), path, nil)
				continue
			}
			parts := strings.Split(name, ".")
			for len(parts) < 3 {
				parts = append([]string{[]string{catalog, schema}[3-len(parts)-1]}, parts...)
			}
			u.handles[s.SourceName()] = table.New(s.SourceName(), TableDir(u.opts.Warehouse, parts[0], parts[1], parts[2]), nil)
		case interface {
			Source
			fileInfo() FileSourceInfo
		}:
			info := s.fileInfo()
			dir, err := u.params.Expand(info.Dir)
			if err != nil {
				return fmt.Errorf("source %s: %w", s.SourceName(), err)
			}
			if o, ok := overrides[s.SourceName()]; ok {
				dir = o
			}
			if !storage.IsAbs(dir) && u.opts.BaseDir != "" {
				dir = storage.Join(u.opts.BaseDir, dir)
			}
			info.Dir = dir
			u.sources[s.SourceName()] = &info
		}
	}
	return nil
}

// sourcePathOverrides parses RunOptions.SourcePaths (NAME=PATH, NAME a
// source of the pipeline).
func (u *update) sourcePathOverrides() (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range u.opts.SourcePaths {
		name, path, ok := strings.Cut(kv, "=")
		if !ok || path == "" {
			return nil, fmt.Errorf("--source-path %q: want NAME=PATH", kv)
		}
		found := false
		var names []string
		for _, s := range u.p.Sources {
			found = found || s.SourceName() == name
			names = append(names, s.SourceName())
		}
		if !found {
			return nil, fmt.Errorf("--source-path %q: the pipeline has no source %q (sources: %s)", kv, name, strings.Join(names, ", "))
		}
		out[name] = path
	}
	return out, nil
}

// handle returns the table behind a dataset or table-source name.
func (u *update) handle(name string) (*table.Handle, error) {
	h, ok := u.handles[name]
	if !ok {
		return nil, fmt.Errorf("no table named %q in this pipeline", name)
	}
	return h, nil
}

// runChecks evaluates the pipeline's checks; any that is not TRUE fails the
// update before a flow runs.
func (u *update) runChecks() error {
	for _, c := range u.p.Checks {
		res, err := c.Eval(u.params)
		if err != nil {
			return fmt.Errorf("check %q: %w", c.Text, err)
		}
		if !res.Valid || !res.V {
			got := "FALSE"
			if !res.Valid {
				got = "NULL"
			}
			return fmt.Errorf("check failed: %s is %s with parameters %s", c.Text, got, formatParams(u.params))
		}
	}
	return nil
}

func formatParams(p *Params) string {
	names := make([]string, 0, len(p.values))
	for k := range p.values {
		names = append(names, k)
	}
	sort.Strings(names)
	for i, k := range names {
		names[i] = k + "=" + p.values[k]
	}
	return strings.Join(names, " ")
}

func (u *update) dataset(name string) Dataset {
	for _, d := range u.p.Datasets {
		if d.DatasetName() == name {
			return d
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// storagePath returns a path under the pipeline's storage.
func (u *update) storagePath(elem ...string) string {
	return storage.Join(u.storage, elem...)
}

func (u *update) checkpointDir(f *Flow) string {
	return u.storagePath("checkpoints", f.Name)
}

// DeltaPathName returns the path of a table named by path, Spark's
// delta.`/path/to/table` (the prefix case-insensitive), and whether name
// has that form.
func DeltaPathName(name string) (string, bool) {
	if len(name) < len("delta.``") || !strings.EqualFold(name[:len("delta.`")], "delta.`") || !strings.HasSuffix(name, "`") {
		return "", false
	}
	return strings.ReplaceAll(name[len("delta.`"):len(name)-1], "``", "`"), true
}
