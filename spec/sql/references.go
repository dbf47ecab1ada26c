package sql

import "strings"

// This file walks a parsed query for the relations it reads (Query.References).

// collectQueryRefs appends the relations q reads to refs; bound holds the
// (lower-case) names of the WITH queries in scope.
func collectQueryRefs(q *queryStmt, bound map[string]bool, refs *[]TableRef) {
	if len(q.with) > 0 {
		inner := make(map[string]bool, len(bound)+len(q.with))
		for k := range bound {
			inner[k] = true
		}
		for _, c := range q.with {
			// A WITH query sees the ones before it, not itself.
			collectQueryRefs(c.query, inner, refs)
			inner[strings.ToLower(c.name.name)] = true
		}
		bound = inner
	}
	collectBodyRefs(q.body, bound, refs)
	for _, o := range q.orderBy {
		collectExprRefs(o.expr, bound, refs)
	}
}

func collectBodyRefs(b queryBody, bound map[string]bool, refs *[]TableRef) {
	switch b := b.(type) {
	case *queryStmt:
		collectQueryRefs(b, bound, refs)
	case *setOpStmt:
		collectBodyRefs(b.l, bound, refs)
		collectBodyRefs(b.r, bound, refs)
	case *valuesStmt:
		for _, row := range b.rows {
			for _, e := range row {
				collectExprRefs(e, bound, refs)
			}
		}
	case *selectStmt:
		for _, it := range b.items {
			collectExprRefs(it.expr, bound, refs)
		}
		for _, f := range b.from {
			collectFromRefs(f, bound, refs)
		}
		collectExprRefs(b.where, bound, refs)
		if b.groupBy != nil {
			for _, e := range b.groupBy.exprs {
				collectExprRefs(e, bound, refs)
			}
		}
		collectExprRefs(b.having, bound, refs)
		collectExprRefs(b.qualify, bound, refs)
	}
}

func collectFromRefs(f fromItem, bound map[string]bool, refs *[]TableRef) {
	switch f := f.(type) {
	case *tableRef:
		if len(f.parts) == 1 && bound[strings.ToLower(f.parts[0])] {
			return
		}
		*refs = append(*refs, TableRef{Parts: append([]string(nil), f.parts...), Streaming: f.streaming, Watermark: f.watermark != nil, Offset: f.pos, End: f.end})
	case *subqueryRef:
		collectQueryRefs(f.query, bound, refs)
	case *joinRef:
		collectFromRefs(f.l, bound, refs)
		collectFromRefs(f.r, bound, refs)
		collectExprRefs(f.on, bound, refs)
	}
}

// collectExprRefs finds subqueries inside an expression.
func collectExprRefs(e astExpr, bound map[string]bool, refs *[]TableRef) {
	walkAST(e, func(e astExpr) {
		switch e := e.(type) {
		case *subqueryExpr:
			collectQueryRefs(e.query, bound, refs)
		case *inExpr:
			if e.query != nil {
				collectQueryRefs(e.query, bound, refs)
			}
		}
	})
}

// walkAST calls f for e and every expression inside it (not descending
// into subqueries).
func walkAST(e astExpr, f func(astExpr)) {
	if e == nil {
		return
	}
	f(e)
	switch e := e.(type) {
	case *unaryExpr:
		walkAST(e.x, f)
	case *binaryExpr:
		walkAST(e.l, f)
		walkAST(e.r, f)
	case *isExpr:
		walkAST(e.x, f)
		walkAST(e.y, f)
	case *inExpr:
		walkAST(e.x, f)
		for _, x := range e.list {
			walkAST(x, f)
		}
	case *betweenExpr:
		walkAST(e.x, f)
		walkAST(e.lo, f)
		walkAST(e.hi, f)
	case *likeExpr:
		walkAST(e.x, f)
		walkAST(e.pattern, f)
		for _, x := range e.patterns {
			walkAST(x, f)
		}
	case *caseExpr:
		walkAST(e.operand, f)
		for _, w := range e.whens {
			walkAST(w.cond, f)
			walkAST(w.then, f)
		}
		walkAST(e.els, f)
	case *castExpr:
		walkAST(e.x, f)
	case *callExpr:
		for _, a := range e.args {
			walkAST(a, f)
		}
		walkAST(e.filter, f)
		if e.over != nil {
			for _, x := range e.over.partitionBy {
				walkAST(x, f)
			}
			for _, o := range e.over.orderBy {
				walkAST(o.expr, f)
			}
		}
	case *fieldExpr:
		walkAST(e.x, f)
	case *subscriptExpr:
		walkAST(e.x, f)
		walkAST(e.index, f)
	case *lambdaExpr:
		walkAST(e.body, f)
	case *jsonPathExpr:
		walkAST(e.x, f)
	}
}
