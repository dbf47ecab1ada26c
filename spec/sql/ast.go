package sql

import "github.com/pipegen/pipegen/runtime/types"

// This file is the syntax tree the parser builds and the checker reads. It
// mirrors what was written (names unresolved, no types except those of
// literals and CAST targets); positions are byte offsets into the text.

// queryStmt is a full query: WITH clauses, a body (a SELECT, VALUES, a set
// operation or a parenthesised query), and ORDER BY / LIMIT / OFFSET over it.
type queryStmt struct {
	pos     int
	with    []*cte
	body    queryBody
	orderBy []*orderItem
	limit   astExpr // nil when absent
	offset  astExpr // nil when absent
}

// cte is one WITH name [(columns)] AS (query).
type cte struct {
	name    ident
	columns []ident
	query   *queryStmt
}

// ident is one identifier as written; name is unquoted.
type ident struct {
	name     string
	pos, end int
}

// queryBody is a *selectStmt, *valuesStmt, *setOpStmt or *queryStmt (in
// parentheses).
type queryBody interface{ bodyPos() int }

// setOpKind is UNION, INTERSECT or EXCEPT.
type setOpKind uint8

const (
	setUnion setOpKind = iota
	setIntersect
	setExcept
)

var setOpNames = [...]string{setUnion: "UNION", setIntersect: "INTERSECT", setExcept: "EXCEPT"}

// setOpStmt is l UNION|INTERSECT|EXCEPT [ALL|DISTINCT] r.
type setOpStmt struct {
	pos  int // of the operator keyword
	op   setOpKind
	all  bool
	l, r queryBody
}

// valuesStmt is VALUES (row), (row), ...; a row without parentheses is a
// single column.
type valuesStmt struct {
	pos  int
	rows [][]astExpr
	ends []int // offset just past each row, for error positions
}

// selectStmt is SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ... QUALIFY ....
type selectStmt struct {
	pos      int
	distinct bool
	items    []*selectItem
	from     []fromItem // comma-separated; nil without FROM
	where    astExpr
	groupBy  *groupBy
	having   astExpr
	qualify  astExpr
	// lateral are the LATERAL VIEWs after FROM, in order.
	lateral []*lateralView
}

// lateralView is LATERAL VIEW [OUTER] generator(args) table [AS] col, ...
type lateralView struct {
	pos     int // of LATERAL
	end     int
	outer   bool
	call    *callExpr
	table   ident
	columns []ident
}

// selectItem is one entry of a SELECT list: an expression with an optional
// alias, or a star (expr is a *starExpr).
type selectItem struct {
	expr  astExpr
	alias *ident
	// aliases are the names of AS (a, b), a generator's columns.
	aliases []ident
	end     int // offset just past the item
}

// groupBy is a GROUP BY clause: plain expressions, or grouping sets.
type groupBy struct {
	pos   int
	all   bool      // GROUP BY ALL
	exprs []astExpr // every distinct expression mentioned
	// sets, when not nil, lists the grouping sets as indexes into exprs
	// (GROUPING SETS, ROLLUP, CUBE).
	sets [][]int
}

// orderItem is one ORDER BY entry.
type orderItem struct {
	expr       astExpr
	desc       bool
	nullsFirst *bool // nil: the default for the direction
}

// fromItem is a *tableRef, *subqueryRef or *joinRef.
type fromItem interface{ fromPos() int }

// tableRef is a named relation in FROM: name, STREAM(name) or STREAM name,
// with an optional alias and column aliases.
type tableRef struct {
	parts     []string
	pos, end  int
	streaming bool
	alias     *ident
	columns   []ident
	// watermark is the WATERMARK clause after the name, or nil.
	watermark *watermarkClause
}

// subqueryRef is (query) [AS] alias [(columns)] in FROM, or an inline
// VALUES table.
type subqueryRef struct {
	pos     int
	query   *queryStmt
	alias   *ident
	columns []ident
}

// joinRef is l [kind] JOIN r [ON cond | USING (cols)], or NATURAL JOIN.
type joinRef struct {
	pos     int // of the JOIN keyword (or the first keyword of the join type)
	kind    JoinKind
	natural bool
	l, r    fromItem
	on      astExpr
	using   []ident
	// explicitCross is set for CROSS JOIN and comma joins.
	explicitCross bool
}

