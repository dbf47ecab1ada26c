package parquetio

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/pipegen/pipegen/runtime/types"
)

// Reader yields the rows of one Parquet file in the canonical layout of a
// wanted schema, whatever wrote the file:
//
//   - columns are matched by name, case-insensitively as Spark does; wanted
//     columns the file lacks read as NULL (schema evolution), and so do
//     missing fields of structs; extra file columns are ignored;
//   - partition columns (Delta keeps them out of data files) are filled from
//     the partition values given to Open;
//   - physical types are converted: INT96 and TIMESTAMP(MILLIS|NANOS) to
//     microseconds, decimals of any physical type and smaller scale to the
//     canonical physical type of the wanted precision, integer widening,
//     INT → DOUBLE, DATE → TIMESTAMP, STRING ↔ BINARY;
//   - legacy list layouts (2-level lists, Spark's `bag`/`array` names,
//     unannotated repeated fields) and maps whose repeated group has another
//     name (`map`, `entries`) are read as ARRAY and MAP.
//
// When the file is already canonical the rows are streamed as parquet-go
// decodes them; when only top-level columns differ (missing, partition,
// converted leaves) values are copied column by column; otherwise records are
// assembled and shredded again.
//
// A Reader is not safe for concurrent use.
type Reader struct {
	name    string
	file    *parquet.File
	want    types.Schema
	mode    readMode
	rg      int
	rows    parquet.Rows
	numRows int64

	// middle path
	cols    []colPlan
	numFile int
	asm     assembler
	buf     []parquet.Row

	// rescue turns values that do not fit into NULLs recorded in rescued,
	// per row of the last ReadRows; done counts the rows returned before.
	rescue  bool
	rescued [][]RescuedValue
	done    int64

	// generic path
	root    *rnode
	consts  []any // per wanted column: partition value (or nil)
	isConst []bool
	enc     *Encoder
}

type readMode uint8

const (
	modeFast readMode = iota
	modeColumns
	modeGeneric
)

// colPlan is how the middle path produces one wanted top-level column.
type colPlan struct {
	// src is the first file leaf of the column, or -1 for a constant.
	src   int
	first int // first canonical leaf
	n     int // number of leaves
	// conv converts leaf k's values (nil entry = copy unchanged).
	conv []func(parquet.Value) (parquet.Value, error)
	// constant value for a missing or partition column (leaf values
	// ready to be levelled: nil means NULL).
	constant *parquet.Value
	def      int // definition level of a non-NULL constant
	// name is the file's name of the column, for errors and rescued data.
	name string
	// rescuable: a value that does not fit may become NULL (a nullable
	// column of a primitive type).
	rescuable bool
	// raw renders leaf k's file value as JSON, for rescued data.
	raw []func(parquet.Value) string
}

// RescuedValue is a file value that does not fit its wanted column (an
// integer or decimal out of the column type's range), read as NULL when
// rescue is on (see SetRescue).
type RescuedValue struct {
	// Column is the column's name in the file.
	Column string
	// JSON is the value as a JSON value (a number or a string).
	JSON string
}

// Open prepares to read the Parquet file f of size bytes as rows of want.
// name identifies the file in errors. partitionValues holds Delta partition
// values (column name → serialized value, see ParsePartitionValue) for
// columns not stored in the file; it may be nil.
//
// Errors name the file: unreadable or corrupt footers, columns whose file
// type cannot be read as the wanted type, invalid partition values.
func Open(name string, f io.ReaderAt, size int64, want types.Schema, partitionValues map[string]string) (r *Reader, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("read %s: corrupt Parquet file: %v", name, p)
		}
	}()
	file, err := parquet.OpenFile(f, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true), parquet.ReadBufferSize(readBufferSize(size)))
	if err != nil {
		return nil, fmt.Errorf("read %s: not a readable Parquet file: %w", name, err)
	}
	for _, e := range file.Metadata().Schema {
		if e.Type.Valid && (e.Type.V < format.Boolean || e.Type.V > format.FixedLenByteArray) {
			return nil, fmt.Errorf("read %s: corrupt Parquet file: column %q has invalid physical type %d", name, e.Name, e.Type.V)
		}
	}
	r = &Reader{name: name, file: file, want: want, numRows: file.NumRows()}
	if err := r.plan(partitionValues); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return r, nil
}

// readBufferSize is the size of the buffer each column chunk is read
// through: 1 MiB for large files, less for small ones, whose columns are
// small (a buffer is allocated and cleared per column, so a 1 MiB buffer
// for each of the 40 columns of a 100 KB Delta checkpoint cost more than
// reading it).
func readBufferSize(fileSize int64) int {
	return int(min(max(fileSize/8, 4<<10), 1<<20))
}

