package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// fromJSON compiles from_json(text, schema): a decoder function specialised
// to the schema's type, generated once per call and built on the same
// JSON reader and typed reads as the file sources' decoders (so values
// convert as a JSON source's do). The text is read as the record
// {"value": text}: a value that does not fit its type is NULL (Spark 4's
// partial results), malformed JSON gives a struct of NULLs (NULL for an
// array or map schema), blank text NULL.
func (c *exprCompiler) fromJSON(b *block, e *sql.Call) val {
	x := b.bind(c.compile(b, e.Args[0]))
	t := e.Type
	p := b.fn.pkg
	p.n++
	name := fmt.Sprintf("fromJSON%d", p.n)
	g := &generator{reg: c.reg}
	fs := &funcScope{pkg: p}
	wrapper := &goStruct{fields: []goField{{name: "Value", column: "value", typ: t, nullable: true}}}
	read := g.jsonFields(fs, wrapper, 1, jen.Id("r"))
	goT := c.reg.baseType(t)
	onMalformed := jen.Return(c.zero(t), jen.False())
	if t.Kind == types.StructKind {
		onMalformed = jen.Return(c.zero(t), jen.True())
	}
	body := append([]jen.Code{}, fs.locals...)
	record, opts := "FromJSONRecord", jen.Dict{jen.Id("TimeZone"): jen.Qual(pkgSQLFn, "SessionTimeZone").Call()}
	if t.Kind == types.ArrayKind {
		// An ARRAY schema has no partial result: one element that does
		// not fit makes the whole value NULL (json-functions.sql.out:
		// from_json('[1, "2", 3]', 'array<int>') is NULL), which the
		// decoder's failing mode detects.
		opts[jen.Id("OnMalformed")] = jen.Qual(pkgSource, "Fail")
		if t.Elem.Kind == types.StructKind {
			record = "FromJSONArrayRecord"
		}
	}
	body = append(body,
		jen.Id("d").Op(":=").Qual(pkgSource, "NewJSONDecoder").Call(
			jen.Qual("strings", "NewReader").Call(jen.Qual(pkgSQLFn, record).Call(jen.Id("text"))),
			jen.Qual(pkgSource, "FileInfo").Values(),
			jen.Qual(pkgSource, "Options").Values(opts)),
		jen.If(jen.Op("!").Id("d").Dot("NextRecord").Call()).Block(jen.Return(c.zero(t), jen.False())),
		jen.Var().Id("r").Struct(jen.Id("Value").Add(c.reg.goType(t, true))),
	)
	body = append(body, read...)
	body = append(body,
		jen.If(jen.List(jen.Id("_"), jen.Id("malformed")).Op(":=").Id("d").Dot("EndRecord").Call(), jen.Id("malformed").Op("||").Id("d").Dot("Err").Call().Op("!=").Nil()).Block(onMalformed),
		jen.Return(jen.Id("r").Dot("Value").Dot("V"), jen.Id("r").Dot("Value").Dot("Valid")),
	)
	p.decls = append(p.decls, jen.Commentf("%s parses a JSON string as %s for from_json.", name, t).Line().
		Func().Id(name).Params(jen.Id("text").String()).Params(goT, jen.Bool()).Block(body...))
	v, ok := b.fn.tmp("v"), b.fn.tmp("ok")
	b.add(jen.Var().Id(v).Add(c.reg.baseType(t)), jen.Var().Id(ok).Bool())
	b.add(ifValid(x.ok, jen.List(jen.Id(v), jen.Id(ok)).Op("=").Id(name).Call(x.v.Clone()))...)
	return val{v: jen.Id(v), ok: jen.Id(ok), t: t}
}
