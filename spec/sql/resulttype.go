package sql

import (
	"fmt"

	"github.com/pipegen/pipegen/runtime/types"
)

// resultType applies fn's result rule to its coerced arguments.
func (c *checker) resultType(fn *Function, args []Expr, asts []astExpr, e *callExpr) (types.Type, bool) {
	arg0 := func() types.Type { return args[0].ResultType() }
	switch fn.Result {
	case ResArg0:
		return arg0(), true
	case ResArg2:
		return args[2].ResultType(), true
	case ResArg0OrArray:
		if len(args) > 1 && args[1].ResultType().Kind == types.ArrayKind {
			return types.ArrayOf(arg0(), false), true
		}
		return arg0(), true
	case ResCommon:
		for i, a := range args {
			if r := fn.ArgRuleAt(i); r == ArgCommon || r == ArgNumericCommon {
				return a.ResultType(), true
			}
		}
	case ResSum:
		t := arg0()
		switch {
		case t.IsInterval():
			// Spark's Sum of ANSI intervals: the interval's type.
			return t, true
		case t.IsIntegral():
			return types.LongType, true
		case t.Kind == types.DecimalKind:
			return boundedDecimal(t.Precision+10, t.Scale), true
		}
		return types.DoubleType, true
	case ResAvg:
		if t := arg0(); t.IsInterval() {
			// Spark's Average of ANSI intervals: the interval's type,
			// the sum divided by the count rounded HALF_UP.
			return t, true
		}
		if t := arg0(); t.Kind == types.DecimalKind {
			return boundedDecimal(t.Precision+4, t.Scale+4), true
		}
		return types.DoubleType, true
	case ResRound:
		t := arg0()
		if t.Kind != types.DecimalKind {
			return t, true
		}
		d := 0
		if len(args) > 1 {
			d = int(args[1].(*Literal).Value.(int32))
		}
		return roundType(t, d), true
	case ResFloorCeil:
		t := arg0()
		if len(args) > 1 {
			return roundType(t, int(args[1].(*Literal).Value.(int32))), true
		}
		switch {
		case t.Kind == types.DecimalKind && t.Scale == 0:
			return t, true
		case t.Kind == types.DecimalKind:
			return boundedDecimal(t.Precision-t.Scale+1, 0), true
		}
		return types.LongType, true
	case ResArrayOfArg0:
		return types.ArrayOf(arg0(), false), true
	case ResArrayOfCommon:
		elem := types.VoidType
		if len(args) > 0 {
			elem = args[0].ResultType()
		}
		return types.ArrayOf(elem, anyNullable(args)), true
	case ResMapOfCommon:
		k, v := types.VoidType, types.VoidType
		nullValues := false
		for i := 0; i+1 < len(args); i += 2 {
			k, v = args[i].ResultType(), args[i+1].ResultType()
			nullValues = nullValues || args[i+1].IsNullable()
		}
		return types.MapOf(k, v, nullValues), true
	case ResStruct:
		fields := make([]types.Field, len(args))
		for i, a := range args {
			name := fmt.Sprintf("col%d", i+1)
			switch asts[i].(type) {
			case *nameExpr, *fieldExpr:
				name = resolvedName(selItem{ast: asts[i], name: autoName(asts[i])}, a)
			}
			if e != nil && i < len(e.argNames) && e.argNames[i] != "" {
				name = e.argNames[i]
			}
			fields[i] = types.Field{Name: name, Type: a.ResultType(), Nullable: a.IsNullable()}
		}
		return types.StructOf(fields...), true
	case ResNamedStruct:
		var fields []types.Field
		for i := 0; i+1 < len(args); i += 2 {
			name := args[i].(*Literal).Value.(string)
			fields = append(fields, types.Field{Name: name, Type: args[i+1].ResultType(), Nullable: args[i+1].IsNullable()})
		}
		return types.StructOf(fields...), true
	case ResCollection:
		return c.collectionType(fn, args, asts)
	case ResElement:
		if t := arg0(); t.Kind == types.ArrayKind {
			return *t.Elem, true
		} else {
			return *t.Value, true
		}
	}
	return fn.Type, true
}

// percentages returns the percentage argument a of percentile_approx as a
// DOUBLE literal, or an array(...) call of DOUBLE literals, when it is a
// constant number or an array of them, each between 0 and 1 (Spark's
// checkInputDataTypes for percentages).
func percentages(a Expr) (Expr, bool) {
	one := func(e Expr) (*Literal, bool) {
		l, isLit := e.(*Literal)
		if !isLit || l.Value == nil {
			return nil, false
		}
		f, isNum := floatValue(l)
		if !isNum || f < 0 || f > 1 {
			return nil, false
		}
		return &Literal{Value: f, Type: types.DoubleType}, true
	}
	if c, isCall := a.(*Call); isCall && c.Func == "array" && len(c.Args) > 0 {
		ps := make([]Expr, len(c.Args))
		for i, x := range c.Args {
			if cast, isCast := x.(*Cast); isCast {
				x = cast.X
			}
			l, ok := one(x)
			if !ok {
				return nil, false
			}
			ps[i] = l
		}
		return &Call{Func: "array", Args: ps, Type: types.ArrayOf(types.DoubleType, false), Pos: c.Pos}, true
	}
	return one(a)
}

// roundType is Spark's RoundBase.dataType for a DECIMAL(p,s) rounded to d
// decimal places: DECIMAL(max(p-s+1, 1-d), 0) for d < 0, else
// DECIMAL(p-s+1+min(s,d), min(s,d)), capped at 38 (one more integral digit
// than the input: ceil(9.9, 0) is 10).
func roundType(t types.Type, d int) types.Type {
	intDigits := t.Precision - t.Scale + 1
	if d < 0 {
		return types.DecimalOf(min(max(intDigits, -d+1), types.MaxDecimalPrecision), 0)
	}
	s := min(t.Scale, d)
	return types.DecimalOf(min(intDigits+s, types.MaxDecimalPrecision), s)
}

// nullArrayArg types a call of a NULL-propagating scalar function given a
// NULL literal where it takes an ARRAY (array_size(NULL), arrays_zip(a,
// NULL)): Spark casts the NULL to an ARRAY, and the result is NULL. The
// call is checked with an ARRAY<VOID> there and becomes a NULL of its
// type; ok is false when no argument is such a NULL.
func (c *checker) nullArrayArg(fn *Function, args []Expr, asts []astExpr, pos, end int, e *callExpr) (Expr, bool) {
	if fn.Kind != ScalarFunc || fn.Nulls != NullIfAnyArg || fn.Form != FormCall {
		return nil, false
	}
	var typed []Expr
	for i, a := range args {
		if l, isLit := a.(*Literal); isLit && l.Value == nil && l.Type.Kind == types.VoidKind && fn.ArgRuleAt(i) == ArgArray {
			if typed == nil {
				typed = append([]Expr(nil), args...)
			}
			typed[i] = &Literal{Type: types.ArrayOf(types.VoidType, true)}
		}
	}
	if typed == nil {
		return nil, false
	}
	r := c.applyFunc(fn, typed, asts, pos, end, e)
	if isBad(r) {
		return r, true
	}
	return &Literal{Type: r.ResultType()}, true
}
