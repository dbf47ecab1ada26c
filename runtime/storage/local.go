package storage

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// FileMode is the mode Local creates every file with, before the
// process's umask: 0666, so that with the usual umask 022 they are 0644
// (as Spark and Hadoop's local file system create them) and another
// engine running as another user reads the tables a pipeline writes.
const FileMode fs.FileMode = 0o666

// Local is a Store over a folder of the local file system: a key is a path
// under the folder. Its writes are atomic and durable as a local file
// system allows: an object is written to a hidden temporary file in its
// folder (".<name>.<random>.tmp"), fsynced, then renamed into place
// (Commit, Replace) or hard-linked, which fails when the name exists
// (PutIfAbsent); the folder is fsynced after, and so is the parent of
// each folder a write creates. Readers that list a folder skip hidden
// names, and so the temporary files of unfinished writes.
type Local struct {
	root string
}

// NewLocal returns the Store of the folder root (which need not exist: a
// write creates the folders it needs).
func NewLocal(root string) *Local { return &Local{root: root} }

// Path returns the local path of key.
func (l *Local) Path(key string) string {
	if key == "" {
		return l.root
	}
	return filepath.Join(l.root, filepath.FromSlash(key))
}

// Location returns the folder.
func (l *Local) Location() string { return l.root }

func (l *Local) sub(prefix string) *Local { return &Local{root: l.Path(prefix)} }

func (l *Local) readFile(key string) ([]byte, error) { return os.ReadFile(l.Path(key)) }

// List lists the files under prefix (see Store). Links are followed to
// files; a link to a folder is not descended into.
func (l *Local) List(prefix string, opts ListOptions) ([]ObjectInfo, error) {
	dir, namePrefix := "", prefix
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dir, namePrefix = prefix[:i+1], prefix[i+1:]
	}
	var out []ObjectInfo
	if err := l.list(dir, namePrefix, opts, &out); err != nil {
		if errors.Is(err, fs.ErrNotExist) && len(out) == 0 {
			return nil, nil
		}
		return nil, err
	}
	if !opts.Unsorted {
		slices.SortFunc(out, func(a, b ObjectInfo) int { return strings.Compare(a.Key, b.Key) })
	}
	return out, nil
}

// list adds the entries of the folder dir (a key ending in "/", or "")
// whose names start with namePrefix.
func (l *Local) list(dir, namePrefix string, opts ListOptions, out *[]ObjectInfo) error {
	f, err := os.Open(l.Path(dir))
	if err != nil {
		return err
	}
	entries, err := f.ReadDir(-1) // unsorted: List sorts the keys once
	f.Close()
	if err != nil {
		return err
	}
	*out = slices.Grow(*out, len(entries))
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, namePrefix) || opts.Skip != nil && opts.Skip(name) {
			continue
		}
		key := dir + name
		t := e.Type()
		if t&fs.ModeSymlink != 0 {
			st, err := os.Stat(l.Path(key))
			if err != nil || !st.Mode().IsRegular() {
				continue // dangling, or a link to a folder
			}
			if opts.StartAfter < key {
				*out = append(*out, info(key, st))
			}
			continue
		}
		if t.IsDir() {
			sub := key + "/"
			if opts.Shallow {
				if opts.StartAfter < sub {
					*out = append(*out, ObjectInfo{Key: sub})
				}
				continue
			}
			if opts.StartAfter >= sub && !strings.HasPrefix(opts.StartAfter, sub) {
				continue // every key below sorts before StartAfter
			}
			if err := l.list(sub, "", opts, out); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			continue
		}
		if !t.IsRegular() || opts.StartAfter >= key {
			continue // devices, sockets and pipes are no objects
		}
		o := ObjectInfo{Key: key}
		if !opts.NamesOnly {
			st, err := e.Info()
			if err != nil {
				continue // removed meanwhile
			}
			o = info(key, st)
		}
		*out = append(*out, o)
	}
	return nil
}

