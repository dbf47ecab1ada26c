package eventlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLogRecords checks the records a Log writes against the Databricks
// event log schema's field names, and what Print makes of them.
func TestLogRecords(t *testing.T) {
	dir := t.TempDir()
	const update = "0123456789ab-cdef"
	l, err := Open(dir, "orders", update)
	if err != nil {
		t.Fatal(err)
	}
	batch := int64(3)
	l.Emit(Event{Type: "flow_progress", Origin: Origin{Dataset: "silver", Flow: "f", Batch: &batch},
		Message: "Flow 'f' is COMPLETED.", Details: map[string]any{"flow_progress": map[string]any{"status": "COMPLETED"}}})
	l.EmitError("update_progress", "Update 01234567 is FAILED.", fmt.Errorf("flow f: %w", errors.New("disk full")), nil)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	var nilLog *Log
	nilLog.Emit(Event{Type: "dropped"})
	if err := nilLog.Close(); err != nil {
		t.Errorf("nil Log: Close = %v", err)
	}

	files, _ := filepath.Glob(filepath.Join(dir, "event_log", "*-"+update+".jsonl"))
	if len(files) != 1 {
		t.Fatalf("event files %v, want one named <time>-%s.jsonl", files, update)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2:\n%s", len(lines), data)
	}
	var first, second map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil {
		t.Fatal(err)
	}
	wantOrigin := map[string]any{"pipeline_name": "orders", "update_id": update, "dataset_name": "silver", "flow_name": "f", "batch_id": 3.0}
	if got := fmt.Sprint(first["origin"]); got != fmt.Sprint(wantOrigin) {
		t.Errorf("origin %s, want %v", got, wantOrigin)
	}
	if first["level"] != "INFO" || first["event_type"] != "flow_progress" || fmt.Sprint(first["sequence"]) != "map[seq_no:1]" {
		t.Errorf("first record %s", lines[0])
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(fmt.Sprint(first["id"])) {
		t.Errorf("id %v is not a version 4 UUID", first["id"])
	}
	if want := `map[exceptions:[map[class_name:*fmt.wrapError message:flow f: disk full] map[class_name:*errors.errorString message:disk full]] fatal:true]`; fmt.Sprint(second["error"]) != want {
		t.Errorf("error %v, want %s", second["error"], want)
	}
	if _, ok := second["details"]; ok {
		t.Errorf("an event without details has a details field: %s", lines[1])
	}

	var text strings.Builder
	if err := Print(dir, "", false, &text); err != nil {
		t.Fatal(err)
	}
	got := regexp.MustCompile(`(?m)^\S+ `).ReplaceAllString(text.String(), "TIME ")
	want := "TIME 01234567 INFO  flow_progress        Flow 'f' is COMPLETED.\n" +
		"TIME 01234567 ERROR update_progress      Update 01234567 is FAILED.\n" +
		"    flow f: disk full\n"
	if got != want {
		t.Errorf("Print:\n%s\nwant:\n%s", got, want)
	}
	var raw strings.Builder
	if err := Print(dir, "0123", true, &raw); err != nil || raw.String() != string(data) {
		t.Errorf("Print asJSON = %q, %v; want the file", raw.String(), err)
	}
	if err := Print(dir, "ffff", false, &raw); err == nil || !strings.Contains(err.Error(), `no update "ffff"`) {
		t.Errorf("Print of an unknown update: %v", err)
	}
	if err := Print(filepath.Join(dir, "none"), "", false, &raw); err == nil || !strings.Contains(err.Error(), "run an update first") {
		t.Errorf("Print without an event log: %v", err)
	}
}
