package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file prints checked plans and expressions as indented text, for
// `pipegen explain`, tests and diagnostics. Column references print as
// name#index (the index into the input's columns); every implicit cast is
// visible.

var binaryOpText = [...]string{
	Add: "+", Sub: "-", Mul: "*", Div: "/", IntDiv: "DIV", Mod: "%",
	Eq: "=", NotEq: "<>", Lt: "<", LtEq: "<=", Gt: ">", GtEq: ">=", NullSafeEq: "<=>",
	And: "AND", Or: "OR", Concat: "||", BitAnd: "&", BitOr: "|", BitXor: "^",
}

// String returns the operator as written in SQL, e.g. "+" or "AND".
func (op BinaryOp) String() string {
	if int(op) < len(binaryOpText) {
		return binaryOpText[op]
	}
	return "BinaryOp(" + strconv.Itoa(int(op)) + ")"
}

// FormatExpr returns e as text, e.g. "(amount#2 * CAST(2 AS DECIMAL(1,0)))".
func FormatExpr(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

// writeJoined writes items with write, separated by ", ".
func writeJoined[T any](b *strings.Builder, items []T, write func(*strings.Builder, T)) {
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		write(b, it)
	}
}

func writeExprs(b *strings.Builder, es []Expr) { writeJoined(b, es, writeExpr) }

func writeExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case nil:
		b.WriteString("<nil>")
	case *ColumnRef:
		fmt.Fprintf(b, "%s#%d", e.Name, e.Index)
	case *Literal:
		switch {
		case e.Value == nil:
			b.WriteString("NULL")
			if e.Type.Kind != types.VoidKind {
				b.WriteString(":" + e.Type.String())
			}
		case e.Type.Kind == types.StringKind:
			b.WriteString(strconv.Quote(e.Value.(string)))
		case e.Type.Kind == types.DecimalKind:
			b.WriteString(literalSQL(e.Type, e.Value) + "BD")
		default:
			b.WriteString(literalSQL(e.Type, e.Value))
		}
	case *ParamRef:
		b.WriteString("${" + e.Name + "}")
	case *Unary:
		op := [...]string{Not: "NOT ", Negate: "- ", BitNot: "~ "}[e.Op]
		b.WriteString("(" + op)
		writeExpr(b, e.X)
		b.WriteByte(')')
	case *Binary:
		if e.Try {
			b.WriteString("try")
		}
		b.WriteByte('(')
		writeExpr(b, e.L)
		b.WriteString(" " + e.Op.String() + " ")
		writeExpr(b, e.R)
		b.WriteByte(')')
	case *Cast:
		if e.Try {
			b.WriteString("TRY_CAST(")
		} else {
			b.WriteString("CAST(")
		}
		writeExpr(b, e.X)
		b.WriteString(" AS " + e.Type.String() + ")")
	case *Call:
		b.WriteString(e.Func + "(")
		writeExprs(b, e.Args)
		b.WriteByte(')')
	case *Case:
		b.WriteString("CASE")
		for _, w := range e.Whens {
			b.WriteString(" WHEN ")
			writeExpr(b, w.Cond)
			b.WriteString(" THEN ")
			writeExpr(b, w.Then)
		}
		if e.Else != nil {
			b.WriteString(" ELSE ")
			writeExpr(b, e.Else)
		}
		b.WriteString(" END")
	case *Subquery:
		switch e.Kind {
		case ExistsSubquery:
			b.WriteString("exists(subquery)")
		case InSubquery:
			b.WriteByte('(')
			writeExpr(b, e.X)
			b.WriteString(" IN (subquery))")
		default:
			b.WriteString("scalar-subquery()")
		}
	case *In:
		b.WriteByte('(')
		writeExpr(b, e.X)
		if e.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		writeExprs(b, e.List)
		b.WriteString("))")
	case *Like:
		b.WriteByte('(')
		writeExpr(b, e.X)
		if e.Not {
			b.WriteString(" NOT")
		}
		if e.CaseInsensitive {
			b.WriteString(" ILIKE ")
		} else {
			b.WriteString(" LIKE ")
		}
		writeExpr(b, e.Pattern)
		if e.Escape != 0 {
			b.WriteString(" ESCAPE " + strconv.QuoteRune(e.Escape))
		}
		b.WriteByte(')')
	case *IsNull:
		b.WriteByte('(')
		writeExpr(b, e.X)
		if e.Not {
			b.WriteString(" IS NOT NULL)")
		} else {
			b.WriteString(" IS NULL)")
		}
	case *FieldRef:
		writeExpr(b, e.X)
		b.WriteString("." + e.Name)
	case *Subscript:
		writeExpr(b, e.X)
		b.WriteByte('[')
		writeExpr(b, e.Index)
		b.WriteByte(']')
	case *LambdaVar:
		b.WriteString(e.Name)
	case *Lambda:
		if len(e.Params) == 1 {
			b.WriteString(e.Params[0].Name)
		} else {
			b.WriteByte('(')
			writeJoined(b, e.Params, func(b *strings.Builder, v *LambdaVar) { b.WriteString(v.Name) })
			b.WriteByte(')')
		}
		b.WriteString(" -> ")
		writeExpr(b, e.Body)
	case *winRef:
		b.WriteString("window:" + e.call.Func + "(")
		writeExprs(b, e.call.Args)
		b.WriteByte(')')
	case *aggRef:
		b.WriteString("agg:")
		writeAgg(b, e.call)
	case *errExpr:
		b.WriteString("<error>")
	default:
		fmt.Fprintf(b, "%T", e)
	}
}