func (q *queryStmt) bodyPos() int  { return q.pos }
func (s *setOpStmt) bodyPos() int  { return s.pos }
func (v *valuesStmt) bodyPos() int { return v.pos }
func (s *selectStmt) bodyPos() int { return s.pos }

func (t *tableRef) fromPos() int    { return t.pos }
func (s *subqueryRef) fromPos() int { return s.pos }
func (j *joinRef) fromPos() int     { return j.pos }

// astExpr is an expression as written. span returns its start and end
// offsets.
type astExpr interface{ span() (int, int) }

// nameExpr is an identifier chain: a column, table.column, or a column
// followed by struct fields (a.b.c); resolution decides which.
type nameExpr struct {
	parts []ident
}

// starExpr is *, t.*, or * EXCEPT (a, b) in a SELECT list or count(*).
type starExpr struct {
	qual     []ident
	except   [][]ident
	pos, end int
}

// litExpr is a literal: its type and Go value are settled by the parser.
type litExpr struct {
	typ  types.Type
	val  any // nil for NULL
	text string
	// str is the decoded string of a typed literal (TIMESTAMP '...'):
	// its escapes already read, unlike text.
	str string
	// timeOfDay marks TIME 'hh:mm:ss[.ffffff]' (val: the microseconds of
	// the day, an int64): pipegen has no TIME type, so it is accepted only
	// where make_timestamp(date, time) takes it (makeTimestampOfDateTime).
	timeOfDay bool
	pos, end  int
}

// strExpr is a string literal with `${name}` parameters in it (adjacent
// literals already joined).
type strExpr struct {
	parts    []strPart
	pos, end int
}

// paramExpr is ${name} used as a value.
type paramExpr struct {
	name     string
	pos, end int
}

// unaryExpr is -x, +x, ~x or NOT x.
type unaryExpr struct {
	op  string // "-", "+", "~", "NOT"
	x   astExpr
	pos int
}

// binaryExpr is l op r for arithmetic, comparison, logic and ||.
type binaryExpr struct {
	op    string // upper-case keyword or operator as in Spark: "+", "=", "AND", "DIV", ...
	l, r  astExpr
	opPos int
}

// isExpr is x IS [NOT] NULL|TRUE|FALSE|UNKNOWN, or x IS [NOT] DISTINCT FROM y.
type isExpr struct {
	x    astExpr
	not  bool
	what string // "NULL", "TRUE", "FALSE", "UNKNOWN", "DISTINCT"
	y    astExpr
	end  int
}

// inExpr is x [NOT] IN (list) or x [NOT] IN (subquery).
type inExpr struct {
	x     astExpr
	not   bool
	list  []astExpr
	query *queryStmt
	pos   int // of IN
	end   int
}

// betweenExpr is x [NOT] BETWEEN lo AND hi.
type betweenExpr struct {
	x, lo, hi astExpr
	not       bool
	pos       int // of BETWEEN
}

// likeExpr is x [NOT] LIKE|ILIKE|RLIKE pattern [ESCAPE 'c'].
type likeExpr struct {
	x, pattern astExpr
	not        bool
	op         string // "LIKE", "ILIKE", "RLIKE"
	escape     *litExpr
	pos        int
	// quantifier is "ANY" (SOME is ANY) or "ALL" for x LIKE ANY|ALL
	// (p1, p2, ...), whose patterns are in patterns (pattern is nil);
	// "" for a single pattern.
	quantifier string
	patterns   []astExpr
	end        int // just past the pattern list's ')'; 0 without one
}

// caseExpr is CASE [operand] WHEN ... THEN ... [ELSE ...] END.
type caseExpr struct {
	operand  astExpr
	whens    []whenArm
	els      astExpr
	pos, end int
}

type whenArm struct{ cond, then astExpr }

// castExpr is CAST(x AS type), TRY_CAST(x AS type) or x::type.
type castExpr struct {
	x        astExpr
	to       types.Type
	try      bool
	colon    bool // written x::type
	pos, end int
}

