package delta

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/types"
)

// ErrNoTable is returned (wrapped) by Load and LatestVersion when the
// directory holds no Delta log; a writer creates the table with its first
// commit.
var ErrNoTable = errors.New("not a Delta table (no _delta_log commits)")

// LogDir returns the `_delta_log` directory of a table.
func LogDir(table string) string { return storage.Join(table, "_delta_log") }

// CommitPath returns the path of the commit file of a version:
// `_delta_log/<version as 20 digits>.json`.
func CommitPath(table string, version int64) string {
	return storage.Join(table, commitKey(version))
}

// commitKey is the key of a version's commit in the table's Store.
func commitKey(version int64) string { return fmt.Sprintf("_delta_log/%020d.json", version) }

var (
	commitName     = regexp.MustCompile(`^(\d{20})\.json$`)
	checkpointName = regexp.MustCompile(`^(\d{20})\.checkpoint(?:\.(\d{10})\.(\d{10}))?\.parquet$`)
	// v2CheckpointName is a UUID-named V2 checkpoint ("Checkpoints").
	v2CheckpointName = regexp.MustCompile(`^(\d{20})\.checkpoint\.[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\.(?:json|parquet)$`)
)

// logListing is what the `_delta_log` directory holds.
type logListing struct {
	commits     []int64            // sorted
	checkpoints map[int64][]string // version → complete set of part files
}

func listLog(table string) (*logListing, error) {
	entries, err := storage.At(table).List("_delta_log/", storage.ListOptions{Shallow: true, NamesOnly: true})
	if err != nil {
		return nil, fmt.Errorf("table %s: list log: %w", table, err)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("table %s: %w", table, ErrNoTable)
	}
	l := &logListing{checkpoints: map[int64][]string{}}
	parts := map[int64]map[int][]string{} // version → part count → files
	for _, e := range entries {
		name := e.Name()
		if m := commitName.FindStringSubmatch(name); m != nil {
			v, _ := strconv.ParseInt(m[1], 10, 64)
			l.commits = append(l.commits, v)
			continue
		}
		if m := v2CheckpointName.FindStringSubmatch(name); m != nil {
			v, _ := strconv.ParseInt(m[1], 10, 64)
			if l.checkpoints[v] == nil {
				l.checkpoints[v] = []string{storage.Join(LogDir(table), name)}
			}
			continue
		}
		if m := checkpointName.FindStringSubmatch(name); m != nil {
			v, _ := strconv.ParseInt(m[1], 10, 64)
			n := 1
			if m[3] != "" {
				n, _ = strconv.Atoi(m[3])
			}
			if parts[v] == nil {
				parts[v] = map[int][]string{}
			}
			parts[v][n] = append(parts[v][n], storage.Join(LogDir(table), name))
		}
	}
	slices.Sort(l.commits)
	for v, byCount := range parts {
		for n, files := range byCount {
			if len(files) == n && (l.checkpoints[v] == nil || n == 1) {
				slices.Sort(files)
				l.checkpoints[v] = files
			}
		}
	}
	if len(l.commits) == 0 && len(l.checkpoints) == 0 {
		return nil, fmt.Errorf("table %s: %w", table, ErrNoTable)
	}
	return l, nil
}

func (l *logListing) latest() int64 {
	v := int64(-1)
	if len(l.commits) > 0 {
		v = l.commits[len(l.commits)-1]
	}
	for c := range l.checkpoints {
		v = max(v, c)
	}
	return v
}

// LatestVersion returns the table's latest committed version. It probes
// for the commits after the version this process last read, or after the
// `_last_checkpoint` hint, so its cost does not grow with the log.
func LatestVersion(table string) (int64, error) {
	return probeLatest(table)
}

// Snapshot is the state of a table at a version ("Delta Table
// Specification"): protocol, metadata, live files and the latest
// transaction version per application.
type Snapshot struct {
	// Table is the table's root directory.
	Table    string
	Version  int64
	Protocol Protocol
	Metadata Metadata
	// Schema is Metadata.SchemaString parsed.
	Schema types.Schema
	// Files are the live data files, sorted by path.
	Files []Add
	// Txns maps an application id to the latest version it committed.
	Txns map[string]int64
}

// Load returns the latest snapshot of the table at dir; see LoadVersion.
func Load(table string) (*Snapshot, error) { return LoadVersion(table, -1) }

