package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// generateRows compiles a Generate (explode, posexplode, inline and their
// outer forms): a loop over the array or map inside the input row's code,
// handing one row per element to the operator above; no row is held.
func (pc *planCompiler) generateRows(b *block, p *sql.Generate, concurrent bool, consume consumer) {
	if p.Func == "window" {
		pc.slidingWindows(b, p, concurrent, consume)
		return
	}
	nIn := len(p.Input.Output())
	genCols := p.Columns[nIn:]
	pc.produce(b, p.Input, concurrent, func(rb *block, cols []val) {
		ec := pc.exprs(cols)
		x := rb.bind(ec.compile(rb, p.Arg))
		i, e := pc.fn.tmp("i"), pc.fn.tmp("e")
		var gen []val
		if p.Func == "posexplode" {
			gen = append(gen, val{v: jen.Int32().Call(jen.Id(i)), t: types.IntType})
		}
		t := x.t
		switch {
		case t.Kind == types.MapKind:
			gen = append(gen, val{v: jen.Id(e).Dot("Key"), t: *t.Key})
			v := jen.Id(e).Dot("Value")
			if t.ValueContainsNull {
				gen = append(gen, val{v: v.Clone().Dot("V"), ok: v.Clone().Dot("Valid"), t: *t.Value, whole: v})
			} else {
				gen = append(gen, val{v: v, t: *t.Value})
			}
		case p.Func == "inline":
			elem := element(e, *t.Elem, t.ContainsNull)
			for k, f := range t.Elem.Fields {
				sel := elem.v.Clone().Dot(pc.reg.fieldName(*t.Elem, k))
				if f.Nullable {
					gen = append(gen, val{v: sel.Clone().Dot("V"), ok: andOK(cloneOK(elem.ok), sel.Clone().Dot("Valid")), t: f.Type})
				} else {
					gen = append(gen, val{v: sel, ok: cloneOK(elem.ok), t: f.Type})
				}
			}
		default:
			gen = append(gen, element(e, *t.Elem, t.ContainsNull))
		}
		loop := rb.sub()
		consume(loop, append(append([]val(nil), cols...), gen...))
		iv, ev := jen.Id("_"), jen.Id("_")
		if mentions(loop.stmts, i) {
			iv = jen.Id(i)
		}
		if mentions(loop.stmts, e) {
			ev = jen.Id(e)
		}
		var stmt jen.Code
		if iv.GoString() == "_" && ev.GoString() == "_" {
			stmt = jen.For(jen.Range().Add(x.v.Clone())).Block(loop.stmts...)
		} else {
			stmt = jen.For(jen.List(iv, ev).Op(":=").Range().Add(x.v.Clone())).Block(loop.stmts...)
		}
		rb.add(ifValid(x.ok, stmt)...)
		if !p.Outer {
			return
		}
		// explode_outer: one row of NULLs for a NULL or empty collection.
		miss := rb.sub()
		consume(miss, append(append([]val(nil), cols...), pc.nullVals(genCols)...))
		empty := jen.Len(x.v.Clone()).Op("==").Lit(0)
		if x.ok != nil {
			empty = jen.Op("!").Add(x.ok.Clone()).Op("||").Add(empty)
		}
		rb.add(jen.If(empty).Block(miss.stmts...))
	})
}
