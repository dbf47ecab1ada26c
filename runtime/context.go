package runtime

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pipegen/pipegen/runtime/table"
	"github.com/pipegen/pipegen/runtime/types"
)

// FlowContext is what a generated flow function runs with: the update's
// parameters and clock, the micro-batch it processes, and its workers.
type FlowContext struct {
	u      *update
	flow   *Flow
	target *table.Handle
	// batch is the current micro-batch of a streaming flow (nil for
	// batch flows): what each streaming input reads.
	batch *batchPlan
	// workers[0] is the sequential worker; the others exist while a
	// concurrent scan runs.
	mu      sync.Mutex
	workers []*Worker
	// fileName is the prefix of the data files this flow run writes.
	filePrefix string
	metrics    flowMetrics
	// cdc holds what an AUTO CDC flow's run collected (ApplyChanges).
	cdc *cdcBatch
	// incr is set when a materialized view is refreshed incrementally: the
	// input files its snapshot scans read instead, and the saved
	// aggregation state (see refreshplan.go).
	incr *incrementalRun
	// keptState is the aggregation state KeepAggregate recorded (a
	// pointer to the generated code's merged hash table).
	keptState any
	// stateful is the watermark and operator state of a stateful
	// streaming flow's micro-batch (see streamstate.go).
	stateful *streamState
}

// flowMetrics are counted while a flow runs; the flow_progress event
// reports them.
type flowMetrics struct {
	inputRows   atomic.Int64
	inputFiles  atomic.Int64
	inputBytes  atomic.Int64
	rescuedRows atomic.Int64
	malformed   atomic.Int64
	// changedFiles and skippedFiles count the files that changed between
	// listing and reading, and those skipped (ignore_missing_files,
	// ignore_corrupt_files).
	changedFiles atomic.Int64
	skippedFiles atomic.Int64
	// prunedFiles counts the table files a filter ruled out unopened.
	prunedFiles  atomic.Int64
	outputRows   atomic.Int64
	droppedRows  atomic.Int64
	batches      int64
	backlogFiles int64
	backlogBytes int64
}

// Worker returns the sequential worker, for code outside concurrent scans
// (the output loop of an aggregation, for instance).
func (c *FlowContext) Worker() *Worker {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.workers) == 0 {
		c.workers = append(c.workers, &Worker{ctx: c})
	}
	return c.workers[0]
}

// newWorker adds a worker for a concurrent scan.
func (c *FlowContext) newWorker() *Worker {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.workers) == 0 {
		c.workers = append(c.workers, &Worker{ctx: c})
	}
	w := &Worker{ctx: c, id: len(c.workers)}
	c.workers = append(c.workers, w)
	return w
}

// Params returns the parameters bound for the update.
func (c *FlowContext) Params() *Params { return c.u.params }

// CurrentTimestamp is current_timestamp(): the instant the update started,
// the same for every row of the update (as Spark evaluates it once per
// query).
func (c *FlowContext) CurrentTimestamp() types.Timestamp { return types.TimestampOf(c.u.start) }

// CurrentDate is current_date(): the update's start date in the session
// time zone.
func (c *FlowContext) CurrentDate() types.Date { return types.DateOf(c.u.start.In(c.u.loc)) }

// Worker processes rows on one goroutine: concurrent scans hand each worker
// its own rows, and each worker writes its own output files.
type Worker struct {
	ctx  *FlowContext
	id   int
	sink sinkCloser
	// Arena holds strings copied out of Parquet pages for this worker.
	Arena Arena
	// at describes the input being read, for error messages.
	at string
	// locals are this worker's values of Locals (ids in localIDs), the
	// last one used cached in localID/local.
	localIDs []int
	locals   []any
	localID  int
	local    any
	// maxEventTime is the largest event time this worker read from a
	// watermarked stream (ObserveEventTime).
	maxEventTime int64
	hasEventTime bool
}

// sinkCloser is the non-generic view of a Sink.
type sinkCloser interface {
	close() ([]table.DataFile, error)
	abort()
	counts() sinkCounts
}

// RowError wraps an error raised while computing a row (ANSI overflow,
// invalid cast, division by zero) with the flow (and its target dataset
// when it is not the dataset's own flow), the input being read and the
// row, so the message says where to look. The cause usually names the
// failing expression (sqlfn.InExpression). row is nil when the query
// reads no input row (SELECT without FROM, a VALUES list): the message
// then has no row line.
func (w *Worker) RowError(cause error, row any) error {
	where := ""
	if w.at != "" {
		where = " reading " + w.at
	}
	flow := "flow " + w.ctx.flow.Name
	if t := w.ctx.flow.Target; t != nil && t.DatasetName() != w.ctx.flow.Name {
		flow += " into dataset " + t.DatasetName()
	}
	if row == nil {
		return fmt.Errorf("%s%s: %w", flow, where, cause)
	}
	return fmt.Errorf("%s%s: %w\n  row: %s", flow, where, cause, formatRow(row))
}

// since returns the seconds elapsed since t, for progress lines.
func since(t time.Time) float64 { return time.Since(t).Seconds() }
