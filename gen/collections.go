package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// This file compiles the collection functions whose helpers depend on
// whether an array may hold NULL elements (runtime/sqlfn/arrays.go), and
// arrays_zip, whose result is a generated struct type.

// collection compiles a collection function call; ok is false when e is
// not one.
func (c *exprCompiler) collection(b *block, e *sql.Call) (val, bool) {
	switch e.Func {
	case "array_distinct", "array_join", "array_max", "array_min", "sort_array", "flatten", "slice",
		"sequence", "arrays_zip", "map_keys", "map_values", "map_from_arrays":
	case "map":
		return c.makeMap(b, e), true
	case "to_json":
		x := b.bind(c.compile(b, e.Args[0]))
		typ := b.fn.pkg.global("jsonType", typeLit(x.t))
		return val{v: jen.Qual(pkgSQLFn, "ToJSON").Call(x.v.Clone(), typ), ok: cloneOK(x.ok), t: e.Type}, true
	case "from_json":
		return c.fromJSON(b, e), true
	case "json_path":
		x, path := b.bind(c.compile(b, e.Args[0])), b.bind(c.compile(b, e.Args[1]))
		v, found := b.fn.tmp("v"), b.fn.tmp("found")
		b.add(jen.List(jen.Id(v), jen.Id(found)).Op(":=").Qual(pkgSQLFn, "JSONPath").Call(x.v.Clone(), path.v.Clone()))
		return val{v: jen.Id(v), ok: andOK(cloneOK(x.ok), jen.Id(found)), t: e.Type}, true
	default:
		return val{}, false
	}
	args := make([]val, len(e.Args))
	for i, a := range e.Args {
		args[i] = b.bind(c.compile(b, a))
	}
	arr := args[0]
	ok := okAnd(args...)
	nullable := arr.t.Kind == types.ArrayKind && arr.t.ContainsNull
	suffix := ""
	if nullable {
		suffix = "Nullable"
	}
	call := func(name string, xs ...jen.Code) *jen.Statement { return jen.Qual(pkgSQLFn, name).Call(xs...) }
	switch e.Func {
	case "array_distinct":
		return val{v: call("ArrayDistinct", arr.v.Clone()), ok: ok, t: e.Type}, true
	case "array_join":
		if !nullable {
			if len(args) == 3 {
				// No NULL element to replace.
				b.add(jen.Id("_").Op("=").Add(args[2].v.Clone()))
			}
			return val{v: call("ArrayJoin", arr.v.Clone(), args[1].v.Clone()), ok: ok, t: e.Type}, true
		}
		repl, has := jen.Lit(""), jen.False()
		if len(args) == 3 {
			repl, has = args[2].v.Clone(), jen.True()
		}
		return val{v: call("ArrayJoinNullable", arr.v.Clone(), args[1].v.Clone(), repl, has), ok: ok, t: e.Type}, true
	case "array_max", "array_min":
		name := map[string]string{"array_max": "ArrayMax", "array_min": "ArrayMin"}[e.Func] + suffix
		v, found := b.fn.tmp("v"), b.fn.tmp("found")
		b.add(jen.List(jen.Id(v), jen.Id(found)).Op(":=").Add(call(name, arr.v.Clone())))
		return val{v: jen.Id(v), ok: andOK(ok, jen.Id(found)), t: e.Type}, true
	case "sort_array":
		asc := jen.True()
		if len(args) == 2 {
			asc = args[1].v.Clone()
		}
		return val{v: call("SortArray"+suffix, arr.v.Clone(), asc), ok: ok, t: e.Type}, true
	case "flatten":
		if !nullable {
			return val{v: call("Flatten", arr.v.Clone()), ok: ok, t: e.Type}, true
		}
		v, whole := b.fn.tmp("v"), b.fn.tmp("whole")
		b.add(jen.List(jen.Id(v), jen.Id(whole)).Op(":=").Add(call("FlattenNullable", arr.v.Clone())))
		return val{v: jen.Id(v), ok: andOK(ok, jen.Id(whole)), t: e.Type}, true
	case "slice":
		return c.errorHelper(b, e.Type, ok, "Slice", args[0].v.Clone(), args[1].v.Clone(), args[2].v.Clone()), true
	case "sequence":
		step, has := c.zero(args[0].t), jen.False()
		if len(args) == 3 {
			step, has = args[2].v.Clone(), jen.True()
		}
		if args[0].t.IsIntegral() {
			return c.errorHelper(b, e.Type, ok, "SequenceInt", args[0].v.Clone(), args[1].v.Clone(), step, has), true
		}
		if len(args) == 2 {
			step = jen.Qual(pkgTypes, "Interval").Call(jen.Lit(0))
		}
		name := "SequenceDate"
		if args[0].t.Kind == types.TimestampKind {
			name = "SequenceTimestamp"
		}
		return c.errorHelper(b, e.Type, ok, name, args[0].v.Clone(), args[1].v.Clone(), step, has), true
	case "arrays_zip":
		return c.arraysZip(b, e, args), true
	case "map_keys":
		return val{v: call("MapKeys", arr.v.Clone()), ok: ok, t: e.Type}, true
	case "map_values":
		return val{v: call("MapValues", arr.v.Clone()), ok: ok, t: e.Type}, true
	case "map_from_arrays":
		kt := c.reg.baseType(*arr.t.Elem)
		key := jen.Qual(pkgSQLFn, "Key").Types(kt)
		if nullable {
			key = jen.Qual(pkgSQLFn, "NullableKey").Types(kt)
		}
		return c.errorHelper(b, e.Type, ok, "MapFromArrays", arr.v.Clone(), args[1].v.Clone(), key), true
	}
	return val{}, false
}

