// Package statecodec encodes the state a flow keeps in its checkpoint
// between updates: the aggregation state of a materialized view refreshed
// with GROUP_AGGREGATE (checkpoints/<flow>/aggstate-N.bin) and the
// operator state of a stateful streaming flow (the body of
// checkpoints/<flow>/state/N.bin). That state is the generated code's hash
// table itself (group key → accumulators, and the keys in order of first
// appearance), encoded by reflection over the generated types — booleans,
// numbers, strings, slices, arrays, maps, structs (unexported fields
// included) and pointers — in a compact binary form preceded by a
// description of the type, so that state written for another definition
// is refused rather than misread.
//
// The encoding of *v is uvarint(len(sig)), sig (the type signature: kinds
// and field names, not the names of the generated types, which may differ
// between builds of the same definition), then the value:
//
//   - bool: one byte, 0 or 1
//   - signed integers: varint; unsigned integers: uvarint (whatever their width)
//   - floats: the 8 bytes of the float64, little-endian (whatever their width)
//   - string: uvarint(len), the bytes
//   - slice, map: uvarint(0) when nil, else uvarint(len+1) then the
//     elements (a []byte's bytes as they are; a map's key then value of
//     each entry, in no particular order)
//   - array: the elements; struct: the fields in order
//   - pointer: 0 when nil, else 1 then the value
//   - Set of string, int8 to int64, uint32, uint64, bool, DATE or
//     TIMESTAMP: uvarint(0) when empty, else uvarint(n+1), uvarint(len(body)),
//     then body, its n elements in the forms above, in no particular order;
//     a Set of other elements (DECIMAL, STRUCT): its map m, as a map
//
// Checkpoints on disk hold these bytes: the encoding of a type never
// changes (testdata/*.golden, TestStateGolden).
package statecodec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"strings"
	"unsafe"
)

// ErrDamaged marks a saved aggregation state that cannot be decoded. The
// runtime wraps Decode's error with it (runtime.SeedAggregate), and a
// refresh that fails with it is recomputed instead.
var ErrDamaged = errors.New("the saved aggregation state is damaged")

// Encode returns the encoding of *v; v must be a non-nil pointer to a
// value of the kinds the package doc lists (an error names another kind).
func Encode(v any) ([]byte, error) {
	var b bytes.Buffer
	err := Write(&b, v)
	return b.Bytes(), err
}

// Write encodes *v to w, as Encode, in chunks of about a megabyte (a state
// may hold millions of values: it is never built whole in memory). It
// returns w's first write error.
func Write(w io.Writer, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("want a non-nil pointer")
	}
	e := &stateEncoder{w: w, buf: make([]byte, 0, stateChunk+4096)}
	sig := typeSignature(rv.Elem().Type())
	e.uvarint(uint64(len(sig)))
	e.buf = append(e.buf, sig...)
	if err := e.value(rv.Elem()); err != nil {
		return err
	}
	return e.flush(true)
}

// stateChunk is how many encoded bytes the encoder buffers before writing.
const stateChunk = 1 << 20

// Decode decodes data, written by Encode or Write, into *v, whose type must
// be the encoded one: state saved for another type is an error "saved for
// another definition (SIG, want SIG)"; truncated or trailing bytes are
// errors too. v must be a non-nil pointer.
func Decode(data []byte, v any) error { return DecodeAs(data, v, false) }

// DecodeAs decodes data into *v as Decode; with widened, the encoded type
// may also be *v's with narrower numbers (int8, int16, int32 for a wider
// integer, float32 for float64), which decode into the wider ones
// unchanged: integers are varints and floats 64-bit whatever their width,
// so the upcast is lossless. The caller has checked that the narrower
// numbers are values of widened columns (runtime.StateWidening), not
// numbers that mean something else in another type (a DATE's days).
func DecodeAs(data []byte, v any, widened bool) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("want a non-nil pointer")
	}
	d := &stateDecoder{buf: data}
	n, err := d.uvarint()
	if err != nil {
		return err
	}
	if uint64(len(d.buf)) < n {
		return errors.New("truncated")
	}
	if got, want := string(d.buf[:n]), typeSignature(rv.Elem().Type()); got != want && !(widened && sigWidens(got, want)) {
		return fmt.Errorf("saved for another definition (%s, want %s)", got, want)
	}
	d.buf = d.buf[n:]
	if err := d.value(rv.Elem()); err != nil {
		return err
	}
	if len(d.buf) != 0 {
		return errors.New("trailing bytes")
	}
	return nil
}

// typeSignature describes a type's layout (kinds, field names, element
// types), without the names of the generated types, which may differ
// between builds of the same definition.
func typeSignature(t reflect.Type) string {
	var b strings.Builder
	var walk func(t reflect.Type, depth int)
	walk = func(t reflect.Type, depth int) {
		if depth > 20 {
			b.WriteString("…")
			return
		}
		switch t.Kind() {
		case reflect.Struct:
			b.WriteString("{")
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				b.WriteString(f.Name + ":")
				walk(f.Type, depth+1)
				b.WriteString(";")
			}
			b.WriteString("}")
		case reflect.Slice:
			b.WriteString("[]")
			walk(t.Elem(), depth+1)
		case reflect.Array:
			fmt.Fprintf(&b, "[%d]", t.Len())
			walk(t.Elem(), depth+1)
		case reflect.Pointer:
			b.WriteString("*")
			walk(t.Elem(), depth+1)
		case reflect.Map:
			b.WriteString("map[")
			walk(t.Key(), depth+1)
			b.WriteString("]")
			walk(t.Elem(), depth+1)
		default:
			b.WriteString(t.Kind().String())
		}
	}
	walk(t, 0)
	return b.String()
}

// sigWidens reports whether the type signature got is want with some of
// its numbers narrower: each word of got is want's or a narrower integer
// (int8, int16, int32 for a wider one) or float32 for float64.
func sigWidens(got, want string) bool {
	g, w := sigWord.FindAllString(got, -1), sigWord.FindAllString(want, -1)
	if len(g) != len(w) {
		return false
	}
	rank := map[string]int{"int8": 1, "int16": 2, "int32": 3, "int64": 4}
	for i := range g {
		switch {
		case g[i] == w[i]:
		case rank[g[i]] > 0 && rank[g[i]] < rank[w[i]]:
		case g[i] == "float32" && w[i] == "float64":
		default:
			return false
		}
	}
	return true
}

// sigWord splits a type signature into kinds, field names and punctuation.
var sigWord = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*|[^A-Za-z_]`)

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
