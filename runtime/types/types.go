// Package types is pipegen's model of Spark SQL data types and of the Go
// values that represent them at run time.
//
// It is shared by the compiler (spec/sql type-checks queries with it) and by
// the runtime (Delta schemas, Parquet layouts, decoders), so that both sides
// agree on one description of every column. The type names, the DDL spelling
// and the JSON form follow Spark SQL's DataType
// (https://spark.apache.org/docs/latest/sql-ref-datatypes.html) and the Delta
// protocol's schema serialization ("Schema Serialization Format").
package types

import (
	"fmt"
	"strings"
)

// Kind enumerates the Spark SQL data types pipegen supports.
type Kind uint8

// The kinds, in Spark's order of numeric precedence where it matters: the
// integral kinds, then FLOAT and DOUBLE, widen in this order.
const (
	InvalidKind      Kind = iota
	VoidKind              // the type of the NULL literal (Spark's NullType, spelled VOID)
	BooleanKind           // BOOLEAN
	ByteKind              // TINYINT, Go int8
	ShortKind             // SMALLINT, Go int16
	IntKind               // INT, Go int32
	LongKind              // BIGINT, Go int64
	FloatKind             // FLOAT, Go float32
	DoubleKind            // DOUBLE, Go float64
	DecimalKind           // DECIMAL(p,s), Go Decimal (128-bit unscaled value)
	StringKind            // STRING, Go string
	BinaryKind            // BINARY, Go []byte
	DateKind              // DATE, Go Date (days since 1970-01-01)
	TimestampKind         // TIMESTAMP, Go Timestamp (microseconds since the epoch, UTC)
	TimestampNTZKind      // TIMESTAMP_NTZ, Go Timestamp (microseconds, no time zone)
	IntervalKind          // INTERVAL DAY TO SECOND, Go Interval (microseconds)
	ArrayKind             // ARRAY<elem>
	MapKind               // MAP<key, value>
	StructKind            // STRUCT<name: type, ...>
	// YearMonthIntervalKind is INTERVAL YEAR TO MONTH (and INTERVAL YEAR,
	// INTERVAL MONTH), Go YearMonthInterval (a number of months). It comes
	// last so that the numbers of the kinds before it stay as they were.
	YearMonthIntervalKind
)

var kindNames = [...]string{
	InvalidKind:      "INVALID",
	VoidKind:         "VOID",
	BooleanKind:      "BOOLEAN",
	ByteKind:         "TINYINT",
	ShortKind:        "SMALLINT",
	IntKind:          "INT",
	LongKind:         "BIGINT",
	FloatKind:        "FLOAT",
	DoubleKind:       "DOUBLE",
	DecimalKind:      "DECIMAL",
	StringKind:       "STRING",
	BinaryKind:       "BINARY",
	DateKind:         "DATE",
	TimestampKind:    "TIMESTAMP",
	TimestampNTZKind: "TIMESTAMP_NTZ",
	IntervalKind:     "INTERVAL DAY TO SECOND",
	ArrayKind:        "ARRAY",
	MapKind:          "MAP",
	StructKind:       "STRUCT",

	YearMonthIntervalKind: "INTERVAL YEAR TO MONTH",
}

// String returns the kind's Spark SQL name, e.g. "BIGINT".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// MaxDecimalPrecision is the largest DECIMAL precision Spark supports (38).
const MaxDecimalPrecision = 38

// Type is a Spark SQL data type. Types are immutable values once built; the
// nested kinds hold pointers to their parts. The zero Type is Invalid.
//
// Nullability of nested parts lives in the type (ContainsNull for array
// elements, ValueContainsNull for map values, Field.Nullable for struct
// fields), as in Spark; the nullability of a top-level column lives in its
// Field.
type Type struct {
	Kind Kind
	// Precision and Scale of a DECIMAL: 1 <= Precision <= 38, 0 <= Scale <= Precision.
	Precision, Scale int
	// Elem is the element type of an ARRAY.
	Elem *Type
	// ContainsNull reports whether an ARRAY's elements may be NULL.
	ContainsNull bool
	// Key and Value are the key and value types of a MAP. Keys are never NULL.
	Key, Value *Type
	// ValueContainsNull reports whether a MAP's values may be NULL.
	ValueContainsNull bool
	// Fields are the fields of a STRUCT, in order.
	Fields []Field
	// Days marks an INTERVAL DAY TO SECOND of whole days, Spark's
	// INTERVAL DAY (DayTimeIntervalType(DAY, DAY): a literal of days or
	// weeks, a DATE minus a DATE): a DATE plus or minus it is a DATE
	// (date_add). It is a property of the value, not of the type's
	// identity: Equal ignores it.
	Days bool
}

