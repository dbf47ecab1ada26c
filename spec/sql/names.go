package sql

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file names the output columns of SELECT items written without an
// alias, the way Spark does (toPrettySQL): a column keeps its name, a
// struct field access is named by the field, anything else by its SQL text
// with fully parenthesised operators and unquoted literals, e.g.
// "(amount * 2)", "sum(amount)", "count(1)" for count(*).

// autoName returns the output name of an unaliased SELECT item.
func autoName(e astExpr) string {
	switch e := e.(type) {
	case *nameExpr:
		return e.parts[len(e.parts)-1].name
	case *fieldExpr:
		return e.name.name
	case *jsonPathExpr:
		if e.last != "" {
			return e.last
		}
	}
	var b strings.Builder
	writeSQLIn(&b, e, []string{})
	return b.String()
}

// exprSQL prints an expression as Spark's pretty SQL, but with lambda
// functions as written (x -> body).
func exprSQL(e astExpr) string {
	var b strings.Builder
	writeSQL(&b, e)
	return b.String()
}

func writeSQL(b *strings.Builder, e astExpr) { writeSQLIn(b, e, nil) }

// writeSQLIn prints e. When lambda is not nil, lambda functions are
// printed as Spark names columns: lambdafunction(body, params...), with
// the parameters in scope (held in lambda) as namedlambdavariable().
func writeSQLIn(b *strings.Builder, e astExpr, lambda []string) {
	writeSQL := func(b *strings.Builder, e astExpr) { writeSQLIn(b, e, lambda) }
	writeList := func(b *strings.Builder, es []astExpr) { writeJoined(b, es, writeSQL) }
	switch e := e.(type) {
	case nil:
		b.WriteString("NULL")
	case *nameExpr:
		for i, p := range e.parts {
			switch {
			case i == 0 && slices.ContainsFunc(lambda, func(n string) bool { return strings.EqualFold(n, p.name) }):
				b.WriteString("namedlambdavariable()")
				continue
			case i > 0:
				b.WriteByte('.')
			}
			b.WriteString(p.name)
		}
	case *starExpr:
		for _, q := range e.qual {
			b.WriteString(q.name)
			b.WriteByte('.')
		}
		b.WriteByte('*')
	case *litExpr:
		b.WriteString(literalSQL(e.typ, e.val))
	case *strExpr:
		for _, p := range e.parts {
			if p.param != "" {
				b.WriteString("${" + p.param + "}")
			} else {
				b.WriteString(p.text)
			}
		}
	case *paramExpr:
		b.WriteString("${" + e.name + "}")
	case *unaryExpr:
		if e.op == "NOT" {
			b.WriteString("(NOT ")
		} else {
			b.WriteString("(" + e.op + " ")
		}
		writeSQL(b, e.x)
		b.WriteByte(')')
	case *binaryExpr:
		b.WriteByte('(')
		writeSQL(b, e.l)
		b.WriteString(" " + e.op + " ")
		writeSQL(b, e.r)
		b.WriteByte(')')
	case *isExpr:
		b.WriteByte('(')
		writeSQL(b, e.x)
		b.WriteString(" IS ")
		if e.not {
			b.WriteString("NOT ")
		}
		b.WriteString(e.what)
		if e.y != nil {
			b.WriteString(" FROM ")
			writeSQL(b, e.y)
		}
		b.WriteByte(')')
	case *inExpr:
		b.WriteByte('(')
		writeSQL(b, e.x)
		if e.not {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		if e.query != nil {
			b.WriteString("subquery")
		}
		writeList(b, e.list)
		b.WriteString("))")
	case *betweenExpr:
		b.WriteByte('(')
		writeSQL(b, e.x)
		if e.not {
			b.WriteString(" NOT")
		}
		b.WriteString(" BETWEEN ")
		writeSQL(b, e.lo)
		b.WriteString(" AND ")
		writeSQL(b, e.hi)
		b.WriteByte(')')
	case *likeExpr:
		writeSQL(b, e.x)
		if e.not {
			b.WriteString(" NOT")
		}
		b.WriteString(" " + e.op + " ")
		if e.quantifier != "" {
			b.WriteString(e.quantifier + " (")
			for i, x := range e.patterns {
				if i > 0 {
					b.WriteString(", ")
				}
				writeSQL(b, x)
			}
			b.WriteByte(')')
			break
		}
		writeSQL(b, e.pattern)
	case *caseExpr:
		b.WriteString("CASE")
		if e.operand != nil {
			b.WriteByte(' ')
			writeSQL(b, e.operand)
		}
		for _, w := range e.whens {
			b.WriteString(" WHEN ")
			writeSQL(b, w.cond)
			b.WriteString(" THEN ")
			writeSQL(b, w.then)
		}
		if e.els != nil {
			b.WriteString(" ELSE ")
			writeSQL(b, e.els)
		}
		b.WriteString(" END")
	case *castExpr:
		if e.try {
			b.WriteString("TRY_CAST(")
		} else {
			b.WriteString("CAST(")
		}
		writeSQL(b, e.x)
		b.WriteString(" AS " + e.to.String() + ")")
	case *callExpr:
		if e.withinGroup {
			// Spark's name: percentile_cont(p) WITHIN GROUP (ORDER BY x),
			// mode() WITHIN GROUP (ORDER BY x [DESC]).
			b.WriteString(e.name.name + "(")
			if e.name.name != "mode" {
				writeSQL(b, e.args[1])
			}
			b.WriteString(") WITHIN GROUP (ORDER BY ")
			writeSQL(b, e.args[0])
			if e.withinDesc {
				b.WriteString(" DESC")
			}
			b.WriteByte(')')
			break
		}
		b.WriteString(e.name.name)
		b.WriteByte('(')
		if e.distinct {
			b.WriteString("DISTINCT ")
		}
		if e.star {
			if e.name.name == "count" {
				b.WriteByte('1')
			} else {
				b.WriteByte('*')
			}
		}
		if e.argNames == nil {
			writeList(b, e.args)
		}
		for i, a := range e.args[:len(e.argNames)] {
			if i > 0 {
				b.WriteString(", ")
			}
			writeSQL(b, a)
			if i < len(e.argNames) && e.argNames[i] != "" {
				b.WriteString(" AS " + e.argNames[i])
			}
		}
		if n := len(e.argNames); n > 0 && n < len(e.args) {
			b.WriteString(", ")
			writeList(b, e.args[n:])
		}
		if f := LookupFunction(e.name.name); lambda != nil && f != nil && f.Name == "aggregate" && len(e.args) == 3 {
			// Spark adds the identity finish lambda.
			b.WriteString(", lambdafunction(namedlambdavariable(), namedlambdavariable())")
		}
		b.WriteByte(')')
		if e.filter != nil {
			b.WriteString(" FILTER (WHERE ")
			writeSQL(b, e.filter)
			b.WriteByte(')')
		}
		if e.over != nil {
			b.WriteString(" OVER (...)")
		}
	case *fieldExpr:
		writeSQL(b, e.x)
		b.WriteString("." + e.name.name)
	case *subscriptExpr:
		writeSQL(b, e.x)
		b.WriteByte('[')
		writeSQL(b, e.index)
		b.WriteByte(']')
	case *lambdaExpr:
		if lambda == nil {
			names := make([]string, len(e.params))
			for i, p := range e.params {
				names[i] = p.name
			}
			if len(names) == 1 {
				b.WriteString(names[0])
			} else {
				b.WriteString("(" + strings.Join(names, ", ") + ")")
			}
			b.WriteString(" -> ")
			writeSQL(b, e.body)
			break
		}
		inner := slices.Clone(lambda)
		for _, p := range e.params {
			inner = append(inner, p.name)
		}
		b.WriteString("lambdafunction(")
		writeSQLIn(b, e.body, inner)
		for range e.params {
			b.WriteString(", namedlambdavariable()")
		}
		b.WriteByte(')')
	case *jsonPathExpr:
		writeSQL(b, e.x)
		b.WriteString(":" + strings.TrimPrefix(e.path, "$."))
	case *subqueryExpr:
		if e.exists {
			b.WriteString("exists(subquery)")
		} else {
			b.WriteString("scalarsubquery()")
		}
	case *badExpr:
		b.WriteString("?")
	}
}

// literalSQL prints a literal value as Spark's pretty names do: numbers
// and strings as they are, typed values with their type keyword.
func literalSQL(t types.Type, v any) string {
	if v == nil {
		return "NULL"
	}
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v)
	case string:
		return v
	case int8:
		return strconv.Itoa(int(v)) + "Y"
	case int16:
		return strconv.Itoa(int(v)) + "S"
	case int32:
		return strconv.Itoa(int(v))
	case int64:
		return strconv.FormatInt(v, 10) + "L"
	case float32:
		return strconv.FormatFloat(float64(v), 'g', -1, 32)
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEIN") {
			s += ".0"
		}
		return s
	case types.Decimal:
		return formatDecimal(v, t.Scale)
	case types.Date:
		return "DATE '" + v.String() + "'"
	case types.Timestamp:
		if t.Kind == types.TimestampNTZKind {
			return "TIMESTAMP_NTZ '" + v.String() + "'"
		}
		return "TIMESTAMP '" + v.String() + "'"
	case types.Interval:
		return formatInterval(int64(v))
	case types.YearMonthInterval:
		return formatYearMonthInterval(int32(v))
	case []byte:
		return fmt.Sprintf("X'%X'", v)
	}
	return fmt.Sprint(v)
}
