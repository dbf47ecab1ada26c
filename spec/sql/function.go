package sql

import (
	"github.com/pipegen/pipegen/runtime/types"
)

// FuncKind says whether a function is computed per row or per group.
type FuncKind uint8

// Function kinds.
const (
	ScalarFunc FuncKind = iota
	AggregateFunc
	// GeneratorFunc functions yield several rows per row (explode, ...):
	// allowed alone in a SELECT item or in LATERAL VIEW (plan node Generate).
	GeneratorFunc
	// WindowFunc functions are computed over an ordered window (row_number,
	// rank, lag, ...): allowed only with OVER (plan node Window).
	WindowFunc
)

// ArgRule says what one argument position accepts and the implicit cast
// applied to it (Spark's ANSI implicit casts for ExpectsInputTypes).
type ArgRule uint8

// Argument rules.
const (
	// ArgAny accepts any type, unchanged.
	ArgAny ArgRule = iota
	// ArgNumeric accepts a numeric type, unchanged; STRING and NULL are cast to DOUBLE.
	ArgNumeric
	// ArgInt casts any numeric type, STRING or NULL to INT.
	ArgInt
	// ArgDouble casts any numeric type, STRING or NULL to DOUBLE.
	ArgDouble
	// ArgString casts any atomic type (numbers, BOOLEAN, dates, ...) to STRING.
	ArgString
	// ArgStringOrBinary accepts STRING and BINARY unchanged and casts other atomic types to STRING.
	ArgStringOrBinary
	// ArgBoolean accepts BOOLEAN; STRING and NULL are cast to BOOLEAN.
	ArgBoolean
	// ArgDate accepts DATE; STRING, TIMESTAMP, TIMESTAMP_NTZ and NULL are cast to DATE.
	ArgDate
	// ArgTimestamp accepts TIMESTAMP and TIMESTAMP_NTZ; STRING, DATE and NULL are cast to TIMESTAMP.
	ArgTimestamp
	// ArgDatetime accepts STRING, DATE, TIMESTAMP and TIMESTAMP_NTZ unchanged (to_date's input).
	ArgDatetime
	// ArgCommon arguments are all cast to their common (wider) type.
	ArgCommon
	// ArgCommonValue arguments are cast to their common type, separately from
	// ArgCommon (a map's values, whose keys are ArgCommon).
	ArgCommonValue
	// ArgOrderable accepts any type that can be ordered (not MAP).
	ArgOrderable
	// ArgArray accepts any ARRAY.
	ArgArray
	// ArgArrayOrMap accepts any ARRAY or MAP.
	ArgArrayOrMap
	// ArgElement is a value compared with the elements of the ARRAY in argument 1;
	// both are cast to their common type.
	ArgElement
	// ArgIndexOrKey is an index (INT) into the ARRAY in argument 1, or a key of
	// the MAP in argument 1 (cast to the key type).
	ArgIndexOrKey
	// ArgStringOrStringArray accepts STRING or ARRAY<STRING>; other atomic types are cast to STRING.
	ArgStringOrStringArray
	// ArgIntConst is a constant INT (a literal).
	ArgIntConst
	// ArgStringConst is a constant STRING (a literal).
	ArgStringConst
	// ArgBooleanConst is a constant BOOLEAN (a literal).
	ArgBooleanConst
	// ArgLong casts any numeric type, STRING or NULL to BIGINT.
	ArgLong
	// ArgNumericCommon arguments are numeric (STRING and NULL count as
	// DOUBLE) and are cast to their common type, as the operands of an
	// arithmetic operator.
	ArgNumericCommon
	// ArgDoubleConst is a constant number (a literal), as a DOUBLE.
	ArgDoubleConst
	// ArgLambda is a lambda function (x -> ...); the higher-order function
	// binds its parameters, checked by the rules of lambda.go.
	ArgLambda
	// ArgLongStringOrBinary casts integral types to BIGINT and accepts
	// STRING and BINARY unchanged (hex's TypeCollection(LongType, BinaryType, StringType)).
	ArgLongStringOrBinary
	// ArgPercentages is a constant number, as a DOUBLE, or an ARRAY of
	// constant numbers, as an ARRAY<DOUBLE> (percentile_approx's percentages).
	ArgPercentages
	// ArgTimestampNTZ casts TIMESTAMP (to its wall-clock time in the
	// session time zone), DATE, STRING and NULL to TIMESTAMP_NTZ.
	ArgTimestampNTZ
	// ArgNumericOrInterval is ArgNumeric that also takes an ANSI interval
	// unchanged (sum's and avg's input).
	ArgNumericOrInterval
)

