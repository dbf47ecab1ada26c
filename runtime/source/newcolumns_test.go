package source

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// TestAddNewColumns: under AddNewColumns the JSON and CSV decoders read the
// whole file, rescuing the new fields as rescue does, and then report the
// new top-level columns, STRING and nullable, in the order met, each once;
// a nested field is only rescued, and a name that differs from a column's
// in case is no new column.
func TestAddNewColumns(t *testing.T) {
	opts := Options{NewColumns: AddNewColumns}
	schema := schemaOf("id", types.IntType, "s", types.StructOf(types.Field{Name: "a", Type: types.IntType, Nullable: true}))
	rows, _, err := decodeJSON(t, schema, `{"id": 1, "city": "Oslo", "s": {"a": 1, "b": 2}}
{"id": 2, "zip": 1234, "city": "Bergen"}
`, opts)
	if len(rows) != 2 || !strings.Contains(rows[0], `"city":"Oslo"`) {
		t.Errorf("rows %q: want 2, the new field rescued", rows)
	}
	checkNewColumns(t, err, "/landing/t.json", "city", "zip")

	copts := DefaultCSVOptions()
	copts.NewColumns = AddNewColumns
	d := NewCSVDecoder(strings.NewReader("id,city,NAME,name\n1,Oslo,x,ann\n"), csvTestFile, columnNames(peopleSchema), copts)
	if recs := csvRecords(d, peopleSchema); len(recs) != 1 {
		t.Errorf("%d CSV records, want 1", len(recs))
	}
	checkNewColumns(t, d.Err(), "/landing/t.csv", "city")
}

func checkNewColumns(t *testing.T, err error, file string, names ...string) {
	t.Helper()
	var ne *NewColumnsError
	if !errors.As(err, &ne) {
		t.Fatalf("Err() = %v, want a *NewColumnsError", err)
	}
	var got []string
	for _, c := range ne.Columns {
		if !c.Type.Equal(types.StringType) || !c.Nullable {
			t.Errorf("column %s: %s nullable %v, want a nullable STRING", c.Name, c.Type, c.Nullable)
		}
		got = append(got, c.Name)
	}
	if ne.File != file || !slices.Equal(got, names) {
		t.Errorf("new columns %v of %s, want %v of %s", got, ne.File, names, file)
	}
}