// NumRows returns the number of rows in the file.
func (r *Reader) NumRows() int64 { return r.numRows }

// Schema returns the wanted schema the rows are in.
func (r *Reader) Schema() types.Schema { return r.want }

func (r *Reader) plan(partitionValues map[string]string) error {
	l := newLayout(r.want)
	root := r.file.Root()
	fileCols := root.Columns()
	r.numFile = len(r.file.Schema().Columns())
	r.root = &rnode{kind: rStruct, n: r.numFile}
	r.consts = make([]any, len(r.want))
	r.isConst = make([]bool, len(r.want))
	// File top-level columns, all of them, for the generic path.
	def := 0
	for _, c := range fileCols {
		fi := -1
		for i, f := range r.want {
			if f.Name == c.Name() {
				fi = i
			}
		}
		if fi < 0 {
			fi = r.want.Index(c.Name())
		}
		var want *types.Type
		if fi >= 0 && !isPartition(partitionValues, r.want[fi].Name) {
			want = &r.want[fi].Type
		}
		n, err := buildFile(c, want, def, 0, false, "")
		if err != nil {
			return err
		}
		r.root.children = append(r.root.children, n)
	}
	fast, columnar := true, true
	r.root.out = make([]int, len(r.want))
	r.cols = make([]colPlan, len(r.want))
	for i, f := range r.want {
		cn := l.roots[i]
		cp := colPlan{src: -1, first: cn.firstLeaf, n: cn.numLeaves}
		r.root.out[i] = -1
		if isPartition(partitionValues, f.Name) {
			if f.Type.IsNested() {
				return fmt.Errorf("partition column %s has nested type %s", f.Name, f.Type)
			}
			v, err := ParsePartitionValue(lookupFold(partitionValues, f.Name), f.Type)
			if err != nil {
				return fmt.Errorf("column %s: %w", f.Name, err)
			}
			r.consts[i], r.isConst[i] = v, true
			if v != nil {
				pv, err := leafValue(v, f.Type)
				if err != nil {
					return err
				}
				cp.constant, cp.def = &pv, cn.def
			}
			fast = false
			r.cols[i] = cp
			continue
		}
		j := -1
		for k, c := range fileCols {
			if c.Name() == f.Name {
				j = k
			}
		}
		if j < 0 {
			for k, c := range fileCols {
				if strings.EqualFold(c.Name(), f.Name) {
					j = k
					break
				}
			}
		}
		if j < 0 {
			if !f.Nullable {
				return fmt.Errorf("column %s is NOT NULL but the file has no such column", f.Name)
			}
			fast = false
			r.cols[i] = cp
			continue
		}
		r.root.out[i] = j
		fn := r.root.children[j]
		if j != i || fn.first != cn.firstLeaf {
			fast = false
		}
		if !sameShape(fn, canonicalPlan(cn, "")) {
			fast, columnar = false, false
			continue
		}
		cp.src = fn.first
		cp.name = fileCols[j].Name()
		cp.rescuable = f.Nullable && !f.Type.IsNested()
		cp.raw = make([]func(parquet.Value) string, cn.numLeaves)
		cp.conv = make([]func(parquet.Value) (parquet.Value, error), cn.numLeaves)
		leaves := l.leaves[cn.firstLeaf : cn.firstLeaf+cn.numLeaves]
		for k, leaf := range leaves {
			col := leafColumn(r.file, fn.first+k)
			s, err := sourceOf(col)
			if err != nil {
				return fmt.Errorf("column %s: %w", strings.Join(col.Path(), "."), err)
			}
			if s.identity(leaf.Type) {
				continue
			}
			fast = false
			t := leaf.Type
			cp.raw[k] = func(v parquet.Value) string { return rawJSON(s, v) }
			cp.conv[k] = func(v parquet.Value) (parquet.Value, error) {
				x, err := s.decode(v)
				if err != nil {
					return v, err
				}
				if x, err = convertTo(x, t); err != nil {
					return v, err
				}
				return leafValue(x, t)
			}
		}
		r.cols[i] = cp
	}
	if r.numFile != len(l.leaves) {
		fast = false
	}
	switch {
	case fast:
		r.mode = modeFast
	case columnar:
		r.mode = modeColumns
	default:
		r.mode = modeGeneric
		r.enc = NewEncoder(r.want)
	}
	return nil
}

