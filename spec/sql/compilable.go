package sql

import (
	"fmt"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file decides which checked constructs the code generator compiles.
// Spark accepts them and so does the checker, but pipegen cannot run them
// yet. The decision is made here once: Uncompilable reports each such
// construct of a plan, and package gen asks the same functions
// (Comparable, CastCompiles, DatePartHelper, (*Function).Helper, ...) how
// to compile the rest, so that for a checked plan with no Uncompilable
// errors the generator meets nothing it rejects.

// UncompilableHint is the hint of every Uncompilable error.
const UncompilableHint = "rewrite the query without it, or compute it in another dataset; docs/sql.md lists what compiles"

// Uncompilable returns every construct of the checked plan p that the code
// generator cannot compile, in the order of WalkPlans, as errors with code
// UNSUPPORTED_FEATURE and the message "<construct> is not supported yet".
// An error is at the construct's offset when the plan records one (a call,
// a cast, an aggregate), else at offset 0 (the query). stateful is the
// query's stateful operator (FindStateful), nil when it has none.
func Uncompilable(p Plan, stateful *Stateful) []*Error {
	u := &uncompilable{}
	WalkPlans(p, func(q Plan) {
		u.plan(q, stateful != nil && stateful.Op == q)
		WalkPlanExprs(q, u.expr)
	})
	return u.errs
}

// UncompilableExpr is Uncompilable for a checked expression outside a
// query (an expectation, a check).
func UncompilableExpr(e Expr) []*Error {
	u := &uncompilable{}
	Walk(e, u.expr)
	return u.errs
}

type uncompilable struct{ errs []*Error }

func (u *uncompilable) add(pos int, format string, args ...any) {
	u.errs = append(u.errs, &Error{Offset: pos, Code: "UNSUPPORTED_FEATURE",
		Message: fmt.Sprintf(format, args...) + " is not supported yet", Hint: UncompilableHint})
}

// plan checks the node q itself (not its expressions); isStateful is true
// for the query's stateful operator.
func (u *uncompilable) plan(q Plan, isStateful bool) {
	switch n := q.(type) {
	case *Distinct:
		u.distinctColumns(n.Output())
	case *Union:
		if n.Distinct {
			u.distinctColumns(n.Columns)
		}
	case *Aggregate:
		// A group value Go cannot compare is keyed by its canonical string,
		// except with grouping sets and in a streaming table's state.
		if n.GroupingSets != nil || isStateful {
			for _, g := range n.Groups {
				if t := g.ResultType(); !Comparable(t) {
					u.add(0, "GROUP BY a value of type %s", t)
				}
			}
		}
		for _, a := range n.Aggs {
			u.aggregate(a)
		}
	case *Join:
		// The keys of both sides have one type (the checker coerced them).
		for _, k := range n.LeftKeys {
			if t := k.ResultType(); !Comparable(t) {
				u.add(0, "a join key of type %s", t)
			}
		}
	case *Window:
		if isStateful {
			for _, k := range n.PartitionBy {
				if t := k.ResultType(); !Comparable(t) {
					u.add(0, "PARTITION BY a value of type %s", t)
				}
			}
		}
	}
}

func (u *uncompilable) distinctColumns(cols []Column) {
	for _, c := range cols {
		if !Comparable(c.Type) {
			u.add(0, "DISTINCT over a column of type %s", c.Type)
		}
	}
}

// aggregate checks an aggregate of an Aggregate node.
func (u *uncompilable) aggregate(a *AggCall) {
	if a.DistinctMatters() {
		switch a.Func {
		case "count", "sum", "avg", "mean", "bit_xor":
		default:
			u.add(a.Pos, "DISTINCT in %s", a.Func)
			return
		}
		if a.DistinctTuple() {
			return
		}
		if len(a.Args) != 1 || !Comparable(a.Args[0].ResultType()) {
			u.add(a.Pos, "DISTINCT aggregate %s over these arguments", a.Func)
		}
		return
	}
	switch a.Func {
	case "percentile", "median", "percentile_approx", "percentile_cont", "percentile_disc", "mode":
		if t := a.Args[0].ResultType(); !CountsKey(t) {
			u.add(a.Pos, "%s of %s", a.Func, t)
		}
	case "collect_set":
		if elem := *a.Type.Elem; !Comparable(elem) {
			u.add(a.Pos, "collect_set over %s", elem)
		}
	}
}

// expr checks one expression (Walk's callback: its operands are walked
// after it).
func (u *uncompilable) expr(e Expr) bool {
	switch x := e.(type) {
	case *Cast:
		if from := x.X.ResultType(); !CastCompiles(from, x.Type) {
			u.add(x.Pos, "CAST from %s to %s", from, x.Type)
		}
	case *Call:
		if x.Func == "from_json" {
			if bad, why, ok := JSONUndecodable(x.Type); !ok {
				what := fmt.Sprintf("from_json into a value of type %s", bad)
				if why != "" {
					what += ": " + why
				}
				u.add(x.Pos, "%s", what)
			}
		}
		if !ArrayAggregateCompiles(x) {
			u.add(x.Pos, "aggregate with a start value of type %s and a merge lambda of type %s (the nullability of their fields differs)",
				x.Args[1].ResultType(), x.Args[2].(*Lambda).Body.ResultType())
		}
		if x.Func == "date_part" && len(x.Args) == 2 {
			if _, ok := DatePartHelper(x); !ok {
				var field any
				if lit, ok := x.Args[0].(*Literal); ok {
					field = lit.Value
				}
				u.add(x.Pos, "date_part(%q, %s)", field, x.Args[1].ResultType())
			}
			return true
		}
		fn := LookupFunction(x.Func)
		if fn == nil {
			return true
		}
		switch fn.Impl.Kind {
		case ImplInline:
		case ImplNone:
			u.add(x.Pos, "function %s", x.Func)
		default:
			if _, ok := fn.Helper(x); !ok {
				u.add(x.Pos, "function %s of %s", x.Func, x.Args[0].ResultType())
			}
		}
	}
	return true
}

// ArrayAggregateCompiles reports whether e, when it is a call of the
// higher-order aggregate(arr, start, (acc, x) -> merge[, acc -> finish]),
// compiles: the merge lambda returns the start value's type, nullability
// inside it included (the checker only asks for one type ignoring it, as
// Spark does, but the generated accumulator then has two Go types). Any
// other call compiles as far as this function is concerned.
func ArrayAggregateCompiles(e *Call) bool {
	if e.Func != "aggregate" || len(e.Args) < 3 {
		return true
	}
	merge, ok := e.Args[2].(*Lambda)
	return !ok || merge.Body.ResultType().Equal(e.Args[1].ResultType())
}

// Comparable reports whether values of t can be compared by Go's == (and
// so be map keys in generated code): not BINARY, ARRAY, MAP, nor a STRUCT
// holding one. DISTINCT, join keys, sets and grouping sets need it.
func Comparable(t types.Type) bool {
	switch t.Kind {
	case types.BinaryKind, types.ArrayKind, types.MapKind:
		return false
	case types.StructKind:
		for _, f := range t.Fields {
			if !Comparable(f.Type) {
				return false
			}
		}
	}
	return true
}

// DistinctMatters reports whether a's DISTINCT changes its result: not for
// min, max, bit_and and bit_or, whose results ignore duplicates.
func (a *AggCall) DistinctMatters() bool {
	switch a.Func {
	case "min", "max", "bit_and", "bit_or":
		return false
	}
	return a.Distinct
}

// DistinctTuple reports whether a is count(DISTINCT x, y, ...) over several
// comparable arguments, whose distinct values are kept as tuples.
func (a *AggCall) DistinctTuple() bool {
	if a.Func != "count" || len(a.Args) < 2 {
		return false
	}
	for _, x := range a.Args {
		if !Comparable(x.ResultType()) {
			return false
		}
	}
	return true
}

// CountsKey reports whether the percentile family (percentile, median,
// percentile_approx, percentile_cont, percentile_disc, mode) compiles over
// values of t: it counts them in a sqlfn.Counts keyed by Go's ordered
// types (numbers other than DECIMAL, intervals, strings, dates,
// timestamps).
func CountsKey(t types.Type) bool {
	switch t.Kind {
	case types.DecimalKind:
		return false
	case types.StringKind, types.DateKind, types.TimestampKind, types.TimestampNTZKind:
		return true
	}
	return t.IsNumeric() || t.IsInterval()
}

// CastCompiles reports whether CAST(from AS to) compiles. Casts between
// nested types (ARRAY, MAP, STRUCT) compile element by element, entry by
// entry and field by field between types of the same kind (and STRUCTs of
// as many fields); a nested type to or from another kind does not. Casts
// between other types compile as the checker accepts them.
func CastCompiles(from, to types.Type) bool {
	if from.Equal(to) || from.Kind == types.VoidKind {
		return true
	}
	if !from.IsNested() && !to.IsNested() {
		return true
	}
	if from.Kind != to.Kind {
		return false
	}
	switch to.Kind {
	case types.ArrayKind:
		return CastCompiles(*from.Elem, *to.Elem)
	case types.StructKind:
		if len(from.Fields) != len(to.Fields) {
			return false
		}
		for i, f := range to.Fields {
			if !CastCompiles(from.Fields[i].Type, f.Type) {
				return false
			}
		}
		return true
	case types.MapKind:
		if from.Key.Kind == types.VoidKind {
			return true
		}
		return CastCompiles(*from.Key, *to.Key) && CastCompiles(*from.Value, *to.Value)
	}
	return false
}

// datePartHelpers are the sqlfn helpers of the date_part Calls the checker
// leaves (the fields no other function computes), by source kind and
// canonical field.
var datePartHelpers = map[types.Kind]map[string]string{
	types.YearMonthIntervalKind: {"YEAR": "ExtractYMYears", "MONTH": "ExtractYMMonths"},
	types.IntervalKind:          {"DAY": "ExtractDTDays", "HOUR": "ExtractDTHours", "MINUTE": "ExtractDTMinutes", "SECOND": "ExtractDTSeconds"},
	types.TimestampKind:         {"SECOND": "SecondWithFraction"},
	types.TimestampNTZKind:      {"SECOND": "SecondWithFractionNTZ"},
	types.DateKind:              {"YEAROFWEEK": "YearOfWeek", "DAYOFWEEK_ISO": "DayOfWeekISO"},
}

// DatePartHelper returns the sqlfn helper computing date_part('FIELD', x)
// as the checker left it (a literal canonical field, the source), and
// false when no helper computes that field of that type.
func DatePartHelper(e *Call) (string, bool) {
	lit, _ := e.Args[0].(*Literal)
	if lit == nil {
		return "", false
	}
	field, _ := lit.Value.(string)
	name := datePartHelpers[e.Args[1].ResultType().Kind][field]
	return name, name != ""
}

// Helper returns the sqlfn helper a call of f uses: Impl.Name, or its
// ByKind entry for the kind of the first argument (the last for
// timestampdiff and timestampadd, after the unit), or the decimal rounding
// helper of ceil(x, d) and floor(x, d); false when that kind
// is not compiled yet. Only meaningful for Impl kinds other than
// ImplInline and ImplNone.
func (f *Function) Helper(e *Call) (string, bool) {
	name := f.Impl.Name
	if len(e.Args) == 0 {
		return name, true
	}
	if (e.Func == "ceil" || e.Func == "floor") && len(e.Args) == 2 {
		// ceil(x, d) and floor(x, d): the checker cast x to DECIMAL.
		return map[string]string{"ceil": "RoundCeilDecimal", "floor": "RoundFloorDecimal"}[e.Func], true
	}
	k := e.Args[0].ResultType().Kind
	if e.Func == "timestampdiff" || e.Func == "timestampadd" {
		k = e.Args[len(e.Args)-1].ResultType().Kind
	}
	if n, ok := f.Impl.ByKind[k]; ok {
		return n, n != ""
	}
	return name, true
}

// decodedKinds are the kinds of the typed reads of runtime/source's
// JSONDecoder and CSVDecoder (Bool, Int8, ..., TimestampNTZ).
var decodedKinds = map[types.Kind]bool{
	types.BooleanKind: true, types.ByteKind: true, types.ShortKind: true, types.IntKind: true,
	types.LongKind: true, types.FloatKind: true, types.DoubleKind: true, types.DecimalKind: true,
	types.StringKind: true, types.BinaryKind: true, types.DateKind: true, types.TimestampKind: true,
	types.TimestampNTZKind: true,
}

// DecodedKind reports whether the generated decoders of JSON and CSV read
// a flat value of kind k with a typed read of their own.
func DecodedKind(k types.Kind) bool { return decodedKinds[k] }

// JSONUndecodable returns the type inside t (t itself, or an element,
// value or field type) that the generated JSON decoder, which JSON file
// sources and from_json use, cannot read, with why ("map keys other than
// STRING", or "") and ok false; ok is true when it reads t: the flat kinds
// of DecodedKind, and ARRAYs, STRUCTs and MAPs with STRING keys of them.
func JSONUndecodable(t types.Type) (bad types.Type, why string, ok bool) {
	if DecodedKind(t.Kind) {
		return types.Type{}, "", true
	}
	switch t.Kind {
	case types.ArrayKind:
		return JSONUndecodable(*t.Elem)
	case types.MapKind:
		if t.Key.Kind != types.StringKind {
			return t, "map keys other than STRING", false
		}
		return JSONUndecodable(*t.Value)
	case types.StructKind:
		for _, fl := range t.Fields {
			if bad, why, ok := JSONUndecodable(fl.Type); !ok {
				return bad, why, false
			}
		}
		return types.Type{}, "", true
	}
	return t, "", false
}
