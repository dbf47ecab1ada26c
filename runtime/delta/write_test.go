package delta_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

func notNullField(name string, t types.Type) types.Field { return types.Field{Name: name, Type: t} }

// writeSchema has every type pipegen writes, nested ones included, and two
// partition columns.
var writeSchema = types.Schema{
	notNullField("id", types.LongType),
	nullable("b", types.BooleanType),
	nullable("i8", types.ByteType),
	nullable("i16", types.ShortType),
	nullable("i32", types.IntType),
	nullable("f32", types.FloatType),
	nullable("f64", types.DoubleType),
	nullable("d9", types.DecimalOf(9, 2)),
	nullable("d18", types.DecimalOf(18, 4)),
	nullable("d38", types.DecimalOf(38, 10)),
	nullable("s", types.StringType),
	nullable("bin", types.BinaryType),
	nullable("day", types.DateType),
	nullable("at", types.TimestampType),
	nullable("tags", types.ArrayOf(types.StringType, true)),
	nullable("items", types.ArrayOf(types.StructOf(nullable("sku", types.StringType), notNullField("qty", types.IntType)), true)),
	nullable("attrs", types.MapOf(types.StringType, types.LongType, true)),
	nullable("addr", types.StructOf(nullable("city", types.StringType), nullable("geo", types.StructOf(nullable("lat", types.DoubleType), nullable("lon", types.DoubleType))))),
	nullable("region", types.StringType),
	nullable("pday", types.DateType),
}

var writePartitions = []string{"region", "pday"}

func ts(s string) types.Timestamp {
	tm, err := time.Parse("2006-01-02 15:04:05.999999", s)
	if err != nil {
		panic(err)
	}
	return types.TimestampOf(tm)
}

func day(s string) types.Date {
	tm, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return types.DateOf(tm)
}

func decimal(s string, scale int) types.Decimal {
	v, err := parquetio.ParsePartitionValue(s, types.DecimalOf(38, scale))
	if err != nil {
		panic(err)
	}
	return v.(types.Decimal)
}

// sampleRow returns a row of writeSchema for id, with NULLs and empty
// collections for some ids; region and pday are left to the partition.
func sampleRow(id int64) []any {
	if id%5 == 4 {
		row := make([]any, len(writeSchema))
		row[0] = id
		return row
	}
	items := []any{parquetio.Struct{"sku-" + string(rune('a'+id%26)), int32(id)}, nil, parquetio.Struct{nil, int32(-1)}}
	if id%3 == 0 {
		items = []any{}
	}
	return []any{
		id, id%2 == 0, int8(id - 100), int16(id * 300), int32(id * -70000), float32(id) / 4, float64(id) * 1.1e10,
		types.DecimalFromInt64(id * 12345), types.DecimalFromInt64(-id * 99990000), decimal("-1234567890123456789.0123456789", 10),
		"héllo " + strings.Repeat("x", int(id)), []byte{0, byte(id), 0xff}, day("2024-03-01") + types.Date(id), ts("2024-03-01 12:34:56.789") + types.Timestamp(id*1001),
		[]any{"a", nil, "c"}, items,
		[]parquetio.MapEntry{{Key: "k1", Value: id}, {Key: "k2", Value: nil}},
		parquetio.Struct{"Paris", parquetio.Struct{48.85, float64(id)}},
		nil, nil,
	}
}

// writeDataFile writes rows into a new data file of the table under its
// partition directory and returns its add action (writeStoreFile).
func writeDataFile(t *testing.T, table string, name string, pv delta.PartitionValues, rows [][]any) delta.Add {
	t.Helper()
	return writeStoreFile(t, table, name, pv, rows)
}

func rowsFor(ids []int64, pv delta.PartitionValues) [][]any {
	var out [][]any
	for _, id := range ids {
		r := sampleRow(id)
		for i, c := range writePartitions {
			v, _ := parquetio.ParsePartitionValue(pv[c], writeSchema[writeSchema.Index(c)].Type)
			r[len(writeSchema)-2+i] = v
		}
		out = append(out, r)
	}
	return out
}

func format(rows [][]any) []string {
	var out []string
	for _, r := range rows {
		out = append(out, parquetio.FormatRow(r, writeSchema))
	}
	slices.Sort(out)
	return out
}

