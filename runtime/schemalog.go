package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/pipegen/pipegen/runtime/eventlog"
	"github.com/pipegen/pipegen/runtime/storage"
	storagepkg "github.com/pipegen/pipegen/runtime/storage"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
)

// A file source with schema_evolution: add_new_columns keeps its schema
// log beside the checkpoints: <storage>/schemas/<source>.json holds the
// columns its files gained, and the declared columns whose values need a
// wider type (Delta's type widening, types.Widens: INT → BIGINT, ...),
// which the program's static row types do not have. As Auto Loader's
// addNewColumns stops the stream after recording the evolved schema, a
// micro-batch that meets new columns or wider values records them here,
// writes one schema_change event, ingests nothing and fails the update;
// pipegen build (or run) merges the log into the source's declared schema
// (see cmd/pipegen), so the next update reads them.

// SchemaLog is the content of a source's schema log.
type SchemaLog struct {
	// Source is the source's name.
	Source string `json:"source"`
	// AddedColumns are the columns the files gained, in the order they
	// were met; all nullable.
	AddedColumns []SchemaLogColumn `json:"added_columns"`
	// WidenedColumns are declared columns whose values need a wider type:
	// Type is the type to read them as, FromType the declared one.
	WidenedColumns []SchemaLogColumn `json:"widened_columns,omitempty"`
}

// SchemaLogColumn is a column of a schema log: its name and its type in
// Spark SQL DDL form ("STRING", "DECIMAL(12,2)"); FromType is the type it
// had before a widening.
type SchemaLogColumn struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	FromType string `json:"from_type,omitempty"`
}

// DDL returns the added columns, then the widened ones with their new
// types, as a DDL schema with quoted names ("`city` STRING, `n` BIGINT"),
// as a source's schema: is written. A reader of it (spec.Options.SchemaLog)
// appends the columns the declaration lacks and widens those it has.
func (l SchemaLog) DDL() string {
	var parts []string
	for _, c := range append(append([]SchemaLogColumn(nil), l.AddedColumns...), l.WidenedColumns...) {
		parts = append(parts, "`"+strings.ReplaceAll(c.Name, "`", "``")+"` "+c.Type)
	}
	return strings.Join(parts, ", ")
}

