package gen_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// This file is a generator of random Spark SQL for the fuzz test
// (fuzz_test.go): typed expressions over the columns of fixed views, and
// queries around them. Expressions are built bottom up. Each candidate
// is a function of pipegen's own function table (sql.Functions, so the
// generator grows with it) or an operator, CASE, CAST, IN, LIKE, a
// subscript..., applied to expressions already built; the candidate is
// type-checked by sql.CheckExpr and, when the checker accepts it, joins
// the pool with the type the checker gave it. Arguments are drawn to fit
// each function's argument rules most of the time and at random otherwise,
// so that near misses (wrong types, wrong arity) are tried too.

// fuzzSource is the view every generated query reads: one column of each
// type the generator uses, rows with NULLs, zeros, extremes and empty
// values. Its SQL runs as a temporary view.
const fuzzSource = `SELECT CAST(i AS INT) AS i, CAST(l AS BIGINT) AS l, CAST(d AS DECIMAL(10,2)) AS d,
  CAST(f AS DOUBLE) AS f, CAST(s AS STRING) AS s, CAST(b AS BOOLEAN) AS b, CAST(dt AS DATE) AS dt,
  CAST(ts AS TIMESTAMP) AS ts, CAST(a AS ARRAY<INT>) AS a, CAST(st AS STRUCT<x: INT, y: STRING>) AS st,
  CAST(m AS MAP<STRING, INT>) AS m, CAST(sa AS ARRAY<STRING>) AS sa
FROM VALUES
  (1, 10, 1.50, 0.5, 'abc', true, '2024-02-29', '2024-03-10 02:30:00', array(1, 2, NULL), named_struct('x', 1, 'y', 'p'), map('k', 1, 'j', NULL), array('a', 'b')),
  (0, 0, 0.00, 0.0, '', false, '1970-01-01', '1970-01-01 00:00:00', array(), named_struct('x', NULL, 'y', ''), map(), array()),
  (-7, -9223372036854775807, -99999999.99, -1.0E10, 'Ünïcode %_ x', NULL, '0001-01-01', '2262-04-11 23:47:16.854775', array(NULL), NULL, map('k', -1), array(NULL, 'k')),
  (2147483647, 9223372036854775807, 99999999.99, 1.0E308, '12', true, '9999-12-31', '1900-01-01 00:00:00.000001', array(2147483647, -2147483648), named_struct('x', 7, 'y', NULL), NULL, NULL),
  (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
AS t(i, l, d, f, s, b, dt, ts, a, st, m, sa)`

// fuzzOther is the second view, for joins, subqueries and set operations:
// column names differ from fuzzSource's so that unqualified names stay
// unambiguous in a join.
const fuzzOther = `SELECT CAST(k AS INT) AS k, CAST(v AS STRING) AS v, CAST(w AS DOUBLE) AS w
FROM VALUES (1, 'abc', 0.5), (1, 'x', NULL), (0, NULL, 2.0), (NULL, 'n', -1.0), (5, '12', 0.0) AS o(k, v, w)`

// fuzzColumns are fuzzSource's output columns.
var fuzzColumns = []sql.Column{
	{Name: "i", Type: types.IntType, Nullable: true},
	{Name: "l", Type: types.LongType, Nullable: true},
	{Name: "d", Type: types.DecimalOf(10, 2), Nullable: true},
	{Name: "f", Type: types.DoubleType, Nullable: true},
	{Name: "s", Type: types.StringType, Nullable: true},
	{Name: "b", Type: types.BooleanType, Nullable: true},
	{Name: "dt", Type: types.DateType, Nullable: true},
	{Name: "ts", Type: types.TimestampType, Nullable: true},
	{Name: "a", Type: types.ArrayOf(types.IntType, true), Nullable: true},
	{Name: "st", Type: types.StructOf(types.Field{Name: "x", Type: types.IntType, Nullable: true}, types.Field{Name: "y", Type: types.StringType, Nullable: true}), Nullable: true},
	{Name: "m", Type: types.MapOf(types.StringType, types.IntType, true), Nullable: true},
	{Name: "sa", Type: types.ArrayOf(types.StringType, true), Nullable: true},
}

