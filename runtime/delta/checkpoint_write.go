package delta

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/types"
)

// Table properties of the Delta protocol that govern checkpoints and
// retention, with Delta's defaults.
const (
	// CheckpointIntervalProperty is how many commits apart checkpoints are
	// written (delta.checkpointInterval, default 10).
	CheckpointIntervalProperty = "delta.checkpointInterval"
	// DefaultCheckpointInterval is Delta's default checkpoint interval.
	DefaultCheckpointInterval = 10
	// LogRetentionProperty is how long log entries are kept
	// (delta.logRetentionDuration, default "interval 30 days").
	LogRetentionProperty = "delta.logRetentionDuration"
	// DefaultLogRetention is Delta's default log retention.
	DefaultLogRetention = 30 * 24 * time.Hour
	// DeletedFileRetentionProperty is how long a removed data file stays
	// a tombstone, safe from vacuum (delta.deletedFileRetentionDuration,
	// default "interval 1 week").
	DeletedFileRetentionProperty = "delta.deletedFileRetentionDuration"
	// DefaultDeletedFileRetention is Delta's default: one week.
	DefaultDeletedFileRetention = 7 * 24 * time.Hour
)

// OnCheckpointError, when set, is told about a checkpoint or log cleanup
// that failed after a successful commit. Such a failure never fails the
// commit: the table stays correct, only slower to open.
var OnCheckpointError func(table string, err error)

// checkpointWriteSchema is the V1 checkpoint schema ("Checkpoint Schema")
// as Spark (Delta 3) writes it: one nullable struct column per action
// kind, exactly one set per row.
var checkpointWriteSchema = func() types.Schema {
	str := types.StringType
	long := types.LongType
	f := func(name string, t types.Type) types.Field { return types.Field{Name: name, Type: t, Nullable: true} }
	smap := types.MapOf(str, str, true)
	dv := types.StructOf(f("storageType", str), f("pathOrInlineDv", str), f("offset", types.IntType),
		f("sizeInBytes", types.IntType), f("cardinality", long), f("maxRowIndex", long))
	return types.Schema{
		f("txn", types.StructOf(f("appId", str), f("version", long), f("lastUpdated", long))),
		f("add", types.StructOf(f("path", str), f("partitionValues", smap), f("size", long), f("modificationTime", long),
			f("dataChange", types.BooleanType), f("tags", smap), f("deletionVector", dv), f("baseRowId", long),
			f("defaultRowCommitVersion", long), f("stats", str))),
		f("remove", types.StructOf(f("path", str), f("deletionTimestamp", long), f("dataChange", types.BooleanType),
			f("extendedFileMetadata", types.BooleanType), f("partitionValues", smap), f("size", long), f("deletionVector", dv),
			f("baseRowId", long), f("defaultRowCommitVersion", long))),
		f("metaData", types.StructOf(f("id", str), f("name", str), f("description", str),
			f("format", types.StructOf(f("provider", str), f("options", smap))), f("schemaString", str),
			f("partitionColumns", types.ArrayOf(str, true)), f("configuration", smap), f("createdTime", long))),
		f("protocol", types.StructOf(f("minReaderVersion", types.IntType), f("minWriterVersion", types.IntType),
			f("readerFeatures", types.ArrayOf(str, true)), f("writerFeatures", types.ArrayOf(str, true)))),
		f("domainMetadata", types.StructOf(f("domain", str), f("configuration", str), f("removed", types.BooleanType))),
	}
}()

// ParseInterval parses a Delta interval property such as "interval 1
// week", "interval 30 days" or "interval 168 hours" (units week, day,
// hour, minute, second, millisecond, microsecond, singular or plural;
// several "N unit" pairs add up).
func ParseInterval(s string) (time.Duration, error) {
	words := strings.Fields(strings.ToLower(strings.TrimSpace(s)))
	if len(words) > 0 && words[0] == "interval" {
		words = words[1:]
	}
	if len(words) == 0 || len(words)%2 != 0 {
		return 0, fmt.Errorf("interval %q: want \"interval N unit\" such as \"interval 7 days\"", s)
	}
	var d time.Duration
	for i := 0; i < len(words); i += 2 {
		n, err := strconv.ParseInt(words[i], 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("interval %q: %q is not a count", s, words[i])
		}
		var unit time.Duration
		switch strings.TrimSuffix(words[i+1], "s") {
		case "week":
			unit = 7 * 24 * time.Hour
		case "day":
			unit = 24 * time.Hour
		case "hour":
			unit = time.Hour
		case "minute":
			unit = time.Minute
		case "second":
			unit = time.Second
		case "millisecond":
			unit = time.Millisecond
		case "microsecond":
			unit = time.Microsecond
		default:
			return 0, fmt.Errorf("interval %q: unknown unit %q", s, words[i+1])
		}
		d += time.Duration(n) * unit
	}
	return d, nil
}

