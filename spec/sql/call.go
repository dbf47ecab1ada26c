package sql

import (
	"fmt"
	"strings"

	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/types"
)

// call types a function call.
func (c *checker) call(e *callExpr, ctx *exprCtx) Expr {
	name := e.name.name
	if strings.EqualFold(name, "struct") {
		// STRUCT(t.*), STRUCT(s.*): the table's columns or the struct's
		// fields, each a field of its name (Spark's struct.sql).
		args, names, ok := c.expandStructStars(e.args, e.argNames, ctx)
		if !ok {
			return bad
		}
		cp := *e
		cp.args, cp.argNames = args, names
		e = &cp
	}
	if r, handled := c.rewriteCallAST(e, ctx); handled {
		return r
	}
	fn := LookupFunction(name)
	if fn == nil {
		if x, ok := c.refuseMakeInterval(e); ok {
			return x
		}
		hint := ""
		if s := suggest(name, functionNames()); s != "" {
			hint = fmt.Sprintf("did you mean %q?", s)
		}
		c.errorf(e.name.pos, e.name.end, "UNRESOLVED_ROUTINE", hint, "function %q does not exist", name)
		return bad
	}
	if e.over != nil {
		return c.windowCall(fn, e, ctx)
	}
	if fn.Kind == WindowFunc {
		c.errorf(e.name.pos, e.end, "WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE", "add OVER (ORDER BY ...)",
			"window function %s needs an OVER clause", fn.Name)
		return bad
	}
	if fn.Kind == GeneratorFunc {
		code := "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS"
		if ctx.clause != "the SELECT list" && ctx.clause != "a lambda function" {
			code = "UNSUPPORTED_GENERATOR.OUTSIDE_SELECT"
		}
		c.errorf(e.name.pos, e.end, code, "give it a SELECT item of its own, or use LATERAL VIEW",
			"generator %s is only allowed alone in a SELECT item or in LATERAL VIEW", fn.Name)
		return bad
	}
	agg := fn.Kind == AggregateFunc
	if (fn.Name == "percentile_cont" || fn.Name == "percentile_disc") && !e.withinGroup {
		c.errorf(e.name.pos, e.end, "INVALID_WITHIN_GROUP_EXPRESSION", fmt.Sprintf("write %s(p) WITHIN GROUP (ORDER BY x)", fn.Name),
			"%s needs WITHIN GROUP (ORDER BY ...)", fn.Name)
		return bad
	}
	switch {
	case agg && ctx.inAgg:
		c.errorf(e.name.pos, e.end, "NESTED_AGGREGATE_FUNCTION", "compute the inner aggregate in a subquery",
			"aggregate function %s cannot be used inside another aggregate function", fn.Name)
		return bad
	case agg && ctx.agg == nil:
		hint := ""
		if ctx.clause == "WHERE" {
			hint = "filter groups with HAVING"
		}
		c.errorf(e.name.pos, e.end, aggClauseCodes[ctx.clause], hint, "aggregate function %s is not allowed in %s", fn.Name, ctx.clause)
		return bad
	case !agg && e.distinct:
		c.errorf(e.name.pos, e.end, "", "", "DISTINCT is only allowed in aggregate functions, not in %s", fn.Name)
		return bad
	case !agg && e.filter != nil:
		c.errorf(e.name.pos, e.end, "", "", "FILTER is only allowed with aggregate functions, not with %s", fn.Name)
		return bad
	case e.star && (fn.Name != "count" || e.distinct):
		c.errorf(e.name.pos, e.end, "INVALID_USAGE_OF_STAR_OR_REGEX", "", "'*' is only allowed in count(*)")
		return bad
	case fn.Name == "count" && !e.star && len(e.args) == 0:
		c.errorf(e.name.pos, e.end, "WRONG_NUM_ARGS", "write count(*) to count rows", "count takes at least 1 argument")
		return bad
	}
	if isHigherOrder(fn) {
		return c.higherOrder(fn, e, ctx)
	}
	argCtx := ctx
	if agg {
		cp := *ctx
		cp.inAgg = true
		argCtx = &cp
	}
	args := make([]Expr, len(e.args))
	failed := false
	for i, a := range e.args {
		args[i] = c.expr(a, argCtx)
		failed = failed || isBad(args[i])
	}
	var filter Expr
	if e.filter != nil {
		fctx := *argCtx
		fctx.clause = filterClause
		filter = c.boolean(e.filter, &fctx, filterClause)
		failed = failed || isBad(filter)
	}
	if failed {
		return bad
	}
	if x, ok := c.intervalCall(fn, e, args, ctx); ok {
		return x
	}
	if fn.Name == "lpad" || fn.Name == "rpad" {
		args = c.padArgs(args, e.args)
	}
	if noImplicitString[fn.Name] && len(args) == 1 {
		if k := args[0].ResultType().Kind; k != types.StringKind && k != types.VoidKind {
			c.errorAt(e.args[0], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "cast it: CAST(x AS STRING)",
				"argument 1 of %s must be STRING, not %s", fn.Name, args[0].ResultType())
			return bad
		}
	}
	if (fn.Name == "date_add" || fn.Name == "date_sub") && len(args) == 2 {
		// Spark's DateAdd takes INT, SMALLINT or TINYINT days (a STRING
		// is cast); BIGINT, DECIMAL and DOUBLE are refused (date.sql.out).
		switch k := args[1].ResultType().Kind; k {
		case types.ByteKind, types.ShortKind, types.IntKind, types.StringKind, types.VoidKind:
		default:
			c.errorAt(e.args[1], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "cast it: CAST(x AS INT)",
				"argument 2 of %s must be INT, SMALLINT or TINYINT, not %s", fn.Name, args[1].ResultType())
			return bad
		}
	}
	if fn.Name == "to_char" && len(args) > 0 {
		switch k := args[0].ResultType().Kind; {
		case args[0].ResultType().IsNumeric(), k == types.BinaryKind:
			c.errorAt(e.args[0], "UNSUPPORTED_FEATURE", "use format_number or format_string for numbers, hex or base64 for BINARY",
				"%s of a %s value is not supported yet (only dates and timestamps)", e.name.name, args[0].ResultType())
			return bad
		}
	}
	if (fn.Name == "to_timestamp" || fn.Name == "try_to_timestamp") && len(args) == 1 && args[0].ResultType().IsNumeric() {
		// Without a pattern a number is seconds since the epoch: Spark's
		// ParseToTimestamp is then CAST(x AS TIMESTAMP)
		// (try_datetime_functions.sql.out: try_to_timestamp(1)).
		try := fn.Name == "try_to_timestamp"
		return &Cast{X: args[0], Type: types.TimestampType, Try: try, Nullable: try || args[0].IsNullable(), Pos: e.name.pos}
	}
	if r, handled := c.rewriteCall(fn, args, e.args, e); handled {
		return r
	}
	res := c.applyFunc(fn, args, e.args, e.name.pos, e.end, e)
	if !isBad(res) && datetimePatternArg[fn.Name] && len(args) > 1 && !c.datetimePattern(fn.Name, args[1], e.args[1]) {
		return bad
	}
	if isBad(res) || !agg {
		return res
	}
	call := res.(*Call)
	ac := &AggCall{Func: call.Func, Args: call.Args, Distinct: e.distinct, Filter: filter, Type: call.Type, Nullable: call.Nullable, Pos: call.Pos, Desc: e.withinDesc}
	return &aggRef{call: ac, name: autoName(e), end: e.end}
}