// SchemaLogPath is the schema log of source under a pipeline's storage
// (default <warehouse>/_pipelines/<pipeline>).
func SchemaLogPath(storageDir, sourceName string) string {
	return storage.Join(storageDir, "schemas", sourceName+".json")
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
// schema_evolution: add_new_columns source does not have yet, or values
// of a declared column that need a wider type (Widened): they are
// recorded in the schema log Log, and nothing of the micro-batch was
// written.
type SchemaChangeError struct {
	Source  string
	Columns []types.Field
	Widened []delta.Widening
	Log     string
}

func (e *SchemaChangeError) Error() string {
	return fmt.Sprintf("source %s %s (schema_evolution: add_new_columns): nothing of this micro-batch was written; the evolved schema is recorded in %s: rebuild the program (pipegen build, or pipegen run, picks the columns up) and run again",
		e.Source, describeSchemaChange(e.Columns, e.Widened), e.Log)
}

// describeSchemaChange says what a schema change does: "gained column(s)
// city STRING", "widened column(s) n from INT to BIGINT", or both joined
// by "and".
func describeSchemaChange(cols []types.Field, widened []delta.Widening) string {
	var parts []string
	if len(cols) > 0 {
		parts = append(parts, "gained column(s) "+types.Schema(cols).String())
	}
	if len(widened) > 0 {
		ws := make([]string, len(widened))
		for i, w := range widened {
			ws[i] = fmt.Sprintf("%s from %s to %s", w.Column, w.From, w.To)
		}
		parts = append(parts, "widened column(s) "+strings.Join(ws, ", "))
	}
	return strings.Join(parts, " and ")
}

// newColumnsCollector gathers the new columns the files of one scan hold,
// leaving out names the schema has in another case (those stay rescued),
// and the declared columns whose values need a wider type (the widest
// met).
type newColumnsCollector struct {
	mu      sync.Mutex
	cols    []types.Field
	widened []delta.Widening
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
	for _, col := range ne.Widened {
		i := schema.Index(col.Name)
		if i < 0 || !types.Widens(schema[i].Type, col.Type) {
			continue
		}
		c.widened = mergeWidening(c.widened, delta.Widening{Column: schema[i].Name, From: schema[i].Type, To: col.Type})
	}
	return true
}

// widerLogged reports whether logged, a type the schema log already
// records for a column (DDL form), is t or widens to nothing narrower: t
// widens to it.
func widerLogged(logged string, t types.Type) bool {
	if logged == t.String() {
		return true
	}
	for _, k := range []types.Type{types.ShortType, types.IntType, types.LongType, types.DoubleType, types.TimestampNTZType} {
		if logged == k.String() {
			return types.Widens(t, k)
		}
	}
	var p, sc int
	if _, err := fmt.Sscanf(logged, "DECIMAL(%d,%d)", &p, &sc); err == nil {
		return types.Widens(t, types.DecimalOf(p, sc))
	}
	return false
}

// mergeWidening adds w to ws, or for a column ws has, keeps the wider of
// the two target types (the later one when neither widens to the other).
func mergeWidening(ws []delta.Widening, w delta.Widening) []delta.Widening {
	for i := range ws {
		if strings.EqualFold(ws[i].Column, w.Column) {
			if !types.Widens(w.To, ws[i].To) {
				ws[i].To = w.To
			}
			return ws
		}
	}
	return append(ws, w)
}

// schemaLogMu serialises the schema log writes of one program;
// schemaChanged holds the update and source of each schema_change event
// written, so that the flows reading one source write one event.
var (
	schemaLogMu   sync.Mutex
	schemaChanged = map[[2]string]bool{}
)

// recordSchemaChange adds cols and widened to source's schema log
// (replaced atomically), emits the update's schema_change event of source
// (once, whichever flow reading it comes first) and returns the error
// that fails the update.
func (u *update) recordSchemaChange(f *Flow, sourceName string, cols []types.Field, widened []delta.Widening) error {
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
	for _, w := range widened {
		entry := SchemaLogColumn{Name: w.Column, Type: w.To.String(), FromType: w.From.String()}
		i := slices.IndexFunc(log.WidenedColumns, func(k SchemaLogColumn) bool { return strings.EqualFold(k.Name, w.Column) })
		switch {
		case i < 0:
			log.WidenedColumns = append(log.WidenedColumns, entry)
		case !widerLogged(log.WidenedColumns[i].Type, w.To):
			// A program not yet rebuilt may meet a narrower need again.
			entry.FromType = log.WidenedColumns[i].FromType
			log.WidenedColumns[i] = entry
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
	e := &SchemaChangeError{Source: sourceName, Columns: cols, Widened: widened, Log: path}
	key := [2]string{u.id, sourceName}
	if schemaChanged[key] {
		return e
	}
	schemaChanged[key] = true
	details := map[string]any{"source": sourceName, "mode": "add_new_columns", "schema_log": path}
	added := make([]SchemaLogColumn, len(cols))
	for i, c := range cols {
		added[i] = SchemaLogColumn{Name: c.Name, Type: c.Type.String()}
	}
	details["added_columns"] = added
	if len(widened) > 0 {
		ws := make([]SchemaLogColumn, len(widened))
		for i, w := range widened {
			ws[i] = SchemaLogColumn{Name: w.Column, Type: w.To.String(), FromType: w.From.String()}
		}
		details["widened_columns"] = ws
	}
	u.log.Emit(eventlog.Event{Type: "schema_change", Level: "WARN", Origin: eventlog.Origin{Flow: f.Name, Dataset: f.Target.DatasetName()},
		Message: fmt.Sprintf("Source %s %s.", sourceName, describeSchemaChange(cols, widened)),
		Details: map[string]any{"schema_change": details}})
	return e
}
