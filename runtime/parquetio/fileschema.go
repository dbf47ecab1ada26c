package parquetio

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/types"
)

// FileSchema returns the Spark schema of the Parquet file f (size bytes,
// named name in errors), as Spark's Parquet schema converter maps it:
// BOOLEAN, INT32/INT64 by their integer annotation (TINYINT, SMALLINT, INT,
// BIGINT; unsigned ones one size up, UINT_64 as DECIMAL(20,0)), FLOAT,
// DOUBLE, DECIMAL, DATE, TIMESTAMP (TIMESTAMP_NTZ when not adjusted to UTC,
// INT96 as TIMESTAMP), STRING for annotated byte arrays and BINARY for the
// others, LIST as ARRAY, MAP as MAP, other groups as STRUCT, and an
// unannotated repeated field as an ARRAY of it. Every column and field is
// nullable: file sources are read as nullable, as Spark reads them.
func FileSchema(name string, f io.ReaderAt, size int64) (s types.Schema, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("read %s: corrupt Parquet file: %v", name, p)
		}
	}()
	file, err := parquet.OpenFile(f, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("read %s: not a readable Parquet file: %w", name, err)
	}
	for _, c := range file.Root().Columns() {
		t, err := columnType(c, false)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		s = append(s, types.Field{Name: c.Name(), Type: t, Nullable: true})
	}
	return s, nil
}

// columnType maps one file column; asElement says c is the repeated node
// of an unannotated list, standing for the element itself.
func columnType(c *parquet.Column, asElement bool) (types.Type, error) {
	if c.Repeated() && !asElement {
		e, err := columnType(c, true)
		if err != nil {
			return types.Type{}, err
		}
		return types.ArrayOf(e, false), nil
	}
	switch {
	case !c.Leaf() && isList(c):
		kids := c.Columns()
		if len(kids) != 1 || !kids[0].Repeated() {
			return types.Type{}, fmt.Errorf("column %s: malformed LIST (want one repeated child)", c.Name())
		}
		rep := kids[0]
		elem := rep
		if !rep.Leaf() && len(rep.Columns()) == 1 && rep.Name() != "array" && rep.Name() != c.Name()+"_tuple" {
			elem = rep.Columns()[0] // the 3-level form: list.element
			t, err := columnType(elem, false)
			return types.ArrayOf(t, true), err
		}
		t, err := columnType(elem, true)
		return types.ArrayOf(t, false), err
	case !c.Leaf() && isMap(c):
		kids := c.Columns()
		if len(kids) != 1 || len(kids[0].Columns()) != 2 {
			return types.Type{}, fmt.Errorf("column %s: malformed MAP (want one repeated key_value group)", c.Name())
		}
		k, err := columnType(kids[0].Columns()[0], false)
		if err != nil {
			return types.Type{}, err
		}
		v, err := columnType(kids[0].Columns()[1], false)
		return types.MapOf(k, v, true), err
	case !c.Leaf():
		var fields []types.Field
		for _, k := range c.Columns() {
			t, err := columnType(k, false)
			if err != nil {
				return types.Type{}, err
			}
			fields = append(fields, types.Field{Name: k.Name(), Type: t, Nullable: true})
		}
		return types.StructOf(fields...), nil
	}
	src, err := sourceOf(c)
	if err != nil {
		return types.Type{}, fmt.Errorf("column %s: %w", c.Name(), err)
	}
	switch src.class {
	case srcBool:
		return types.Type{Kind: types.BooleanKind}, nil
	case srcInt:
		switch {
		case src.bits <= 8:
			return types.Type{Kind: types.ByteKind}, nil
		case src.bits <= 16:
			return types.Type{Kind: types.ShortKind}, nil
		case src.bits <= 32:
			return types.Type{Kind: types.IntKind}, nil
		}
		return types.Type{Kind: types.LongKind}, nil
	case srcUint64:
		return types.DecimalOf(20, 0), nil
	case srcFloat:
		return types.Type{Kind: types.FloatKind}, nil
	case srcDouble:
		return types.Type{Kind: types.DoubleKind}, nil
	case srcString:
		return types.Type{Kind: types.StringKind}, nil
	case srcBinary:
		return types.Type{Kind: types.BinaryKind}, nil
	case srcDecimal:
		return types.DecimalOf(src.precision, src.scale), nil
	case srcDate:
		return types.Type{Kind: types.DateKind}, nil
	case srcTimestamp:
		if !src.utc {
			return types.Type{Kind: types.TimestampNTZKind}, nil
		}
		return types.Type{Kind: types.TimestampKind}, nil
	}
	return types.Type{}, fmt.Errorf("column %s: unsupported type %s", c.Name(), src.desc)
}
