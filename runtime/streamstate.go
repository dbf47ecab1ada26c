package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pipegen/pipegen/runtime/checkpoint"
	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/statecodec"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/types"
)

// Stateful streaming flows: an event-time watermark and the state of one
// stateful operator (a window aggregation or a deduplication), kept in the
// flow's checkpoint between micro-batches with Structured Streaming's
// semantics in the append output mode.
//
// The watermark in effect for micro-batch N is the one micro-batch N-1
// left: max(event time of the rows of the watermarked stream read so far,
// at millisecond precision) minus the delay, never moving back; before
// the first it is the epoch, as in Spark. Rows whose event time (or
// window end) is at or below it are late: the operator drops and counts
// them. Once the batch's rows are folded in, the watermark advances by
// the batch's rows and the operator emits what it closes (window rows)
// and forgets what it no longer needs (keys, windows) — Spark's data
// micro-batch followed by the no-data micro-batch its new watermark
// triggers.
//
// The state lives in the checkpoint as state/<N>.bin, written (whole,
// synced, renamed) after micro-batch N's data files and before its table
// commit; micro-batch N+1 starts from state/<N>.bin, and older files are
// removed once N is committed. A crash at any instant reruns micro-batch
// N from state/<N-1>.bin, which stays until commits/N exists, so the rerun
// writes the rows of an uninterrupted run.

// Watermark declares the event-time watermark of a stateful streaming
// flow (Databricks SQL's `WATERMARK column DELAY OF interval`, Structured
// Streaming's withWatermark). Set by pipegen on flows with a stateful
// operator; nil otherwise.
type Watermark struct {
	// Column is the event-time column of the stream, for messages.
	Column string
	// Delay is how late a row may be, in microseconds.
	Delay int64
	// State identifies what the flow keeps in its checkpoint (the
	// operator, its keys and aggregates); the checkpoint records it, and
	// a different one needs a full refresh, unless it differs only by
	// widenings of the values the state holds (Shape and Types).
	State string
	// Shape identifies the state without its types; Types are the types
	// of what it holds, "key T" or "value T" in the operator's order
	// (spec.Flow.StateShape and StateTypes).
	Shape string
	Types []string
}

// streamState is a stateful flow's watermark and operator state during
// one micro-batch.
type streamState struct {
	delay int64
	// watermark is the watermark in effect for the batch's rows (µs); next
	// the watermark after the batch, once advanced.
	watermark, next int64
	advanced        bool
	// data is the operator state the previous batch saved (its encoding,
	// nil when there is none); widened says its values are of narrower
	// types than the flow's, to be upcast as they are decoded.
	data    []byte
	widened bool
	// kept is the operator state to save (a pointer to the generated
	// code's state), with its number of entries.
	kept                            any
	rows, removed                   int64
	late, nullEventTime, duplicates atomic.Int64
}

// state returns the flow's stream state, empty when the flow runs outside
// a micro-batch (it then has no previous state and the initial
// watermark).
func (c *FlowContext) state() *streamState {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stateful == nil {
		c.stateful = &streamState{}
		if w := c.flow.Watermark; w != nil {
			c.stateful.delay = w.Delay
		}
	}
	return c.stateful
}

// ObserveEventTime records the event time of a row of the watermarked
// stream (generated code calls it for every non-NULL event time the scan
// reads, before any filter): the watermark advances by the largest.
func (w *Worker) ObserveEventTime(ts types.Timestamp) {
	if !w.hasEventTime || int64(ts) > w.maxEventTime {
		w.maxEventTime, w.hasEventTime = int64(ts), true
	}
}

// EventTimeWatermark returns the watermark in effect for the rows of the
// current micro-batch (µs): a row whose event time, or window end, is at
// or below it is late.
func EventTimeWatermark(ctx *FlowContext) types.Timestamp {
	return types.Timestamp(ctx.state().watermark)
}

// AdvanceWatermark computes, once the micro-batch's rows are read, the
// watermark after the batch and returns it: max(event time observed) in
// whole milliseconds minus the delay, as Spark computes it, unless that
// is below the current one. The operator then emits and forgets what it
// closes.
func AdvanceWatermark(ctx *FlowContext) types.Timestamp {
	s := ctx.state()
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	if s.advanced {
		return types.Timestamp(s.next)
	}
	var max int64
	seen := false
	for _, w := range ctx.workers {
		if w.hasEventTime && (!seen || w.maxEventTime > max) {
			max, seen = w.maxEventTime, true
		}
	}
	s.next = s.watermark
	if seen {
		// Spark keeps the maximum in milliseconds (µs / 1000, truncated)
		// and subtracts the delay in milliseconds.
		if cand := (max/1000 - s.delay/1000) * 1000; cand > s.next {
			s.next = cand
		}
	}
	s.advanced = true
	return types.Timestamp(s.next)
}

