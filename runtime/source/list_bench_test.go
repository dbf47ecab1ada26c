package source_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pipegen/pipegen/runtime/source"
)

// BenchmarkListNames10k lists a landing folder of 10,000 files by name,
// what a no-op update of a long-lived file source pays (make soak).
func BenchmarkListNames10k(b *testing.B) {
	dir := b.TempDir()
	for i := range 10000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("day-%05d.csv", i)), []byte("a\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		l, err := source.ListNames(dir)
		if err != nil || len(l.Entries) != 10000 {
			b.Fatal(err, len(l.Entries))
		}
	}
}
