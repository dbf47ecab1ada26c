package runtime

import (
	"sync"
	"sync/atomic"
)

// Locals holds one value of T per worker: the partial state of an operator
// whose input is scanned concurrently (a hash aggregation's table), merged
// once the scan is done. Generated code uses it as
//
//	parts := runtime.NewLocals(func() *part { return &part{...} })
//	runtime.Scan(ctx, t, runtime.ScanOptions{Concurrent: true}, func(w *runtime.Worker, rows []Row) error {
//		p := parts.Get(w) // this worker's partial state
//		...
//	})
//	for _, p := range parts.All() { ...merge... }
type Locals[T any] struct {
	id   int
	init func() *T
	mu   sync.Mutex
	all  []*T
}

var localsIDs atomic.Int64

// NewLocals returns per-worker values made by init on first use.
func NewLocals[T any](init func() *T) *Locals[T] {
	return &Locals[T]{id: int(localsIDs.Add(1)), init: init}
}

// Get returns w's value, creating it on the worker's first call. It is
// cheap enough to call per row: the value is cached on the worker.
func (l *Locals[T]) Get(w *Worker) *T {
	if w.localID == l.id {
		return w.local.(*T)
	}
	for i, id := range w.localIDs {
		if id == l.id {
			v := w.locals[i].(*T)
			w.localID, w.local = l.id, v
			return v
		}
	}
	v := l.init()
	l.mu.Lock()
	l.all = append(l.all, v)
	l.mu.Unlock()
	w.localIDs = append(w.localIDs, l.id)
	w.locals = append(w.locals, v)
	w.localID, w.local = l.id, v
	return v
}

// All returns every worker's value, in order of creation. Call it after
// the scans that fill them have returned.
func (l *Locals[T]) All() []*T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*T(nil), l.all...)
}
