package runtime

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	storagepkg "github.com/pipegen/pipegen/runtime/storage"
)

// The event log is JSON lines under <storage>/event_log/, one file per
// update, with the field and enum names of the Databricks pipeline event
// log (https://docs.databricks.com/aws/en/dlt/monitor-event-log-schema), so
// queries written for Databricks carry over:
//
//	{"id": "...", "sequence": {"seq_no": 12}, "origin": {"pipeline_name": "orders",
//	 "update_id": "...", "dataset_name": "orders_silver", "flow_name": "orders_silver",
//	 "batch_id": 3}, "timestamp": "2026-11-29T14:02:03.123Z", "level": "INFO",
//	 "event_type": "flow_progress", "message": "Flow 'orders_silver' is COMPLETED.",
//	 "details": {"flow_progress": {"status": "COMPLETED", "metrics": {...}}}}

// event is one event log record before it is stamped.
type event struct {
	Type    string
	Level   string // INFO (default), WARN, ERROR
	Origin  origin
	Message string
	Details map[string]any
	Error   *eventError
}

// origin says where an event comes from.
type origin struct {
	Dataset string
	Flow    string
	Batch   *int64
}

// eventError is the `error` field of an event.
type eventError struct {
	Exceptions []map[string]string `json:"exceptions"`
	Fatal      bool                `json:"fatal"`
}

// eventRecord is the JSON form of an event.
type eventRecord struct {
	ID        string         `json:"id"`
	Sequence  sequence       `json:"sequence"`
	Origin    map[string]any `json:"origin"`
	Timestamp string         `json:"timestamp"`
	Level     string         `json:"level"`
	EventType string         `json:"event_type"`
	Message   string         `json:"message"`
	Details   map[string]any `json:"details,omitempty"`
	Error     *eventError    `json:"error,omitempty"`
}

type sequence struct {
	SeqNo int64 `json:"seq_no"`
}

// eventLog appends events of one update.
type eventLog struct {
	mu       sync.Mutex
	f        io.WriteCloser
	w        *bufio.Writer
	seq      int64
	pipeline string
	update   string
	err      error
}

// openEventLog creates the update's event file.
func openEventLog(storage, pipeline, updateID string) (*eventLog, error) {
	st, ok := storagepkg.At(storage).(storagepkg.Appender)
	if !ok {
		return nil, fmt.Errorf("event log: the storage location %s cannot hold an event log (it does not append)", storage)
	}
	name := fmt.Sprintf("%s-%s.jsonl", time.Now().UTC().Format("20060102T150405.000Z"), updateID)
	f, err := st.CreateAppend("event_log/" + name)
	if err != nil {
		return nil, fmt.Errorf("event log: %w", err)
	}
	return &eventLog{f: f, w: bufio.NewWriter(f), pipeline: pipeline, update: updateID}, nil
}

// emit stamps and appends an event; it is flushed at once so that a crash
// keeps every event before it.
func (l *eventLog) emit(ev event) {
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
	rec := eventRecord{
		ID: newID(), Sequence: sequence{SeqNo: l.seq}, Origin: o,
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

// emitError emits an ERROR event carrying err.
func (l *eventLog) emitError(typ, msg string, err error, details map[string]any) {
	l.emit(event{Type: typ, Level: "ERROR", Message: msg, Details: details, Error: errorDetails(err)})
}

func errorDetails(err error) *eventError {
	var chain []map[string]string
	for e := err; e != nil; e = errors.Unwrap(e) {
		chain = append(chain, map[string]string{"class_name": fmt.Sprintf("%T", e), "message": e.Error()})
		if len(chain) == 3 {
			break
		}
	}
	return &eventError{Exceptions: chain, Fatal: true}
}

func (l *eventLog) close() error {
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
