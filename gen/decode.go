package gen

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec"
)

// decodeChunk is how many rows a generated decoder hands over at a time.
const decodeChunk = 4096

// sourcesFile holds one decoder per file source, specialised to its
// declared schema: JSON fields are matched with a switch on the key and
// read with typed primitives of runtime/source, CSV fields by position;
// Parquet and every other format (the generic formats of the registry,
// spec.FileFormat.Generic) are read through the source's row codec.
func (g *generator) sourcesFile() *jen.File {
	f := g.newFile()
	for _, s := range g.p.Sources {
		if s.Kind != spec.FileSource {
			continue
		}
		f.Add(g.decoderFunc(s))
		f.Line()
	}
	return f
}

// sourceLayout locates the special columns of a file source's row.
type sourceLayout struct {
	declared int // the declared columns come first
	rescued  *goField
	metadata *goField
}

func (g *generator) layoutOfSource(s *spec.Source) sourceLayout {
	row := g.rows[s.Name]
	l := sourceLayout{declared: len(s.Schema)}
	for i := l.declared; i < len(row.fields); i++ {
		fl := &row.fields[i]
		switch {
		case fl.column == s.RescuedDataColumn:
			l.rescued = fl
		case fl.column == "_metadata":
			l.metadata = fl
		}
	}
	return l
}

// decoderFunc returns the decoder of a file source, of type
// runtime.FileDecoder[Row].
func (g *generator) decoderFunc(s *spec.Source) jen.Code {
	row := g.rows[s.Name]
	name := "decode" + s.GoName
	lay := g.layoutOfSource(s)
	fs := &funcScope{pkg: g.pkg}
	var body []jen.Code
	if lay.metadata != nil {
		body = append(body, jen.Id("meta").Op(":=").Add(g.metadataLit(lay.metadata)))
	}
	finishParquet := []jen.Code{}
	if lay.rescued != nil {
		finishParquet = append(finishParquet, jen.Id("r").Dot(lay.rescued.name).Op("=").Id("rescued"))
	}
	finish := func(extra ...jen.Code) []jen.Code {
		var out []jen.Code
		out = append(out, extra...)
		if lay.metadata != nil {
			out = append(out, jen.Id("r").Dot(lay.metadata.name).Op("=").Id("meta"))
		}
		return out
	}
	params := jen.List(jen.Id("f").Qual(pkgSource, "FileInfo"), jen.Id("in").Qual("io", "Reader"), jen.Id("opts").Qual(pkgSource, "Options"),
		jen.Id("emit").Func().Params(jen.Index().Id(row.name)).Error())
	results := jen.List(jen.Qual(pkgSource, "Stats"), jen.Error())
	doc := fmt.Sprintf("%s decodes a %s file of source %s into %s values.", name, s.Files.Format, s.Name, row.name)

	finishFunc := jen.Func().Params(jen.Id("r").Op("*").Id(row.name), jen.Id("rescued").Qual(pkgTypes, "Null").Types(jen.String())).Block(finish(finishParquet...)...)
	switch {
	case s.Files.Format == spec.FormatParquet:
		body = append(body, jen.Return(jen.Qual(pkgRuntime, "DecodeParquet").Call(
			jen.Id("f"), jen.Id("in"), jen.Id("opts"), jen.Id("codec"+s.GoName), finishFunc, jen.Id("emit"),
		)))
		return jen.Comment(doc).Line().Func().Id(name).Params(params).Params(results).Block(body...)
	case s.Files.Format.Generic():
		// Any other registered format: its registry entry's reader yields
		// rows for the row codec (runtime/source.Format.Open).
		body = append(body, jen.Return(jen.Qual(pkgRuntime, "DecodeRows").Call(
			jen.Id("f"), jen.Id("in"), jen.Id("opts"), jen.Lit(s.Files.Format.String()), formatOptions(s.Files.Options),
			jen.Id("codec"+s.GoName), finishFunc, jen.Id("emit"),
		)))
		return jen.Comment(doc).Line().Func().Id(name).Params(params).Params(results).Block(body...)
	}

	var newDecoder jen.Code
	var record []jen.Code
	switch s.Files.Format {
	case spec.FormatJSON:
		body = append(body, datetimeFormats(s.Files.JSON.DateFormat, s.Files.JSON.TimestampFormat)...)
		newDecoder = jen.Qual(pkgSource, "NewJSONDecoderWith").Call(jen.Id("in"), jen.Id("f"), jsonOptions(s.Files.JSON))
		record = g.jsonFields(fs, row, lay.declared, jen.Id("r"))
	case spec.FormatCSV:
		body = append(body, datetimeFormats(s.Files.CSV.DateFormat, s.Files.CSV.TimestampFormat)...)
		newDecoder = jen.Qual(pkgSource, "NewCSVDecoder").Call(jen.Id("in"), jen.Id("f"), csvColumns(s), csvOptions(s.Files.CSV))
		for i := 0; i < lay.declared; i++ {
			fl := row.fields[i]
			read := g.csvRead(fl.typ, i, fl.column)
			record = append(record, jen.Id("r").Dot(fl.name).Op("=").Add(unwrapIf(read, !fl.nullable)))
		}
	}
	body = append(body, fs.locals...)
	body = append(body,
		jen.Id("d").Op(":=").Add(newDecoder),
		jen.Id("rows").Op(":=").Make(jen.Index().Id(row.name), jen.Lit(0), jen.Lit(decodeChunk)),
	)
	loop := []jen.Code{
		jen.Id("rows").Op("=").Append(jen.Id("rows"), jen.Id(row.name).Values()),
		jen.Id("r").Op(":=").Op("&").Id("rows").Index(jen.Len(jen.Id("rows")).Op("-").Lit(1)),
	}
	loop = append(loop, record...)
	loop = append(loop,
		jen.List(jen.Id("rescued"), jen.Id("malformed")).Op(":=").Id("d").Dot("EndRecord").Call(),
		jen.If(jen.Id("malformed")).Block(jen.Op("*").Id("r").Op("=").Id(row.name).Values()),
	)
	if lay.rescued != nil {
		loop = append(loop, jen.Id("r").Dot(lay.rescued.name).Op("=").Id("rescued"))
	} else {
		loop = append(loop, jen.Id("_").Op("=").Id("rescued"))
	}
	loop = append(loop, finish()...)
	loop = append(loop, jen.If(jen.Len(jen.Id("rows")).Op("==").Cap(jen.Id("rows"))).Block(
		jen.If(jen.Err().Op(":=").Id("emit").Call(jen.Id("rows")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("d").Dot("Stats").Call(), jen.Err())),
		jen.Id("rows").Op("=").Make(jen.Index().Id(row.name), jen.Lit(0), jen.Lit(decodeChunk)),
	))
	body = append(body,
		jen.For(jen.Id("d").Dot("NextRecord").Call()).Block(loop...),
		jen.If(jen.Err().Op(":=").Id("d").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("d").Dot("Stats").Call(), jen.Err())),
		jen.If(jen.Len(jen.Id("rows")).Op(">").Lit(0)).Block(
			jen.If(jen.Err().Op(":=").Id("emit").Call(jen.Id("rows")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("d").Dot("Stats").Call(), jen.Err())),
		),
		jen.Return(jen.Id("d").Dot("Stats").Call(), jen.Nil()),
	)
	return jen.Comment(doc).Line().Func().Id(name).Params(params).Params(results).Block(body...)
}

