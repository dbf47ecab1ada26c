package sqlfn

import "testing"

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
