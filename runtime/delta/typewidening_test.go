package delta_test

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// addRows writes rows of schema s into a new data file of the table and
// returns its add action (with statistics).
func addRows(t *testing.T, table, name string, s types.Schema, rows [][]any) delta.Add {
	t.Helper()
	return delta.NewAdd(name, nil, writeRows(t, table, name, s, rows), time.Now())
}

// TestTypeWideningWrite widens four columns of a table by a metaData
// action (protocol, "Type Widening": INT → BIGINT, DATE → TIMESTAMP_NTZ,
// DECIMAL(6,2) → DECIMAL(10,3), FLOAT → DOUBLE) and appends a file of the
// wide types: the commit carries a protocol (3, 7) with typeWidening in
// both feature lists and the property delta.enableTypeWidening, each
// column's delta.typeChanges records fromType/toType, the old file is not
// rewritten, and both pipegen and DuckDB read its values converted to the
// new types; statistics of the old file (in the old types) still prune.
func TestTypeWideningWrite(t *testing.T) {
	narrow := types.Schema{
		nullable("id", types.IntType), nullable("d", types.DateType),
		nullable("amt", types.DecimalOf(6, 2)), nullable("f", types.FloatType), nullable("s", types.StringType),
	}
	wide := types.Schema{
		nullable("id", types.LongType), nullable("d", types.TimestampNTZType),
		nullable("amt", types.DecimalOf(10, 3)), nullable("f", types.DoubleType), nullable("s", types.StringType),
	}
	table := filepath.Join(t.TempDir(), "t")
	m, err := delta.NewMetadata(narrow, nil, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	old := addRows(t, table, "part-0.parquet", narrow, [][]any{
		{int32(1), day("2024-03-01"), types.DecimalFromInt64(1234), float32(0.5), "a"},
		{int32(-2147483648), day("2024-03-02"), types.DecimalFromInt64(-99999), float32(-1.25), nil},
	})
	if _, err := delta.Append(table, nil, []delta.Add{old}, delta.WriteOptions{Metadata: &m}); err != nil {
		t.Fatal(err)
	}
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Protocol.MinReaderVersion != 1 {
		t.Fatalf("narrow table at protocol %+v, want reader 1", snap.Protocol)
	}

	var widen []delta.Widening
	for i := range narrow {
		if !narrow[i].Type.Equal(wide[i].Type) {
			if !types.Widens(narrow[i].Type, wide[i].Type) {
				t.Fatalf("%s → %s is not a widening", narrow[i].Type, wide[i].Type)
			}
			widen = append(widen, delta.Widening{Column: narrow[i].Name, From: narrow[i].Type, To: wide[i].Type})
		}
	}
	m2 := snap.Metadata
	m2.Configuration = map[string]string{delta.TypeWideningProperty: "true"}
	if m2.SchemaString, err = delta.WidenedSchemaString(snap.Metadata.SchemaString, wide, widen); err != nil {
		t.Fatal(err)
	}
	v, err := delta.Append(table, snap, nil, delta.WriteOptions{Metadata: &m2, Operation: "CHANGE COLUMN"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := delta.ReadCommit(table, v)
	if err != nil {
		t.Fatal(err)
	}
	var proto *delta.Protocol
	for _, a := range c.Actions {
		if a.Protocol != nil {
			proto = a.Protocol
		}
		if a.Add != nil || a.Remove != nil {
			t.Errorf("widening commit has a file action: %+v", a)
		}
	}
	want := delta.Protocol{MinReaderVersion: 3, MinWriterVersion: 7,
		ReaderFeatures: []string{"timestampNtz", "typeWidening"}, WriterFeatures: []string{"timestampNtz", "typeWidening"}}
	if proto == nil || !reflect.DeepEqual(*proto, want) {
		t.Errorf("widening commit protocol %+v, want %+v", proto, want)
	}

	// The schema JSON as the protocol spells it.
	var sch struct {
		Fields []struct {
			Name     string
			Type     any
			Metadata map[string]any
		}
	}
	snap, err = delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(snap.Metadata.SchemaString), &sch); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range sch.Fields {
		b, _ := json.Marshal(f.Metadata[delta.TypeChangesKey])
		got[f.Name] = string(b)
	}
	wantTC := map[string]string{
		"id":  `[{"fromType":"integer","toType":"long"}]`,
		"d":   `[{"fromType":"date","toType":"timestamp_ntz"}]`,
		"amt": `[{"fromType":"decimal(6,2)","toType":"decimal(10,3)"}]`,
		"f":   `[{"fromType":"float","toType":"double"}]`,
		"s":   `null`,
	}
	if !reflect.DeepEqual(got, wantTC) {
		t.Errorf("delta.typeChanges\n got %v\nwant %v", got, wantTC)
	}
	if !delta.TypeWideningEnabled(snap.Metadata.Configuration) {
		t.Errorf("configuration %v lacks %s", snap.Metadata.Configuration, delta.TypeWideningProperty)
	}
	if !types.StructOf(snap.Schema...).Equal(types.StructOf(wide...)) {
		t.Errorf("schema %s, want %s", snap.Schema, wide)
	}

	// A file of the new types lands beside the old one.
	dec := func(s string) types.Decimal { return decimal(s, 3) }
	nw := addRows(t, table, "part-1.parquet", wide, [][]any{
		{int64(3000000000), ts("2024-03-03 10:30:00"), dec("1234567.891"), 1e300, "b"},
	})
	if _, err := delta.Append(table, snap, []delta.Add{nw}, delta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	wantRows := []string{
		parquetio.FormatRow([]any{int64(1), ts("2024-03-01 00:00:00"), dec("12.340"), 0.5, "a"}, wide),
		parquetio.FormatRow([]any{int64(-2147483648), ts("2024-03-02 00:00:00"), dec("-999.990"), -1.25, nil}, wide),
		parquetio.FormatRow([]any{int64(3000000000), ts("2024-03-03 10:30:00"), dec("1234567.891"), 1e300, "b"}, wide),
	}
	slices.Sort(wantRows)
	schema, ours := deltatest.PipegenRows(t, table, -1)
	if !slices.Equal(ours, wantRows) {
		t.Errorf("pipegen reads\n  %s\nwant\n  %s", strings.Join(ours, "\n  "), strings.Join(wantRows, "\n  "))
	}
	if theirs := deltatest.DuckDBRows(t, table, -1, schema); !slices.Equal(theirs, wantRows) {
		t.Errorf("DuckDB reads\n  %s\nwant\n  %s", strings.Join(theirs, "\n  "), strings.Join(wantRows, "\n  "))
	}

	// The old file's statistics are in the old types; they still prune.
	snap, _ = delta.Load(table)
	skip := func(term delta.PruneTerm) (skipped []string) {
		p := delta.NewPruner(snap, []delta.PruneTerm{term})
		if p == nil {
			t.Fatalf("no pruner for %+v", term)
		}
		for _, f := range snap.Files {
			if p.Skip(f.PartitionValues, f.Stats) {
				skipped = append(skipped, f.Path)
			}
		}
		return skipped
	}
	if s := skip(delta.PruneTerm{Column: "id", Op: ">", Class: "int", Values: []any{int64(2500000000)}}); !slices.Equal(s, []string{"part-0.parquet"}) {
		t.Errorf("id > 2500000000 skips %v, want the old file", s)
	}
	at := int64(ts("2024-03-02 00:00:00"))
	if s := skip(delta.PruneTerm{Column: "d", Op: ">", Class: "timestamp_ntz", Values: []any{at}}); !slices.Equal(s, []string{"part-0.parquet"}) {
		t.Errorf("d > 2024-03-02 00:00 skips %v, want the old file (max 2024-03-02 as a date)", s)
	}
	if s := skip(delta.PruneTerm{Column: "d", Op: "=", Class: "timestamp_ntz", Values: []any{at}}); len(s) != 1 || s[0] != "part-1.parquet" {
		t.Errorf("d = 2024-03-02 00:00 skips %v, want only the new file", s)
	}

	// A later schema change (a new column) keeps the history.
	m3 := snap.Metadata
	more := append(slices.Clone(wide), nullable("z", types.StringType))
	if m3.SchemaString, err = delta.WidenedSchemaString(snap.Metadata.SchemaString, more, nil); err != nil {
		t.Fatal(err)
	}
	all, err := delta.TypeChanges(m3.SchemaString)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 4 || all["id"][0].ToType != "long" {
		t.Errorf("type changes after adding a column: %+v", all)
	}
}

// TestTypeChangesValidated: a reader must fail on a type change it does
// not support (protocol, "Reader Requirements for Type Widening"); the
// nested history of a golden table is found by path.
func TestTypeChangesValidated(t *testing.T) {
	table := filepath.Join(t.TempDir(), "t")
	s := types.Schema{nullable("id", types.IntType)}
	m, _ := delta.NewMetadata(s, nil, nil, time.Now())
	m.SchemaString = delta.SchemaStringWithTypeChanges(s, map[string][]delta.TypeChange{"id": {{FromType: "string", ToType: "integer"}}})
	if _, err := delta.Append(table, nil, nil, delta.WriteOptions{Metadata: &m}); err != nil {
		t.Fatal(err)
	}
	_, err := delta.Load(table)
	if err == nil || !strings.Contains(err.Error(), "field id records a type change from string to integer (delta.typeChanges), which pipegen cannot read") {
		t.Errorf("load: err = %v", err)
	}

	snap, err := delta.Load(filepath.Join(tables, "delta-golden", "type-widening-nested"))
	if err != nil {
		t.Fatal(err)
	}
	all, err := delta.TypeChanges(snap.Metadata.SchemaString)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for p, tcs := range all {
		for _, tc := range tcs {
			paths = append(paths, p+" "+tc.FieldPath+" "+tc.FromType+"→"+tc.ToType)
		}
	}
	slices.Sort(paths)
	t.Logf("golden type changes: %v", paths)
	if len(paths) == 0 {
		t.Error("no type changes found in type-widening-nested")
	}
}
