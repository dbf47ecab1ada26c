package sql

import (
	"strings"
	"testing"
	"time"
)

// TestStreamJoins checks Structured Streaming's join rules: a stream may
// join a snapshot when the stream is the preserved side; two streams may
// not be joined yet.
func TestStreamJoins(t *testing.T) {
	tests := []struct{ query, want string }{
		{"SELECT o.order_id FROM STREAM(raw_orders) o JOIN t1 ON t1.a = o.order_id", ""},
		{"SELECT o.order_id FROM STREAM(raw_orders) o LEFT JOIN t1 ON t1.a = o.order_id", ""},
		{"SELECT o.order_id FROM STREAM(raw_orders) o LEFT ANTI JOIN t1 ON t1.a = o.order_id", ""},
		{"SELECT o.order_id FROM t1 RIGHT JOIN STREAM(raw_orders) o ON t1.a = o.order_id", ""},
		{"SELECT o.order_id FROM raw_orders o JOIN t1 ON t1.a = o.order_id", ""},
		{"SELECT a.order_id FROM STREAM(raw_orders) a JOIN STREAM(raw_orders) b ON a.order_id = b.order_id",
			"44-48 UNSUPPORTED_FEATURE.STREAM_STREAM_JOIN joins of two streams are not supported yet: both sides of this JOIN read STREAM(...)"},
		{"SELECT o.order_id FROM STREAM(raw_orders) o FULL JOIN t1 ON t1.a = o.order_id",
			"44-48 UNSUPPORTED_FEATURE.STREAM_STATIC_OUTER_JOIN a FULL OUTER JOIN with the stream on the left is not supported"},
		{"SELECT o.order_id FROM t1 LEFT JOIN STREAM(raw_orders) o ON t1.a = o.order_id",
			"26-30 UNSUPPORTED_FEATURE.STREAM_STATIC_OUTER_JOIN a LEFT JOIN with the stream on the right is not supported"},
	}
	cat := newTestCatalog()
	for _, tt := range tests {
		_, errs := checkText(t, cat, tt.query)
		got := errString(errs)
		if tt.want == "" && got != "" || tt.want != "" && !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s:\n got %s\nwant %s", tt.query, got, tt.want)
		}
	}
}

// TestNondeterministicPlaces checks that rand and uuid are rejected where
// Spark rejects them, and accepted in the SELECT list and WHERE.
func TestNondeterministicPlaces(t *testing.T) {
	cat := newTestCatalog()
	for _, q := range []string{"SELECT uuid() AS u, rand() AS r FROM t1", "SELECT a FROM t1 WHERE rand() < 0.5"} {
		if _, errs := checkText(t, cat, q); errs != nil {
			t.Errorf("%s: %s", q, errString(errs))
		}
	}
	for _, q := range []string{"SELECT t1.a FROM t1 JOIN t2 ON t1.id = t2.id AND rand() < 0.5", "SELECT a FROM t1 ORDER BY uuid()"} {
		_, errs := checkText(t, cat, q)
		if !strings.Contains(errString(errs), "INVALID_NON_DETERMINISTIC_EXPRESSIONS") {
			t.Errorf("%s: got %q, want INVALID_NON_DETERMINISTIC_EXPRESSIONS", q, errString(errs))
		}
	}
}

// zonedCatalog is the test catalog with a session time zone.
type zonedCatalog struct {
	*testCatalog
	loc *time.Location
}

func (z zonedCatalog) SessionTimeZone() *time.Location { return z.loc }

// TestTimestampLiteralsInSessionZone checks that a zone-less TIMESTAMP
// literal is read in the session time zone, as Spark does, and that an
// explicit offset and TIMESTAMP_NTZ are not.
func TestTimestampLiteralsInSessionZone(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	cat := zonedCatalog{newTestCatalog(), ny}
	for _, tt := range []struct{ lit, want string }{
		{"TIMESTAMP'2024-07-01 12:00:00'", "2024-07-01 16:00:00"},
		{"TIMESTAMP'2024-01-01 12:00:00'", "2024-01-01 17:00:00"},
		{"TIMESTAMP'2024-01-01 12:00:00Z'", "2024-01-01 12:00:00"},
		{"TIMESTAMP_NTZ'2024-01-01 12:00:00'", "2024-01-01 12:00:00"},
	} {
		p, errs := checkText(t, cat, "SELECT "+tt.lit+" AS ts")
		if errs != nil {
			t.Fatalf("%s: %s", tt.lit, errString(errs))
		}
		got := p.(*Project).Exprs[0].(*Literal).Value
		if s := got.(interface{ String() string }).String(); s != tt.want {
			t.Errorf("%s = %s (UTC), want %s", tt.lit, s, tt.want)
		}
	}
}
