package spec

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// This file type-checks the resolved graph in topological order with
// package sql and builds the checked model.

// sqlErrors reports SQL errors at their positions inside text; offsets are
// first reduced by shift. An error where an unknown parameter was already
// reported is dropped.
func (r *resolver) sqlErrors(text Str, shift int, errs []*sql.Error) {
	if len(errs) == 0 {
		return
	}
	for _, e := range errs {
		pos := text.PosAt(e.Offset - shift)
		if r.paramErrPos[pos] {
			continue
		}
		r.errorf(pos, e.Code, e.Hint, "%s", e.Message)
	}
}

// catalog resolves names for sql.Check: sources and checked datasets.
type catalog struct{ r *resolver }

func (c catalog) Relation(parts []string) *sql.Relation {
	rl := c.r.lookup(parts)
	if rl == nil || !rl.checked {
		return nil
	}
	out := &sql.Relation{Name: rl.name, Columns: sqlColumns(rl.columns)}
	if cols := c.r.streamColumns(rl); cols != nil {
		out.StreamColumns = sqlColumns(cols)
	}
	switch rl.kind {
	case relST:
		out.Kind = sql.StreamingTableRelation
	case relMV:
		out.Kind = sql.MaterializedViewRelation
	case relTV:
		out.Kind = sql.TemporaryViewRelation
		out.View = rl.ds.View
	}
	return out
}

// SessionTimeZone is the zone in which the checker reads zone-less
// TIMESTAMP literals: the pipeline's session_time_zone.
func (c catalog) SessionTimeZone() *time.Location {
	loc, err := time.LoadLocation(c.r.p.SessionTimeZone)
	if err != nil || c.r.p.SessionTimeZone == "" {
		return time.UTC
	}
	return loc
}

func (c catalog) Param(name string) (types.Type, bool) {
	p, ok := c.r.params[strings.ToLower(name)]
	if !ok {
		return types.Type{}, false
	}
	return p.Type.SQLType(), true
}

func sqlColumns(cs []Column) []sql.Column {
	out := make([]sql.Column, len(cs))
	for i, c := range cs {
		out[i] = c.SQL()
	}
	return out
}

func columnsOf(cs []sql.Column) []Column {
	out := make([]Column, 0, len(cs))
	for _, c := range cs {
		out = append(out, Column{Name: c.Name, Type: c.Type, Nullable: c.Nullable, Hidden: c.Hidden})
	}
	return out
}

// checkExpr parses and checks a boolean expression over columns; nil when
// it has errors (reported).
func (r *resolver) checkExpr(text Str, columns []Column, what string) sql.Expr {
	r.checkSQLParams(text)
	pe, errs := sql.ParseExpr(text.Value)
	r.sqlErrors(text, 0, errs)
	if pe == nil || len(errs) > 0 {
		return nil
	}
	e, errs := sql.CheckExpr(pe, sqlColumns(columns), catalog{r})
	r.sqlErrors(text, 0, errs)
	if len(errs) > 0 {
		return nil
	}
	if e == nil {
		r.errorf(text.Pos, "INTERNAL", "please report this", "the SQL checker returned neither an expression nor an error")
		return nil
	}
	if t := e.ResultType(); t.Kind != types.BooleanKind {
		r.errorf(text.Pos, "DATATYPE_MISMATCH", "write a condition such as amount > 0", "%s must be a BOOLEAN expression, got %s", what, t)
		return nil
	}
	r.uncompilable(text, what, sql.UncompilableExpr(e))
	return e
}

// checkGraph type-checks the pipeline checks, then every view and table in
// topological order. A relation whose input failed is marked downstream
// with a note, not checked.
func (r *resolver) checkGraph() {
	for _, c := range r.ast.Checks {
		e := r.checkExpr(c, nil, "check")
		r.p.Checks = append(r.p.Checks, &Check{Text: c.Value, Expr: e, Pos: c.Pos})
	}
	for _, rl := range r.topoOrder() {
		if rl.kind == relSource {
			rl.checked = !rl.failed
			continue
		}
		if rl.failed {
			continue
		}
		if up := upstreamFailure(rl); up != nil {
			rl.downstream = true
			r.notef(rl.pos, "", "fix the errors of "+up.name+" first", "%s %q is not checked because its input %q has errors", rl.kindName(), rl.name, up.name)
			continue
		}
		if rl.kind == relTV {
			r.checkView(rl)
		} else {
			r.checkTable(rl)
		}
	}
}

