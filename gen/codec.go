package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file generates, for each row struct, the functions that shred it
// into a canonical Parquet row and assemble it back (docs/architecture.md,
// "Parquet layout"; Dremel's record shredding and assembly). They are
// specialised to the struct, so reading and writing tables involves no
// reflection and no per-value interface boxing.

// lnode is a node of the canonical layout tree: a column, struct field,
// array element, map key or map value, with its definition and repetition
// levels (the same numbering as package parquetio).
type lnode struct {
	typ      types.Type
	optional bool
	// def is the definition level at which the node is non-NULL.
	def int
	// rep is the repetition level of an ARRAY's or MAP's repeated group.
	rep int
	// first and count locate the leaves under the node.
	first, count int
	children     []*lnode
}

// layoutOf builds the layout tree of a schema; leaves are numbered
// depth-first from 0.
func layoutOf(s types.Schema) []*lnode {
	n := 0
	var build func(t types.Type, optional bool, parentDef, parentRep int) *lnode
	build = func(t types.Type, optional bool, parentDef, parentRep int) *lnode {
		nd := &lnode{typ: t, optional: optional, def: parentDef, first: n}
		if optional {
			nd.def++
		}
		switch t.Kind {
		case types.StructKind:
			for _, f := range t.Fields {
				nd.children = append(nd.children, build(f.Type, f.Nullable, nd.def, parentRep))
			}
		case types.ArrayKind:
			nd.rep = parentRep + 1
			nd.children = []*lnode{build(*t.Elem, t.ContainsNull, nd.def+1, nd.rep)}
		case types.MapKind:
			nd.rep = parentRep + 1
			nd.children = []*lnode{
				build(*t.Key, false, nd.def+1, nd.rep),
				build(*t.Value, t.ValueContainsNull, nd.def+1, nd.rep),
			}
		default:
			n++
		}
		nd.count = n - nd.first
		return nd
	}
	out := make([]*lnode, len(s))
	for i, f := range s {
		out[i] = build(f.Type, f.Nullable, 0, 0)
	}
	return out
}

// codecGen generates the shred and assemble functions of one row struct.
type codecGen struct {
	reg *typeRegistry
	fn  *funcScope
}

// shredFunc returns `func shredX(r *X, row parquet.Row) parquet.Row`.
func (g *codecGen) shredFunc(name string, row *goStruct, schema types.Schema) jen.Code {
	g.fn = &funcScope{}
	var body []jen.Code
	for i, root := range layoutOf(schema) {
		f := row.fields[i]
		for leaf := root.first; leaf < root.first+root.count; leaf++ {
			body = append(body, g.shredLeaf(root, jen.Id("r").Dot(f.name), jen.Lit(0), leaf)...)
		}
	}
	body = append(body, jen.Return(jen.Id("row")))
	return jen.Func().Id(name).Params(jen.Id("r").Op("*").Id(row.name), jen.Id("row").Qual(pkgParquet, "Row")).Qual(pkgParquet, "Row").Block(body...)
}

// leafOf returns the child of n that holds leaf.
func leafOf(n *lnode, leaf int) (int, *lnode) {
	for i, c := range n.children {
		if leaf >= c.first && leaf < c.first+c.count {
			return i, c
		}
	}
	panic("gen: leaf outside its node")
}

// appendValue returns `row = append(row, v.Level(rep, def, leaf))`.
func appendValue(v *jen.Statement, rep jen.Code, def, leaf int) jen.Code {
	return jen.Id("row").Op("=").Append(jen.Id("row"), v.Dot("Level").Call(rep, jen.Lit(def), jen.Lit(leaf)))
}

func nullValue() *jen.Statement { return jen.Qual(pkgParquet, "NullValue").Call() }

// shredLeaf emits the values of one leaf under node n for the Go value x
// (wrapped in types.Null when n is optional), starting at repetition level
// rep.
func (g *codecGen) shredLeaf(n *lnode, x *jen.Statement, rep jen.Code, leaf int) []jen.Code {
	if n.optional {
		inner := *n
		inner.optional = false
		return []jen.Code{jen.If(jen.Op("!").Add(x.Clone()).Dot("Valid")).Block(
			appendValue(nullValue(), rep, n.def-1, leaf),
		).Else().Block(g.shredLeaf(&inner, x.Clone().Dot("V"), rep, leaf)...)}
	}
	switch n.typ.Kind {
	case types.StructKind:
		i, c := leafOf(n, leaf)
		return g.shredLeaf(c, x.Clone().Dot(g.reg.fieldName(n.typ, i)), rep, leaf)
	case types.ArrayKind, types.MapKind:
		i, c := leafOf(n, leaf)
		idx, r := g.fn.tmp("i"), g.fn.tmp("rep")
		elem := jen.Id(idx)
		var ex *jen.Statement
		if n.typ.Kind == types.ArrayKind {
			ex = x.Clone().Index(elem)
		} else if i == 0 {
			ex = x.Clone().Index(elem).Dot("Key")
		} else {
			ex = x.Clone().Index(elem).Dot("Value")
		}
		loop := []jen.Code{
			jen.Id(r).Op(":=").Add(rep),
			jen.If(jen.Id(idx).Op(">").Lit(0)).Block(jen.Id(r).Op("=").Lit(n.rep)),
		}
		loop = append(loop, g.shredLeaf(c, ex, jen.Id(r), leaf)...)
		return []jen.Code{
			jen.If(jen.Len(x.Clone()).Op("==").Lit(0)).Block(appendValue(nullValue(), rep, n.def, leaf)),
			jen.For(jen.Id(idx).Op(":=").Range().Add(x.Clone())).Block(loop...),
		}
	}
	return []jen.Code{appendValue(g.valueOf(n.typ, x), rep, n.def, leaf)}
}

