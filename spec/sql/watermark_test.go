package sql

import (
	"strings"
	"testing"
)

// watermarkCatalog is the test catalog with a `watermark:` key for
// raw_orders, as the spec gives one.
type watermarkCatalog struct {
	*testCatalog
	rel, column string
	delay       int64
}

func (w watermarkCatalog) StreamWatermark(name string) (string, int64, bool) {
	if strings.EqualFold(name, w.rel) {
		return w.column, w.delay, true
	}
	return "", 0, false
}

// TestWatermarkClause checks the Databricks SQL form: after STREAM(x) or
// STREAM x, before the alias, on the event-time column with an interval
// delay, and where it is refused, with the positions of the errors.
func TestWatermarkClause(t *testing.T) {
	const min = 60_000_000
	tests := []struct {
		query  string
		column string
		delay  int64
		err    string
	}{
		{query: "SELECT * FROM STREAM(raw_orders) WATERMARK event_ts DELAY OF INTERVAL 15 MINUTES", column: "event_ts", delay: 15 * min},
		// Databricks' own example: STREAM name, then the alias.
		{query: "SELECT s.order_id FROM STREAM raw_orders WATERMARK event_ts DELAY OF INTERVAL 10 SECONDS AS s", column: "event_ts", delay: 10_000_000},
		{query: "SELECT o.order_id FROM STREAM(raw_orders) WATERMARK EVENT_TS DELAY OF INTERVAL '1' HOUR o", column: "event_ts", delay: 60 * min},
		{query: "SELECT * FROM STREAM(raw_orders) WATERMARK event_ts DELAY OF INTERVAL 1 HOUR 30 MINUTES", column: "event_ts", delay: 90 * min},
		// An alias called watermark is still an alias.
		{query: "SELECT watermark.order_id FROM STREAM(raw_orders) watermark WHERE watermark.amount > 0"},
		{query: "SELECT * FROM STREAM(raw_orders) WATERMARK amount DELAY OF INTERVAL 5 MINUTES",
			err: "43-49 DATATYPE_MISMATCH the watermark column \"amount\" is DECIMAL(12,2), not TIMESTAMP"},
		{query: "SELECT * FROM STREAM(raw_orders) WATERMARK event_tz DELAY OF INTERVAL 5 MINUTES",
			err: "43-51 UNRESOLVED_COLUMN the watermark column \"event_tz\" is not a column of raw_orders (did you mean \"event_ts\"?)"},
		{query: "SELECT * FROM STREAM(raw_orders) WATERMARK event_ts DELAY OF '5 minutes'",
			err: "61-72 INVALID_WATERMARK_DELAY the watermark delay must be an INTERVAL literal"},
		{query: "SELECT * FROM STREAM(raw_orders) WATERMARK event_ts DELAY OF INTERVAL -5 MINUTES",
			err: "61-80 INVALID_WATERMARK_DELAY the watermark delay must be positive"},
		{query: "SELECT * FROM raw_orders WATERMARK event_ts DELAY OF INTERVAL 5 MINUTES",
			err: "25-71 UNSUPPORTED_FEATURE a watermark applies to a stream, but raw_orders is read as a snapshot"},
		{query: "SELECT * FROM STREAM(raw_orders) WATERMARK to_timestamp(order_id) AS ts DELAY OF INTERVAL 5 MINUTES",
			err: "43-71 UNSUPPORTED_FEATURE the watermark must be a column of raw_orders; expressions are not supported yet"},
		{query: "SELECT * FROM STREAM(raw_orders) WATERMARK event_ts OF INTERVAL 5 MINUTES",
			err: "52-54 PARSE_SYNTAX_ERROR syntax error at or near 'OF' (expected DELAY)"},
		{query: "SELECT * FROM STREAM(raw_orders) AS e WATERMARK event_ts DELAY OF INTERVAL 5 MINUTES",
			err: "38-47 PARSE_SYNTAX_ERROR syntax error at or near 'WATERMARK' (write the alias after the WATERMARK clause: ... WATERMARK column DELAY OF INTERVAL ... AS e)"},
		{query: "SELECT * FROM (SELECT * FROM STREAM(raw_orders)) WATERMARK event_ts DELAY OF INTERVAL 5 MINUTES",
			err: "49-95 UNSUPPORTED_FEATURE a WATERMARK clause after a subquery is not supported"},
	}
	cat := newTestCatalog()
	for _, tt := range tests {
		p, errs := checkText(t, cat, tt.query)
		if tt.err != "" {
			if got := errString(errs); !strings.HasPrefix(got, tt.err) {
				t.Errorf("%s:\n got %s\nwant %s", tt.query, got, tt.err)
			}
			continue
		}
		if errs != nil {
			t.Errorf("%s: %s", tt.query, errString(errs))
			continue
		}
		var scan *Scan
		WalkPlans(p, func(q Plan) {
			if s, ok := q.(*Scan); ok {
				scan = s
			}
		})
		switch {
		case tt.column == "" && scan.Watermark != nil:
			t.Errorf("%s: watermark %+v, want none", tt.query, *scan.Watermark)
		case tt.column != "" && (scan.Watermark == nil || scan.Watermark.Name != tt.column || scan.Watermark.Delay != tt.delay ||
			scan.Columns[scan.Watermark.Column].Name != tt.column):
			t.Errorf("%s: watermark %+v, want %s delayed %dµs", tt.query, scan.Watermark, tt.column, tt.delay)
		}
	}
}

