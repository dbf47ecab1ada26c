package statecodec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"unsafe"
)

// stateDecoder decodes values from the front of buf, consuming it.
type stateDecoder struct{ buf []byte }

// errTruncated is the error of a state that ends inside a value.
var errTruncated = errors.New("truncated aggregation state")

func (d *stateDecoder) uvarint() (uint64, error) {
	x, n := binary.Uvarint(d.buf)
	if n <= 0 {
		return 0, errTruncated
	}
	d.buf = d.buf[n:]
	return x, nil
}

func (d *stateDecoder) take(n uint64) ([]byte, error) {
	if uint64(len(d.buf)) < n {
		return nil, errTruncated
	}
	b := d.buf[:n]
	d.buf = d.buf[n:]
	return b, nil
}

// settable returns v, or a settable alias of it when it is an unexported
// field (v must be addressable).
func settable(v reflect.Value) reflect.Value {
	if v.CanSet() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// strings decodes a count-prefixed list of strings, calling add for each;
// it returns false for a nil list.
func (d *stateDecoder) strings(add func(n int, s string)) (bool, error) {
	n, err := d.uvarint()
	if err != nil || n == 0 {
		return false, err
	}
	n--
	if n > uint64(len(d.buf)) {
		return false, errTruncated
	}
	for i := 0; i < int(n); i++ {
		l, err := d.uvarint()
		if err != nil {
			return false, err
		}
		b, err := d.take(l)
		if err != nil {
			return false, err
		}
		add(int(n), string(b))
	}
	return true, nil
}

// fastDecode is fastEncode's inverse.
func (d *stateDecoder) fastDecode(v reflect.Value) (bool, error) {
	if !v.CanAddr() {
		return false, nil
	}
	switch p := v.Addr().Interface().(type) {
	case *map[string]struct{}:
		var m map[string]struct{}
		ok, err := d.strings(func(n int, s string) {
			if m == nil {
				m = make(map[string]struct{}, n)
			}
			m[s] = struct{}{}
		})
		if ok && m == nil {
			m = map[string]struct{}{}
		}
		*p = m
		return true, err
	case *[]string:
		var out []string
		ok, err := d.strings(func(n int, s string) {
			if out == nil {
				out = make([]string, 0, n)
			}
			out = append(out, s)
		})
		if ok && out == nil {
			out = []string{}
		}
		*p = out
		return true, err
	}
	return false, nil
}

func (d *stateDecoder) value(v reflect.Value) error {
	v = settable(v)
	if c, ok := v.Addr().Interface().(stateCodec); ok {
		return c.decodeState(d)
	}
	if ok, err := d.fastDecode(v); ok || err != nil {
		return err
	}
	switch v.Kind() {
	case reflect.Bool:
		b, err := d.take(1)
		if err != nil {
			return err
		}
		v.SetBool(b[0] == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, n := binary.Varint(d.buf)
		if n <= 0 {
			return errTruncated
		}
		d.buf = d.buf[n:]
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x, err := d.uvarint()
		if err != nil {
			return err
		}
		v.SetUint(x)
	case reflect.Float32, reflect.Float64:
		b, err := d.take(8)
		if err != nil {
			return err
		}
		v.SetFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)))
	case reflect.String:
		n, err := d.uvarint()
		if err != nil {
			return err
		}
		b, err := d.take(n)
		if err != nil {
			return err
		}
		v.SetString(string(b))
	case reflect.Slice:
		n, err := d.uvarint()
		if err != nil || n == 0 {
			return err
		}
		n--
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b, err := d.take(n)
			if err != nil {
				return err
			}
			v.SetBytes(append([]byte(nil), b...))
			return nil
		}
		if n > uint64(len(d.buf)) {
			return errTruncated
		}
		s := reflect.MakeSlice(v.Type(), int(n), int(n))
		for i := 0; i < int(n); i++ {
			if err := d.value(s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if err := d.value(v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		n, err := d.uvarint()
		if err != nil || n == 0 {
			return err
		}
		n--
		if n > uint64(len(d.buf)) {
			return errTruncated
		}
		m := reflect.MakeMapWithSize(v.Type(), int(n))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		for i := uint64(0); i < n; i++ {
			k.SetZero()
			e.SetZero()
			if err := d.value(k); err != nil {
				return err
			}
			if err := d.value(e); err != nil {
				return err
			}
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if err := d.value(v.Field(i)); err != nil {
				return err
			}
		}
	case reflect.Pointer:
		b, err := d.take(1)
		if err != nil {
			return err
		}
		if b[0] == 0 {
			v.SetZero()
			return nil
		}
		p := reflect.New(v.Type().Elem())
		if err := d.value(p.Elem()); err != nil {
			return err
		}
		v.Set(p)
	default:
		return fmt.Errorf("cannot decode a %s", v.Type())
	}
	return nil
}
