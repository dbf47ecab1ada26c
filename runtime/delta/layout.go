package delta

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/types"
)

// Column mapping (protocol, "Column Mapping"): with
// `delta.columnMapping.mode` = name or id, every field of the schema has a
// physical name (`delta.columnMapping.physicalName`) and an id
// (`delta.columnMapping.id`). Data files name their columns by physical
// name and carry the ids as Parquet field ids; partition values and
// statistics are keyed by physical name. A column renamed in the log keeps
// its physical name, so older files read right; a dropped column's
// physical name is never reused, so its data is never read again.

// ColumnMappingProperty is the table property that selects column mapping.
const ColumnMappingProperty = "delta.columnMapping.mode"

// cmNode is one field of the column mapping tree: its physical name and
// id, and the mapping of its nested fields by lowercased logical name
// (structs) or position (array element, map key and value).
type cmNode struct {
	physical string
	id       int
	fields   map[string]*cmNode
	elem     *cmNode // array element, map key
	value    *cmNode // map value
}

// parseColumnMapping returns the mapping tree of a schema JSON string.
func parseColumnMapping(schemaString string) (*cmNode, error) {
	var t jsonType
	if err := json.Unmarshal([]byte(schemaString), &t); err != nil {
		return nil, fmt.Errorf("schema JSON: %w", err)
	}
	return cmStruct(t.Fields), nil
}

func cmStruct(fs []jsonField) *cmNode {
	n := &cmNode{fields: make(map[string]*cmNode, len(fs))}
	for _, f := range fs {
		c := cmType(f.Type)
		c.physical = f.Name
		if p, ok := f.Metadata["delta.columnMapping.physicalName"].(string); ok && p != "" {
			c.physical = p
		}
		if id, ok := f.Metadata["delta.columnMapping.id"].(float64); ok {
			c.id = int(id)
		}
		n.fields[strings.ToLower(f.Name)] = c
	}
	return n
}

func cmType(raw json.RawMessage) *cmNode {
	var t jsonType
	if json.Unmarshal(raw, &t) != nil {
		return &cmNode{} // a primitive type name
	}
	switch t.Type {
	case "struct":
		return cmStruct(t.Fields)
	case "array":
		return &cmNode{elem: cmType(t.ElementType)}
	case "map":
		return &cmNode{elem: cmType(t.KeyType), value: cmType(t.ValueType)}
	}
	return &cmNode{}
}

// fileField is a field of a data file's schema: its name, Parquet field
// id (0: none) and children, for id-mode column mapping.
type fileField struct {
	name     string
	id       int
	children []*fileField
}

func fileFields(c *parquet.Column) *fileField {
	f := &fileField{name: c.Name(), id: c.ID()}
	for _, k := range c.Columns() {
		f.children = append(f.children, fileFields(k))
	}
	return f
}

// hasIDs reports whether any field of the file carries a field id.
func (f *fileField) hasIDs() bool {
	if f.id != 0 {
		return true
	}
	for _, c := range f.children {
		if c.hasIDs() {
			return true
		}
	}
	return false
}

// missingColumn is the name given to a wanted field whose id the file
// lacks: no file column has it, so the field reads as NULL.
const missingColumn = "\x00missing"

// physicalSchema renames the fields of want (logical names) to the names
// the data file uses: physical names (name mode, or id mode for files
// without field ids), or the names of the file's fields with the same ids
// (id mode; file may be nil otherwise). Fields the mapping does not know
// keep their name.
func physicalSchema(want types.Schema, m *cmNode, file *fileField) types.Schema {
	out := make(types.Schema, len(want))
	for i, f := range want {
		out[i] = f
		c := m.fields[strings.ToLower(f.Name)]
		if c == nil {
			continue
		}
		var fc *fileField
		out[i].Name = c.physical
		if file != nil {
			out[i].Name = missingColumn
			for _, k := range file.children {
				if k.id == c.id {
					out[i].Name, fc = k.name, k
					break
				}
			}
		}
		out[i].Type = physicalType(f.Type, c, fc)
	}
	return out
}

func physicalType(t types.Type, m *cmNode, file *fileField) types.Type {
	// A file's LIST and MAP groups hold one repeated group whose children
	// are the element, or the key and the value.
	inner := func(i int) *fileField {
		if file == nil || len(file.children) != 1 || len(file.children[0].children) <= i {
			return nil
		}
		return file.children[0].children[i]
	}
	switch t.Kind {
	case types.StructKind:
		t.Fields = physicalSchema(t.Fields, m, file)
	case types.ArrayKind:
		if m.elem != nil {
			e := physicalType(*t.Elem, m.elem, inner(0))
			t.Elem = &e
		}
	case types.MapKind:
		if m.elem != nil && m.value != nil {
			k, v := physicalType(*t.Key, m.elem, inner(0)), physicalType(*t.Value, m.value, inner(1))
			t.Key, t.Value = &k, &v
		}
	}
	return t
}