// LoadVersion replays the log of the table at dir up to version (-1: the
// latest): the newest complete checkpoint at or before it (single-part
// `N.checkpoint.parquet` or multi-part `N.checkpoint.k.n.parquet`), then the
// JSON commits after it, reconciling adds and removes by URI-decoded path
// ("Action Reconciliation").
//
// The latest snapshot is found without listing the log: from the state
// this process last read (kept per table, advanced by the commits after
// it), or from the checkpoint `_last_checkpoint` names, probing for the
// commits that follow; only a table without either is listed. A table of
// 10,000 commits is thus opened by reading one checkpoint and a few JSON
// commits. Snapshots share their Files slice with this cache: callers must
// not modify it.
//
// Errors name the table: ErrNoTable (wrapped) when there is no log, a
// version that is missing or no longer reconstructable, unreadable commits
// or checkpoints, and protocols or reader features pipegen does not
// implement (column mapping, deletion vectors, reader versions above 1
// without only supported features).
func LoadVersion(table string, version int64) (*Snapshot, error) {
	if version < 0 {
		return loadLatest(table)
	}
	st, err := replay(table, version)
	if err != nil {
		return nil, err
	}
	return st.snapshot(table, version)
}

// replay lists the log and replays it up to version (-1: the latest),
// returning the state and the version replayed.
func replay(table string, version int64) (*state, error) {
	l, err := listLog(table)
	if err != nil {
		return nil, err
	}
	latest := l.latest()
	if version < 0 {
		version = latest
	}
	if version > latest {
		return nil, fmt.Errorf("table %s: version %d does not exist (latest is %d)", table, version, latest)
	}
	st := newState()
	start := int64(0)
	cp := int64(-1)
	for v := range l.checkpoints {
		if v <= version && v > cp {
			cp = v
		}
	}
	if cp >= 0 {
		if err := st.loadCheckpoint(l.checkpoints[cp]); err != nil {
			return nil, fmt.Errorf("table %s: %w", table, err)
		}
		start = cp + 1
	}
	have := map[int64]bool{}
	for _, v := range l.commits {
		have[v] = true
	}
	for v := start; v <= version; v++ {
		if !have[v] {
			if cp < 0 && v == 0 {
				return nil, fmt.Errorf("table %s: version %d cannot be reconstructed: the log starts after version 0 and has no checkpoint at or before it", table, version)
			}
			return nil, fmt.Errorf("table %s: log is missing commit %d (needed for version %d)", table, v, version)
		}
		actions, err := readCommitFile(CommitPath(table, v))
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", table, err)
		}
		st.apply(actions)
	}
	st.version = version
	return st, nil
}

// state accumulates a replay.
type state struct {
	protocol *Protocol
	metadata *Metadata
	files    map[string]Add
	txns     map[string]int64
	// removes are the tombstones (remove actions of files not re-added),
	// which a checkpoint keeps until they expire and vacuum consults.
	removes map[string]Remove
	// txnFull are the txn actions with their lastUpdated, for checkpoints.
	txnFull map[string]Txn
	// version is the version replayed.
	version int64
}

func newState() *state {
	return &state{files: map[string]Add{}, txns: map[string]int64{}, removes: map[string]Remove{}, txnFull: map[string]Txn{}}
}

func (st *state) apply(actions []Action) {
	for _, a := range actions {
		switch {
		case a.Protocol != nil:
			st.protocol = a.Protocol
		case a.MetaData != nil:
			st.metadata = a.MetaData
		case a.Add != nil:
			k := fileKey(a.Add.Path, a.Add.DeletionVector)
			st.files[k] = *a.Add
			delete(st.removes, k)
		case a.Remove != nil:
			k := fileKey(a.Remove.Path, a.Remove.DeletionVector)
			delete(st.files, k)
			st.removes[k] = *a.Remove
		case a.Txn != nil:
			st.txns[a.Txn.AppID] = a.Txn.Version
			st.txnFull[a.Txn.AppID] = *a.Txn
		}
	}
}

