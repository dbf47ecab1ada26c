package sql

import (
	"sort"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file is the function table: every built-in function pipegen
// understands, with its arity, how its arguments are coerced, its result
// type and nullability. The checker is driven by it; the code generator and
// the function reference in the docs are meant to be too, so it stays data.
// Semantics and names are Spark SQL's
// (https://spark.apache.org/docs/latest/sql-ref-functions-builtin.html).

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
	// Doc is a one-line description.
	Doc string
}

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

// functionTable lists the functions; see Function for the fields.
var functionTable = append([]*Function{
	// Aggregates.
	{Name: "count", Kind: AggregateFunc, Args: args(ArgAny), Variadic: true, Result: ResFixed, Type: types.LongType, Nulls: NullNever,
		Doc: "number of rows (count(*)) or of rows where every argument is not NULL"},
	{Name: "count_if", Kind: AggregateFunc, Args: args(ArgBoolean), MinArgs: 1, Result: ResFixed, Type: types.LongType, Nulls: NullNever,
		Doc: "number of rows for which the condition is TRUE"},
	{Name: "sum", Kind: AggregateFunc, Args: args(ArgNumericOrInterval), MinArgs: 1, Result: ResSum, Nulls: NullAlways,
		Doc: "sum of the non-NULL values; NULL when there are none"},
	{Name: "avg", Aliases: []string{"mean"}, Kind: AggregateFunc, Args: args(ArgNumericOrInterval), MinArgs: 1, Result: ResAvg, Nulls: NullAlways,
		Doc: "mean of the non-NULL values; NULL when there are none"},
	{Name: "try_sum", Kind: AggregateFunc, Args: args(ArgNumericOrInterval), MinArgs: 1, Result: ResSum, Nulls: NullAlways,
		Doc: "sum of the non-NULL values, of sum's type; NULL when there are none or when the sum overflows (from then on)"},
	{Name: "try_avg", Kind: AggregateFunc, Args: args(ArgNumericOrInterval), MinArgs: 1, Result: ResAvg, Nulls: NullAlways,
		Doc: "mean of the non-NULL values, of avg's type; NULL when there are none or when the sum overflows"},
	{Name: "bit_and", Kind: AggregateFunc, Args: args(ArgIntegral), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "bitwise AND of the non-NULL values, of their type; NULL when there are none"},
	{Name: "bit_or", Kind: AggregateFunc, Args: args(ArgIntegral), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "bitwise OR of the non-NULL values, of their type; NULL when there are none"},
	{Name: "bit_xor", Kind: AggregateFunc, Args: args(ArgIntegral), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "bitwise XOR of the non-NULL values (of the distinct ones with DISTINCT), of their type; NULL when there are none"},
	{Name: "min", Kind: AggregateFunc, Args: args(ArgOrderable), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "smallest non-NULL value"},
	{Name: "max", Kind: AggregateFunc, Args: args(ArgOrderable), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "largest non-NULL value"},
	{Name: "first", Aliases: []string{"first_value"}, Kind: AggregateFunc, Args: args(ArgAny, ArgBooleanConst), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "first value of the group (the first non-NULL one when the second argument is true)"},
	{Name: "last", Aliases: []string{"last_value"}, Kind: AggregateFunc, Args: args(ArgAny, ArgBooleanConst), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "last value of the group (the last non-NULL one when the second argument is true)"},
	{Name: "any_value", Kind: AggregateFunc, Args: args(ArgAny, ArgBooleanConst), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "some value of the group (a non-NULL one when the second argument is true)"},
	{Name: "collect_list", Aliases: []string{"array_agg"}, Kind: AggregateFunc, Args: args(ArgAny), MinArgs: 1, Result: ResArrayOfArg0, Nulls: NullNever,
		Doc: "array of the non-NULL values, in input order"},
	{Name: "collect_set", Kind: AggregateFunc, Args: args(ArgAny), MinArgs: 1, Result: ResArrayOfArg0, Nulls: NullNever,
		Doc: "array of the distinct non-NULL values"},
	{Name: "bool_and", Aliases: []string{"every"}, Kind: AggregateFunc, Args: args(ArgBoolean), MinArgs: 1, Result: ResFixed, Type: types.BooleanType, Nulls: NullAlways,
		Doc: "true when every non-NULL value is true"},
	{Name: "bool_or", Aliases: []string{"some", "any"}, Kind: AggregateFunc, Args: args(ArgBoolean), MinArgs: 1, Result: ResFixed, Type: types.BooleanType, Nulls: NullAlways,
		Doc: "true when at least one value is true"},
	{Name: "stddev", Aliases: []string{"std", "stddev_samp"}, Kind: AggregateFunc, Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "sample standard deviation"},
	{Name: "stddev_pop", Kind: AggregateFunc, Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "population standard deviation"},
	{Name: "variance", Aliases: []string{"var_samp"}, Kind: AggregateFunc, Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "sample variance"},
	{Name: "var_pop", Kind: AggregateFunc, Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "population variance"},

	{Name: "min_by", Kind: AggregateFunc, Args: args(ArgAny, ArgOrderable), MinArgs: 2, Result: ResArg0, Nulls: NullAlways,
		Doc: "the first argument of the row with the smallest non-NULL second argument"},
	{Name: "max_by", Kind: AggregateFunc, Args: args(ArgAny, ArgOrderable), MinArgs: 2, Result: ResArg0, Nulls: NullAlways,
		Doc: "the first argument of the row with the largest non-NULL second argument"},
	{Name: "corr", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "Pearson correlation coefficient of the pairs where both are not NULL"},
	{Name: "covar_pop", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "population covariance of the pairs where both are not NULL"},
	{Name: "covar_samp", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "sample covariance of the pairs where both are not NULL"},
	{Name: "regr_count", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.LongType, Nulls: NullNever,
		Doc: "regr_count(y, x): number of the pairs where both are not NULL"},
	{Name: "regr_avgx", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "regr_avgx(y, x): mean of x over the pairs where both are not NULL"},
	{Name: "regr_avgy", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "regr_avgy(y, x): mean of y over the pairs where both are not NULL"},
	{Name: "regr_sxx", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "regr_sxx(y, x): sum of the squared deviations of x over the pairs where both are not NULL"},
	{Name: "regr_syy", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "regr_syy(y, x): sum of the squared deviations of y over the pairs where both are not NULL"},
	{Name: "regr_sxy", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "regr_sxy(y, x): sum of the products of the deviations of y and x over the pairs where both are not NULL"},
	{Name: "regr_r2", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "regr_r2(y, x): coefficient of determination (NULL for fewer than two pairs or a constant x, 1 for a constant y)"},
	{Name: "regr_slope", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "regr_slope(y, x): slope of the least-squares line, covar_pop(x, y) / var_pop(x) (NULL for a constant x)"},
	{Name: "regr_intercept", Kind: AggregateFunc, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "regr_intercept(y, x): intercept of the least-squares line, avg(y) - regr_slope(y, x) * avg(x)"},
	{Name: "approx_count_distinct", Kind: AggregateFunc, Args: args(ArgAny), MinArgs: 1, Result: ResFixed, Type: types.LongType, Nulls: NullNever,
		Doc: "estimated number of distinct non-NULL values (HyperLogLog++ with Spark's hash and 512 registers, relative error 5%; exact below about 400 values)"},
	{Name: "percentile_approx", Aliases: []string{"approx_percentile"}, Kind: AggregateFunc, Args: args(ArgNumeric, ArgPercentages, ArgIntConst), MinArgs: 2, Result: ResArg0OrArray, Nulls: NullAlways,
		Doc: "the smallest value v of the group such that at least the given fraction of the non-NULL values are <= v (computed exactly); with an ARRAY of fractions, the ARRAY of those values"},
	{Name: "percentile_cont", Kind: AggregateFunc, Args: args(ArgDouble, ArgDoubleConst), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "percentile_cont(p) WITHIN GROUP (ORDER BY x): percentile(x, p), interpolated between the two nearest ranks"},
	{Name: "percentile_disc", Kind: AggregateFunc, Args: args(ArgDouble, ArgDoubleConst), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "percentile_disc(p) WITHIN GROUP (ORDER BY x): the value at rank ceil(p * n) of the n sorted non-NULL values (the first for p = 0), as a DOUBLE"},
	{Name: "mode", Kind: AggregateFunc, Args: args(ArgOrderable, ArgBooleanConst), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "mode(x [, deterministic]) or mode() WITHIN GROUP (ORDER BY x [DESC]): the most frequent non-NULL value; among equally frequent ones the smallest when deterministic is true or with WITHIN GROUP (the largest with DESC), else the one Spark picks (the first in its hash map's order, reproduced for numbers, dates, timestamps and strings)"},
	{Name: "percentile", Kind: AggregateFunc, Args: args(ArgDouble, ArgDoubleConst), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "the exact percentile of the non-NULL values, interpolated linearly between the two nearest ranks"},
	{Name: "grouping", Kind: AggregateFunc, Args: args(ArgAny), MinArgs: 1, Result: ResFixed, Type: types.ByteType, Nulls: NullNever,
		Doc: "with GROUPING SETS, ROLLUP or CUBE: 1 when the group column is left out of the row's grouping set (a subtotal, its NULL is not data), else 0"},
	{Name: "grouping_id", Kind: AggregateFunc, Args: args(ArgAny), Variadic: true, Result: ResFixed, Type: types.LongType, Nulls: NullNever,
		Doc: "with GROUPING SETS, ROLLUP or CUBE: the bits grouping(c) of every group column, the first one the most significant; its arguments, if any, must be the GROUP BY columns in order"},
	{Name: "median", Kind: AggregateFunc, Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "percentile(x, 0.5): the middle value, or the mean of the two middle values"},

	// Conditional functions. coalesce evaluates its arguments lazily, left to right.
	{Name: "coalesce", Aliases: []string{"nvl", "ifnull"}, Args: args(ArgCommon), Variadic: true, MinArgs: 1, Result: ResCommon, Nulls: NullIfAllArgs,
		Doc: "first argument that is not NULL, evaluated lazily"},
	{Name: "nullif", Args: args(ArgAny, ArgAny), MinArgs: 2, Result: ResArg0, Nulls: NullAlways, Form: FormNullIf,
		Doc: "NULL when both arguments are equal, else the first"},
	{Name: "if", Aliases: []string{"iff"}, Args: args(ArgBoolean, ArgCommon, ArgCommon), MinArgs: 3, Result: ResCommon, Form: FormIf,
		Doc: "second argument when the condition is TRUE, else the third"},
	{Name: "nvl2", Args: args(ArgAny, ArgCommon, ArgCommon), MinArgs: 3, Result: ResCommon, Nulls: NullAlways,
		Doc: "the second argument when the first is not NULL, else the third"},
	{Name: "greatest", Args: args(ArgCommon), Variadic: true, MinArgs: 2, Result: ResCommon, Nulls: NullIfAllArgs,
		Doc: "largest non-NULL argument"},
	{Name: "least", Args: args(ArgCommon), Variadic: true, MinArgs: 2, Result: ResCommon, Nulls: NullIfAllArgs,
		Doc: "smallest non-NULL argument"},

	// Strings.
	{Name: "concat", Args: args(ArgString), Variadic: true, Result: ResFixed, Type: types.StringType,
		Doc: "the arguments joined; NULL when any is NULL"},
	{Name: "concat_ws", Args: args(ArgString, ArgStringOrStringArray), Variadic: true, MinArgs: 1, Result: ResFixed, Type: types.StringType, Nulls: NullIfArg0,
		Doc: "the non-NULL arguments (and array elements) after the first, joined by the first"},
	{Name: "upper", Impl: strict("Upper"), Aliases: []string{"ucase"}, Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the string in upper case"},
	{Name: "lower", Impl: strict("Lower"), Aliases: []string{"lcase"}, Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the string in lower case"},
	{Name: "initcap", Impl: strict("InitCap"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the string with the first letter of each word in upper case"},
	{Name: "trim", Impl: strict("Trim"), Args: args(ArgString, ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "trim([chars,] str): str without leading and trailing spaces, or characters of chars (TRIM(chars FROM str))"},
	{Name: "ltrim", Impl: strict("LTrim"), Args: args(ArgString, ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "ltrim([chars,] str): str without leading spaces, or characters of chars (TRIM(LEADING chars FROM str))"},
	{Name: "rtrim", Impl: strict("RTrim"), Args: args(ArgString, ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "rtrim([chars,] str): str without trailing spaces, or characters of chars (TRIM(TRAILING chars FROM str))"},
	{Name: "length", Impl: withKind(strict("Length"), types.BinaryKind, "BinaryLength"), Aliases: []string{"char_length", "character_length", "len"}, Args: args(ArgStringOrBinary), MinArgs: 1, Result: ResFixed, Type: types.IntType,
		Doc: "number of characters of a string, or bytes of a binary"},
	{Name: "substring", Impl: strict("Substring"), Aliases: []string{"substr"}, Args: args(ArgString, ArgInt, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.StringType,
		Doc: "the part of the string from a 1-based position (negative: from the end), of the given length"},
	{Name: "left", Impl: strict("Left"), Args: args(ArgString, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.StringType,
		Doc: "the first n characters"},
	{Name: "right", Impl: strict("Right"), Args: args(ArgString, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.StringType,
		Doc: "the last n characters"},
	{Name: "lpad", Impl: withKind(strict("Lpad"), types.BinaryKind, "LpadBinary"), Args: args(ArgStringOrBinary, ArgInt, ArgStringOrBinary), MinArgs: 2, Result: ResArg0,
		Doc: "the string padded on the left to a length with spaces (or the third argument); a BINARY padded with zero bytes (or the BINARY third argument)"},
	{Name: "rpad", Impl: withKind(strict("Rpad"), types.BinaryKind, "RpadBinary"), Args: args(ArgStringOrBinary, ArgInt, ArgStringOrBinary), MinArgs: 2, Result: ResArg0,
		Doc: "the string padded on the right to a length with spaces (or the third argument); a BINARY padded with zero bytes (or the BINARY third argument)"},
	{Name: "replace", Impl: strict("Replace"), Args: args(ArgString, ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.StringType,
		Doc: "the string with every occurrence of the second argument replaced by the third (or removed)"},
	{Name: "instr", Impl: strict("Instr"), Args: args(ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.IntType,
		Doc: "1-based position of the first occurrence of the second argument, 0 when absent"},
	{Name: "startswith", Impl: strict("StartsWith"), Args: args(ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.BooleanType,
		Doc: "whether the string starts with the second argument"},
	{Name: "endswith", Impl: strict("EndsWith"), Args: args(ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.BooleanType,
		Doc: "whether the string ends with the second argument"},
	{Name: "contains", Impl: strict("Contains"), Args: args(ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.BooleanType,
		Doc: "whether the string contains the second argument"},
	{Name: "split", Impl: fallible("Split"), Args: args(ArgString, ArgString, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.ArrayOf(types.StringType, false),
		Doc: "the string split around matches of a regular expression, at most limit parts when limit > 0"},
	{Name: "rlike", Impl: fallible("RLike"), Aliases: []string{"regexp_like", "regexp"}, Args: args(ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.BooleanType,
		Doc: "whether the string matches the regular expression (Java syntax) anywhere"},
	{Name: "regexp_replace", Impl: fallible("RegexpReplace"), Args: args(ArgString, ArgString, ArgString, ArgInt), MinArgs: 3, Result: ResFixed, Type: types.StringType,
		Doc: "the string with every match of the regular expression replaced (from a 1-based position); $n in the replacement is group n"},
	{Name: "regexp_extract", Impl: fallible("RegexpExtract"), Args: args(ArgString, ArgString, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.StringType,
		Doc: "the given group (default 1) of the first match of the regular expression, or an empty string"},

	{Name: "locate", Aliases: []string{"position"}, Impl: strict("Locate"), Args: args(ArgString, ArgString, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.IntType,
		Doc: "1-based position of the first occurrence of the first argument in the second at or after a position (default 1), 0 when absent"},
	{Name: "translate", Impl: strict("Translate"), Args: args(ArgString, ArgString, ArgString), MinArgs: 3, Result: ResFixed, Type: types.StringType,
		Doc: "the string with each character of the second argument replaced by the one at the same place in the third (removed when there is none)"},
	{Name: "split_part", Impl: fallible("SplitPart"), Args: args(ArgString, ArgString, ArgInt), MinArgs: 3, Result: ResFixed, Type: types.StringType,
		Doc: "the n-th field (negative: from the end) of the string split at a delimiter, '' when out of range; 0 is an error"},
	{Name: "repeat", Impl: strict("Repeat"), Args: args(ArgString, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.StringType,
		Doc: "the string repeated n times"},
	{Name: "reverse", Impl: strict("Reverse"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the string with its characters in reverse order"},
	{Name: "ascii", Impl: strict("Ascii"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.IntType,
		Doc: "the code point of the first character, 0 for ''"},
	{Name: "chr", Aliases: []string{"char"}, Impl: strict("Chr"), Args: args(ArgLong), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the character whose code is n mod 256 ('' for n < 0)"},
	{Name: "regexp_extract_all", Impl: fallible("RegexpExtractAll"), Args: args(ArgString, ArgString, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.ArrayOf(types.StringType, false),
		Doc: "the given group (default 1) of every match of the regular expression"},
	{Name: "regexp_count", Impl: fallible("RegexpCount"), Args: args(ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.IntType,
		Doc: "number of matches of the regular expression"},
	{Name: "format_string", Aliases: []string{"printf"}, Args: args(ArgString, ArgAny), Variadic: true, MinArgs: 1, Result: ResFixed, Type: types.StringType, Nulls: NullIfArg0,
		Doc: "the arguments formatted with a java.util.Formatter pattern (%s, %d, %.2f, %5s, %2$s, ...); a NULL argument prints as null"},
	{Name: "hex", Impl: withKind(strict("Hex"), types.LongKind, "HexLong"), Args: args(ArgLongStringOrBinary), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "upper-case hexadecimal digits of an integer (its 64-bit two's complement), or of the bytes of a string or binary"},
	{Name: "unhex", Impl: nullOnFail("Unhex"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.BinaryType, Nulls: NullAlways,
		Doc: "the bytes of a string of hexadecimal digits (an odd count reads as with a leading 0); NULL when it holds another character"},
	{Name: "url_encode", Impl: strict("URLEncode"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the text in the application/x-www-form-urlencoded form (UTF-8; a space is +, other bytes but letters, digits and .-*_ are %XX)"},
	{Name: "url_decode", Impl: fallible("URLDecode"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "url_encode reversed; CANNOT_DECODE_URL for a % without two hex digits"},
	{Name: "try_url_decode", Impl: nullOnFail("URLDecode"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType, Nulls: NullAlways,
		Doc: "url_decode, NULL instead of an error"},
	{Name: "parse_url", Args: args(ArgString, ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.StringType, Nulls: NullAlways,
		Doc: "a part of a URL (HOST, PATH, QUERY, REF, PROTOCOL, FILE, AUTHORITY, USERINFO; NULL when absent) or, with a key, that QUERY parameter; INVALID_URL for a URL that is not a valid URI"},
	{Name: "try_parse_url", Args: args(ArgString, ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.StringType, Nulls: NullAlways,
		Doc: "parse_url, NULL for an invalid URL"},
	{Name: "md5", Impl: strict("Md5"), Args: args(ArgStringOrBinary), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the MD5 digest of the bytes, as 32 hex digits"},
	{Name: "sha1", Aliases: []string{"sha"}, Impl: strict("Sha1"), Args: args(ArgStringOrBinary), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the SHA-1 digest of the bytes, as 40 hex digits"},
	{Name: "sha2", Impl: nullOnFail("Sha2"), Args: args(ArgStringOrBinary, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.StringType, Nulls: NullAlways,
		Doc: "the SHA-2 digest (224, 256, 384 or 512 bits; 0 means 256) of the bytes in hex; NULL for another bit length"},
	{Name: "crc32", Impl: strict("Crc32"), Args: args(ArgStringOrBinary), MinArgs: 1, Result: ResFixed, Type: types.LongType,
		Doc: "the CRC-32 checksum of the bytes"},
	{Name: "hash", Args: args(ArgAny), Variadic: true, MinArgs: 1, Result: ResFixed, Type: types.IntType, Nulls: NullNever,
		Doc: "Spark's Murmur3 hash (seed 42) of the arguments; NULL arguments are skipped"},
	{Name: "xxhash64", Args: args(ArgAny), Variadic: true, MinArgs: 1, Result: ResFixed, Type: types.LongType, Nulls: NullNever,
		Doc: "Spark's XXH64 hash (seed 42) of the arguments; NULL arguments are skipped"},

	// Dates and times.
	{Name: "to_date", Impl: fallible("ToDate"), Args: args(ArgDatetime, ArgString), MinArgs: 1, Result: ResFixed, Type: types.DateType,
		Doc: "the value as a DATE; a string is parsed with the optional datetime pattern"},
	{Name: "try_to_timestamp", Impl: nullOnFail("ToTimestamp"), Args: args(ArgString, ArgString), MinArgs: 1, Result: ResFixed, Type: types.TimestampType, Nulls: NullAlways,
		Doc: "to_timestamp, NULL when the string does not parse"},
	{Name: "to_timestamp", Impl: fallible("ToTimestamp"), Args: args(ArgDatetime, ArgString), MinArgs: 1, Result: ResFixed, Type: types.TimestampType,
		Doc: "the value as a TIMESTAMP; a string is parsed with the optional datetime pattern"},
	{Name: "to_timestamp_ntz", Args: args(ArgAny), MinArgs: 1, Result: ResFixed, Type: types.TimestampNTZType,
		Doc: "the value as a TIMESTAMP_NTZ, as CAST(x AS TIMESTAMP_NTZ) (the pattern argument is not supported yet)"},
	{Name: "date_format", Impl: withKind(strict("DateFormat"), types.TimestampNTZKind, "DateFormatNTZ"), Args: args(ArgTimestamp, ArgString), MinArgs: 2, Result: ResFixed, Type: types.StringType,
		Doc: "the timestamp formatted with a datetime pattern"},
	{Name: "to_char", Aliases: []string{"to_varchar"}, Impl: withKind(strict("DateFormat"), types.TimestampNTZKind, "DateFormatNTZ"), Args: args(ArgTimestamp, ArgString), MinArgs: 2, Result: ResFixed, Type: types.StringType,
		Doc: "to_char(ts, pattern) of a date or timestamp: date_format (the number and binary forms are not supported yet)"},
	{Name: "date_trunc", Impl: nullOnFail("DateTrunc"), Args: args(ArgString, ArgTimestamp), MinArgs: 2, Result: ResFixed, Type: types.TimestampType,
		Doc: "the timestamp truncated to a unit ('year', 'month', 'day', 'hour', ...)"},
	{Name: "trunc", Impl: nullOnFail("TruncDate"), Args: args(ArgDate, ArgString), MinArgs: 2, Result: ResFixed, Type: types.DateType,
		Doc: "the date truncated to a unit ('year', 'quarter', 'month', 'week')"},
	{Name: "year", Impl: strict("Year"), Args: args(ArgDate), MinArgs: 1, Result: ResFixed, Type: types.IntType, Doc: "the year"},
	{Name: "quarter", Impl: strict("Quarter"), Args: args(ArgDate), MinArgs: 1, Result: ResFixed, Type: types.IntType, Doc: "the quarter of the year, 1 to 4"},
	{Name: "month", Impl: strict("Month"), Args: args(ArgDate), MinArgs: 1, Result: ResFixed, Type: types.IntType, Doc: "the month, 1 to 12"},
	{Name: "day", Impl: strict("DayOfMonth"), Aliases: []string{"dayofmonth"}, Args: args(ArgDate), MinArgs: 1, Result: ResFixed, Type: types.IntType, Doc: "the day of the month, 1 to 31"},
	{Name: "dayofweek", Impl: strict("DayOfWeek"), Args: args(ArgDate), MinArgs: 1, Result: ResFixed, Type: types.IntType, Doc: "the day of the week, 1 (Sunday) to 7 (Saturday)"},
	{Name: "dayofyear", Impl: strict("DayOfYear"), Args: args(ArgDate), MinArgs: 1, Result: ResFixed, Type: types.IntType, Doc: "the day of the year, 1 to 366"},
	{Name: "weekofyear", Impl: strict("WeekOfYear"), Args: args(ArgDate), MinArgs: 1, Result: ResFixed, Type: types.IntType, Doc: "the ISO 8601 week of the year"},
	{Name: "hour", Impl: withKind(strict("Hour"), types.TimestampNTZKind, "HourNTZ"), Args: args(ArgTimestamp), MinArgs: 1, Result: ResFixed, Type: types.IntType, Doc: "the hour, 0 to 23"},
	{Name: "minute", Impl: withKind(strict("Minute"), types.TimestampNTZKind, "MinuteNTZ"), Args: args(ArgTimestamp), MinArgs: 1, Result: ResFixed, Type: types.IntType, Doc: "the minute, 0 to 59"},
	{Name: "second", Impl: withKind(strict("Second"), types.TimestampNTZKind, "SecondNTZ"), Args: args(ArgTimestamp), MinArgs: 1, Result: ResFixed, Type: types.IntType, Doc: "the second, 0 to 59"},
	{Name: "datediff", Impl: strict("DateDiff"), Aliases: []string{"date_diff"}, Args: args(ArgDate, ArgDate), MinArgs: 2, Result: ResFixed, Type: types.IntType,
		Doc: "number of days from the second date to the first"},
	{Name: "date_add", Impl: strict("DateAdd"), Aliases: []string{"dateadd"}, Args: args(ArgDate, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.DateType,
		Doc: "the date plus a number of days"},
	{Name: "date_sub", Impl: strict("DateSub"), Args: args(ArgDate, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.DateType,
		Doc: "the date minus a number of days"},
	{Name: "add_months", Impl: strict("AddMonths"), Args: args(ArgDate, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.DateType,
		Doc: "the date plus a number of months (clamped to the month's last day)"},
	{Name: "last_day", Impl: strict("LastDay"), Args: args(ArgDate), MinArgs: 1, Result: ResFixed, Type: types.DateType,
		Doc: "the last day of the date's month"},
	{Name: "next_day", Impl: fallible("NextDay"), Args: args(ArgDate, ArgString), MinArgs: 2, Result: ResFixed, Type: types.DateType,
		Doc: "the first date after the date that falls on the named day ('Mon', 'MO', 'monday', ...); another name is an error"},
	{Name: "months_between", Impl: strict("MonthsBetween"), Args: args(ArgTimestamp, ArgTimestamp, ArgBooleanConst), MinArgs: 2, Result: ResFixed, Type: types.DoubleType,
		Doc: "months from the second timestamp to the first: whole months when the days of month match or both are month ends, else with the rest over 31-day months, rounded to 8 places unless the third argument is false"},
	{Name: "date_part", Aliases: []string{"datepart"}, Args: args(ArgStringConst, ArgAny), MinArgs: 2, Result: ResFixed, Type: types.IntType,
		Doc: "the field ('YEAR', 'MONTH', 'DAY', 'HOUR', 'SECOND', ...) of a date, timestamp or interval, as EXTRACT(field FROM x)"},
	{Name: "make_ym_interval", Impl: fallible("MakeYMInterval"), Args: args(ArgInt, ArgInt), Result: ResFixed, Type: types.YearMonthIntervalType,
		Doc: "the INTERVAL YEAR TO MONTH of years and months (each 0 when left out)"},
	{Name: "make_dt_interval", Impl: fallible("MakeDTInterval"), Args: args(ArgInt, ArgInt, ArgInt, ArgNumeric), Result: ResFixed, Type: types.IntervalType,
		Doc: "the INTERVAL DAY TO SECOND of days, hours, minutes and seconds (a DECIMAL(18,6); each 0 when left out)"},
	{Name: "make_date", Impl: fallible("MakeDate"), Args: args(ArgInt, ArgInt, ArgInt), MinArgs: 3, Result: ResFixed, Type: types.DateType,
		Doc: "the date of a year, month and day; a date that does not exist is an error"},
	{Name: "make_timestamp", Impl: fallible("MakeTimestamp"), Args: args(ArgInt, ArgInt, ArgInt, ArgInt, ArgInt, ArgDouble, ArgString), MinArgs: 6, Result: ResFixed, Type: types.TimestampType,
		Doc: "the timestamp of year, month, day, hour, minute and (fractional) seconds in a time zone (default: the session's); an invalid field is an error. make_timestamp(date) is the date's midnight in the session time zone; a NULL date or time gives NULL"},
	{Name: "try_make_timestamp", Impl: nullOnFail("MakeTimestamp"), Args: args(ArgInt, ArgInt, ArgInt, ArgInt, ArgInt, ArgDouble, ArgString), MinArgs: 6, Result: ResFixed, Type: types.TimestampType, Nulls: NullAlways,
		Doc: "make_timestamp, NULL where it raises an error (a field out of range)"},
	{Name: "from_unixtime", Impl: fallible("FromUnixtime"), Args: args(ArgLong, ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the instant n seconds after the epoch as a string in the session time zone, with a datetime pattern (default 'yyyy-MM-dd HH:mm:ss')"},
	{Name: "unix_timestamp", Aliases: []string{"to_unix_timestamp"}, Impl: fallible("UnixTimestamp"), Args: args(ArgDatetime, ArgString), MinArgs: 1, Result: ResFixed, Type: types.LongType,
		Doc: "seconds since the epoch of a timestamp, a date (its midnight in the session time zone) or a string parsed with a pattern (default 'yyyy-MM-dd HH:mm:ss'); unparsable text is an error"},
	{Name: "from_utc_timestamp", Impl: fallible("FromUTCTimestamp"), Args: args(ArgTimestamp, ArgString), MinArgs: 2, Result: ResFixed, Type: types.TimestampType,
		Doc: "the wall-clock time in the zone of the instant, as a timestamp read in UTC"},
	{Name: "to_utc_timestamp", Impl: fallible("ToUTCTimestamp"), Args: args(ArgTimestamp, ArgString), MinArgs: 2, Result: ResFixed, Type: types.TimestampType,
		Doc: "the instant of the timestamp's UTC wall-clock time read in the zone"},
	{Name: "timestampdiff", Aliases: []string{"timestamp_diff"}, Impl: withKind(fallible("TimestampDiff"), types.TimestampNTZKind, "TimestampDiffNTZ"), Args: args(ArgStringConst, ArgTimestamp, ArgTimestamp), MinArgs: 3, Result: ResFixed, Type: types.LongType,
		Doc: "timestampdiff(unit, start, end), also datediff(unit, start, end): whole units (MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR) from start to end, counted on their wall-clock times in the session time zone"},
	{Name: "timestampadd", Impl: withKind(fallible("TimestampAdd"), types.TimestampNTZKind, "TimestampAddNTZ"), Args: args(ArgStringConst, ArgLong, ArgTimestamp), MinArgs: 3, Result: ResArg2,
		Doc: "timestampadd(unit, n, ts), also dateadd(unit, n, ts): ts plus n units; MICROSECOND to HOUR move the instant, DAY (DAYOFYEAR), WEEK, MONTH, QUARTER and YEAR its wall-clock date in the session time zone (clamped to a shorter month's last day); overflow is an error"},
	{Name: "convert_timezone", Impl: fallible("ConvertTimezone"), Args: args(ArgString, ArgString, ArgTimestampNTZ), MinArgs: 3, Result: ResFixed, Type: types.TimestampNTZType,
		Doc: "convert_timezone([source zone,] target zone, ts): the wall-clock time ts in the source zone (default: the session's) read as the wall-clock time in the target zone; an unknown zone is an error"},
	{Name: "current_timezone", Impl: strict("CurrentTimeZone"), Result: ResFixed, Type: types.StringType, Nulls: NullNever,
		Doc: "the session time zone (session_time_zone), e.g. America/New_York"},
	{Name: "unix_date", Impl: strict("UnixDate"), Args: args(ArgDate), MinArgs: 1, Result: ResFixed, Type: types.IntType, Doc: "days since 1970-01-01"},
	{Name: "date_from_unix_date", Impl: strict("DateFromUnixDate"), Args: args(ArgInt), MinArgs: 1, Result: ResFixed, Type: types.DateType, Doc: "the date n days after 1970-01-01"},
	{Name: "window", Args: args(ArgTimestamp, ArgStringConst, ArgStringConst, ArgStringConst), MinArgs: 2, Result: ResFixed, Type: windowType,
		Doc: "the time window [start, end) holding the timestamp: window(ts, duration[, slide[, start offset]]) with durations such as '10 minutes'; tumbling when the slide is the duration (or omitted); a sliding window (shorter slide) only as a GROUP BY expression, each row counted in every window holding it; in a streaming table, the key of a window aggregation closed by the watermark"},
	{Name: "current_date", Aliases: []string{"curdate"}, Result: ResFixed, Type: types.DateType, Nulls: NullNever, Nondeterministic: true,
		Doc: "the date the update started, in UTC"},
	{Name: "current_timestamp", Aliases: []string{"now"}, Result: ResFixed, Type: types.TimestampType, Nulls: NullNever, Nondeterministic: true,
		Doc: "the time the update started"},
	{Name: "unix_seconds", Impl: strict("UnixSeconds"), Args: args(ArgTimestamp), MinArgs: 1, Result: ResFixed, Type: types.LongType, Doc: "seconds since 1970-01-01 00:00:00 UTC"},
	{Name: "unix_millis", Impl: strict("UnixMillis"), Args: args(ArgTimestamp), MinArgs: 1, Result: ResFixed, Type: types.LongType, Doc: "milliseconds since 1970-01-01 00:00:00 UTC"},
	{Name: "unix_micros", Impl: strict("UnixMicros"), Args: args(ArgTimestamp), MinArgs: 1, Result: ResFixed, Type: types.LongType, Doc: "microseconds since 1970-01-01 00:00:00 UTC"},
	{Name: "timestamp_seconds", Impl: withKind(fallible("TimestampSeconds"), types.DecimalKind, "TimestampSecondsDecimal"), Args: args(ArgNumeric), MinArgs: 1, Result: ResFixed, Type: types.TimestampType, Doc: "the timestamp a number of seconds after the epoch"},
	{Name: "timestamp_millis", Impl: fallible("TimestampMillis"), Args: args(ArgLong), MinArgs: 1, Result: ResFixed, Type: types.TimestampType, Doc: "the timestamp a number of milliseconds after the epoch"},
	{Name: "timestamp_micros", Impl: fallible("TimestampMicros"), Args: args(ArgLong), MinArgs: 1, Result: ResFixed, Type: types.TimestampType, Doc: "the timestamp a number of microseconds after the epoch"},

	// Numbers.
	{Name: "positive", Args: args(ArgNumeric), MinArgs: 1, Result: ResArg0, Doc: "the value itself (unary +)"},
	{Name: "bin", Impl: strict("Bin"), Args: args(ArgLong), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the binary digits of a BIGINT (two's complement for a negative one)"},
	{Name: "conv", Args: args(ArgString, ArgInt, ArgInt), MinArgs: 3, Result: ResFixed, Type: types.StringType, Nulls: NullAlways,
		Doc: "conv(num, from_base, to_base): num's digits in one base (2 to 36) written in another, as an unsigned 64-bit number (signed for a negative to_base); NULL for a base out of range, ARITHMETIC_OVERFLOW beyond 64 bits"},
	{Name: "abs", Impl: withKind(withKind(withKind(fallible("Abs"), types.DecimalKind, "AbsDecimal"), types.IntervalKind, "AbsInterval"), types.YearMonthIntervalKind, "AbsYMInterval"), Args: args(ArgNumeric), MinArgs: 1, Result: ResArg0, Doc: "the absolute value"},
	{Name: "round", Impl: withKind(fallible("Round"), types.DecimalKind, "RoundDecimal"), Args: args(ArgNumeric, ArgIntConst), MinArgs: 1, Result: ResRound,
		Doc: "the value rounded half up to d decimal places (default 0)"},
	{Name: "floor", Impl: withKind(fallible("Floor"), types.DecimalKind, "FloorDecimal"), Args: args(ArgNumeric, ArgIntConst), MinArgs: 1, Result: ResFloorCeil,
		Doc: "the largest integer not greater than the value; floor(x, d) rounds down to d decimal places (d < 0: to tens, hundreds...) as a DECIMAL"},
	{Name: "ceil", Impl: withKind(fallible("Ceil"), types.DecimalKind, "CeilDecimal"), Aliases: []string{"ceiling"}, Args: args(ArgNumeric, ArgIntConst), MinArgs: 1, Result: ResFloorCeil,
		Doc: "the smallest integer not less than the value; ceil(x, d) rounds up to d decimal places (d < 0: to tens, hundreds...) as a DECIMAL"},
	{Name: "sqrt", Impl: strict("Sqrt"), Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Doc: "the square root"},
	{Name: "exp", Impl: strict("Exp"), Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Doc: "e to the power of the value"},
	{Name: "ln", Impl: nullOnFail("Ln"), Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Doc: "the natural logarithm"},
	{Name: "log10", Impl: nullOnFail("Log10"), Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Doc: "the base-10 logarithm"},
	{Name: "power", Impl: strict("Pow"), Aliases: []string{"pow"}, Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType, Doc: "the first argument to the power of the second"},
	{Name: "bround", Impl: withKind(fallible("BRound"), types.DecimalKind, "BRoundDecimal"), Args: args(ArgNumeric, ArgIntConst), MinArgs: 1, Result: ResRound,
		Doc: "the value rounded half to even to d decimal places (default 0)"},
	{Name: "log", Impl: nullOnFail("Log"), Args: args(ArgDouble, ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways,
		Doc: "log(base, x), or the natural logarithm log(x); NULL when an argument is <= 0"},
	{Name: "log2", Impl: nullOnFail("Log2"), Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Nulls: NullAlways, Doc: "the base-2 logarithm; NULL for x <= 0"},
	{Name: "cbrt", Impl: strict("Cbrt"), Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.DoubleType, Doc: "the cube root"},
	{Name: "sign", Aliases: []string{"signum"}, Impl: withKind(withKind(withKind(strict("Sign"), types.DecimalKind, "SignDecimal"), types.IntervalKind, "SignInterval"), types.YearMonthIntervalKind, "SignYMInterval"), Args: args(ArgNumeric), MinArgs: 1, Result: ResFixed, Type: types.DoubleType,
		Doc: "-1.0, 0.0 or 1.0 as the value is negative, zero or positive"},
	{Name: "mod", Args: args(ArgAny, ArgAny), MinArgs: 2, Result: ResOperator, Form: FormBinary, Op: Mod, Doc: "a % b: the remainder with the sign of a; a zero divisor is an error"},
	{Name: "pmod", Impl: withKind(fallible("Pmod"), types.DecimalKind, "PmodDecimal"), Args: args(ArgNumericCommon, ArgNumericCommon), MinArgs: 2, Result: ResCommon,
		Doc: "the non-negative remainder of a / n for positive n; a zero divisor is an error"},
	{Name: "pi", Impl: strict("Pi"), Result: ResFixed, Type: types.DoubleType, Nulls: NullNever, Doc: "π"},
	{Name: "e", Impl: strict("E"), Result: ResFixed, Type: types.DoubleType, Nulls: NullNever, Doc: "Euler's number"},
	{Name: "try_add", Args: args(ArgAny, ArgAny), MinArgs: 2, Result: ResOperator, Form: FormBinary, Op: Add, Try: true, Doc: "a + b, NULL on overflow"},
	{Name: "try_subtract", Args: args(ArgAny, ArgAny), MinArgs: 2, Result: ResOperator, Form: FormBinary, Op: Sub, Try: true, Doc: "a - b, NULL on overflow"},
	{Name: "try_multiply", Args: args(ArgAny, ArgAny), MinArgs: 2, Result: ResOperator, Form: FormBinary, Op: Mul, Try: true, Doc: "a * b, NULL on overflow"},
	{Name: "try_divide", Args: args(ArgAny, ArgAny), MinArgs: 2, Result: ResOperator, Form: FormBinary, Op: Div, Try: true, Doc: "a / b, NULL when b is 0 or on overflow"},
	{Name: "try_mod", Args: args(ArgAny, ArgAny), MinArgs: 2, Result: ResOperator, Form: FormBinary, Op: Mod, Try: true, Doc: "a % b, NULL when b is 0"},
	{Name: "rand", Aliases: []string{"random"}, Args: args(ArgIntConst), Result: ResFixed, Type: types.DoubleType, Nulls: NullNever, Nondeterministic: true,
		Doc: "a uniformly distributed random number in [0, 1)"},
	{Name: "uuid", Impl: strict("UUID"), Result: ResFixed, Type: types.StringType, Nulls: NullNever, Nondeterministic: true, Doc: "a random UUID string"},

	// Arrays, maps and structs.
	{Name: "array", Args: args(ArgCommon), Variadic: true, Result: ResArrayOfCommon, Nulls: NullNever, Doc: "an array of the arguments"},
	{Name: "map", Args: args(ArgCommon, ArgCommonValue), Variadic: true, Repeat: 2, Result: ResMapOfCommon, Nulls: NullNever,
		Doc: "a map of the key and value arguments, alternating"},
	{Name: "struct", Args: args(ArgAny), Variadic: true, Result: ResStruct, Nulls: NullNever, Doc: "a struct of the arguments"},
	{Name: "named_struct", Args: args(ArgStringConst, ArgAny), Variadic: true, Repeat: 2, Result: ResNamedStruct, Nulls: NullNever,
		Doc: "a struct of the value arguments, named by the constant name arguments before them"},
	{Name: "size", Aliases: []string{"cardinality"}, Args: args(ArgArrayOrMap), MinArgs: 1, Result: ResFixed, Type: types.IntType,
		Doc: "number of elements of an array or entries of a map"},
	{Name: "array_size", Args: args(ArgArray), MinArgs: 1, Result: ResFixed, Type: types.IntType,
		Doc: "number of elements of an array"},
	{Name: "element_at", Args: args(ArgArrayOrMap, ArgIndexOrKey), MinArgs: 2, Result: ResElement, Nulls: NullAlways,
		Doc: "the element at a 1-based index (negative: from the end) of an array, or the value of a map key (NULL when absent)"},
	{Name: "try_element_at", Args: args(ArgArrayOrMap, ArgIndexOrKey), MinArgs: 2, Result: ResElement, Nulls: NullAlways,
		Doc: "element_at, NULL for an index out of range (index 0 is still INVALID_INDEX_OF_ZERO, as in Spark)"},
	{Name: "array_contains", Args: args(ArgArray, ArgElement), MinArgs: 2, Result: ResFixed, Type: types.BooleanType,
		Doc: "whether the array contains the value"},

	// Collection functions whose types follow their arguments' element,
	// key and value types (collections.go).
	{Name: "array_distinct", Args: args(ArgArray), MinArgs: 1, Result: ResCollection, Nulls: NullIfArg0,
		Doc: "the array without duplicates, in order of first occurrence (one NULL kept)"},
	{Name: "array_join", Args: args(ArgArray, ArgString, ArgString), MinArgs: 2, Result: ResCollection, Nulls: NullIfAnyArg,
		Doc: "the elements (cast to STRING) joined by the delimiter; NULL elements skipped, or replaced by the third argument"},
	{Name: "array_max", Args: args(ArgArray), MinArgs: 1, Result: ResCollection, Nulls: NullAlways,
		Doc: "the largest non-NULL element; NULL for an empty array"},
	{Name: "array_min", Args: args(ArgArray), MinArgs: 1, Result: ResCollection, Nulls: NullAlways,
		Doc: "the smallest non-NULL element; NULL for an empty array"},
	{Name: "sort_array", Args: args(ArgArray, ArgBooleanConst), MinArgs: 1, Result: ResCollection, Nulls: NullIfArg0,
		Doc: "the array sorted ascending (NULLs first) or, when the second argument is false, descending (NULLs last)"},
	{Name: "flatten", Args: args(ArgArray), MinArgs: 1, Result: ResCollection, Nulls: NullCollection,
		Doc: "the arrays of an array of arrays concatenated; NULL when one of them is NULL"},
	{Name: "slice", Args: args(ArgArray, ArgInt, ArgInt), MinArgs: 3, Result: ResCollection, Nulls: NullIfAnyArg,
		Doc: "length elements from the 1-based start (negative: from the end); start 0 or a negative length is an error"},
	{Name: "sequence", Args: args(ArgCommon, ArgCommon, ArgAny), MinArgs: 2, Result: ResCollection, Nulls: NullIfAnyArg,
		Doc: "the integers (or dates, timestamps) from start to stop inclusive, by step (default 1 or -1, a day for dates)"},
	{Name: "arrays_zip", Args: args(ArgArray), Variadic: true, MinArgs: 1, Result: ResCollection, Nulls: NullIfAnyArg,
		Doc: "an array of structs whose field i is element n of array i (NULL past its end), as long as the longest"},
	{Name: "map_keys", Args: args(ArgArrayOrMap), MinArgs: 1, Result: ResCollection, Nulls: NullIfArg0,
		Doc: "the keys of the map, in its order"},
	{Name: "map_values", Args: args(ArgArrayOrMap), MinArgs: 1, Result: ResCollection, Nulls: NullIfArg0,
		Doc: "the values of the map, in its order"},
	{Name: "map_from_arrays", Args: args(ArgArray, ArgArray), MinArgs: 2, Result: ResCollection, Nulls: NullIfAnyArg,
		Doc: "the map of keys (first array) to values (second array); NULL or duplicate keys and different lengths are errors"},

	// JSON strings (Spark's jsonExpressions.scala).
	{Name: "get_json_object", Impl: nullOnFail("GetJSONObject"), Args: args(ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.StringType, Nulls: NullAlways,
		Doc: "the value at a JSON path ($.a.b[0], $['a'], [*]) of a JSON string: strings unquoted, other values as JSON; NULL when invalid or absent"},
	{Name: "json_array_length", Impl: nullOnFail("JSONArrayLength"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.IntType, Nulls: NullAlways,
		Doc: "number of elements of the outermost JSON array; NULL for malformed JSON or another JSON value"},
	{Name: "from_json", Args: args(ArgString, ArgStringConst), MinArgs: 2, Result: ResCollection, Nulls: NullAlways,
		Doc: "the JSON string parsed as the type of a DDL schema ('a INT, b STRING' or ARRAY<...>, MAP<...>); fields that do not parse are NULL, malformed JSON gives a struct of NULLs"},
	{Name: "to_json", Args: args(ArgAny), MinArgs: 1, Result: ResCollection, Nulls: NullIfArg0,
		Doc: "the struct, array or map as a JSON string (NULL struct fields left out)"},
	{Name: "schema_of_json", Impl: fallible("SchemaOfJSON"), Args: args(ArgStringConst), MinArgs: 1, Result: ResFixed, Type: types.StringType, Nulls: NullNever,
		Doc: "the DDL type Spark infers for a JSON string constant, e.g. STRUCT<a: BIGINT, b: ARRAY<STRING>>"},

	// Window functions (window.go): a Window plan node, not a Call. Their
	// frames are ignored; aggregates are window functions too, over frames.
	{Name: "row_number", Kind: WindowFunc, Result: ResFixed, Type: types.IntType, Nulls: NullNever,
		Doc: "the row's 1-based position in its ordered partition"},
	{Name: "rank", Kind: WindowFunc, Result: ResFixed, Type: types.IntType, Nulls: NullNever,
		Doc: "the row's rank in its ordered partition, with gaps after ties"},
	{Name: "dense_rank", Kind: WindowFunc, Result: ResFixed, Type: types.IntType, Nulls: NullNever,
		Doc: "the row's rank in its ordered partition, without gaps after ties"},
	{Name: "percent_rank", Kind: WindowFunc, Result: ResFixed, Type: types.DoubleType, Nulls: NullNever,
		Doc: "(rank - 1) / (rows in the partition - 1), 0 for a partition of one row"},
	{Name: "cume_dist", Kind: WindowFunc, Result: ResFixed, Type: types.DoubleType, Nulls: NullNever,
		Doc: "the fraction of the partition's rows ordered before or with the row"},
	{Name: "ntile", Kind: WindowFunc, Args: args(ArgIntConst), MinArgs: 1, Result: ResFixed, Type: types.IntType, Nulls: NullNever,
		Doc: "the bucket, 1 to n, of the row when the ordered partition is split into n buckets of sizes differing by at most one"},
	{Name: "lag", Kind: WindowFunc, Args: args(ArgAny, ArgIntConst, ArgAny), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "the value offset rows (default 1) before the row in its ordered partition, or the default (NULL)"},
	{Name: "lead", Kind: WindowFunc, Args: args(ArgAny, ArgIntConst, ArgAny), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "the value offset rows (default 1) after the row in its ordered partition, or the default (NULL)"},
	{Name: "nth_value", Kind: WindowFunc, Args: args(ArgAny, ArgIntConst, ArgBooleanConst), MinArgs: 2, Result: ResArg0, Nulls: NullAlways,
		Doc: "the value of the n-th row of the frame (the n-th non-NULL one when the third argument is true), NULL when the frame is shorter"},

	// Generators (generate.go): a Generate plan node, not a Call.
	{Name: "explode", Kind: GeneratorFunc, Args: args(ArgArrayOrMap), MinArgs: 1, Result: ResCollection,
		Doc: "a row per element of the array (column col) or entry of the map (key, value); none for NULL or empty"},
	{Name: "explode_outer", Kind: GeneratorFunc, Args: args(ArgArrayOrMap), MinArgs: 1, Result: ResCollection,
		Doc: "explode, but a NULL or empty array or map gives one row of NULLs"},
	{Name: "posexplode", Kind: GeneratorFunc, Args: args(ArgArrayOrMap), MinArgs: 1, Result: ResCollection,
		Doc: "explode with the 0-based position first (pos, col or pos, key, value)"},
	{Name: "posexplode_outer", Kind: GeneratorFunc, Args: args(ArgArrayOrMap), MinArgs: 1, Result: ResCollection,
		Doc: "posexplode, but a NULL or empty array or map gives one row of NULLs"},
	{Name: "inline", Kind: GeneratorFunc, Args: args(ArgArray), MinArgs: 1, Result: ResCollection,
		Doc: "a row per struct of an array of structs, one column per field"},
	{Name: "inline_outer", Kind: GeneratorFunc, Args: args(ArgArray), MinArgs: 1, Result: ResCollection,
		Doc: "inline, but a NULL or empty array gives one row of NULLs"},

	// Higher-order functions: their lambda functions' parameters and their
	// result types are settled in lambda.go.
	{Name: "transform", Args: args(ArgArray, ArgLambda), MinArgs: 2, Result: ResLambda, Nulls: NullIfArg0,
		Doc: "the array of the lambda's results for each element: transform(arr, x -> ...) or transform(arr, (x, i) -> ...) with the 0-based index i"},
	{Name: "filter", Args: args(ArgArray, ArgLambda), MinArgs: 2, Result: ResLambda, Nulls: NullIfArg0,
		Doc: "the elements for which the lambda is TRUE: filter(arr, x -> ...) or filter(arr, (x, i) -> ...)"},
	{Name: "exists", Args: args(ArgArray, ArgLambda), MinArgs: 2, Result: ResLambda, Nulls: NullIfAnyArg,
		Doc: "TRUE when the lambda is TRUE for some element; else NULL when it is NULL for some element; else FALSE"},
	{Name: "forall", Args: args(ArgArray, ArgLambda), MinArgs: 2, Result: ResLambda, Nulls: NullIfAnyArg,
		Doc: "FALSE when the lambda is FALSE for some element; else NULL when it is NULL for some element; else TRUE"},
	{Name: "aggregate", Aliases: []string{"reduce"}, Args: args(ArgArray, ArgAny, ArgLambda, ArgLambda), MinArgs: 3, Result: ResLambda, Nulls: NullIfAnyArg,
		Doc: "folds the array: aggregate(arr, start, (acc, x) -> ...[, acc -> ...]); the merge lambda must return start's type"},
	{Name: "array_sort", Args: args(ArgArray, ArgLambda), MinArgs: 1, Result: ResLambda, Nulls: NullIfArg0,
		Doc: "the array sorted ascending with NULLs last, or by a comparator (l, r) -> INT (negative, 0 or positive)"},

	// Casts.
	{Name: "boolean", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.BooleanType, Doc: "CAST(x AS BOOLEAN)"},
	{Name: "tinyint", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.ByteType, Doc: "CAST(x AS TINYINT)"},
	{Name: "smallint", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.ShortType, Doc: "CAST(x AS SMALLINT)"},
	{Name: "int", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.IntType, Doc: "CAST(x AS INT)"},
	{Name: "bigint", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.LongType, Doc: "CAST(x AS BIGINT)"},
	{Name: "float", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.FloatType, Doc: "CAST(x AS FLOAT)"},
	{Name: "double", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.DoubleType, Doc: "CAST(x AS DOUBLE)"},
	{Name: "decimal", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.DecimalOf(10, 0), Doc: "CAST(x AS DECIMAL(10,0))"},
	{Name: "string", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.StringType, Doc: "CAST(x AS STRING)"},
	{Name: "binary", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.BinaryType, Doc: "CAST(x AS BINARY)"},
	{Name: "date", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.DateType, Doc: "CAST(x AS DATE)"},
	{Name: "timestamp", Args: args(ArgAny), MinArgs: 1, Form: FormCast, Result: ResFixed, Type: types.TimestampType, Doc: "CAST(x AS TIMESTAMP)"},
}, append(moreFunctions, spellingFunctions...)...)

// windowType is window()'s result.
var windowType = types.StructOf(
	types.Field{Name: "start", Type: types.TimestampType, Nullable: true},
	types.Field{Name: "end", Type: types.TimestampType, Nullable: true})

// functionsByName indexes functionTable by name and alias.
var functionsByName = func() map[string]*Function {
	m := make(map[string]*Function)
	for _, f := range functionTable {
		m[f.Name] = f
		for _, a := range f.Aliases {
			m[a] = f
		}
	}
	return m
}()

// LookupFunction returns the function called name (case-insensitive,
// aliases included), or nil.
func LookupFunction(name string) *Function {
	return functionsByName[strings.ToLower(name)]
}

// Functions returns every function, ordered by name.
func Functions() []*Function {
	fs := append([]*Function(nil), functionTable...)
	sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	return fs
}

// functionNames returns every name and alias, for suggestions.
func functionNames() []string {
	names := make([]string, 0, len(functionsByName))
	for n := range functionsByName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

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