// FileLayout is how the data files of one table version are read: the
// partition columns and, under column mapping, the names the files use.
type FileLayout struct {
	table            string
	partitionColumns []string
	mode             string  // "", "name" or "id"
	mapping          *cmNode // nil without column mapping
}

// Layout returns how the snapshot's data files are read.
func (s *Snapshot) Layout() *FileLayout {
	return layoutOf(s.Table, s.Metadata)
}

// NewFileLayout returns how the data files of the table at table are read
// under metadata m (partition columns, column mapping).
func NewFileLayout(table string, m Metadata) *FileLayout { return layoutOf(table, m) }

func layoutOf(table string, m Metadata) *FileLayout {
	l := &FileLayout{table: table, partitionColumns: m.PartitionColumns}
	if mode := m.Configuration[ColumnMappingProperty]; mode == "name" || mode == "id" {
		// The schema parsed when the snapshot was built: no error here.
		if cm, err := parseColumnMapping(m.SchemaString); err == nil {
			l.mode, l.mapping = mode, cm
		}
	}
	return l
}

// partitionValues returns a file's partition values for parquetio keyed by
// the names of want's fields (logical, or physical under column mapping):
// each partition column's value, NULL when absent.
func (l *FileLayout) partitionValues(pv PartitionValues) map[string]string {
	if len(l.partitionColumns) == 0 {
		return nil
	}
	m := make(map[string]string, len(l.partitionColumns))
	for _, c := range l.partitionColumns {
		key := c
		if l.mapping != nil {
			if n := l.mapping.fields[strings.ToLower(c)]; n != nil {
				key = n.physical
			}
		}
		m[key] = pv[key]
	}
	return m
}

// Open opens a data file of the table (local path) for reading as want:
// partition values from pv, columns by their physical names or ids under
// column mapping, rows the deletion vector dv (nil: none) deletes left
// out. want's field names are logical (the table schema's); rows come in
// want's canonical layout.
func (l *FileLayout) Open(local string, pv PartitionValues, dv *DeletionVector, want types.Schema) (*FileReader, error) {
	f, err := storage.OpenFile(local)
	if err != nil {
		return nil, fmt.Errorf("table %s: data file %s: %w", l.table, local, err)
	}
	r, err := l.open(local, f, pv, dv, want)
	if err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

func (l *FileLayout) open(local string, f storage.Reader, pv PartitionValues, dv *DeletionVector, want types.Schema) (*FileReader, error) {
	phys := want
	if l.mapping != nil {
		var ff *fileField
		if l.mode == "id" {
			pf, err := parquet.OpenFile(f, f.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
			if err != nil {
				return nil, fmt.Errorf("table %s: read %s: not a readable Parquet file: %w", l.table, local, err)
			}
			if root := fileFields(pf.Root()); root.hasIDs() {
				ff = root
			}
		}
		phys = physicalSchema(want, l.mapping, ff)
		// Partition columns are not in the files: their values are keyed
		// by physical name in either mode.
		for i, f := range want {
			for _, c := range l.partitionColumns {
				if n := l.mapping.fields[strings.ToLower(c)]; n != nil && strings.EqualFold(f.Name, c) {
					phys[i].Name = n.physical
				}
			}
		}
	}
	r, err := parquetio.Open(local, f, f.Size(), phys, l.partitionValues(pv))
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", l.table, err)
	}
	fr := &FileReader{Reader: r, f: f, size: f.Size()}
	if dv != nil {
		if fr.deleted, err = dv.Load(l.table); err != nil {
			r.Close()
			return nil, fmt.Errorf("table %s: data file %s: %w", l.table, local, err)
		}
	}
	return fr, nil
}

// FileReader reads one data file of a table: the rows of its Parquet
// file that its deletion vector does not delete.
type FileReader struct {
	*parquetio.Reader
	f    storage.Reader
	size int64
	// deleted are the row indexes the deletion vector deletes; row is
	// the index of the next file row.
	deleted *roaring64.Bitmap
	row     uint64
}

// Size returns the data file's size in bytes.
func (r *FileReader) Size() int64 { return r.size }

// ReadRows reads up to len(rows) rows that are not deleted; io.EOF after
// the last. Rows are valid until the next call.
func (r *FileReader) ReadRows(rows []parquet.Row) (int, error) {
	if r.deleted == nil {
		return r.Reader.ReadRows(rows)
	}
	for {
		n, err := r.Reader.ReadRows(rows)
		kept := 0
		for i := 0; i < n; i++ {
			if !r.deleted.Contains(r.row) {
				rows[kept], rows[i] = rows[i], rows[kept]
				kept++
			}
			r.row++
		}
		if kept > 0 || err != nil {
			return kept, err
		}
	}
}

// ReadAll returns the remaining rows that are not deleted as generic
// values (see parquetio.Decode).
func (r *FileReader) ReadAll() ([][]any, error) {
	return parquetio.DecodeAll(r, r.Schema())
}

// Close closes the reader and its file.
func (r *FileReader) Close() error {
	err := r.Reader.Close()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
}

var _ io.Closer = (*FileReader)(nil)
