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
//   - Set: its own encoding (see Set.encodeState)
//
// Checkpoints on disk hold these bytes: the encoding of a type never
// changes (testdata/*.golden, TestStateGolden).
package statecodec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
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
