// Package parquetio reads and writes Parquet files in pipegen's canonical
// layout for a types.Schema (docs/architecture.md, "Parquet layout").
//
// The canonical layout is the one Spark writes:
//
//   - a nullable column or struct field is OPTIONAL, a NOT NULL one REQUIRED;
//   - ARRAY<T> is a 3-level LIST: `<name> (LIST) { repeated group list { <element> } }`,
//     the element OPTIONAL when the array contains NULL;
//   - MAP<K,V> is `<name> (MAP) { repeated group key_value { required <key>; <value> } }`,
//     the value OPTIONAL when the map's values may be NULL;
//   - STRUCT is a group with the fields in declaration order;
//   - BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, BINARY are the plain physical types;
//     TINYINT and SMALLINT are INT32 annotated INT(8|16, signed); STRING is
//     BYTE_ARRAY annotated STRING (dictionary encoded); DATE is INT32 DATE;
//     TIMESTAMP is INT64 TIMESTAMP(MICROS, isAdjustedToUTC=true) and
//     TIMESTAMP_NTZ the same with isAdjustedToUTC=false; DECIMAL(p,s) is INT32
//     for p <= 9, INT64 for p <= 18, else FIXED_LEN_BYTE_ARRAY of the fewest
//     bytes that hold p digits (Spark's Decimal.minBytesForPrecision).
//     INTERVAL DAY TO SECOND (not storable by Spark) is a plain INT64 of
//     microseconds; VOID is an OPTIONAL INT32 that is always NULL.
//
// A row is a parquet.Row: the values of every leaf column, ordered by leaf
// column index (leaves are numbered depth-first, in field order), each value
// carrying its repetition level, definition level and column index. Leaves
// describes every leaf's levels so that generated code can shred its structs
// into rows; Encode and Decode do the same generically for []any values.
package parquetio

import (
	"fmt"
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding"

	"github.com/pipegen/pipegen/runtime/types"
)

// Leaf describes one leaf column of the canonical layout of a schema.
//
// Levels follow the Dremel encoding of the Parquet format: a value of this
// leaf has definition level MaxDef when it is present, and a lower level d
// when the innermost absent (NULL or empty) ancestor is the node defined at
// level d+1; its repetition level is 0 for the first value of a row and r > 0
// when it starts a new element of the r-th enclosing repeated group (LIST's
// `list`, MAP's `key_value`).
//
// Example: for `items ARRAY<STRUCT<sku: STRING, qty: INT>>` (all nullable)
// the leaves are items.list.element.sku and items.list.element.qty, with
// MaxDef 4 (items=1, list=2, element=3, sku=4) and MaxRep 1. A NULL items is
// one value per leaf with definition level 0, an empty array one value with
// level 1, a NULL element level 2, a NULL sku level 3.
type Leaf struct {
	// Index is the leaf's column index in parquet.Row values, depth-first.
	Index int
	// Path is the Parquet path from the top-level column, e.g.
	// ["items", "list", "element", "sku"].
	Path []string
	// Defs gives, for each element of Path, the definition level at which
	// that node is present: non-NULL for a column, field, element, key or
	// value, and non-empty for a repeated group (`list`, `key_value`). For
	// the example above, [1 2 3 4]; a REQUIRED node repeats its parent's
	// level. A value whose innermost present node is Path[i] has definition
	// level Defs[i]; one whose column is NULL has level 0.
	Defs []int
	// Column is the index of the top-level column in the schema.
	Column int
	// Type is the Spark type of the leaf values.
	Type types.Type
	// Physical is the Parquet physical type of the values (parquet.Int32, ...).
	Physical parquet.Kind
	// MaxDef and MaxRep are the leaf's maximum definition and repetition levels.
	MaxDef, MaxRep int
	// Repeated reports whether the leaf is inside an ARRAY or MAP (MaxRep > 0).
	Repeated bool
	// StatsPath is the path used in Delta statistics (field names only,
	// without LIST/MAP group names); nil for leaves inside an ARRAY or MAP,
	// which Delta statistics do not cover.
	StatsPath []string
}

