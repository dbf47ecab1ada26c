package table

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

func ordersDesc() *Desc {
	return &Desc{Name: "orders", Kind: StreamingTable, Table: "orders", Properties: map[string]string{"quality": "bronze"},
		Columns: types.Schema{{Name: "id", Type: types.LongType}, {Name: "region", Type: types.StringType, Nullable: true}}}
}

// TestOwnerRecordedAndAdopted: a table created without an owner records
// none; Adopt adds the owner properties and keeps the others; a handle of
// another pipeline does not see it as its own.
func TestOwnerRecordedAndAdopted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "orders")
	h := New("orders", path, ordersDesc())
	if err := h.Ensure(h.Desc); err != nil {
		t.Fatal(err)
	}
	s, err := h.Meta()
	if err != nil {
		t.Fatal(err)
	}
	if id, name := OwnerOf(s.Metadata); id != "" || name != "" {
		t.Fatalf("a table created outside an update records owner %q (%q)", id, name)
	}
	h.Owner = Owner{ID: "p1", Name: "regions"}
	if err := h.Adopt(); err != nil {
		t.Fatal(err)
	}
	if s, err = h.Meta(); err != nil {
		t.Fatal(err)
	}
	if id, name := OwnerOf(s.Metadata); id != "p1" || name != "regions" || s.Metadata.Configuration["quality"] != "bronze" {
		t.Errorf("after Adopt: owner %q (%q), configuration %v", id, name, s.Metadata.Configuration)
	}
	if other := (&Handle{Owner: Owner{ID: "p2", Name: "regions"}}); other.ownedBy(s.Metadata) {
		t.Error("another pipeline's handle takes the table as its own")
	}
	if got := DescribeOwner("p1", "regions"); got != "regions (id p1)" {
		t.Errorf("DescribeOwner = %q", got)
	}
}

// TestTxnCommittedOnce: a commit whose txn the table already holds, at
// that version or an earlier one, is refused and the table is unchanged.
func TestTxnCommittedOnce(t *testing.T) {
	h := New("orders", filepath.Join(t.TempDir(), "orders"), ordersDesc())
	if err := h.Ensure(h.Desc); err != nil {
		t.Fatal(err)
	}
	if err := h.CommitAppend(nil, &Txn{AppID: "flow", Version: 1}, "STREAMING UPDATE", nil); err != nil {
		t.Fatal(err)
	}
	before, _ := h.LatestVersion()
	for _, batch := range []int64{0, 1} {
		err := h.CommitAppend(nil, &Txn{AppID: "flow", Version: batch}, "STREAMING UPDATE", nil)
		if err == nil || !strings.Contains(err.Error(), "already holds transaction") {
			t.Errorf("batch %d again: %v, want a refusal", batch, err)
		}
	}
	if after, _ := h.LatestVersion(); after != before {
		t.Errorf("the table moved from version %d to %d", before, after)
	}
	if ok, err := h.BatchCommitted("flow", 1); !ok || err != nil {
		t.Errorf("BatchCommitted(flow, 1) = %v, %v", ok, err)
	}
	if v, err := h.TxnVersion("other"); v != -1 || err != nil {
		t.Errorf("TxnVersion(other) = %d, %v, want -1", v, err)
	}
}
