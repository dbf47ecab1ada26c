package sql

import "github.com/pipegen/pipegen/runtime/types"

// This file is the checked form of a query: a tree of relational operators
// (Plan) over typed, resolved expressions (Expr). The checker (Check) builds
// it; the code generator (package gen) consumes it and never re-derives a
// type, a column index or an implicit cast. Semantics are Spark SQL's.
//
// Conventions every node follows:
//   - Every Plan knows its output columns (Output); column i of a plan is
//     referred to by ColumnRef{Index: i} in the expressions of the plan
//     directly above it.
//   - Implicit casts (Spark's type coercion) are explicit Cast nodes.
//   - Temporary views and WITH clauses are inlined: a Scan always reads a
//     source or a table (streaming table or materialized view).
//   - Pos fields are byte offsets into the SQL text the node came from, for
//     run-time error messages that name the expression.
//   - Plans and expressions are immutable once Check returns them, and may
//     be shared: a WITH query read twice is the same Plan value in both
//     places. Consumers must not modify them.
//
// FormatPlan and FormatExpr (format.go) print them as text.

// Column is one output column of a plan.
type Column struct {
	Name     string
	Type     types.Type
	Nullable bool
	// Hidden columns (a file source's _metadata) are not part of `*`.
	Hidden bool
}

// Plan is a relational operator. The concrete types are the structs below.
type Plan interface {
	// Output returns the operator's output columns, in order.
	Output() []Column
	planNode()
}

// Scan reads a source or a table of the pipeline.
type Scan struct {
	// Name is the source's or dataset's name in the spec (not qualified).
	Name string
	// Streaming is true for STREAM(name): only rows added since the flow's
	// checkpoint are read. Otherwise the current snapshot is read.
	Streaming bool
	// Columns are the relation's columns (hidden ones included).
	Columns []Column
	Pos     int
	// Watermark is the event-time watermark of a stream (a WATERMARK
	// clause or the spec's watermark key); nil when none. See watermark.go.
	Watermark *Watermark
}

// Values is an inline table (SELECT without FROM is Values with one empty row).
type Values struct {
	Columns []Column
	Rows    [][]Expr
}

// Filter keeps rows for which Cond is TRUE (NULL and FALSE drop the row).
type Filter struct {
	Input Plan
	Cond  Expr
}

// Project computes one output column per expression.
type Project struct {
	Input   Plan
	Exprs   []Expr
	Columns []Column // names, types and nullability of the results
}

// Aggregate groups Input by Groups and computes Aggs per group. Output is the
// group expressions followed by the aggregates. With no Groups it yields
// exactly one row, even over empty input (Spark's global aggregate).
// Groups and the arguments and filters of Aggs are over Input's columns;
// the plan above reads the Aggregate's output (HAVING is a Filter over it).
type Aggregate struct {
	Input   Plan
	Groups  []Expr
	Aggs    []*AggCall
	Columns []Column
	// GroupingSets, when not nil, lists for each grouping set the indexes of
	// Groups it keeps (GROUPING SETS, ROLLUP, CUBE); the other group columns
	// are NULL in that set's rows.
	GroupingSets [][]int
}

// AggCall is one aggregate function call, e.g. count(DISTINCT x) FILTER (WHERE c).
// Func names an aggregate of the function table (LookupFunction); count(*)
// has no Args. Arguments are already cast to the types the function works on.
type AggCall struct {
	Func     string // canonical lower-case name, e.g. "count", "sum"
	Args     []Expr
	Distinct bool
	Filter   Expr // nil when absent
	Type     types.Type
	Nullable bool
	Pos      int
	// Desc marks mode() WITHIN GROUP (ORDER BY x DESC): among equally
	// frequent values the largest, not the smallest.
	Desc bool
}

// JoinKind is the kind of a Join.
type JoinKind uint8

// Join kinds, with Spark's semantics.
const (
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
	CrossJoin
	LeftSemiJoin
	LeftAntiJoin
)

// Join combines Left and Right. Output is Left's columns then Right's (only
// Left's for semi and anti joins); columns of the side that may be missing
// are nullable. Equi-join keys are split out: row l of Left matches row r of
// Right when LeftKeys[i](l) = RightKeys[i](r) for every i (NULL never
// matches) and Residual, evaluated over the concatenated row, is TRUE.
type Join struct {
	Kind      JoinKind
	Left      Plan
	Right     Plan
	LeftKeys  []Expr // over Left's columns
	RightKeys []Expr // over Right's columns; same types as LeftKeys (casts inserted)
	Residual  Expr   // over Left ++ Right columns; nil when none
	Columns   []Column
}