var argRuleNames = [...]string{
	ArgAny: "any", ArgNumeric: "numeric", ArgInt: "INT", ArgDouble: "DOUBLE", ArgString: "STRING",
	ArgStringOrBinary: "STRING or BINARY", ArgBoolean: "BOOLEAN", ArgDate: "DATE",
	ArgTimestamp: "TIMESTAMP", ArgDatetime: "STRING, DATE or TIMESTAMP", ArgCommon: "any (common type)",
	ArgCommonValue: "any (common type)", ArgOrderable: "orderable", ArgArray: "ARRAY",
	ArgArrayOrMap: "ARRAY or MAP", ArgElement: "element", ArgIndexOrKey: "index or key",
	ArgStringOrStringArray: "STRING or ARRAY<STRING>", ArgIntConst: "INT constant",
	ArgStringConst: "STRING constant", ArgBooleanConst: "BOOLEAN constant",
	ArgLong: "BIGINT", ArgNumericCommon: "numeric (common type)", ArgDoubleConst: "DOUBLE constant",
	ArgLambda: "lambda function", ArgLongStringOrBinary: "BIGINT, STRING or BINARY",
	ArgPercentages: "DOUBLE constant or ARRAY of them", ArgTimestampNTZ: "TIMESTAMP_NTZ",
	ArgNumericOrInterval: "numeric or interval",
}

// String names the rule as the docs and error messages do, e.g. "STRING".
func (r ArgRule) String() string {
	if n, ok := moreArgRuleNames[r]; ok {
		return n
	}
	return argRuleNames[r]
}

// ResultRule says how a function's result type follows from its arguments.
type ResultRule uint8

// Result rules.
const (
	// ResFixed is Function.Type.
	ResFixed ResultRule = iota
	// ResArg0 is the (coerced) type of the first argument.
	ResArg0
	// ResCommon is the common type of the ArgCommon arguments.
	ResCommon
	// ResSum is sum's: BIGINT for integral input, DOUBLE for floating
	// point, DECIMAL(min(p+10,38), s) for DECIMAL(p,s).
	ResSum
	// ResAvg is avg's: DOUBLE, or DECIMAL(min(p+4,38), min(s+4,38)) for DECIMAL(p,s).
	ResAvg
	// ResRound is round's: the input type; for DECIMAL(p,s) rounded to d
	// digits DECIMAL(p-s+min(s,d)+1, min(s,d)) (capped at 38).
	ResRound
	// ResFloorCeil is floor's and ceil's: BIGINT, or DECIMAL(p-s+1, 0) for
	// DECIMAL(p,s); with a scale d, ResRound's type of the input cast to
	// DECIMAL (Spark's RoundCeil and RoundFloor).
	ResFloorCeil
	// ResArrayOfArg0 is ARRAY<type of argument 1> without NULL elements
	// (collect_list, collect_set).
	ResArrayOfArg0
	// ResArrayOfCommon is ARRAY<common type> (array(...)).
	ResArrayOfCommon
	// ResMapOfCommon is MAP<common key type, common value type> (map(...)).
	ResMapOfCommon
	// ResStruct is a STRUCT of the arguments, named after the columns they
	// read or col1, col2, ... (struct(...)).
	ResStruct
	// ResNamedStruct is a STRUCT named by the constant odd arguments (named_struct).
	ResNamedStruct
	// ResElement is the ARRAY's element type or the MAP's value type of argument 1.
	ResElement
	// ResOperator is the result type of the operator Function.Op applied
	// to the arguments (FormBinary).
	ResOperator
	// ResLambda is set by the higher-order function's rule in lambda.go
	// (it depends on the types of its lambda functions' bodies).
	ResLambda
	// ResCollection is set by the collection function's rule in
	// collections.go (element, key and value types of its arguments).
	ResCollection
	// ResArg2 is the (coerced) type of the third argument (timestampadd).
	ResArg2
	// ResArg0OrArray is the type of the first argument, or an ARRAY of it
	// (without NULL elements) when the second argument is an ARRAY
	// (percentile_approx with several percentages).
	ResArg0OrArray
)