// valueOf returns the parquet.Value of the Go value x of primitive type t.
func (g *codecGen) valueOf(t types.Type, x *jen.Statement) *jen.Statement {
	q := func(name string, arg jen.Code) *jen.Statement { return jen.Qual(pkgParquet, name).Call(arg) }
	switch t.Kind {
	case types.BooleanKind:
		return q("BooleanValue", x)
	case types.ByteKind, types.ShortKind, types.DateKind, types.YearMonthIntervalKind:
		return q("Int32Value", jen.Int32().Call(x))
	case types.IntKind:
		return q("Int32Value", x)
	case types.LongKind:
		return q("Int64Value", x)
	case types.TimestampKind, types.TimestampNTZKind, types.IntervalKind:
		return q("Int64Value", jen.Int64().Call(x))
	case types.FloatKind:
		return q("FloatValue", x)
	case types.DoubleKind:
		return q("DoubleValue", x)
	case types.StringKind:
		return jen.Qual(pkgRuntime, "StringValue").Call(x)
	case types.BinaryKind:
		return q("ByteArrayValue", x)
	case types.DecimalKind:
		switch {
		case t.Precision <= 9:
			return q("Int32Value", jen.Int32().Call(x.Clone().Dot("Int64").Call()))
		case t.Precision <= 18:
			return q("Int64Value", x.Clone().Dot("Int64").Call())
		}
		return q("FixedLenByteArrayValue", x.Clone().Dot("AppendBytes").Call(jen.Nil(), jen.Lit(decimalBytes(t.Precision))))
	case types.VoidKind:
		return nullValue()
	}
	panic(fmt.Sprintf("gen: no Parquet value for %s", t))
}

// decimalBytes is the FIXED_LEN_BYTE_ARRAY size Spark uses for a
// precision: the fewest bytes whose two's complement holds 10^p - 1.
func decimalBytes(precision int) int {
	for n := 1; ; n++ {
		// 2^(8n-1) > 10^p - 1
		bits := 8*n - 1
		if float64(bits)*0.30102999566398120 > float64(precision) {
			return n
		}
	}
}

