package runtime

import (
	"path/filepath"
	"slices"
	"sort"
	"testing"
)

func offsetsOf(batch int64, input string, paths ...string) *batchOffsets {
	var files []seenFile
	for _, p := range paths {
		files = append(files, seenFile{Path: p, Size: 1})
	}
	return &batchOffsets{Batch: batch, Inputs: map[string]inputOffset{input: {Files: files}}}
}

func seenPaths(cp *checkpoint, input string) []string {
	var out []string
	for p := range cp.seen[input] {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// TestCheckpointRecovery follows a flow's checkpoint through commits, a
// crash between writing offsets and committing, and compaction.
func TestCheckpointRecovery(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "flow")
	meta := checkpointMeta{Flow: "f", Definition: "d1", Inputs: []string{"src"}}
	cp, err := loadCheckpoint(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	if cp.committed != -1 || cp.pending != nil || cp.meta.ID == "" {
		t.Fatalf("new checkpoint: committed %d pending %v id %q", cp.committed, cp.pending, cp.meta.ID)
	}
	id := cp.meta.ID
	b0 := offsetsOf(0, "src", "file:/a", "file:/b")
	if err := cp.writeOffsets(b0); err != nil {
		t.Fatal(err)
	}
	if err := cp.commit(b0); err != nil {
		t.Fatal(err)
	}
	// Batch 1's offsets are written, then the process dies.
	b1 := offsetsOf(1, "src", "file:/c")
	if err := cp.writeOffsets(b1); err != nil {
		t.Fatal(err)
	}
	cp, err = loadCheckpoint(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	if cp.meta.ID != id {
		t.Errorf("reloaded id %q, want %q", cp.meta.ID, id)
	}
	if cp.committed != 0 {
		t.Errorf("committed %d, want 0", cp.committed)
	}
	if cp.pending == nil || cp.pending.Batch != 1 || cp.pending.Inputs["src"].Files[0].Path != "file:/c" {
		t.Fatalf("pending batch = %+v, want batch 1 with file:/c", cp.pending)
	}
	if got := seenPaths(cp, "src"); !slices.Equal(got, []string{"file:/a", "file:/b"}) {
		t.Errorf("seen %v: a pending batch's files are not seen yet", got)
	}
	// Commit it and many more, crossing compactions.
	if err := cp.commit(cp.pending); err != nil {
		t.Fatal(err)
	}
	for n := int64(2); n < 35; n++ {
		b := offsetsOf(n, "src", "file:/f"+string(rune('a'+n%26))+string(rune('0'+n/26)))
		if err := cp.writeOffsets(b); err != nil {
			t.Fatal(err)
		}
		if err := cp.commit(b); err != nil {
			t.Fatal(err)
		}
	}
	want := seenPaths(cp, "src")
	cp, err = loadCheckpoint(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	if cp.committed != 34 {
		t.Errorf("committed %d, want 34", cp.committed)
	}
	if got := seenPaths(cp, "src"); !slices.Equal(got, want) {
		t.Errorf("after compaction seen %d files, want %d", len(got), len(want))
	}
	// Old batches are pruned: the record stays compact.
	nums, err := batchNumbers(filepath.Join(dir, "offsets"))
	if err != nil {
		t.Fatal(err)
	}
	if len(nums) > keepBatches+compactEvery+1 {
		t.Errorf("%d offsets files kept after compaction, want at most %d", len(nums), keepBatches+compactEvery+1)
	}
	compacts, _ := batchNumbers(filepath.Join(dir, "compact"))
	if len(compacts) != 1 || compacts[0] != 29 {
		t.Errorf("compactions kept %v, want [29]", compacts)
	}
}

func TestCheckpointTableVersions(t *testing.T) {
	dir := t.TempDir()
	cp, err := loadCheckpoint(dir, checkpointMeta{Flow: "f", Inputs: []string{"up"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range []versionRange{{From: -1, To: 0}, {From: 0, To: 3}} {
		b := &batchOffsets{Batch: int64(i), Inputs: map[string]inputOffset{"up": {Versions: &r}}}
		if err := cp.writeOffsets(b); err != nil {
			t.Fatal(err)
		}
		if err := cp.commit(b); err != nil {
			t.Fatal(err)
		}
	}
	cp, err = loadCheckpoint(dir, checkpointMeta{Flow: "f", Inputs: []string{"up"}})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := cp.versions["up"]; !ok || v != 3 {
		t.Errorf("last read version of up = %d, %v; want 3", v, ok)
	}
}
