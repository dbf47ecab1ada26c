package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	storagepkg "github.com/pipegen/pipegen/runtime/storage"

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
)

// A file source with schema_evolution: add_new_columns keeps its schema
// log beside the checkpoints: <storage>/schemas/<source>.json holds the
// columns its files gained, which the program's static row types do not
// have. As Auto Loader's addNewColumns stops the stream after recording
// the evolved schema, a micro-batch that meets new columns records them
// here, writes one schema_change event, ingests nothing and fails the
// update; pipegen build (or run) merges the log into the source's
// declared schema (see cmd/pipegen), so the next update reads them.

// SchemaLog is the content of a source's schema log.
type SchemaLog struct {
	// Source is the source's name.
	Source string `json:"source"`
	// AddedColumns are the columns the files gained, in the order they
	// were met; all nullable.
	AddedColumns []SchemaLogColumn `json:"added_columns"`
}

// SchemaLogColumn is a column of a schema log: its name and its type in
// Spark SQL DDL form ("STRING", "DECIMAL(12,2)").
type SchemaLogColumn struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// DDL returns the added columns as a DDL schema with quoted names
// ("`city` STRING, `zip` STRING"), as a source's schema: is written.
func (l SchemaLog) DDL() string {
	parts := make([]string, len(l.AddedColumns))
	for i, c := range l.AddedColumns {
		parts[i] = "`" + strings.ReplaceAll(c.Name, "`", "``") + "` " + c.Type
	}
	return strings.Join(parts, ", ")
}

// SchemaLogPath is the schema log of source under a pipeline's storage
// (default <warehouse>/_pipelines/<pipeline>).
func SchemaLogPath(storage, sourceName string) string {
	return filepath.Join(storage, "schemas", sourceName+".json")
}

// ReadSchemaLog reads the schema log of source; found is false when the
// source has none.
func ReadSchemaLog(storage, sourceName string) (log SchemaLog, found bool, err error) {
	b, err := storagepkg.ReadFile(SchemaLogPath(storage, sourceName))
	if errors.Is(err, fs.ErrNotExist) {
		return log, false, nil
	}
	if err != nil {
		return log, false, fmt.Errorf("schema log of source %s: %w", sourceName, err)
	}
	if err := json.Unmarshal(b, &log); err != nil {
		return log, false, fmt.Errorf("schema log %s: %w", SchemaLogPath(storage, sourceName), err)
	}
	return log, true, nil
}

// SchemaChangeError fails an update whose micro-batch met columns a
// schema_evolution: add_new_columns source does not have yet: they are
// recorded in the schema log Log, and nothing of the micro-batch was
// written.
type SchemaChangeError struct {
	Source  string
	Columns []types.Field
	Log     string
}

func (e *SchemaChangeError) Error() string {
	return fmt.Sprintf("source %s gained column(s) %s (schema_evolution: add_new_columns): nothing of this micro-batch was written; the evolved schema is recorded in %s: rebuild the program (pipegen build, or pipegen run, picks the columns up) and run again",
		e.Source, types.Schema(e.Columns).String(), e.Log)
}

// newColumnsCollector gathers the new columns the files of one scan hold,
// leaving out names the schema has in another case (those stay rescued).
type newColumnsCollector struct {
	mu   sync.Mutex
	cols []types.Field
}

// add keeps the columns of a *source.NewColumnsError; it reports whether
// err was one.
func (c *newColumnsCollector) add(schema types.Schema, err error) bool {
	var ne *source.NewColumnsError
	if !errors.As(err, &ne) {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, col := range ne.Columns {
		if schema.Index(col.Name) < 0 && types.Schema(c.cols).Index(col.Name) < 0 {
			c.cols = append(c.cols, col)
		}
	}
	return true
}

// schemaLogMu serialises the schema log writes of one program;
// schemaChanged holds the update and source of each schema_change event
// written, so that the flows reading one source write one event.
var (
	schemaLogMu   sync.Mutex
	schemaChanged = map[[2]string]bool{}
)

// recordSchemaChange adds cols to source's schema log (replaced
// atomically), emits the update's schema_change event of source (once,
// whichever flow reading it comes first) and returns the error that fails
// the update.
func (u *update) recordSchemaChange(f *Flow, sourceName string, cols []types.Field) error {
	schemaLogMu.Lock()
	defer schemaLogMu.Unlock()
	path := SchemaLogPath(u.storage, sourceName)
	log, _, err := ReadSchemaLog(u.storage, sourceName)
	if err != nil {
		return err
	}
	log.Source = sourceName
	for _, c := range cols {
		known := false
		for _, k := range log.AddedColumns {
			known = known || strings.EqualFold(k.Name, c.Name)
		}
		if !known {
			log.AddedColumns = append(log.AddedColumns, SchemaLogColumn{Name: c.Name, Type: c.Type.String()})
		}
	}
	b, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		return err
	}
	// Not fsynced, as before: a schema log lost by a crash is written
	// again by the next run that sees the new columns.
	if err := storagepkg.ReplaceFile(path, append(b, '\n'), storagepkg.NoSync); err != nil {
		return fmt.Errorf("schema log of source %s: %w", sourceName, err)
	}
	added := make([]SchemaLogColumn, len(cols))
	for i, c := range cols {
		added[i] = SchemaLogColumn{Name: c.Name, Type: c.Type.String()}
	}
	e := &SchemaChangeError{Source: sourceName, Columns: cols, Log: path}
	key := [2]string{u.id, sourceName}
	if schemaChanged[key] {
		return e
	}
	schemaChanged[key] = true
	u.log.emit(event{Type: "schema_change", Level: "WARN", Origin: origin{Flow: f.Name, Dataset: f.Target.DatasetName()},
		Message: fmt.Sprintf("Source %s gained column(s) %s.", sourceName, types.Schema(cols).String()),
		Details: map[string]any{"schema_change": map[string]any{"source": sourceName, "mode": "add_new_columns", "added_columns": added, "schema_log": path}}})
	return e
}