// LateRow counts a row the stateful operator dropped because its event
// time (or its window's end) is at or below the watermark.
func LateRow(w *Worker) { w.ctx.state().late.Add(1) }

// NullEventTime counts a row the stateful operator dropped because its
// event time is NULL: it belongs to no window and no watermark can close
// its state.
func NullEventTime(w *Worker) { w.ctx.state().nullEventTime.Add(1) }

// DuplicateRow counts a row a deduplication dropped as a duplicate of a
// row already written (Spark's numDroppedDuplicateRows).
func DuplicateRow(w *Worker) { w.ctx.state().duplicates.Add(1) }

// SeedState makes the operator state the previous micro-batch saved the
// first partial state of l (a window aggregation's per-worker tables), so
// that merging the workers' tables folds the batch's rows into it. It
// does nothing in the flow's first micro-batch.
func SeedState[T any](ctx *FlowContext, l *Locals[T]) error {
	v := new(T)
	ok, err := LoadState(ctx, v)
	if err != nil || !ok {
		return err
	}
	l.mu.Lock()
	l.all = append([]*T{v}, l.all...)
	l.mu.Unlock()
	return nil
}

// LoadState decodes the operator state the previous micro-batch saved
// into *v; ok is false (and *v untouched) when there is none. State saved
// for another shape of the query is an error that asks for a full
// refresh.
func LoadState[T any](ctx *FlowContext, v *T) (ok bool, err error) {
	s := ctx.state()
	if s.data == nil {
		return false, nil
	}
	if err := statecodec.DecodeAs(s.data, v, s.widened); err != nil {
		name := ctx.flow.Target.DatasetName()
		return false, fmt.Errorf("the state in the flow's checkpoint does not fit its query (%v): a full refresh of %s is required: run with --full-refresh %s",
			err, name, name)
	}
	return true, nil
}

// KeepState records *v as the operator state to save with the micro-batch
// (the generated code's hash table, once the closed entries are emitted
// and removed): rows is its number of entries, removed the entries this
// batch removed.
func KeepState[T any](ctx *FlowContext, v *T, rows, removed int) {
	s := ctx.state()
	s.kept, s.rows, s.removed = v, int64(rows), int64(removed)
}

// StateWidening reports why a state whose contents have the types from
// cannot be read as one of the types to (Watermark.Types), for two builds
// of a stateful flow with the same Watermark.Shape: nil when every
// key keeps its type and every value keeps it or widens in a way the state
// codec upcasts losslessly on load (an integer to a wider integer, FLOAT
// to DOUBLE, DECIMAL precision up with the same scale). Other widenings
// change what the saved bits mean (a DATE's days, a DECIMAL's scale) and,
// like any change of a key's type, need a full refresh.
func StateWidening(from, to []string) error {
	if len(from) != len(to) {
		return errors.New("its keys or aggregates changed")
	}
	for i := range from {
		if from[i] == to[i] {
			continue
		}
		role, ft, _ := strings.Cut(from[i], " ")
		role2, tt, _ := strings.Cut(to[i], " ")
		switch {
		case role != role2:
			return errors.New("its keys or aggregates changed")
		case role == "key":
			return fmt.Errorf("a key of its state changed type from %s to %s (a key is not upcast: its saved entries would not meet the new rows' keys)", ft, tt)
		case !upcastable(ft, tt):
			return fmt.Errorf("a value its state holds changed type from %s to %s, which is not a widening the saved state can be upcast by (only an integer to a wider integer, FLOAT to DOUBLE and DECIMAL precision up with the same scale are)", ft, tt)
		}
	}
	return nil
}

