package gen

import (
	"fmt"
	"regexp"

	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// val is a compiled scalar: Go expressions for its value and its validity.
// ok is nil when the value can never be NULL. When ok is false, v may hold
// anything (an arithmetic result over NULL inputs, say): code that stores v
// where it is compared — hash keys — must use sqlfn.IfValid(ok, v).
type val struct {
	v  *jen.Statement
	ok *jen.Statement
	t  types.Type
	// whole, when set, is the Go expression of the value as a types.Null
	// (a nullable field read as is), so it can be copied without
	// rebuilding it.
	whole *jen.Statement
}

func (x val) nullable() bool { return x.ok != nil }

// okAnd returns the validity of a result that is NULL when any input is.
func okAnd(xs ...val) *jen.Statement {
	var out *jen.Statement
	for _, x := range xs {
		if x.ok == nil {
			continue
		}
		if out == nil {
			out = x.ok.Clone()
		} else {
			out = out.Op("&&").Add(x.ok.Clone())
		}
	}
	return out
}

// block collects the statements of one Go block while expressions compile
// into it; fn hands out local variable names unique within the function.
type block struct {
	fn    *funcScope
	stmts []jen.Code
	// rowErr builds the error returned when evaluating an expression fails
	// at run time (ANSI overflow, invalid cast, division by zero); the
	// argument is a Go expression of type error describing the failure.
	rowErr func(cause jen.Code) jen.Code
	// onFail, when set, is the statement that handles a failure instead of
	// `return <row error>`, inside a closure that cannot return the row's
	// error (array_sort's comparator).
	onFail func(cause jen.Code) jen.Code
}

// funcScope numbers the locals of one generated function.
type funcScope struct {
	n int
	// pkg collects package-level declarations the function needs
	// (compiled LIKE patterns, IN sets).
	pkg *pkgScope
	// locals are declarations placed at the start of the function
	// (decoders' scratch slices and slabs).
	locals []jen.Code
}

// pkgScope collects package-level declarations of one generated file.
type pkgScope struct {
	n     int
	decls []jen.Code
}

func (p *pkgScope) global(prefix string, init jen.Code) *jen.Statement {
	p.n++
	name := fmt.Sprintf("%s%d", prefix, p.n)
	p.decls = append(p.decls, jen.Var().Id(name).Op("=").Add(init))
	return jen.Id(name)
}

func (f *funcScope) tmp(prefix string) string {
	f.n++
	return fmt.Sprintf("%s%d", prefix, f.n)
}

func (b *block) add(c ...jen.Code) { b.stmts = append(b.stmts, c...) }

// sub returns an empty block sharing b's scope, for a nested Go block.
func (b *block) sub() *block { return &block{fn: b.fn, rowErr: b.rowErr, onFail: b.onFail} }

// fail emits `return <row error>` for cause (or the onFail statement).
func (b *block) fail(cause jen.Code) jen.Code {
	if b.onFail != nil {
		return b.onFail(cause)
	}
	return jen.Return(b.rowErr(cause))
}

// bind stores x in fresh locals unless it is already cheap to repeat, so
// that it is evaluated once.
func (b *block) bind(x val) val {
	if isSimple(x.v) && (x.ok == nil || isSimple(x.ok)) || x.t.Kind == types.VoidKind {
		// A VOID value is a constant NULL: nothing to evaluate once.
		return x
	}
	v := b.fn.tmp("v")
	if x.ok == nil {
		b.add(jen.Id(v).Op(":=").Add(x.v))
		return val{v: jen.Id(v), t: x.t}
	}
	ok := b.fn.tmp("ok")
	b.add(jen.List(jen.Id(v), jen.Id(ok)).Op(":=").List(x.v, x.ok))
	return val{v: jen.Id(v), ok: jen.Id(ok), t: x.t}
}

// isSimple reports whether a Go expression is an identifier, a selector
// chain, an index by an identifier or a literal, cheap to evaluate twice.
func isSimple(s *jen.Statement) bool {
	if s == nil {
		return true
	}
	str := fmt.Sprintf("%#v", s)
	if numericConversion.MatchString(str) {
		return true
	}
	for _, r := range str {
		switch {
		case r == '.' || r == '_' || r == '[' || r == ']' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

// numericConversion matches a typed numeric constant such as int32(0) or
// float64(1.5): as cheap to repeat as a literal.
var numericConversion = regexp.MustCompile(`^(u?int(8|16|32|64)?|float(32|64))\(-?[0-9.eE+-]+\)$`)

// exprCompiler compiles sql.Expr trees over an input row.
type exprCompiler struct {
	reg *typeRegistry
	// cols are the values of the input row's columns.
	cols []val
	// ctx is the Go expression of the *runtime.FlowContext in scope (nil
	// in pipeline checks, which run before any flow).
	ctx jen.Code
	// params is the Go expression of the *runtime.Params in scope.
	params jen.Code
	// at is the expression being compiled, named by run-time errors.
	at sql.Expr
	// lambdas are the values of the lambda parameters in scope, by
	// sql.LambdaVar.ID (lambda.go).
	lambdas map[int]*lambdaBinding
	// nextVar numbers the lambda parameters the generator makes up (nested
	// casts): negative, so they never clash with the checker's IDs.
	nextVar int
	// subq holds the locals of the flow's uncorrelated subqueries
	// (subquery.go).
	subq map[*sql.Subquery]*subqVars
}

// compile returns x's value, emitting the statements it needs into b.
func (c *exprCompiler) compile(b *block, e sql.Expr) val {
	// While e's own code is emitted (after its operands'), c.at is e, so
	// that a run-time failure names it (fail).
	prev := c.at
	c.at = e
	defer func() { c.at = prev }()
	switch e := e.(type) {
	case *sql.ColumnRef:
		x := c.cols[e.Index]
		return val{v: x.v.Clone(), ok: cloneOK(x.ok), t: x.t, whole: cloneOK(x.whole)}
	case *sql.Literal:
		return c.literal(e.Value, e.Type)
	case *sql.ParamRef:
		return c.param(e)
	case *sql.Unary:
		return c.unary(b, e)
	case *sql.Binary:
		return c.binary(b, e)
	case *sql.Cast:
		return c.cast(b, e)
	case *sql.Call:
		return c.call(b, e)
	case *sql.Case:
		return c.caseExpr(b, e)
	case *sql.In:
		return c.in(b, e)
	case *sql.Subquery:
		return c.subquery(b, e)
	case *sql.Like:
		return c.like(b, e)
	case *sql.IsNull:
		before := len(b.stmts)
		x := c.compile(b, e.X)
		if isSimple(x.v) && (x.ok != nil && len(b.stmts) > 0 || len(b.stmts) > before) {
			// The value may be a local computed only for its validity.
			b.add(jen.Id("_").Op("=").Add(x.v.Clone()))
		} else if len(b.stmts) > before {
			// The value's locals may be computed only for it: a func
			// literal that is never called uses them without evaluating
			// the value (which may not be valid to evaluate).
			b.add(jen.Id("_").Op("=").Func().Params().Any().Block(jen.Return(x.v.Clone())))
		}
		switch {
		case x.ok == nil:
			return val{v: jen.Lit(e.Not), t: types.BooleanType}
		case e.Not:
			return val{v: x.ok, t: types.BooleanType}
		default:
			return val{v: jen.Op("!").Add(x.ok), t: types.BooleanType}
		}
	case *sql.FieldRef:
		x := b.bind(c.compile(b, e.X))
		st := x.t.Fields[e.Index]
		sel := x.v.Clone().Dot(c.reg.fieldName(x.t, e.Index))
		if st.Nullable {
			return val{v: sel.Clone().Dot("V"), ok: andOK(x.ok, sel.Clone().Dot("Valid")), t: e.Type}
		}
		return val{v: sel, ok: cloneOK(x.ok), t: e.Type}
	case *sql.Subscript:
		return c.subscript(b, e)
	case *sql.LambdaVar:
		return c.lambdaVar(e)
	}
	panic(fmt.Sprintf("gen: expression %T not supported", e))
}

func cloneOK(ok *jen.Statement) *jen.Statement {
	if ok == nil {
		return nil
	}
	return ok.Clone()
}

func andOK(a, b *jen.Statement) *jen.Statement {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a.Clone()
	}
	return jen.Parens(a.Clone().Op("&&").Add(b))
}

// cond compiles a boolean expression to a Go condition that is true when
// the expression is TRUE (NULL and FALSE are false), as WHERE and
// expectations need.
func (c *exprCompiler) cond(b *block, e sql.Expr) *jen.Statement {
	x := c.compile(b, e)
	if x.ok == nil {
		return x.v
	}
	return x.ok.Clone().Op("&&").Add(x.v)
}

// zero returns the Go zero value of t.
func (c *exprCompiler) zero(t types.Type) *jen.Statement {
	switch t.Kind {
	case types.BooleanKind:
		return jen.False()
	case types.StringKind:
		return jen.Lit("")
	case types.ByteKind, types.ShortKind, types.IntKind, types.LongKind, types.FloatKind, types.DoubleKind,
		types.DateKind, types.TimestampKind, types.TimestampNTZKind, types.IntervalKind, types.YearMonthIntervalKind:
		return c.reg.baseType(t).Call(jen.Lit(0))
	case types.BinaryKind, types.ArrayKind, types.MapKind:
		// A typed nil: an untyped one cannot be ranged over, passed to
		// len or to a generic helper.
		return jen.Parens(c.reg.baseType(t)).Call(jen.Nil())
	}
	return c.reg.baseType(t).Values()
}

// literal returns the Go constant for a SQL literal.
func (c *exprCompiler) literal(v any, t types.Type) val {
	if v == nil {
		return val{v: c.zero(t), ok: jen.False(), t: t}
	}
	switch x := v.(type) {
	case bool:
		return val{v: jen.Lit(x), t: t}
	case string:
		return val{v: jen.Lit(x), t: t}
	case []byte:
		return val{v: jen.Index().Byte().Parens(jen.Lit(string(x))), t: t}
	case int8, int16, int32, int64, float32:
		return val{v: jen.Lit(x), t: t}
	case float64:
		return val{v: jen.Float64().Call(jen.Lit(x)), t: t}
	case int:
		return val{v: c.reg.baseType(t).Call(jen.Lit(x)), t: t}
	case types.Date:
		return val{v: jen.Qual(pkgTypes, "Date").Call(jen.Lit(int32(x))), t: t}
	case types.Timestamp:
		return val{v: jen.Qual(pkgTypes, "Timestamp").Call(jen.Lit(int64(x))), t: t}
	case types.Interval:
		return val{v: jen.Qual(pkgTypes, "Interval").Call(jen.Lit(int64(x))), t: t}
	case types.YearMonthInterval:
		return val{v: jen.Qual(pkgTypes, "YearMonthInterval").Call(jen.Lit(int32(x))), t: t}
	case types.Decimal:
		return val{v: jen.Qual(pkgTypes, "Decimal").Values(jen.Dict{
			jen.Id("Hi"): jen.Lit(x.Hi),
			jen.Id("Lo"): jen.Lit(x.Lo),
		}), t: t}
	}
	panic(fmt.Sprintf("gen: literal %T not supported", v))
}

// param reads a pipeline parameter bound at the start of the update.
func (c *exprCompiler) param(e *sql.ParamRef) val {
	getter := map[types.Kind]string{
		types.StringKind:   "String",
		types.LongKind:     "Int",
		types.IntKind:      "Int",
		types.BooleanKind:  "Bool",
		types.IntervalKind: "Interval",
	}[e.Type.Kind]
	if getter == "" {
		panic(fmt.Sprintf("gen: parameter of type %s", e.Type))
	}
	v := jen.Add(c.params).Dot(getter).Call(jen.Lit(e.Name))
	if e.Type.Kind == types.IntKind {
		v = jen.Int32().Call(v)
	}
	return val{v: v, t: e.Type}
}

func (c *exprCompiler) unary(b *block, e *sql.Unary) val {
	x := c.compile(b, e.X)
	switch e.Op {
	case sql.Not:
		return val{v: jen.Op("!").Parens(x.v), ok: x.ok, t: e.Type}
	case sql.BitNot:
		return val{v: jen.Op("^").Parens(x.v), ok: x.ok, t: e.Type}
	case sql.Negate:
		switch {
		case e.Type.IsIntegral():
			x = b.bind(x)
			r, good := b.fn.tmp("v"), b.fn.tmp("good")
			b.add(jen.List(jen.Id(r), jen.Id(good)).Op(":=").Qual(pkgSQLFn, "Neg").Call(x.v))
			b.add(jen.If(okCond(x.ok, jen.Op("!").Id(good))).Block(c.fail(b, overflowErr(e.Type, e.Pos))))
			return val{v: jen.Id(r), ok: cloneOK(x.ok), t: e.Type}
		case e.Type.Kind == types.DecimalKind:
			return val{v: x.v.Clone().Dot("Neg").Call(), ok: x.ok, t: e.Type}
		case e.Type.IsInterval():
			// Negating the most negative interval overflows (Spark:
			// INTERVAL_ARITHMETIC_OVERFLOW).
			x = b.bind(x)
			r, good := b.fn.tmp("v"), b.fn.tmp("good")
			b.add(jen.List(jen.Id(r), jen.Id(good)).Op(":=").Qual(pkgSQLFn, "Neg").Call(x.v))
			b.add(jen.If(okCond(x.ok, jen.Op("!").Id(good))).Block(c.fail(b, jen.Qual(pkgSQLFn, "ErrIntervalOverflow").Call(jen.Lit(e.Type.String())))))
			return val{v: jen.Id(r), ok: cloneOK(x.ok), t: e.Type}
		}
		return val{v: jen.Op("-").Parens(x.v), ok: x.ok, t: e.Type}
	}
	panic("gen: unknown unary operator")
}

// fail emits the failure of the expression being compiled (c.at): the
// row error of cause, which sqlfn.InExpression extends with the
// expression's SQL text.
func (c *exprCompiler) fail(b *block, cause jen.Code) jen.Code {
	if c.at == nil {
		return b.fail(cause)
	}
	return b.fail(jen.Qual(pkgSQLFn, "InExpression").Call(cause, jen.Lit(exprText(c.at))))
}

// colIndex matches the #index FormatExpr puts after column names.
var colIndex = regexp.MustCompile(`#[0-9]+`)

// exprText renders e as SQL for messages: sql.FormatExpr without the
// column indexes.
func exprText(e sql.Expr) string { return colIndex.ReplaceAllString(sql.FormatExpr(e), "") }

// okCond returns `ok && cond`, or cond when ok is nil.
func okCond(ok *jen.Statement, cond jen.Code) *jen.Statement {
	if ok == nil {
		return jen.Add(cond)
	}
	return jen.Parens(ok.Clone().Op("&&").Add(cond))
}

func overflowErr(t types.Type, pos int) jen.Code {
	return jen.Qual(pkgSQLFn, "ErrArithmeticOverflow").Call(jen.Lit(t.String()))
}

var cmpOps = map[sql.BinaryOp]string{
	sql.Eq: "==", sql.NotEq: "!=", sql.Lt: "<", sql.LtEq: "<=", sql.Gt: ">", sql.GtEq: ">=",
}

func (c *exprCompiler) binary(b *block, e *sql.Binary) val {
	switch e.Op {
	case sql.And, sql.Or:
		return c.logic(b, e)
	case sql.Concat:
		if e.Type.Kind != types.StringKind {
			// a || b of two ARRAYs or two BINARY values (the checker
			// cast them to one type): the elements or bytes of a, then b's.
			l := b.bind(c.compile(b, e.L))
			r := b.bind(c.compile(b, e.R))
			joined := jen.Qual(pkgSQLFn, "Flatten").Call(jen.Index().Add(c.reg.baseType(e.Type)).Values(l.v.Clone(), r.v.Clone()))
			return val{v: joined, ok: okAnd(l, r), t: e.Type}
		}
	}
	l := b.bind(c.compile(b, e.L))
	r := b.bind(c.compile(b, e.R))
	switch e.Op {
	case sql.Eq, sql.NotEq, sql.Lt, sql.LtEq, sql.Gt, sql.GtEq:
		return val{v: c.compare(l, r, cmpOps[e.Op]), ok: okAnd(l, r), t: types.BooleanType}
	case sql.NullSafeEq:
		eq := c.compare(l, r, "==")
		switch {
		case l.ok == nil && r.ok == nil:
			return val{v: eq, t: types.BooleanType}
		case l.ok == nil:
			return val{v: r.ok.Clone().Op("&&").Add(eq), t: types.BooleanType}
		case r.ok == nil:
			return val{v: l.ok.Clone().Op("&&").Add(eq), t: types.BooleanType}
		}
		return val{v: jen.Parens(l.ok.Clone().Op("&&").Add(r.ok.Clone()).Op("&&").Add(eq)).Op("||").
			Parens(jen.Op("!").Add(l.ok.Clone()).Op("&&").Op("!").Add(r.ok.Clone())), t: types.BooleanType}
	case sql.Concat:
		return val{v: l.v.Clone().Op("+").Add(r.v.Clone()), ok: okAnd(l, r), t: e.Type}
	case sql.BitAnd:
		return val{v: l.v.Clone().Op("&").Add(r.v.Clone()), ok: okAnd(l, r), t: e.Type}
	case sql.BitOr:
		return val{v: l.v.Clone().Op("|").Add(r.v.Clone()), ok: okAnd(l, r), t: e.Type}
	case sql.BitXor:
		return val{v: l.v.Clone().Op("^").Add(r.v.Clone()), ok: okAnd(l, r), t: e.Type}
	}
	return c.arith(b, e, l, r)
}

// compare returns the Go condition `l op r` for two non-NULL values of the
// same type, with Spark's ordering (NaN is the largest float and equals
// itself; false < true).
func (c *exprCompiler) compare(l, r val, op string) *jen.Statement {
	switch l.t.Kind {
	case types.VoidKind:
		// Only NULLs (ORDER BY NULL): equal, never less.
		return jen.Lit(op == "==" || op == "<=" || op == ">=")
	case types.FloatKind, types.DoubleKind, types.DecimalKind, types.BooleanKind, types.BinaryKind,
		types.ArrayKind, types.StructKind, types.MapKind:
		return jen.Qual(pkgSQLFn, "Compare").Call(l.v.Clone(), r.v.Clone()).Op(op).Lit(0)
	}
	return l.v.Clone().Op(op).Add(r.v.Clone())
}

// logic compiles AND and OR with SQL's three-valued logic, evaluating the
// right side only when the left does not decide the result (as Spark does).
func (c *exprCompiler) logic(b *block, e *sql.Binary) val {
	isAnd := e.Op == sql.And
	l := b.bind(c.compile(b, e.L))
	rb := b.sub()
	r := c.compile(rb, e.R)
	if l.ok == nil && r.ok == nil && len(rb.stmts) == 0 {
		op := "||"
		if isAnd {
			op = "&&"
		}
		return val{v: jen.Parens(l.v.Clone().Op(op).Add(r.v)), t: types.BooleanType}
	}
	r = rb.bind(r)
	// decided is the operand value that settles the result on its own:
	// FALSE for AND, TRUE for OR.
	decided := !isAnd
	is := func(x val) *jen.Statement {
		if decided {
			return okCond(x.ok, x.v.Clone())
		}
		return okCond(x.ok, jen.Op("!").Add(x.v.Clone()))
	}
	v, ok := b.fn.tmp("v"), b.fn.tmp("ok")
	set := func(x bool) jen.Code { return jen.List(jen.Id(v), jen.Id(ok)).Op("=").List(jen.Lit(x), jen.True()) }
	b.add(jen.Var().Id(v).Bool(), jen.Var().Id(ok).Bool())
	// Otherwise the result is !decided when both sides are known, else NULL.
	if both := andOK(cloneOK(l.ok), cloneOK(r.ok)); both == nil {
		rb.add(jen.If(is(r)).Block(set(decided)).Else().Block(set(!decided)))
	} else {
		rb.add(jen.If(is(r)).Block(set(decided)).Else().If(both).Block(set(!decided)))
	}
	b.add(jen.If(is(l)).Block(set(decided)).Else().Block(rb.stmts...))
	return val{v: jen.Id(v), ok: jen.Id(ok), t: types.BooleanType}
}

// arith compiles + - * / DIV % over numbers, dates and intervals, with ANSI
// errors on overflow and division by zero.
func (c *exprCompiler) arith(b *block, e *sql.Binary, l, r val) val {
	ok := okAnd(l, r)
	t := e.Type
	if t.Kind == types.DecimalKind {
		return c.decimalArith(b, e, l, r)
	}
	name := map[sql.BinaryOp]string{sql.Add: "Add", sql.Sub: "Sub", sql.Mul: "Mul", sql.Div: "Div", sql.IntDiv: "IntDiv", sql.Mod: "Mod"}[e.Op]
	if name == "" {
		panic(fmt.Sprintf("gen: binary operator %d not supported", e.Op))
	}
	if t.IsInterval() && (e.Op == sql.Mul || e.Op == sql.Div) {
		return c.intervalByNumber(b, e, name, l, r)
	}
	if t.IsInterval() && l.t.Kind == t.Kind && r.t.Kind == t.Kind {
		// interval ± interval: an overflow fails the row.
		fn := name + kindSuffix(t) + kindSuffix(t)
		res, good := b.fn.tmp("v"), b.fn.tmp("good")
		b.add(jen.List(jen.Id(res), jen.Id(good)).Op(":=").Qual(pkgSQLFn, fn).Call(l.v.Clone(), r.v.Clone()))
		if e.Try {
			return val{v: jen.Id(res), ok: andOK(ok, jen.Id(good)), t: t}
		}
		b.add(jen.If(okCond(ok, jen.Op("!").Id(good))).Block(c.fail(b, jen.Qual(pkgSQLFn, "ArithmeticError").Call(
			jen.Lit(name), jen.Lit(t.String()), l.v.Clone(), r.v.Clone()))))
		return val{v: jen.Id(res), ok: ok, t: t}
	}
	if e.Op == sql.IntDiv && l.t.Kind == types.DecimalKind {
		// DECIMAL div DECIMAL is a BIGINT, truncated toward zero.
		res, good := b.fn.tmp("v"), b.fn.tmp("good")
		b.add(jen.List(jen.Id(res), jen.Id(good)).Op(":=").Qual(pkgSQLFn, "DecimalIntDiv").Call(
			l.v.Clone(), jen.Lit(l.t.Scale), r.v.Clone(), jen.Lit(r.t.Scale)))
		if e.Try {
			return val{v: jen.Id(res), ok: andOK(ok, jen.Id(good)), t: t}
		}
		b.add(jen.If(okCond(ok, jen.Op("!").Id(good))).Block(c.fail(b, jen.Qual(pkgSQLFn, "ArithmeticError").Call(
			jen.Lit(name), jen.Lit(t.String()), formatValue(l.t, l.v), formatValue(r.t, r.v)))))
		return val{v: jen.Id(res), ok: ok, t: t}
	}
	switch {
	case t.IsFloating() && (e.Op == sql.Add || e.Op == sql.Sub || e.Op == sql.Mul):
		op := map[sql.BinaryOp]string{sql.Add: "+", sql.Sub: "-", sql.Mul: "*"}[e.Op]
		return val{v: l.v.Clone().Op(op).Add(r.v.Clone()), ok: ok, t: t}
	case t.Kind == types.DateKind || t.Kind == types.TimestampKind || t.Kind == types.TimestampNTZKind || t.Kind == types.IntervalKind:
		// date ± int days, timestamp ± interval, timestamp - timestamp,
		// date or timestamp ± months (in the session time zone, but for
		// a TIMESTAMP_NTZ).
		fn := name + kindSuffix(l.t) + kindSuffix(r.t)
		switch {
		case l.t.Kind == types.TimestampNTZKind && r.t.Kind == types.YearMonthIntervalKind:
			fn = name + "TimestampNTZYMInterval"
		case l.t.Kind == types.TimestampNTZKind && r.t.Kind == types.TimestampNTZKind:
			fn = "SubTimestampNTZTimestampNTZ"
		}
		res := b.fn.tmp("v")
		b.add(jen.Id(res).Op(":=").Qual(pkgSQLFn, fn).Call(l.v.Clone(), r.v.Clone()))
		return val{v: jen.Id(res), ok: ok, t: t}
	}
	if e.Op == sql.IntDiv && l.t.IsInterval() {
		// interval div interval: the quotient of the months or
		// microseconds.
		l, r = val{v: jen.Int64().Call(l.v), ok: l.ok, t: types.LongType}, val{v: jen.Int64().Call(r.v), ok: r.ok, t: types.LongType}
	}
	// Integral arithmetic and every division: helpers report overflow or
	// division by zero, which fail the row under ANSI semantics.
	res, good := b.fn.tmp("v"), b.fn.tmp("good")
	b.add(jen.List(jen.Id(res), jen.Id(good)).Op(":=").Qual(pkgSQLFn, name).Call(l.v.Clone(), r.v.Clone()))
	if e.Try {
		return val{v: jen.Id(res), ok: andOK(ok, jen.Id(good)), t: t}
	}
	b.add(jen.If(okCond(ok, jen.Op("!").Id(good))).Block(c.fail(b, jen.Qual(pkgSQLFn, "ArithmeticError").Call(jen.Lit(name), jen.Lit(t.String()), l.v.Clone(), r.v.Clone()))))
	return val{v: jen.Id(res), ok: ok, t: t}
}

// intervalByNumber compiles interval * number and interval / number (the
// checker puts the interval first): sqlfn.MulIntervalInt and its kin,
// failing the row on overflow or a zero divisor.
func (c *exprCompiler) intervalByNumber(b *block, e *sql.Binary, name string, l, r val) val {
	args := []jen.Code{l.v.Clone()}
	name += kindSuffix(l.t)
	switch {
	case r.t.Kind == types.DecimalKind:
		name += "Decimal"
		args = append(args, r.v.Clone(), jen.Lit(r.t.Scale))
	case r.t.IsFloating():
		name += "Double"
		args = append(args, jen.Float64().Call(r.v.Clone()))
	default:
		name += "Int"
		args = append(args, jen.Int64().Call(r.v.Clone()))
	}
	ok := okAnd(l, r)
	res, good := b.fn.tmp("v"), b.fn.tmp("good")
	b.add(jen.List(jen.Id(res), jen.Id(good)).Op(":=").Qual(pkgSQLFn, name).Call(args...))
	if e.Try {
		return val{v: jen.Id(res), ok: andOK(ok, jen.Id(good)), t: e.Type}
	}
	op := map[sql.BinaryOp]string{sql.Mul: "Mul", sql.Div: "Div"}[e.Op]
	rv := r.v.Clone()
	if r.t.Kind == types.DecimalKind {
		rv = formatValue(r.t, r.v)
	}
	b.add(jen.If(okCond(ok, jen.Op("!").Id(good))).Block(c.fail(b, jen.Qual(pkgSQLFn, "ArithmeticError").Call(
		jen.Lit(op), jen.Lit(e.Type.String()), l.v.Clone(), rv))))
	return val{v: jen.Id(res), ok: ok, t: e.Type}
}

func kindSuffix(t types.Type) string {
	switch t.Kind {
	case types.DateKind:
		return "Date"
	case types.TimestampKind, types.TimestampNTZKind:
		return "Timestamp"
	case types.IntervalKind:
		return "Interval"
	case types.YearMonthIntervalKind:
		return "YMInterval"
	case types.IntKind, types.ShortKind, types.ByteKind, types.LongKind:
		return "Int"
	}
	return ""
}

// decimalArith compiles DECIMAL arithmetic: operands are rescaled and the
// result rounded HALF_UP to the result scale; exceeding the result
// precision is an overflow error (Spark's DecimalPrecision, ANSI mode).
func (c *exprCompiler) decimalArith(b *block, e *sql.Binary, l, r val) val {
	name := map[sql.BinaryOp]string{sql.Add: "DecimalAdd", sql.Sub: "DecimalSub", sql.Mul: "DecimalMul", sql.Div: "DecimalDiv", sql.Mod: "DecimalMod"}[e.Op]
	if name == "" {
		panic(fmt.Sprintf("gen: decimal operator %d not supported", e.Op))
	}
	res, good := b.fn.tmp("v"), b.fn.tmp("good")
	b.add(jen.List(jen.Id(res), jen.Id(good)).Op(":=").Qual(pkgSQLFn, name).Call(
		l.v.Clone(), jen.Lit(l.t.Scale), r.v.Clone(), jen.Lit(r.t.Scale), jen.Lit(e.Type.Precision), jen.Lit(e.Type.Scale)))
	ok := okAnd(l, r)
	if e.Try {
		return val{v: jen.Id(res), ok: andOK(ok, jen.Id(good)), t: e.Type}
	}
	b.add(jen.If(okCond(ok, jen.Op("!").Id(good))).Block(c.fail(b, jen.Qual(pkgSQLFn, "ArithmeticError").Call(jen.Lit(name), jen.Lit(e.Type.String()), formatValue(l.t, l.v), formatValue(r.t, r.v)))))
	return val{v: jen.Id(res), ok: ok, t: e.Type}
}

// caseExpr compiles a searched CASE; each branch is evaluated only when
// reached.
func (c *exprCompiler) caseExpr(b *block, e *sql.Case) val {
	v, ok := b.fn.tmp("v"), b.fn.tmp("ok")
	b.add(jen.Var().Id(v).Add(c.reg.baseType(e.Type)), jen.Var().Id(ok).Bool())
	assign := func(blk *block, x sql.Expr) {
		y := c.compile(blk, x)
		okv := jen.True()
		if y.ok != nil {
			okv = y.ok
		}
		blk.add(jen.List(jen.Id(v), jen.Id(ok)).Op("=").List(y.v, okv))
	}
	// Build the chain from the last arm backwards so each condition is
	// compiled inside the else branch of the previous one.
	var tail []jen.Code
	if e.Else != nil {
		eb := b.sub()
		assign(eb, e.Else)
		tail = eb.stmts
	}
	for i := len(e.Whens) - 1; i >= 0; i-- {
		w := e.Whens[i]
		cb := b.sub()
		cond := c.cond(cb, w.Cond)
		tb := b.sub()
		assign(tb, w.Then)
		ifs := jen.If(cond).Block(tb.stmts...)
		if len(tail) > 0 {
			ifs = ifs.Else().Block(tail...)
		}
		tail = append(cb.stmts, ifs)
	}
	b.add(tail...)
	// A consumer of a CASE the checker types as never NULL may ignore ok.
	b.add(jen.Id("_").Op("=").Id(ok))
	return val{v: jen.Id(v), ok: jen.Id(ok), t: e.Type}
}

// in compiles x IN (list): TRUE on a match, NULL when x is NULL or when
// there is no match and the list holds a NULL, FALSE otherwise.
func (c *exprCompiler) in(b *block, e *sql.In) val {
	x := b.bind(c.compile(b, e.X))
	v, ok := b.fn.tmp("v"), b.fn.tmp("ok")
	b.add(jen.Var().Id(v).Bool())
	// A consumer of an IN the checker types as never NULL may ignore ok.
	b.add(jen.Id(ok).Op(":=").True(), jen.Id("_").Op("=").Id(ok))
	sawNull := b.fn.tmp("null")
	b.add(jen.Id(sawNull).Op(":=").False())
	var chain []jen.Code
	for _, item := range e.List {
		ib := b.sub()
		y := ib.bind(c.compile(ib, item))
		hit := c.compare(x, y, "==")
		if y.ok != nil {
			ib.add(jen.If(jen.Op("!").Add(y.ok.Clone())).Block(jen.Id(sawNull).Op("=").True()).
				Else().If(hit).Block(jen.Id(v).Op("=").True()))
		} else {
			ib.add(jen.If(hit).Block(jen.Id(v).Op("=").True()))
		}
		chain = append(chain, jen.If(jen.Op("!").Id(v)).Block(ib.stmts...))
	}
	body := append(chain, jen.If(jen.Op("!").Id(v).Op("&&").Id(sawNull)).Block(jen.Id(ok).Op("=").False()))
	if x.ok != nil {
		b.add(jen.If(x.ok.Clone()).Block(body...).Else().Block(jen.Id(ok).Op("=").False()))
	} else {
		b.add(body...)
	}
	res := jen.Id(v)
	if e.Not {
		res = jen.Op("!").Id(v)
	}
	return val{v: res, ok: jen.Id(ok), t: types.BooleanType}
}

// like compiles LIKE / ILIKE; a constant pattern is compiled once per
// program.
func (c *exprCompiler) like(b *block, e *sql.Like) val {
	x := b.bind(c.compile(b, e.X))
	esc := e.Escape
	if esc == 0 {
		esc = '\\'
	}
	var m *jen.Statement
	if lit, isLit := e.Pattern.(*sql.Literal); isLit && lit.Value != nil {
		pat := b.fn.pkg.global("like", jen.Qual(pkgSQLFn, "MustCompileLike").Call(jen.Lit(lit.Value.(string)), jen.Lit(esc), jen.Lit(e.CaseInsensitive)))
		m = pat.Dot("Match").Call(x.v.Clone())
		res := m
		if e.Not {
			res = jen.Op("!").Add(m)
		}
		return val{v: res, ok: cloneOK(x.ok), t: types.BooleanType}
	}
	p := b.bind(c.compile(b, e.Pattern))
	v, bad := b.fn.tmp("v"), b.fn.tmp("err")
	b.add(jen.List(jen.Id(v), jen.Id(bad)).Op(":=").Qual(pkgSQLFn, "Like").Call(x.v.Clone(), p.v.Clone(), jen.Lit(esc), jen.Lit(e.CaseInsensitive)))
	ok := okAnd(x, p)
	b.add(jen.If(okCond(ok, jen.Id(bad).Op("!=").Nil())).Block(c.fail(b, jen.Id(bad))))
	res := jen.Id(v)
	if e.Not {
		res = jen.Op("!").Id(v)
	}
	return val{v: res, ok: ok, t: types.BooleanType}
}

// subscript compiles arr[i] (0-based; out of range is an error under ANSI
// semantics) and map[key] (NULL when the key is absent).
func (c *exprCompiler) subscript(b *block, e *sql.Subscript) val {
	x := b.bind(c.compile(b, e.X))
	i := b.bind(c.compile(b, e.Index))
	ok := okAnd(x, i)
	v, found := b.fn.tmp("v"), b.fn.tmp("found")
	if x.t.Kind == types.MapKind {
		b.add(jen.List(jen.Id(v), jen.Id(found)).Op(":=").Qual(pkgSQLFn, "MapGet").Call(x.v.Clone(), i.v.Clone()))
		return c.unwrapElem(val{v: jen.Id(v), ok: andOK(ok, jen.Id(found)), t: *x.t.Value}, x.t.ValueContainsNull, b)
	}
	b.add(jen.List(jen.Id(v), jen.Id(found)).Op(":=").Qual(pkgSQLFn, "ArrayAt").Call(x.v.Clone(), i.v.Clone()))
	b.add(jen.If(okCond(ok, jen.Op("!").Id(found))).Block(c.fail(b, jen.Qual(pkgSQLFn, "ErrArrayIndex").Call(i.v.Clone(), jen.Len(x.v.Clone())))))
	return c.unwrapElem(val{v: jen.Id(v), ok: ok, t: *x.t.Elem}, x.t.ContainsNull, b)
}

// unwrapElem turns an element of Go type Null[T] (when nullable) into a val.
func (c *exprCompiler) unwrapElem(x val, nullable bool, b *block) val {
	if !nullable {
		return x
	}
	return val{v: x.v.Clone().Dot("V"), ok: andOK(x.ok, x.v.Clone().Dot("Valid")), t: x.t}
}

// wrap returns x as a value of Go type t's representation with the given
// nullability: types.Null[T]{...} when nullable, the bare value otherwise.
func (c *exprCompiler) wrap(x val, nullable bool) *jen.Statement {
	if !nullable {
		return x.v.Clone()
	}
	if x.whole != nil {
		return x.whole.Clone()
	}
	if x.ok == nil {
		return jen.Qual(pkgTypes, "Some").Call(x.v.Clone())
	}
	return c.reg.goType(x.t, true).Values(jen.Dict{jen.Id("V"): x.v.Clone(), jen.Id("Valid"): x.ok.Clone()})
}

// fieldName returns the Go field name of field i of STRUCT type t.
func (r *typeRegistry) fieldName(t types.Type, i int) string {
	s, ok := r.bySig[typeSig(t)]
	if !ok {
		s = r.structFor(t, "Struct")
	}
	return s.fields[i].name
}