// Field is a named, typed column or struct field.
type Field struct {
	Name     string
	Type     Type
	Nullable bool
	// Comment is the column comment (Delta stores it in the field metadata).
	Comment string
}

// Primitive types, ready to use.
var (
	VoidType         = Type{Kind: VoidKind}
	BooleanType      = Type{Kind: BooleanKind}
	ByteType         = Type{Kind: ByteKind}
	ShortType        = Type{Kind: ShortKind}
	IntType          = Type{Kind: IntKind}
	LongType         = Type{Kind: LongKind}
	FloatType        = Type{Kind: FloatKind}
	DoubleType       = Type{Kind: DoubleKind}
	StringType       = Type{Kind: StringKind}
	BinaryType       = Type{Kind: BinaryKind}
	DateType         = Type{Kind: DateKind}
	TimestampType    = Type{Kind: TimestampKind}
	TimestampNTZType = Type{Kind: TimestampNTZKind}
	IntervalType     = Type{Kind: IntervalKind}
	// DayIntervalType is INTERVAL DAY TO SECOND of whole days (see Type.Days).
	DayIntervalType = Type{Kind: IntervalKind, Days: true}
	// YearMonthIntervalType is INTERVAL YEAR TO MONTH.
	YearMonthIntervalType = Type{Kind: YearMonthIntervalKind}
)

// DecimalOf returns DECIMAL(precision, scale).
func DecimalOf(precision, scale int) Type {
	return Type{Kind: DecimalKind, Precision: precision, Scale: scale}
}

// ArrayOf returns ARRAY<elem>; containsNull says whether elements may be NULL.
func ArrayOf(elem Type, containsNull bool) Type {
	return Type{Kind: ArrayKind, Elem: &elem, ContainsNull: containsNull}
}

// MapOf returns MAP<key, value>; valueContainsNull says whether values may be NULL.
func MapOf(key, value Type, valueContainsNull bool) Type {
	return Type{Kind: MapKind, Key: &key, Value: &value, ValueContainsNull: valueContainsNull}
}

// StructOf returns STRUCT<fields...>.
func StructOf(fields ...Field) Type {
	return Type{Kind: StructKind, Fields: fields}
}

// IsNumeric reports whether t is an integral, floating-point or DECIMAL type.
func (t Type) IsNumeric() bool {
	switch t.Kind {
	case ByteKind, ShortKind, IntKind, LongKind, FloatKind, DoubleKind, DecimalKind:
		return true
	}
	return false
}

// IsIntegral reports whether t is TINYINT, SMALLINT, INT or BIGINT.
func (t Type) IsIntegral() bool {
	switch t.Kind {
	case ByteKind, ShortKind, IntKind, LongKind:
		return true
	}
	return false
}

// IsFloating reports whether t is FLOAT or DOUBLE.
func (t Type) IsFloating() bool { return t.Kind == FloatKind || t.Kind == DoubleKind }

// IsInterval reports whether t is an ANSI interval: INTERVAL DAY TO SECOND
// or INTERVAL YEAR TO MONTH.
func (t Type) IsInterval() bool { return t.Kind == IntervalKind || t.Kind == YearMonthIntervalKind }

// IsNested reports whether t is an ARRAY, MAP or STRUCT.
func (t Type) IsNested() bool {
	return t.Kind == ArrayKind || t.Kind == MapKind || t.Kind == StructKind
}

// Equal reports whether t and u are the same type, nested nullability and
// field names included (field comments are ignored).
func (t Type) Equal(u Type) bool { return t.equal(u, true) }