func info(key string, st fs.FileInfo) ObjectInfo {
	o := ObjectInfo{Key: key, Size: st.Size(), ModTime: st.ModTime()}
	if st.IsDir() && !strings.HasSuffix(key, "/") {
		o.Key += "/"
	}
	return o
}

// Stat describes the file of key, following a link. On Local a folder
// is described too, with a key ending in "/".
func (l *Local) Stat(key string) (ObjectInfo, error) {
	st, err := os.Stat(l.Path(key))
	if err != nil {
		return ObjectInfo{}, err
	}
	o := info(key, st)
	ino := uint64(0)
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		ino = s.Ino
	}
	o.Version = fmt.Sprintf("%d-%d-%d", ino, st.Size(), st.ModTime().UnixNano())
	return o, nil
}

// localReader is an open file; its size is read when first asked for.
type localReader struct {
	*os.File
	size int64 // -1 until known
}

func (r *localReader) Size() int64 {
	if r.size < 0 {
		if st, err := r.File.Stat(); err == nil {
			r.size = st.Size()
		}
	}
	return max(r.size, 0)
}

// Restat describes the open file now.
func (r *localReader) Restat() (ObjectInfo, error) {
	st, err := r.File.Stat()
	if err != nil {
		return ObjectInfo{}, err
	}
	return info(filepath.Base(r.Name()), st), nil
}

// Open opens the file of key.
func (l *Local) Open(key string) (Reader, error) {
	f, err := os.Open(l.Path(key))
	if err != nil {
		return nil, err
	}
	return &localReader{File: f, size: -1}, nil
}

// localWriter writes a temporary file that Commit renames to path, or
// (inPlace: Exclusive) the file at path itself.
type localWriter struct {
	*os.File
	path    string
	sync    bool
	inPlace bool
	done    bool
}

func (w *localWriter) Commit() error { return w.commit(false) }

// commit syncs and closes the file and, unless it was written in place,
// renames the temporary file to the key's path (replacing its file) or,
// with link, hard-links it there (failing when the path exists) and
// removes the temporary name; then it syncs the folder.
func (w *localWriter) commit(link bool) error {
	if w.done {
		return fmt.Errorf("commit %s: already committed or aborted", w.path)
	}
	w.done = true
	tmp := w.Name()
	err := error(nil)
	if w.sync {
		if err = w.Sync(); err != nil {
			err = fmt.Errorf("fsync %s: %w", tmp, err)
		}
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if w.inPlace {
		if err != nil {
			os.Remove(w.path)
		}
		return err
	}
	switch {
	case err == nil && link:
		err = os.Link(tmp, w.path)
		if rerr := os.Remove(tmp); err == nil && rerr != nil {
			err = rerr
		}
	case err == nil:
		if err = os.Rename(tmp, w.path); err != nil {
			os.Remove(tmp)
		}
	default:
		os.Remove(tmp)
	}
	if err == nil && w.sync {
		err = syncDir(filepath.Dir(w.path))
	}
	return err
}

func (w *localWriter) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.Close()
	return os.Remove(w.Name())
}

// Create starts writing the file of key into a temporary file beside it.
func (l *Local) Create(key string, opts ...WriteOption) (Writer, error) {
	path := l.Path(key)
	sync := !slices.Contains(opts, NoSync)
	dir := filepath.Dir(path)
	if err := mkdirs(dir, sync); err != nil {
		return nil, err
	}
	if slices.Contains(opts, Exclusive) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, FileMode)
		if err != nil {
			return nil, err
		}
		return &localWriter{File: f, path: path, sync: sync, inPlace: true}, nil
	}
	f, err := createTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &localWriter{File: f, path: path, sync: sync}, nil
}

// Replace writes the file of key atomically (Create, then Commit).
func (l *Local) Replace(key string, data []byte, opts ...WriteOption) error {
	w, err := l.Create(key, opts...)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Abort()
		return err
	}
	return w.Commit()
}