// formatOptions is the map literal of a generic format's options, by
// name, in name order.
func formatOptions(options map[string]string) jen.Code {
	names := slices.Sorted(maps.Keys(options))
	items := make([]jen.Code, len(names))
	for i, k := range names {
		items[i] = jen.Line().Lit(k).Op(":").Lit(options[k])
	}
	return jen.Map(jen.String()).String().Values(append(items, jen.Line())...)
}

// metadataLit builds the _metadata value of the file f.
func (g *generator) metadataLit(fl *goField) jen.Code {
	s := g.reg.structFor(fl.typ, "Metadata")
	src := map[string]jen.Code{
		"file_path":              jen.Id("f").Dot("Path"),
		"file_name":              jen.Id("f").Dot("Name"),
		"file_size":              jen.Id("f").Dot("Size"),
		"file_modification_time": jen.Id("f").Dot("ModificationTime"),
	}
	d := jen.Dict{}
	for _, sf := range s.fields {
		v, ok := src[sf.column]
		if !ok {
			continue
		}
		if sf.nullable {
			v = jen.Qual(pkgTypes, "Some").Call(v)
		}
		d[jen.Id(sf.name)] = v
	}
	lit := jen.Id(s.name).Values(d)
	if fl.nullable {
		return jen.Qual(pkgTypes, "Some").Call(lit)
	}
	return lit
}

// unwrapIf takes .V of a types.Null read when the destination is NOT NULL.
func unwrapIf(read *jen.Statement, unwrap bool) *jen.Statement {
	if unwrap {
		return read.Dot("V")
	}
	return read
}

