package runtime

import (
	"fmt"
	"io"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
)

// NewParquetField is a column or struct field of a Parquet file that the
// source's schema does not declare: Path is its dotted path ("city",
// "address.zip"), Type its type as the file holds it (see
// parquetio.FileSchema).
type NewParquetField struct {
	Path string
	Type types.Type
}

// newParquetFields returns the fields of file that want does not declare,
// matching names case-insensitively as the Parquet reader does, looking
// into structs (also as array elements and map values) both sides have.
// A field found is not looked into further.
func newParquetFields(file, want []types.Field, prefix string) []NewParquetField {
	var out []NewParquetField
	for _, f := range file {
		i := types.StructOf(want...).FieldIndex(f.Name)
		if i < 0 {
			out = append(out, NewParquetField{Path: prefix + f.Name, Type: f.Type})
			continue
		}
		out = append(out, newNestedFields(f.Type, want[i].Type, prefix+f.Name)...)
	}
	return out
}

func newNestedFields(file, want types.Type, path string) []NewParquetField {
	switch {
	case file.Kind == types.StructKind && want.Kind == types.StructKind:
		return newParquetFields(file.Fields, want.Fields, path+".")
	case file.Kind == types.ArrayKind && want.Kind == types.ArrayKind:
		return newNestedFields(*file.Elem, *want.Elem, path)
	case file.Kind == types.MapKind && want.Kind == types.MapKind:
		return newNestedFields(*file.Value, *want.Value, path)
	}
	return nil
}

// checkParquetColumns applies schema_evolution fail_on_new_columns to a
// Parquet file: a column or struct field of the file that want does not
// declare fails the file, naming it and its type, and so does a top-level
// column whose file type is wider than the declared one (types.Widens:
// INT64 data for an INT column); under add_new_columns top-level columns
// the schema lacks, and top-level columns of a wider type, give a
// *source.NewColumnsError with their file types (new struct fields are
// not read). Other modes read the declared columns only (the Parquet
// reader ignores extra ones, and rescues values that do not fit).
func checkParquetColumns(f source.FileInfo, ra io.ReaderAt, want types.Schema, mode source.NewColumns) error {
	if mode != source.FailOnNewColumns && mode != source.AddNewColumns {
		return nil
	}
	fs, err := parquetio.FileSchema(f.LocalPath, ra, f.Size)
	if err != nil {
		return err
	}
	var cols, widened []types.Field
	for _, c := range fs {
		i := want.Index(c.Name)
		switch {
		case i < 0:
			cols = append(cols, c)
		case types.Widens(want[i].Type, c.Type):
			widened = append(widened, types.Field{Name: want[i].Name, Type: c.Type, Nullable: true})
		}
	}
	if mode == source.AddNewColumns {
		if len(cols) > 0 || len(widened) > 0 {
			return &source.NewColumnsError{File: f.LocalPath, Columns: cols, Widened: widened}
		}
		return nil
	}
	if nf := newParquetFields(fs, want, ""); len(nf) > 0 {
		return fmt.Errorf("read %s: column %q (%s) is not in the source's schema (schema_evolution: fail_on_new_columns): add it to the schema (pipegen infer --write prints the new one) and run again", f.LocalPath, nf[0].Path, nf[0].Type)
	}
	if len(widened) > 0 {
		w := widened[0]
		return fmt.Errorf("read %s: column %q is %s in the file, wider than the source's schema declares (%s) (schema_evolution: fail_on_new_columns): declare %s %s, or use schema_evolution: add_new_columns, and run again",
			f.LocalPath, w.Name, w.Type, want[want.Index(w.Name)].Type, types.QuoteIdent(w.Name), w.Type)
	}
	return nil
}
