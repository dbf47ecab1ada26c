package sql

import (
	"fmt"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds event-time watermarks (Databricks SQL's WATERMARK
// clause, Structured Streaming's withWatermark) and the analysis of the
// stateful operator of a streaming query that has one.
//
//	FROM STREAM(events) WATERMARK event_ts DELAY OF INTERVAL 15 MINUTES AS e
//
// The watermark of a micro-batch is max(event time seen in earlier
// micro-batches) minus the delay; rows at or below it are late. A
// streaming table may then keep state across micro-batches, bounded by
// the watermark (append output mode):
//
//   - a window aggregation: GROUP BY window(ts, '10 minutes'[, slide]) (or
//     GROUP BY ts itself), other keys beside; a group's row is written
//     once, final, when the watermark passes the window's end;
//   - a deduplication: SELECT DISTINCT over columns that include ts (or a
//     window of it), Spark's dropDuplicates with the event time in the key;
//   - a deduplication by key within the watermark:
//     QUALIFY row_number() OVER (PARTITION BY key ORDER BY ts) = 1,
//     Spark's dropDuplicatesWithinWatermark (no SQL form in Spark).

// Watermark is the event-time watermark of a streamed relation.
type Watermark struct {
	// Column is the index of the event-time column (TIMESTAMP) in the
	// Scan's Columns; Name is its name.
	Column int
	Name   string
	// Delay is how late a row may be, in microseconds (> 0).
	Delay int64
}

// WatermarkCatalog is implemented by a Catalog that declares watermarks
// outside the SQL text (the spec's `watermark:` key).
type WatermarkCatalog interface {
	// StreamWatermark returns the watermark of STREAM(name) read without
	// a WATERMARK clause: the event-time column's name and the delay in
	// microseconds; ok is false when there is none.
	StreamWatermark(name string) (column string, delay int64, ok bool)
}

// watermarkClause is `WATERMARK column [AS name] DELAY OF interval` after
// a relation in FROM, before its alias.
type watermarkClause struct {
	pos, end int
	column   astExpr
	name     *ident
	delay    astExpr
}

// watermarkAhead reports whether a WATERMARK clause starts at the cursor:
// the word WATERMARK followed by an expression (an alias named watermark
// is followed by a keyword, a comma or the end).
func (p *parser) watermarkAhead() bool {
	t, next := p.peek(), p.peekAt(1)
	return t.is("WATERMARK") && (next.kind == tQuoted || next.kind == tWord && !notAlias[upper(next)])
}

// parseWatermark parses a WATERMARK clause (the cursor is on WATERMARK).
func (p *parser) parseWatermark() *watermarkClause {
	kw := p.advance()
	wm := &watermarkClause{pos: kw.pos}
	wm.column = p.parseExpr()
	if p.accept("AS") {
		id := p.ident("a column name")
		wm.name = &id
	}
	p.expect("DELAY")
	p.expect("OF")
	wm.delay = p.parseExpr()
	_, wm.end = wm.delay.span()
	return wm
}

// applyWatermark sets the watermark of p, the plan of the FROM item t
// reading rel: the item's WATERMARK clause, or the catalog's watermark of
// a stream read without one. It reports misuse and returns false.
func (c *checker) applyWatermark(t *tableRef, rel *Relation, p Plan) bool {
	scan, _ := p.(*Scan)
	wm := t.watermark
	if wm == nil {
		if scan == nil || !scan.Streaming {
			return true
		}
		if wc, ok := c.cat.(WatermarkCatalog); ok {
			if name, delay, ok := wc.StreamWatermark(rel.Name); ok {
				if i := columnNamed(scan.Columns, name); i >= 0 {
					scan.Watermark = &Watermark{Column: i, Name: scan.Columns[i].Name, Delay: delay}
				}
			}
		}
		return true
	}
	switch {
	case scan == nil:
		c.errorf(wm.pos, wm.end, "UNSUPPORTED_FEATURE", "put the WATERMARK clause on STREAM(source) inside the view's query",
			"a WATERMARK clause on temporary view %q is not supported", rel.Name)
		return false
	case !scan.Streaming:
		c.errorf(wm.pos, wm.end, "UNSUPPORTED_FEATURE", fmt.Sprintf("read the stream: FROM STREAM(%s) WATERMARK ...", rel.Name),
			"a watermark applies to a stream, but %s is read as a snapshot", rel.Name)
		return false
	}
	name, ok := wm.column.(*nameExpr)
	if !ok || len(name.parts) != 1 || wm.name != nil {
		s, _ := wm.column.span()
		e := wm.end
		if wm.name != nil {
			e = wm.name.end
		}
		c.errorf(s, e, "UNSUPPORTED_FEATURE",
			fmt.Sprintf("compute the event time as a column of a streaming table upstream (SELECT *, to_timestamp(...) AS event_ts FROM STREAM(%s)) and stream that table WATERMARK event_ts DELAY OF ...", rel.Name),
			"the watermark must be a column of %s; expressions are not supported yet", rel.Name)
		return false
	}
	col := name.parts[0]
	i := columnNamed(scan.Columns, col.name)
	if i < 0 || scan.Columns[i].Hidden {
		var names []string
		for _, sc := range scan.Columns {
			if !sc.Hidden {
				names = append(names, sc.Name)
			}
		}
		hint := "available columns: " + strings.Join(names, ", ")
		if s := suggest(col.name, names); s != "" {
			hint = fmt.Sprintf("did you mean %q?", s)
		}
		c.errorf(col.pos, col.end, "UNRESOLVED_COLUMN", hint, "the watermark column %q is not a column of %s", col.name, rel.Name)
		return false
	}
	if k := scan.Columns[i].Type.Kind; k != types.TimestampKind {
		c.errorf(col.pos, col.end, "DATATYPE_MISMATCH", "use a TIMESTAMP column: the event time of each row",
			"the watermark column %q is %s, not TIMESTAMP", scan.Columns[i].Name, scan.Columns[i].Type)
		return false
	}
	delay, ok := wm.delay.(*litExpr)
	if !ok || delay.typ.Kind != types.IntervalKind || delay.val == nil {
		c.errorAt(wm.delay, "INVALID_WATERMARK_DELAY", "write an interval literal such as INTERVAL 15 MINUTES",
			"the watermark delay must be an INTERVAL literal")
		return false
	}
	us := int64(delay.val.(types.Interval))
	if us <= 0 {
		c.errorAt(wm.delay, "INVALID_WATERMARK_DELAY", "write a positive interval such as INTERVAL 15 MINUTES",
			"the watermark delay must be positive, got %s", delay.text)
		return false
	}
	scan.Watermark = &Watermark{Column: i, Name: scan.Columns[i].Name, Delay: us}
	return true
}

// columnNamed returns the index of the column called name
// (case-insensitive), or -1.
func columnNamed(cols []Column, name string) int {
	for i, c := range cols {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}