// jsonFields reads the fields of the current JSON object into the first n
// fields of struct s at dst.
func (g *generator) jsonFields(fs *funcScope, s *goStruct, n int, dst *jen.Statement) []jen.Code {
	var cases []jen.Code
	for i := 0; i < n; i++ {
		fl := s.fields[i]
		cases = append(cases, jen.Case(jen.Lit(fl.column)).Block(g.jsonValue(fs, fl.typ, fl.nullable, dst.Clone().Dot(fl.name), fl.column)...))
	}
	cases = append(cases, jen.Default().Block(jen.Id("d").Dot("Unknown").Call()))
	return []jen.Code{jen.For(jen.Id("d").Dot("NextField").Call()).Block(
		jen.Switch(jen.String().Call(jen.Id("d").Dot("Key").Call())).Block(cases...),
	)}
}

// readMethods are the typed reads of runtime/source's decoders, by kind
// (the kinds of spec.DecodedKind, TestReadMethodsAreDecodedKinds):
// JSONDecoder.M() and CSVDecoder.M(col) return a types.Null of the kind's
// Go type. DECIMAL reads also take the precision and scale.
var readMethods = map[types.Kind]string{
	types.BooleanKind: "Bool", types.ByteKind: "Int8", types.ShortKind: "Int16", types.IntKind: "Int32",
	types.LongKind: "Int64", types.FloatKind: "Float32", types.DoubleKind: "Float64", types.DecimalKind: "Decimal",
	types.StringKind: "String", types.BinaryKind: "Binary", types.DateKind: "Date", types.TimestampKind: "Timestamp",
	types.TimestampNTZKind: "TimestampNTZ",
}

// readCall returns d.<Method>(args..., [precision, scale]) for a primitive
// type t, or nil when t is not primitive.
func readCall(t types.Type, args ...jen.Code) *jen.Statement {
	m, ok := readMethods[t.Kind]
	if !ok {
		return nil
	}
	if t.Kind == types.DecimalKind {
		args = append(args, jen.Lit(t.Precision), jen.Lit(t.Scale))
	}
	return jen.Id("d").Dot(m).Call(args...)
}

// jsonScalar is the JSONDecoder read of a primitive type, or nil.
func jsonScalar(t types.Type) *jen.Statement { return readCall(t) }

// jsonValue reads one JSON value of type t into dst (a types.Null when
// nullable).
func (g *generator) jsonValue(fs *funcScope, t types.Type, nullable bool, dst *jen.Statement, what string) []jen.Code {
	if read := jsonScalar(t); read != nil {
		return []jen.Code{dst.Op("=").Add(unwrapIf(read, !nullable))}
	}
	target := dst
	var setValid []jen.Code
	if nullable {
		target = dst.Clone().Dot("V")
		setValid = []jen.Code{dst.Clone().Dot("Valid").Op("=").True()}
	}
	switch t.Kind {
	case types.StructKind:
		s := g.reg.structFor(t, "Struct")
		body := append(setValid, g.jsonFields(fs, s, len(s.fields), target)...)
		return []jen.Code{jen.If(jen.Id("d").Dot("BeginObject").Call()).Block(body...)}
	case types.ArrayKind:
		// Elements are collected in a scratch slice and copied into a slab,
		// so building arrays costs no allocation per row.
		elemT := g.reg.goType(*t.Elem, t.ContainsNull)
		scratch, slab, e := fs.tmp("scratch"), fs.tmp("slab"), fs.tmp("e")
		g.pkgLocal(fs, jen.Var().Id(scratch).Index().Add(elemT.Clone()))
		g.pkgLocal(fs, jen.Var().Id(slab).Qual(pkgSource, "Slab").Types(elemT.Clone()))
		elem := append([]jen.Code{jen.Var().Id(e).Add(elemT.Clone())}, g.jsonValue(fs, *t.Elem, t.ContainsNull, jen.Id(e), what)...)
		elem = append(elem, jen.Id(scratch).Op("=").Append(jen.Id(scratch), jen.Id(e)))
		body := append(setValid,
			jen.Id(scratch).Op("=").Id(scratch).Index(jen.Empty(), jen.Lit(0)),
			jen.For(jen.Id("d").Dot("NextElement").Call()).Block(elem...),
			target.Clone().Op("=").Id(slab).Dot("Copy").Call(jen.Id(scratch)),
		)
		return []jen.Code{jen.If(jen.Id("d").Dot("BeginArray").Call()).Block(body...)}
	case types.MapKind:
		if t.Key.Kind != types.StringKind {
			undecodable("JSON", what, t)
		}
		kvT := jen.Qual(pkgTypes, "KV").Types(jen.String(), g.reg.goType(*t.Value, t.ValueContainsNull))
		e := fs.tmp("e")
		entry := append([]jen.Code{jen.Var().Id(e).Add(kvT.Clone()), jen.Id(e).Dot("Key").Op("=").Id("d").Dot("KeyString").Call()},
			g.jsonValue(fs, *t.Value, t.ValueContainsNull, jen.Id(e).Dot("Value"), what)...)
		entry = append(entry, target.Clone().Op("=").Append(target.Clone(), jen.Id(e)))
		body := append(setValid, jen.For(jen.Id("d").Dot("NextField").Call()).Block(entry...))
		return []jen.Code{jen.If(jen.Id("d").Dot("BeginObject").Call()).Block(body...)}
	}
	undecodable("JSON", what, t)
	return nil
}

