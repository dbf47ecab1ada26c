package runtime

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
)

// TestCheckParquetColumns: under fail_on_new_columns a column of the file
// the schema does not declare fails it, named with the type the file holds
// (alltypes_plain.parquet is Apache parquet-testing's; see its SOURCE.md);
// names match case-insensitively, and the other modes never fail.
func TestCheckParquetColumns(t *testing.T) {
	f, fi := openParquetTestFile(t, "alltypes_plain.parquet")
	all := types.Schema{
		{Name: "ID", Type: types.IntType}, {Name: "bool_col", Type: types.BooleanType},
		{Name: "tinyint_col", Type: types.IntType}, {Name: "smallint_col", Type: types.IntType},
		{Name: "int_col", Type: types.IntType}, {Name: "bigint_col", Type: types.LongType},
		{Name: "float_col", Type: types.FloatType}, {Name: "double_col", Type: types.DoubleType},
		{Name: "date_string_col", Type: types.StringType}, {Name: "string_col", Type: types.StringType},
		{Name: "timestamp_col", Type: types.TimestampType},
	}
	if err := checkParquetColumns(fi, f, all, source.FailOnNewColumns); err != nil {
		t.Errorf("every column declared: %v", err)
	}
	err := checkParquetColumns(fi, f, all[:7], source.FailOnNewColumns)
	if err == nil || !strings.Contains(err.Error(), `column "double_col" (DOUBLE) is not in the source's schema (schema_evolution: fail_on_new_columns)`) {
		t.Errorf("new column: %v", err)
	}
	var ne *source.NewColumnsError
	if err := checkParquetColumns(fi, f, all[:9], source.AddNewColumns); !errors.As(err, &ne) ||
		len(ne.Columns) != 2 || ne.Columns[0].Name != "string_col" || !ne.Columns[0].Type.Equal(types.BinaryType) ||
		ne.Columns[1].Name != "timestamp_col" || !ne.Columns[1].Type.Equal(types.TimestampType) {
		t.Errorf("add_new_columns: %v, want string_col (BINARY: the file does not annotate it as a string) and timestamp_col (TIMESTAMP)", err)
	}
	// A column declared narrower than the file holds it (bigint_col as
	// INT, double_col as FLOAT) is a widening under add_new_columns, and
	// fails fail_on_new_columns.
	narrow := append(types.Schema(nil), all...)
	narrow[5].Type, narrow[7].Type = types.IntType, types.FloatType
	if err := checkParquetColumns(fi, f, narrow, source.AddNewColumns); !errors.As(err, &ne) || len(ne.Columns) != 0 ||
		len(ne.Widened) != 2 || ne.Widened[0].Name != "bigint_col" || !ne.Widened[0].Type.Equal(types.LongType) ||
		ne.Widened[1].Name != "double_col" || !ne.Widened[1].Type.Equal(types.DoubleType) {
		t.Errorf("add_new_columns, narrower declarations: %v, want bigint_col BIGINT and double_col DOUBLE widened", err)
	}
	err = checkParquetColumns(fi, f, narrow, source.FailOnNewColumns)
	if err == nil || !strings.Contains(err.Error(), `column "bigint_col" is BIGINT in the file, wider than the source's schema declares (INT) (schema_evolution: fail_on_new_columns): declare bigint_col BIGINT`) {
		t.Errorf("fail_on_new_columns, narrower declaration: %v", err)
	}
	for _, mode := range []source.NewColumns{source.RescueNewColumns, source.IgnoreNewColumns} {
		if err := checkParquetColumns(fi, f, narrow[:1], mode); err != nil {
			t.Errorf("mode %d: %v", mode, err)
		}
	}
}

// TestNewParquetFieldsNested: a struct field the declared STRUCT lacks is
// found by its dotted path; the file's schema
// itself has none.
func TestNewParquetFieldsNested(t *testing.T) {
	f, fi := openParquetTestFile(t, "nullable.impala.parquet")
	file, err := parquetio.FileSchema(fi.LocalPath, f, fi.Size)
	if err != nil {
		t.Fatal(err)
	}
	if nf := newParquetFields(file, file, ""); len(nf) != 0 {
		t.Errorf("the file's own schema: %v", nf)
	}
	i := file.Index("nested_Struct")
	if i < 0 || file[i].Type.Kind != types.StructKind || len(file[i].Type.Fields) < 2 {
		t.Fatalf("nested_Struct: %v", file)
	}
	want := append(types.Schema(nil), file...)
	ns := file[i].Type
	last := ns.Fields[len(ns.Fields)-1]
	ns.Fields = ns.Fields[:len(ns.Fields)-1]
	want[i].Type = ns
	nf := newParquetFields(file, want, "")
	if len(nf) != 1 || nf[0].Path != file[i].Name+"."+last.Name || !nf[0].Type.Equal(last.Type) {
		t.Errorf("got %v, want %s.%s %s", nf, file[i].Name, last.Name, last.Type)
	}
}

// openParquetTestFile opens a file of parquetio's parquet-testing folder,
// closed when the test ends.
func openParquetTestFile(t *testing.T, name string) (*os.File, source.FileInfo) {
	t.Helper()
	path := "parquetio/testdata/parquet_testing/" + name
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return f, source.FileInfo{LocalPath: path, Size: st.Size()}
}
