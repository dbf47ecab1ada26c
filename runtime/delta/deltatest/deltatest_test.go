package deltatest

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// fatalRecorder is a testing.TB whose Fatalf records the message and ends
// the goroutine, as the real one does.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestMissingNodeModulesFails(t *testing.T) {
	scriptDir = t.TempDir()
	defer func() { scriptDir = "" }()
	rec := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		DuckDBRows(rec, t.TempDir(), -1, types.Schema{})
	}()
	<-done
	if !strings.Contains(rec.msg, InstallCommand) {
		t.Errorf("without node_modules: %q, want a message naming %q", rec.msg, InstallCommand)
	}
}

func TestParseOrderedKeepsKeyOrder(t *testing.T) {
	v, err := parseOrdered(`{"b":1,"a":{"z":[1,null],"y":"x"}}`)
	if err != nil {
		t.Fatal(err)
	}
	o := v.(object)
	if o[0].key != "b" || o[1].key != "a" || o[1].val.(object)[0].key != "z" {
		t.Errorf("parsed %v", v)
	}
	m, err := fromDuck(o[1].val, types.StructOf(
		types.Field{Name: "y", Type: types.StringType, Nullable: true},
		types.Field{Name: "z", Type: types.ArrayOf(types.LongType, true), Nullable: true}), false)
	if err != nil || fmt.Sprint(m) != "[x [1 <nil>]]" {
		t.Errorf("fromDuck = %v, %v", m, err)
	}
}

// TestCheckAllReadsEachTable runs one DuckDB for tables with different
// schemas and rows (partitioned, schema change, change data files): each
// table's section of the output must be matched with that table.
func TestCheckAllReadsEachTable(t *testing.T) {
	var tables []string
	for _, table := range []string{"dat/basic_partitioned/delta", "dat/with_schema_change/delta", "delta-rs/simple_table_with_cdc"} {
		tables = append(tables, filepath.Join("..", "testdata", "delta_tables", table))
	}
	CheckAll(t, tables)
	CheckAll(t, tables[1:2])
}