// fuzzLiterals are the constants expressions start from, besides the
// columns.
var fuzzLiterals = []string{
	"1", "0", "-3", "2147483647", "12L", "0L", "1.5BD", "0.00BD", "2.5D", "0.0D", "-1.0E10", "1e3",
	"NULL", "CAST(NULL AS INT)", "CAST(NULL AS STRING)", "'abc'", "''", "'12'", "'2024-01-31'", "'x%'", "'a,b,c'",
	"' Padded '", "'NaN'", "true", "false", "DATE '2024-02-29'", "TIMESTAMP '2024-01-01 10:00:00'",
	"INTERVAL '1' DAY", "INTERVAL '2 hours'", "X'00FF'", "array(1, 2, 3)", "array('x', NULL)", "map('a', 1)",
	"named_struct('p', 1, 'q', 'z')", "'yyyy-MM-dd'", "'HH:mm'", "'day'", "'month'", "'[a-c]+'", "2", "10",
	"'{\"a\": 1}'", "'$.a'", "'UTC'", "'America/Los_Angeles'",
}

// typedExpr is an expression the checker accepted, with its type.
type typedExpr struct {
	text string
	t    types.Type
}

// sqlGen generates expressions and queries from one random source.
type sqlGen struct {
	r       *rand.Rand
	pool    []typedExpr
	scalars []*sql.Function
	aggs    []*sql.Function
	windows []*sql.Function
	// tried and accepted count the expressions given to the checker.
	tried, accepted int
}

// maxExprLen bounds an expression's text, so that nesting stays readable.
const maxExprLen = 240

func newSQLGen(seed uint64) *sqlGen {
	g := &sqlGen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	for _, f := range sql.Functions() {
		switch f.Kind {
		case sql.ScalarFunc:
			if !f.Nondeterministic {
				g.scalars = append(g.scalars, f)
			}
		case sql.AggregateFunc:
			g.aggs = append(g.aggs, f)
		case sql.WindowFunc:
			g.windows = append(g.windows, f)
		}
	}
	for _, c := range fuzzColumns {
		g.pool = append(g.pool, typedExpr{c.Name, c.Type})
	}
	for _, l := range fuzzLiterals {
		g.check(l)
	}
	return g
}

// check type-checks text over fuzzSource's columns; an accepted
// expression joins the pool. It reports whether the checker accepted it.
func (g *sqlGen) check(text string) bool {
	g.tried++
	pe, errs := sql.ParseExpr(text)
	if len(errs) > 0 {
		return false
	}
	e, errs := sql.CheckExpr(pe, fuzzColumns, nil)
	if len(errs) > 0 || e == nil {
		return false
	}
	g.accepted++
	g.pool = append(g.pool, typedExpr{text, e.ResultType()})
	return true
}

func (g *sqlGen) pick(xs []typedExpr) typedExpr { return xs[g.r.IntN(len(xs))] }

// some returns a pool expression whose type satisfies ok, or any one.
func (g *sqlGen) some(ok func(types.Type) bool) typedExpr {
	var fit []typedExpr
	for _, e := range g.pool {
		if ok(e.t) {
			fit = append(fit, e)
		}
	}
	if len(fit) == 0 || g.r.IntN(20) == 0 {
		return g.pick(g.pool) // a near miss, or nothing fits
	}
	// Prefer recent (deeper) expressions half of the time.
	if g.r.IntN(2) == 0 && len(fit) > 8 {
		return fit[len(fit)-1-g.r.IntN(len(fit)/2)]
	}
	return g.pick(fit)
}

func isNumeric(t types.Type) bool {
	switch t.Kind {
	case types.ByteKind, types.ShortKind, types.IntKind, types.LongKind, types.FloatKind, types.DoubleKind, types.DecimalKind:
		return true
	}
	return false
}