// NullRule says when a function's result may be NULL.
type NullRule uint8

// Null rules.
const (
	// NullIfAnyArg: NULL when any argument is NULL (the default).
	NullIfAnyArg NullRule = iota
	// NullNever: never NULL.
	NullNever
	// NullAlways: may be NULL whatever its arguments (aggregates over no rows, lookups).
	NullAlways
	// NullIfAllArgs: NULL only when every argument is NULL (coalesce, greatest).
	NullIfAllArgs
	// NullIfArg0: NULL when the first argument is NULL (concat_ws).
	NullIfArg0
	// NullCollection is set by the collection function's rule in
	// collections.go (e.g. flatten is NULL when an inner array may be).
	NullCollection
)

// Form says which plan node a call becomes.
type Form uint8

// Forms.
const (
	// FormCall is a Call (or an AggCall for aggregates) of the function.
	FormCall Form = iota
	// FormCast is a Cast to Function.Type (int(x), string(x), ...).
	FormCast
	// FormIf is a Case: if(c, a, b) is CASE WHEN c THEN a ELSE b END.
	FormIf
	// FormNullIf is a Case: nullif(a, b) is CASE WHEN a = b THEN NULL ELSE a END.
	FormNullIf
	// FormBinary is a Binary of Function.Op over the two arguments, typed
	// as the operator is; with Function.Try its failures are NULL
	// (try_add, try_divide, ...; mod is a plain %).
	FormBinary
)

// ImplKind says how generated code computes a scalar function.
type ImplKind uint8

// Implementation kinds.
const (
	// ImplInline functions have a compile rule of their own in package
	// gen (coalesce, concat, struct, element_at, hash, ...), or are
	// Forms other than FormCall.
	ImplInline ImplKind = iota
	// ImplStrict: NULL when any argument is NULL, else the value of
	// sqlfn.<Name>(args...).
	ImplStrict
	// ImplFallible: like ImplStrict, but sqlfn.<Name> returns (value, ok)
	// and !ok fails the row under ANSI semantics (ErrFunction names the
	// function and its arguments).
	ImplFallible
	// ImplNullOnFail: like ImplFallible, but !ok is a NULL result (the
	// try_ variants, date_trunc with an unknown unit, ln of 0).
	ImplNullOnFail
	// ImplNone: the checker accepts the function, the generator does not
	// compile it yet (the reference says so).
	ImplNone
)

// Impl is how generated code computes a function: the helper of package
// runtime/sqlfn that gen calls, and its calling convention. Arguments are
// passed in order, each DECIMAL followed by its scale, and a DECIMAL
// result's precision and scale last (sqlfn's conventions).
type Impl struct {
	Kind ImplKind
	// Name is the sqlfn function, e.g. "Upper".
	Name string
	// ByKind replaces Name when the first argument has that kind, e.g.
	// {DecimalKind: "AbsDecimal"}; an empty name there means that kind is
	// not compiled yet.
	ByKind map[types.Kind]string
}

func strict(name string) Impl   { return Impl{Kind: ImplStrict, Name: name} }
func fallible(name string) Impl { return Impl{Kind: ImplFallible, Name: name} }
func nullOnFail(name string) Impl {
	return Impl{Kind: ImplNullOnFail, Name: name}
}