func isPartition(pv map[string]string, name string) bool {
	if pv == nil {
		return false
	}
	for k := range pv {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

func lookupFold(pv map[string]string, name string) string {
	if v, ok := pv[name]; ok {
		return v
	}
	for k, v := range pv {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// leafColumn returns the file's leaf column of the given index.
func leafColumn(f *parquet.File, index int) *parquet.Column {
	var found *parquet.Column
	var walk func(c *parquet.Column)
	walk = func(c *parquet.Column) {
		if found != nil {
			return
		}
		if c.Leaf() {
			if c.Index() == index {
				found = c
			}
			return
		}
		for _, ch := range c.Columns() {
			walk(ch)
		}
	}
	walk(f.Root())
	return found
}

// sameShape reports whether a file plan shreds exactly like the canonical
// plan: same nesting, optionality, levels and field order.
func sameShape(f, c *rnode) bool {
	if f.kind != c.kind || f.optional != c.optional || f.def != c.def || f.n != c.n || len(f.children) != len(c.children) {
		return false
	}
	if f.kind == rList || f.kind == rMap {
		if f.rep != c.rep || f.listDef != c.listDef {
			return false
		}
	}
	if f.kind == rStruct {
		if len(f.out) != len(f.children) {
			return false
		}
		for i, j := range f.out {
			if j != i {
				return false
			}
		}
	}
	for i := range f.children {
		if f.children[i] == nil || !sameShape(f.children[i], c.children[i]) {
			return false
		}
	}
	return true
}

func isList(c *parquet.Column) bool {
	if lt := c.Type().LogicalType(); lt != nil {
		_, ok := lt.Value.(*format.ListType)
		return ok
	}
	return false
}

func isMap(c *parquet.Column) bool {
	if lt := c.Type().LogicalType(); lt != nil {
		_, ok := lt.Value.(*format.MapType)
		return ok
	}
	return false
}

// buildFile returns the assembly plan of the file column c read as want
// (nil: not wanted, values are skipped). parentDef and parentRep are the
// levels of c's parent; asElement says c is the repeated node of a legacy
// list, standing for the element itself (its repetition already counted).
func buildFile(c *parquet.Column, want *types.Type, parentDef, parentRep int, asElement bool, path string) (*rnode, error) {
	if path != "" {
		path += "."
	}
	path += c.Name()
	n := &rnode{name: path, def: parentDef, first: firstLeaf(c), n: numLeaves(c)}
	mismatch := func(what string) error {
		return fmt.Errorf("column %s is %s in the file, cannot read it as %s", path, what, *want)
	}
	if c.Repeated() && !asElement {
		// An unannotated repeated field: a required list of required elements.
		if want != nil && want.Kind != types.ArrayKind {
			return nil, mismatch("a repeated field")
		}
		n.kind, n.rep, n.listDef = rList, parentRep+1, parentDef+1
		var elem *types.Type
		if want != nil {
			elem = want.Elem
		}
		e, err := buildFile(c, elem, parentDef+1, parentRep+1, true, strings.TrimSuffix(path, "."+c.Name()))
		if err != nil {
			return nil, err
		}
		n.children = []*rnode{e}
		return n, nil
	}
	if c.Optional() {
		n.optional = true
		n.def++
	}
	switch {
	case !c.Leaf() && isList(c) && !asElement:
		if want != nil && want.Kind != types.ArrayKind {
			return nil, mismatch("a LIST")
		}
		kids := c.Columns()
		if len(kids) != 1 || !kids[0].Repeated() {
			return nil, fmt.Errorf("column %s: malformed LIST (want one repeated child)", path)
		}
		rep := kids[0]
		n.kind, n.rep, n.listDef = rList, parentRep+1, n.def+1
		var elem *types.Type
		if want != nil {
			elem = want.Elem
		}
		var e *rnode
		var err error
		if rep.Leaf() || len(rep.Columns()) > 1 || rep.Name() == "array" || rep.Name() == c.Name()+"_tuple" {
			// 2-level list: the repeated node is the element.
			e, err = buildFile(rep, elem, n.listDef, n.rep, true, path)
		} else {
			e, err = buildFile(rep.Columns()[0], elem, n.listDef, n.rep, false, path+"."+rep.Name())
		}
		if err != nil {
			return nil, err
		}
		n.children = []*rnode{e}
		return n, nil
	case !c.Leaf() && isMap(c) && !asElement:
		if want != nil && want.Kind != types.MapKind {
			return nil, mismatch("a MAP")
		}
		kids := c.Columns()
		if len(kids) != 1 || !kids[0].Repeated() || len(kids[0].Columns()) < 1 || len(kids[0].Columns()) > 2 {
			return nil, fmt.Errorf("column %s: malformed MAP (want one repeated key/value group)", path)
		}
		kv := kids[0]
		n.kind, n.rep, n.listDef = rMap, parentRep+1, n.def+1
		var kt, vt *types.Type
		if want != nil {
			kt, vt = want.Key, want.Value
		}
		kp := path + "." + kv.Name()
		k, err := buildFile(kv.Columns()[0], kt, n.listDef, n.rep, false, kp)
		if err != nil {
			return nil, err
		}
		n.children = []*rnode{k, nil}
		if len(kv.Columns()) == 2 {
			v, err := buildFile(kv.Columns()[1], vt, n.listDef, n.rep, false, kp)
			if err != nil {
				return nil, err
			}
			n.children[1] = v
		}
		return n, nil
	case !c.Leaf():
		if want != nil && want.Kind != types.StructKind {
			return nil, mismatch("a group")
		}
		n.kind = rStruct
		for _, k := range c.Columns() {
			var ft *types.Type
			fi := -1
			if want != nil {
				fi = want.FieldIndex(k.Name())
				if fi >= 0 {
					ft = &want.Fields[fi].Type
				}
			}
			kn, err := buildFile(k, ft, n.def, parentRep, false, path)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, kn)
		}
		if want != nil {
			n.out = make([]int, len(want.Fields))
			for i, f := range want.Fields {
				n.out[i] = -1
				for j, k := range c.Columns() {
					if strings.EqualFold(k.Name(), f.Name) && (n.out[i] < 0 || k.Name() == f.Name) {
						n.out[i] = j
					}
				}
			}
		}
		return n, nil
	}
	n.kind = rLeaf
	if want == nil {
		n.conv = func(parquet.Value) (any, error) { return nil, nil }
		return n, nil
	}
	if want.IsNested() {
		return nil, mismatch(c.Type().String())
	}
	s, err := sourceOf(c)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", path, err)
	}
	if !s.convertible(*want) {
		return nil, mismatch(s.desc)
	}
	t := *want
	if s.identity(t) {
		n.conv = canonicalConv(t)
	} else {
		n.conv = func(v parquet.Value) (any, error) {
			x, err := s.decode(v)
			if err != nil {
				return nil, err
			}
			return convertTo(x, t)
		}
	}
	return n, nil
}

func firstLeaf(c *parquet.Column) int {
	for !c.Leaf() {
		kids := c.Columns()
		if len(kids) == 0 {
			return 0
		}
		c = kids[0]
	}
	return c.Index()
}

func numLeaves(c *parquet.Column) int {
	if c.Leaf() {
		return 1
	}
	n := 0
	for _, k := range c.Columns() {
		n += numLeaves(k)
	}
	return n
}

// ReadRows reads up to len(rows) rows into rows, reusing their capacity,
// and returns how many it read; io.EOF once the file is exhausted. The rows'
// values may point into the Reader's buffers and are valid until the next
// call. Corrupt data gives an error naming the file.
func (r *Reader) ReadRows(rows []parquet.Row) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			n, err = 0, fmt.Errorf("read %s: corrupt Parquet file: %v", r.name, p)
		}
	}()
	for n == 0 {
		if r.rows == nil {
			groups := r.file.RowGroups()
			if r.rg >= len(groups) {
				return 0, io.EOF
			}
			r.rows = groups[r.rg].Rows()
			r.rg++
		}
		var m int
		var err error
		for i := range r.rescued {
			r.rescued[i] = r.rescued[i][:0]
		}
		if r.mode == modeFast {
			m, err = r.rows.ReadRows(rows)
		} else {
			if cap(r.buf) < len(rows) {
				r.buf = make([]parquet.Row, len(rows))
			}
			r.buf = r.buf[:len(rows)]
			m, err = r.rows.ReadRows(r.buf)
			for i := 0; i < m; i++ {
				var cerr error
				if r.mode == modeColumns {
					rows[i], cerr = r.columns(rows[i][:0], r.buf[i], i)
				} else {
					rows[i], cerr = r.generic(rows[i][:0], r.buf[i])
				}
				if cerr != nil {
					return 0, fmt.Errorf("read %s: row %d: %w", r.name, r.done+int64(i)+1, cerr)
				}
			}
		}
		n = m
		r.done += int64(m)
		if errors.Is(err, io.EOF) {
			r.rows.Close()
			r.rows = nil
		} else if err != nil {
			return 0, fmt.Errorf("read %s: %w", r.name, err)
		}
	}
	return n, nil
}

