package gen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec"
)

// AUTO CDC flows compile into a call of runtime.ApplyChanges with the
// flow's settings and a Change function that reads one change row: it
// copies the written columns into the target's row struct, evaluates
// apply_as_truncates and apply_as_deletes (only TRUE counts) and returns
// the sequence value. The merge itself is the runtime's.

// cdcFlowFunc compiles an AUTO CDC flow into
// `func runX(ctx *runtime.FlowContext) error`.
func (g *generator) cdcFlowFunc(fl *spec.Flow) jen.Code {
	a := fl.AutoCDC
	name := "run" + fl.GoName
	src := g.rows[a.Source.Name]
	target := g.rows[fl.Target.Name]
	if src == nil || target == nil {
		// spec's checkCDC refuses a temporary view, the one other kind.
		panic(fmt.Sprintf("gen: AUTO CDC source %s of flow %s is neither a source nor a table of the pipeline", a.Source.Name, fl.Name))
	}
	// The values of the change row's visible columns, in SourceColumns order.
	cols := make([]val, len(a.SourceColumns))
	for i, c := range a.SourceColumns {
		f, ok := fieldByColumn(src, c.Name)
		if !ok {
			panic(fmt.Sprintf("gen: column %q of %s has no field", c.Name, a.Source.Name))
		}
		sel := jen.Id("s").Dot(f.name)
		if f.nullable {
			cols[i] = val{v: sel.Clone().Dot("V"), ok: sel.Clone().Dot("Valid"), t: f.typ, whole: sel.Clone()}
		} else {
			cols[i] = val{v: sel, t: f.typ}
		}
	}
	fs := &funcScope{pkg: g.pkg}
	b := &block{fn: fs, rowErr: func(cause jen.Code) jen.Code {
		return jen.Qual(pkgRuntime, "Upsert").Op(",").Nil().Op(",").Id("w").Dot("RowError").Call(cause, jen.Id("s"))
	}}
	ec := &exprCompiler{reg: g.reg, cols: cols, ctx: jen.Id("ctx"), params: jen.Id("ctx").Dot("Params").Call()}
	for i, ci := range a.Columns {
		tf := target.fields[i]
		b.add(jen.Id("out").Dot(tf.name).Op("=").Add(ec.wrapAs(cols[ci], tf)))
	}
	b.add(jen.Id("kind").Op(":=").Qual(pkgRuntime, "Upsert"))
	if a.ApplyAsDeletes != nil {
		c := ec.cond(b, a.ApplyAsDeletes)
		b.add(jen.If(c).Block(jen.Id("kind").Op("=").Qual(pkgRuntime, "Delete")))
	}
	if a.ApplyAsTruncates != nil {
		c := ec.cond(b, a.ApplyAsTruncates)
		b.add(jen.If(c).Block(jen.Id("kind").Op("=").Qual(pkgRuntime, "Truncate")))
	}
	b.add(jen.Return(jen.Id("kind"), g.sequenceValue(fl, cols), jen.Nil()))

	names := func(idx []int) []jen.Code {
		out := make([]jen.Code, len(idx))
		for i, j := range idx {
			out[i] = jen.Lit(a.SourceColumns[j].Name)
		}
		return out
	}
	d := jen.Dict{
		jen.Id("Source"):       jen.Id(g.vars[a.Source.Name]),
		jen.Id("Target"):       jen.Id(g.vars[fl.Target.Name]),
		jen.Id("Keys"):         jen.Index().String().Values(names(a.Keys)...),
		jen.Id("SequenceBy"):   jen.Index().String().Values(names(a.SequenceBy)...),
		jen.Id("SequenceType"): typeLit(a.SequenceType),
		jen.Id("SCDType"):      jen.Lit(a.SCDType),
		jen.Id("Change"): jen.Func().Params(
			jen.Id("w").Op("*").Qual(pkgRuntime, "Worker"), jen.Id("s").Op("*").Id(src.name), jen.Id("out").Op("*").Id(target.name),
		).Params(jen.Qual(pkgRuntime, "ChangeKind"), jen.Any(), jen.Error()).Block(b.stmts...),
	}
	if a.IgnoreNullUpdates {
		d[jen.Id("IgnoreNullUpdates")] = jen.True()
	}
	if a.TrackHistory != nil {
		d[jen.Id("TrackHistory")] = jen.Index().String().Values(names(a.TrackHistory)...)
	}
	doc := fmt.Sprintf("%s runs AUTO CDC flow %s into %s: %s.", name, fl.Name, fl.Target.Name, a.Summary())
	return jen.Comment(doc).Line().
		Func().Id(name).Params(jen.Id("ctx").Op("*").Qual(pkgRuntime, "FlowContext")).Error().Block(
		jen.Return(jen.Qual(pkgRuntime, "ApplyChanges").Call(jen.Id("ctx"),
			jen.Op("&").Qual(pkgRuntime, "AutoCDC").Types(jen.Id(src.name), jen.Id(target.name)).Values(d))),
	)
}

