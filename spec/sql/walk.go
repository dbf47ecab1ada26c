package sql

import (
	"reflect"
	"strings"
)

// The walks over checked expressions and plans. Every traversal of the
// package and of its users goes through them: an expression's operands
// are children's (rewrite.go), a plan's inputs its fields of type Plan and
// []Plan, a plan node's expressions its exported fields that hold an Expr.

// Walk calls fn for e and, while fn returns true, for the expressions
// below e, depth first, parents before their operands in the order they
// are written. A nil e is not visited; Subquery plans are not entered.
func Walk(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	for _, k := range children(e) {
		Walk(k, fn)
	}
}

// Find returns the first expression of e (in Walk's order) for which match
// is true, or nil.
func Find(e Expr, match func(Expr) bool) Expr {
	var found Expr
	Walk(e, func(x Expr) bool {
		if found == nil && match(x) {
			found = x
		}
		return found == nil
	})
	return found
}

// WalkPlans calls fn for p and every plan below it, depth first, a node
// before its inputs. It finds the inputs of any node by its fields of type
// Plan and []Plan, so that new plan nodes need no case here.
func WalkPlans(p Plan, fn func(Plan)) {
	if p == nil || reflect.ValueOf(p).IsNil() {
		return
	}
	fn(p)
	for _, in := range planInputs(p) {
		WalkPlans(in, fn)
	}
}

var planType = reflect.TypeOf((*Plan)(nil)).Elem()

// planInputs returns the plans p reads, found by its fields of type Plan
// and []Plan.
func planInputs(p Plan) []Plan {
	var out []Plan
	v := reflect.ValueOf(p).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch {
		case f.Type() == planType:
			if !f.IsNil() {
				out = append(out, f.Interface().(Plan))
			}
		case f.Kind() == reflect.Slice && f.Type().Elem() == planType:
			for k := 0; k < f.Len(); k++ {
				out = append(out, f.Index(k).Interface().(Plan))
			}
		}
	}
	return out
}

// WalkPlanExprs walks (as Walk) every expression of the node p, not those
// of the plans p reads. It finds them by reflection over p's exported
// fields (AggCall, WindowCall, SortKey, When, ... included), so that new
// node types need no case here.
func WalkPlanExprs(p Plan, fn func(Expr) bool) {
	var visit func(v reflect.Value)
	visit = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if v.IsNil() || v.Type() == planType {
				return
			}
			if _, ok := v.Interface().(Plan); ok {
				return
			}
			if e, ok := v.Interface().(Expr); ok {
				Walk(e, fn)
				return
			}
			if v.Kind() == reflect.Pointer {
				visit(v.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				visit(v.Index(i))
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					visit(v.Field(i))
				}
			}
		}
	}
	visit(reflect.ValueOf(p).Elem())
}

// NondeterministicCall returns the first call in e (in Walk's order) of a
// function the function table marks Nondeterministic (rand, uuid,
// current_date, current_timestamp, ...), or nil. With perEvaluation, only
// the functions whose result changes from one evaluation to the next
// count (rand, uuid): current_date and current_timestamp are fixed for a
// query, as Spark folds them once per query.
func NondeterministicCall(e Expr, perEvaluation bool) *Call {
	c, _ := Find(e, func(x Expr) bool {
		c, ok := x.(*Call)
		if !ok || perEvaluation && strings.HasPrefix(c.Func, "current_") {
			return false
		}
		f := LookupFunction(c.Func)
		return f != nil && f.Nondeterministic
	}).(*Call)
	return c
}

// PlanNondeterministicCall returns the first NondeterministicCall (not
// perEvaluation) of the expressions of p and the plans below it, or nil:
// a plan whose result may differ between two runs over the same input.
func PlanNondeterministicCall(p Plan) *Call {
	var found *Call
	WalkPlans(p, func(q Plan) {
		WalkPlanExprs(q, func(e Expr) bool {
			if found == nil {
				found = NondeterministicCall(e, false)
			}
			return false // NondeterministicCall walked e
		})
	})
	return found
}
