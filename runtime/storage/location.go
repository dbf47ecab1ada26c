package storage

import (
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
)

// A location names a folder or an object: a local path, or a URL
// scheme://authority/path (file:///tmp/wh, s3://bucket/wh). The functions
// below build and take apart locations, as path/filepath does paths: on a
// local path they are filepath's; on a URL they work on the path part
// with package path (slash-separated) and never change the
// "scheme://authority" before it, so ".." stops at the root. The root of
// a URL with an authority is written without a trailing slash
// ("s3://bucket"), the root of one without ("file:///") with it.
//
// Code outside this package builds every location with them: filepath
// would corrupt a URL (filepath.Join("s3://b/wh", "t") is "s3:/b/wh/t").
// Keys inside a Store are slash-separated: join them with package path.

// Join joins elements, slash-separated relative paths (keys), to loc and
// cleans the result (filepath.Join for a local path).
func Join(loc string, elem ...string) string {
	root, p, ok := splitURL(loc)
	if !ok {
		switch len(elem) {
		case 0:
			return filepath.Join(loc)
		case 1: // the common case, without a slice to allocate
			return filepath.Join(loc, elem[0])
		}
		return filepath.Join(append([]string{loc}, elem...)...)
	}
	return root + rootPath(root, path.Join(append([]string{"/", p}, elem...)...))
}

// Dir returns all of loc but its last element, cleaned (filepath.Dir for
// a local path); the Dir of a URL's root is the root.
func Dir(loc string) string {
	root, p, ok := splitURL(loc)
	if !ok {
		return filepath.Dir(loc)
	}
	return root + rootPath(root, path.Dir("/"+p))
}

// Base returns the last element of loc, trailing slashes removed
// (filepath.Base for a local path); the Base of a URL's root is "/".
func Base(loc string) string {
	_, p, ok := splitURL(loc)
	if !ok {
		return filepath.Base(loc)
	}
	return path.Base("/" + p)
}

// Rel returns the slash-separated relative path (a key, with ".." where
// needed) that joined to base gives target, as filepath.Rel does for
// local paths. Locations of different kinds (a local path and a URL, URLs
// of different roots) are not relative to each other: an error.
func Rel(base, target string) (string, error) {
	broot, bp, bok := splitURL(base)
	troot, tp, tok := splitURL(target)
	switch {
	case !bok && !tok:
		rel, err := filepath.Rel(base, target)
		return filepath.ToSlash(rel), err
	case bok != tok || broot != troot:
		return "", fmt.Errorf("storage: %s is not under the root of %s", target, base)
	}
	return relPath(path.Clean("/"+bp), path.Clean("/"+tp)), nil
}

// Abs returns loc as an absolute location: a local path made absolute
// (filepath.Abs), a URL (absolute already) cleaned.
func Abs(loc string) (string, error) {
	if _, _, ok := splitURL(loc); ok {
		return Join(loc), nil
	}
	return filepath.Abs(loc)
}

// IsAbs reports whether loc is absolute: a URL, or an absolute local
// path (filepath.IsAbs).
func IsAbs(loc string) bool {
	if _, _, ok := splitURL(loc); ok {
		return true
	}
	return filepath.IsAbs(loc)
}

// IsURL reports whether loc is a URL (scheme://...) rather than a local
// path.
func IsURL(loc string) bool {
	_, _, ok := splitURL(loc)
	return ok
}

// splitURL splits a URL location into its "scheme://authority" and its
// path ("" or starting with "/"); ok is false for a local path.
func splitURL(loc string) (root, p string, ok bool) {
	i := strings.Index(loc, "://")
	if i <= 0 || !isScheme(loc[:i]) {
		return "", "", false
	}
	j := strings.IndexByte(loc[i+3:], '/')
	if j < 0 {
		return loc, "", true
	}
	return loc[:i+3+j], loc[i+3+j:], true
}

