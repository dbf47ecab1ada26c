package delta_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// buildLongTable writes a partitioned table of n+1 commits through the
// package's writers: version 0 creates it, every later version appends a
// file; version 7 carries a txn, version 12 deletes the file of version 3
// and version 15 changes the table's configuration.
func buildLongTable(t *testing.T, table string, n int, conf map[string]string) {
	t.Helper()
	eu := delta.PartitionValues{"region": "eu", "pday": "2024-03-01"}
	meta, err := delta.NewMetadata(writeSchema, writePartitions, conf, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := delta.Append(table, nil, nil, delta.WriteOptions{Metadata: &meta}); err != nil {
		t.Fatal(err)
	}
	var third delta.Add
	for v := 1; v <= n; v++ {
		snap, err := delta.Load(table)
		if err != nil {
			t.Fatal(err)
		}
		if snap.Version != int64(v-1) {
			t.Fatalf("latest version %d, want %d", snap.Version, v-1)
		}
		switch v {
		case 12:
			_, err = delta.ReplaceFiles(table, snap, []delta.Add{third}, nil, delta.WriteOptions{Operation: "DELETE"})
		case 15:
			m := snap.Metadata
			m.Configuration = map[string]string{"quality": "gold"}
			for k, v := range conf {
				m.Configuration[k] = v
			}
			_, err = delta.Append(table, snap, nil, delta.WriteOptions{Metadata: &m, Operation: "SET TBLPROPERTIES"})
		default:
			add := writeDataFile(t, table, fmt.Sprintf("part-%03d.parquet", v), eu, rowsFor([]int64{int64(v)}, eu))
			if v == 3 {
				third = add
			}
			opts := delta.WriteOptions{}
			if v == 7 {
				opts.Txn = &delta.Txn{AppID: "flow-a", Version: 41}
			}
			_, err = delta.Append(table, snap, []delta.Add{add}, opts)
		}
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
	}
}

// describe renders what a snapshot holds, for comparisons.
func describe(s *delta.Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "version %d protocol %d/%d id %s schema %s partitions %v conf %v\n", s.Version,
		s.Protocol.MinReaderVersion, s.Protocol.MinWriterVersion, s.Metadata.ID, s.Schema, s.Metadata.PartitionColumns, s.Metadata.Configuration)
	for _, f := range s.Files {
		fmt.Fprintf(&b, "add %s %v %d %d %s\n", f.Path, map[string]string(f.PartitionValues), f.Size, f.ModificationTime, f.Stats)
	}
	var txns []string
	for k, v := range s.Txns {
		txns = append(txns, fmt.Sprintf("txn %s %d", k, v))
	}
	slices.Sort(txns)
	b.WriteString(strings.Join(txns, "\n"))
	return b.String()
}

// jsonOnly copies a table without its checkpoints: what a replay of the
// JSON commits alone gives.
func jsonOnly(t *testing.T, table string) string {
	t.Helper()
	dst := copyTable(t, table)
	entries, _ := os.ReadDir(filepath.Join(dst, "_delta_log"))
	for _, e := range entries {
		if strings.Contains(e.Name(), "checkpoint") {
			os.Remove(filepath.Join(dst, "_delta_log", e.Name()))
		}
	}
	return dst
}