// callExpr is a function call, possibly with DISTINCT, FILTER and OVER.
type callExpr struct {
	name ident // lower-cased name
	args []astExpr
	// argNames are the names given to struct's arguments with AS
	// (struct(a AS x, b)), "" where none is given; nil when none is.
	argNames []string
	// withinGroup marks percentile_cont(p) WITHIN GROUP (ORDER BY x),
	// whose args the parser makes (x, p).
	withinGroup bool
	// withinDesc marks mode() WITHIN GROUP (ORDER BY x DESC), whose args
	// the parser makes (x, TRUE): ties go to the largest value.
	withinDesc bool
	star       bool // f(*)
	// bare marks CURRENT_DATE / CURRENT_TIMESTAMP written without
	// parentheses: a column of that name in scope wins, as in Spark.
	bare     bool
	distinct bool
	filter   astExpr
	over     *windowSpec
	end      int
}

// windowSpec is an OVER clause.
type windowSpec struct {
	pos         int
	name        string // OVER w when no WINDOW clause defined w (the parser fills in the others)
	partitionBy []astExpr
	orderBy     []*orderItem
	frame       *frameSpec // nil: the default frame
}

// frameSpec is ROWS|RANGE BETWEEN start AND end.
type frameSpec struct {
	rows       bool
	start, end frameBound
	pos, end2  int // of ROWS or RANGE, and just past the frame
}

// boundKind is the kind of a frame bound.
type boundKind uint8

const (
	boundUnboundedPreceding boundKind = iota
	boundPreceding
	boundCurrentRow
	boundFollowing
	boundUnboundedFollowing
)

// frameBound is one bound of a frame; offset is set for n PRECEDING and
// n FOLLOWING.
type frameBound struct {
	kind   boundKind
	offset astExpr
	pos    int
}

// fieldExpr is x.name where x is not a plain name (e.g. f(a).b or a[0].b).
type fieldExpr struct {
	x    astExpr
	name ident
}

// subscriptExpr is x[index].
type subscriptExpr struct {
	x, index astExpr
	end      int
}

// lambdaExpr is x -> body or (x, y) -> body.
type lambdaExpr struct {
	params []ident
	body   astExpr
	pos    int
}

// jsonPathExpr is x:path, Databricks' extraction from a JSON string; path
// is in get_json_object's syntax ($.a['b'][0]), where a dotted name
// matches case-insensitively. last is the last field name, the column's
// name.
type jsonPathExpr struct {
	x        astExpr
	path     string
	last     string
	colonPos int
	end      int
}

// subqueryExpr is (query) used as a value, or EXISTS (query).
type subqueryExpr struct {
	query    *queryStmt
	exists   bool
	pos, end int
}

// badExpr stands for an expression that did not parse (the error is
// already reported).
type badExpr struct{ pos, end int }

func (e *nameExpr) span() (int, int)    { return e.parts[0].pos, e.parts[len(e.parts)-1].end }
func (e *starExpr) span() (int, int)    { return e.pos, e.end }
func (e *litExpr) span() (int, int)     { return e.pos, e.end }
func (e *strExpr) span() (int, int)     { return e.pos, e.end }
func (e *paramExpr) span() (int, int)   { return e.pos, e.end }
func (e *unaryExpr) span() (int, int)   { _, end := e.x.span(); return e.pos, end }
func (e *binaryExpr) span() (int, int)  { return spanOf(e.l, e.r) }
func (e *isExpr) span() (int, int)      { s, _ := e.x.span(); return s, e.end }
func (e *inExpr) span() (int, int)      { s, _ := e.x.span(); return s, e.end }
func (e *betweenExpr) span() (int, int) { return spanOf(e.x, e.hi) }
func (e *likeExpr) span() (int, int) {
	if e.pattern == nil {
		s, _ := e.x.span()
		return s, e.end
	}
	return spanOf(e.x, e.pattern)
}
func (e *caseExpr) span() (int, int)      { return e.pos, e.end }
func (e *castExpr) span() (int, int)      { return e.pos, e.end }
func (e *callExpr) span() (int, int)      { return e.name.pos, e.end }
func (e *fieldExpr) span() (int, int)     { s, _ := e.x.span(); return s, e.name.end }
func (e *subscriptExpr) span() (int, int) { s, _ := e.x.span(); return s, e.end }
func (e *lambdaExpr) span() (int, int)    { _, end := e.body.span(); return e.pos, end }
func (e *subqueryExpr) span() (int, int)  { return e.pos, e.end }
func (e *jsonPathExpr) span() (int, int)  { s, _ := e.x.span(); return s, e.end }
func (e *badExpr) span() (int, int)       { return e.pos, e.end }

func spanOf(first, last astExpr) (int, int) {
	s, _ := first.span()
	_, e := last.span()
	return s, e
}