func writeAgg(b *strings.Builder, a *AggCall) {
	switch {
	case a.Desc:
		// mode() WITHIN GROUP (ORDER BY x DESC), its args (x, TRUE).
		b.WriteString(a.Func + "() WITHIN GROUP (ORDER BY ")
		writeExpr(b, a.Args[0])
		b.WriteString(" DESC)")
	default:
		b.WriteString(a.Func + "(")
		if a.Distinct {
			b.WriteString("DISTINCT ")
		}
		if len(a.Args) == 0 && a.Func == "count" {
			b.WriteByte('*')
		}
		writeExprs(b, a.Args)
		b.WriteByte(')')
	}
	if a.Filter != nil {
		b.WriteString(" FILTER (WHERE ")
		writeExpr(b, a.Filter)
		b.WriteByte(')')
	}
}

// formatColumns prints columns as "name TYPE[ NOT NULL][ HIDDEN]".
func formatColumns(cols []Column) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		s := types.QuoteIdent(c.Name) + " " + c.Type.String()
		if !c.Nullable {
			s += " NOT NULL"
		}
		if c.Hidden {
			s += " HIDDEN"
		}
		parts[i] = s
	}
	return strings.Join(parts, ", ")
}

// FormatPlan returns p as an indented tree, one operator a line, inputs
// below their consumer:
//
//	Project [customer_id#0 AS customer_id, count#1 AS orders] -> customer_id STRING, orders BIGINT NOT NULL
//	  Aggregate groups=[customer_id#1] aggs=[count(DISTINCT order_id#0)]
//	    Scan orders_silver -> order_id STRING NOT NULL, customer_id STRING
func FormatPlan(p Plan) string {
	var b strings.Builder
	writePlan(&b, p, 0)
	return b.String()
}

