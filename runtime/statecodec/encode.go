package statecodec

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"reflect"
)

// stateEncoder appends the encoding of values to buf and writes it to w
// in chunks (flush).
type stateEncoder struct {
	w   io.Writer
	buf []byte
	err error
}

// flush writes the buffered bytes once there are enough (or all, at the
// end); a write error is kept and returned at the end.
func (e *stateEncoder) flush(all bool) error {
	if e.err == nil && (all || len(e.buf) >= stateChunk) {
		_, e.err = e.w.Write(e.buf)
		e.buf = e.buf[:0]
	}
	return e.err
}

func (e *stateEncoder) uvarint(x uint64) { e.buf = binary.AppendUvarint(e.buf, x) }

// fastEncode encodes the shapes of DISTINCT aggregates (a set of strings
// and the strings in order) without reflection per element.
func (e *stateEncoder) fastEncode(v reflect.Value) bool {
	if !v.CanInterface() {
		return false
	}
	switch x := v.Interface().(type) {
	case map[string]struct{}:
		if x == nil {
			e.uvarint(0)
			return true
		}
		e.uvarint(uint64(len(x)) + 1)
		for k := range x {
			e.uvarint(uint64(len(k)))
			e.buf = append(e.buf, k...)
			e.flush(false)
		}
		return true
	case []string:
		if x == nil {
			e.uvarint(0)
			return true
		}
		e.uvarint(uint64(len(x)) + 1)
		for _, k := range x {
			e.uvarint(uint64(len(k)))
			e.buf = append(e.buf, k...)
			e.flush(false)
		}
		return true
	}
	return false
}

func (e *stateEncoder) value(v reflect.Value) error {
	if v.CanAddr() && v.Addr().CanInterface() {
		if c, ok := v.Addr().Interface().(stateCodec); ok {
			return c.encodeState(e)
		}
	}
	if e.fastEncode(v) {
		return nil
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			e.buf = append(e.buf, 1)
		} else {
			e.buf = append(e.buf, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = binary.AppendVarint(e.buf, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.uvarint(v.Uint())
	case reflect.Float32, reflect.Float64:
		e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(v.Float()))
	case reflect.String:
		s := v.String()
		e.uvarint(uint64(len(s)))
		e.buf = append(e.buf, s...)
	case reflect.Slice:
		if v.IsNil() {
			e.uvarint(0)
			return nil
		}
		e.uvarint(uint64(v.Len()) + 1)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			e.buf = append(e.buf, v.Bytes()...)
			return nil
		}
		for i := 0; i < v.Len(); i++ {
			if err := e.value(v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if err := e.value(v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if v.IsNil() {
			e.uvarint(0)
			return nil
		}
		e.uvarint(uint64(v.Len()) + 1)
		it := v.MapRange()
		for it.Next() {
			if err := e.value(it.Key()); err != nil {
				return err
			}
			if err := e.value(it.Value()); err != nil {
				return err
			}
			if err := e.flush(false); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if v.CanAddr() {
				f = settable(f) // not read-only, so fastEncode applies below
			}
			if err := e.value(f); err != nil {
				return err
			}
		}
	case reflect.Pointer:
		if v.IsNil() {
			e.buf = append(e.buf, 0)
			return nil
		}
		e.buf = append(e.buf, 1)
		return e.value(v.Elem())
	default:
		return fmt.Errorf("cannot encode a %s", v.Type())
	}
	return nil
}