// PutIfAbsent writes data to a temporary file, fsyncs it and hard-links
// it to the key's path, which fails with ErrExist when the path exists;
// then removes the temporary name and fsyncs the folder.
func (l *Local) PutIfAbsent(key string, data []byte) error {
	w, err := l.Create(key)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Abort()
		return err
	}
	// os.Link fails with a *LinkError matching fs.ErrExist when the
	// path exists.
	return w.(*localWriter).commit(true)
}

// Delete removes the file of key (or, on Local, an empty folder).
func (l *Local) Delete(key string) error {
	err := os.Remove(l.Path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// DeletePrefix removes the folder prefix and everything in it.
func (l *Local) DeletePrefix(prefix string) error {
	if strings.Trim(prefix, "/") == "" {
		return fmt.Errorf("delete %s: refusing to delete a store's whole root", l.root)
	}
	return os.RemoveAll(l.Path(prefix))
}

// RemoveEmptyFolders removes those of the folders (keys) and of their
// parents below the root that are empty, deepest first, so a folder
// emptied by its children goes too.
func (l *Local) RemoveEmptyFolders(folders []string) {
	seen := map[string]bool{}
	var all []string
	for _, f := range folders {
		for f = strings.Trim(f, "/"); f != "" && f != "." && !seen[f]; f = path.Dir(f) {
			seen[f] = true
			all = append(all, f)
		}
	}
	slices.SortFunc(all, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, f := range all {
		os.Remove(l.Path(f)) // fails, as wanted, unless empty
	}
}

// FolderPruner is implemented by Stores that have folders (Local), which
// stay when their last object is deleted.
type FolderPruner interface {
	// RemoveEmptyFolders removes the given folders and their parents
	// below the root when empty.
	RemoveEmptyFolders(folders []string)
}

// localLock is an flock(2) held on an open file.
type localLock struct{ f *os.File }

// Lock takes an flock(2) on the file of key, created if need be. The
// kernel releases it when the process ends, however it ends, so a lock
// left by a killed process is taken by the next one.
func (l *Local) Lock(key string, info []byte) (Lock, error) {
	path := l.Path(key)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, FileMode)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		return nil, &LockedError{Key: key, Location: l.root, Holder: holder}
	}
	f.Truncate(0)
	f.WriteAt(info, 0)
	return &localLock{f: f}, nil
}

// Release empties the lock file (it stays, for the next process to lock)
// and unlocks it.
func (k *localLock) Release() error {
	k.f.Truncate(0)
	syscall.Flock(int(k.f.Fd()), syscall.LOCK_UN)
	return k.f.Close()
}

// mkdirs creates dir and its missing parents; with sync it fsyncs the
// parent of each folder it created, so the new folders survive a crash
// with the files later written into them.
func mkdirs(dir string, sync bool) error {
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return nil
	}
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append(missing, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if sync {
		for i := len(missing) - 1; i >= 0; i-- {
			if err := syncDir(filepath.Dir(missing[i])); err != nil {
				return err
			}
		}
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", dir, err)
	}
	return nil
}

// createTemp creates a new file in dir, like os.CreateTemp (the last "*" of
// pattern is replaced by a random string), but with FileMode before the
// umask instead of os.CreateTemp's 0600: the file is renamed or linked
// into place once written, and keeps its mode.
func createTemp(dir, pattern string) (*os.File, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndex(pattern, "*"); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for try := 0; ; try++ {
		var b [8]byte
		_, _ = rand.Read(b[:])
		name := filepath.Join(dir, prefix+hex.EncodeToString(b[:])+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, FileMode)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, err
	}
}

// Appender is implemented by Stores whose objects can grow while they are
// read (Local): an update's event log is appended to as the update runs,
// so that a crash keeps every event written before it.
type Appender interface {
	// CreateAppend creates the object of key, failing with ErrExist when
	// it exists; each Write is visible to readers when it returns.
	CreateAppend(key string) (io.WriteCloser, error)
}

// CreateAppend creates the file of key exclusively, for appending.
func (l *Local) CreateAppend(key string) (io.WriteCloser, error) {
	path := l.Path(key)
	if err := mkdirs(filepath.Dir(path), false); err != nil {
		return nil, err
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, FileMode)
}
