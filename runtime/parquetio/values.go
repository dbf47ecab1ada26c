package parquetio

import (
	"fmt"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/types"
)

// Generic values. Decode and Encode represent a column value as a Go value
// chosen by its Spark type (docs/architecture.md, "Values at run time"):
//
//	NULL            nil
//	BOOLEAN         bool
//	TINYINT..BIGINT int8, int16, int32, int64
//	FLOAT, DOUBLE   float32, float64
//	DECIMAL(p,s)    types.Decimal (unscaled; the scale is the type's)
//	STRING          string
//	BINARY          []byte
//	DATE            types.Date
//	TIMESTAMP(_NTZ) types.Timestamp
//	INTERVAL        types.Interval
//	ARRAY<T>        []any
//	MAP<K,V>        []MapEntry (file order kept)
//	STRUCT<...>     Struct (field values in declaration order)

// MapEntry is one key/value pair of a MAP value.
type MapEntry struct {
	Key, Value any
}

// Struct is a STRUCT value: its field values in the order of the type's
// fields.
type Struct []any

// Encoder shreds generic values into canonical rows of one schema. An
// Encoder is not safe for concurrent use; make one per goroutine.
type Encoder struct {
	l    *layout
	cols [][]parquet.Value
}

// NewEncoder returns an Encoder for the canonical layout of s.
func NewEncoder(s types.Schema) *Encoder {
	l := newLayout(s)
	return &Encoder{l: l, cols: make([][]parquet.Value, len(l.leaves))}
}

// Append shreds values (one per column of the schema, see "Generic values")
// and appends the resulting row's values to row. It fails, naming the
// column, when a value does not match its type or a NOT NULL value is nil.
func (e *Encoder) Append(row parquet.Row, values []any) (parquet.Row, error) {
	if len(values) != len(e.l.roots) {
		return row, fmt.Errorf("encode: %d values for %d columns", len(values), len(e.l.roots))
	}
	for i := range e.cols {
		e.cols[i] = e.cols[i][:0]
	}
	for i, n := range e.l.roots {
		if err := e.shred(n, values[i], 0); err != nil {
			return row, fmt.Errorf("column %s: %w", n.name, err)
		}
	}
	for _, c := range e.cols {
		row = append(row, c...)
	}
	return row, nil
}

// Encode shreds one row of values for schema s; see Encoder.Append.
func Encode(values []any, s types.Schema) (parquet.Row, error) {
	return NewEncoder(s).Append(nil, values)
}

func (e *Encoder) nulls(n *node, rep, def int) {
	for c := n.firstLeaf; c < n.firstLeaf+n.numLeaves; c++ {
		e.cols[c] = append(e.cols[c], parquet.NullValue().Level(rep, def, c))
	}
}

func (e *Encoder) shred(n *node, v any, rep int) error {
	if v == nil {
		if !n.optional && n.typ.Kind != types.VoidKind {
			return fmt.Errorf("NULL in a NOT NULL %s", n.typ)
		}
		e.nulls(n, rep, n.def-1)
		return nil
	}
	switch n.typ.Kind {
	case types.StructKind:
		s, ok := v.(Struct)
		if !ok || len(s) != len(n.children) {
			return fmt.Errorf("want a Struct of %d fields for %s, got %T", len(n.children), n.typ, v)
		}
		for i, c := range n.children {
			if err := e.shred(c, s[i], rep); err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
		}
		return nil
	case types.ArrayKind:
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want []any for %s, got %T", n.typ, v)
		}
		if len(list) == 0 {
			e.nulls(n, rep, n.def)
			return nil
		}
		for i, x := range list {
			if i > 0 {
				rep = n.rep
			}
			if err := e.shred(n.children[0], x, rep); err != nil {
				return fmt.Errorf("element %d: %w", i, err)
			}
		}
		return nil
	case types.MapKind:
		entries, ok := v.([]MapEntry)
		if !ok {
			return fmt.Errorf("want []MapEntry for %s, got %T", n.typ, v)
		}
		if len(entries) == 0 {
			e.nulls(n, rep, n.def)
			return nil
		}
		for i, x := range entries {
			if i > 0 {
				rep = n.rep
			}
			if x.Key == nil {
				return fmt.Errorf("NULL map key")
			}
			if err := e.shred(n.children[0], x.Key, rep); err != nil {
				return fmt.Errorf("key: %w", err)
			}
			if err := e.shred(n.children[1], x.Value, rep); err != nil {
				return fmt.Errorf("value: %w", err)
			}
		}
		return nil
	}
	pv, err := leafValue(v, n.typ)
	if err != nil {
		return err
	}
	c := n.firstLeaf
	e.cols[c] = append(e.cols[c], pv.Level(rep, n.def, c))
	return nil
}