func isAtomic(t types.Type) bool {
	return t.Kind != types.ArrayKind && t.Kind != types.MapKind && t.Kind != types.StructKind
}

func kindIs(ks ...types.Kind) func(types.Type) bool {
	return func(t types.Type) bool { return slices.Contains(ks, t.Kind) }
}

// fits returns the type test for an argument rule.
func fits(r sql.ArgRule) func(types.Type) bool {
	switch r {
	case sql.ArgNumeric, sql.ArgInt, sql.ArgDouble, sql.ArgLong, sql.ArgNumericCommon, sql.ArgNumericOrInterval:
		return isNumeric
	case sql.ArgString, sql.ArgStringOrBinary, sql.ArgStringConst:
		return kindIs(types.StringKind, types.BinaryKind)
	case sql.ArgBoolean, sql.ArgBooleanConst:
		return kindIs(types.BooleanKind)
	case sql.ArgDate:
		return kindIs(types.DateKind)
	case sql.ArgTimestamp, sql.ArgTimestampNTZ:
		return kindIs(types.TimestampKind, types.TimestampNTZKind)
	case sql.ArgDatetime:
		return kindIs(types.StringKind, types.DateKind, types.TimestampKind)
	case sql.ArgArray:
		return kindIs(types.ArrayKind)
	case sql.ArgArrayOrMap:
		return kindIs(types.ArrayKind, types.MapKind)
	case sql.ArgStringOrStringArray:
		return func(t types.Type) bool {
			return t.Kind == types.StringKind || t.Kind == types.ArrayKind && t.Elem.Kind == types.StringKind
		}
	case sql.ArgOrderable:
		return func(t types.Type) bool { return t.Kind != types.MapKind }
	case sql.ArgIntConst, sql.ArgDoubleConst:
		return isNumeric
	}
	return func(types.Type) bool { return true }
}

// constArg returns a literal for a constant argument rule.
func (g *sqlGen) constArg(r sql.ArgRule) string {
	switch r {
	case sql.ArgIntConst:
		return []string{"0", "1", "2", "-1", "10"}[g.r.IntN(5)]
	case sql.ArgDoubleConst, sql.ArgPercentages:
		return []string{"0.5", "0.0", "1.0", "0.25", "array(0.1, 0.9)"}[g.r.IntN(5)]
	case sql.ArgBooleanConst:
		return []string{"true", "false"}[g.r.IntN(2)]
	case sql.ArgStringConst:
		return []string{"'x'", "'yyyy-MM-dd'", "'a'", "'day'", "'b'", "'$.a'", "'UTF-8'"}[g.r.IntN(7)]
	}
	return "1"
}

// lambda returns a lambda function for a higher-order function.
func (g *sqlGen) lambda() string {
	return []string{
		"x -> x", "x -> x IS NULL", "x -> x IS NOT NULL", "x -> coalesce(x, x)", "x -> concat(x, x)",
		"x -> x + 1", "(x, i) -> i > 0", "(x, i) -> x", "(acc, x) -> acc", "(acc, x) -> acc + x",
		"(k, v) -> v", "(k, v) -> k", "(k, v) -> v IS NULL", "(a, b) -> 0", "(a, b) -> CASE WHEN a < b THEN -1 WHEN a > b THEN 1 ELSE 0 END",
		"(k, v1, v2) -> v1", "acc -> acc", "x -> upper(x)", "x -> x.x",
	}[g.r.IntN(19)]
}

