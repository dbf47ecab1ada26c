package delta_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/delta"
)

// dvSource is a Spark table of one file of ids 0..49 whose rows were
// deleted by three successive DELETEs, each a deletion vector file.
var dvSource = filepath.Join(tables, "kernel-golden", "log-replay-dv-key-cases", "delta")

const dvDataFile = "part-00000-90177277-75c2-48db-92a2-20dcba39fd06-c000.snappy.parquet"

// dvTable writes a table of dvSource's data file with the deletion vector
// dv (JSON) on its add, and returns its directory.
func dvTable(t *testing.T, dv string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(dvSource, dvDataFile))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, dvDataFile), data, 0o644)
	os.MkdirAll(delta.LogDir(dir), 0o755)
	log := `{"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["deletionVectors"],"writerFeatures":["deletionVectors"]}}
{"metaData":{"id":"x","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{}}}
{"add":{"path":"` + dvDataFile + `","partitionValues":{},"size":765,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":50}","deletionVector":` + dv + `}}
`
	if err := os.WriteFile(delta.CommitPath(dir, 0), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// idsOf reads the ids of a table of dvSource's shape.
func idsOf(t *testing.T, table string) ([]int, error) {
	t.Helper()
	snap, err := delta.Load(table)
	if err != nil {
		return nil, err
	}
	rows, err := snap.ReadAll(nil)
	if err != nil {
		return nil, err
	}
	var ids []int
	for _, r := range rows {
		ids = append(ids, int(r[0].(int64)))
	}
	slices.Sort(ids)
	return ids, nil
}

func idsExcept(deleted ...int) []int {
	var out []int
	for i := 0; i < 50; i++ {
		if !slices.Contains(deleted, i) {
			out = append(out, i)
		}
	}
	return out
}

// latestDV returns the deletion vector of dvSource's live file.
func latestDV(t *testing.T) delta.DeletionVector {
	t.Helper()
	snap, err := delta.Load(dvSource)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Files) != 1 || snap.Files[0].DeletionVector == nil {
		t.Fatalf("files %+v, want one with a deletion vector", snap.Files)
	}
	return *snap.Files[0].DeletionVector
}