// TestWriteReadCrossCheck writes a partitioned table with every type over
// several commits (appends, a txn, a file replacement, an overwrite) and
// checks that pipegen and DuckDB read each version as written.
func TestWriteReadCrossCheck(t *testing.T) {
	table := filepath.Join(t.TempDir(), "orders")
	eu := delta.PartitionValues{"region": "eu", "pday": "2024-03-01"}
	us := delta.PartitionValues{"region": "us west/1:a%b", "pday": ""}
	nul := delta.PartitionValues{"region": "", "pday": "2024-03-02"}

	meta, err := delta.NewMetadata(writeSchema, writePartitions, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	a1 := writeDataFile(t, table, "part-0.parquet", eu, rowsFor([]int64{1, 2, 3, 4}, eu))
	a2 := writeDataFile(t, table, "part-1.parquet", us, rowsFor([]int64{5, 6}, us))
	v, err := delta.Append(table, nil, []delta.Add{a1, a2}, delta.WriteOptions{Metadata: &meta})
	if err != nil || v != 0 {
		t.Fatalf("create: version %d, %v", v, err)
	}
	expected := map[int64][][]any{0: append(rowsFor([]int64{1, 2, 3, 4}, eu), rowsFor([]int64{5, 6}, us)...)}

	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	a3 := writeDataFile(t, table, "part-2.parquet", nul, rowsFor([]int64{7, 8, 9}, nul))
	if v, err = delta.Append(table, snap, []delta.Add{a3}, delta.WriteOptions{Txn: &delta.Txn{AppID: "flow-1", Version: 7}}); err != nil || v != 1 {
		t.Fatalf("append: version %d, %v", v, err)
	}
	expected[1] = append(slices.Clone(expected[0]), rowsFor([]int64{7, 8, 9}, nul)...)

	// Rewrite part-0 without ids 2 and 3 (a delete).
	snap, _ = delta.Load(table)
	a4 := writeDataFile(t, table, "part-3.parquet", eu, rowsFor([]int64{1, 4}, eu))
	if v, err = delta.ReplaceFiles(table, snap, []delta.Add{a1}, []delta.Add{a4}, delta.WriteOptions{Operation: "DELETE"}); err != nil || v != 2 {
		t.Fatalf("replace: version %d, %v", v, err)
	}
	expected[2] = append(append(rowsFor([]int64{1, 4}, eu), rowsFor([]int64{5, 6}, us)...), rowsFor([]int64{7, 8, 9}, nul)...)

	snap, _ = delta.Load(table)
	a5 := writeDataFile(t, table, "part-4.parquet", us, rowsFor([]int64{10, 11, 12, 13, 14}, us))
	if v, err = delta.Overwrite(table, snap, []delta.Add{a5}, delta.WriteOptions{}); err != nil || v != 3 {
		t.Fatalf("overwrite: version %d, %v", v, err)
	}
	expected[3] = rowsFor([]int64{10, 11, 12, 13, 14}, us)

	for version, rows := range expected {
		_, got := deltatest.PipegenRows(t, table, version)
		if want := format(rows); !slices.Equal(got, want) {
			t.Errorf("version %d: pipegen reads\n  %s\nwant\n  %s", version, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
		if duck := deltatest.DuckDBRows(t, table, version, writeSchema); !slices.Equal(duck, format(rows)) {
			t.Errorf("version %d: DuckDB reads\n  %s\nwant\n  %s", version, strings.Join(duck, "\n  "), strings.Join(format(rows), "\n  "))
		}
	}

	// The change feed of the DELETE (version 2): the rewritten file's rows
	// as deletes, the new file's as inserts, partition values included.
	changes, err := delta.ReadChangeFeed(table, 2, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, c := range changes {
		kinds = append(kinds, itoa(c[0].(int64))+" "+c[len(writeSchema)].(string)+" "+c[len(writeSchema)-2].(string))
	}
	slices.Sort(kinds)
	if want := []string{"1 delete eu", "1 insert eu", "2 delete eu", "3 delete eu", "4 delete eu", "4 insert eu"}; !slices.Equal(kinds, want) {
		t.Errorf("change feed of version 2: %q, want %q", kinds, want)
	}

	snap, _ = delta.Load(table)
	if v, ok := snap.TxnVersion("flow-1"); !ok || v != 7 {
		t.Errorf("txn flow-1 = %d, %v", v, ok)
	}
	commits, err := delta.ReadCommits(table, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	var summary []string
	for _, c := range commits {
		txn, _ := c.Txn("flow-1")
		summary = append(summary, strings.Join([]string{itoa(c.Version), itoa(int64(len(c.Adds()))), boolStr(c.AppendOnly()), itoa(txn.Version)}, " "))
	}
	if want := []string{"1 1 true 7", "2 1 false 0", "3 1 false 0"}; !slices.Equal(summary, want) {
		t.Errorf("commits after 0 (version adds appendOnly txn): %q, want %q", summary, want)
	}
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestCommitFormat(t *testing.T) {
	table := t.TempDir()
	s := types.Schema{nullable("a", types.IntType), nullable("p", types.StringType)}
	meta, _ := delta.NewMetadata(s, []string{"p"}, map[string]string{"delta.appendOnly": "true"}, time.UnixMilli(1700000000000))
	add := delta.Add{Path: delta.EncodePath("p=x y/f 1.parquet"), PartitionValues: delta.PartitionValues{"p": ""}, Size: 10, ModificationTime: 5, DataChange: true, Stats: `{"numRecords":1}`}
	if _, err := delta.Append(table, nil, []delta.Add{add}, delta.WriteOptions{Metadata: &meta, Now: time.UnixMilli(1700000000001)}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(delta.CommitPath(table, 0))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	want := []string{
		`{"commitInfo":{"timestamp":1700000000001,"operation":"WRITE","operationParameters":{"mode":"Append","partitionBy":"[\"p\"]"},"isolationLevel":"Serializable","isBlindAppend":true,"engineInfo":"` + delta.EngineInfo + `"}}`,
		`{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}`,
		`{"metaData":{"id":"` + meta.ID + `","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}},{\"name\":\"p\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":["p"],"configuration":{"delta.appendOnly":"true"},"createdTime":1700000000000}}`,
		`{"add":{"path":"p=x%20y/f%201.parquet","partitionValues":{"p":null},"size":10,"modificationTime":5,"dataChange":true,"stats":"{\"numRecords\":1}"}}`,
	}
	if !slices.Equal(lines, want) {
		t.Errorf("commit 0:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if len(meta.ID) != 36 || strings.Count(meta.ID, "-") != 4 {
		t.Errorf("metadata id %q is not a UUID", meta.ID)
	}
	// The first commit of a table must carry protocol and metadata.
	if _, err := delta.Commit(t.TempDir(), -1, []delta.Action{{Add: &add}}); err == nil {
		t.Error("first commit without protocol and metaData accepted")
	}
	// Only temporary files of failed commits may stay behind, hidden.
	entries, _ := os.ReadDir(filepath.Join(table, "_delta_log"))
	for _, e := range entries {
		if e.Name() != "00000000000000000000.json" && e.Name() != "00000000000000000000.crc" {
			t.Errorf("unexpected file %s in _delta_log", e.Name())
		}
	}
}

func TestCommitConflict(t *testing.T) {
	table := t.TempDir()
	meta, _ := delta.NewMetadata(types.Schema{nullable("a", types.IntType)}, nil, nil, time.Now())
	if _, err := delta.Append(table, nil, nil, delta.WriteOptions{Metadata: &meta}); err != nil {
		t.Fatal(err)
	}
	// Many writers race for version 1: exactly one wins, the others get a
	// ConflictError and the winner's commit is intact.
	const writers = 8
	var wg sync.WaitGroup
	results := make([]error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			add := delta.Add{Path: "f" + itoa(int64(i)), Size: 1, DataChange: true}
			_, results[i] = delta.Commit(table, 0, []delta.Action{{Add: &add}})
		}()
	}
	wg.Wait()
	wins := 0
	winner := -1
	for i, err := range results {
		var ce *delta.ConflictError
		switch {
		case err == nil:
			wins++
			winner = i
		case errors.Is(err, delta.ErrConflict) && errors.As(err, &ce) && ce.Version == 1 && ce.Table == table:
		default:
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d writers won version 1, want 1", wins)
	}
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Version != 1 || len(snap.Files) != 1 || snap.Files[0].Path != "f"+itoa(int64(winner)) {
		t.Errorf("after the race: version %d, files %v; winner %d", snap.Version, snap.Files, winner)
	}
	entries, _ := os.ReadDir(filepath.Join(table, "_delta_log"))
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".crc") {
			names = append(names, e.Name())
		}
	}
	if len(names) != 2 {
		t.Errorf("_delta_log holds %v, want the 2 commits and checksums (temporary files removed)", names)
	}
	// A stale snapshot cannot replace files that another commit removed.
	stale, _ := delta.LoadVersion(table, 0)
	if _, err := delta.Append(table, stale, nil, delta.WriteOptions{}); !errors.Is(err, delta.ErrConflict) {
		t.Errorf("commit on a stale snapshot: err = %v, want ErrConflict", err)
	}
	if _, err := delta.ReplaceFiles(table, snap, []delta.Add{{Path: "nope"}}, nil, delta.WriteOptions{}); err == nil {
		t.Error("removing a file that is not live was accepted")
	}
}

func TestSchemaJSON(t *testing.T) {
	s := append(slices.Clone(writeSchema),
		types.Field{Name: "n", Type: types.TimestampNTZType, Nullable: true, Comment: `a "quoted" comment`},
		types.Field{Name: "m", Type: types.MapOf(types.IntType, types.ArrayOf(types.DecimalOf(5, 1), false), false), Nullable: false},
	)
	back, err := delta.ParseSchema(delta.SchemaString(s))
	if err != nil {
		t.Fatal(err)
	}
	if !types.StructOf(back...).Equal(types.StructOf(s...)) || back[len(back)-2].Comment != `a "quoted" comment` {
		t.Errorf("round trip:\n got %s\nwant %s", back, types.Schema(s))
	}
	// Spark's schema strings come back byte for byte.
	logs, _ := filepath.Glob(filepath.Join(tables, "*", "*", "_delta_log", "00000000000000000000.json"))
	more, _ := filepath.Glob(filepath.Join(tables, "dat", "*", "delta", "_delta_log", "00000000000000000000.json"))
	n := 0
	for _, l := range append(logs, more...) {
		table := filepath.Dir(filepath.Dir(l))
		snap, err := delta.LoadVersion(table, 0)
		if engineTableOutcomes[strings.TrimPrefix(filepath.ToSlash(table), tables+"/")].refused != "" {
			continue // refused tables: TestEngineTables
		}
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(snap.Metadata.SchemaString, `"delta.`) {
			continue // field metadata of column mapping, identity columns, type widening: not kept by ParseSchema
		}
		if got := delta.SchemaString(snap.Schema); got != snap.Metadata.SchemaString {
			t.Errorf("%s: schema string\n got %s\nwant %s", table, got, snap.Metadata.SchemaString)
		}
		n++
	}
	if n < 10 {
		t.Errorf("checked %d schema strings", n)
	}
	for _, bad := range []string{`{"type":"struct","fields":[{"name":"a","type":"uuid"}]}`, `[]`, `{"type":"array"}`} {
		if _, err := delta.ParseSchema(bad); err == nil {
			t.Errorf("ParseSchema(%s) accepted", bad)
		}
	}
}

func TestPartitionPath(t *testing.T) {
	got := delta.PartitionPath([]string{"a", "b", "c"}, delta.PartitionValues{"a": "x/y:z", "b": "", "c": "2024-01-01 10:00:00"})
	if want := "a=x%2Fy%3Az/b=__HIVE_DEFAULT_PARTITION__/c=2024-01-01 10%3A00%3A00"; got != want {
		t.Errorf("PartitionPath = %s, want %s", got, want)
	}
	if got := delta.EncodePath(got + "/part 0.parquet"); got != "a=x%252Fy%253Az/b=__HIVE_DEFAULT_PARTITION__/c=2024-01-01%2010%253A00%253A00/part%200.parquet" {
		t.Errorf("EncodePath = %s", got)
	}
}

// TestRemoveCarriesExtendedFileMetadata: a remove that says
// extendedFileMetadata=true carries partitionValues (an empty object for an
// unpartitioned table) and size, as the protocol requires of it.
func TestRemoveCarriesExtendedFileMetadata(t *testing.T) {
	for _, parts := range [][]string{nil, {"p"}} {
		table := t.TempDir()
		s := types.Schema{nullable("a", types.IntType), nullable("p", types.StringType)}
		meta, _ := delta.NewMetadata(s, parts, nil, time.Now())
		pv := delta.PartitionValues{}
		path := "f.parquet"
		if parts != nil {
			pv, path = delta.PartitionValues{"p": "x"}, "p=x/f.parquet"
		}
		add := delta.Add{Path: path, PartitionValues: pv, Size: 10, DataChange: true}
		if _, err := delta.Append(table, nil, []delta.Add{add}, delta.WriteOptions{Metadata: &meta}); err != nil {
			t.Fatal(err)
		}
		snap, err := delta.Load(table)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := delta.Overwrite(table, snap, nil, delta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(delta.CommitPath(table, 1))
		if err != nil {
			t.Fatal(err)
		}
		want := `"dataChange":true,"extendedFileMetadata":true,"partitionValues":{},"size":10}`
		if parts != nil {
			want = `"dataChange":true,"extendedFileMetadata":true,"partitionValues":{"p":"x"},"size":10}`
		}
		if !strings.Contains(string(data), want) {
			t.Errorf("partition columns %v: the remove does not end with %s:\n%s", parts, want, data)
		}
	}
}