// rootPath returns the cleaned path p (rooted) as it follows root: the
// root's own path "/" is dropped after an authority ("s3://bucket").
func rootPath(root, p string) string {
	if p == "/" && !strings.HasSuffix(root, "://") {
		return ""
	}
	return p
}

// relPath is filepath.Rel for clean rooted slash paths.
func relPath(base, target string) string {
	b, t := elements(base), elements(target)
	n := 0
	for n < len(b) && n < len(t) && b[n] == t[n] {
		n++
	}
	rel := make([]string, 0, len(b)-n+len(t)-n)
	for range b[n:] {
		rel = append(rel, "..")
	}
	rel = append(rel, t[n:]...)
	if len(rel) == 0 {
		return "."
	}
	return strings.Join(rel, "/")
}

func elements(p string) []string {
	if p == "/" {
		return nil
	}
	return strings.Split(p[1:], "/")
}

// split splits loc after its last separator into the location of its
// folder ("." for a bare name) and the name.
func split(loc string) (dir, name string) {
	if root, p, ok := splitURL(loc); ok {
		d, n := path.Split(p)
		return root + d, n
	}
	dir, name = filepath.Split(loc)
	if dir == "" {
		dir = "."
	}
	return dir, name
}

// The functions below address an object by its whole location: they split
// it into the Store of its folder and its key there, for code that names
// objects by location, as table paths and data file paths are named.

// At returns the Store of location (see Open). When location cannot be
// opened, every operation of the Store returned fails with Open's error,
// so callers that already handle I/O errors need no other check.
func At(location string) Store {
	s, err := Open(location)
	if err != nil {
		return errStore{err: err}
	}
	return s
}

// Object returns the Store of the folder holding the object at location
// and the object's key in that Store.
func Object(location string) (Store, string) {
	dir, name := split(location)
	return At(dir), name
}

// ReadFile returns the whole object at location.
func ReadFile(location string) ([]byte, error) {
	s, k := Object(location)
	return ReadAll(s, k)
}

// OpenFile opens the object at location for reading.
func OpenFile(location string) (Reader, error) {
	s, k := Object(location)
	return s.Open(k)
}

// StatFile describes the object at location.
func StatFile(location string) (ObjectInfo, error) {
	s, k := Object(location)
	return s.Stat(k)
}

// CreateFile starts writing the object at location (see Store.Create).
func CreateFile(location string, opts ...WriteOption) (Writer, error) {
	s, k := Object(location)
	return s.Create(k, opts...)
}

// ReplaceFile makes data the object at location, atomically.
func ReplaceFile(location string, data []byte, opts ...WriteOption) error {
	s, k := Object(location)
	return s.Replace(k, data, opts...)
}

// WriteFile writes the object at location with write, atomically (see
// Write).
func WriteFile(location string, write func(w io.Writer) error, opts ...WriteOption) error {
	s, k := Object(location)
	return Write(s, k, write, opts...)
}

// Remove deletes the object at location; a location naming no object is
// not an error.
func Remove(location string) error {
	s, k := Object(location)
	return s.Delete(k)
}

// errStore is the Store of a location that could not be opened.
type errStore struct{ err error }

func (e errStore) List(string, ListOptions) ([]ObjectInfo, error) { return nil, e.err }
func (e errStore) Stat(string) (ObjectInfo, error)                { return ObjectInfo{}, e.err }
func (e errStore) Open(string) (Reader, error)                    { return nil, e.err }
func (e errStore) Create(string, ...WriteOption) (Writer, error)  { return nil, e.err }
func (e errStore) PutIfAbsent(string, []byte) error               { return e.err }
func (e errStore) Replace(string, []byte, ...WriteOption) error   { return e.err }
func (e errStore) Delete(string) error                            { return e.err }
func (e errStore) DeletePrefix(string) error                      { return e.err }
func (e errStore) Location() string                               { return "" }

// RemoveAll deletes the folder at location and every object in it.
func RemoveAll(location string) error {
	s, k := Object(location)
	return s.DeletePrefix(k)
}