// EqualIgnoringNullability is Equal without comparing the nullability of
// nested parts, with field names matched case-insensitively; Spark
// compares types this way when it checks that a query fits a declared
// schema.
func (t Type) EqualIgnoringNullability(u Type) bool { return t.equal(u, false) }

// equal is Equal when strict, else EqualIgnoringNullability.
func (t Type) equal(u Type, strict bool) bool {
	if t.Kind != u.Kind {
		return false
	}
	switch t.Kind {
	case DecimalKind:
		return t.Precision == u.Precision && t.Scale == u.Scale
	case ArrayKind:
		return (!strict || t.ContainsNull == u.ContainsNull) && t.Elem.equal(*u.Elem, strict)
	case MapKind:
		return (!strict || t.ValueContainsNull == u.ValueContainsNull) && t.Key.equal(*u.Key, strict) && t.Value.equal(*u.Value, strict)
	case StructKind:
		if len(t.Fields) != len(u.Fields) {
			return false
		}
		for i := range t.Fields {
			f, g := t.Fields[i], u.Fields[i]
			sameName := f.Name == g.Name || !strict && strings.EqualFold(f.Name, g.Name)
			if !sameName || strict && f.Nullable != g.Nullable || !f.Type.equal(g.Type, strict) {
				return false
			}
		}
		return true
	}
	return true
}

// FieldIndex returns the index of the STRUCT field named name, matched
// case-insensitively as Spark does by default, or -1.
func (t Type) FieldIndex(name string) int {
	for i, f := range t.Fields {
		if f.Name == name {
			return i
		}
	}
	for i, f := range t.Fields {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// String returns the type in Spark SQL DDL form, e.g. "DECIMAL(12,2)" or
// "ARRAY<STRUCT<sku: STRING, qty: INT>>". NOT NULL is written for struct
// fields that are not nullable, so String and the DDL parser round-trip.
func (t Type) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t Type) write(b *strings.Builder) {
	switch t.Kind {
	case DecimalKind:
		fmt.Fprintf(b, "DECIMAL(%d,%d)", t.Precision, t.Scale)
	case ArrayKind:
		b.WriteString("ARRAY<")
		t.Elem.write(b)
		b.WriteByte('>')
	case MapKind:
		b.WriteString("MAP<")
		t.Key.write(b)
		b.WriteString(", ")
		t.Value.write(b)
		b.WriteByte('>')
	case StructKind:
		b.WriteString("STRUCT<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteIdent(f.Name))
			b.WriteString(": ")
			f.Type.write(b)
			if !f.Nullable {
				b.WriteString(" NOT NULL")
			}
		}
		b.WriteByte('>')
	default:
		b.WriteString(t.Kind.String())
	}
}

// QuoteIdent returns name as a Spark SQL identifier: unchanged when it is a
// plain identifier, otherwise in backquotes with inner backquotes doubled.
func QuoteIdent(name string) string {
	plain := name != ""
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// Schema is an ordered list of top-level columns: a table's or a query's
// output. It is what Delta stores (as a struct type) in metaData.schemaString.
type Schema []Field

// Index returns the index of the column named name (case-insensitive, as
// Spark resolves column names by default), or -1.
func (s Schema) Index(name string) int {
	return StructOf(s...).FieldIndex(name)
}

// String returns the schema in DDL form: "a INT NOT NULL, b STRING".
func (s Schema) String() string {
	var b strings.Builder
	for i, f := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(QuoteIdent(f.Name))
		b.WriteByte(' ')
		f.Type.write(&b)
		if !f.Nullable {
			b.WriteString(" NOT NULL")
		}
	}
	return b.String()
}

// AsNullable returns t with every nested part nullable: array elements, map
// values and struct fields (Spark's DataType.asNullable). File sources read
// their declared schema this way, as Spark's file data sources do.
func (t Type) AsNullable() Type {
	switch t.Kind {
	case ArrayKind:
		return ArrayOf(t.Elem.AsNullable(), true)
	case MapKind:
		return MapOf(*t.Key, t.Value.AsNullable(), true)
	case StructKind:
		fs := make([]Field, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = f
			fs[i].Type = f.Type.AsNullable()
			fs[i].Nullable = true
		}
		return StructOf(fs...)
	}
	return t
}