// argsFor returns argument texts for a call of f (its arity drawn within
// its bounds, rarely outside them).
func (g *sqlGen) argsFor(f *sql.Function) []string {
	n := max(f.MinArgs, 1)
	if maxN := f.MaxArgs(); maxN < 0 {
		n += g.r.IntN(4)
	} else if maxN > n {
		n += g.r.IntN(maxN - n + 1)
	}
	if f.MaxArgs() == 0 {
		n = 0
	}
	if g.r.IntN(25) == 0 {
		n += []int{-1, 1}[g.r.IntN(2)] // wrong arity
		n = max(n, 0)
	}
	out := make([]string, n)
	for i := range out {
		rule := sql.ArgAny
		if len(f.Args) > 0 {
			rule = f.ArgRuleAt(i)
		}
		switch rule {
		case sql.ArgLambda:
			out[i] = g.lambda()
		case sql.ArgIntConst, sql.ArgDoubleConst, sql.ArgBooleanConst, sql.ArgStringConst, sql.ArgPercentages:
			if g.r.IntN(6) == 0 {
				out[i] = g.some(fits(rule)).text
			} else {
				out[i] = g.constArg(rule)
			}
		default:
			out[i] = g.some(fits(rule)).text
		}
	}
	return out
}

var castTargets = []string{
	"INT", "BIGINT", "TINYINT", "SMALLINT", "DOUBLE", "FLOAT", "DECIMAL(10,2)", "DECIMAL(38,0)", "DECIMAL(5,4)", "STRING",
	"BOOLEAN", "DATE", "TIMESTAMP", "TIMESTAMP_NTZ", "BINARY", "ARRAY<STRING>", "ARRAY<INT>", "MAP<STRING,STRING>",
	"STRUCT<x: STRING, y: STRING>", "INTERVAL DAY TO SECOND",
}

var binaryOps = []string{"+", "-", "*", "/", "%", "div", "=", "<>", "<", "<=", ">", ">=", "<=>", "AND", "OR", "||", "&", "|", "^"}

// expr builds one candidate expression and checks it; accepted ones join
// the pool.
func (g *sqlGen) expr() string {
	var text string
	switch k := g.r.IntN(20); {
	case k < 9:
		f := g.scalars[g.r.IntN(len(g.scalars))]
		text = fmt.Sprintf("%s(%s)", f.Name, strings.Join(g.argsFor(f), ", "))
	case k < 12:
		op := binaryOps[g.r.IntN(len(binaryOps))]
		x := g.pick(g.pool)
		y := g.some(func(t types.Type) bool { return t.Kind == x.t.Kind || isNumeric(t) && isNumeric(x.t) })
		text = fmt.Sprintf("(%s %s %s)", x.text, op, y.text)
	case k == 12:
		x := g.pick(g.pool)
		text = fmt.Sprintf("CAST(%s AS %s)", x.text, castTargets[g.r.IntN(len(castTargets))])
		if g.r.IntN(3) == 0 {
			text = "try_" + text
		}
	case k == 13:
		c := g.some(kindIs(types.BooleanKind))
		x := g.pick(g.pool)
		y := g.some(func(t types.Type) bool { return t.Kind == x.t.Kind })
		if g.r.IntN(2) == 0 {
			text = fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", c.text, x.text, y.text)
		} else {
			text = fmt.Sprintf("CASE %s WHEN %s THEN %s END", x.text, y.text, g.pick(g.pool).text)
		}
	case k == 14:
		x := g.pick(g.pool)
		switch g.r.IntN(4) {
		case 0:
			text = fmt.Sprintf("(%s IS NULL)", x.text)
		case 1:
			text = fmt.Sprintf("(NOT %s)", g.some(kindIs(types.BooleanKind)).text)
		case 2:
			text = fmt.Sprintf("(-%s)", g.some(isNumeric).text)
		default:
			text = fmt.Sprintf("(%s IS NOT DISTINCT FROM %s)", x.text, g.pick(g.pool).text)
		}
	case k == 15:
		x := g.some(isAtomic)
		same := func(t types.Type) bool { return t.Kind == x.t.Kind }
		if g.r.IntN(2) == 0 {
			text = fmt.Sprintf("(%s IN (%s, %s))", x.text, g.some(same).text, g.some(same).text)
		} else {
			text = fmt.Sprintf("(%s BETWEEN %s AND %s)", x.text, g.some(same).text, g.some(same).text)
		}
	case k == 16:
		s := g.some(kindIs(types.StringKind))
		op := []string{"LIKE", "ILIKE", "RLIKE", "NOT LIKE"}[g.r.IntN(4)]
		text = fmt.Sprintf("(%s %s %s)", s.text, op, []string{"'a%'", "'%_%'", "'[a-z]+'", "''", "'%'"}[g.r.IntN(5)])
	case k == 17:
		x := g.some(kindIs(types.ArrayKind, types.MapKind, types.StructKind))
		switch x.t.Kind {
		case types.ArrayKind:
			text = fmt.Sprintf("%s[%s]", x.text, g.some(kindIs(types.IntKind)).text)
		case types.MapKind:
			text = fmt.Sprintf("%s[%s]", x.text, g.some(kindIs(x.t.Key.Kind)).text)
		case types.StructKind:
			text = fmt.Sprintf("%s.%s", x.text, x.t.Fields[g.r.IntN(len(x.t.Fields))].Name)
		default:
			text = x.text + ".x"
		}
	case k == 18:
		x := g.pick(g.pool)
		text = fmt.Sprintf("coalesce(%s, %s)", x.text, g.some(func(t types.Type) bool { return t.Kind == x.t.Kind }).text)
	default:
		// A near miss: a function with arguments drawn at random.
		f := g.scalars[g.r.IntN(len(g.scalars))]
		args := make([]string, max(f.MinArgs, 1))
		for i := range args {
			args[i] = g.pick(g.pool).text
		}
		text = fmt.Sprintf("%s(%s)", f.Name, strings.Join(args, ", "))
	}
	if len(text) > maxExprLen {
		return ""
	}
	if !g.check(text) {
		return ""
	}
	return text
}

