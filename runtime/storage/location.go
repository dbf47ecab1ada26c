package storage

import (
	"io"
	"path/filepath"
)

// The functions below address an object by its whole location (a path, or
// later a URI): they split it into the Store of its folder and its key
// there, for code that names objects by location, as table paths and
// data file paths are named.

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
	dir, name := filepath.Split(location)
	if dir == "" {
		dir = "."
	}
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