// TestCheckpointEveryTenCommits writes 25 commits and checks that
// checkpoints exist at versions 10 and 20 only, that `_last_checkpoint`
// names 20, and that a snapshot read through the checkpoint equals the
// replay of the JSON commits, even once the commits it covers are gone
// (overwritten with garbage: a reader that opened them would fail).
func TestCheckpointEveryTenCommits(t *testing.T) {
	table := filepath.Join(t.TempDir(), "long")
	buildLongTable(t, table, 25, nil)
	var cps []string
	entries, _ := os.ReadDir(delta.LogDir(table))
	for _, e := range entries {
		if strings.Contains(e.Name(), "checkpoint.parquet") {
			cps = append(cps, e.Name())
		}
	}
	if want := []string{"00000000000000000010.checkpoint.parquet", "00000000000000000020.checkpoint.parquet"}; !slices.Equal(cps, want) {
		t.Fatalf("checkpoints %v, want %v", cps, want)
	}
	lc, ok, err := delta.ReadLastCheckpoint(table)
	if err != nil || !ok {
		t.Fatalf("_last_checkpoint: %v %v", ok, err)
	}
	// Versions 1..20: 18 files added, one of them deleted (a tombstone),
	// protocol, metadata, one txn.
	if lc.Version != 20 || lc.NumOfAddFiles != 17 || lc.Size != 17+1+1+1+1 || lc.SizeInBytes <= 0 {
		t.Errorf("_last_checkpoint = %+v, want version 20, 17 adds, 21 actions", lc)
	}

	want, err := delta.LoadVersion(jsonOnly(t, table), 25)
	if err != nil {
		t.Fatal(err)
	}
	got, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	if describe(got) != describe(want) {
		t.Errorf("through the checkpoint:\n%s\nJSON replay:\n%s", describe(got), describe(want))
	}
	// Commits 0..20 unreadable: a fresh reader (another path, so not this
	// process's cache) must take the checkpoint and commits 21..25 only.
	moved := copyTable(t, table)
	for v := int64(0); v < 20; v++ {
		os.WriteFile(delta.CommitPath(moved, v), []byte("garbage"), 0o644)
	}
	fresh, err := delta.Load(moved)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ReplaceAll(describe(fresh), moved, table) != describe(want) {
		t.Errorf("fresh reader through the checkpoint:\n%s\nJSON replay:\n%s", describe(fresh), describe(want))
	}
	// LoadMetadata: the same snapshot without its files, from version
	// 25's checksum file, or without one from the checkpoint's protocol,
	// metaData and txn columns.
	wantMeta := *want
	wantMeta.Files = nil
	other := copyTable(t, moved)
	noSums := copyTable(t, moved)
	os.Remove(delta.ChecksumPath(noSums, 25))
	for name, dir := range map[string]string{"from the checksum": other, "from the checkpoint": noSums} {
		meta, err := delta.LoadMetadata(dir)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ReplaceAll(describe(meta), dir, table) != describe(&wantMeta) || meta.Files != nil {
			t.Errorf("LoadMetadata %s:\n%s\nwant:\n%s", name, describe(meta), describe(&wantMeta))
		}
	}
	if v, err := delta.LatestVersion(moved); err != nil || v != 25 {
		t.Errorf("latest version %d, %v; want 25", v, err)
	}
	_, rows := deltatest.PipegenRows(t, moved, -1)
	var ids []string
	for v := 1; v <= 25; v++ {
		if v != 3 && v != 12 && v != 15 {
			ids = append(ids, format(rowsFor([]int64{int64(v)}, delta.PartitionValues{"region": "eu", "pday": "2024-03-01"}))...)
		}
	}
	slices.Sort(ids)
	if !slices.Equal(rows, ids) {
		t.Errorf("rows through the checkpoint:\n  %s\nwant\n  %s", strings.Join(rows, "\n  "), strings.Join(ids, "\n  "))
	}
}

