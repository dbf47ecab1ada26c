package statecodec

import (
	"encoding/binary"
	"errors"
	"reflect"
	"unsafe"

	"github.com/pipegen/pipegen/runtime/types"
)

// Set is the set of distinct values of a DISTINCT aggregate
// (count(DISTINCT x), sum(DISTINCT x), ...) for one group. Generated code
// keeps one per group in its accumulators, as runtime.Set (an alias).
//
// A Set read from a saved aggregation state (an incremental refresh with
// GROUP_AGGREGATE) keeps its elements encoded until it is first changed, and
// is saved again by copying those bytes: a refresh decodes only the sets of
// the groups that new rows reach, not the millions of values of the others.
// The zero Set is empty and ready to use; a Set is not safe for concurrent
// use.
//
// Its fields m, raw and n are part of the type signature of every state
// that holds a Set: renaming one refuses the states already saved.
type Set[K comparable] struct {
	m map[K]struct{}
	// raw holds n encoded elements not decoded yet (nil when m holds all).
	raw []byte
	n   int
}

// Add inserts k.
func (s *Set[K]) Add(k K) {
	if s.raw != nil {
		s.load()
	}
	if s.m == nil {
		s.m = make(map[K]struct{})
	}
	s.m[k] = struct{}{}
}

// Has reports whether k is in the set.
func (s *Set[K]) Has(k K) bool {
	if s.raw != nil {
		s.load()
	}
	_, ok := s.m[k]
	return ok
}

// Len returns the number of elements.
func (s *Set[K]) Len() int {
	if s.raw != nil {
		return s.n
	}
	return len(s.m)
}

// Union adds o's elements to s. o must not be used afterwards: when s is
// empty it takes o's storage as it is.
func (s *Set[K]) Union(o *Set[K]) {
	switch {
	case o.Len() == 0:
	case s.Len() == 0:
		*s = *o
	default:
		o.Each(s.Add)
	}
}

// Each calls fn for every element, in no particular order.
func (s *Set[K]) Each(fn func(K)) {
	if s.raw != nil {
		s.load()
	}
	for k := range s.m {
		fn(k)
	}
}

// load decodes raw into m. The elements were written by encodeState, so
// decoding cannot fail short of a corrupt state, which decodeState checked.
func (s *Set[K]) load() {
	m := make(map[K]struct{}, s.n)
	b := s.raw
	for i := 0; i < s.n; i++ {
		var k K
		k, b = readSetElem[K](b)
		m[k] = struct{}{}
	}
	s.m, s.raw, s.n = m, nil, 0
}

// setElemEncodable reports whether elements of K have a compact encoding
// (strings, integers, dates, timestamps and float keys); other element types
// (DECIMAL, STRUCT) are saved through the generic reflection codec.
func setElemEncodable[K comparable]() bool {
	var k K
	switch any(k).(type) {
	case string, int64, int32, int16, int8, uint64, uint32, bool, types.Date, types.Timestamp:
		return true
	}
	return false
}

func appendSetElem[K comparable](b []byte, k K) []byte {
	switch x := any(k).(type) {
	case string:
		b = binary.AppendUvarint(b, uint64(len(x)))
		return append(b, x...)
	case int64:
		return binary.AppendVarint(b, x)
	case int32:
		return binary.AppendVarint(b, int64(x))
	case int16:
		return binary.AppendVarint(b, int64(x))
	case int8:
		return binary.AppendVarint(b, int64(x))
	case uint64:
		return binary.AppendUvarint(b, x)
	case uint32:
		return binary.AppendUvarint(b, uint64(x))
	case types.Date:
		return binary.AppendVarint(b, int64(x))
	case types.Timestamp:
		return binary.AppendVarint(b, int64(x))
	case bool:
		if x {
			return append(b, 1)
		}
		return append(b, 0)
	}
	panic("statecodec: no set encoding for this element type")
}

// readSetElem decodes one element; strings alias b (state buffers are never
// written again).
func readSetElem[K comparable](b []byte) (K, []byte) {
	var k K
	switch p := any(&k).(type) {
	case *string:
		n, w := binary.Uvarint(b)
		b = b[w:]
		if n > 0 {
			*p = unsafe.String(&b[0], int(n))
		}
		return k, b[n:]
	case *bool:
		*p = b[0] == 1
		return k, b[1:]
	case *uint64, *uint32:
		x, w := binary.Uvarint(b)
		reflect.ValueOf(p).Elem().SetUint(x)
		return k, b[w:]
	default:
		x, w := binary.Varint(b)
		reflect.ValueOf(p).Elem().SetInt(x)
		return k, b[w:]
	}
}

// encodeState implements stateCodec: uvarint(n+1), uvarint(len), then the
// elements; 0 for an empty set.
func (s *Set[K]) encodeState(e *stateEncoder) error {
	if !setElemEncodable[K]() {
		m := s.m
		if s.raw != nil {
			s.load()
			m = s.m
		}
		return e.value(reflect.ValueOf(&m).Elem())
	}
	n := s.Len()
	if n == 0 {
		e.uvarint(0)
		return nil
	}
	e.uvarint(uint64(n) + 1)
	if s.raw != nil {
		e.uvarint(uint64(len(s.raw)))
		e.buf = append(e.buf, s.raw...)
		return e.flush(false)
	}
	var body []byte
	for k := range s.m {
		body = appendSetElem(body, k)
	}
	e.uvarint(uint64(len(body)))
	e.buf = append(e.buf, body...)
	return e.flush(false)
}

// decodeState implements stateCodec: the elements stay encoded until the
// set is changed.
func (s *Set[K]) decodeState(d *stateDecoder) error {
	*s = Set[K]{}
	if !setElemEncodable[K]() {
		var m map[K]struct{}
		if err := d.value(reflect.ValueOf(&m).Elem()); err != nil {
			return err
		}
		s.m = m
		return nil
	}
	n, err := d.uvarint()
	if err != nil || n == 0 {
		return err
	}
	size, err := d.uvarint()
	if err != nil {
		return err
	}
	raw, err := d.take(size)
	if err != nil {
		return err
	}
	// Check the encoding once, so that load cannot fail later.
	b := raw
	for i := uint64(0); i < n-1; i++ {
		if b, err = skipSetElem[K](b); err != nil {
			return err
		}
	}
	if len(b) != 0 {
		return errors.New("corrupt set in aggregation state")
	}
	s.raw, s.n = raw, int(n-1)
	return nil
}

func skipSetElem[K comparable](b []byte) ([]byte, error) {
	var k K
	switch any(k).(type) {
	case string:
		n, w := binary.Uvarint(b)
		if w <= 0 || uint64(len(b)-w) < n {
			return nil, errTruncated
		}
		return b[w+int(n):], nil
	case bool:
		if len(b) == 0 {
			return nil, errTruncated
		}
		return b[1:], nil
	case uint64, uint32:
		_, w := binary.Uvarint(b)
		if w <= 0 {
			return nil, errTruncated
		}
		return b[w:], nil
	default:
		_, w := binary.Varint(b)
		if w <= 0 {
			return nil, errTruncated
		}
		return b[w:], nil
	}
}

// stateCodec is implemented by run-time types with their own encoding in a
// saved aggregation state (Set).
type stateCodec interface {
	encodeState(e *stateEncoder) error
	decodeState(d *stateDecoder) error
}

// Keys returns the elements, in no particular order.
func (s *Set[K]) Keys() []K {
	out := make([]K, 0, s.Len())
	s.Each(func(k K) { out = append(out, k) })
	return out
}
