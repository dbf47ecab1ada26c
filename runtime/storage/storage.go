// Package storage is the seam under the runtime: every byte the runtime
// reads or writes under a warehouse, a pipeline's storage or a landing
// folder goes through a Store. A Store holds objects named by keys:
// slash-separated paths relative to the Store's root, as object stores
// name them ("_delta_log/00000000000000000000.json").
//
// The operations are the ones an object store gives (and a local file
// system can give atomically):
//
//   - List: the keys under a prefix, sorted, from a start-after key, so
//     a listing resumes where it stopped (S3 ListObjectsV2 StartAfter);
//   - Open: a reader that streams (Read) and reads ranges (ReadAt, Size),
//     for Parquet footers (ranged GETs);
//   - Create: a writer whose object becomes visible whole, only on Commit
//     (a multipart upload completed); Abort discards it;
//   - PutIfAbsent: create an object only if no object has the key, else
//     ErrExist (S3 PUT with If-None-Match: *): the Delta commit primitive;
//   - Replace: overwrite an object atomically (a plain PUT);
//   - Delete, DeletePrefix, Stat.
//
// Local implements it over a folder of the local file system; Open maps
// a location (a local path, or a URL of a registered scheme) to its
// Store. Join, Dir, Base, Rel and Abs build and take apart locations,
// which path/filepath would corrupt once they are URLs.
package storage

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"
)

// ErrExist is matched (errors.Is) by the error PutIfAbsent returns when
// the key already names an object. It is fs.ErrExist, so errors of the
// os package match it too.
var ErrExist = fs.ErrExist

// ErrNotExist is matched (errors.Is) by the error of an operation on a
// key that names no object. It is fs.ErrNotExist.
var ErrNotExist = fs.ErrNotExist

// ErrLocked is matched (errors.Is) by the error Locker.Lock returns when
// another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// ObjectInfo describes one object.
type ObjectInfo struct {
	// Key is the object's key, relative to the Store's root. A shallow
	// listing names a common prefix (a folder) with a key ending in "/".
	Key string
	// Size is the object's length in bytes.
	Size int64
	// ModTime is when the object was last written.
	ModTime time.Time
	// Version changes whenever the object is written again or replaced
	// by another of the same key (an ETag; for Local the file's inode,
	// size and modification time). Empty when unknown.
	Version string
}

// Dir reports whether the info names a common prefix of a shallow
// listing rather than an object.
func (o ObjectInfo) Dir() bool { return strings.HasSuffix(o.Key, "/") }

// Name returns the last element of the key (without a trailing "/").
func (o ObjectInfo) Name() string { return path.Base(strings.TrimSuffix(o.Key, "/")) }

// ListOptions tune List.
type ListOptions struct {
	// StartAfter, when set, lists only the keys that sort after it, so a
	// listing resumes where an earlier one stopped.
	StartAfter string
	// Shallow lists only the objects directly under the prefix (as
	// ListObjectsV2 with the delimiter "/"), and each deeper level once,
	// as a key ending in "/".
	Shallow bool
	// NamesOnly allows the Store to leave Size, ModTime and Version zero
	// when it would have to ask for them one object at a time.
	NamesOnly bool
	// Skip, when set, leaves out the objects whose key has an element
	// below the prefix's folder (a folder's name or the object's) for
	// which it returns true; Local does not read such folders at all.
	Skip func(name string) bool
	// Unsorted tells the Store that the caller does not need the keys in
	// order, so a Store that would have to sort them (Local) need not.
	Unsorted bool
}

// Reader reads one object: it streams from its start (Read) and reads any
// range (ReadAt), and knows its size, as Parquet readers need.
type Reader interface {
	io.Reader
	io.ReaderAt
	io.Closer
	// Size returns the object's length in bytes when it was opened.
	Size() int64
}

// Writer writes one object, which becomes visible only when Commit
// returns nil: before then readers see the key's old object, or none.
type Writer interface {
	io.Writer
	// Commit makes the object visible whole (replacing an object of the
	// same key), durably unless the Writer was created with NoSync.
	Commit() error
	// Abort discards what was written; the key keeps its old object.
	// After Commit it does nothing, so it may be deferred.
	Abort() error
}

// WriteOption tunes Create and Replace.
type WriteOption int

const (
	// NoSync lets a crash lose the object (or leave the old one): for
	// objects their readers can do without, such as a Delta checksum
	// file. Without it, a committed object survives a crash.
	NoSync WriteOption = iota + 1
	// Exclusive says the key is new (Create fails with ErrExist when it
	// is not) and that nothing reads it before Commit: a data file,
	// which a Delta commit names only once it is complete. Local then
	// writes the file under its own name, and Commit only fsyncs it,
	// sparing the rename and folder fsync of a temporary file; a crash
	// before Commit leaves a partial file under the key, which nothing
	// names (vacuum removes it).
	Exclusive
)

// Store is a flat namespace of objects under one root.
type Store interface {
	// List returns the objects whose keys start with prefix, sorted by
	// key (see ListOptions). A prefix naming no object gives none, and
	// no error.
	List(prefix string, opts ListOptions) ([]ObjectInfo, error)
	// Stat describes the object of key, or fails with ErrNotExist.
	Stat(key string) (ObjectInfo, error)
	// Open opens the object of key for reading, or fails with
	// ErrNotExist.
	Open(key string) (Reader, error)
	// Create starts writing the object of key (see Writer).
	Create(key string, opts ...WriteOption) (Writer, error)
	// PutIfAbsent creates the object of key holding data, durably, only
	// when no object has that key; otherwise it fails with ErrExist and
	// leaves the existing object as it is.
	PutIfAbsent(key string, data []byte) error
	// Replace makes data the object of key, atomically: readers see the
	// old object or the new one, never a part.
	Replace(key string, data []byte, opts ...WriteOption) error
	// Delete removes the object of key; a key naming no object is not
	// an error.
	Delete(key string) error
	// DeletePrefix removes every object whose key is under the folder
	// prefix (prefix names a folder: "a/b" removes "a/b/..." and "a/b").
	DeletePrefix(prefix string) error
	// Location returns the Store's root as a location Open accepts, for
	// messages.
	Location() string
}

