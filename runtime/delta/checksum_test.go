package delta

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestChecksumAdvance checks that advancing a checksum by a commit's
// actions gives the checksum of the state the commit makes, for appends,
// removes, txns and a metadata change, and refuses a remove without size.
func TestChecksumAdvance(t *testing.T) {
	size := func(n int64) *int64 { return &n }
	st := newState()
	st.apply([]Action{{Protocol: &Protocol{MinReaderVersion: 1, MinWriterVersion: 2}}, {MetaData: &Metadata{ID: "a", SchemaString: `{"type":"struct","fields":[]}`}}})
	sum, ok := checksumOf(st)
	if !ok {
		t.Fatal("no checksum of a new table")
	}
	commits := [][]Action{
		{{Add: &Add{Path: "f1", Size: 10}}, {Add: &Add{Path: "f2", Size: 20}}, {Txn: &Txn{AppID: "b", Version: 0}}},
		{{Add: &Add{Path: "f3", Size: 5}}, {Txn: &Txn{AppID: "a", Version: 3}}, {Txn: &Txn{AppID: "b", Version: 1}}},
		{{Remove: &Remove{Path: "f1", Size: size(10)}}, {Add: &Add{Path: "f4", Size: 7}}},
		{{MetaData: &Metadata{ID: "a", SchemaString: `{"type":"struct","fields":[]}`, Configuration: map[string]string{"k": "v"}}}},
		{{Remove: &Remove{Path: "f2", Size: size(20)}}, {Remove: &Remove{Path: "f3", Size: size(5)}}, {Remove: &Remove{Path: "f4", Size: size(7)}}},
	}
	for i, actions := range commits {
		sum, ok = sum.advance(actions)
		st.apply(actions)
		want, _ := checksumOf(st)
		if !ok || fmt.Sprintf("%+v %+v %+v", sum, *sum.Metadata, sum.SetTransactions) != fmt.Sprintf("%+v %+v %+v", want, *want.Metadata, want.SetTransactions) {
			t.Errorf("commit %d: advanced %+v (%v), want %+v", i+1, sum, ok, want)
		}
	}
	if sum.NumFiles != 0 || sum.TableSizeBytes != 0 || len(sum.SetTransactions) != 2 {
		t.Errorf("after removing every file: %+v", sum)
	}
	if _, ok := sum.advance([]Action{{Remove: &Remove{Path: "f9"}}}); ok {
		t.Error("a remove without size advanced the checksum")
	}
}

// TestChecksumMetadataComplete checks that a checksum file carries the
// metadata's collections as empty arrays and maps, not null, as the
// protocol requires (a state read from a checkpoint holds nil ones).
func TestChecksumMetadataComplete(t *testing.T) {
	table := t.TempDir()
	if err := os.MkdirAll(LogDir(table), 0o755); err != nil {
		t.Fatal(err)
	}
	st := newState()
	st.apply([]Action{{Protocol: &Protocol{MinReaderVersion: 1, MinWriterVersion: 2}}, {MetaData: &Metadata{ID: "a", SchemaString: `{"type":"struct","fields":[]}`}}})
	sum, _ := checksumOf(st)
	writeChecksum(table, 3, sum)
	data, err := os.ReadFile(ChecksumPath(table, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"partitionColumns":[]`, `"configuration":{}`, `"format":{"provider":"parquet","options":{}}`, `"setTransactions":[]`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("checksum file %s lacks %s", data, want)
		}
	}
}