// accepted returns the pool's expressions past the columns and literals,
// in order: those the checker accepted.
func (g *sqlGen) grown(from int) []typedExpr { return g.pool[from:] }

// column returns an expression fit to be a table's column: intervals and
// VOID, which no table holds, are cast to STRING.
func column(e typedExpr) string {
	switch e.t.Kind {
	case types.IntervalKind, types.YearMonthIntervalKind, types.VoidKind:
		return "CAST(" + e.text + " AS STRING)"
	}
	return e.text
}

// query returns a random query over the views src and oth: an aggregate
// with GROUP BY, a window function, a join, a subquery or a set
// operation around pool expressions.
func (g *sqlGen) query() string {
	e := g.pick(g.pool)
	boolean := func() string { return g.some(kindIs(types.BooleanKind)).text }
	switch g.r.IntN(12) {
	case 0, 1: // aggregate with GROUP BY
		f := g.aggs[g.r.IntN(len(g.aggs))]
		args := g.argsFor(f)
		call := fmt.Sprintf("%s(%s)", f.Name, strings.Join(args, ", "))
		if f.Name == "count" && len(args) == 0 {
			call = "count(*)"
		}
		if g.r.IntN(5) == 0 && len(args) == 1 {
			call = fmt.Sprintf("%s(DISTINCT %s)", f.Name, args[0])
		}
		if g.r.IntN(5) == 0 {
			call += " FILTER (WHERE " + boolean() + ")"
		}
		k := g.some(isAtomic)
		q := fmt.Sprintf("SELECT %s AS g, %s AS v FROM src GROUP BY %s", column(k), call, k.text)
		switch g.r.IntN(5) {
		case 0:
			q = fmt.Sprintf("SELECT %s AS v FROM src", call)
		case 1:
			q += " HAVING count(*) > 0"
		case 2:
			q = fmt.Sprintf("SELECT %s AS g, %s AS v FROM src GROUP BY ROLLUP(%s)", column(k), call, k.text)
		}
		return q
	case 2, 3: // window function
		var call string
		if g.r.IntN(2) == 0 && len(g.windows) > 0 {
			f := g.windows[g.r.IntN(len(g.windows))]
			call = fmt.Sprintf("%s(%s)", f.Name, strings.Join(g.argsFor(f), ", "))
			if f.MaxArgs() == 0 {
				call = f.Name + "()"
			}
		} else {
			f := g.aggs[g.r.IntN(len(g.aggs))]
			call = fmt.Sprintf("%s(%s)", f.Name, strings.Join(g.argsFor(f), ", "))
		}
		over := fmt.Sprintf("PARTITION BY %s ORDER BY %s", g.some(isAtomic).text, g.some(isAtomic).text)
		switch g.r.IntN(4) {
		case 0:
			over += " ROWS BETWEEN 1 PRECEDING AND CURRENT ROW"
		case 1:
			over += " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"
		case 2:
			over = "ORDER BY " + g.some(isAtomic).text + " DESC NULLS LAST"
		}
		q := fmt.Sprintf("SELECT %s AS c, %s OVER (%s) AS w FROM src", column(e), call, over)
		if g.r.IntN(4) == 0 {
			q += " QUALIFY w IS NOT NULL"
		}
		return q
	case 4, 5: // join
		kind := []string{"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "LEFT SEMI JOIN", "LEFT ANTI JOIN", "CROSS JOIN"}[g.r.IntN(7)]
		on := []string{" ON i = k", " ON s = v AND i = k", " ON f < w", " ON " + boolean()}[g.r.IntN(4)]
		if kind == "CROSS JOIN" {
			on = ""
		}
		sel := column(e) + " AS c"
		if !strings.Contains(kind, "SEMI") && !strings.Contains(kind, "ANTI") {
			sel += ", v, w"
		}
		return fmt.Sprintf("SELECT %s FROM src %s oth%s", sel, kind, on)
	case 6, 7: // subquery
		switch g.r.IntN(5) {
		case 0:
			return fmt.Sprintf("SELECT %s AS c FROM src WHERE i IN (SELECT k FROM oth)", column(e))
		case 1:
			return fmt.Sprintf("SELECT %s AS c FROM src WHERE NOT EXISTS (SELECT 1 FROM oth WHERE w > 1)", column(e))
		case 2:
			return fmt.Sprintf("SELECT %s AS c, (SELECT max(w) FROM oth) AS mx FROM src", column(e))
		case 3:
			return fmt.Sprintf("SELECT c, count(*) AS n FROM (SELECT %s AS c FROM src WHERE %s) t GROUP BY c", column(e), boolean())
		default:
			return fmt.Sprintf("WITH t AS (SELECT %s AS c, i FROM src) SELECT a.c, b.i FROM t a JOIN t b ON a.i = b.i", column(e))
		}
	case 8, 9: // set operation
		op := []string{"UNION ALL", "UNION", "INTERSECT", "EXCEPT", "INTERSECT ALL", "EXCEPT ALL"}[g.r.IntN(6)]
		y := g.some(func(t types.Type) bool { return t.Kind == e.t.Kind || isNumeric(t) && isNumeric(e.t) })
		return fmt.Sprintf("SELECT %s AS c FROM src %s SELECT %s FROM src", column(e), op, column(y))
	case 10: // filter, order, limit, distinct
		return fmt.Sprintf("SELECT DISTINCT %s AS c FROM src WHERE %s ORDER BY 1 LIMIT %d", column(e), boolean(), g.r.IntN(4))
	default: // generator
		arr := g.some(kindIs(types.ArrayKind, types.MapKind))
		fn := []string{"explode", "explode_outer", "posexplode", "inline"}[g.r.IntN(4)]
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("SELECT i, %s(%s) FROM src", fn, arr.text)
		}
		return fmt.Sprintf("SELECT i, x FROM src LATERAL VIEW OUTER %s(%s) tv AS x", fn, arr.text)
	}
}