// TestVersionChecksums checks the checksum file beside every commit
// against a replay of the JSON commits (files, bytes, txns, metadata), that
// a table written without checksums gets them again from its next
// checkpoint on, and that a damaged checksum is ignored by LoadMetadata.
func TestVersionChecksums(t *testing.T) {
	table := filepath.Join(t.TempDir(), "long")
	buildLongTable(t, table, 25, nil)
	replay := jsonOnly(t, table)
	check := func(table string, from, to int64) {
		t.Helper()
		for v := from; v <= to; v++ {
			sum, ok := delta.ReadChecksum(table, v)
			if !ok {
				t.Errorf("version %d: no usable checksum file", v)
				continue
			}
			snap, err := delta.LoadVersion(replay, v)
			if err != nil {
				t.Fatal(err)
			}
			if d := deltatest.ChecksumDiff(sum, snap); d != "" {
				t.Errorf("version %d: %s", v, d)
			}
		}
	}
	check(table, 0, 25)

	// Without checksums (a table written by an older pipegen), commits
	// get none until the checkpoint at 30 writes one; the chain goes on.
	entries, _ := os.ReadDir(delta.LogDir(table))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".crc") {
			os.Remove(filepath.Join(delta.LogDir(table), e.Name()))
		}
	}
	bare := copyTable(t, table) // another path: not this process's cached state
	eu := delta.PartitionValues{"region": "eu", "pday": "2024-03-01"}
	for v := 26; v <= 32; v++ {
		snap, err := delta.LoadMetadata(bare)
		if err != nil {
			t.Fatal(err)
		}
		add := writeDataFile(t, bare, fmt.Sprintf("part-%03d.parquet", v), eu, rowsFor([]int64{int64(v)}, eu))
		if _, err := delta.Append(bare, snap, []delta.Add{add}, delta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, ok := delta.ReadChecksum(bare, int64(v)); ok != (v >= 30) {
			t.Errorf("version %d: checksum present %v, want %v", v, ok, v >= 30)
		}
	}
	replay = jsonOnly(t, bare)
	check(bare, 30, 32)

	// A damaged checksum is ignored.
	if err := os.WriteFile(delta.ChecksumPath(bare, 32), []byte(`{"tableSizeBytes":1,"numFiles":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	damaged := copyTable(t, bare)
	meta, err := delta.LoadMetadata(damaged)
	if err != nil || meta.Version != 32 || meta.Metadata.Configuration["quality"] != "gold" {
		t.Errorf("LoadMetadata with a damaged checksum: %+v, %v", meta, err)
	}
}

// TestCheckpointReadByDuckDB reads pipegen's checkpoint with DuckDB's
// Parquet reader (an independent implementation) and checks that its add,
// txn, metaData and protocol actions are the snapshot's.
func TestCheckpointReadByDuckDB(t *testing.T) {
	table := filepath.Join(t.TempDir(), "long")
	buildLongTable(t, table, 10, nil)
	snap, err := delta.LoadVersion(jsonOnly(t, table), 10)
	if err != nil {
		t.Fatal(err)
	}
	str := types.StringType
	schema := types.Schema{nullable("kind", str), nullable("a", str), nullable("b", str)}
	got := deltatest.QueryRows(t, delta.LogDir(table), `
		SELECT 'add' AS kind, add.path AS a, CAST(add.size AS VARCHAR) || ' ' || add.stats || ' ' || CAST(add.partitionValues AS VARCHAR) AS b
		FROM read_parquet('00000000000000000010.checkpoint.parquet') WHERE add IS NOT NULL
		UNION ALL SELECT 'txn', txn.appId, CAST(txn.version AS VARCHAR) FROM read_parquet('00000000000000000010.checkpoint.parquet') WHERE txn IS NOT NULL
		UNION ALL SELECT 'metaData', metaData.id, metaData.schemaString FROM read_parquet('00000000000000000010.checkpoint.parquet') WHERE metaData IS NOT NULL
		UNION ALL SELECT 'protocol', CAST(protocol.minReaderVersion AS VARCHAR), CAST(protocol.minWriterVersion AS VARCHAR)
		FROM read_parquet('00000000000000000010.checkpoint.parquet') WHERE protocol IS NOT NULL`, schema)
	var want []string
	row := func(kind, a, b string) string { return fmt.Sprintf("%s | %s | %s", kind, a, b) }
	for _, f := range snap.Files {
		want = append(want, row("add", f.Path, fmt.Sprintf("%d %s {pday=2024-03-01, region=eu}", f.Size, f.Stats)))
	}
	want = append(want, row("txn", "flow-a", "41"), row("metaData", snap.Metadata.ID, snap.Metadata.SchemaString),
		row("protocol", "1", "2"))
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("DuckDB reads the checkpoint as\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestCheckpointSchemaIsSparks compares the Parquet schema of pipegen's
// checkpoint with the one Spark (Delta 3) wrote in the golden table: the
// same columns, nesting, physical types and repetition.
func TestCheckpointSchemaIsSparks(t *testing.T) {
	table := filepath.Join(t.TempDir(), "long")
	buildLongTable(t, table, 10, nil)
	leaves := func(path string) []string {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		st, _ := f.Stat()
		pf, err := parquet.OpenFile(f, st.Size())
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		var walk func(prefix string, n parquet.Node)
		walk = func(prefix string, n parquet.Node) {
			for _, fl := range n.Fields() {
				rep := "optional"
				if fl.Required() {
					rep = "required"
				} else if fl.Repeated() {
					rep = "repeated"
				}
				p := prefix + "/" + fl.Name()
				if fl.Leaf() {
					out = append(out, fmt.Sprintf("%s %s %s", p, rep, fl.Type().Kind()))
				} else {
					out = append(out, p+" "+rep)
					walk(p, fl)
				}
			}
		}
		walk("", pf.Schema())
		return out
	}
	ours := leaves(filepath.Join(delta.LogDir(table), "00000000000000000010.checkpoint.parquet"))
	sparks := leaves(filepath.Join(tables, "delta-golden/checkpoint/_delta_log/00000000000000000010.checkpoint.parquet"))
	if !slices.Equal(ours, sparks) {
		t.Errorf("checkpoint schema\n  %s\nSpark's\n  %s", strings.Join(ours, "\n  "), strings.Join(sparks, "\n  "))
	}
}

// TestCheckpointTombstones keeps a removed file's tombstone in the
// checkpoint while it is younger than delta.deletedFileRetentionDuration.
func TestCheckpointTombstones(t *testing.T) {
	table := filepath.Join(t.TempDir(), "long")
	buildLongTable(t, table, 20, map[string]string{delta.DeletedFileRetentionProperty: "interval 1 hours"})
	removes := func() []string {
		var out []string
		for _, r := range readCheckpointRows(t, filepath.Join(delta.LogDir(table), "00000000000000000020.checkpoint.parquet")) {
			if r[2] != nil {
				out = append(out, fmt.Sprint(r[2].(parquetio.Struct)[0]))
			}
		}
		return out
	}
	if got := removes(); len(got) != 1 || !strings.HasSuffix(got[0], "part-003.parquet") {
		t.Errorf("tombstones %v, want part-003's", got)
	}
	if _, err := delta.WriteCheckpoint(table, 20, time.Now().Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got := removes(); len(got) != 0 {
		t.Errorf("expired tombstones kept: %v", got)
	}
}

// TestCleanupExpiredLogs ages part of the log and checks that only the
// versions before the newest checkpoint preceded by expired files go.
func TestCleanupExpiredLogs(t *testing.T) {
	table := filepath.Join(t.TempDir(), "long")
	buildLongTable(t, table, 25, nil)
	now := time.Now()
	age := func(upTo int64) {
		old := now.Add(-40 * 24 * time.Hour)
		entries, _ := os.ReadDir(delta.LogDir(table))
		for _, e := range entries {
			var v int64
			if _, err := fmt.Sscanf(e.Name(), "%020d", &v); err == nil && v <= upTo {
				os.Chtimes(filepath.Join(delta.LogDir(table), e.Name()), old, old)
			}
		}
	}
	age(14)
	removed, err := delta.CleanupExpiredLogs(table, delta.DefaultLogRetention, now, false)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range removed {
		names = append(names, filepath.Base(p))
	}
	var want []string
	for v := 0; v < 10; v++ {
		want = append(want, fmt.Sprintf("%020d.crc", v), fmt.Sprintf("%020d.json", v))
	}
	if !slices.Equal(names, want) {
		t.Errorf("removed %v, want commits 0..9 and their checksums", names)
	}
	for _, v := range []int64{10, 14, 20, 25} {
		if _, err := delta.LoadVersion(table, v); err != nil {
			t.Errorf("version %d after cleanup: %v", v, err)
		}
	}
	if _, err := delta.LoadVersion(table, 9); err == nil {
		t.Error("version 9 still loads after its commits were cleaned up")
	}
	// With the whole log expired, everything before checkpoint 20 goes,
	// checkpoint 10 included; nothing that is not expired does.
	age(25)
	removed, err = delta.CleanupExpiredLogs(table, delta.DefaultLogRetention, now, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 21 || !strings.HasSuffix(removed[0], "00000000000000000010.checkpoint.parquet") {
		t.Errorf("second cleanup removed %v, want checkpoint 10 and commits 10..19 with their checksums", removed)
	}
	if snap, err := delta.LoadVersion(table, 25); err != nil || len(snap.Files) != 22 {
		t.Errorf("latest after cleanup: %v", err)
	}
}

func TestParseInterval(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"interval 1 week": 7 * 24 * time.Hour, "interval 30 days": 30 * 24 * time.Hour, "interval 168 hours": 168 * time.Hour,
		"INTERVAL 2 minutes 3 seconds": 2*time.Minute + 3*time.Second, "1 day": 24 * time.Hour,
	} {
		if got, err := delta.ParseInterval(in); err != nil || got != want {
			t.Errorf("ParseInterval(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "interval", "interval x days", "interval 3 fortnights"} {
		if _, err := delta.ParseInterval(in); err == nil {
			t.Errorf("ParseInterval(%q) accepted", in)
		}
	}
}