// TestWatermarkReference checks that References tells which relation has
// a WATERMARK clause (the spec refuses the key and the clause together).
func TestWatermarkReference(t *testing.T) {
	q, errs := ParseQuery("SELECT * FROM STREAM(a) WATERMARK ts DELAY OF INTERVAL 1 MINUTE JOIN b ON a.k = b.k")
	if errs != nil {
		t.Fatal(errString(errs))
	}
	refs := q.References()
	if len(refs) != 2 || !refs[0].Watermark || refs[1].Watermark {
		t.Errorf("references %+v, want the watermark on a only", refs)
	}
}

// TestWatermarkFromCatalog checks that a stream read without the clause
// takes the catalog's watermark (the spec's key), and a snapshot does not.
func TestWatermarkFromCatalog(t *testing.T) {
	cat := watermarkCatalog{newTestCatalog(), "raw_orders", "event_ts", 5_000_000}
	p, errs := checkText(t, cat, "SELECT DISTINCT order_id, event_ts FROM STREAM(raw_orders)")
	if errs != nil {
		t.Fatal(errString(errs))
	}
	st, err := FindStateful(p, nil)
	if err != nil || st == nil || st.Kind != Deduplication || st.Stream.Watermark.Delay != 5_000_000 || st.TimeKey != 1 {
		t.Fatalf("stateful %+v, %v; want a deduplication keyed by event_ts", st, err)
	}
	p, errs = checkText(t, cat, "SELECT count(*) AS n FROM raw_orders")
	if errs != nil {
		t.Fatal(errString(errs))
	}
	if s := p.(*Project).Input.(*Aggregate).Input.(*Scan); s.Watermark != nil {
		t.Errorf("a snapshot read took the watermark %+v", *s.Watermark)
	}
}