// upstreamFailure returns an input of rl that failed or was not checked.
func upstreamFailure(rl *rel) *rel {
	for _, f := range rl.reads() {
		if f.rel.failed || f.rel.downstream || !f.rel.checked {
			return f.rel
		}
	}
	return nil
}

// checkQuery runs sql.Check and reports its errors; the plan is nil when
// there are errors.
func (r *resolver) checkQuery(q *sql.Query, text Str) sql.Plan {
	plan, errs := sql.Check(q, catalog{r})
	r.sqlErrors(text, 0, errs)
	if len(errs) > 0 {
		return nil
	}
	if plan == nil {
		r.errorf(text.Pos, "INTERNAL", "please report this", "the SQL checker returned neither a plan nor an error")
	}
	return plan
}

func (r *resolver) checkView(rl *rel) {
	r.changeFeed = rl.dsDecl != nil && rl.dsDecl.ReadChangeFeed.Value
	plan := r.checkQuery(rl.query, rl.text)
	r.changeFeed = false
	if plan == nil {
		rl.failed = true
		return
	}
	rl.ds.View = plan
	r.uncompilable(rl.text, "view "+rl.name, sql.Uncompilable(plan, nil))
	rl.columns = columnsOf(plan.Output())
	rl.ds.Columns = rl.columns
	rl.checked = true
}

// checkTable checks a table's flows, derives its schema and checks its
// declared schema, expectations and partitioning.
func (r *resolver) checkTable(rl *rel) {
	d := rl.dsDecl
	var merged []Column
	for _, fn := range rl.flows {
		fn.flow = &Flow{Name: fn.name, Pos: fn.pos, Target: rl.ds, Default: fn.isDflt, Comment: fn.comment, SQL: fn.text.Value, text: fn.text}
		var out []Column
		if fn.cdc != nil {
			out = r.checkCDC(fn)
		} else {
			r.changeFeed = fn.readsChangeFeed()
			r.watermark = r.resolveWatermark(fn)
			var plan sql.Plan
			if r.watermark != nil || fn.watermarkDecl() == nil || rl.kind != relST {
				plan = r.checkQuery(fn.query, fn.text)
			}
			r.changeFeed, r.watermark = false, nil
			if plan != nil {
				fn.flow.Plan = plan
				r.checkStateful(rl, fn, plan)
				r.uncompilable(fn.text, "flow "+fn.name, sql.Uncompilable(plan, fn.flow.Stateful))
				for _, c := range columnsOf(plan.Output()) {
					if !c.Hidden {
						out = append(out, c)
					}
				}
			} else {
				fn.failed = true
			}
		}
		if !fn.failed {
			r.storableColumns(rl, fn, out)
		}
		if fn.failed {
			rl.failed = true
			continue
		}
		merged = r.mergeFlowColumns(rl, fn, merged, out)
	}
	if rl.failed {
		return
	}
	cols := merged
	if d.Schema.Set() {
		cols = r.compareDeclared(rl, merged)
		rl.ds.Declared = true
	}
	rl.columns, rl.ds.Columns = cols, cols
	rl.checked = !rl.failed
	r.expectations(rl)
	r.partitionBy(rl)
}

// storableColumns rejects a flow whose output has a column a Delta table
// cannot hold: the protocol has no interval type, and Spark refuses to
// write one to Parquet (UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE).
func (r *resolver) storableColumns(rl *rel, fn *flowNode, out []Column) {
	for _, c := range out {
		if !hasInterval(c.Type) {
			continue
		}
		hint := "cast it to STRING, or store a number, e.g. unix_micros(b) - unix_micros(a) for the microseconds between two timestamps"
		if c.Type.Kind == types.YearMonthIntervalKind {
			hint = "cast it to STRING (CAST(x AS STRING) is INTERVAL '1-2' YEAR TO MONTH), or store its months: extract(YEAR FROM x) * 12 + extract(MONTH FROM x)"
		}
		at := fn.text.Pos
		if !fn.text.Set() { // an AUTO CDC flow has no query: point at its source
			at = fn.pos
			if fn.cdc != nil && fn.cdc.Source.Set() {
				at = fn.cdc.Source.Pos
			}
		}
		r.errorf(at, "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE", hint,
			"column %q of %q is of type %s, which a Delta table cannot store", c.Name, rl.name, c.Type)
		fn.failed = true
	}
}

