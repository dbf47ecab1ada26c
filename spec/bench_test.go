package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBigSpec writes a spec with n datasets: streaming tables chained in
// groups of ten over one file source, each group summarized by a
// materialized view, with expectations on every table.
func writeBigSpec(tb testing.TB, n int) string {
	var b strings.Builder
	b.WriteString("pipeline: big\nparameters:\n  min: {type: int, default: 0}\ncatalog: main\nschema: bench\n")
	b.WriteString("sources:\n  raw:\n    files: {path: landing, format: json}\n    schema: id BIGINT NOT NULL, amount DECIMAL(12,2), name STRING, at TIMESTAMP\n")
	b.WriteString("datasets:\n")
	prev := ""
	for i := 0; i < n; i++ {
		if i%10 == 9 {
			fmt.Fprintf(&b, "  mv_%d:\n    kind: materialized_view\n    query: |\n      SELECT name, count(*) AS n, sum(amount) AS total\n      FROM %s GROUP BY name\n", i, prev)
			prev = ""
			continue
		}
		from := "raw"
		if prev != "" {
			from = prev
		}
		name := fmt.Sprintf("st_%d", i)
		fmt.Fprintf(&b, "  %s:\n    kind: streaming_table\n    expectations:\n      - name: positive\n        expr: amount > ${min}\n        on_violation: drop\n", name)
		fmt.Fprintf(&b, "    query: |\n      SELECT id, amount, upper(name) AS name, at\n      FROM STREAM(%s)\n      WHERE id IS NOT NULL\n", from)
		prev = name
	}
	path := filepath.Join(tb.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkLoad200 validates a generated spec with 200 datasets end to
// end (load, schema, resolve, type-check).
func BenchmarkLoad200(b *testing.B) {
	path := writeBigSpec(b, 200)
	for b.Loop() {
		Load(path)
	}
}

// TestBigSpecIsValid keeps the benchmark honest: its spec must check.
func TestBigSpecIsValid(t *testing.T) {
	p, diags := Load(writeBigSpec(t, 200))
	if p == nil {
		t.Fatalf("generated spec rejected:\n%s", diagStrings(diags[:min(len(diags), 10)]))
	}
	if len(p.Tables) != 200 || len(p.Flows) != 200 {
		t.Errorf("got %d tables and %d flows, want 200 each", len(p.Tables), len(p.Flows))
	}
}