// StateWidenings describes the widenings between two Watermark.Types
// StateWidening accepts, for messages: "INT to BIGINT", each once.
func StateWidenings(from, to []string) string {
	var out []string
	for i := range min(len(from), len(to)) {
		if from[i] != to[i] {
			_, ft, _ := strings.Cut(from[i], " ")
			_, tt, _ := strings.Cut(to[i], " ")
			if w := ft + " to " + tt; !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return strings.Join(out, ", ")
}

// upcastable reports whether a state value of type from (in DDL form) is
// read as type to by the state codec's widened decoding.
func upcastable(from, to string) bool {
	rank := map[string]int{"TINYINT": 1, "SMALLINT": 2, "INT": 3, "BIGINT": 4}
	if rank[from] > 0 && rank[to] > 0 {
		return rank[from] < rank[to]
	}
	if from == "FLOAT" && to == "DOUBLE" {
		return true
	}
	var p1, s1, p2, s2 int
	if n, _ := fmt.Sscanf(from, "DECIMAL(%d,%d)", &p1, &s1); n != 2 {
		return false
	}
	if n, _ := fmt.Sscanf(to, "DECIMAL(%d,%d)", &p2, &s2); n != 2 {
		return false
	}
	return s1 == s2 && p2 > p1
}

// stateMagic starts every state file.
const stateMagic = "PIPEGEN-STATE 1\n"

// stateHeader is the JSON line after stateMagic; the encoded operator
// state follows it.
type stateHeader struct {
	Batch int64 `json:"batchId"`
	// Watermark is the watermark after the batch, µs since the epoch.
	Watermark int64 `json:"watermarkMicros"`
	// WatermarkTime is Watermark as text, for people.
	WatermarkTime string `json:"watermark"`
	Rows          int64  `json:"stateRows"`
	Empty         bool   `json:"empty,omitempty"`
	Flow          string `json:"flow"`
	// Types are the Watermark.Types of the program that saved the state.
	Types []string `json:"types,omitempty"`
}

func stateDir(cp *checkpoint.Stream) string { return storage.Join(cp.Dir, "state") }

func stateName(batch int64) string { return strconv.FormatInt(batch, 10) + ".bin" }

// loadStreamState prepares ctx for a micro-batch of a stateful flow: the
// watermark and operator state the last committed batch saved, and
// removes state files no batch will read.
func (u *update) loadStreamState(f *Flow, cp *checkpoint.Stream, ctx *FlowContext) error {
	if f.Watermark == nil {
		return nil
	}
	s := ctx.state()
	dir := stateDir(cp)
	if cp.Committed >= 0 {
		data, err := storage.ReadFile(storage.Join(dir, stateName(cp.Committed)))
		if errors.Is(err, fs.ErrNotExist) {
			name := f.Target.DatasetName()
			return fmt.Errorf("the state of micro-batch %d is missing from the flow's checkpoint %s (the flow kept no state before, or the file was removed): a full refresh of %s is required: run with --full-refresh %s",
				cp.Committed, dir, name, name)
		}
		if err != nil {
			return fmt.Errorf("read state: %w", err)
		}
		h, body, err := parseStateFile(data)
		if err != nil {
			name := f.Target.DatasetName()
			return fmt.Errorf("the state file %s of flow %s is damaged (%w); the state cannot be rebuilt from table %s: nothing was written: run with --full-refresh %s",
				storage.Join(dir, stateName(cp.Committed)), f.Name, err, name, name)
		}
		s.watermark = h.Watermark
		if !h.Empty {
			s.data = body
			// A state saved before a widening of its values is read
			// into the wider types. The state definition may not show
			// the change (count(DISTINCT n) is a BIGINT whatever n is).
			if h.Types != nil && !slices.Equal(h.Types, f.Watermark.Types) {
				if err := StateWidening(h.Types, f.Watermark.Types); err != nil {
					name := f.Target.DatasetName()
					return fmt.Errorf("the state in the checkpoint of flow %s does not fit its query (%v): a full refresh of %s is required: run with --full-refresh %s",
						f.Name, err, name, name)
				}
				s.widened = true
				u.log.Emit(eventlog.Event{Type: "flow_definition", Origin: eventlog.Origin{Flow: f.Name, Dataset: f.Target.DatasetName()},
					Message: fmt.Sprintf("Flow %s keeps its state across the widening of values it holds (%s): the saved state is upcast as it is read and saved again in the new types.", f.Name, StateWidenings(h.Types, f.Watermark.Types))})
			}
		}
	}
	return pruneStreamState(dir, cp.Committed)
}

// parseStateFile splits a state file into its header and the encoded
// operator state.
func parseStateFile(data []byte) (stateHeader, []byte, error) {
	var h stateHeader
	rest, ok := bytes.CutPrefix(data, []byte(stateMagic))
	if !ok {
		return h, nil, errors.New("not a pipegen state file")
	}
	line, body, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return h, nil, errors.New("truncated")
	}
	if err := json.Unmarshal(line, &h); err != nil {
		return h, nil, fmt.Errorf("corrupt header: %v", err)
	}
	return h, body, nil
}

// saveStreamState writes the watermark and operator state after
// micro-batch off to state/<batch>.bin, before the batch's table commit.
func (u *update) saveStreamState(f *Flow, cp *checkpoint.Stream, off *checkpoint.Offsets, ctx *FlowContext) error {
	if f.Watermark == nil {
		return nil
	}
	s := ctx.state()
	wm := int64(AdvanceWatermark(ctx))
	h := stateHeader{Batch: off.Batch, Watermark: wm, WatermarkTime: formatWatermark(wm), Rows: s.rows, Empty: s.kept == nil, Flow: f.Name, Types: f.Watermark.Types}
	err := storage.WriteFile(storage.Join(stateDir(cp), stateName(off.Batch)), func(w io.Writer) error {
		line, err := json.Marshal(h)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, stateMagic+string(line)+"\n"); err != nil {
			return err
		}
		if s.kept == nil {
			return nil
		}
		return statecodec.Write(w, s.kept)
	})
	if err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	faultPoint("after-state")
	return nil
}