// SetRescue turns on rescue: a value that does not fit its nullable
// column of a primitive type (an integer or decimal out of the type's
// range) is read as NULL and reported by RescuedValues, as Databricks Auto
// Loader rescues such values; without it (and in other columns) it is an
// error naming the file, the 1-based row and the column.
func (r *Reader) SetRescue(on bool) { r.rescue = on }

// RescuedValues returns the values rescued from row i of the last ReadRows
// (nil when none); valid until the next ReadRows.
func (r *Reader) RescuedValues(i int) []RescuedValue {
	if i < len(r.rescued) {
		return r.rescued[i]
	}
	return nil
}

// rawJSON renders a file value as JSON for rescued data.
func rawJSON(s leafSource, v parquet.Value) string {
	x, err := s.decode(v)
	if err != nil {
		return "null"
	}
	switch x := x.(type) {
	case decValue:
		return x.d.Format(x.scale)
	case string:
		b, _ := json.Marshal(x)
		return string(b)
	case []byte:
		b, _ := json.Marshal(x)
		return string(b)
	case types.Date:
		return `"` + x.String() + `"`
	case types.Timestamp:
		return `"` + x.String() + `"`
	}
	return fmt.Sprint(x)
}

func (r *Reader) columns(out, in parquet.Row, row int) (parquet.Row, error) {
	if err := r.asm.reset(in, r.numFile); err != nil {
		return out, err
	}
	if need := len(in) + len(r.cols); cap(out) < need {
		out = make(parquet.Row, 0, need+need/4)
	}
	for _, cp := range r.cols {
		for k := 0; k < cp.n; k++ {
			idx := cp.first + k
			if cp.src < 0 {
				if cp.constant != nil {
					out = append(out, cp.constant.Level(0, cp.def, idx))
				} else {
					out = append(out, parquet.NullValue().Level(0, 0, idx))
				}
				continue
			}
			vals := r.asm.vals[cp.src+k]
			start := len(out)
			out = append(out, vals...)
			added := out[start:]
			if conv := cp.conv[k]; conv != nil {
				for i := range added {
					v := &added[i]
					if v.IsNull() {
						continue
					}
					cv, err := conv(*v)
					if err != nil && r.rescue && cp.rescuable {
						for len(r.rescued) <= row {
							r.rescued = append(r.rescued, nil)
						}
						r.rescued[row] = append(r.rescued[row], RescuedValue{Column: cp.name, JSON: cp.raw[k](*v)})
						*v = parquet.NullValue().Level(v.RepetitionLevel(), 0, idx)
						continue
					}
					if err != nil {
						return out, fmt.Errorf("column %q: %w", cp.name, err)
					}
					*v = cv.Level(v.RepetitionLevel(), v.DefinitionLevel(), idx)
				}
			}
			if cp.src+k != idx {
				for i := range added {
					added[i].SetColumnIndex(idx)
				}
			}
		}
	}
	return out, nil
}