// errorHelper calls sqlfn.<name>(xs...) returning (value, error); an
// error fails the row.
func (c *exprCompiler) errorHelper(b *block, t types.Type, ok *jen.Statement, name string, xs ...jen.Code) val {
	v, err := b.fn.tmp("v"), b.fn.tmp("err")
	b.add(jen.List(jen.Id(v), jen.Id(err)).Op(":=").Qual(pkgSQLFn, name).Call(xs...))
	b.add(jen.If(okCond(ok, jen.Id(err).Op("!=").Nil())).Block(b.fail(jen.Id(err))))
	return val{v: jen.Id(v), ok: ok, t: t}
}

// arraysZip compiles arrays_zip(a, b, ...): element i is the struct of
// the arrays' elements i, NULL where an array is shorter.
func (c *exprCompiler) arraysZip(b *block, e *sql.Call, args []val) val {
	s := c.reg.structFor(*e.Type.Elem, "Struct")
	out, n, i := b.fn.tmp("out"), b.fn.tmp("n"), b.fn.tmp("i")
	b.add(jen.Var().Id(out).Add(c.reg.baseType(e.Type)))
	fill := []jen.Code{jen.Id(n).Op(":=").Lit(0)}
	for _, a := range args {
		fill = append(fill, jen.Id(n).Op("=").Max(jen.Id(n), jen.Len(a.v.Clone())))
	}
	fill = append(fill, jen.Id(out).Op("=").Make(c.reg.baseType(e.Type), jen.Id(n)))
	var body []jen.Code
	for k, a := range args {
		elem := a.v.Clone().Index(jen.Id(i))
		if !a.t.ContainsNull {
			elem = jen.Qual(pkgTypes, "Some").Call(elem)
		}
		body = append(body, jen.If(jen.Id(i).Op("<").Len(a.v.Clone())).Block(
			jen.Id(out).Index(jen.Id(i)).Dot(s.fields[k].name).Op("=").Add(elem)))
	}
	fill = append(fill, jen.For(jen.Id(i).Op(":=").Range().Id(out)).Block(body...))
	ok := okAnd(args...)
	b.add(ifValid(ok, fill...)...)
	return val{v: jen.Id(out), ok: ok, t: e.Type}
}