// Generate calls a generator function on each row of Input and yields
// one row per element: Input's columns followed by the generated ones
// (Spark's Generate, from a generator in the SELECT list or a LATERAL
// VIEW). Func is "explode" (an ARRAY's elements as col, a MAP's entries as
// key and value), "posexplode" (the same after pos, the 0-based INT
// position) or "inline" (the fields of each struct of an ARRAY<STRUCT>).
// A NULL or empty Arg yields no row, or with Outer (explode_outer,
// LATERAL VIEW OUTER, ...) one row whose generated columns are NULL.
// Func "window" expands a sliding window (GROUP BY window(ts, duration,
// slide), rewritten by the checker): Arg is the window() call, and each
// row yields one row per window [start, start + duration) holding ts, the
// windows starting at the offset plus a multiple of the slide (Spark's
// TimeWindowing); a NULL ts yields no row.
type Generate struct {
	Input Plan
	Func  string
	// Arg is the ARRAY or MAP, over Input's columns.
	Arg     Expr
	Outer   bool
	Columns []Column
}

// Window computes window functions over Input (Spark's Window operator):
// the rows are split into partitions of equal PartitionBy values (NULLs
// equal), ordered within each by OrderBy, and each call is computed for
// every row over its partition or its frame. Output is Input's columns
// followed by one column per call. All calls share PartitionBy and
// OrderBy; a query with several window specifications has a chain of
// Window nodes. Expressions are over Input's columns.
type Window struct {
	Input       Plan
	PartitionBy []Expr
	OrderBy     []SortKey
	Calls       []*WindowCall
	Columns     []Column
}

// WindowCall is one window function call of a Window. Func is a ranking
// or offset function (row_number, rank, dense_rank, percent_rank,
// cume_dist, ntile, lag, lead, nth_value) or an aggregate of the function
// table (first_value is first, last_value last) computed over Frame.
// Ranking and offset functions ignore Frame.
type WindowCall struct {
	Func string
	// Args are over the Window's input; constant arguments (ntile's n,
	// lag's offset, nth_value's n, first's ignoreNulls) are literals.
	Args     []Expr
	Filter   Expr // an aggregate's FILTER (WHERE ...); nil when absent
	Frame    Frame
	Type     types.Type
	Nullable bool
	Pos      int
}

// Frame is the rows a window aggregate reads for the current row: ROWS
// frames count rows from the current one, RANGE frames compare the single
// ORDER BY value (CURRENT ROW in a RANGE frame is the row's peers: the
// rows with an equal ORDER BY value). Spark's default is RANGE BETWEEN
// UNBOUNDED PRECEDING AND CURRENT ROW with ORDER BY, the whole partition
// without.
type Frame struct {
	Rows       bool
	Start, End FrameBound
}

// BoundKind is the kind of a frame bound.
type BoundKind uint8