// leafValue returns the canonical Parquet value of a primitive Go value.
func leafValue(v any, t types.Type) (parquet.Value, error) {
	switch t.Kind {
	case types.BooleanKind:
		if x, ok := v.(bool); ok {
			return parquet.BooleanValue(x), nil
		}
	case types.ByteKind:
		if x, ok := v.(int8); ok {
			return parquet.Int32Value(int32(x)), nil
		}
	case types.ShortKind:
		if x, ok := v.(int16); ok {
			return parquet.Int32Value(int32(x)), nil
		}
	case types.IntKind:
		if x, ok := v.(int32); ok {
			return parquet.Int32Value(x), nil
		}
	case types.LongKind:
		if x, ok := v.(int64); ok {
			return parquet.Int64Value(x), nil
		}
	case types.FloatKind:
		if x, ok := v.(float32); ok {
			return parquet.FloatValue(x), nil
		}
	case types.DoubleKind:
		if x, ok := v.(float64); ok {
			return parquet.DoubleValue(x), nil
		}
	case types.StringKind:
		if x, ok := v.(string); ok {
			return parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(x), len(x))), nil
		}
	case types.BinaryKind:
		if x, ok := v.([]byte); ok {
			return parquet.ByteArrayValue(x), nil
		}
	case types.DateKind:
		if x, ok := v.(types.Date); ok {
			return parquet.Int32Value(int32(x)), nil
		}
	case types.TimestampKind, types.TimestampNTZKind:
		if x, ok := v.(types.Timestamp); ok {
			return parquet.Int64Value(int64(x)), nil
		}
	case types.IntervalKind:
		if x, ok := v.(types.Interval); ok {
			return parquet.Int64Value(int64(x)), nil
		}
	case types.YearMonthIntervalKind:
		if x, ok := v.(types.YearMonthInterval); ok {
			return parquet.Int32Value(int32(x)), nil
		}
	case types.DecimalKind:
		if x, ok := v.(types.Decimal); ok {
			return decimalValue(x, t)
		}
	}
	return parquet.Value{}, fmt.Errorf("value %v of Go type %T does not represent %s", v, v, t)
}

func decimalValue(d types.Decimal, t types.Type) (parquet.Value, error) {
	switch physicalKind(t) {
	case parquet.Int32:
		if !d.IsInt64() || d.Int64() != int64(int32(d.Int64())) {
			return parquet.Value{}, fmt.Errorf("decimal %s does not fit %s", d.Format(t.Scale), t)
		}
		return parquet.Int32Value(int32(d.Int64())), nil
	case parquet.Int64:
		if !d.IsInt64() {
			return parquet.Value{}, fmt.Errorf("decimal %s does not fit %s", d.Format(t.Scale), t)
		}
		return parquet.Int64Value(d.Int64()), nil
	}
	return parquet.FixedLenByteArrayValue(d.AppendBytes(nil, decimalBytes(t.Precision))), nil
}

