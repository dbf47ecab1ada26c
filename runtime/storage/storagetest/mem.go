package storagetest

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pipegen/pipegen/runtime/storage"
)

// Mem is a Store held in memory, as an object store holds objects: no
// folders (a key's folders exist only as the prefix of its key), none of
// the optional interfaces of a local disk (Locker, Appender,
// FolderPruner). Tests register it under a scheme of their own
// (storage.Register) to run the runtime on a location that is no local
// path, and to see that nothing reaches the local disk.
type Mem struct {
	location string
	mu       sync.Mutex
	objects  map[string]memObject
	version  int64
}

type memObject struct {
	data    []byte
	modTime time.Time
	version int64
}

// NewMem returns an empty Mem whose Location is location.
func NewMem(location string) *Mem {
	return &Mem{location: location, objects: map[string]memObject{}}
}

// Location returns the location given to NewMem.
func (m *Mem) Location() string { return m.location }

// Keys returns the keys of all the objects, sorted.
func (m *Mem) Keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := make([]string, 0, len(m.objects))
	for k := range m.objects {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (m *Mem) info(key string, o memObject) storage.ObjectInfo {
	return storage.ObjectInfo{Key: key, Size: int64(len(o.data)), ModTime: o.modTime, Version: fmt.Sprint(o.version)}
}

// List lists the objects under prefix (see storage.Store).
func (m *Mem) List(prefix string, opts storage.ListOptions) ([]storage.ObjectInfo, error) {
	folder := prefix[:strings.LastIndexByte(prefix, '/')+1]
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []storage.ObjectInfo
	seen := map[string]bool{}
	for k, o := range m.objects {
		if !strings.HasPrefix(k, prefix) || opts.Skip != nil && slices.ContainsFunc(strings.Split(k[len(folder):], "/"), opts.Skip) {
			continue
		}
		if i := strings.IndexByte(k[len(prefix):], '/'); opts.Shallow && i >= 0 {
			sub := k[:len(prefix)+i+1]
			if !seen[sub] && opts.StartAfter < sub {
				seen[sub] = true
				out = append(out, storage.ObjectInfo{Key: sub})
			}
			continue
		}
		if opts.StartAfter < k {
			out = append(out, m.info(k, o))
		}
	}
	slices.SortFunc(out, func(a, b storage.ObjectInfo) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// Stat describes the object of key.
func (m *Mem) Stat(key string) (storage.ObjectInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.objects[key]
	if !ok {
		return storage.ObjectInfo{}, m.notExist("stat", key)
	}
	return m.info(key, o), nil
}

func (m *Mem) notExist(op, key string) error {
	return fmt.Errorf("%s %s/%s: %w", op, m.location, key, storage.ErrNotExist)
}

type memReader struct {
	*bytes.Reader
}

func (r memReader) Close() error { return nil }

// Open opens the object of key: later writes of the key do not change
// what it reads.
func (m *Mem) Open(key string) (storage.Reader, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.objects[key]
	if !ok {
		return nil, m.notExist("open", key)
	}
	return memReader{bytes.NewReader(o.data)}, nil
}

type memWriter struct {
	m         *Mem
	key       string
	exclusive bool
	buf       bytes.Buffer
	done      bool
}

func (w *memWriter) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("write %s: %w", w.key, io.ErrClosedPipe)
	}
	return w.buf.Write(p)
}

func (w *memWriter) Commit() error {
	if w.done {
		return nil
	}
	w.done = true
	w.m.put(w.key, w.buf.Bytes())
	return nil
}

func (w *memWriter) Abort() error {
	w.done = true
	return nil
}

// Create starts writing the object of key.
func (m *Mem) Create(key string, opts ...storage.WriteOption) (storage.Writer, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	w := &memWriter{m: m, key: key, exclusive: slices.Contains(opts, storage.Exclusive)}
	if w.exclusive {
		if ok, _ := storage.Exists(m, key); ok {
			return nil, fmt.Errorf("create %s/%s: %w", m.location, key, storage.ErrExist)
		}
	}
	return w, nil
}

func (m *Mem) put(key string, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.version++
	m.objects[key] = memObject{data: bytes.Clone(data), modTime: time.Now(), version: m.version}
}

// PutIfAbsent creates the object of key unless it exists.
func (m *Mem) PutIfAbsent(key string, data []byte) error {
	if err := checkKey(key); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.objects[key]; ok {
		return fmt.Errorf("put %s/%s: %w", m.location, key, storage.ErrExist)
	}
	m.version++
	m.objects[key] = memObject{data: bytes.Clone(data), modTime: time.Now(), version: m.version}
	return nil
}

// Replace makes data the object of key.
func (m *Mem) Replace(key string, data []byte, opts ...storage.WriteOption) error {
	if err := checkKey(key); err != nil {
		return err
	}
	m.put(key, data)
	return nil
}

// Delete removes the object of key.
func (m *Mem) Delete(key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.objects, key)
	return nil
}

// DeletePrefix removes the objects under the folder prefix.
func (m *Mem) DeletePrefix(prefix string) error {
	prefix = strings.TrimSuffix(prefix, "/")
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range m.objects {
		if prefix == "" || k == prefix || strings.HasPrefix(k, prefix+"/") {
			delete(m.objects, k)
		}
	}
	return nil
}

// checkKey refuses a key an object store would not give the runtime:
// empty, absolute, or with an empty, "." or ".." element, which a
// location built with filepath rather than the storage functions
// produces.
func checkKey(key string) error {
	for _, e := range strings.Split(key, "/") {
		if e == "" || e == "." || e == ".." {
			return fmt.Errorf("storagetest: malformed key %q", key)
		}
	}
	return nil
}

// RegisterMem registers scheme (storage.Register) for the locations of a
// new Mem, which it returns: scheme://bucket/path is the Mem's folder
// "bucket/path" (storage.Sub), so its objects' keys start with the
// bucket. The Mem's own Location is "scheme:/", which Sub extends to the
// folders' locations. Like Register, it is called once per scheme, from
// a package-level variable.
func RegisterMem(scheme string) *Mem {
	m := NewMem(scheme + ":/")
	storage.Register(scheme, func(loc string) (storage.Store, error) {
		return storage.Sub(m, loc[len(scheme+"://"):]), nil
	})
	return m
}
