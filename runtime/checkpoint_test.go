package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
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
	if !cp.created {
		t.Error("a new checkpoint is not marked created")
	}
	if err := cp.saveMeta(); err != nil {
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
	nums, err := batchNumbers(filepath.Join(dir, "offsets"), ".json")
	if err != nil {
		t.Fatal(err)
	}
	if len(nums) > keepBatches+compactEvery+1 {
		t.Errorf("%d offsets files kept after compaction, want at most %d", len(nums), keepBatches+compactEvery+1)
	}
	compacts, _ := batchNumbers(filepath.Join(dir, "compact"), seenExt)
	if len(compacts) != 1 || compacts[0] != 29 {
		t.Errorf("compactions kept %v, want [29]", compacts)
	}
}

// TestCheckpointCompactForms reads a compacted record written before 0.9
// (JSON), rewrites it as a line file at the next compaction and reads that
// back; a damaged line file is an error naming the file and line.
func TestCheckpointCompactForms(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "flow")
	meta := checkpointMeta{Flow: "f", Inputs: []string{"src", "up"}}
	if cp, err := loadCheckpoint(dir, meta); err != nil || cp.saveMeta() != nil {
		t.Fatal(err)
	}
	old := compactRecord{Seen: map[string][]string{"src": {"file:/l/a.csv", "file:/l/b%20c.csv"}}, Versions: map[string]int64{"up": 7}}
	for _, f := range []string{"compact/9.json", "commits/9.json"} {
		if err := writeFileAtomic(filepath.Join(dir, f), mustJSON(old)); err != nil {
			t.Fatal(err)
		}
	}
	cp, err := loadCheckpoint(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	if got := seenPaths(cp, "src"); cp.committed != 9 || !slices.Equal(got, old.Seen["src"]) || cp.versions["up"] != 7 {
		t.Fatalf("from the JSON record: committed %d, seen %v, versions %v", cp.committed, got, cp.versions)
	}
	for n := int64(10); n < 20; n++ {
		b := offsetsOf(n, "src", fmt.Sprintf("file:/l/n%d.csv", n))
		b.Inputs["up"] = inputOffset{Versions: &versionRange{From: 7 + n - 10, To: 8 + n - 10}}
		if err := cp.writeOffsets(b); err != nil {
			t.Fatal(err)
		}
		if err := cp.commit(b); err != nil {
			t.Fatal(err)
		}
	}
	want := seenPaths(cp, "src")
	compacts, err := compactions(dir)
	if err != nil || len(compacts) != 1 || compacts[0].path != filepath.Join(dir, "compact", "19"+seenExt) {
		t.Fatalf("compactions after batch 19: %v, %v; want compact/19.seen alone", compacts, err)
	}
	cp, err = loadCheckpoint(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	if got := seenPaths(cp, "src"); len(got) != 12 || !slices.Equal(got, want) || cp.versions["up"] != 17 {
		t.Errorf("from the line record: seen %v, versions %v; want %v and up at 17", got, cp.versions, want)
	}
	data, err := os.ReadFile(compacts[0].path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ text, want string }{
		{strings.Replace(string(data), seenHeader, "something else", 1), "19.seen:1 is corrupt"},
		{string(data[:strings.LastIndexByte(string(data[:len(data)-len("end\n")-1]), '\n')+1]), "11 of 12 paths of src"},
		{string(data[:len(data)-len("end\n")]), "no closing line"},
		{string(data[:len(data)-1]), "unterminated"},
		{strings.Replace(string(data), "files\tsrc\t12", "files\tsrc\ttwelve", 1), "19.seen:3 is corrupt"},
	} {
		if err := os.WriteFile(compacts[0].path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		cp, err := loadCheckpoint(dir, meta)
		if err != nil {
			t.Fatal(err)
		}
		if damage := strings.Join(cp.damage, "; "); !strings.Contains(damage, tc.want) {
			t.Errorf("damaged record: damage %q, want one with %q", damage, tc.want)
		}
		if len(cp.seen["src"]) != 0 {
			t.Errorf("damaged record: %d files seen, want none from a damaged record", len(cp.seen["src"]))
		}
	}
}

func TestCheckpointTableVersions(t *testing.T) {
	dir := t.TempDir()
	cp, err := loadCheckpoint(dir, checkpointMeta{Flow: "f", Inputs: []string{"up"}})
	if err != nil || cp.saveMeta() != nil {
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

// BenchmarkLoadCheckpoint10k loads the checkpoint of a flow that has read
// 10,000 files: its compacted processed-file record, what every update of
// a long-lived file source reads (make soak).
func BenchmarkLoadCheckpoint10k(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "flow")
	meta := checkpointMeta{Flow: "f", Inputs: []string{"src"}}
	cp, err := loadCheckpoint(dir, meta)
	if err != nil || cp.saveMeta() != nil {
		b.Fatal(err)
	}
	for n := range int64(10000) {
		b := offsetsOf(n, "src", fmt.Sprintf("file:/data/landing/retail/day-%05d.csv", n))
		cp.apply(b)
	}
	cp.committed = 9999
	if err := cp.compact(); err != nil {
		b.Fatal(err)
	}
	if err := writeFileAtomic(filepath.Join(dir, "commits", batchName(9999)), []byte("{}\n")); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		cp, err := loadCheckpoint(dir, meta)
		if err != nil || len(cp.seen["src"]) != 10000 {
			b.Fatal(err)
		}
	}
}