// TableDuration returns the interval property key of a table's
// configuration, or def when it is absent or unreadable.
func TableDuration(conf map[string]string, key string, def time.Duration) time.Duration {
	if s, ok := conf[key]; ok {
		if d, err := ParseInterval(s); err == nil {
			return d
		}
	}
	return def
}

func checkpointInterval(conf map[string]string) int64 {
	if n, err := strconv.ParseInt(conf[CheckpointIntervalProperty], 10, 64); err == nil && n > 0 {
		return n
	}
	return DefaultCheckpointInterval
}

// maybeCheckpoint writes a checkpoint after the commit of version when the
// table's checkpoint interval says so (every 10th version by default, as
// Delta does), then removes the log files that have expired.
func maybeCheckpoint(table string, version int64, conf map[string]string, now time.Time) {
	if version <= 0 || version%checkpointInterval(conf) != 0 {
		return
	}
	_, err := WriteCheckpoint(table, version, now)
	if err == nil {
		_, err = CleanupExpiredLogs(table, TableDuration(conf, LogRetentionProperty, DefaultLogRetention), now, false)
	}
	if err != nil && OnCheckpointError != nil {
		OnCheckpointError(table, err)
	}
}

// WriteCheckpoint writes a single-part V1 checkpoint of the table at
// version ("Checkpoints": `<version>.checkpoint.parquet` holding the
// protocol, the metadata, every txn, every live file's add and the
// tombstones newer than the table's deletedFileRetentionDuration at now),
// then points `_last_checkpoint` at it. Both files are written to a
// temporary name and renamed, so readers see all of a file or none; a
// checkpoint may be written again, with the same content. It returns what
// `_last_checkpoint` now says.
func WriteCheckpoint(table string, version int64, now time.Time) (LastCheckpoint, error) {
	var lc LastCheckpoint
	err := withState(table, version, func(st *state) error {
		rows, adds, err := checkpointRows(st, now)
		if err != nil {
			return err
		}
		size, err := writeCheckpointFile(singleCheckpointPath(table, version), rows)
		if err != nil {
			return err
		}
		if _, ok := ReadChecksum(table, version); !ok {
			if sum, ok := checksumOf(st); ok {
				writeChecksum(table, version, sum) // starts the chain for tables written without checksums
			}
		}
		lc = LastCheckpoint{Version: version, Size: int64(len(rows)), SizeInBytes: size, NumOfAddFiles: adds}
		data, _ := json.Marshal(lc)
		return writeLogFile(storage.Join(LogDir(table), "_last_checkpoint"), data)
	})
	if err != nil {
		return LastCheckpoint{}, fmt.Errorf("table %s: checkpoint %d: %w", table, version, err)
	}
	return lc, nil
}

// checkpointRows returns the checkpoint's rows (values of
// checkpointWriteSchema) and the number of adds. Adds and removes are
// written with dataChange=false, as Spark writes them.
func checkpointRows(st *state, now time.Time) ([][]any, int64, error) {
	if st.protocol == nil || st.metadata == nil {
		return nil, 0, fmt.Errorf("version %d has no protocol or metaData action", st.version)
	}
	row := func(col int, v parquetio.Struct) []any {
		r := make([]any, len(checkpointWriteSchema))
		r[col] = v
		return r
	}
	var rows [][]any
	p := st.protocol
	rows = append(rows, row(4, parquetio.Struct{int32(p.MinReaderVersion), int32(p.MinWriterVersion), stringsValue(p.ReaderFeatures), stringsValue(p.WriterFeatures)}))
	m := st.metadata
	rows = append(rows, row(3, parquetio.Struct{m.ID, optString(m.Name), optString(m.Description),
		parquetio.Struct{orDefault(m.Format.Provider, "parquet"), pvValue(m.Format.Options)}, m.SchemaString,
		stringsValue(orEmpty(m.PartitionColumns)), pvValue(m.Configuration), optInt(m.CreatedTime)}))
	for _, id := range sortedMapKeys(st.txnFull) {
		t := st.txnFull[id]
		rows = append(rows, row(0, parquetio.Struct{t.AppID, t.Version, optInt(t.LastUpdated)}))
	}
	for _, k := range sortedMapKeys(st.files) {
		a := st.files[k]
		if a.DeletionVector != nil {
			return nil, 0, fmt.Errorf("file %s has a deletion vector, which pipegen does not write", a.Path)
		}
		var stats any
		if a.Stats != "" {
			stats = a.Stats
		}
		rows = append(rows, row(1, parquetio.Struct{a.Path, pvValue(a.PartitionValues), a.Size, a.ModificationTime, false,
			mapValue(a.Tags), nil, nil, nil, stats}))
	}
	expired := now.Add(-TableDuration(m.Configuration, DeletedFileRetentionProperty, DefaultDeletedFileRetention)).UnixMilli()
	for _, k := range sortedMapKeys(st.removes) {
		r := st.removes[k]
		ts := int64(0)
		if r.DeletionTimestamp != nil {
			ts = *r.DeletionTimestamp
		}
		if ts <= expired {
			continue
		}
		rows = append(rows, row(2, parquetio.Struct{r.Path, ts, false, r.ExtendedFileMetadata, pvValue(r.PartitionValues),
			optInt(r.Size), nil, nil, nil}))
	}
	return rows, int64(len(st.files)), nil
}

