package spec

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxDepth bounds the nesting (aliases included) the loader follows, so a
// hostile document cannot exhaust the stack.
const maxDepth = 64

// nodeIndex maps JSON pointers of a converted YAML document back to the
// YAML nodes they came from, so schema violations can be reported at the
// node's file:line:col.
type nodeIndex struct {
	values map[string]*yaml.Node // pointer → value node
	keys   map[string]*yaml.Node // pointer → key node, for mapping members
}

func pointerKey(path []string) string { return strings.Join(path, "\x00") }

// toJSON converts a YAML node into JSON values (map[string]any, []any,
// string, bool, json.Number, nil) as the schema validator expects,
// recording every node's position in idx and reporting duplicate keys,
// non-scalar keys and over-deep nesting.
func (l *loader) toJSON(f *File, n *yaml.Node, path []string, idx *nodeIndex, depth int) any {
	if n == nil {
		return nil
	}
	if depth > maxDepth {
		l.errorf(f.pos(n), "YAML", "", "nesting is deeper than %d levels", maxDepth)
		return nil
	}
	if n.Kind == yaml.AliasNode {
		return l.toJSON(f, n.Alias, path, idx, depth+1)
	}
	idx.values[pointerKey(path)] = n
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return l.toJSON(f, n.Content[0], path, idx, depth+1)
	case yaml.MappingNode:
		obj := make(map[string]any, len(n.Content)/2)
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			for k.Kind == yaml.AliasNode && k.Alias != nil && depth < maxDepth {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				l.errorf(f.pos(k), "YAML", "", "mapping keys must be plain strings")
				continue
			}
			if prev, ok := seen[k.Value]; ok {
				l.errorf(f.pos(k), "YAML", "remove one of them", "duplicate key %q (first defined at line %d)", k.Value, prev.Line)
				continue
			}
			seen[k.Value] = k
			child := append(append([]string(nil), path...), k.Value)
			idx.keys[pointerKey(child)] = k
			obj[k.Value] = l.toJSON(f, v, child, idx, depth+1)
		}
		return obj
	case yaml.SequenceNode:
		arr := make([]any, 0, len(n.Content))
		for i, c := range n.Content {
			child := append(append([]string(nil), path...), strconv.Itoa(i))
			arr = append(arr, l.toJSON(f, c, child, idx, depth+1))
		}
		return arr
	case yaml.ScalarNode:
		return scalarJSON(n)
	}
	return nil
}

// scalarJSON converts a scalar by its resolved YAML 1.2 tag.
func scalarJSON(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
		var u uint64
		if n.Decode(&u) == nil {
			return json.Number(strconv.FormatUint(u, 10))
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
	}
	return n.Value
}