// pruneStreamState removes the state files of dir other than keep's, and
// temporary files left by an interrupted write.
func pruneStreamState(dir string, keep int64) error {
	entries, err := storage.At(dir).List("", storage.ListOptions{Shallow: true, NamesOnly: true})
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if name == stateName(keep) {
			continue
		}
		if _, err := strconv.ParseInt(strings.TrimSuffix(name, ".bin"), 10, 64); err == nil && strings.HasSuffix(name, ".bin") || strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp") {
			storage.Remove(storage.Join(dir, name))
		}
	}
	return nil
}

func formatWatermark(us int64) string {
	return time.UnixMicro(us).UTC().Format("2006-01-02T15:04:05.000Z")
}

// statefulResult sums what the stateful operator of a flow did in an
// update, for its flow_progress event and progress line.
type statefulResult struct {
	enabled                                  bool
	late, nullEventTime, duplicates, removed int64
	// rows and watermark are the state's entries and the watermark after
	// the last micro-batch.
	rows, watermark int64
}

// add folds one micro-batch's counts.
func (r *statefulResult) add(s *streamState) {
	if s == nil {
		return
	}
	r.enabled = true
	r.late += s.late.Load()
	r.nullEventTime += s.nullEventTime.Load()
	r.duplicates += s.duplicates.Load()
	r.removed += s.removed
	r.rows = s.rows
	r.watermark = s.next
}

// report adds the stateful metrics to a flow_progress event: the counts
// under metrics (num_late_rows_dropped is Spark's numRowsDroppedByWatermark,
// num_duplicate_rows_dropped its numDroppedDuplicateRows, num_state_rows
// and num_removed_state_rows its numRowsTotal and numRowsRemoved), and the
// watermark as Spark's progress reports it (eventTime.watermark).
func (r *statefulResult) report(fp, metrics map[string]any) {
	if !r.enabled {
		return
	}
	metrics["num_late_rows_dropped"] = r.late
	metrics["num_null_event_time_rows_dropped"] = r.nullEventTime
	metrics["num_duplicate_rows_dropped"] = r.duplicates
	metrics["num_state_rows"] = r.rows
	metrics["num_removed_state_rows"] = r.removed
	fp["event_time"] = map[string]any{"watermark": formatWatermark(r.watermark)}
}

// describe adds the dropped rows and the watermark to a progress line.
func (r *statefulResult) describe(b *strings.Builder) {
	if !r.enabled {
		return
	}
	if r.late > 0 {
		fmt.Fprintf(b, ", %d late rows dropped", r.late)
	}
	if r.nullEventTime > 0 {
		fmt.Fprintf(b, ", %d rows without event time dropped", r.nullEventTime)
	}
	if r.duplicates > 0 {
		fmt.Fprintf(b, ", %d duplicates dropped", r.duplicates)
	}
	fmt.Fprintf(b, ", watermark %s, %d state rows", formatWatermark(r.watermark), r.rows)
}
