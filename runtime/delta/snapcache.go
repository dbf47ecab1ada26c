package delta

import (
	"fmt"
	"sync"

	"github.com/pipegen/pipegen/runtime/storage"
)

// The latest state of each table this process has read is kept, so that
// finding and loading the latest snapshot costs what changed since, not
// what the log holds: the commits after the cached version are probed for
// by name (commits are created in order, without gaps after the latest
// checkpoint), and a table not read before starts from the checkpoint
// `_last_checkpoint` names. Listing `_delta_log` (tens of thousands of
// names for a long-lived table) is left for tables without either.

// tableCache is the latest replayed state of one table.
type tableCache struct {
	mu    sync.Mutex
	st    *state
	snap  *Snapshot // st as a snapshot; nil until built
	stamp fileStamp // identifies the file st.version was read from
	// light is the state LoadMetadata replayed (no files), lightStamp
	// identifies its version's commit.
	light      *state
	lightStamp fileStamp
}

// caches maps a table's absolute path to its *tableCache.
var caches sync.Map

func cacheOf(table string) *tableCache {
	key, err := storage.Abs(table)
	if err != nil {
		key = storage.Join(table)
	}
	c, _ := caches.LoadOrStore(key, &tableCache{})
	return c.(*tableCache)
}

// fileStamp identifies one file: a table deleted and created again at the
// same path has other files, so its cached state is dropped.
type fileStamp struct {
	version string // storage.ObjectInfo.Version
	ok      bool
}

func stampFile(path string) fileStamp {
	fi, err := storage.StatFile(path)
	if err != nil || fi.Version == "" {
		return fileStamp{}
	}
	return fileStamp{version: fi.Version, ok: true}
}

// stampOf stamps the commit of version v, or its checkpoint when the
// commit was cleaned up.
func stampOf(table string, v int64) fileStamp {
	if s := stampFile(CommitPath(table, v)); s.ok {
		return s
	}
	return stampFile(singleCheckpointPath(table, v))
}

func (c *tableCache) valid(table string) bool {
	return c.st != nil && c.stamp.ok && stampOf(table, c.st.version) == c.stamp
}

func exists(path string) (bool, error) {
	s, k := storage.Object(path)
	return storage.Exists(s, k)
}

// hintedCheckpoint returns the version and part files of the checkpoint
// `_last_checkpoint` names, when they are all present.
func hintedCheckpoint(table string) (int64, []string, bool) {
	lc, ok, err := ReadLastCheckpoint(table)
	if err != nil || !ok || lc.Version < 0 {
		return -1, nil, false
	}
	var files []string
	if lc.V2Checkpoint != nil && lc.V2Checkpoint.Path != "" {
		files = []string{FilePath(LogDir(table), lc.V2Checkpoint.Path)}
	} else if lc.Parts != nil && *lc.Parts > 1 {
		for i := int64(1); i <= *lc.Parts; i++ {
			files = append(files, storage.Join(LogDir(table), fmt.Sprintf("%020d.checkpoint.%010d.%010d.parquet", lc.Version, i, *lc.Parts)))
		}
	} else {
		files = []string{singleCheckpointPath(table, lc.Version)}
	}
	for _, f := range files {
		if ok, _ := exists(f); !ok {
			return -1, nil, false
		}
	}
	return lc.Version, files, true
}

func singleCheckpointPath(table string, v int64) string {
	return storage.Join(LogDir(table), fmt.Sprintf("%020d.checkpoint.parquet", v))
}

// probeAfter returns the last version v >= from such that the commits
// from+1..v all exist.
func probeAfter(table string, from int64) (int64, error) {
	v := from
	for {
		ok, err := exists(CommitPath(table, v+1))
		if err != nil {
			return -1, fmt.Errorf("table %s: %w", table, err)
		}
		if !ok {
			return v, nil
		}
		v++
	}
}

// probeLatest returns the latest version; see LatestVersion.
func probeLatest(table string) (int64, error) {
	c := cacheOf(table)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.valid(table) {
		return probeAfter(table, c.st.version)
	}
	if v, _, ok := hintedCheckpoint(table); ok {
		latest, err := probeAfter(table, v)
		if err != nil {
			return -1, err
		}
		// A stale hint whose following commits were cleaned up: list.
		if ok, _ := exists(CommitPath(table, v)); latest > v || ok {
			return latest, nil
		}
	}
	l, err := listLog(table)
	if err != nil {
		return -1, err
	}
	return l.latest(), nil
}

