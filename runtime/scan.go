package runtime

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/table"
	"github.com/pipegen/pipegen/runtime/types"
)

// ScanOptions say how a flow reads one of its inputs.
type ScanOptions struct {
	// Streaming reads only what the current micro-batch holds for this
	// input (STREAM(x)); otherwise the input's current snapshot is read.
	Streaming bool
	// Concurrent lets Scan call the callback from several workers at once,
	// each with its own rows. pipegen sets it only where the code between
	// the scan and the output handles rows independently.
	Concurrent bool
	// Prune holds conjuncts of the query's filter over this input that
	// file skipping may use (a batch read of a table only): files whose
	// partition values or statistics prove no row matches them are not
	// opened. The filter is still applied to every row read.
	Prune []PruneTerm
}

// PruneTerm is one conjunct of a filter used to skip files (see
// delta.PruneTerm).
type PruneTerm = delta.PruneTerm

// Readable is a relation whose rows are of the generated struct T.
type Readable[T any] interface {
	Relation
	scan(ctx *FlowContext, opts ScanOptions, fn func(w *Worker, rows []T) error) error
}

// Scan reads the rows of r — the current micro-batch's when
// opts.Streaming, the current snapshot's otherwise — and calls fn with
// chunks of them. fn must not keep the rows slice after it returns (the
// values in it, strings included, may be kept).
func Scan[T any](ctx *FlowContext, r Readable[T], opts ScanOptions, fn func(w *Worker, rows []T) error) error {
	return r.scan(ctx, opts, fn)
}

func (s *FileSource[T]) relationName() string { return s.Name }

func (s *FileSource[T]) scan(ctx *FlowContext, opts ScanOptions, fn func(*Worker, []T) error) error {
	var files []source.FileInfo
	if opts.Streaming {
		files = ctx.batch.files[s.Name]
	} else {
		all, err := ctx.u.listFiles(s.Name)
		if err != nil {
			return err
		}
		files = all
	}
	decOpts := source.Options{OnMalformed: s.OnMalformed, NewColumns: s.NewColumns, TimeZone: ctx.u.loc}
	batch := int64(-1)
	if opts.Streaming && ctx.batch != nil {
		batch = ctx.batch.id
	}
	var added newColumnsCollector
	err := runTasks(ctx, len(files), opts.Concurrent, func(w *Worker, i int) error {
		f := files[i]
		fh, err := storage.OpenFile(f.LocalPath)
		if errors.Is(err, fs.ErrNotExist) {
			if !s.IgnoreMissingFiles {
				return missingFileError(s.Name, f.Path, batch)
			}
			ctx.u.skipFile(ctx.flow, s.Name, f.Path, "the file is gone (deleted after it was listed)")
			ctx.metrics.skippedFiles.Add(1)
			return nil
		}
		if err != nil {
			return fmt.Errorf("source %s: %w", s.Name, err)
		}
		defer fh.Close()
		w.at = f.LocalPath
		defer func() { w.at = "" }()
		// The file as listed: bytes appended since are not read (they
		// would be lost, as the file is not read again), and a rerun of the
		// micro-batch reads the same bytes.
		in := io.NewSectionReader(fh, 0, f.Size)
		stats, err := s.Decode(f, in, decOpts, func(rows []T) error {
			ctx.metrics.inputRows.Add(int64(len(rows)))
			if err := fn(w, rows); err != nil {
				return &flowError{err}
			}
			return nil
		})
		ctx.metrics.inputFiles.Add(1)
		ctx.metrics.inputBytes.Add(f.Size)
		ctx.metrics.rescuedRows.Add(stats.Rescued)
		ctx.metrics.malformed.Add(stats.Malformed)
		if st, serr := storage.Restat(fh); serr == nil {
			// Still being written, or rewritten in place, while listed
			// and read: it was read as listed.
			if now, listed := fileInfoOf(st), f; stampOf(now) != stampOf(listed) {
				ctx.u.fileChanged(ctx.flow, s.Name, f.Path, "between its listing and the end of its reading (it was read as listed)",
					listed.Size, int64(listed.ModificationTime)/1000, now.Size, int64(now.ModificationTime)/1000)
				ctx.metrics.changedFiles.Add(1)
			}
		}
		var fe *flowError
		if errors.As(err, &fe) {
			return fe.err // the flow's own error (an expectation, a cast)
		}
		if added.add(s.Schema, err) {
			return nil // the micro-batch fails below, with every file's new columns
		}
		if err != nil {
			var de *source.DecodeError
			if errors.As(err, &de) && de.Line > 0 {
				return fmt.Errorf("source %s: %w", s.Name, err) // on_malformed: fail
			}
			if !s.IgnoreCorruptFiles {
				return corruptFileError(s.Name, f.Path, err)
			}
			ctx.u.skipFile(ctx.flow, s.Name, f.Path, "it cannot be read: "+err.Error())
			ctx.metrics.skippedFiles.Add(1)
		}
		return nil
	})
	if err == nil && (len(added.cols) > 0 || len(added.widened) > 0) {
		return ctx.u.recordSchemaChange(ctx.flow, s.Name, added.cols, added.widened)
	}
	return err
}