// padArgs applies Spark's rule for lpad and rpad: they pad bytes only
// when the input and the pad (when given) are both BINARY; otherwise a
// BINARY argument is read as a STRING.
func (c *checker) padArgs(args []Expr, asts []astExpr) []Expr {
	isBin := func(i int) bool { return i < len(args) && args[i].ResultType().Kind == types.BinaryKind }
	if len(args) < 2 || isBin(0) == (len(args) < 3 || isBin(2)) {
		return args
	}
	out := append([]Expr(nil), args...)
	for _, i := range []int{0, 2} {
		if isBin(i) {
			out[i] = c.castTo(args[i], types.StringType, asts[i])
		}
	}
	return out
}

// noImplicitString names the functions whose STRING argument is not cast
// implicitly (Spark's ExpectsInputTypes without ImplicitCastInputTypes:
// json-functions.sql.out, json_array_length(2) is DATATYPE_MISMATCH).
var noImplicitString = map[string]bool{"json_array_length": true, "json_object_keys": true}

// datetimePatternArg names the functions whose second argument is a
// datetime pattern.
var datetimePatternArg = map[string]bool{
	"date_format": true, "to_date": true, "to_timestamp": true, "try_to_timestamp": true,
	"unix_timestamp": true, "from_unixtime": true, "to_char": true,
}

// formatsDatetime names the datetimePatternArg functions that format
// (the others parse, and refuse more letters).
var formatsDatetime = map[string]bool{"date_format": true, "from_unixtime": true, "to_char": true}

