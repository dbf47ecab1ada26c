package sql

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file parses Spark's range table-valued function, FROM
// range([start,] end[, step[, numPartitions]]): one BIGINT column id
// holding start, start+step, ... up to end (excluded), counted as Spark's
// Range node does (basicLogicalOperators.scala: numElements). Its
// arguments are integer constants, so the parser computes the last value
// and writes the relation as SELECT explode(sequence(start, last, step))
// AS id, or as no rows when the range is empty.

// parseRangeArgs parses the parenthesised arguments of range after its
// name at t and returns the relation.
func (p *parser) parseRangeArgs(t token) *subqueryRef {
	open := p.expectOp("(")
	var args []astExpr
	if !p.peek().isOp(")") {
		for {
			args = append(args, p.parseExpr())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	end := p.expectOp(")").end
	if len(args) < 1 || len(args) > 4 {
		p.errorAt(t.pos, end, "WRONG_NUM_ARGS", "write range(end), range(start, end) or range(start, end, step)",
			"range takes 1 to 4 arguments, not %d", len(args))
		return p.emptyRange(t.pos, end)
	}
	vals := make([]int64, len(args))
	for i, a := range args {
		v, ok := constInteger(a)
		if !ok {
			s, e := a.span()
			p.errorAt(s, e, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "write the bounds and the step as integer literals",
				"argument %d of range must be an integer constant", i+1)
			return p.emptyRange(t.pos, end)
		}
		vals[i] = v
	}
	start, stop, step := int64(0), vals[0], int64(1)
	if len(vals) > 1 {
		start, stop = vals[0], vals[1]
	}
	if len(vals) > 2 {
		step = vals[2]
	}
	if step == 0 {
		s, e := args[2].span()
		p.errorAt(s, e, "FAILED_FUNCTION_CALL", "use a step other than 0", "the step of range cannot be 0")
		return p.emptyRange(t.pos, end)
	}
	n := rangeLength(start, stop, step)
	if n.Sign() <= 0 {
		return p.emptyRange(t.pos, end)
	}
	last := new(big.Int).Add(big.NewInt(start), new(big.Int).Mul(new(big.Int).Sub(n, big.NewInt(1)), big.NewInt(step)))
	long := func(v int64) astExpr {
		return &litExpr{typ: types.LongType, val: v, text: strconv.FormatInt(v, 10) + "L", pos: open.pos, end: end}
	}
	seq := &callExpr{name: ident{name: "sequence", pos: t.pos, end: t.end}, args: []astExpr{long(start), long(last.Int64()), long(step)}, end: end}
	return rangeRelation(t.pos, end, &callExpr{name: ident{name: "explode", pos: t.pos, end: t.end}, args: []astExpr{seq}, end: end})
}

// emptyRange is the relation of an empty range: explode of an empty
// ARRAY<BIGINT>.
func (p *parser) emptyRange(pos, end int) *subqueryRef {
	arr := &castExpr{x: &callExpr{name: ident{name: "array", pos: pos, end: pos}, end: end}, to: types.ArrayOf(types.LongType, false), pos: pos, end: end}
	return rangeRelation(pos, end, &callExpr{name: ident{name: "explode", pos: pos, end: pos}, args: []astExpr{arr}, end: end})
}

// rangeRelation is (SELECT gen AS id).
func rangeRelation(pos, end int, gen astExpr) *subqueryRef {
	sel := &selectStmt{pos: pos, items: []*selectItem{{expr: gen, alias: &ident{name: "id", pos: pos, end: end}, end: end}}}
	return &subqueryRef{pos: pos, query: &queryStmt{pos: pos, body: sel}}
}

// rangeLength is Spark's Range.numElements: how many values start,
// start+step, ... lie before stop (0 or less when none do).
func rangeLength(start, stop, step int64) *big.Int {
	d := new(big.Int).Sub(big.NewInt(stop), big.NewInt(start))
	s := big.NewInt(step)
	q, r := new(big.Int).QuoRem(d, s, new(big.Int))
	if r.Sign() != 0 && (d.Sign() > 0) == (step > 0) {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// constInteger reads an integer literal, possibly negated.
func constInteger(e astExpr) (int64, bool) {
	switch e := e.(type) {
	case *unaryExpr:
		v, ok := constInteger(e.x)
		switch {
		case !ok:
			return 0, false
		case e.op == "-":
			return -v, true
		case e.op == "+":
			return v, true
		}
	case *litExpr:
		return integerValue(e.val)
	}
	return 0, false
}

// isRangeCall reports whether the table name just parsed is range
// followed by its arguments.
func isRangeCall(ref *tableRef, next token) bool {
	return next.isOp("(") && len(ref.parts) == 1 && strings.EqualFold(ref.parts[0], "range")
}