func dvJSON(t *testing.T, dv delta.DeletionVector) string {
	b, err := json.Marshal(dv)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDeletionVectorStorageTypes(t *testing.T) {
	// The table's own replay: the three DELETEs (each a new vector
	// replacing the file's previous one) leave a vector of cardinality 3.
	want, err := idsOf(t, dvSource)
	if err != nil {
		t.Fatal(err)
	}
	dv := latestDV(t)
	if dv.Cardinality != 3 || len(want) != 47 {
		t.Fatalf("cardinality %d, %d rows; want 3 and 47", dv.Cardinality, len(want))
	}
	file, err := dv.File(dvSource)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("uuid", func(t *testing.T) {
		dir := dvTable(t, dvJSON(t, dv))
		os.WriteFile(filepath.Join(dir, filepath.Base(file)), bin, 0o644)
		if got, err := idsOf(t, dir); err != nil || !slices.Equal(got, want) {
			t.Errorf("ids %v, %v; want %v", got, err, want)
		}
	})
	t.Run("uuid with prefix", func(t *testing.T) {
		// A random prefix before the encoded UUID is a folder of the table.
		p := dv
		p.PathOrInlineDv = "ab" + dv.PathOrInlineDv
		dir := dvTable(t, dvJSON(t, p))
		os.MkdirAll(filepath.Join(dir, "ab"), 0o755)
		os.WriteFile(filepath.Join(dir, "ab", filepath.Base(file)), bin, 0o644)
		if got, err := idsOf(t, dir); err != nil || !slices.Equal(got, want) {
			t.Errorf("ids %v, %v; want %v", got, err, want)
		}
		// Without the file in the prefix folder the read fails.
		os.Remove(filepath.Join(dir, "ab", filepath.Base(file)))
		os.WriteFile(filepath.Join(dir, filepath.Base(file)), bin, 0o644)
		if _, err := idsOf(t, dir); err == nil || !strings.Contains(err.Error(), filepath.Join("ab", filepath.Base(file))) {
			t.Errorf("missing prefixed vector file: err = %v", err)
		}
	})
	t.Run("absolute path", func(t *testing.T) {
		elsewhere := filepath.Join(t.TempDir(), "dv file.bin")
		os.WriteFile(elsewhere, bin, 0o644)
		p := dv
		p.StorageType, p.PathOrInlineDv = "p", "file://"+strings.ReplaceAll(elsewhere, " ", "%20")
		if got, err := idsOf(t, dvTable(t, dvJSON(t, p))); err != nil || !slices.Equal(got, want) {
			t.Errorf("ids %v, %v; want %v", got, err, want)
		}
	})
	t.Run("inline", func(t *testing.T) {
		// The protocol's example of an inline vector ("JSON Example 3"):
		// the rows 3, 4, 7, 11, 18 and 29.
		dir := dvTable(t, `{"storageType":"i","pathOrInlineDv":"wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L","sizeInBytes":40,"cardinality":6}`)
		if got, err := idsOf(t, dir); err != nil || !slices.Equal(got, idsExcept(3, 4, 7, 11, 18, 29)) {
			t.Errorf("ids %v, %v", got, err)
		}
	})
	t.Run("corrupt", func(t *testing.T) {
		bad := slices.Clone(bin)
		bad[len(bad)-5] ^= 0xFF // a byte of the bitmap, before the CRC
		dir := dvTable(t, dvJSON(t, dv))
		os.WriteFile(filepath.Join(dir, filepath.Base(file)), bad, 0o644)
		if _, err := idsOf(t, dir); err == nil || !strings.Contains(err.Error(), "checksum") || !strings.Contains(err.Error(), dir) {
			t.Errorf("corrupt vector: err = %v, want a checksum error naming the table", err)
		}
		// A descriptor whose cardinality disagrees with the bitmap.
		c := dv
		c.Cardinality = 4
		dir = dvTable(t, dvJSON(t, c))
		os.WriteFile(filepath.Join(dir, filepath.Base(file)), bin, 0o644)
		if _, err := idsOf(t, dir); err == nil || !strings.Contains(err.Error(), "cardinality 4") {
			t.Errorf("wrong cardinality: err = %v", err)
		}
		// A size that runs past the end of the file.
		s := dv
		s.SizeInBytes = int32(len(bin))
		dir = dvTable(t, dvJSON(t, s))
		os.WriteFile(filepath.Join(dir, filepath.Base(file)), bin, 0o644)
		if _, err := idsOf(t, dir); err == nil || !strings.Contains(err.Error(), "ends before") {
			t.Errorf("size past the end: err = %v", err)
		}
		if _, err := idsOf(t, dvTable(t, `{"storageType":"x","pathOrInlineDv":"","sizeInBytes":1,"cardinality":1}`)); err == nil || !strings.Contains(err.Error(), `storage type "x"`) {
			t.Errorf("unknown storage type: err = %v", err)
		}
	})
}

// TestDeletionVectorReconciliation: the add of a file with a new vector
// and the remove of the same file with its old vector may come in either
// order in a commit; the logical file is (path, vector id).
func TestDeletionVectorReconciliation(t *testing.T) {
	table := copyTable(t, dvSource)
	for v := int64(1); v <= 3; v++ {
		data, err := os.ReadFile(delta.CommitPath(table, v))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		slices.Reverse(lines)
		os.WriteFile(delta.CommitPath(table, v), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	}
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Files) != 1 || snap.Files[0].DeletionVector.Cardinality != 3 {
		t.Fatalf("files %+v, want the file once, with the vector of cardinality 3", snap.Files)
	}
	// A streaming reader sees each DELETE as a change that is not an append.
	for v := int64(1); v <= 3; v++ {
		c, err := delta.ReadCommit(dvSource, v)
		if err != nil {
			t.Fatal(err)
		}
		if c.AppendOnly() {
			t.Errorf("commit %d (a DELETE with a deletion vector) reported append-only", v)
		}
	}
	// Even without the remove of the file's previous version.
	c, _ := delta.ReadCommit(dvSource, 3)
	var adds []delta.Action
	for _, a := range c.Actions {
		if a.Remove == nil {
			adds = append(adds, a)
		}
	}
	if (delta.CommitEntry{Actions: adds}).AppendOnly() {
		t.Error("an add with a deletion vector and dataChange=true reported append-only")
	}
	_ = strconv.Itoa
}
