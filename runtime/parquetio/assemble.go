package parquetio

import (
	"fmt"

	"github.com/parquet-go/parquet-go"
)

// This file assembles records from the column values of one parquet.Row
// (the inverse of shredding, Dremel's record assembly) for any layout: the
// canonical one (Decode) and the layouts of foreign files (Reader). A plan of
// rnodes mirrors the file's schema tree and says what to produce for the
// wanted type at each node.

type rkind uint8

const (
	rLeaf rkind = iota
	rStruct
	rList
	rMap
)

type rnode struct {
	kind     rkind
	name     string // dotted path in the file, for errors
	optional bool
	// def is the definition level at which the node is non-NULL.
	def int
	// rep and listDef: for lists and maps, the repetition level of the
	// repeated group and the definition level at which it has an element.
	rep, listDef int
	// first and n locate the leaf columns under the node (contiguous).
	first, n int
	// children: struct fields of the file; list [element]; map [key, value]
	// (value may be nil when the file's map has no value column).
	children []*rnode
	// out maps, for a struct, each wanted field to the index of the child
	// that holds it, or -1 when the file lacks it (read as NULL).
	out []int
	// conv turns a present leaf value into the wanted Go value.
	conv func(parquet.Value) (any, error)
}

// assembler holds the per-column cursors over one row.
type assembler struct {
	vals [][]parquet.Value
	pos  []int
}

// reset splits row into its columns; numCols is the number of leaf columns
// of the row's layout. Every column must have at least one value.
func (a *assembler) reset(row parquet.Row, numCols int) error {
	if cap(a.vals) < numCols {
		a.vals = make([][]parquet.Value, numCols)
		a.pos = make([]int, numCols)
	}
	a.vals, a.pos = a.vals[:numCols], a.pos[:numCols]
	for i := range a.vals {
		a.vals[i], a.pos[i] = nil, 0
	}
	start, last := 0, -1
	for start < len(row) {
		c := row[start].Column()
		end := start + 1
		for end < len(row) && row[end].Column() == c {
			end++
		}
		if c <= last || c >= numCols {
			return fmt.Errorf("row has values of column %d out of order or out of range (%d leaf columns)", c, numCols)
		}
		a.vals[c] = row[start:end]
		start, last = end, c
	}
	for c, v := range a.vals {
		if len(v) == 0 {
			return fmt.Errorf("row has no value for leaf column %d", c)
		}
	}
	return nil
}

func (a *assembler) peek(col int) (parquet.Value, bool) {
	if a.pos[col] >= len(a.vals[col]) {
		return parquet.Value{}, false
	}
	return a.vals[col][a.pos[col]], true
}

func (a *assembler) skip(n *rnode) {
	for c := n.first; c < n.first+n.n; c++ {
		a.pos[c]++
	}
}

func (a *assembler) read(n *rnode) (any, error) {
	v, ok := a.peek(n.first)
	if !ok {
		return nil, fmt.Errorf("column %s: fewer values than its levels require", n.name)
	}
	if v.DefinitionLevel() < n.def {
		if !n.optional {
			return nil, fmt.Errorf("column %s: definition level %d below %d for a required field", n.name, v.DefinitionLevel(), n.def)
		}
		a.skip(n)
		return nil, nil
	}
	switch n.kind {
	case rLeaf:
		a.pos[n.first]++
		if v.IsNull() {
			return nil, fmt.Errorf("column %s: null value at the maximum definition level", n.name)
		}
		out, err := n.conv(v)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", n.name, err)
		}
		return out, nil
	case rStruct:
		return a.readStruct(n)
	}
	if v.DefinitionLevel() < n.listDef {
		a.skip(n)
		if n.kind == rMap {
			return []MapEntry{}, nil
		}
		return []any{}, nil
	}
	var list []any
	var entries []MapEntry
	for {
		if n.kind == rList {
			e, err := a.read(n.children[0])
			if err != nil {
				return nil, err
			}
			list = append(list, e)
		} else {
			k, err := a.read(n.children[0])
			if err != nil {
				return nil, err
			}
			var val any
			if n.children[1] != nil {
				if val, err = a.read(n.children[1]); err != nil {
					return nil, err
				}
			}
			entries = append(entries, MapEntry{Key: k, Value: val})
		}
		next, ok := a.peek(n.first)
		if !ok || next.RepetitionLevel() != n.rep {
			break
		}
	}
	if n.kind == rMap {
		return entries, nil
	}
	return list, nil
}

func (a *assembler) readStruct(n *rnode) (Struct, error) {
	var buf [16]any
	vals := buf[:0]
	for _, c := range n.children {
		v, err := a.read(c)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	out := make(Struct, len(n.out))
	for i, j := range n.out {
		if j >= 0 {
			out[i] = vals[j]
		}
	}
	return out, nil
}
