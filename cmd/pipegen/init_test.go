package main

import "testing"

func TestPipelineName(t *testing.T) {
	for in, want := range map[string]string{
		"shop": "shop", "My Shop": "my_shop", "2026-Flights": "p_2026_flights", "a--b__c": "a_b_c",
		"/tmp/x/orders.v2/": "orders_v2", "日本": "pipeline",
	} {
		if got := PipelineName(in); got != want {
			t.Errorf("PipelineName(%q) = %q, want %q", in, got, want)
		}
	}
}