// pathKey is the reconciliation key of a file path: the URI-decoded path,
// with a local file URI (`file:/p`, `file:///p`) and the absolute path it
// names (`/p`) the same key, as Spark canonicalizes both.
func pathKey(p string) string {
	if d, err := url.PathUnescape(p); err == nil {
		p = d
	}
	if rest, ok := strings.CutPrefix(p, "file:"); ok && strings.HasPrefix(rest, "/") {
		if r, ok := strings.CutPrefix(rest, "//"); ok && strings.HasPrefix(r, "/") {
			rest = r
		}
		return rest
	}
	return p
}

// supportedReaderFeatures are the table features (reader version 3) whose
// reading pipegen implements (protocol, "Table Features"): column mapping
// (name and id), deletion vectors, V2 checkpoints, type widening (older
// files of a widened column are converted by parquetio), TIMESTAMP_NTZ and
// the vacuum protocol check.
var supportedReaderFeatures = map[string]bool{
	"columnMapping": true, "deletionVectors": true, "v2Checkpoint": true,
	"typeWidening": true, "typeWidening-preview": true,
	"timestampNtz": true, "vacuumProtocolCheck": true,
}

func (st *state) snapshot(table string, version int64) (*Snapshot, error) {
	if st.protocol == nil || st.metadata == nil {
		return nil, fmt.Errorf("table %s: version %d has no protocol or metaData action; the log is incomplete", table, version)
	}
	if err := checkReadable(table, *st.protocol, *st.metadata); err != nil {
		return nil, err
	}
	if st.metadata.SchemaString == "" {
		return nil, fmt.Errorf("table %s: version %d has a metaData action without schemaString; the log is incomplete", table, version)
	}
	schema, err := ParseSchema(st.metadata.SchemaString)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", table, err)
	}
	if err := checkTypeChanges(table, st.metadata.SchemaString); err != nil {
		return nil, err
	}
	txns := make(map[string]int64, len(st.txns))
	for k, v := range st.txns {
		txns[k] = v
	}
	s := &Snapshot{Table: table, Version: version, Protocol: *st.protocol, Metadata: *st.metadata, Schema: schema, Txns: txns}
	for _, f := range st.files {
		s.Files = append(s.Files, f)
	}
	slices.SortFunc(s.Files, func(a, b Add) int { return strings.Compare(a.Path, b.Path) })
	return s, nil
}

// checkReadable refuses protocols whose reading pipegen does not implement.
func checkReadable(table string, p Protocol, m Metadata) error {
	switch mode := m.Configuration[ColumnMappingProperty]; mode {
	case "", "none", "name", "id":
	default:
		return fmt.Errorf("table %s has column mapping mode %q (delta.columnMapping.mode); pipegen reads modes none, name and id", table, mode)
	}
	switch {
	case p.MinReaderVersion <= 1:
		return nil
	case p.MinReaderVersion == 2:
		return nil // column mapping
	case p.MinReaderVersion == 3:
		for _, f := range p.ReaderFeatures {
			if !supportedReaderFeatures[f] {
				return fmt.Errorf("table %s requires reader feature %q, which pipegen does not implement", table, f)
			}
		}
		return nil
	}
	return fmt.Errorf("table %s requires Delta reader version %d; pipegen reads versions 1 to 3", table, p.MinReaderVersion)
}

// readCommitFile reads the actions of one JSON commit.
func readCommitFile(path string) ([]Action, error) {
	data, err := storage.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read commit: %w", err)
	}
	return parseCommit(path, data)
}

func parseCommit(path string, data []byte) ([]Action, error) {
	var actions []Action
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var a Action
		if err := json.Unmarshal(b, &a); err != nil {
			return nil, fmt.Errorf("commit %s line %d: %w", storage.Base(path), line, err)
		}
		actions = append(actions, a)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("commit %s: %w", storage.Base(path), err)
	}
	return actions, nil
}