// node is one node of the canonical layout tree: a column, struct field,
// array element, map key or map value.
type node struct {
	name     string
	typ      types.Type
	optional bool
	// def is the definition level at which this node is non-NULL.
	def int
	// rep is, for ARRAY and MAP, the repetition level of the repeated group
	// and listDef the definition level at which it has at least one element.
	rep, listDef int
	// firstLeaf and numLeaves locate the leaves under this node.
	firstLeaf, numLeaves int
	// children: STRUCT fields; ARRAY [element]; MAP [key, value].
	children []*node
}

// layout is the canonical layout of a schema: the tree and its leaves.
type layout struct {
	schema types.Schema
	roots  []*node
	leaves []Leaf
}

func newLayout(s types.Schema) *layout {
	l := &layout{schema: s}
	for i, f := range s {
		l.roots = append(l.roots, l.build(f.Name, f.Type, f.Nullable, 0, 0, i, nil, nil, []string{f.Name}, true))
	}
	return l
}

func (l *layout) build(name string, t types.Type, optional bool, parentDef, parentRep, column int, path []string, defs []int, statsPath []string, stats bool) *node {
	n := &node{name: name, typ: t, optional: optional, def: parentDef, firstLeaf: len(l.leaves)}
	if optional {
		n.def++
	}
	path = append(path[:len(path):len(path)], name)
	defs = append(defs[:len(defs):len(defs)], n.def)
	switch t.Kind {
	case types.StructKind:
		for _, f := range t.Fields {
			sp := append(statsPath[:len(statsPath):len(statsPath)], f.Name)
			n.children = append(n.children, l.build(f.Name, f.Type, f.Nullable, n.def, parentRep, column, path, defs, sp, stats))
		}
	case types.ArrayKind:
		n.rep, n.listDef = parentRep+1, n.def+1
		lp := append(path[:len(path):len(path)], "list")
		ld := append(defs[:len(defs):len(defs)], n.listDef)
		n.children = []*node{l.build("element", *t.Elem, t.ContainsNull, n.listDef, n.rep, column, lp, ld, nil, false)}
	case types.MapKind:
		n.rep, n.listDef = parentRep+1, n.def+1
		kp := append(path[:len(path):len(path)], "key_value")
		kd := append(defs[:len(defs):len(defs)], n.listDef)
		n.children = []*node{
			l.build("key", *t.Key, false, n.listDef, n.rep, column, kp, kd, nil, false),
			l.build("value", *t.Value, t.ValueContainsNull, n.listDef, n.rep, column, kp, kd, nil, false),
		}
	default:
		leaf := Leaf{
			Index:    len(l.leaves),
			Path:     path,
			Defs:     defs,
			Column:   column,
			Type:     t,
			Physical: physicalKind(t),
			MaxDef:   n.def,
			MaxRep:   parentRep,
			Repeated: parentRep > 0,
		}
		if stats {
			leaf.StatsPath = statsPath
		}
		l.leaves = append(l.leaves, leaf)
	}
	n.numLeaves = len(l.leaves) - n.firstLeaf
	return n
}

// Leaves returns the leaf columns of the canonical layout of s, in column
// index order (depth-first, fields in declaration order).
func Leaves(s types.Schema) []Leaf { return newLayout(s).leaves }

// physicalKind returns the canonical Parquet physical type of a primitive type.
func physicalKind(t types.Type) parquet.Kind {
	switch t.Kind {
	case types.BooleanKind:
		return parquet.Boolean
	case types.ByteKind, types.ShortKind, types.IntKind, types.DateKind, types.VoidKind, types.YearMonthIntervalKind:
		return parquet.Int32
	case types.LongKind, types.TimestampKind, types.TimestampNTZKind, types.IntervalKind:
		return parquet.Int64
	case types.FloatKind:
		return parquet.Float
	case types.DoubleKind:
		return parquet.Double
	case types.DecimalKind:
		switch {
		case t.Precision <= 9:
			return parquet.Int32
		case t.Precision <= 18:
			return parquet.Int64
		}
		return parquet.FixedLenByteArray
	}
	return parquet.ByteArray
}

// SchemaFor returns the canonical Parquet schema of s (see the package
// documentation). Field order is kept, unlike parquet.Group which sorts
// fields by name. The schema's root is named "spark_schema", as Spark names it.
func SchemaFor(s types.Schema) *parquet.Schema {
	fields := make([]parquet.Field, len(s))
	for i, f := range s {
		fields[i] = &field{Node: nodeFor(f.Type, f.Nullable), name: f.Name}
	}
	return parquet.NewSchema("spark_schema", &group{fields: fields})
}