// Frame bounds.
const (
	UnboundedPreceding BoundKind = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// FrameBound is one end of a Frame. Offset is set for Preceding and
// Following: a non-negative constant, an INT number of rows for ROWS; for
// RANGE, of the ORDER BY value's type (an INT number of days for a DATE,
// an INTERVAL for a TIMESTAMP).
type FrameBound struct {
	Kind   BoundKind
	Offset *Literal
}

// Union is UNION ALL (and, with Distinct, UNION). Inputs have the same number
// of columns with identical types (casts inserted by the checker).
type Union struct {
	Inputs   []Plan
	Distinct bool
	Columns  []Column
}

// Distinct removes duplicate rows (SELECT DISTINCT).
type Distinct struct {
	Input Plan
}

// SortKey is one ORDER BY item.
type SortKey struct {
	Expr       Expr
	Descending bool
	NullsFirst bool // Spark's default: NULLS FIRST for ASC, NULLS LAST for DESC
}

// Sort orders rows (ORDER BY).
type Sort struct {
	Input Plan
	Keys  []SortKey
}

// Limit keeps the first N rows (LIMIT).
type Limit struct {
	Input Plan
	N     int64
}

func (p *Scan) Output() []Column      { return p.Columns }
func (p *Values) Output() []Column    { return p.Columns }
func (p *Filter) Output() []Column    { return p.Input.Output() }
func (p *Project) Output() []Column   { return p.Columns }
func (p *Aggregate) Output() []Column { return p.Columns }
func (p *Join) Output() []Column      { return p.Columns }
func (p *Generate) Output() []Column  { return p.Columns }
func (p *Window) Output() []Column    { return p.Columns }
func (p *Union) Output() []Column     { return p.Columns }
func (p *Distinct) Output() []Column  { return p.Input.Output() }
func (p *Sort) Output() []Column      { return p.Input.Output() }
func (p *Limit) Output() []Column     { return p.Input.Output() }

func (*Scan) planNode()      {}
func (*Values) planNode()    {}
func (*Filter) planNode()    {}
func (*Project) planNode()   {}
func (*Aggregate) planNode() {}
func (*Join) planNode()      {}
func (*Generate) planNode()  {}
func (*Window) planNode()    {}
func (*Union) planNode()     {}
func (*Distinct) planNode()  {}
func (*Sort) planNode()      {}
func (*Limit) planNode()     {}

// Expr is a typed, resolved scalar expression.
type Expr interface {
	// ResultType is the expression's Spark type.
	ResultType() types.Type
	// IsNullable reports whether the expression may yield NULL.
	IsNullable() bool
	exprNode()
}

// ColumnRef reads column Index of the input row.
type ColumnRef struct {
	Index    int
	Name     string
	Type     types.Type
	Nullable bool
}

// Literal is a constant. Value holds the Go representation of Type (see
// package types): nil for NULL, bool, int8/16/32/64, float32/64,
// types.Decimal, string, []byte, types.Date, types.Timestamp, types.Interval,
// types.YearMonthInterval.
type Literal struct {
	Value any
	Type  types.Type
}

// ParamRef is a `${name}` pipeline parameter used as a value; it is read
// when the update starts.
type ParamRef struct {
	Name string
	Type types.Type
}

// UnaryOp is a unary operator.
type UnaryOp uint8

// Unary operators.
const (
	Not    UnaryOp = iota // NOT x
	Negate                // -x
	BitNot                // ~x
)

// Unary applies Op to X.
type Unary struct {
	Op   UnaryOp
	X    Expr
	Type types.Type
	Pos  int
}

// BinaryOp is a binary operator.
type BinaryOp uint8

// Binary operators. And and Or use SQL's three-valued logic.
const (
	Add BinaryOp = iota
	Sub
	Mul
	Div    // '/': always fractional (DOUBLE or DECIMAL), as in Spark
	IntDiv // DIV: integral division
	Mod    // %
	Eq
	NotEq
	Lt
	LtEq
	Gt
	GtEq
	NullSafeEq // <=>
	And
	Or
	Concat // ||
	BitAnd
	BitOr
	BitXor
)

// Binary applies Op to L and R. Both operands already have the types the
// operator works on (casts inserted); Type is the result type.
//
// Operand types, by operator:
//   - Add, Sub, Mul, Mod, BitAnd, BitOr, BitXor, Concat and the comparisons:
//     L and R have the same type, except DECIMAL arithmetic.
//   - DECIMAL arithmetic (Add, Sub, Mul, Div, Mod): L and R are DECIMALs
//     that may differ in precision and scale; the exact result is rounded
//     half up to Type (Spark's DecimalPrecision); a value that does not fit
//     Type is an error (ANSI). IntDiv of DECIMALs yields BIGINT.
//   - Div of non-DECIMALs: both DOUBLE. IntDiv of non-DECIMALs: both BIGINT.
//   - Date and time: TIMESTAMP or TIMESTAMP_NTZ L ± INTERVAL R is L's type;
//     Sub of two DATEs or of two timestamps of one type is an INTERVAL; an
//     INTERVAL L times or divided by a numeric R (of any numeric type) is
//     an INTERVAL. DATE ± days is a Call of date_add or date_sub, not a Binary.
//   - Concat: two STRING, two BINARY or two ARRAY values of one type.
//   - NullSafeEq (<=>) is never NULL.
type Binary struct {
	Op       BinaryOp
	L, R     Expr
	Type     types.Type
	Nullable bool
	Pos      int
	// Try makes an overflow or a zero divisor NULL instead of an error
	// (try_add, try_subtract, try_multiply, try_divide, try_mod).
	Try bool
}

// Cast converts X to Type with Spark's CAST rules (ANSI mode: an invalid
// cast is an error) or, when Try is set, try_cast's (an invalid cast is NULL).
type Cast struct {
	X        Expr
	Type     types.Type
	Try      bool
	Nullable bool
	Pos      int
}

// Call is a scalar function call. Func is the canonical lower-case name from
// the function table (LookupFunction); Args are already cast to the types
// the function works on. coalesce evaluates its arguments lazily, left to
// right, as Spark does (a later argument that would fail is not evaluated
// when an earlier one is not NULL).
type Call struct {
	Func     string
	Args     []Expr
	Type     types.Type
	Nullable bool
	Pos      int
}

// When is one WHEN cond THEN value arm of a Case.
type When struct {
	Cond, Then Expr
}

// Case is a searched CASE (a simple CASE x WHEN v ... is rewritten to
// searched form). Else is nil when absent (NULL).
type Case struct {
	Whens    []When
	Else     Expr
	Type     types.Type
	Nullable bool
}

// In is x [NOT] IN (list...). All items have X's type. With SQL's
// three-valued logic: NULL when no item matches and X or an item is NULL.
type In struct {
	X        Expr
	List     []Expr
	Not      bool
	Nullable bool
}

// Like is x [NOT] LIKE/ILIKE pattern [ESCAPE c].
type Like struct {
	X, Pattern      Expr
	Escape          rune // 0 means Spark's default '\\'
	Not             bool
	CaseInsensitive bool // ILIKE
	Nullable        bool
}

// IsNull is x IS [NOT] NULL.
type IsNull struct {
	X   Expr
	Not bool
}

// FieldRef reads field Index of the STRUCT value X (x.name).
type FieldRef struct {
	X        Expr
	Index    int
	Name     string
	Type     types.Type
	Nullable bool
}

// Subscript is x[i]: 0-based array element (Index is INT; out of bounds is
// an error in ANSI mode), or map lookup by key (Index has the key type;
// NULL when absent).
type Subscript struct {
	X, Index Expr
	Type     types.Type
	Pos      int
}

// LambdaVar reads a parameter of an enclosing Lambda. ID identifies the
// parameter within the query (Lambda.Params[i].ID); Name is the name it
// was written with. The higher-order function that calls the lambda binds
// it, e.g. to the current array element (Nullable when the array may hold
// NULL elements), its 0-based INT index, or an accumulator.
type LambdaVar struct {
	ID       int
	Name     string
	Type     types.Type
	Nullable bool
}

// Lambda is a lambda function, `x -> body` or `(acc, x) -> body`: an
// argument of a higher-order function call (transform, filter, exists,
// forall, aggregate, array_sort, ...; see the function table). Params are
// the parameters in order; the function decides what each is bound to and
// how often Body is evaluated (Spark's HigherOrderFunction semantics). Body
// reads them as LambdaVar nodes with the same IDs, and may read the input
// row's columns and the parameters of enclosing lambdas. The lambda's type
// and nullability are Body's.
type Lambda struct {
	Params []*LambdaVar
	Body   Expr
}

func (e *ColumnRef) ResultType() types.Type { return e.Type }
func (e *Literal) ResultType() types.Type   { return e.Type }
func (e *ParamRef) ResultType() types.Type  { return e.Type }
func (e *Unary) ResultType() types.Type     { return e.Type }
func (e *Binary) ResultType() types.Type    { return e.Type }
func (e *Cast) ResultType() types.Type      { return e.Type }
func (e *Call) ResultType() types.Type      { return e.Type }
func (e *Case) ResultType() types.Type      { return e.Type }
func (e *In) ResultType() types.Type        { return types.BooleanType }
func (e *Like) ResultType() types.Type      { return types.BooleanType }
func (e *IsNull) ResultType() types.Type    { return types.BooleanType }
func (e *FieldRef) ResultType() types.Type  { return e.Type }
func (e *Subscript) ResultType() types.Type { return e.Type }
func (e *LambdaVar) ResultType() types.Type { return e.Type }
func (e *Lambda) ResultType() types.Type    { return e.Body.ResultType() }

func (e *ColumnRef) IsNullable() bool { return e.Nullable }
func (e *Literal) IsNullable() bool   { return e.Value == nil }
func (e *ParamRef) IsNullable() bool  { return false }
func (e *Unary) IsNullable() bool     { return e.X.IsNullable() }
func (e *Binary) IsNullable() bool    { return e.Nullable }
func (e *Cast) IsNullable() bool      { return e.Nullable }
func (e *Call) IsNullable() bool      { return e.Nullable }
func (e *Case) IsNullable() bool      { return e.Nullable }
func (e *In) IsNullable() bool        { return e.Nullable }
func (e *Like) IsNullable() bool      { return e.Nullable }
func (e *IsNull) IsNullable() bool    { return false }
func (e *FieldRef) IsNullable() bool  { return e.Nullable }
func (e *Subscript) IsNullable() bool { return true }
func (e *LambdaVar) IsNullable() bool { return e.Nullable }
func (e *Lambda) IsNullable() bool    { return e.Body.IsNullable() }

func (*ColumnRef) exprNode() {}
func (*Literal) exprNode()   {}
func (*ParamRef) exprNode()  {}
func (*Unary) exprNode()     {}
func (*Binary) exprNode()    {}
func (*Cast) exprNode()      {}
func (*Call) exprNode()      {}
func (*Case) exprNode()      {}
func (*In) exprNode()        {}
func (*Like) exprNode()      {}
func (*IsNull) exprNode()    {}
func (*FieldRef) exprNode()  {}
func (*Subscript) exprNode() {}
func (*LambdaVar) exprNode() {}
func (*Lambda) exprNode()    {}