// checkpointSchema is the part of the V1 checkpoint schema ("Checkpoint
// Schema") that replay needs. Missing fields (older writers) read as NULL.
var checkpointSchema = func() types.Schema {
	str := types.StringType
	f := func(name string, t types.Type) types.Field { return types.Field{Name: name, Type: t, Nullable: true} }
	smap := types.MapOf(str, str, true)
	dv := types.StructOf(f("storageType", str), f("pathOrInlineDv", str), f("offset", types.IntType),
		f("sizeInBytes", types.IntType), f("cardinality", types.LongType))
	return types.Schema{
		f("txn", types.StructOf(f("appId", str), f("version", types.LongType), f("lastUpdated", types.LongType))),
		f("add", types.StructOf(f("path", str), f("partitionValues", smap), f("size", types.LongType),
			f("modificationTime", types.LongType), f("dataChange", types.BooleanType), f("stats", str), f("tags", smap),
			f("deletionVector", dv))),
		f("metaData", types.StructOf(f("id", str), f("name", str), f("description", str),
			f("format", types.StructOf(f("provider", str), f("options", smap))), f("schemaString", str),
			f("partitionColumns", types.ArrayOf(str, true)), f("configuration", smap), f("createdTime", types.LongType))),
		f("protocol", types.StructOf(f("minReaderVersion", types.IntType), f("minWriterVersion", types.IntType),
			f("readerFeatures", types.ArrayOf(str, true)), f("writerFeatures", types.ArrayOf(str, true)))),
		f("remove", types.StructOf(f("path", str), f("deletionTimestamp", types.LongType), f("dataChange", types.BooleanType),
			f("extendedFileMetadata", types.BooleanType), f("partitionValues", smap), f("size", types.LongType),
			f("deletionVector", dv))),
		// V2 checkpoints only ("V2 Spec"): the sidecar files holding the
		// file actions.
		f("sidecar", types.StructOf(f("path", str), f("sizeInBytes", types.LongType), f("modificationTime", types.LongType))),
	}
}()

func (st *state) loadCheckpoint(files []string) error {
	for _, path := range files {
		if err := st.loadCheckpointFile(path, checkpointSchema); err != nil {
			return err
		}
	}
	return nil
}

// loadJSONCheckpoint reads a V2 checkpoint in JSON form
// (`N.checkpoint.<uuid>.json`): actions one per line, as in a commit, with
// sidecar actions naming the Parquet files of the file actions. File
// actions and sidecars are skipped when withFiles is false (metadata only).
func (st *state) loadJSONCheckpoint(table, path string, withFiles bool) error {
	actions, err := readCommitFile(path)
	if err != nil {
		return fmt.Errorf("read checkpoint: %w", err)
	}
	var sidecars []string
	for _, a := range actions {
		if a.Sidecar != nil {
			sidecars = append(sidecars, a.Sidecar.Path)
		}
		if !withFiles && (a.Add != nil || a.Remove != nil) {
			continue
		}
		st.apply([]Action{a})
	}
	if withFiles {
		return st.loadSidecars(table, sidecars)
	}
	return nil
}

// loadSidecars reads the file actions of a V2 checkpoint's sidecars
// ("Sidecar Files"), paths relative to `_delta_log/_sidecars/`.
func (st *state) loadSidecars(table string, paths []string) error {
	for _, p := range paths {
		local := FilePath(storage.Join(LogDir(table), "_sidecars"), p)
		if err := st.loadCheckpointFile(local, checkpointSchema); err != nil {
			return fmt.Errorf("sidecar %s: %w", p, err)
		}
	}
	return nil
}