// canonicalConv returns the decoder of a canonical leaf value of type t.
func canonicalConv(t types.Type) func(parquet.Value) (any, error) {
	switch t.Kind {
	case types.BooleanKind:
		return func(v parquet.Value) (any, error) { return v.Boolean(), nil }
	case types.ByteKind:
		return func(v parquet.Value) (any, error) { return int8(v.Int32()), nil }
	case types.ShortKind:
		return func(v parquet.Value) (any, error) { return int16(v.Int32()), nil }
	case types.IntKind:
		return func(v parquet.Value) (any, error) { return v.Int32(), nil }
	case types.LongKind:
		return func(v parquet.Value) (any, error) { return v.Int64(), nil }
	case types.FloatKind:
		return func(v parquet.Value) (any, error) { return v.Float(), nil }
	case types.DoubleKind:
		return func(v parquet.Value) (any, error) { return v.Double(), nil }
	case types.StringKind:
		return func(v parquet.Value) (any, error) { return string(v.ByteArray()), nil }
	case types.BinaryKind:
		return func(v parquet.Value) (any, error) { return append([]byte{}, v.ByteArray()...), nil }
	case types.DateKind:
		return func(v parquet.Value) (any, error) { return types.Date(v.Int32()), nil }
	case types.TimestampKind, types.TimestampNTZKind:
		return func(v parquet.Value) (any, error) { return types.Timestamp(v.Int64()), nil }
	case types.IntervalKind:
		return func(v parquet.Value) (any, error) { return types.Interval(v.Int64()), nil }
	case types.YearMonthIntervalKind:
		return func(v parquet.Value) (any, error) { return types.YearMonthInterval(v.Int32()), nil }
	case types.DecimalKind:
		switch physicalKind(t) {
		case parquet.Int32:
			return func(v parquet.Value) (any, error) { return types.DecimalFromInt64(int64(v.Int32())), nil }
		case parquet.Int64:
			return func(v parquet.Value) (any, error) { return types.DecimalFromInt64(v.Int64()), nil }
		}
		return func(v parquet.Value) (any, error) { return decFromBytes(v.ByteArray()) }
	}
	return func(parquet.Value) (any, error) { return nil, nil }
}

// canonicalPlan returns the assembly plan of the canonical layout of n.
func canonicalPlan(n *node, path string) *rnode {
	if path != "" {
		path += "."
	}
	path += n.name
	r := &rnode{name: path, optional: n.optional || n.typ.Kind == types.VoidKind, def: n.def, rep: n.rep, listDef: n.listDef, first: n.firstLeaf, n: n.numLeaves}
	switch n.typ.Kind {
	case types.StructKind:
		r.kind = rStruct
		for i, c := range n.children {
			r.children = append(r.children, canonicalPlan(c, path))
			r.out = append(r.out, i)
		}
	case types.ArrayKind:
		r.kind = rList
		r.children = []*rnode{canonicalPlan(n.children[0], path)}
	case types.MapKind:
		r.kind = rMap
		r.children = []*rnode{canonicalPlan(n.children[0], path), canonicalPlan(n.children[1], path)}
	default:
		r.kind = rLeaf
		r.conv = canonicalConv(n.typ)
	}
	return r
}

// Decoder assembles canonical rows of one schema into generic values. A
// Decoder is not safe for concurrent use.
type Decoder struct {
	root    *rnode
	numCols int
	asm     assembler
}

// NewDecoder returns a Decoder for rows in the canonical layout of s.
func NewDecoder(s types.Schema) *Decoder {
	l := newLayout(s)
	root := &rnode{kind: rStruct, name: "", n: len(l.leaves)}
	for i, n := range l.roots {
		root.children = append(root.children, canonicalPlan(n, ""))
		root.out = append(root.out, i)
	}
	return &Decoder{root: root, numCols: len(l.leaves)}
}

// Decode returns the values of row, one per column (see "Generic values").
// It fails when the row is not in the schema's canonical layout.
func (d *Decoder) Decode(row parquet.Row) (out []any, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("decode: row not in the schema's canonical layout: %v", p)
		}
	}()
	if err := d.asm.reset(row, d.numCols); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	s, err := d.asm.readStruct(d.root)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return s, nil
}

// Decode returns the values of a canonical row of schema s; see
// Decoder.Decode.
func Decode(row parquet.Row, s types.Schema) ([]any, error) {
	return NewDecoder(s).Decode(row)
}