// flowError marks an error of the flow's own code, called back by a
// decoder, from the decoder's errors reading the file.
type flowError struct{ err error }

func (e *flowError) Error() string { return e.err.Error() }
func (e *flowError) Unwrap() error { return e.err }

// fileInfoOf is the FileInfo size and time of an open file's attributes.
func fileInfoOf(st storage.ObjectInfo) source.FileInfo {
	return source.FileInfo{Size: st.Size, ModificationTime: types.Timestamp(st.ModTime.Truncate(time.Millisecond).UnixMicro())}
}

func (s *TableSource[T]) relationName() string { return s.Name }

func (s *TableSource[T]) scan(ctx *FlowContext, opts ScanOptions, fn func(*Worker, []T) error) error {
	return scanTable(ctx, s.Name, s.Codec, opts, fn)
}

func (t *Table[T]) relationName() string { return t.Name }

func (t *Table[T]) scan(ctx *FlowContext, opts ScanOptions, fn func(*Worker, []T) error) error {
	return scanTable(ctx, t.Name, t.Codec, opts, fn)
}

// scanChunk is how many rows a table scan assembles per callback.
const scanChunk = 4096

// scanTable reads the data files of a Delta table: those the micro-batch
// added (streaming) or the live files of the current snapshot.
func scanTable[T any](ctx *FlowContext, name string, codec RowCodec[T], opts ScanOptions, fn func(*Worker, []T) error) error {
	var files []table.File
	if opts.Streaming {
		files = ctx.batch.tables[name]
	} else {
		h, err := ctx.u.handle(name)
		if err != nil {
			return err
		}
		if added, ok := ctx.incr.addedFiles(name); ok {
			files = added
		} else if files, err = h.LiveFiles(); err != nil {
			return err
		}
		// Only the filter over this scan reads its rows: files it rules
		// out would give no row (an incremental refresh's new files too).
		var pruned int
		if files, pruned, err = h.Prune(files, opts.Prune); err != nil {
			return err
		}
		ctx.metrics.prunedFiles.Add(int64(pruned))
	}
	return runTasks(ctx, len(files), opts.Concurrent, func(w *Worker, i int) error {
		f := files[i]
		w.at = f.Path
		defer func() { w.at = "" }()
		r, err := f.Open(codec.Schema)
		if err != nil {
			return fmt.Errorf("read table %s: %w", name, err)
		}
		defer r.Close()
		ctx.metrics.inputFiles.Add(1)
		ctx.metrics.inputBytes.Add(r.Size())
		buf := make([]parquet.Row, 1024)
		chunk := make([]T, 0, scanChunk)
		for {
			n, err := r.ReadRows(buf)
			for _, row := range buf[:n] {
				chunk = append(chunk, *new(T))
				if aerr := codec.Assemble(row, &chunk[len(chunk)-1], &w.Arena); aerr != nil {
					return fmt.Errorf("read table %s: %s: %w", name, f.Path, aerr)
				}
			}
			if len(chunk) >= scanChunk-len(buf) || (err != nil && len(chunk) > 0) {
				ctx.metrics.inputRows.Add(int64(len(chunk)))
				if ferr := fn(w, chunk); ferr != nil {
					return ferr
				}
				clear(chunk)
				chunk = chunk[:0]
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("read table %s: %w", name, err)
			}
		}
	})
}