// writeCheckpointFile writes rows as a Parquet file at path, atomically,
// and returns its size.
func writeCheckpointFile(path string, rows [][]any) (int64, error) {
	var info parquetio.FileInfo
	err := replaceLogFile(path, func(out io.Writer) error {
		buf := bufio.NewWriterSize(out, 1<<20)
		w := parquetio.NewWriter(buf, checkpointWriteSchema, parquetio.WriterOptions{})
		enc := parquetio.NewEncoder(checkpointWriteSchema)
		batch := make([]parquet.Row, 0, 256)
		for i, r := range rows {
			pr, err := enc.Append(nil, r)
			if err != nil {
				return err
			}
			if batch = append(batch, pr); len(batch) == cap(batch) || i == len(rows)-1 {
				if err := w.Write(batch); err != nil {
					return err
				}
				batch = batch[:0]
			}
		}
		var err error
		if info, err = w.Close(); err != nil {
			return err
		}
		return buf.Flush()
	})
	return info.Size, err
}

// writeLogFile replaces a file of `_delta_log` atomically.
func writeLogFile(path string, data []byte) error { return storage.ReplaceFile(path, data) }

// replaceLogFile writes a file of `_delta_log` with write, atomically and
// durably (storage.Write), so that readers see the old content or the
// new, never a part.
func replaceLogFile(path string, write func(w io.Writer) error) error {
	return storage.WriteFile(path, write)
}

// CleanupExpiredLogs removes the log files a reader no longer needs, as
// Delta's metadata cleanup does after a checkpoint: the commits and
// checkpoints of versions before the newest checkpoint C such that every
// file of a version before C is older than retention at now. Versions from
// C on stay reconstructable (C's checkpoint, then the commits after it);
// versions before it are gone, with their time travel. Abandoned temporary
// files of the log older than retention go too. With dryRun nothing is
// removed. It returns the paths removed (or that would be).
func CleanupExpiredLogs(table string, retention time.Duration, now time.Time, dryRun bool) ([]string, error) {
	l, err := listLog(table)
	if err != nil {
		return nil, err
	}
	cutoff := now.Add(-retention)
	old := func(path string) bool {
		fi, err := storage.StatFile(path)
		return err == nil && !fi.ModTime.After(cutoff)
	}
	// The first version whose commit is not expired bounds C.
	limit := l.latest() + 1
	for _, v := range l.commits {
		if !old(CommitPath(table, v)) {
			limit = v
			break
		}
	}
	c := int64(-1)
	for v := range l.checkpoints {
		if v <= limit && v > c {
			c = v
		}
	}
	var removed []string
	if c > 0 {
		for _, v := range l.commits {
			if v < c && old(CommitPath(table, v)) {
				removed = append(removed, CommitPath(table, v))
			}
		}
		for v, files := range l.checkpoints {
			if v < c {
				for _, f := range files {
					if old(f) {
						removed = append(removed, f)
					}
				}
			}
		}
	}
	entries, err := storage.At(table).List("_delta_log/", storage.ListOptions{Shallow: true, NamesOnly: true})
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		p := storage.Join(LogDir(table), name)
		if strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp") && old(p) {
			removed = append(removed, p)
		}
		if strings.HasSuffix(name, ".crc") {
			if v, err := strconv.ParseInt(strings.TrimSuffix(name, ".crc"), 10, 64); err == nil && v < c && old(p) {
				removed = append(removed, p)
			}
		}
	}
	slices.Sort(removed)
	if dryRun {
		return removed, nil
	}
	for _, p := range removed {
		if err := storage.Remove(p); err != nil {
			return removed, fmt.Errorf("table %s: clean up %s: %w", table, storage.Base(p), err)
		}
	}
	return removed, nil
}

func sortedMapKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func optString(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func optInt(n *int64) any {
	if n == nil {
		return nil
	}
	return *n
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func orEmpty(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

func stringsValue(ss []string) any {
	if ss == nil {
		return nil
	}
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func mapValue(m map[string]string) any {
	if m == nil {
		return nil
	}
	out := make([]parquetio.MapEntry, 0, len(m))
	for _, k := range sortedMapKeys(m) {
		out = append(out, parquetio.MapEntry{Key: k, Value: m[k]})
	}
	return out
}

// pvValue is a partitionValues map (or another map written as an empty
// map when absent): "" (NULL) values are written as null.
func pvValue(pv map[string]string) any {
	out := make([]parquetio.MapEntry, 0, len(pv))
	for _, k := range sortedMapKeys(pv) {
		var v any
		if pv[k] != "" {
			v = pv[k]
		}
		out = append(out, parquetio.MapEntry{Key: k, Value: v})
	}
	return out
}