// datetimePattern rejects a constant datetime pattern Spark refuses (a
// letter it does not know or no longer supports, such as the week-based
// Y, w, u): the program would fail or write an empty string at run time. It reports
// whether the pattern is acceptable (patterns computed per row are
// checked when they are used).
func (c *checker) datetimePattern(fn string, x Expr, at astExpr) bool {
	s, ok := stringLiteral(x)
	if !ok {
		return true
	}
	var err error
	if formatsDatetime[fn] {
		err = sqlfn.CompileDatetimePattern(s)
	} else {
		err = sqlfn.CompileDatetimeParsePattern(s)
	}
	if err == nil {
		return true
	}
	code := "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION"
	if strings.ContainsAny(s, "YwuecW") {
		code = "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN"
	}
	c.errorAt(at, code, "write a Spark datetime pattern such as yyyy-MM-dd HH:mm:ss (week-based fields are not supported since Spark 3)",
		"invalid datetime pattern: %v", err)
	return false
}

// filterClause names an aggregate's FILTER (WHERE ...) in messages.
const filterClause = "the FILTER condition"

// applyFunc checks the arguments of fn against its signature, inserts
// their implicit casts and builds the node of fn's Form. e, when not nil,
// is the call as written (for struct field names).
func (c *checker) applyFunc(fn *Function, args []Expr, asts []astExpr, pos, end int, e *callExpr) Expr {
	n := len(args)
	arityOK := n >= fn.MinArgs && (fn.Variadic || n <= len(fn.Args))
	if fn.Variadic && fn.Repeat > 1 {
		fixed := len(fn.Args) - fn.Repeat
		arityOK = arityOK && n >= fixed && (n-fixed)%fn.Repeat == 0
	}
	if !arityOK {
		c.errorf(pos, end, "WRONG_NUM_ARGS", "", "%s takes %s, not %d", fn.Name, arityText(fn), n)
		return bad
	}
	if !c.checkConstArgs(fn.Name, args, asts) {
		return bad
	}
	if r, ok := c.nullArrayArg(fn, args, asts, pos, end, e); ok {
		return r
	}
	argErr := func(i int, format string, a ...any) Expr {
		c.errorAt(asts[i], "DATATYPE_MISMATCH", "", "argument %d of %s "+format, append([]any{i + 1, fn.Name}, a...)...)
		return bad
	}
	// Common types of the ArgCommon and ArgCommonValue groups.
	groups := map[ArgRule][]types.Type{}
	for i, a := range args {
		switch r := fn.ArgRuleAt(i); r {
		case ArgCommon, ArgCommonValue:
			groups[r] = append(groups[r], a.ResultType())
		case ArgNumericCommon:
			t, ok := implicitArg(a.ResultType(), r)
			if !ok {
				c.errorAt(asts[i], "DATATYPE_MISMATCH", "", "argument %d of %s must be numeric, not %s", i+1, fn.Name, a.ResultType())
				return bad
			}
			groups[r] = append(groups[r], t)
		}
	}
	common := map[ArgRule]types.Type{}
	for r, ts := range groups {
		t, ok := widerAll(ts)
		if !ok {
			c.errorf(pos, end, "DATATYPE_MISMATCH", "cast the arguments to one type", "the arguments of %s have no common type: %s", fn.Name, typeList(ts))
			return bad
		}
		common[r] = t
	}
	out := make([]Expr, n)
	for i, a := range args {
		rule := fn.ArgRuleAt(i)
		at := a.ResultType()
		var t types.Type
		ok := true
		switch rule {
		case ArgCommon, ArgCommonValue, ArgNumericCommon:
			t = common[rule]
		case ArgElement:
			arr := out[0].ResultType()
			if t, ok = widerType(*arr.Elem, at); !ok {
				return argErr(i, "must be comparable with the elements of %s, not %s", arr, at)
			}
			if !t.Equal(*arr.Elem) {
				out[0] = c.castTo(out[0], types.ArrayOf(t, arr.ContainsNull), asts[0])
			}
		case ArgIndexOrKey:
			coll := out[0].ResultType()
			if coll.Kind == types.ArrayKind {
				t, ok = implicitArg(at, ArgInt)
			} else {
				t, ok = *coll.Key, mapKeyAccepts(*coll.Key, at)
			}
			if !ok {
				return argErr(i, "must be an index or key of %s, not %s", coll, at)
			}
		default:
			if t, ok = implicitArg(at, rule); !ok {
				return argErr(i, "must be %s, not %s", rule, at)
			}
		}
		if rule == ArgPercentages {
			p, ok := percentages(a)
			if !ok {
				return argErr(i, "must be a constant number or an ARRAY of constant numbers between 0.0 and 1.0")
			}
			out[i] = p
			continue
		}
		switch rule {
		case ArgIntConst, ArgStringConst, ArgBooleanConst, ArgDoubleConst:
			l, isLit := a.(*Literal)
			if !isLit || l.Value == nil {
				return argErr(i, "must be a constant %s", t)
			}
			if rule == ArgDoubleConst {
				f, isNum := floatValue(l)
				if !isNum {
					return argErr(i, "must be a constant number")
				}
				out[i] = &Literal{Value: f, Type: types.DoubleType}
				continue
			}
			if rule == ArgIntConst {
				v, fits := intValue(l)
				if !fits || v < -1<<31 || v >= 1<<31 {
					return argErr(i, "is out of the range of INT")
				}
				out[i] = &Literal{Value: int32(v), Type: types.IntType}
				continue
			}
		}
		out[i] = c.castTo(a, t, asts[i])
	}
	typ, ok := c.resultType(fn, out, asts, e)
	if !ok {
		return bad
	}
	nullable := fn.nullable(out)
	switch fn.Form {
	case FormCast:
		return c.explicitCast(out[0], fn.Type, false, asts[0], pos)
	case FormIf:
		whens := []When{{Cond: out[0], Then: out[1]}}
		return &Case{Whens: whens, Else: out[2], Type: typ, Nullable: caseNullable(whens, out[2])}
	case FormBinary:
		b := c.binary(fn.Op, out[0], out[1], asts[0], asts[1], pos)
		if bin, ok := b.(*Binary); ok && fn.Try {
			cp := *bin
			cp.Try, cp.Nullable = true, true
			return &cp
		}
		return b
	case FormNullIf:
		eq := c.compare(Eq, out[0], out[1], asts[0], asts[1], pos)
		if isBad(eq) {
			return bad
		}
		return &Case{Whens: []When{{Cond: eq, Then: &Literal{Type: typ}}}, Else: out[0], Type: typ, Nullable: true}
	}
	call := &Call{Func: fn.Name, Args: out, Type: typ, Nullable: nullable, Pos: pos}
	if fn.Name == "window" && !c.checkWindow(call, asts) {
		return bad
	}
	return call
}