// sequenceValue returns the Go expression of a change's sequence value as
// a generic value (see runtime.SequenceValue): the sequence_by column's
// value, or a runtime.SequenceStruct of the columns' values.
func (g *generator) sequenceValue(fl *spec.Flow, cols []val) jen.Code {
	a := fl.AutoCDC
	one := func(i int) jen.Code {
		x := cols[i]
		if !spec.SequenceByCompiles(x.t) {
			panic(fmt.Sprintf("gen: sequence_by column %s of type %s of flow %s, which spec.SequenceByCompiles rejects", a.SourceColumns[i].Name, x.t, fl.Name))
		}
		if x.ok == nil {
			return jen.Any().Parens(x.v.Clone())
		}
		return jen.Qual(pkgRuntime, "SequenceValue").Call(x.whole.Clone())
	}
	if a.SequenceType.Kind != types.StructKind {
		return one(a.SequenceBy[0])
	}
	parts := make([]jen.Code, len(a.SequenceBy))
	for i, j := range a.SequenceBy {
		parts[i] = one(j)
	}
	return jen.Qual(pkgRuntime, "SequenceStruct").Call(parts...)
}

// fieldByColumn returns the field of a row struct holding column name.
func fieldByColumn(s *goStruct, name string) (goField, bool) {
	for _, f := range s.fields {
		if f.column == name {
			return f, true
		}
	}
	for _, f := range s.fields {
		if strings.EqualFold(f.column, name) {
			return f, true
		}
	}
	return goField{}, false
}

// tableProperties returns a table's properties as the program declares
// them: an AUTO CDC target enables the Delta change data feed
// (delta.enableChangeDataFeed), which its merges write, unless the spec
// sets the property.
func tableProperties(d *spec.Dataset) map[string]string {
	props := map[string]string{}
	for _, p := range d.Properties {
		props[p.Key] = p.Value.String()
	}
	for _, f := range d.Flows {
		if f.Kind == spec.AutoCDCFlow {
			if _, ok := props["delta.enableChangeDataFeed"]; !ok {
				props["delta.enableChangeDataFeed"] = "true"
			}
		}
	}
	return props
}

// registerFeeds declares the row structs of the tables some flow reads as
// change data feeds.
func (g *generator) registerFeeds() {
	g.feeds = map[string]*goStruct{}
	for _, fl := range g.p.Flows {
		for _, in := range fl.Inputs {
			if in.ChangeFeed && in.Dataset != nil && g.feeds[in.Name] == nil {
				g.reg.reserve(in.Dataset.GoName + "ChangesRow")
				g.feeds[in.Name] = g.rowStruct(in.Dataset.GoName+"Changes", in.Dataset.ChangeFeedColumns())
			}
		}
	}
}

// feedVar is the Go variable of a table's change data feed relation.
func feedVar(d *spec.Dataset) string { return "changes" + d.GoName }

// declareFeed emits the runtime.ChangeFeed relation of a table read as a
// change data feed.
func (g *generator) declareFeed(f *jen.File, d *spec.Dataset) {
	row := g.feeds[d.Name]
	if row == nil {
		return
	}
	f.Commentf("%s is the change data feed of %s (read_change_feed).", feedVar(d), d.Name)
	f.Var().Id(feedVar(d)).Op("=").Op("&").Qual(pkgRuntime, "ChangeFeed").Types(jen.Id(row.name)).Values(jen.Dict{
		jen.Id("Table"): jen.Id(g.vars[d.Name]),
		jen.Id("Codec"): jen.Id("codec" + d.GoName + "Changes"),
	})
	f.Line()
}