// TestFindStateful checks which stateful operators a watermark bounds
// (Structured Streaming's append mode) and what each is keyed by.
func TestFindStateful(t *testing.T) {
	const wm = " FROM STREAM(raw_orders) WATERMARK event_ts DELAY OF INTERVAL 10 MINUTES"
	tests := []struct {
		query  string
		kind   StatefulKind
		key    int
		window bool
		err    string
	}{
		{query: "SELECT order_id, amount" + wm},
		{query: "SELECT window(event_ts, '1 hour') AS w, customer_id, count(*) AS n, sum(amount) AS s" + wm + " GROUP BY window(event_ts, '1 hour'), customer_id",
			kind: WindowAggregation, key: 0, window: true},
		{query: "SELECT customer_id, window(event_ts, '1 hour', '15 minutes') AS w, count(*) AS n" + wm + " GROUP BY customer_id, w",
			kind: WindowAggregation, key: 1, window: true},
		{query: "SELECT customer_id, event_ts, count(*) AS n" + wm + " GROUP BY ALL", kind: WindowAggregation, key: 1},
		// The event time renamed in a subquery is still the event time.
		{query: "SELECT t, max(amount) AS m FROM (SELECT event_ts AS t, amount" + wm + " WHERE amount > 0) GROUP BY window(t, '5 minutes'), t",
			kind: WindowAggregation, key: 0, window: true},
		{query: "SELECT DISTINCT customer_id, event_ts" + wm, kind: Deduplication, key: 1},
		{query: "SELECT DISTINCT window(event_ts, '1 day') AS d, customer_id" + wm, kind: Deduplication, key: 0, window: true},
		{query: "SELECT *" + wm + " QUALIFY row_number() OVER (PARTITION BY order_id ORDER BY event_ts) = 1", kind: DeduplicationWithinWatermark, key: -1},
		{query: "SELECT order_id" + wm + " QUALIFY 1 >= row_number() OVER (PARTITION BY order_id ORDER BY event_ts)", kind: DeduplicationWithinWatermark, key: -1},
		{query: "SELECT customer_id, count(*) AS n" + wm + " GROUP BY customer_id",
			err: "STREAMING_AGGREGATION_WITHOUT_EVENT_TIME the aggregation does not group by the watermark column event_ts or a window() of it"},
		{query: "SELECT window(amount_ts, '1 hour') AS w, count(*) AS n FROM (SELECT CAST(order_id AS TIMESTAMP) AS amount_ts, event_ts" + wm + ") GROUP BY 1",
			err: "STREAMING_AGGREGATION_WITHOUT_EVENT_TIME"},
		{query: "SELECT DISTINCT customer_id" + wm, err: "STREAMING_DEDUPLICATION_WITHOUT_EVENT_TIME"},
		{query: "SELECT window(event_ts, '1 hour') AS w, percentile(amount, 0.5) AS p" + wm + " GROUP BY 1",
			err: "UNSUPPORTED_FEATURE aggregate percentile cannot be kept in a streaming table's state"},
		{query: "SELECT window(event_ts, '1 hour') AS w, count(DISTINCT customer_id) AS c, collect_set(customer_id) AS s" + wm + " GROUP BY 1",
			kind: WindowAggregation, key: 0, window: true},
		{query: "SELECT *" + wm + " QUALIFY row_number() OVER (PARTITION BY order_id ORDER BY event_ts DESC) = 1",
			err: "NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING row_number() over a stream must be ordered by the watermark column event_ts, ascending"},
		{query: "SELECT *" + wm + " QUALIFY row_number() OVER (PARTITION BY order_id ORDER BY event_ts) = 2",
			err: "NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING row_number() over a stream is supported only as the whole QUALIFY condition of the same SELECT"},
		{query: "SELECT *, rank() OVER (PARTITION BY order_id ORDER BY event_ts) AS r" + wm,
			err: "NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING window functions over a stream are supported only as row_number()"},
		{query: "SELECT window(event_ts, '1 hour') AS w, count(*) AS n FROM (SELECT DISTINCT order_id, event_ts" + wm + ") GROUP BY 1",
			err: "UNSUPPORTED_FEATURE the query has DISTINCT and an aggregation over the stream"},
		{query: "SELECT order_id" + wm + " ORDER BY event_ts", err: "UNSUPPORTED_FEATURE ORDER BY over a stream is not supported"},
		{query: "SELECT customer_id, count(*) AS n FROM STREAM(raw_orders) GROUP BY customer_id", err: "STREAMING_STATEFUL_WITHOUT_WATERMARK"},
	}
	cat := newTestCatalog()
	for _, tt := range tests {
		p, errs := checkText(t, cat, tt.query)
		if errs != nil {
			t.Errorf("%s: %s", tt.query, errString(errs))
			continue
		}
		st, err := FindStateful(p, nil)
		switch {
		case tt.err != "":
			if err == nil || !strings.HasPrefix(err.Code+" "+err.Message, tt.err) {
				t.Errorf("%s:\n got %v\nwant %s", tt.query, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %s %v", tt.query, err.Code, err)
		case tt.kind == 0 && st != nil:
			t.Errorf("%s: stateful %s, want none", tt.query, st.Kind)
		case tt.kind != 0 && (st == nil || st.Kind != tt.kind || st.TimeKey != tt.key || st.TimeKeyWindow != tt.window || st.Stream.Name != "raw_orders"):
			t.Errorf("%s: stateful %+v, want %s keyed by %d (window %v)", tt.query, st, tt.kind, tt.key, tt.window)
		}
	}
}

// TestSlidingWindows checks that a sliding window in GROUP BY becomes a
// window Generate under the Aggregate, and is refused elsewhere and with
// a slide longer than the window or an offset not shorter than the slide.
func TestSlidingWindows(t *testing.T) {
	cat := newTestCatalog()
	p, errs := checkText(t, cat, "SELECT window(ts, '10 minutes', '5 minutes') AS w, count(*) AS n FROM nums GROUP BY window(ts, '10 minutes', '5 minutes')")
	if errs != nil {
		t.Fatal(errString(errs))
	}
	agg := p.(*Project).Input.(*Aggregate)
	g, ok := agg.Input.(*Generate)
	if !ok || g.Func != "window" || len(g.Columns) != len(g.Input.Output())+1 {
		t.Fatalf("aggregate input %s, want a window Generate", FormatPlan(agg.Input))
	}
	if ref, ok := agg.Groups[0].(*ColumnRef); !ok || ref.Index != len(g.Input.Output()) {
		t.Errorf("group %s, want the generated window column", FormatExpr(agg.Groups[0]))
	}
	if size, slide, offset := WindowSpec(g.Arg.(*Call)); size != 600_000_000 || slide != 300_000_000 || offset != 0 {
		t.Errorf("window spec %d %d %d", size, slide, offset)
	}
	for _, tt := range []struct{ query, err string }{
		{"SELECT window(ts, '10 minutes', '5 minutes') AS w FROM nums", "7-13 UNSUPPORTED_FEATURE a sliding window() is supported only as a GROUP BY expression"},
		{"SELECT count(*) AS n FROM nums GROUP BY window(ts, '5 minutes', '10 minutes')", "64-76 INVALID_PARAMETER_VALUE the slide of window (10 minutes) is longer than its duration (5 minutes)"},
		{"SELECT count(*) AS n FROM nums GROUP BY window(ts, '10 minutes', '5 minutes', '5 minutes')", "78-89 INVALID_PARAMETER_VALUE the start offset of a sliding window must be shorter than its slide"},
		{"SELECT count(*) AS n FROM nums GROUP BY window(ts, '10 minutes', '5 minutes'), window(ts, '4 minutes', '2 minutes')",
			"79-85 UNSUPPORTED_FEATURE only one sliding window() can be grouped by"},
	} {
		_, errs := checkText(t, cat, tt.query)
		if got := errString(errs); !strings.HasPrefix(got, tt.err) {
			t.Errorf("%s:\n got %s\nwant %s", tt.query, got, tt.err)
		}
	}
}