func arityText(fn *Function) string {
	plural := func(n int) string {
		if n == 1 {
			return "1 argument"
		}
		return fmt.Sprintf("%d arguments", n)
	}
	switch {
	case fn.Variadic && fn.Repeat > 1:
		return fmt.Sprintf("arguments in groups of %d", fn.Repeat)
	case fn.Variadic:
		return "at least " + plural(fn.MinArgs)
	case fn.MinArgs == len(fn.Args):
		return plural(fn.MinArgs)
	}
	return fmt.Sprintf("%d to %d arguments", fn.MinArgs, len(fn.Args))
}

// expandStructStars replaces each star among struct()'s arguments by the
// names it stands for: *, t.* (the columns of the query or of table t) or
// s.* (the fields of struct column s); argNames (the AS names, by
// position, possibly fewer than the arguments; nil when none is given)
// follow, "" for each expanded name.
// ok is false after an error.
func (c *checker) expandStructStars(args []astExpr, argNames []string, ctx *exprCtx) (out []astExpr, names []string, ok bool) {
	add := func(a astExpr, name string) {
		out = append(out, a)
		if argNames != nil {
			names = append(names, name)
		}
	}
	for k, a := range args {
		st, isStar := a.(*starExpr)
		if !isStar || len(st.except) > 0 || ctx.sc == nil {
			name := ""
			if k < len(argNames) {
				name = argNames[k]
			}
			add(a, name)
			continue
		}
		ref := func(parts ...string) astExpr {
			ids := make([]ident, len(parts))
			for i, p := range parts {
				ids[i] = ident{name: p, pos: st.pos, end: st.end}
			}
			return &nameExpr{parts: ids}
		}
		if cols := ctx.sc.starColumns(st.qual); len(cols) > 0 {
			for _, i := range cols {
				col := ctx.sc.cols[i]
				add(ref(append(append([]string(nil), col.qual...), col.Name)...), "")
			}
			continue
		}
		if len(st.qual) == 0 {
			add(a, "") // reported as a misplaced star
			continue
		}
		x := c.expr(&nameExpr{parts: st.qual}, ctx)
		if isBad(x) {
			return nil, nil, false
		}
		t := x.ResultType()
		if t.Kind != types.StructKind {
			c.errorAt(st, "CANNOT_RESOLVE_STAR_EXPAND", "name a table of the query or a STRUCT column", "%s.* is neither a table nor a STRUCT (it is %s)", joinIdents(st.qual), t)
			return nil, nil, false
		}
		for _, f := range t.Fields {
			add(ref(append(identNames(st.qual), f.Name)...), "")
		}
	}
	return out, names, true
}

// stringLiteral returns the value of x when x is a STRING literal: the
// constant arguments (patterns, charsets) the checker validates before
// the program runs.
func stringLiteral(x Expr) (string, bool) {
	l, ok := x.(*Literal)
	if !ok {
		return "", false
	}
	s, ok := l.Value.(string)
	return s, ok
}