// Locker is implemented by a Store that gives exclusive locks held by a
// process: the lock ends when the process does, however it ends.
type Locker interface {
	// Lock takes the lock named key at once, writing info (who holds
	// it) into it, or fails with an error matching ErrLocked whose
	// LockedError.Holder is the info its holder wrote.
	Lock(key string, info []byte) (Lock, error)
}

// Lock is a held lock.
type Lock interface {
	// Release ends the lock.
	Release() error
}

// LockedError is Locker.Lock's error when another process holds the lock.
type LockedError struct {
	// Key is the lock's key and Location its Store's.
	Key, Location string
	// Holder is what the holder wrote into the lock (may be empty).
	Holder []byte
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("%s: %v", path.Join(e.Location, e.Key), ErrLocked)
}

// Unwrap makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Unwrap() error { return ErrLocked }

// Open returns the Store whose root is location: a local path, a file:
// URI, or a URL of a scheme given to Register. Object-store locations
// (s3://) are not supported yet.
func Open(location string) (Store, error) {
	if location == "" {
		return nil, errors.New("storage: empty location")
	}
	if i := strings.Index(location, "://"); i > 0 && isScheme(location[:i]) {
		if open := opener(location[:i]); open != nil {
			return open(location)
		}
		u, err := url.Parse(location)
		if err != nil {
			return nil, fmt.Errorf("storage location %s: %w", location, err)
		}
		if u.Scheme == "file" {
			if u.Host != "" && u.Host != "localhost" {
				return nil, fmt.Errorf("storage location %s: a file: URI names a local path (file:///path)", location)
			}
			return NewLocal(u.Path), nil
		}
		return nil, fmt.Errorf("storage location %s: the %s: scheme is not supported; give a local path", location, u.Scheme)
	}
	return NewLocal(location), nil
}

var schemes struct {
	sync.RWMutex
	open map[string]func(location string) (Store, error)
}

// Register makes Open (and so At and the location functions) open the
// locations of scheme ("memtest" for memtest://bucket/path) with open,
// which returns the Store whose root is the whole location it is given.
// It is for Stores outside this package: tests' in-memory Stores, and
// backends linked in by a program. Register panics when scheme is
// registered already, is "file" or is no URL scheme (RFC 3986), as
// database/sql.Register does on a name given twice: registering is done
// once, from an init function or a package-level variable.
func Register(scheme string, open func(location string) (Store, error)) {
	if !isScheme(scheme) || strings.EqualFold(scheme, "file") || open == nil {
		panic(fmt.Sprintf("storage: Register of scheme %q", scheme))
	}
	schemes.Lock()
	defer schemes.Unlock()
	scheme = strings.ToLower(scheme)
	if _, dup := schemes.open[scheme]; dup {
		panic(fmt.Sprintf("storage: scheme %q registered twice", scheme))
	}
	if schemes.open == nil {
		schemes.open = map[string]func(string) (Store, error){}
	}
	schemes.open[scheme] = open
}

// opener returns the function Register gave for scheme, or nil.
func opener(scheme string) func(string) (Store, error) {
	schemes.RLock()
	defer schemes.RUnlock()
	return schemes.open[strings.ToLower(scheme)]
}

func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	// One letter is a Windows drive ("C://x"), not a scheme.
	return len(s) > 1
}

// Restat describes the object r reads as it is now: on Local the open
// file's attributes (a file may grow, or be rewritten in place, while it
// is read). Where an object is never changed in place it fails with
// errors.ErrUnsupported: there is nothing to check.
func Restat(r Reader) (ObjectInfo, error) {
	if s, ok := r.(interface{ Restat() (ObjectInfo, error) }); ok {
		return s.Restat()
	}
	return ObjectInfo{}, errors.ErrUnsupported
}

// ReadAll returns the whole object of key.
func ReadAll(s Store, key string) ([]byte, error) {
	if l, ok := s.(*Local); ok {
		return l.readFile(key)
	}
	r, err := s.Open(key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b := make([]byte, r.Size())
	if _, err := r.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b, nil
}

// Write creates the object of key with what write writes to it (through
// a buffer), atomically: on an error of write the object is not created
// and the key keeps its old object.
func Write(s Store, key string, write func(w io.Writer) error, opts ...WriteOption) error {
	w, err := s.Create(key, opts...)
	if err != nil {
		return err
	}
	defer w.Abort()
	bw := newBufferedWriter(w)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return w.Commit()
}

// Sub returns the Store of the folder prefix of s: its keys are s's keys
// under prefix + "/", without that prefix.
func Sub(s Store, prefix string) Store {
	prefix = strings.Trim(prefix, "/")
	if prefix == "" {
		return s
	}
	if l, ok := s.(*Local); ok {
		return l.sub(prefix)
	}
	return &subStore{s: s, prefix: prefix + "/"}
}

// Exists reports whether key names an object.
func Exists(s Store, key string) (bool, error) {
	_, err := s.Stat(key)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, ErrNotExist) {
		return false, nil
	}
	return false, err
}
