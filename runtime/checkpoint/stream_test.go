package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

func offsetsOf(batch int64, input string, paths ...string) *Offsets {
	var files []File
	for _, p := range paths {
		files = append(files, File{Path: p, Size: 1})
	}
	return &Offsets{Batch: batch, Inputs: map[string]Input{input: {Files: files}}}
}

func seenPaths(cp *Stream, input string) []string {
	var out []string
	for p := range cp.Seen[input] {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// TestCheckpointRecovery follows a flow's checkpoint through commits, a
// crash between writing offsets and committing, and compaction.
func TestCheckpointRecovery(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "flow")
	meta := Meta{ID: "id-1", Flow: "f", Definition: "d1", Inputs: []string{"src"}}
	cp, err := Load(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	if !cp.Created {
		t.Error("a new checkpoint is not marked created")
	}
	if err := cp.SaveMeta(); err != nil {
		t.Fatal(err)
	}
	if cp.Committed != -1 || cp.Pending != nil || cp.Meta.ID == "" {
		t.Fatalf("new checkpoint: committed %d pending %v id %q", cp.Committed, cp.Pending, cp.Meta.ID)
	}
	id := cp.Meta.ID
	b0 := offsetsOf(0, "src", "file:/a", "file:/b")
	if err := cp.WriteOffsets(b0); err != nil {
		t.Fatal(err)
	}
	if err := cp.Commit(b0); err != nil {
		t.Fatal(err)
	}
	// Batch 1's offsets are written, then the process dies.
	b1 := offsetsOf(1, "src", "file:/c")
	if err := cp.WriteOffsets(b1); err != nil {
		t.Fatal(err)
	}
	cp, err = Load(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	if cp.Meta.ID != id {
		t.Errorf("reloaded id %q, want %q", cp.Meta.ID, id)
	}
	if cp.Committed != 0 {
		t.Errorf("committed %d, want 0", cp.Committed)
	}
	if cp.Pending == nil || cp.Pending.Batch != 1 || cp.Pending.Inputs["src"].Files[0].Path != "file:/c" {
		t.Fatalf("pending batch = %+v, want batch 1 with file:/c", cp.Pending)
	}
	if got := seenPaths(cp, "src"); !slices.Equal(got, []string{"file:/a", "file:/b"}) {
		t.Errorf("seen %v: a pending batch's files are not seen yet", got)
	}
	// Commit it and many more, crossing compactions.
	if err := cp.Commit(cp.Pending); err != nil {
		t.Fatal(err)
	}
	for n := int64(2); n < 35; n++ {
		b := offsetsOf(n, "src", "file:/f"+string(rune('a'+n%26))+string(rune('0'+n/26)))
		if err := cp.WriteOffsets(b); err != nil {
			t.Fatal(err)
		}
		if err := cp.Commit(b); err != nil {
			t.Fatal(err)
		}
	}
	want := seenPaths(cp, "src")
	cp, err = Load(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	if cp.Committed != 34 {
		t.Errorf("committed %d, want 34", cp.Committed)
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
	meta := Meta{ID: "id-1", Flow: "f", Inputs: []string{"src", "up"}}
	if cp, err := Load(dir, meta); err != nil || cp.SaveMeta() != nil {
		t.Fatal(err)
	}
	old := compactRecord{Seen: map[string][]string{"src": {"file:/l/a.csv", "file:/l/b%20c.csv"}}, Versions: map[string]int64{"up": 7}}
	for _, f := range []string{"compact/9.json", "commits/9.json"} {
		if err := WriteJSON(filepath.Join(dir, f), old); err != nil {
			t.Fatal(err)
		}
	}
	cp, err := Load(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	if got := seenPaths(cp, "src"); cp.Committed != 9 || !slices.Equal(got, old.Seen["src"]) || cp.Versions["up"] != 7 {
		t.Fatalf("from the JSON record: committed %d, seen %v, versions %v", cp.Committed, got, cp.Versions)
	}
	for n := int64(10); n < 20; n++ {
		b := offsetsOf(n, "src", fmt.Sprintf("file:/l/n%d.csv", n))
		b.Inputs["up"] = Input{Versions: &VersionRange{From: 7 + n - 10, To: 8 + n - 10}}
		if err := cp.WriteOffsets(b); err != nil {
			t.Fatal(err)
		}
		if err := cp.Commit(b); err != nil {
			t.Fatal(err)
		}
	}
	want := seenPaths(cp, "src")
	compacts, err := compactions(dir)
	if err != nil || len(compacts) != 1 || compacts[0].path != filepath.Join(dir, "compact", "19"+seenExt) {
		t.Fatalf("compactions after batch 19: %v, %v; want compact/19.seen alone", compacts, err)
	}
	cp, err = Load(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	if got := seenPaths(cp, "src"); len(got) != 12 || !slices.Equal(got, want) || cp.Versions["up"] != 17 {
		t.Errorf("from the line record: seen %v, versions %v; want %v and up at 17", got, cp.Versions, want)
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
		cp, err := Load(dir, meta)
		if err != nil {
			t.Fatal(err)
		}
		if damage := strings.Join(cp.Damage, "; "); !strings.Contains(damage, tc.want) {
			t.Errorf("damaged record: damage %q, want one with %q", damage, tc.want)
		}
		if len(cp.Seen["src"]) != 0 {
			t.Errorf("damaged record: %d files seen, want none from a damaged record", len(cp.Seen["src"]))
		}
	}
}

func TestCheckpointTableVersions(t *testing.T) {
	dir := t.TempDir()
	cp, err := Load(dir, Meta{ID: "id-1", Flow: "f", Inputs: []string{"up"}})
	if err != nil || cp.SaveMeta() != nil {
		t.Fatal(err)
	}
	for i, r := range []VersionRange{{From: -1, To: 0}, {From: 0, To: 3}} {
		b := &Offsets{Batch: int64(i), Inputs: map[string]Input{"up": {Versions: &r}}}
		if err := cp.WriteOffsets(b); err != nil {
			t.Fatal(err)
		}
		if err := cp.Commit(b); err != nil {
			t.Fatal(err)
		}
	}
	cp, err = Load(dir, Meta{ID: "id-1", Flow: "f", Inputs: []string{"up"}})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := cp.Versions["up"]; !ok || v != 3 {
		t.Errorf("last read version of up = %d, %v; want 3", v, ok)
	}
}

// BenchmarkLoadCheckpoint10k loads the checkpoint of a flow that has read
// 10,000 files: its compacted processed-file record, what every update of
// a long-lived file source reads (make soak).
func BenchmarkLoadCheckpoint10k(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "flow")
	meta := Meta{ID: "id-1", Flow: "f", Inputs: []string{"src"}}
	cp, err := Load(dir, meta)
	if err != nil || cp.SaveMeta() != nil {
		b.Fatal(err)
	}
	for n := range int64(10000) {
		b := offsetsOf(n, "src", fmt.Sprintf("file:/data/landing/retail/day-%05d.csv", n))
		cp.apply(b)
	}
	cp.Committed = 9999
	if err := cp.compact(); err != nil {
		b.Fatal(err)
	}
	if err := WriteJSON(filepath.Join(dir, "commits", batchName(9999)), struct{}{}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		cp, err := Load(dir, meta)
		if err != nil || len(cp.Seen["src"]) != 10000 {
			b.Fatal(err)
		}
	}
}

// TestCheckpointRebuild replaces a damaged checkpoint by what the records
// of the table's commits say: the reloaded checkpoint is the rebuilt one,
// and the batches the records do not name are gone.
func TestCheckpointRebuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "flow")
	meta := Meta{ID: "id-1", Flow: "f", Inputs: []string{"src"}}
	cp, err := Load(dir, meta)
	if err != nil || cp.SaveMeta() != nil {
		t.Fatal(err)
	}
	for n := int64(0); n < 5; n++ {
		b := offsetsOf(n, "src", fmt.Sprintf("file:/l/old%d.csv", n))
		if err := cp.WriteOffsets(b); err != nil {
			t.Fatal(err)
		}
		if err := cp.Commit(b); err != nil {
			t.Fatal(err)
		}
	}
	recs := map[int64]*CommitRecord{}
	for n := int64(0); n < 3; n++ {
		recs[n] = &CommitRecord{Flow: "f", QueryID: "id-2", Batch: n, Inputs: offsetsOf(n, "src", fmt.Sprintf("file:/l/new%d.csv", n)).Inputs}
	}
	files, err := cp.Rebuild("id-2", recs)
	if err != nil || files != 3 {
		t.Fatalf("Rebuild = %d, %v; want 3 files", files, err)
	}
	cp, err = Load(dir, meta)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"file:/l/new0.csv", "file:/l/new1.csv", "file:/l/new2.csv"}
	if got := seenPaths(cp, "src"); cp.Meta.ID != "id-2" || cp.Committed != 2 || cp.Created || len(cp.Damage) > 0 || !slices.Equal(got, want) {
		t.Errorf("rebuilt checkpoint: id %q, committed %d, created %v, damage %v, seen %v; want id-2, 2, false, none, %v",
			cp.Meta.ID, cp.Committed, cp.Created, cp.Damage, got, want)
	}
	if offsets, _ := batchNumbers(filepath.Join(dir, "offsets"), ".json"); len(offsets) != 0 {
		t.Errorf("offsets %v left after a rebuild, want none", offsets)
	}
}
