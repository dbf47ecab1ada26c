package delta_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

var cdfSchema = types.Schema{
	{Name: "id", Type: types.LongType, Nullable: true},
	{Name: "name", Type: types.StringType, Nullable: true},
}

// writeRows writes rows of schema s into a new file rel of the table.
func writeRows(t *testing.T, table, rel string, s types.Schema, rows [][]any) parquetio.FileInfo {
	t.Helper()
	path := filepath.Join(table, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := parquetio.NewWriter(f, s, parquetio.WriterOptions{})
	enc := parquetio.NewEncoder(s)
	var prows []parquet.Row
	for _, r := range rows {
		row, err := enc.Append(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		prows = append(prows, row)
	}
	if err := w.Write(prows); err != nil {
		t.Fatal(err)
	}
	info, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// newCDFTable creates a table with the change data feed enabled holding
// rows (1, a) and (2, b) in one file.
func newCDFTable(t *testing.T, conf map[string]string) (string, delta.Add) {
	t.Helper()
	table := filepath.Join(t.TempDir(), "t")
	m, err := delta.NewMetadata(cdfSchema, nil, conf, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	info := writeRows(t, table, "part-0.parquet", cdfSchema, [][]any{{int64(1), "a"}, {int64(2), "b"}})
	add := delta.NewAdd("part-0.parquet", nil, info, time.Now())
	if _, err := delta.Append(table, nil, []delta.Add{add}, delta.WriteOptions{Metadata: &m}); err != nil {
		t.Fatal(err)
	}
	return table, add
}

func TestChangeDataFeedNeedsWriterVersion4(t *testing.T) {
	table, _ := newCDFTable(t, map[string]string{delta.ChangeDataFeedProperty: "true"})
	snap, err := delta.Load(table)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Protocol.MinReaderVersion != 1 || snap.Protocol.MinWriterVersion != 4 {
		t.Errorf("new table with the change data feed: protocol %+v, want reader 1 writer 4", snap.Protocol)
	}
	// A writer-2 table that turns the feed on is upgraded in that commit.
	plain, _ := newCDFTable(t, nil)
	snap, _ = delta.Load(plain)
	if snap.Protocol.MinWriterVersion != 2 {
		t.Fatalf("plain table: protocol %+v", snap.Protocol)
	}
	m := snap.Metadata
	m.Configuration = map[string]string{delta.ChangeDataFeedProperty: "true"}
	if _, err := delta.Append(plain, snap, nil, delta.WriteOptions{Metadata: &m}); err != nil {
		t.Fatal(err)
	}
	if snap, _ = delta.Load(plain); snap.Protocol.MinWriterVersion != 4 {
		t.Errorf("after enabling the change data feed: protocol %+v", snap.Protocol)
	}
	// A table Databricks wrote with the feed (writer 4) takes appends.
	cdc := copyTable(t, filepath.Join(tables, "delta-rs/simple_table_with_cdc"))
	snap, err = delta.Load(cdc)
	if err != nil {
		t.Fatal(err)
	}
	info := writeRows(t, cdc, "part-new.parquet", snap.Schema, [][]any{{int32(9), "Zoe"}})
	if _, err := delta.Append(cdc, snap, []delta.Add{delta.NewAdd("part-new.parquet", nil, info, time.Now())}, delta.WriteOptions{}); err != nil {
		t.Errorf("append to a writer-4 table with the change data feed: %v", err)
	}
}

func TestRefuseWriterFeaturesPipegenDoesNotEnforce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(p *delta.Protocol, m *delta.Metadata)
		remove bool
		want   string
	}{
		{"writer version 5", func(p *delta.Protocol, m *delta.Metadata) { p.MinWriterVersion = 5 }, false, "pipegen reads but cannot write (columnMapping)"},
		{"writer feature", func(p *delta.Protocol, m *delta.Metadata) {
			p.MinWriterVersion, p.WriterFeatures = 7, []string{"appendOnly", "rowTracking"}
		}, false, "pipegen reads but cannot write (rowTracking)"},
		{"reader feature", func(p *delta.Protocol, m *delta.Metadata) {
			p.MinReaderVersion, p.MinWriterVersion = 3, 7
			p.ReaderFeatures, p.WriterFeatures = []string{"vacuumProtocolCheck"}, []string{"vacuumProtocolCheck"}
		}, false, "pipegen reads but cannot write (vacuumProtocolCheck)"},
		{"check constraint", func(p *delta.Protocol, m *delta.Metadata) {
			p.MinWriterVersion = 3
			m.Configuration["delta.constraints.positive"] = "id > 0"
		}, false, "CHECK constraints (delta.constraints.positive)"},
		{"generated column", func(p *delta.Protocol, m *delta.Metadata) {
			m.SchemaString = strings.Replace(m.SchemaString, `"metadata":{}`, `"metadata":{"delta.generationExpression":"id + 1"}`, 1)
		}, false, "delta.generationExpression"},
		{"append-only table", func(p *delta.Protocol, m *delta.Metadata) { m.Configuration["delta.appendOnly"] = "true" }, true, "append-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := filepath.Join(t.TempDir(), "t")
			p := delta.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}
			m, _ := delta.NewMetadata(cdfSchema, nil, map[string]string{}, time.Now())
			tc.mutate(&p, &m)
			info := writeRows(t, table, "part-0.parquet", cdfSchema, [][]any{{int64(1), "a"}})
			add := delta.NewAdd("part-0.parquet", nil, info, time.Now())
			if _, err := delta.Commit(table, -1, []delta.Action{{Protocol: &p}, {MetaData: &m}, {Add: &add}}); err != nil {
				t.Fatal(err)
			}
			snap, err := delta.Load(table)
			if err != nil {
				if tc.mutate != nil && strings.Contains(err.Error(), "reader") {
					return // not even readable: refused earlier
				}
				t.Fatal(err)
			}
			var removes []delta.Add
			if tc.remove {
				removes = snap.Files
			}
			_, err = delta.ReplaceFiles(table, snap, removes, nil, delta.WriteOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestReplaceFilesWritesChangeData(t *testing.T) {
	table, old := newCDFTable(t, map[string]string{delta.ChangeDataFeedProperty: "true"})
	snap, _ := delta.Load(table)
	// Rewrite the file: 1 renamed, 2 deleted, 3 inserted.
	info := writeRows(t, table, "part-1.parquet", cdfSchema, [][]any{{int64(1), "A"}, {int64(3), "c"}})
	changeSchema := append(slices.Clone(cdfSchema), types.Field{Name: delta.ChangeTypeColumn, Type: types.StringType, Nullable: true})
	cinfo := writeRows(t, table, "_change_data/cdc-1.parquet", changeSchema, [][]any{
		{int64(1), "a", delta.ChangeUpdatePreimage}, {int64(1), "A", delta.ChangeUpdatePostimage},
		{int64(2), "b", delta.ChangeDelete}, {int64(3), "c", delta.ChangeInsert},
	})
	cdc := delta.CDC{Path: "_change_data/cdc-1.parquet", PartitionValues: delta.PartitionValues{}, Size: cinfo.Size}
	v, err := delta.ReplaceFiles(table, snap, []delta.Add{old}, []delta.Add{delta.NewAdd("part-1.parquet", nil, info, time.Now())},
		delta.WriteOptions{Changes: []delta.CDC{cdc}})
	if err != nil {
		t.Fatal(err)
	}
	commit, err := delta.ReadCommit(table, v)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range commit.Actions {
		if a.CDC != nil {
			n++
			if a.CDC.DataChange || a.CDC.Path != cdc.Path {
				t.Errorf("cdc action %+v", *a.CDC)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d cdc actions in version %d", n, v)
	}
	got := changeFeed(t, table, 0, -1)
	var kinds []string
	for _, r := range got {
		f := strings.Split(r, " | ")
		kinds = append(kinds, f[0]+" "+f[1]+" "+f[2]+" v"+f[3])
	}
	want := []string{"1 A update_postimage v1", "1 a insert v0", "1 a update_preimage v1", "2 b delete v1", "2 b insert v0", "3 c insert v1"}
	if !slices.Equal(kinds, want) {
		t.Errorf("change feed:\n got %q\nwant %q", kinds, want)
	}
	// A table without the feed takes no change data files.
	plain, _ := newCDFTable(t, nil)
	snap, _ = delta.Load(plain)
	if _, err := delta.ReplaceFiles(plain, snap, nil, nil, delta.WriteOptions{Changes: []delta.CDC{cdc}}); err == nil || !strings.Contains(err.Error(), delta.ChangeDataFeedProperty) {
		t.Errorf("change data files on a table without the feed: err = %v", err)
	}
}

// TestProtocolDeclaresTheFeaturesUsed: a table with a TIMESTAMP_NTZ column
// (even nested) is reader 3 / writer 7 with timestampNtz in both feature
// lists (protocol, "Timestamp without timezone"); at writer 7 the change
// data feed and append-only are listed when used and only then; without
// NTZ the legacy versions stay (1,2), or (1,4) with the feed, as Spark
// sets them. A table that gains an NTZ column is upgraded in that commit.
// Type widening (delta.enableTypeWidening) is reader 3 / writer 7 with
// typeWidening in both lists as well.
func TestProtocolDeclaresTheFeaturesUsed(t *testing.T) {
	ntz := types.Schema{{Name: "id", Type: types.LongType, Nullable: true}, {Name: "at", Type: types.TimestampNTZType, Nullable: true}}
	nested := types.Schema{{Name: "s", Type: types.StructOf(types.Field{Name: "at", Type: types.TimestampNTZType, Nullable: true}), Nullable: true}}
	named := types.Schema{{Name: "timestamp_ntz", Type: types.StringType, Nullable: true}}
	cdf := map[string]string{delta.ChangeDataFeedProperty: "true"}
	for _, tc := range []struct {
		name   string
		schema types.Schema
		conf   map[string]string
		want   delta.Protocol
	}{
		{"plain", cdfSchema, nil, delta.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}},
		{"a column named timestamp_ntz", named, nil, delta.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}},
		{"change data feed", cdfSchema, cdf, delta.Protocol{MinReaderVersion: 1, MinWriterVersion: 4}},
		{"ntz", ntz, nil, delta.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"timestampNtz"}, WriterFeatures: []string{"timestampNtz"}}},
		{"nested ntz", nested, nil, delta.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"timestampNtz"}, WriterFeatures: []string{"timestampNtz"}}},
		{"type widening enabled", cdfSchema, map[string]string{delta.TypeWideningProperty: "true"},
			delta.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"typeWidening"}, WriterFeatures: []string{"typeWidening"}}},
		{"ntz, type widening and the feed", ntz, map[string]string{delta.TypeWideningProperty: "true", delta.ChangeDataFeedProperty: "true"},
			delta.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"timestampNtz", "typeWidening"}, WriterFeatures: []string{"changeDataFeed", "timestampNtz", "typeWidening"}}},
		{"ntz with the feed, append-only", ntz, map[string]string{delta.ChangeDataFeedProperty: "true", "delta.appendOnly": "true"},
			delta.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"timestampNtz"}, WriterFeatures: []string{"appendOnly", "changeDataFeed", "timestampNtz"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := filepath.Join(t.TempDir(), "t")
			m, err := delta.NewMetadata(tc.schema, nil, tc.conf, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := delta.Append(table, nil, nil, delta.WriteOptions{Metadata: &m}); err != nil {
				t.Fatal(err)
			}
			snap, err := delta.Load(table)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(snap.Protocol, tc.want) {
				t.Errorf("protocol %+v, want %+v", snap.Protocol, tc.want)
			}
			// The table takes appends at that protocol, without a new
			// protocol action.
			v, err := delta.Append(table, snap, nil, delta.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			c, err := delta.ReadCommit(table, v)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range c.Actions {
				if a.Protocol != nil {
					t.Errorf("an append wrote protocol %+v", *a.Protocol)
				}
			}
		})
	}
	// Schema evolution: a writer-4 table with the feed gains an NTZ column.
	table := filepath.Join(t.TempDir(), "t")
	m, _ := delta.NewMetadata(cdfSchema, nil, cdf, time.Now())
	if _, err := delta.Append(table, nil, nil, delta.WriteOptions{Metadata: &m}); err != nil {
		t.Fatal(err)
	}
	snap, _ := delta.Load(table)
	m2 := m
	m2.SchemaString = delta.SchemaString(append(slices.Clone(cdfSchema), types.Field{Name: "at", Type: types.TimestampNTZType, Nullable: true}))
	if _, err := delta.Append(table, snap, nil, delta.WriteOptions{Metadata: &m2}); err != nil {
		t.Fatal(err)
	}
	snap, _ = delta.Load(table)
	want := delta.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"timestampNtz"}, WriterFeatures: []string{"changeDataFeed", "timestampNtz"}}
	if !reflect.DeepEqual(snap.Protocol, want) {
		t.Errorf("after adding an NTZ column: protocol %+v, want %+v", snap.Protocol, want)
	}
}