// runTasks runs task(w, i) for i in [0, n): on the sequential worker, or,
// when concurrent, on up to GOMAXPROCS workers that take tasks in order.
// The first error stops the other workers from taking new tasks.
func runTasks(ctx *FlowContext, n int, concurrent bool, task func(w *Worker, i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	if !concurrent || workers <= 1 {
		w := ctx.Worker()
		for i := 0; i < n; i++ {
			if err := task(w, i); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next   atomic.Int64
		failed atomic.Bool
		wg     sync.WaitGroup
		mu     sync.Mutex
		first  error
	)
	for range workers {
		w := ctx.newWorker()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := task(w, i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					failed.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// missingFileError is the error of a file of micro-batch batch (-1: of a
// batch read) that is gone when it is read, without ignore_missing_files.
func missingFileError(sourceName, path string, batch int64) error {
	of := ""
	if batch >= 0 {
		of = fmt.Sprintf(" of micro-batch %d", batch)
	}
	return fmt.Errorf("source %s: file %s%s is gone (deleted after it was listed): restore it and rerun, or set ignore_missing_files: true on source %s to skip it (it is then recorded as skipped and not retried)",
		sourceName, path, of, sourceName)
}

// corruptFileError is the error of a file that cannot be read, without
// ignore_corrupt_files.
func corruptFileError(sourceName, path string, err error) error {
	return fmt.Errorf("source %s: file %s cannot be read (%w): fix or replace it and rerun, or set ignore_corrupt_files: true on source %s to skip it (the rows read before the damage are kept; it is recorded as skipped and not retried)",
		sourceName, path, err, sourceName)
}

// skipFile reports a file of source left out of a flow's batch (ignore_
// missing_files, ignore_corrupt_files): a warning event with the path and
// the reason. The caller counts it in the flow's progress.
func (u *update) skipFile(f *Flow, sourceName, path, reason string) {
	u.log.Emit(eventlog.Event{Type: "flow_progress", Level: "WARN", Origin: eventlog.Origin{Flow: f.Name, Dataset: f.Target.DatasetName()},
		Message: fmt.Sprintf("File %s of source %s is skipped: %s.", path, sourceName, reason),
		Details: map[string]any{"skipped_file": map[string]any{"source": sourceName, "path": path, "reason": reason}}})
}

// fileChanged reports a file whose size or modification time is not
// what the listing (or, when ingested again, the processed-file record)
// said: a warning event with both; the caller counts it.
func (u *update) fileChanged(f *Flow, sourceName, path, what string, oldSize, oldMtime, newSize, newMtime int64) {
	u.log.Emit(eventlog.Event{Type: "flow_progress", Level: "WARN", Origin: eventlog.Origin{Flow: f.Name, Dataset: f.Target.DatasetName()},
		Message: fmt.Sprintf("File %s of source %s changed %s: size %d -> %d bytes, modified %s -> %s.", path, sourceName, what,
			oldSize, newSize, time.UnixMilli(oldMtime).UTC().Format(time.RFC3339Nano), time.UnixMilli(newMtime).UTC().Format(time.RFC3339Nano)),
		Details: map[string]any{"changed_file": map[string]any{"source": sourceName, "path": path, "when": what,
			"old_size": oldSize, "new_size": newSize, "old_modification_time": oldMtime, "new_modification_time": newMtime}}})
}
