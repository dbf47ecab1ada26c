package gen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec"
)

// Package paths the generated code imports; every import goes through Qual
// with one of these.
const (
	pkgRuntime   = "github.com/pipegen/pipegen/runtime"
	pkgCLI       = "github.com/pipegen/pipegen/runtime/cli"
	pkgTypes     = "github.com/pipegen/pipegen/runtime/types"
	pkgParquetIO = "github.com/pipegen/pipegen/runtime/parquetio"
	pkgSource    = "github.com/pipegen/pipegen/runtime/source"
	pkgSQLFn     = "github.com/pipegen/pipegen/runtime/sqlfn"
	pkgParquet   = "github.com/parquet-go/parquet-go"
)

// goStruct is a generated Go struct type for a STRUCT type or a row.
type goStruct struct {
	name   string
	fields []goField
	typ    types.Type // the STRUCT type it represents
}

// goField is one field of a goStruct.
type goField struct {
	name     string // Go identifier
	column   string // SQL column / field name
	typ      types.Type
	nullable bool
}

// typeRegistry names the Go types of STRUCT values. Structurally identical
// STRUCT types share one Go type, so values flow between datasets by plain
// assignment; the first place a type appears names it.
type typeRegistry struct {
	bySig map[string]*goStruct
	names map[string]bool
	order []*goStruct
}

func newTypeRegistry() *typeRegistry {
	return &typeRegistry{bySig: map[string]*goStruct{}, names: map[string]bool{}}
}

// reserve marks a Go identifier as taken (row types, functions).
func (r *typeRegistry) reserve(name string) { r.names[name] = true }

// unique returns base, or base2, base3... whichever is free, and takes it.
func (r *typeRegistry) unique(base string) string {
	name := base
	for i := 2; r.names[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	r.names[name] = true
	return name
}

// structFor returns the Go struct for STRUCT type t, creating it (and the
// structs of its nested fields) on first use with a name derived from hint.
func (r *typeRegistry) structFor(t types.Type, hint string) *goStruct {
	sig := typeSig(t)
	if s, ok := r.bySig[sig]; ok {
		return s
	}
	s := &goStruct{name: r.unique(hint), typ: t}
	r.bySig[sig] = s
	s.fields = fieldsOf(t.Fields)
	for i, f := range s.fields {
		r.register(f.typ, s.name+f.name)
		_ = i
	}
	r.order = append(r.order, s)
	return s
}

// register makes sure every STRUCT inside t has a Go type.
func (r *typeRegistry) register(t types.Type, hint string) {
	switch t.Kind {
	case types.StructKind:
		r.structFor(t, hint)
	case types.ArrayKind:
		r.register(*t.Elem, hint+"Elem")
	case types.MapKind:
		r.register(*t.Key, hint+"Key")
		r.register(*t.Value, hint+"Value")
	}
}

// fieldsOf returns the Go fields for columns or struct fields, with unique
// exported identifiers.
func fieldsOf(fs []types.Field) []goField {
	out := make([]goField, len(fs))
	taken := map[string]bool{}
	for i, f := range fs {
		name := spec.GoName(f.Name)
		for j := 2; taken[name]; j++ {
			name = fmt.Sprintf("%s%d", spec.GoName(f.Name), j)
		}
		taken[name] = true
		out[i] = goField{name: name, column: f.Name, typ: f.Type, nullable: f.Nullable}
	}
	return out
}

// goType returns the Go type of a value of t; nullable wraps it in types.Null.
func (r *typeRegistry) goType(t types.Type, nullable bool) *jen.Statement {
	base := r.baseType(t)
	if nullable {
		return jen.Qual(pkgTypes, "Null").Types(base)
	}
	return base
}

func (r *typeRegistry) baseType(t types.Type) *jen.Statement {
	switch t.Kind {
	case types.BooleanKind:
		return jen.Bool()
	case types.ByteKind:
		return jen.Int8()
	case types.ShortKind:
		return jen.Int16()
	case types.IntKind:
		return jen.Int32()
	case types.LongKind:
		return jen.Int64()
	case types.FloatKind:
		return jen.Float32()
	case types.DoubleKind:
		return jen.Float64()
	case types.DecimalKind:
		return jen.Qual(pkgTypes, "Decimal")
	case types.StringKind:
		return jen.String()
	case types.BinaryKind:
		return jen.Index().Byte()
	case types.DateKind:
		return jen.Qual(pkgTypes, "Date")
	case types.TimestampKind, types.TimestampNTZKind:
		return jen.Qual(pkgTypes, "Timestamp")
	case types.IntervalKind:
		return jen.Qual(pkgTypes, "Interval")
	case types.YearMonthIntervalKind:
		return jen.Qual(pkgTypes, "YearMonthInterval")
	case types.VoidKind:
		return jen.Struct()
	case types.ArrayKind:
		return jen.Index().Add(r.goType(*t.Elem, t.ContainsNull))
	case types.MapKind:
		return jen.Index().Qual(pkgTypes, "KV").Types(r.goType(*t.Key, false), r.goType(*t.Value, t.ValueContainsNull))
	case types.StructKind:
		s, ok := r.bySig[typeSig(t)]
		if !ok {
			s = r.structFor(t, "Struct")
		}
		return jen.Id(s.name)
	}
	panic(fmt.Sprintf("gen: no Go type for %s", t))
}

// typeSig identifies a type with the nullability of its array elements
// and map values, which Type.String leaves out but which changes the Go
// type ([]T or []types.Null[T]).
func typeSig(t types.Type) string {
	switch t.Kind {
	case types.ArrayKind:
		return fmt.Sprintf("ARRAY<%s%s>", typeSig(*t.Elem), nullSig(t.ContainsNull))
	case types.MapKind:
		return fmt.Sprintf("MAP<%s, %s%s>", typeSig(*t.Key), typeSig(*t.Value), nullSig(t.ValueContainsNull))
	case types.StructKind:
		var b strings.Builder
		b.WriteString("STRUCT<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(types.QuoteIdent(f.Name) + ": " + typeSig(f.Type) + nullSig(f.Nullable))
		}
		b.WriteString(">")
		return b.String()
	}
	return t.String()
}

func nullSig(nullable bool) string {
	if nullable {
		return ""
	}
	return " NOT NULL"
}