// withKind returns impl using name for a first argument of kind k.
func withKind(impl Impl, k types.Kind, name string) Impl {
	m := map[types.Kind]string{k: name}
	for kk, v := range impl.ByKind {
		m[kk] = v
	}
	impl.ByKind = m
	return impl
}

// notCompiled marks a function the generator does not compile yet.
var notCompiled = Impl{Kind: ImplNone}

// Function describes one built-in function.
type Function struct {
	// Name is the canonical lower-case name, used in Call.Func and AggCall.Func.
	Name string
	// Aliases are other names that call the same function.
	Aliases []string
	Kind    FuncKind
	// Args has one rule per argument position. With Variadic, the last
	// Repeat rules repeat for further arguments.
	Args     []ArgRule
	Variadic bool
	Repeat   int
	// MinArgs is the fewest arguments the function takes; the most is
	// len(Args) unless Variadic.
	MinArgs int
	Result  ResultRule
	// Type is the result type for ResFixed and the target of FormCast.
	Type  types.Type
	Nulls NullRule
	// Nondeterministic functions may give another result when evaluated
	// again (current_timestamp, rand, uuid).
	Nondeterministic bool
	Form             Form
	// Op and Try are the operator and its failure mode of FormBinary.
	Op  BinaryOp
	Try bool
	// Impl is how the generator computes a scalar function.
	Impl Impl
	// Agg says how an aggregate is computed from partial states (zero for
	// other functions, and for aggregates computed over all their rows at
	// once): whether it runs on several workers, is kept in a streaming
	// window's state and refreshes a materialized view incrementally.
	Agg AggCaps
	// Doc is a one-line description.
	Doc string
}

// AggCaps are the capabilities of an aggregate function (Function.Agg), a
// set of flags. An aggregate call's partial state holds its accumulator
// (gen/aggfields.go) and, with DISTINCT, the set of values seen.
type AggCaps uint8

// Aggregate capabilities.
const (
	// AggMergeable aggregates have partial states that merge into the
	// state of all their rows (gen's aggMerge): the aggregation runs on
	// several workers, and a streaming window aggregation keeps it across
	// micro-batches (FindStateful). Without it an aggregation using it is
	// computed on one worker and refused over a stream.
	AggMergeable AggCaps = 1 << iota
	// AggMergeableDistinct aggregates merge with DISTINCT too, their
	// distinct values kept in the state (for min and max DISTINCT changes
	// nothing).
	AggMergeableDistinct
	// AggDecomposable aggregates are maintained over appends by a
	// materialized view's GROUP_AGGREGATE refresh (spec's refreshPlan),
	// with DISTINCT when also AggMergeableDistinct: the state saved by the
	// last refresh absorbs the new rows. Without it a view using it is
	// always recomputed (COMPLETE_RECOMPUTE).
	AggDecomposable
)

// MaxArgs returns the most arguments f takes, or -1 when unbounded.
func (f *Function) MaxArgs() int {
	if f.Variadic {
		return -1
	}
	return len(f.Args)
}

// ArgRuleAt returns the rule of argument i (0-based).
func (f *Function) ArgRuleAt(i int) ArgRule {
	if i < len(f.Args) {
		return f.Args[i]
	}
	r := max(f.Repeat, 1)
	start := len(f.Args) - r
	return f.Args[start+(i-start)%r]
}

func args(rules ...ArgRule) []ArgRule { return rules }

// nullable applies f's null rule to arguments with the given nullability.
func (f *Function) nullable(args []Expr) bool {
	switch f.Nulls {
	case NullNever:
		return false
	case NullAlways:
		return true
	case NullIfArg0:
		return len(args) > 0 && args[0].IsNullable()
	case NullCollection:
		return collectionNullable(f.Name, args)
	case NullIfAllArgs:
		for _, a := range args {
			if !a.IsNullable() {
				return false
			}
		}
		return len(args) > 0
	}
	for _, a := range args {
		if a.IsNullable() {
			return true
		}
	}
	return false
}