// hasInterval reports whether t is or holds an interval.
func hasInterval(t types.Type) bool {
	if t.IsInterval() {
		return true
	}
	switch t.Kind {
	case types.ArrayKind:
		return hasInterval(*t.Elem)
	case types.MapKind:
		return hasInterval(*t.Key) || hasInterval(*t.Value)
	case types.StructKind:
		for _, f := range t.Fields {
			if hasInterval(f.Type) {
				return true
			}
		}
	}
	return false
}

// mergeFlowColumns adds one flow's output to the table's schema: columns by
// name in order of first appearance; a column some flows do not write is
// nullable.
func (r *resolver) mergeFlowColumns(rl *rel, fn *flowNode, merged, out []Column) []Column {
	if len(rl.flows) == 1 || merged == nil {
		return out
	}
	seen := map[int]bool{}
	for _, c := range out {
		i := indexOfColumn(merged, c.Name)
		if i < 0 {
			c.Nullable = true
			merged = append(merged, c)
			seen[len(merged)-1] = true
			continue
		}
		seen[i] = true
		if !merged[i].Type.EqualIgnoringNullability(c.Type) {
			r.errorf(fn.text.Pos, "INCOMPATIBLE_DATA_FOR_TABLE", "cast it to "+merged[i].Type.String(),
				"flow %q writes column %q of %q as %s, but another flow writes it as %s", fn.name, c.Name, rl.name, c.Type, merged[i].Type)
			fn.failed, rl.failed = true, true
		}
		merged[i].Nullable = merged[i].Nullable || c.Nullable
	}
	for i := range merged {
		if !seen[i] {
			merged[i].Nullable = true
		}
	}
	return merged
}