// loadLatest returns the latest snapshot; see LoadVersion.
func loadLatest(table string) (*Snapshot, error) {
	c := cacheOf(table)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.valid(table) {
		c.st, c.snap = nil, nil
		st, err := startState(table)
		if err != nil {
			return nil, err
		}
		c.st = st
	}
	latest, err := probeAfter(table, c.st.version)
	if err != nil {
		c.st, c.snap = nil, nil
		return nil, err
	}
	for v := c.st.version + 1; v <= latest; v++ {
		actions, err := readCommitFile(CommitPath(table, v))
		if err != nil {
			c.st, c.snap = nil, nil
			return nil, fmt.Errorf("table %s: %w", table, err)
		}
		c.st.apply(actions)
		c.st.version = v
		c.snap = nil
	}
	if c.snap == nil {
		s, err := c.st.snapshot(table, c.st.version)
		if err != nil {
			return nil, err
		}
		c.snap = s
		c.stamp = stampOf(table, c.st.version)
	}
	s := *c.snap
	return &s, nil
}

// startState replays a table not cached yet: from the hinted checkpoint
// when there is one, otherwise from the listed log.
func startState(table string) (*state, error) {
	if v, files, ok := hintedCheckpoint(table); ok {
		if ok, _ := exists(CommitPath(table, v)); ok {
			st := newState()
			if err := st.loadCheckpoint(files); err == nil {
				st.version = v
				return st, nil
			}
		}
	}
	return replay(table, -1)
}

// noteCommit advances the cached state of a table by the commit this
// process just made at readVersion+1, so the next load reads nothing.
func noteCommit(table string, readVersion int64, actions []Action) {
	c := cacheOf(table)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st == nil || c.st.version != readVersion {
		return
	}
	c.st.apply(actions)
	c.st.version = readVersion + 1
	c.snap = nil
	c.stamp = stampOf(table, c.st.version)
}

// withState calls fn with the state of the table at version: the cached
// one when it is at that version, else a replay.
func withState(table string, version int64, fn func(st *state) error) error {
	c := cacheOf(table)
	c.mu.Lock()
	if c.valid(table) && c.st.version == version {
		defer c.mu.Unlock()
		return fn(c.st)
	}
	c.mu.Unlock()
	st, err := replay(table, version)
	if err != nil {
		return err
	}
	return fn(st)
}

// LoadMetadata returns the latest snapshot of the table without its data
// files (Files is nil): version, protocol, metadata, schema and txns, what
// a writer appending to the table or a reader checking its version needs.
// When this process holds the table's state it reads nothing but the
// commits that are new; otherwise it finds the latest version (see
// LatestVersion) and reads its checksum file (see VersionChecksum), or,
// without one, the protocol, metaData and txn rows of the checkpoint and
// the commits after it. Either way its cost does not grow with the number
// of files of the table.
func LoadMetadata(table string) (*Snapshot, error) {
	c := cacheOf(table)
	c.mu.Lock()
	if c.valid(table) {
		c.mu.Unlock()
		s, err := loadLatest(table)
		if err != nil {
			return nil, err
		}
		s.Files = nil
		return s, nil
	}
	c.mu.Unlock()
	if latest, err := probeLatest(table); err == nil && latest >= 0 {
		if sum, ok := ReadChecksum(table, latest); ok {
			return sum.snapshot(table, latest)
		}
	}
	v, files, ok := hintedCheckpoint(table)
	if ok {
		ok, _ = exists(CommitPath(table, v))
	}
	if !ok {
		s, err := loadLatest(table) // no checkpoint yet: a short log
		if err != nil {
			return nil, err
		}
		s.Files = nil
		return s, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.light
	if st == nil || !c.lightStamp.ok || stampOf(table, st.version) != c.lightStamp || st.version < v {
		st = newState()
		for _, f := range files {
			if err := st.loadCheckpointFile(f, checkpointMetaSchema); err != nil {
				return nil, fmt.Errorf("table %s: %w", table, err)
			}
		}
		st.version = v
	}
	latest, err := probeAfter(table, st.version)
	if err != nil {
		return nil, err
	}
	for n := st.version + 1; n <= latest; n++ {
		actions, err := readCommitFile(CommitPath(table, n))
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", table, err)
		}
		st.apply(actions)
		st.version = n
	}
	st.files, st.removes = map[string]Add{}, map[string]Remove{} // files are not tracked here
	c.light, c.lightStamp = st, stampOf(table, latest)
	s, err := st.snapshot(table, latest)
	if err != nil {
		return nil, err
	}
	s.Files = nil
	return s, nil
}
