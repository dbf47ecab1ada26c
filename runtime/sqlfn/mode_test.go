package sqlfn

import (
	"math"
	"testing"
)

// TestModeSpark checks mode's pick among equally frequent values against
// Spark's answers (testdata/spark-sql-tests results/mode.sql.out).
func TestModeSpark(t *testing.T) {
	salaries := map[string][]int32{
		"Accounting": {8435, 9998, 8992, 8870, 11472, 6627},
		"IT":         {8113, 5186},
		"Sales":      {9181, 9441, 6660, 10563},
		"SCM":        {10449, 6949, 11303, 11798, 10586},
	}
	want := map[string]int32{"Accounting": 6627, "IT": 5186, "SCM": 11303, "Sales": 10563}
	var all Counts[int32]
	for _, dept := range []string{"Accounting", "IT", "Sales", "SCM"} {
		var c Counts[int32]
		for _, s := range salaries[dept] {
			c.Add(s)
			all.Add(s)
		}
		if got, ok := ModeSpark(&c); !ok || got != want[dept] {
			t.Errorf("mode(salary) of %s = %d, want %d", dept, got, want[dept])
		}
	}
	if got, _ := ModeSpark(&all); got != 10563 {
		t.Errorf("mode(salary) = %d, want 10563", got)
	}
	var c Counts[int32]
	for _, x := range []int32{-10, 0, 10} {
		c.Add(x)
	}
	if got, _ := ModeSpark(&c); got != 0 {
		t.Errorf("mode(col) of -10, 0, 10 = %d, want 0", got)
	}
	var s Counts[string]
	for _, x := range []string{"a", "b", "b", "a", "c"} {
		s.Add(x)
	}
	if got, _ := ModeSpark(&s); got != "a" && got != "b" {
		t.Errorf("mode = %q, want one of the most frequent", got)
	}
	var none Counts[string]
	if _, ok := ModeSpark(&none); ok {
		t.Error("mode of no values must be NULL")
	}
}

// Spark's Mode.scala examples: mode(col, true) of -10, 0, 10 is -10;
// WITHIN GROUP (ORDER BY col) of 0, 10, 10, 20, 20 is 10, with DESC 20.
func TestModeOrdered(t *testing.T) {
	var c Counts[int32]
	for _, v := range []int32{-10, 0, 10} {
		c.Add(v)
	}
	if v, ok := ModeOrdered(&c, false); !ok || v != -10 {
		t.Errorf("mode(col, true) = %v, %v; want -10", v, ok)
	}
	var d Counts[int32]
	for _, v := range []int32{0, 10, 10, 20, 20} {
		d.Add(v)
	}
	if v, _ := ModeOrdered(&d, false); v != 10 {
		t.Errorf("mode() WITHIN GROUP (ORDER BY col) = %v; want 10", v)
	}
	if v, _ := ModeOrdered(&d, true); v != 20 {
		t.Errorf("mode() WITHIN GROUP (ORDER BY col DESC) = %v; want 20", v)
	}
	var e Counts[float64]
	if _, ok := ModeOrdered(&e, false); ok {
		t.Error("mode of no values is not NULL")
	}
	if sparkCompare(math.NaN(), 1) != 1 || sparkCompare(1, math.NaN()) != -1 || sparkCompare(math.NaN(), math.NaN()) != 0 {
		t.Error("NaN does not order above numbers")
	}
}
