package checkpoint

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/storage/storagetest"
)

// mem holds the objects of the memtest:// locations of this package's
// tests.
var mem = storagetest.RegisterMem("memtest")

// TestStreamAtURL keeps a streaming checkpoint at a URL location, through
// a compaction, and loads it again: its objects are the checkpoint's keys
// in the in-memory Store, none on the local disk.
func TestStreamAtURL(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Cleanup(func() { mem.DeletePrefix("bucket") })
	dir := "memtest://bucket/wh/_pipelines/p/checkpoints/f"
	cp, err := Load(dir, Meta{ID: "id-1", Flow: "f", Definition: "d1", Inputs: []string{"src"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := cp.SaveMeta(); err != nil {
		t.Fatal(err)
	}
	var want []string
	for b := int64(0); b < compactEvery+2; b++ {
		p := fmt.Sprintf("s3://landing/f%02d.json", b)
		want = append(want, p)
		o := offsetsOf(b, "src", p)
		if err := cp.WriteOffsets(o); err != nil {
			t.Fatal(err)
		}
		if err := cp.Commit(o); err != nil {
			t.Fatal(err)
		}
	}
	pending := offsetsOf(compactEvery+2, "src", "s3://landing/next.json")
	if err := cp.WriteOffsets(pending); err != nil {
		t.Fatal(err)
	}

	got, err := Load(dir, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Created || got.Meta.ID != "id-1" || got.Committed != compactEvery+1 || got.Pending == nil || len(got.Damage) > 0 {
		t.Errorf("loaded: created %v id %q committed %d pending %v damage %q", got.Created, got.Meta.ID, got.Committed, got.Pending, got.Damage)
	}
	if seen := seenPaths(got, "src"); !slices.Equal(seen, want) {
		t.Errorf("seen %q, want %q", seen, want)
	}
	keys := mem.Keys()
	prefix := "bucket/wh/_pipelines/p/checkpoints/f/"
	for _, k := range []string{"metadata.json", "commits/11.json", "offsets/12.json", fmt.Sprintf("compact/%d%s", compactEvery-1, seenExt)} {
		if !slices.Contains(keys, prefix+k) {
			t.Errorf("no object %s%s; objects:\n%s", prefix, k, strings.Join(keys, "\n"))
		}
	}
	if local, _ := os.ReadDir("."); len(local) != 0 {
		t.Errorf("the working directory holds %v, want nothing", local)
	}
}