func indexOfColumn(cs []Column, name string) int {
	for i, c := range cs {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

func columnNames(cs []Column) []string {
	var out []string
	for _, c := range cs {
		if !c.Hidden {
			out = append(out, c.Name)
		}
	}
	return out
}

// compareDeclared checks that the flows produce the declared schema
// (sdp-graph case 18) and returns the declared columns.
func (r *resolver) compareDeclared(rl *rel, inferred []Column) []Column {
	const code = "USER_SPECIFIED_AND_INFERRED_SCHEMA_NOT_COMPATIBLE"
	text := rl.dsDecl.Schema
	var cols []Column
	for _, f := range rl.declared {
		cols = append(cols, Column{Name: f.Name, Type: f.Type, Nullable: f.Nullable, Comment: f.Comment})
		i := indexOfColumn(inferred, f.Name)
		pos := text.PosAt(wordIndex(text.Value, f.Name))
		switch {
		case i < 0:
			hint := didYouMean(f.Name, columnNames(inferred))
			if hint == "" {
				hint = "the query produces " + strings.Join(columnNames(inferred), ", ")
			}
			r.errorf(pos, code, hint, "declared column %q of %q is not produced by its query", f.Name, rl.name)
			rl.failed = true
		case !inferred[i].Type.EqualIgnoringNullability(f.Type):
			r.errorf(pos, code, "cast the column in the query, or declare "+inferred[i].Type.String(),
				"column %q of %q is declared %s, but its query produces %s", f.Name, rl.name, f.Type, inferred[i].Type)
			rl.failed = true
		}
	}
	for _, c := range inferred {
		if rl.declared.Index(c.Name) < 0 {
			r.errorf(text.Pos, code, "declare it, or leave it out of the query",
				"the query of %q produces column %q, which its declared schema lacks", rl.name, c.Name)
			rl.failed = true
		}
	}
	return cols
}

// wordIndex returns the byte offset of the first whole-word,
// case-insensitive occurrence of word in s, or 0.
func wordIndex(s, word string) int {
	re, err := regexp.Compile(`(?i)(^|[^A-Za-z0-9_` + "`" + `])` + "`?" + regexp.QuoteMeta(word) + "`?" + `($|[^A-Za-z0-9_])`)
	if err != nil {
		return 0
	}
	m := re.FindStringSubmatchIndex(s)
	if m == nil {
		return 0
	}
	return m[3]
}

// expectations checks a table's expectations over its columns.
func (r *resolver) expectations(rl *rel) {
	seen := map[string]Pos{}
	for _, ed := range rl.dsDecl.Expectations {
		if p, ok := seen[strings.ToLower(ed.Name.Value)]; ok {
			r.errorf(ed.Name.Pos, "", "rename one of them", "expectation %q of %q is already defined at %s", ed.Name.Value, rl.name, p)
			continue
		}
		seen[strings.ToLower(ed.Name.Value)] = ed.Name.Pos
		e := &Expectation{Name: ed.Name.Value, Text: ed.Expr.Value, Pos: ed.Pos}
		switch ed.OnViolation.Value {
		case "drop":
			e.Action = Drop
		case "fail":
			e.Action = Fail
		}
		if !rl.checked {
			continue
		}
		e.Expr = r.checkExpr(ed.Expr, rl.columns, "expectation \""+ed.Name.Value+"\"")
		rl.ds.Expectations = append(rl.ds.Expectations, e)
	}
}

// partitionBy resolves a table's partition columns.
func (r *resolver) partitionBy(rl *rel) {
	for _, s := range rl.dsDecl.PartitionBy.Items {
		i := indexOfColumn(rl.columns, s.Value)
		switch {
		case i < 0:
			r.errorf(s.Pos, "UNRESOLVED_COLUMN", didYouMean(s.Value, columnNames(rl.columns)), "partition column %q is not a column of %q", s.Value, rl.name)
		case !partitionable(rl.columns[i].Type):
			r.errorf(s.Pos, "", "partition by a column of type BOOLEAN, an integer, FLOAT, DOUBLE, DECIMAL, STRING, DATE, TIMESTAMP or TIMESTAMP_NTZ",
				"partition column %q of %q has type %s, which cannot be a partition value", s.Value, rl.name, rl.columns[i].Type)
		case slices.Contains(rl.ds.PartitionBy, i):
			r.errorf(s.Pos, "", "name each partition column once", "partition column %q of %q is listed twice", s.Value, rl.name)
		default:
			rl.ds.PartitionBy = append(rl.ds.PartitionBy, i)
		}
	}
	if n := len(rl.dsDecl.PartitionBy.Items); n > 0 && n == len(rl.columns) && len(rl.ds.PartitionBy) == n {
		// Spark: "Cannot use all columns for partition columns".
		r.errorf(rl.dsDecl.PartitionBy.Pos, "", "leave at least one column out of partition_by: its values are what the data files hold",
			"every column of %q is a partition column", rl.name)
	}
}

// partitionable reports whether a column of type t can be a partition
// column: its values have a Delta partition value serialization that
// pipegen writes (runtime/parquetio.FormatPartitionValue).
func partitionable(t types.Type) bool {
	switch t.Kind {
	case types.BooleanKind, types.ByteKind, types.ShortKind, types.IntKind, types.LongKind, types.FloatKind, types.DoubleKind,
		types.DecimalKind, types.StringKind, types.DateKind, types.TimestampKind, types.TimestampNTZKind:
		return true
	}
	return false
}

// checkCDC resolves an AUTO CDC flow against its change feed's columns and
// returns the columns it writes.
func (r *resolver) checkCDC(fn *flowNode) []Column {
	a := fn.cdc
	if len(fn.refs) == 0 {
		fn.failed = true
		return nil
	}
	src := fn.refs[0].rel
	if src.kind == relTV {
		r.errorf(a.Source.Pos, "", "read the source or streaming table the view reads", "auto_cdc source %q is a temporary view", src.name)
		fn.failed = true
		return nil
	}
	var srcCols []Column
	for _, c := range src.columns {
		if !c.Hidden {
			srcCols = append(srcCols, c)
		}
	}
	cdc := &AutoCDC{SourceColumns: srcCols, IgnoreNullUpdates: a.IgnoreNullUpdates.Value, SCDType: 1}
	cdc.Source = Input{Name: src.name, Streaming: true, Source: src.src, Dataset: src.ds}
	fn.flow.AutoCDC = cdc
	names := columnNames(srcCols)
	resolve := func(l StrList, what string) []int {
		var out []int
		for _, s := range l.Items {
			i := indexOfColumn(srcCols, s.Value)
			if i < 0 {
				r.errorf(s.Pos, "UNRESOLVED_COLUMN", didYouMean(s.Value, names), "%s column %q is not a column of %q", what, s.Value, src.name)
				fn.failed = true
				continue
			}
			out = append(out, i)
		}
		return out
	}
	cdc.Keys = resolve(a.Keys, "key")
	cdc.SequenceBy = resolve(a.SequenceBy, "sequence_by")
	r.unsequenceable(fn, srcCols)
	if !fn.failed {
		if len(cdc.SequenceBy) == 1 && a.SequenceBy.Scalar {
			cdc.SequenceType = srcCols[cdc.SequenceBy[0]].Type
		} else {
			var fs []types.Field
			for _, i := range cdc.SequenceBy {
				fs = append(fs, types.Field{Name: srcCols[i].Name, Type: srcCols[i].Type, Nullable: srcCols[i].Nullable})
			}
			cdc.SequenceType = types.StructOf(fs...)
		}
	}
	if a.SCDType.Set() {
		cdc.SCDType = int(a.SCDType.Value)
	}
	switch {
	case a.Columns.Set() && a.ExceptColumns.Set():
		r.errorf(a.ExceptColumns.Pos, "", "keep one of them", "auto_cdc flow %q has both columns and except_columns", fn.name)
		fn.failed = true
	case a.Columns.Set():
		cdc.Columns = resolve(a.Columns, "columns")
	default:
		except := map[int]bool{}
		for _, i := range resolve(a.ExceptColumns, "except_columns") {
			except[i] = true
		}
		for i := range srcCols {
			if !except[i] {
				cdc.Columns = append(cdc.Columns, i)
			}
		}
	}
	written := map[int]bool{}
	for _, i := range cdc.Columns {
		written[i] = true
	}
	for k, i := range cdc.Keys {
		if !written[i] && !fn.failed {
			r.errorf(a.Keys.Items[k].Pos, "", "keep the key columns in the target", "key column %q is not written to %q", srcCols[i].Name, fn.target.name)
			fn.failed = true
		}
	}
	if a.ApplyAsDeletes.Set() {
		cdc.ApplyAsDeletes = r.checkExpr(a.ApplyAsDeletes, srcCols, "apply_as_deletes")
		fn.failed = fn.failed || cdc.ApplyAsDeletes == nil
	}
	if a.ApplyAsTruncates.Set() {
		if cdc.SCDType == 2 {
			r.errorf(a.ApplyAsTruncates.Pos, "", "remove it, or use scd_type: 1", "apply_as_truncates is only supported with scd_type 1")
			fn.failed = true
		} else {
			cdc.ApplyAsTruncates = r.checkExpr(a.ApplyAsTruncates, srcCols, "apply_as_truncates")
			fn.failed = fn.failed || cdc.ApplyAsTruncates == nil
		}
	}
	for _, l := range []StrList{a.TrackHistoryColumns, a.TrackHistoryExceptColumns} {
		if l.Set() && cdc.SCDType != 2 {
			r.errorf(l.Pos, "", "remove it, or use scd_type: 2", "history tracking columns are only meaningful with scd_type 2")
			fn.failed = true
		}
	}
	switch {
	case a.TrackHistoryColumns.Set() && a.TrackHistoryExceptColumns.Set():
		r.errorf(a.TrackHistoryExceptColumns.Pos, "", "keep one of them", "auto_cdc flow %q has both track_history_columns and track_history_except_columns", fn.name)
		fn.failed = true
	case a.TrackHistoryColumns.Set():
		cdc.TrackHistory = resolve(a.TrackHistoryColumns, "track_history_columns")
	case a.TrackHistoryExceptColumns.Set():
		except := map[int]bool{}
		for _, i := range resolve(a.TrackHistoryExceptColumns, "track_history_except_columns") {
			except[i] = true
		}
		cdc.TrackHistory = []int{}
		for _, i := range cdc.Columns {
			if !except[i] {
				cdc.TrackHistory = append(cdc.TrackHistory, i)
			}
		}
	}
	if fn.failed {
		return nil
	}
	var out []Column
	for _, i := range cdc.Columns {
		out = append(out, srcCols[i])
	}
	if cdc.SCDType == 2 {
		out = append(out,
			Column{Name: "__START_AT", Type: cdc.SequenceType, Nullable: true},
			Column{Name: "__END_AT", Type: cdc.SequenceType, Nullable: true})
	}
	return out
}

// buildModel fills the pipeline in update order and chooses Go names.
func (r *resolver) buildModel() {
	relNames := newGoNamer()
	order := r.topoOrder()
	for _, rl := range r.relOrder {
		if rl.src != nil {
			rl.src.GoName = relNames.name(rl.name)
			rl.src.Columns = namedColumns(rl.src.Columns)
			r.p.Sources = append(r.p.Sources, rl.src)
		}
	}
	flowNames := newGoNamer()
	for _, rl := range order {
		ds := rl.ds
		if ds == nil {
			continue
		}
		ds.GoName = relNames.name(rl.name)
		ds.Columns = namedColumns(ds.Columns)
		if rl.kind == relTV {
			ds.Reads = directReads(rl.refs)
			r.p.Views = append(r.p.Views, ds)
			continue
		}
		r.p.Tables = append(r.p.Tables, ds)
		for _, fn := range rl.flows {
			f := fn.flow
			f.GoName = flowNames.name(fn.name)
			switch {
			case fn.cdc != nil:
				f.Kind = AutoCDCFlow
				f.SQL = ""
				f.AutoCDC.SourceColumns = namedColumns(f.AutoCDC.SourceColumns)
			case rl.kind == relMV:
				f.Kind = CompleteFlow
			case fn.once:
				f.Kind = OnceFlow
			default:
				f.Kind = AppendFlow
			}
			f.Inputs = r.inputs(fn.refs)
			f.Reads = directReads(fn.refs)
			f.Refresh = refreshPlan(f)
			ds.Flows = append(ds.Flows, f)
			r.p.Flows = append(r.p.Flows, f)
		}
	}
	params := newGoNamer()
	for _, p := range r.p.Parameters {
		p.GoName = params.name(p.Name)
	}
}

// namedColumns gives columns unique Go names.
func namedColumns(cs []Column) []Column {
	n := newGoNamer()
	out := make([]Column, len(cs))
	for i, c := range cs {
		c.GoName = n.name(c.Name)
		out[i] = c
	}
	return out
}

// directReads lists the relations refs name, without duplicates.
func directReads(refs []ref) []Input {
	var out []Input
	seen := map[string]bool{}
	for _, f := range refs {
		key := strings.ToLower(f.rel.name)
		if f.Streaming {
			key += "\x00s"
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, Input{Name: f.rel.name, Streaming: f.Streaming, ChangeFeed: f.changeFeed, Source: f.rel.src, Dataset: f.rel.ds})
		}
	}
	return out
}

// inputs lists the sources and tables refs read, looking through
// temporary views, without duplicates.
func (r *resolver) inputs(refs []ref) []Input {
	var out []Input
	seen := map[string]bool{}
	var walk func(refs []ref, depth int)
	walk = func(refs []ref, depth int) {
		for _, f := range refs {
			if f.rel.kind == relTV {
				if depth < maxDepth {
					walk(f.rel.refs, depth+1)
				}
				continue
			}
			key := strings.ToLower(f.rel.name)
			if f.Streaming {
				key += "\x00s"
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, Input{Name: f.rel.name, Streaming: f.Streaming, ChangeFeed: f.changeFeed, Source: f.rel.src, Dataset: f.rel.ds})
		}
	}
	walk(refs, 0)
	return out
}
