package storage

import (
	"bufio"
	"io"
	"strings"
)

// subStore is the Store of a folder of another Store (see Sub).
type subStore struct {
	s      Store
	prefix string // ends in "/"
}

func (s *subStore) List(prefix string, opts ListOptions) ([]ObjectInfo, error) {
	if opts.StartAfter != "" {
		opts.StartAfter = s.prefix + opts.StartAfter
	}
	l, err := s.s.List(s.prefix+prefix, opts)
	for i := range l {
		l[i].Key = strings.TrimPrefix(l[i].Key, s.prefix)
	}
	return l, err
}

func (s *subStore) Stat(key string) (ObjectInfo, error) {
	o, err := s.s.Stat(s.prefix + key)
	o.Key = strings.TrimPrefix(o.Key, s.prefix)
	return o, err
}

func (s *subStore) Open(key string) (Reader, error) { return s.s.Open(s.prefix + key) }
func (s *subStore) Create(key string, opts ...WriteOption) (Writer, error) {
	return s.s.Create(s.prefix+key, opts...)
}
func (s *subStore) PutIfAbsent(key string, data []byte) error {
	return s.s.PutIfAbsent(s.prefix+key, data)
}
func (s *subStore) Replace(key string, data []byte, opts ...WriteOption) error {
	return s.s.Replace(s.prefix+key, data, opts...)
}
func (s *subStore) Delete(key string) error          { return s.s.Delete(s.prefix + key) }
func (s *subStore) DeletePrefix(prefix string) error { return s.s.DeletePrefix(s.prefix + prefix) }
func (s *subStore) Location() string                 { return s.s.Location() + "/" + strings.TrimSuffix(s.prefix, "/") }

// bufferedWriter buffers the small writes of encoders before they reach a
// Writer (a file or an upload).
type bufferedWriter = bufio.Writer

func newBufferedWriter(w io.Writer) *bufferedWriter { return bufio.NewWriterSize(w, 1<<16) }
