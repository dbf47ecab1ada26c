package runtime

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/source"
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
}

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
	decOpts := source.Options{OnMalformed: s.OnMalformed, TimeZone: ctx.u.loc}
	return runTasks(ctx, len(files), opts.Concurrent, func(w *Worker, i int) error {
		f := files[i]
		fh, err := os.Open(f.LocalPath)
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
			return fn(w, rows)
		})
		ctx.metrics.inputFiles.Add(1)
		ctx.metrics.inputBytes.Add(f.Size)
		ctx.metrics.rescuedRows.Add(stats.Rescued)
		ctx.metrics.malformed.Add(stats.Malformed)
		if err != nil {
			var de *source.DecodeError
			if errors.As(err, &de) {
				return fmt.Errorf("source %s: %w", s.Name, err)
			}
			return err
		}
		return nil
	})
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
	var files []tableFile
	if opts.Streaming {
		files = ctx.batch.tables[name]
	} else if added, ok := ctx.incr.addedFiles(name); ok {
		files = added
	} else {
		h, err := ctx.u.handle(name)
		if err != nil {
			return err
		}
		files, err = h.liveFiles()
		if err != nil {
			return err
		}
	}
	return runTasks(ctx, len(files), opts.Concurrent, func(w *Worker, i int) error {
		f := files[i]
		w.at = f.path
		defer func() { w.at = "" }()
		r, err := f.open(codec.Schema)
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
					return fmt.Errorf("read table %s: %s: %w", name, f.path, aerr)
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