func nodeFor(t types.Type, optional bool) parquet.Node {
	var n parquet.Node
	switch t.Kind {
	case types.BooleanKind:
		n = parquet.Leaf(parquet.BooleanType)
	case types.ByteKind:
		n = parquet.Int(8)
	case types.ShortKind:
		n = parquet.Int(16)
	case types.IntKind, types.VoidKind, types.YearMonthIntervalKind:
		n = parquet.Leaf(parquet.Int32Type)
	case types.LongKind, types.IntervalKind:
		n = parquet.Leaf(parquet.Int64Type)
	case types.FloatKind:
		n = parquet.Leaf(parquet.FloatType)
	case types.DoubleKind:
		n = parquet.Leaf(parquet.DoubleType)
	case types.StringKind:
		n = parquet.Encoded(parquet.String(), &parquet.RLEDictionary)
	case types.BinaryKind:
		n = parquet.Leaf(parquet.ByteArrayType)
	case types.DateKind:
		n = parquet.Date()
	case types.TimestampKind:
		n = parquet.Timestamp(parquet.Microsecond)
	case types.TimestampNTZKind:
		n = localTimestamp{parquet.TimestampAdjusted(parquet.Microsecond, false)}
	case types.DecimalKind:
		var pt parquet.Type
		switch physicalKind(t) {
		case parquet.Int32:
			pt = parquet.Int32Type
		case parquet.Int64:
			pt = parquet.Int64Type
		default:
			pt = parquet.FixedLenByteArrayType(decimalBytes(t.Precision))
		}
		n = parquet.Decimal(t.Scale, t.Precision, pt)
	case types.ArrayKind:
		n = parquet.List(nodeFor(*t.Elem, t.ContainsNull))
	case types.MapKind:
		n = parquet.Map(nodeFor(*t.Key, false), nodeFor(*t.Value, t.ValueContainsNull))
	case types.StructKind:
		fields := make([]parquet.Field, len(t.Fields))
		for i, f := range t.Fields {
			fields[i] = &field{Node: nodeFor(f.Type, f.Nullable), name: f.Name}
		}
		n = &group{fields: fields}
	default:
		panic(fmt.Sprintf("parquetio: no Parquet layout for type %s", t))
	}
	if optional || t.Kind == types.VoidKind {
		return parquet.Optional(n)
	}
	return parquet.Required(n)
}

// localTimestamp is the node of a TIMESTAMP_NTZ column: INT64
// TIMESTAMP(MICROS, isAdjustedToUTC=false) without the legacy converted
// type. parquet-go also writes TIMESTAMP_MICROS, which the Parquet format
// defines as adjusted to UTC (LogicalTypes.md, "Deprecated timestamp
// ConvertedType"): readers that look at it (parquet-mr before 1.11, Spark
// without the logical type) would read local date-times as instants.
type localTimestamp struct{ parquet.Node }

func (n localTimestamp) Type() parquet.Type { return localTimestampType{n.Node.Type()} }

type localTimestampType struct{ parquet.Type }

func (localTimestampType) ConvertedType() *deprecated.ConvertedType { return nil }

// group is a Parquet group node whose fields keep their declaration order.
type group struct{ fields []parquet.Field }

var groupType = parquet.Group{}.Type()

func (g *group) ID() int                           { return 0 }
func (g *group) String() string                    { return fmt.Sprintf("group(%d fields)", len(g.fields)) }
func (g *group) Type() parquet.Type                { return groupType }
func (g *group) Optional() bool                    { return false }
func (g *group) Repeated() bool                    { return false }
func (g *group) Required() bool                    { return true }
func (g *group) Leaf() bool                        { return false }
func (g *group) Fields() []parquet.Field           { return g.fields }
func (g *group) Encoding() encoding.Encoding       { return nil }
func (g *group) Compression() compress.Codec       { return nil }
func (g *group) GoType() reflect.Type              { return reflect.TypeFor[map[string]any]() }
func (f *field) Name() string                      { return f.name }
func (f *field) Value(reflect.Value) reflect.Value { return reflect.Value{} }

// field names a node inside a group.
type field struct {
	parquet.Node
	name string
}