// nestedCast compiles CAST between ARRAY, MAP and STRUCT types: element by
// element, entry by entry and field by field, each with the cast of its
// type (Spark's Cast of complex types); a NULL value stays NULL.
func (c *exprCompiler) nestedCast(b *block, e *sql.Cast, x val) val {
	from, to := x.t, e.Type
	if !sql.CastCompiles(from, to) {
		uncompilable("CAST from %s to %s", from, to)
	}
	if c.lambdas == nil {
		c.lambdas = map[int]*lambdaBinding{}
	}
	c.nextVar--
	id := c.nextVar
	switch to.Kind {
	case types.ArrayKind:
		elem := &sql.LambdaVar{ID: id, Name: "e", Type: *from.Elem, Nullable: from.ContainsNull}
		body := &sql.Cast{X: elem, Type: *to.Elem, Try: e.Try, Nullable: e.Try || from.ContainsNull, Pos: e.Pos}
		f := &sql.Lambda{Params: []*sql.LambdaVar{elem}, Body: body}
		return c.transform(b, &sql.Call{Func: "transform", Args: []sql.Expr{e.X, f}, Type: to, Nullable: x.ok != nil, Pos: e.Pos}, x)
	case types.StructKind:
		c.lambdas[id] = &lambdaBinding{x: val{v: x.v, t: from}}
		defer delete(c.lambdas, id)
		var args []sql.Expr
		for i, f := range to.Fields {
			ff := from.Fields[i]
			field := &sql.FieldRef{X: &sql.LambdaVar{ID: id, Name: "x", Type: from}, Index: i, Name: ff.Name, Type: ff.Type, Nullable: ff.Nullable}
			args = append(args, &sql.Literal{Value: f.Name, Type: types.StringType},
				&sql.Cast{X: field, Type: f.Type, Try: e.Try, Nullable: e.Try || ff.Nullable, Pos: e.Pos})
		}
		inner := b.sub()
		s := c.makeStruct(inner, &sql.Call{Func: "named_struct", Args: args, Type: to, Pos: e.Pos})
		if x.ok == nil {
			b.add(inner.stmts...)
			return s
		}
		out := b.fn.tmp("v")
		b.add(jen.Var().Id(out).Add(c.reg.baseType(to)))
		inner.add(jen.Id(out).Op("=").Add(s.v))
		b.add(jen.If(x.ok.Clone()).Block(inner.stmts...))
		return val{v: jen.Id(out), ok: x.ok.Clone(), t: to}
	case types.MapKind:
		out, kv := b.fn.tmp("out"), b.fn.tmp("kv")
		b.add(jen.Var().Id(out).Add(c.reg.baseType(to)))
		if from.Key.Kind == types.VoidKind {
			// MAP<VOID, ...> (map()) is empty: keys are never NULL.
			b.add(jen.Id("_").Op("=").Add(x.v.Clone()))
			return val{v: jen.Id(out), ok: cloneOK(x.ok), t: to}
		}
		kvVal := func(v *jen.Statement, t types.Type, nullable bool) val {
			if nullable {
				return val{v: v.Clone().Dot("V"), ok: v.Clone().Dot("Valid"), t: t, whole: v}
			}
			return val{v: v, t: t}
		}
		loop := b.sub()
		key := loop.bind(c.castVal(loop, e, kvVal(jen.Id(kv).Dot("Key"), *from.Key, false), *to.Key))
		value := loop.bind(c.castVal(loop, e, kvVal(jen.Id(kv).Dot("Value"), *from.Value, from.ValueContainsNull), *to.Value))
		kvType := jen.Qual(pkgTypes, "KV").Types(c.reg.goType(*to.Key, false), c.reg.goType(*to.Value, to.ValueContainsNull))
		loop.add(jen.Id(out).Op("=").Append(jen.Id(out), kvType.Values(jen.Dict{
			jen.Id("Key"):   c.wrap(key, false),
			jen.Id("Value"): c.wrap(value, to.ValueContainsNull),
		})))
		b.add(ifValid(x.ok, jen.For(jen.List(jen.Id("_"), jen.Id(kv)).Op(":=").Range().Add(x.v.Clone())).Block(loop.stmts...))...)
		return val{v: jen.Id(out), ok: cloneOK(x.ok), t: to}
	}
	uncompilable("CAST from %s to %s", from, to)
	return val{}
}

// castVal casts the compiled value x to t with the semantics of e (CAST
// or TRY_CAST).
func (c *exprCompiler) castVal(b *block, e *sql.Cast, x val, t types.Type) val {
	if c.lambdas == nil {
		c.lambdas = map[int]*lambdaBinding{}
	}
	c.nextVar--
	id := c.nextVar
	c.lambdas[id] = &lambdaBinding{x: x}
	defer delete(c.lambdas, id)
	return c.compile(b, &sql.Cast{X: &sql.LambdaVar{ID: id, Name: "v", Type: x.t, Nullable: x.ok != nil}, Type: t, Try: e.Try, Nullable: e.Try || x.ok != nil, Pos: e.Pos})
}

// makeMap compiles map(k1, v1, k2, v2, ...): a NULL or duplicate key fails
// the row (Spark's NULL_MAP_KEY and DUPLICATED_MAP_KEY).
func (c *exprCompiler) makeMap(b *block, e *sql.Call) val {
	kt, vt := *e.Type.Key, *e.Type.Value
	keyNullable := false
	var keys, values []val
	for i, a := range e.Args {
		x := b.bind(c.compile(b, a))
		if i%2 == 0 {
			keys = append(keys, x)
			keyNullable = keyNullable || x.ok != nil
		} else {
			values = append(values, x)
		}
	}
	ks := make([]jen.Code, len(keys))
	for i, k := range keys {
		ks[i] = c.wrap(k, keyNullable)
	}
	vs := make([]jen.Code, len(values))
	for i, v := range values {
		vs[i] = c.wrap(v, e.Type.ValueContainsNull)
	}
	key := jen.Qual(pkgSQLFn, "Key").Types(c.reg.baseType(kt))
	if keyNullable {
		key = jen.Qual(pkgSQLFn, "NullableKey").Types(c.reg.baseType(kt))
	}
	return c.errorHelper(b, e.Type, nil, "MapFromArrays",
		jen.Index().Add(c.reg.goType(kt, keyNullable)).Values(ks...),
		jen.Index().Add(c.reg.goType(vt, e.Type.ValueContainsNull)).Values(vs...), key)
}