// assembleFunc returns
// `func assembleX(row parquet.Row, r *X, a *runtime.Arena) error`.
func (g *codecGen) assembleFunc(name string, row *goStruct, schema types.Schema) jen.Code {
	g.fn = &funcScope{}
	roots := layoutOf(schema)
	leaves := 0
	for _, r := range roots {
		leaves += r.count
	}
	body := []jen.Code{
		jen.Var().Id("c").Index(jen.Lit(leaves)).Int(),
		jen.If(jen.Err().Op(":=").Qual(pkgRuntime, "LeafStarts").Call(jen.Id("row"), jen.Id("c").Index(jen.Empty(), jen.Empty())), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	}
	for i, root := range roots {
		f := row.fields[i]
		body = append(body, g.assemble(root, jen.Id("r").Dot(f.name))...)
	}
	body = append(body, jen.Return(jen.Nil()))
	return jen.Func().Id(name).Params(
		jen.Id("row").Qual(pkgParquet, "Row"), jen.Id("r").Op("*").Id(row.name), jen.Id("a").Op("*").Qual(pkgRuntime, "Arena"),
	).Error().Block(body...)
}

// cur returns the Go expression of the current value of leaf.
func cur(leaf int) *jen.Statement { return jen.Id("row").Index(jen.Id("c").Index(jen.Lit(leaf))) }

// skip advances the cursors of every leaf under n by one value (a NULL or
// empty node has exactly one value per leaf).
func skip(n *lnode) []jen.Code {
	out := make([]jen.Code, 0, n.count)
	for l := n.first; l < n.first+n.count; l++ {
		out = append(out, jen.Id("c").Index(jen.Lit(l)).Op("++"))
	}
	return out
}

// assemble emits code reading one instance of node n into the Go location
// dst (of n's Go type, types.Null when optional).
func (g *codecGen) assemble(n *lnode, dst *jen.Statement) []jen.Code {
	if n.optional {
		inner := *n
		inner.optional = false
		read := append(g.assemble(&inner, dst.Clone().Dot("V")), dst.Clone().Dot("Valid").Op("=").True())
		return []jen.Code{jen.If(cur(n.first).Dot("DefinitionLevel").Call().Op("<").Lit(n.def)).Block(skip(n)...).Else().Block(read...)}
	}
	switch n.typ.Kind {
	case types.StructKind:
		var out []jen.Code
		for i, c := range n.children {
			out = append(out, g.assemble(c, dst.Clone().Dot(g.reg.fieldName(n.typ, i)))...)
		}
		return out
	case types.ArrayKind, types.MapKind:
		var elemT *jen.Statement
		if n.typ.Kind == types.MapKind {
			elemT = jen.Qual(pkgTypes, "KV").Types(g.reg.goType(*n.typ.Key, false), g.reg.goType(*n.typ.Value, n.typ.ValueContainsNull))
		} else {
			elemT = g.reg.goType(*n.typ.Elem, n.typ.ContainsNull)
		}
		e := g.fn.tmp("e")
		var read []jen.Code
		read = append(read, jen.Var().Id(e).Add(elemT))
		if n.typ.Kind == types.ArrayKind {
			read = append(read, g.assemble(n.children[0], jen.Id(e))...)
		} else {
			read = append(read, g.assemble(n.children[0], jen.Id(e).Dot("Key"))...)
			read = append(read, g.assemble(n.children[1], jen.Id(e).Dot("Value"))...)
		}
		read = append(read, dst.Clone().Op("=").Append(dst.Clone(), jen.Id(e)))
		more := jen.Id("c").Index(jen.Lit(n.first)).Op("<").Len(jen.Id("row")).Op("&&").
			Add(cur(n.first)).Dot("Column").Call().Op("==").Lit(n.first).Op("&&").
			Add(cur(n.first)).Dot("RepetitionLevel").Call().Op("==").Lit(n.rep)
		return []jen.Code{jen.If(cur(n.first).Dot("DefinitionLevel").Call().Op("<=").Lit(n.def)).Block(skip(n)...).Else().Block(
			jen.For().Block(append(read, jen.If(jen.Op("!").Parens(more)).Block(jen.Break()))...),
		)}
	}
	v := cur(n.first)
	var conv *jen.Statement
	switch n.typ.Kind {
	case types.BooleanKind:
		conv = v.Dot("Boolean").Call()
	case types.ByteKind:
		conv = jen.Int8().Call(v.Dot("Int32").Call())
	case types.ShortKind:
		conv = jen.Int16().Call(v.Dot("Int32").Call())
	case types.IntKind:
		conv = v.Dot("Int32").Call()
	case types.LongKind:
		conv = v.Dot("Int64").Call()
	case types.FloatKind:
		conv = v.Dot("Float").Call()
	case types.DoubleKind:
		conv = v.Dot("Double").Call()
	case types.StringKind:
		conv = jen.Id("a").Dot("String").Call(v.Dot("ByteArray").Call())
	case types.BinaryKind:
		conv = jen.Id("a").Dot("Bytes").Call(v.Dot("ByteArray").Call())
	case types.DateKind:
		conv = jen.Qual(pkgTypes, "Date").Call(v.Dot("Int32").Call())
	case types.TimestampKind, types.TimestampNTZKind:
		conv = jen.Qual(pkgTypes, "Timestamp").Call(v.Dot("Int64").Call())
	case types.IntervalKind:
		conv = jen.Qual(pkgTypes, "Interval").Call(v.Dot("Int64").Call())
	case types.YearMonthIntervalKind:
		conv = jen.Qual(pkgTypes, "YearMonthInterval").Call(v.Dot("Int32").Call())
	case types.DecimalKind:
		switch {
		case n.typ.Precision <= 9:
			conv = jen.Qual(pkgTypes, "DecimalFromInt64").Call(jen.Int64().Call(v.Dot("Int32").Call()))
		case n.typ.Precision <= 18:
			conv = jen.Qual(pkgTypes, "DecimalFromInt64").Call(v.Dot("Int64").Call())
		default:
			conv = jen.Qual(pkgRuntime, "DecimalValue").Call(v)
		}
	case types.VoidKind:
		return []jen.Code{jen.Id("c").Index(jen.Lit(n.first)).Op("++")}
	default:
		panic(fmt.Sprintf("gen: cannot assemble %s", n.typ))
	}
	return []jen.Code{dst.Clone().Op("=").Add(conv), jen.Id("c").Index(jen.Lit(n.first)).Op("++")}
}
