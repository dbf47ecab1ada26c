package sqlfn

import "testing"

// TestWidthBucket checks the examples of Spark's WidthBucket
// (mathExpressions.scala's ExpressionDescription) and its NULL cases.
func TestWidthBucket(t *testing.T) {
	for _, c := range []struct {
		v, lo, hi float64
		n, want   int64
		ok        bool
	}{
		{5.3, 0.2, 10.6, 5, 3, true},
		{-2.1, 1.3, 3.4, 3, 0, true},
		{8.1, 0.0, 5.7, 4, 5, true},
		{-0.9, 5.2, 0.5, 2, 3, true},
		{1, 0, 10, 10, 2, true},
		{1, 1, 1, 10, 0, false},
		{1, 0, 10, 0, 0, false},
	} {
		got, ok := WidthBucket(c.v, c.lo, c.hi, c.n)
		if got != c.want || ok != c.ok {
			t.Errorf("WidthBucket(%v, %v, %v, %d) = %d, %v; want %d, %v", c.v, c.lo, c.hi, c.n, got, ok, c.want, c.ok)
		}
	}
}