// writtenByPipegen reports whether a checkpoint file was written by
// pipegen (WriteCheckpoint), whose rows are ordered: protocol, metaData,
// the txns, then the adds and removes.
func writtenByPipegen(f io.ReaderAt, size int64) bool {
	pf, err := parquet.OpenFile(f, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	return err == nil && strings.HasPrefix(pf.Metadata().CreatedBy, "pipegen")
}

// leadingActions reads the rows of a pipegen checkpoint up to its first
// add or remove (a row without txn, metaData and protocol), as want.
func leadingActions(r *parquetio.Reader, want types.Schema) ([][]any, error) {
	dec := parquetio.NewDecoder(want)
	buf := make([]parquet.Row, 16)
	var out [][]any
	for {
		n, err := r.ReadRows(buf)
		for _, row := range buf[:n] {
			vals, derr := dec.Decode(row)
			if derr != nil {
				return nil, derr
			}
			if vals[0] == nil && vals[2] == nil && vals[3] == nil {
				return out, nil
			}
			out = append(out, vals)
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// checkpointMetaSchema is checkpointSchema without the add and remove
// columns (read as NULL): what LoadMetadata reads of a checkpoint.
var checkpointMetaSchema = func() types.Schema {
	s := append(types.Schema(nil), checkpointSchema...)
	for _, i := range []int{1, 4} {
		s[i] = types.Field{Name: "_none_" + s[i].Name, Type: types.StringType, Nullable: true}
	}
	return s
}()

// loadCheckpointFile reads one checkpoint file as want (checkpointSchema,
// or checkpointMetaSchema to skip the files): Parquet (V1, or V2 with
// sidecars), or JSON (a UUID-named V2 checkpoint).
func (st *state) loadCheckpointFile(path string, want types.Schema) error {
	if strings.HasSuffix(path, ".json") {
		return st.loadJSONCheckpoint(storage.Dir(storage.Dir(path)), path, want[1].Name == checkpointSchema[1].Name)
	}
	f, err := storage.OpenFile(path)
	if err != nil {
		return fmt.Errorf("read checkpoint: %w", err)
	}
	defer f.Close()
	r, err := parquetio.Open(path, f, f.Size(), want, nil)
	if err != nil {
		return fmt.Errorf("read checkpoint: %w", err)
	}
	defer r.Close()
	var rows [][]any
	if metaOnly := want[1].Name != checkpointSchema[1].Name; metaOnly && writtenByPipegen(f, f.Size()) {
		rows, err = leadingActions(r, want)
	} else {
		rows, err = r.ReadAll()
	}
	if err != nil {
		return fmt.Errorf("read checkpoint: %w", err)
	}
	var sidecars []string
	for _, row := range rows {
		if s, ok := row[5].(parquetio.Struct); ok && s[0] != nil {
			sidecars = append(sidecars, s[0].(string))
		}
		if s, ok := row[0].(parquetio.Struct); ok && s[0] != nil {
			t := Txn{AppID: s[0].(string), Version: asInt64(s[1])}
			if s[2] != nil {
				lu := asInt64(s[2])
				t.LastUpdated = &lu
			}
			st.txns[t.AppID] = t.Version
			st.txnFull[t.AppID] = t
		}
		if s, ok := row[4].(parquetio.Struct); ok && s[0] != nil {
			r := Remove{Path: s[0].(string), PartitionValues: PartitionValues(stringMap(s[4]))}
			if s[1] != nil {
				ts := asInt64(s[1])
				r.DeletionTimestamp = &ts
			}
			r.DataChange, _ = s[2].(bool)
			r.ExtendedFileMetadata, _ = s[3].(bool)
			if s[5] != nil {
				size := asInt64(s[5])
				r.Size = &size
			}
			r.DeletionVector = dvOf(s[6])
			st.removes[fileKey(r.Path, r.DeletionVector)] = r
		}
		if s, ok := row[1].(parquetio.Struct); ok && s[0] != nil {
			a := Add{Path: s[0].(string), PartitionValues: PartitionValues(stringMap(s[1])), Size: asInt64(s[2]),
				ModificationTime: asInt64(s[3]), Tags: stringMap(s[6])}
			a.DataChange, _ = s[4].(bool)
			a.Stats, _ = s[5].(string)
			a.DeletionVector = dvOf(s[7])
			if a.PartitionValues == nil {
				a.PartitionValues = PartitionValues{}
			}
			st.files[fileKey(a.Path, a.DeletionVector)] = a
		}
		if s, ok := row[2].(parquetio.Struct); ok && s[0] != nil {
			m := Metadata{ID: s[0].(string), Configuration: stringMap(s[6])}
			if x, ok := s[1].(string); ok {
				m.Name = &x
			}
			if x, ok := s[2].(string); ok {
				m.Description = &x
			}
			if fm, ok := s[3].(parquetio.Struct); ok {
				m.Format.Provider, _ = fm[0].(string)
				m.Format.Options = stringMap(fm[1])
			}
			m.SchemaString, _ = s[4].(string)
			if cols, ok := s[5].([]any); ok {
				for _, c := range cols {
					if c, ok := c.(string); ok {
						m.PartitionColumns = append(m.PartitionColumns, c)
					}
				}
			}
			if s[7] != nil {
				ct := asInt64(s[7])
				m.CreatedTime = &ct
			}
			st.metadata = &m
		}
		if s, ok := row[3].(parquetio.Struct); ok && s[0] != nil {
			p := Protocol{MinReaderVersion: int(asInt64(s[0])), MinWriterVersion: int(asInt64(s[1]))}
			p.ReaderFeatures, p.WriterFeatures = stringList(s[2]), stringList(s[3])
			st.protocol = &p
		}
	}
	if want[1].Name != checkpointSchema[1].Name {
		return nil // metadata only: sidecars hold file actions alone
	}
	return st.loadSidecars(storage.Dir(storage.Dir(path)), sidecars)
}

// dvOf reads a checkpoint's deletionVector struct (nil when NULL).
func dvOf(v any) *DeletionVector {
	s, ok := v.(parquetio.Struct)
	if !ok || s[0] == nil {
		return nil
	}
	dv := &DeletionVector{StorageType: s[0].(string), SizeInBytes: int32(asInt64(s[3])), Cardinality: asInt64(s[4])}
	dv.PathOrInlineDv, _ = s[1].(string)
	if s[2] != nil {
		o := int32(asInt64(s[2]))
		dv.Offset = &o
	}
	return dv
}

func asInt64(v any) int64 {
	switch v := v.(type) {
	case int64:
		return v
	case int32:
		return int64(v)
	}
	return 0
}

func stringMap(v any) map[string]string {
	entries, ok := v.([]parquetio.MapEntry)
	if !ok {
		return nil
	}
	m := make(map[string]string, len(entries))
	for _, e := range entries {
		k, _ := e.Key.(string)
		val, _ := e.Value.(string)
		m[k] = val
	}
	return m
}

func stringList(v any) []string {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// LastCheckpoint is the `_delta_log/_last_checkpoint` file ("Last
// Checkpoint File Schema"): the version and size of the latest checkpoint,
// and its number of parts when it has several.
type LastCheckpoint struct {
	Version int64  `json:"version"`
	Size    int64  `json:"size"`
	Parts   *int64 `json:"parts,omitempty"`
	// SizeInBytes and NumOfAddFiles are optional: the checkpoint's total
	// bytes and its add actions.
	SizeInBytes   int64 `json:"sizeInBytes,omitempty"`
	NumOfAddFiles int64 `json:"numOfAddFiles,omitempty"`
	// V2Checkpoint names a UUID-named V2 checkpoint (Path, relative to
	// `_delta_log`); other writers also list its non-file actions and
	// sidecars, which pipegen reads from the checkpoint itself.
	V2Checkpoint *struct {
		Path string `json:"path"`
	} `json:"v2Checkpoint,omitempty"`
}

// ReadLastCheckpoint reads `_last_checkpoint`; ok is false when the table
// has none.
func ReadLastCheckpoint(table string) (lc LastCheckpoint, ok bool, err error) {
	data, err := storage.ReadAll(storage.At(table), "_delta_log/_last_checkpoint")
	if errors.Is(err, fs.ErrNotExist) {
		return lc, false, nil
	}
	if err != nil {
		return lc, false, fmt.Errorf("table %s: %w", table, err)
	}
	if err := json.Unmarshal(data, &lc); err != nil {
		return lc, false, fmt.Errorf("table %s: _last_checkpoint: %w", table, err)
	}
	return lc, true, nil
}

// TxnVersion returns the latest version the application appID committed
// to the snapshot's table (a txn action), and whether it ever did.
func (s *Snapshot) TxnVersion(appID string) (int64, bool) {
	v, ok := s.Txns[appID]
	return v, ok
}

// PartitionColumns returns the snapshot's partition columns as fields of
// its schema, in partition order.
func (s *Snapshot) PartitionColumns() []types.Field {
	var out []types.Field
	for _, c := range s.Metadata.PartitionColumns {
		if i := s.Schema.Index(c); i >= 0 {
			out = append(out, s.Schema[i])
		}
	}
	return out
}

// FilePath returns the location of a data file of the table: its
// URI-decoded path, joined to the table's location unless absolute (an
// absolute path, a file: URI's path, or another URL as it is).
func FilePath(table, uriPath string) string {
	p := pathKey(uriPath)
	if u, err := url.Parse(uriPath); err == nil && u.Scheme == "file" {
		return u.Path
	}
	if storage.IsAbs(p) {
		return p
	}
	return storage.Join(table, p)
}

// EncodePath percent-encodes a relative file path for an add or remove
// action's path (RFC 2396, as Hadoop's Path.toUri does): each segment is
// escaped, the separators are kept.
func EncodePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