func writePlan(b *strings.Builder, p Plan, depth int) {
	b.WriteString(strings.Repeat("  ", depth))
	var inputs []Plan
	switch p := p.(type) {
	case *Scan:
		b.WriteString("Scan " + p.Name)
		if p.Streaming {
			b.WriteString(" STREAM")
		}
		if w := p.Watermark; w != nil {
			fmt.Fprintf(b, " WATERMARK %s DELAY OF %s", w.Name, formatInterval(w.Delay))
		}
	case *Values:
		b.WriteString("Values [")
		writeJoined(b, p.Rows, func(b *strings.Builder, row []Expr) {
			b.WriteByte('(')
			writeExprs(b, row)
			b.WriteByte(')')
		})
		b.WriteByte(']')
	case *Filter:
		b.WriteString("Filter ")
		writeExpr(b, p.Cond)
		inputs = []Plan{p.Input}
	case *Project:
		b.WriteString("Project [")
		for i, e := range p.Exprs {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, e)
			b.WriteString(" AS " + types.QuoteIdent(p.Columns[i].Name))
		}
		b.WriteByte(']')
		inputs = []Plan{p.Input}
	case *Aggregate:
		b.WriteString("Aggregate groups=[")
		writeExprs(b, p.Groups)
		b.WriteString("] aggs=[")
		writeJoined(b, p.Aggs, writeAgg)
		b.WriteByte(']')
		if p.GroupingSets != nil {
			fmt.Fprintf(b, " sets=%v", p.GroupingSets)
		}
		inputs = []Plan{p.Input}
	case *Join:
		b.WriteString("Join " + [...]string{InnerJoin: "INNER", LeftJoin: "LEFT", RightJoin: "RIGHT", FullJoin: "FULL",
			CrossJoin: "CROSS", LeftSemiJoin: "LEFT SEMI", LeftAntiJoin: "LEFT ANTI"}[p.Kind])
		if len(p.LeftKeys) > 0 {
			b.WriteString(" keys=[")
			for i := range p.LeftKeys {
				if i > 0 {
					b.WriteString(", ")
				}
				writeExpr(b, p.LeftKeys[i])
				b.WriteString(" = ")
				writeExpr(b, p.RightKeys[i])
			}
			b.WriteByte(']')
		}
		if p.Residual != nil {
			b.WriteString(" residual=")
			writeExpr(b, p.Residual)
		}
		inputs = []Plan{p.Left, p.Right}
	case *Generate:
		b.WriteString("Generate " + p.Func)
		if p.Outer {
			b.WriteString(" OUTER")
		}
		b.WriteByte(' ')
		writeExpr(b, p.Arg)
		inputs = []Plan{p.Input}
	case *Window:
		b.WriteString("Window [")
		writeJoined(b, p.Calls, func(b *strings.Builder, w *WindowCall) {
			b.WriteString(w.Func + "(")
			writeExprs(b, w.Args)
			b.WriteByte(')')
			if w.Filter != nil {
				b.WriteString(" FILTER (WHERE ")
				writeExpr(b, w.Filter)
				b.WriteByte(')')
			}
			if !rankingFuncs[w.Func] {
				b.WriteString(" " + frameText(w.Frame))
			}
		})
		b.WriteString("] partition=[")
		writeExprs(b, p.PartitionBy)
		b.WriteString("] order=[")
		writeJoined(b, p.OrderBy, writeSortKey)
		b.WriteByte(']')
		inputs = []Plan{p.Input}
	case *Union:
		if p.Distinct {
			b.WriteString("Union DISTINCT")
		} else {
			b.WriteString("Union ALL")
		}
		inputs = p.Inputs
	case *Distinct:
		b.WriteString("Distinct")
		inputs = []Plan{p.Input}
	case *Sort:
		b.WriteString("Sort [")
		writeJoined(b, p.Keys, writeSortKey)
		b.WriteByte(']')
		inputs = []Plan{p.Input}
	case *Limit:
		fmt.Fprintf(b, "Limit %d", p.N)
		inputs = []Plan{p.Input}
	default:
		fmt.Fprintf(b, "%T", p)
	}
	b.WriteString(" -> " + formatColumns(p.Output()) + "\n")
	for _, in := range inputs {
		writePlan(b, in, depth+1)
	}
}

// writeSortKey prints an ORDER BY item with its direction and NULL order.
func writeSortKey(b *strings.Builder, k SortKey) {
	writeExpr(b, k.Expr)
	if k.Descending {
		b.WriteString(" DESC")
	} else {
		b.WriteString(" ASC")
	}
	if k.NullsFirst {
		b.WriteString(" NULLS FIRST")
	} else {
		b.WriteString(" NULLS LAST")
	}
}
