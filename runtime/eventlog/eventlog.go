// Package eventlog writes and reads a pipeline's event log: JSON lines
// under <storage>/event_log/, one file per update, with the field and enum
// names of the Databricks pipeline event log
// (https://docs.databricks.com/aws/en/dlt/monitor-event-log-schema), so
// queries written for Databricks carry over:
//
//	{"id": "...", "sequence": {"seq_no": 12}, "origin": {"pipeline_name": "orders",
//	 "update_id": "...", "dataset_name": "orders_silver", "flow_name": "orders_silver",
//	 "batch_id": 3}, "timestamp": "2026-11-29T14:02:03.123Z", "level": "INFO",
//	 "event_type": "flow_progress", "message": "Flow 'orders_silver' is COMPLETED.",
//	 "details": {"flow_progress": {"status": "COMPLETED", "metrics": {...}}}}
//
// The runtime writes it (Open, Log.Emit) and the program's `events` command
// prints it (Print). Every byte goes through runtime/storage; the log needs a
// Store that appends (storage.Appender), so that the events of a running
// update can be read while it runs.
package eventlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/storage"
)

// folder is the event log's folder under a pipeline's storage.
const folder = "event_log"

// Event is one event log record before it is stamped: its event_type
// (Databricks' names: "create_update", "update_progress", "flow_progress",
// "flow_definition", "dataset_definition", "planning_information",
// "maintenance_progress", "schema_change"), level ("INFO" when empty,
// "WARN", "ERROR"), origin, message, details (keyed by the event type, as
// Databricks' details are) and error.
type Event struct {
	Type    string
	Level   string
	Origin  Origin
	Message string
	Details map[string]any
	Error   *Error
}

// Origin says where an event comes from, besides the pipeline and the
// update, which every event of a Log carries: the dataset, the flow and
// the micro-batch, each left out of the record when zero (nil).
type Origin struct {
	Dataset string
	Flow    string
	Batch   *int64
}

// Error is the `error` field of an event: the chain of the error's
// messages, outermost first (at most three), and whether it ended the
// update or the flow.
type Error struct {
	Exceptions []map[string]string `json:"exceptions"`
	Fatal      bool                `json:"fatal"`
}

// ErrorOf is the fatal Error of err: its class name (the Go type) and
// message, then those of the errors it wraps (errors.Unwrap), three at most.
func ErrorOf(err error) *Error {
	var chain []map[string]string
	for e := err; e != nil; e = errors.Unwrap(e) {
		chain = append(chain, map[string]string{"class_name": fmt.Sprintf("%T", e), "message": e.Error()})
		if len(chain) == 3 {
			break
		}
	}
	return &Error{Exceptions: chain, Fatal: true}
}

// record is the JSON form of an event.
type record struct {
	ID        string         `json:"id"`
	Sequence  sequence       `json:"sequence"`
	Origin    map[string]any `json:"origin"`
	Timestamp string         `json:"timestamp"`
	Level     string         `json:"level"`
	EventType string         `json:"event_type"`
	Message   string         `json:"message"`
	Details   map[string]any `json:"details,omitempty"`
	Error     *Error         `json:"error,omitempty"`
}

type sequence struct {
	SeqNo int64 `json:"seq_no"`
}

// Log appends the events of one update to its own file. Its methods may be
// called from several goroutines, and on a nil *Log, which drops events.
type Log struct {
	mu       sync.Mutex
	f        io.WriteCloser
	w        *bufio.Writer
	seq      int64
	pipeline string
	update   string
	err      error
}

// Open creates the event file of update updateID of pipeline under the
// storage location storage: event_log/<UTC time, ms>-<update id>.jsonl. It
// fails when the location's Store cannot append.
func Open(storageDir, pipeline, updateID string) (*Log, error) {
	st, ok := storage.At(storageDir).(storage.Appender)
	if !ok {
		return nil, fmt.Errorf("event log: the storage location %s cannot hold an event log (it does not append)", storageDir)
	}
	name := fmt.Sprintf("%s-%s.jsonl", time.Now().UTC().Format("20060102T150405.000Z"), updateID)
	f, err := st.CreateAppend(folder + "/" + name)
	if err != nil {
		return nil, fmt.Errorf("event log: %w", err)
	}
	return &Log{f: f, w: bufio.NewWriter(f), pipeline: pipeline, update: updateID}, nil
}

// Emit stamps ev (id, sequence number, pipeline and update, UTC time in
// ms) and appends it; it is flushed at once so that a crash keeps every
// event before it. A write error is kept for Close.
func (l *Log) Emit(ev Event) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	o := map[string]any{"pipeline_name": l.pipeline, "update_id": l.update}
	if ev.Origin.Dataset != "" {
		o["dataset_name"] = ev.Origin.Dataset
	}
	if ev.Origin.Flow != "" {
		o["flow_name"] = ev.Origin.Flow
	}
	if ev.Origin.Batch != nil {
		o["batch_id"] = *ev.Origin.Batch
	}
	level := ev.Level
	if level == "" {
		level = "INFO"
	}
	rec := record{
		ID: NewID(), Sequence: sequence{SeqNo: l.seq}, Origin: o,
		Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05.000Z"),
		Level:     level, EventType: ev.Type, Message: ev.Message, Details: ev.Details, Error: ev.Error,
	}
	b, err := json.Marshal(rec)
	if err != nil {
		l.err = err
		return
	}
	l.w.Write(append(b, '\n'))
	if err := l.w.Flush(); err != nil && l.err == nil {
		l.err = err
	}
}

// EmitError emits an ERROR event of type typ carrying err (ErrorOf).
func (l *Log) EmitError(typ, msg string, err error, details map[string]any) {
	l.Emit(Event{Type: typ, Level: "ERROR", Message: msg, Details: details, Error: ErrorOf(err)})
}

// Close flushes and closes the file; it returns the first error of a
// write, the flush or the close.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	err := l.w.Flush()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = l.err
	}
	return err
}

// NewID returns a random version 4 UUID (RFC 9562) in its 36-character
// text form: the form of the event log's event and update ids, which the
// runtime also uses for flow ids (the Delta txn appId).
func NewID() string { return sqlfn.UUID() }
