package sql

import "testing"

// TestPlanNondeterministicCall checks which queries hold a function whose
// result is not fixed by its input, in any clause of any plan node
// (Spark's Nondeterministic expressions), and that current_* functions
// count for a plan but not per evaluation.
func TestPlanNondeterministicCall(t *testing.T) {
	cat := newTestCatalog()
	for _, tt := range []struct{ query, plan, perEvaluation string }{
		{"SELECT order_id, amount FROM orders_silver WHERE amount > 0", "", ""},
		{"SELECT order_id, rand() AS r FROM orders_silver", "rand", "rand"},
		{"SELECT order_id FROM orders_silver WHERE event_ts < current_timestamp()", "current_timestamp", ""},
		{"SELECT customer_id, count(*) AS n FROM orders_silver WHERE uuid() <> '' GROUP BY customer_id", "uuid", "uuid"},
		{"SELECT customer_id, max(order_date) AS d FROM orders_silver GROUP BY customer_id HAVING max(order_date) < current_date()", "current_date", ""},
		{"SELECT o.order_id FROM orders_silver o JOIN customers c ON o.customer_id = c.customer_id AND c.seq > 0", "", ""},
	} {
		p, errs := checkText(t, cat, tt.query)
		if errs != nil {
			t.Errorf("%s: %s", tt.query, errString(errs))
			continue
		}
		got := ""
		if c := PlanNondeterministicCall(p); c != nil {
			got = c.Func
		}
		if got != tt.plan {
			t.Errorf("%s: PlanNondeterministicCall = %q, want %q", tt.query, got, tt.plan)
		}
		per := ""
		WalkPlans(p, func(q Plan) {
			WalkPlanExprs(q, func(e Expr) bool {
				if c := NondeterministicCall(e, true); c != nil && per == "" {
					per = c.Func
				}
				return false
			})
		})
		if per != tt.perEvaluation {
			t.Errorf("%s: NondeterministicCall(perEvaluation) = %q, want %q", tt.query, per, tt.perEvaluation)
		}
	}
}
