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

// TestWidenedIntegers: under AddNewColumns an integer too large for its
// top-level column's declared type is rescued and noted as a widening to
// the narrowest type that holds the largest one met (INT → BIGINT, beyond
// BIGINT DECIMAL(38,0)); one inside a struct, a fraction or a string is
// only rescued. A DECIMAL column widens its precision the same way. Under FailOnNewColumns it fails at its line and column;
// under rescue (the default) it is rescued as before.
func TestWidenedIntegers(t *testing.T) {
	schema := schemaOf("id", types.IntType, "n", types.ShortType, "s", types.StructOf(types.Field{Name: "a", Type: types.IntType, Nullable: true}))
	input := `{"id": 1, "n": 40000, "s": {"a": 3000000000}}
{"id": 3000000000, "n": 2.5}
{"id": "4000000000", "n": -1}
`
	rows, _, err := decodeJSON(t, schema, input, Options{NewColumns: AddNewColumns})
	if len(rows) != 3 || !strings.Contains(rows[1], `"id":3000000000`) {
		t.Errorf("rows %q: want 3, the large id rescued", rows)
	}
	checkWidened(t, err, "n INT", "id BIGINT")

	_, _, err = decodeJSON(t, schemaOf("id", types.LongType), `{"id": 9223372036854775808}`+"\n", Options{NewColumns: AddNewColumns})
	checkWidened(t, err, "id DECIMAL(38,0)")

	// A number with more integer digits than its DECIMAL holds widens the
	// precision, the scale kept; more fraction digits are rounded, as
	// before, and a decimal inside a struct is only rescued.
	dschema := schemaOf("amt", types.DecimalOf(5, 2), "s", types.StructOf(types.Field{Name: "a", Type: types.DecimalOf(3, 1), Nullable: true}))
	_, _, err = decodeJSON(t, dschema, `{"amt": 1.005, "s": {"a": 12345}}
{"amt": "123456.7"}
{"amt": -1234.5}
`, Options{NewColumns: AddNewColumns})
	checkWidened(t, err, "amt DECIMAL(8,2)")

	_, _, err = decodeJSON(t, schema, input, Options{NewColumns: FailOnNewColumns})
	if err == nil || !strings.Contains(err.Error(), "t.json:1:") || !strings.Contains(err.Error(), "value 40000 does not fit column n's type SMALLINT: it needs INT (schema_evolution: fail_on_new_columns)") {
		t.Errorf("fail_on_new_columns: err = %v", err)
	}
	rows, _, err = decodeJSON(t, schema, input, Options{})
	if err != nil || len(rows) != 3 || !strings.Contains(rows[1], `"id":3000000000`) {
		t.Errorf("rescue: rows %q, err %v", rows, err)
	}

	copts := DefaultCSVOptions()
	copts.NewColumns = AddNewColumns
	d := NewCSVDecoder(strings.NewReader("id,name,score\n1,ann,1\n-3000000000,bob,2\n"), csvTestFile, columnNames(peopleSchema), copts)
	if recs := csvRecords(d, peopleSchema); len(recs) != 2 {
		t.Errorf("%d CSV records, want 2", len(recs))
	}
	checkWidened(t, d.Err(), "id BIGINT")
	dcsv := schemaOf("amt", types.DecimalOf(4, 1))
	d = NewCSVDecoder(strings.NewReader("amt\n1.5\n\"12,345.6\"\n"), csvTestFile, columnNames(dcsv), copts)
	csvRecords(d, dcsv)
	checkWidened(t, d.Err(), "amt DECIMAL(6,1)")
	copts.NewColumns = FailOnNewColumns
	d = NewCSVDecoder(strings.NewReader("id,name,score\n1,ann,1\n-3000000000,bob,2\n"), csvTestFile, columnNames(peopleSchema), copts)
	csvRecords(d, peopleSchema)
	if err := d.Err(); err == nil || !strings.Contains(err.Error(), "t.csv:3:1") || !strings.Contains(err.Error(), "declare id BIGINT") {
		t.Errorf("CSV fail_on_new_columns: err = %v", err)
	}
}

// checkWidened checks that err is a *NewColumnsError with no new column
// and the widenings want, each "name NEWTYPE".
func checkWidened(t *testing.T, err error, want ...string) {
	t.Helper()
	var ne *NewColumnsError
	if !errors.As(err, &ne) {
		t.Fatalf("Err() = %v, want a *NewColumnsError", err)
	}
	var got []string
	for _, c := range ne.Widened {
		got = append(got, c.Name+" "+c.Type.String())
	}
	if len(ne.Columns) != 0 || !slices.Equal(got, want) {
		t.Errorf("widened %v (new %v), want %v", got, ne.Columns, want)
	}
}