func (r *Reader) generic(out, in parquet.Row) (parquet.Row, error) {
	if err := r.asm.reset(in, r.numFile); err != nil {
		return out, err
	}
	vals, err := r.asm.readStruct(r.root)
	if err != nil {
		return out, err
	}
	for i, c := range r.isConst {
		if c {
			vals[i] = r.consts[i]
		}
	}
	return r.enc.Append(out, vals)
}

// Close releases the Reader's row group readers. It does not close the
// underlying file.
func (r *Reader) Close() error {
	if r.rows != nil {
		err := r.rows.Close()
		r.rows = nil
		return err
	}
	return nil
}

// ReadAll reads every row of r into generic values (see Decode), for tests
// and small files.
func (r *Reader) ReadAll() ([][]any, error) {
	rows, err := DecodeAll(r, r.want)
	if err != nil {
		return rows, fmt.Errorf("read %s: %w", r.name, err)
	}
	return rows, nil
}

// RowReader is what DecodeAll reads from: Reader, delta's Scanner.
type RowReader interface {
	// ReadRows reads up to len(rows) rows; io.EOF at the end.
	ReadRows(rows []parquet.Row) (int, error)
}

// DecodeAll reads every remaining row of r, in the canonical layout of s,
// into generic values (see Decode).
func DecodeAll(r RowReader, s types.Schema) ([][]any, error) {
	dec := NewDecoder(s)
	var out [][]any
	buf := make([]parquet.Row, 256)
	for {
		n, err := r.ReadRows(buf)
		for _, row := range buf[:n] {
			v, derr := dec.Decode(row)
			if derr != nil {
				return out, derr
			}
			out = append(out, v)
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}