// pkgLocal declares a decoder-local variable at the start of the decoder
// function (scratch slices and slabs).
func (g *generator) pkgLocal(fs *funcScope, decl jen.Code) {
	fs.locals = append(fs.locals, decl)
}

// csvRead is the CSVDecoder read of column i of primitive type t.
func (g *generator) csvRead(t types.Type, i int, what string) *jen.Statement {
	if read := readCall(t, jen.Lit(i)); read != nil {
		return read
	}
	undecodable("CSV", what, t)
	return nil
}

// csvColumns lists the declared column names, which header names map to.
func csvColumns(s *spec.Source) jen.Code {
	names := make([]jen.Code, len(s.Schema))
	for i, f := range s.Schema {
		names[i] = jen.Lit(f.Name)
	}
	return jen.Index().String().Values(names...)
}

// sparkDateFormat is Spark's default dateFormat; the spec model holds it
// when none is written, and the runtime reads it as "" (the default with
// its lenient fallback).
const sparkDateFormat = "yyyy-MM-dd"

// datetimeFormats sets the dateFormat and timestampFormat of the decoder
// options opts, when they are not Spark's defaults.
func datetimeFormats(date, ts string) []jen.Code {
	var out []jen.Code
	if date != "" && date != sparkDateFormat {
		out = append(out, jen.Id("opts").Dot("DateFormat").Op("=").Lit(date))
	}
	if ts != "" {
		out = append(out, jen.Id("opts").Dot("TimestampFormat").Op("=").Lit(ts))
	}
	return out
}

// jsonOptions builds source.JSONOptions from the spec's json options; the
// zero value of each field is Spark's default.
func jsonOptions(o spec.JSONOptions) jen.Code {
	d := jen.Dict{jen.Id("Options"): jen.Id("opts")}
	set := func(name string, on bool) {
		if on {
			d[jen.Id(name)] = jen.True()
		}
	}
	set("AllowComments", o.AllowComments)
	set("RejectSingleQuotes", !o.AllowSingleQuotes)
	set("AllowUnquotedFieldNames", o.AllowUnquotedFieldNames)
	set("AllowNumericLeadingZeros", o.AllowNumericLeadingZeros)
	set("RejectNonNumericNumbers", !o.AllowNonNumericNumbers)
	return jen.Qual(pkgSource, "JSONOptions").Values(d)
}

// csvOptions builds source.CSVOptions from the spec's csv options.
func csvOptions(o spec.CSVOptions) jen.Code {
	b := func(s string) jen.Code {
		if s == "" {
			return jen.Lit(0)
		}
		return jen.LitRune(rune(s[0]))
	}
	d := jen.Dict{
		jen.Id("Options"):   jen.Id("opts"),
		jen.Id("Header"):    jen.Lit(o.Header),
		jen.Id("Delimiter"): b(o.Delimiter),
		jen.Id("Quote"):     b(o.Quote),
		jen.Id("Escape"):    b(o.Escape),
	}
	str := func(name, v, def string) {
		if v != def {
			d[jen.Id(name)] = jen.Lit(v)
		}
	}
	str("NullValue", o.NullValue, "")
	str("EmptyValue", o.EmptyValue, "")
	str("NaNValue", o.NaNValue, "NaN")
	if !strings.EqualFold(o.Encoding, "utf-8") && !strings.EqualFold(o.Encoding, "utf8") {
		str("Encoding", o.Encoding, "")
	}
	if o.Comment != "" {
		d[jen.Id("Comment")] = b(o.Comment)
	}
	if o.IgnoreLeadingWhiteSpace {
		d[jen.Id("IgnoreLeadingWhiteSpace")] = jen.True()
	}
	if o.IgnoreTrailingWhiteSpace {
		d[jen.Id("IgnoreTrailingWhiteSpace")] = jen.True()
	}
	if !o.MultiLine {
		d[jen.Id("SingleLine")] = jen.True()
	}
	return jen.Qual(pkgSource, "CSVOptions").Values(d)
}
