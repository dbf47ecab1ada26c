package spec

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/pipegen/pipegen/schema"
)

// loader reads the files of one pipeline and collects diagnostics.
type loader struct {
	diagSink
	readFile func(string) ([]byte, error)
}

// LoadAST reads the pipeline spec at path and the library files it lists,
// validates each against the JSON Schema and returns the syntax tree. The
// tree is nil when a file cannot be read or parsed or violates the schema;
// the diagnostics say why. It never panics on user input.
func LoadAST(path string) (*SpecAST, Diagnostics) {
	l := &loader{readFile: os.ReadFile}
	ast := l.load(path)
	l.diags.Sort()
	return ast, l.diags
}

// LoadASTBytes is LoadAST for a main file held in memory (libraries are
// still read from disk, relative to path's directory).
func LoadASTBytes(path string, src []byte) (*SpecAST, Diagnostics) {
	l := &loader{readFile: func(p string) ([]byte, error) {
		if p == path {
			return src, nil
		}
		return os.ReadFile(p)
	}}
	ast := l.load(path)
	l.diags.Sort()
	return ast, l.diags
}

func (l *loader) load(path string) *SpecAST {
	main := l.parseFile(path, false)
	if main == nil {
		return nil
	}
	files := []*File{main}
	l.validate(main, schema.MainFile)
	libs := l.libraryFiles(main)
	for _, lib := range libs {
		if f := l.parseFile(lib, true); f != nil {
			l.validate(f, schema.LibraryFile)
			files = append(files, f)
		}
	}
	if l.diags.HasErrors() {
		return nil
	}
	ast := &SpecAST{Files: files}
	for _, f := range files {
		l.decodeFile(ast, f)
	}
	if l.diags.HasErrors() {
		return nil
	}
	return ast
}

// parseFile reads and parses one YAML file; nil when it cannot.
func (l *loader) parseFile(path string, library bool) *File {
	src, err := l.readFile(path)
	if err != nil {
		msg := err.Error()
		if os.IsNotExist(err) {
			msg = "no such file"
		}
		l.errorf(Pos{File: path}, "", "", "cannot read %s: %s", path, msg)
		return nil
	}
	f := &File{Path: path, Src: src, Library: library}
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	var doc yaml.Node
	if err := unmarshalYAML(src, &doc); err != nil {
		line, col, msg, hint := YAMLSyntaxError(src, err)
		l.errorf(Pos{File: path, Line: line, Col: col}, "YAML", hint, "invalid YAML: %s", msg)
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		l.errorf(Pos{File: path, Line: 1, Col: 1}, "YAML", "", "the file is empty: a spec is a YAML mapping starting with `pipeline: NAME`")
		return nil
	}
	f.root = doc.Content[0]
	f.lines = strings.Split(string(f.Src), "\n")
	for i, s := range f.lines {
		f.lines[i] = strings.TrimSuffix(s, "\r")
	}
	if len(f.lines) > 0 {
		f.lines[0] = strings.TrimPrefix(f.lines[0], "\ufeff")
	}
	return f
}

// validate checks one file against the JSON Schema.
func (l *loader) validate(f *File, kind string) {
	idx := &nodeIndex{values: map[string]*yaml.Node{}, keys: map[string]*yaml.Node{}}
	n := len(l.diags)
	doc := l.toJSON(f, f.root, nil, idx, 0)
	if len(l.diags) > n {
		return
	}
	vs, err := schema.Validate(doc, kind)
	if err != nil {
		l.errorf(Pos{File: f.Path}, "INTERNAL", "", "%v", err)
		return
	}
	for _, v := range vs {
		var node *yaml.Node
		hint := ""
		if v.Key != "" {
			node = idx.keys[pointerKey(append(append([]string(nil), v.Path...), v.Key))]
			if len(v.Allowed) > 0 {
				hint = didYouMean(v.Key, v.Allowed)
				if hint == "" {
					hint = "allowed keys: " + strings.Join(v.Allowed, ", ")
				}
			}
		} else if v.Got != "" && len(v.Allowed) > 0 {
			hint = didYouMean(v.Got, v.Allowed)
			node = idx.values[pointerKey(v.Path)]
		} else if k := idx.keys[pointerKey(v.Path)]; k != nil && strings.HasPrefix(v.Message, "missing required key") {
			node = k
		} else {
			node = idx.values[pointerKey(v.Path)]
		}
		if node == nil {
			node = f.root
		}
		l.errorf(f.pos(node), "SCHEMA", hint, "%s", v.Message)
	}
}

// libraryFiles expands the main file's `libraries:` entries.
func (l *loader) libraryFiles(main *File) []string {
	libs := mapValue(main.root, "libraries")
	if libs == nil || libs.Kind != yaml.SequenceNode {
		return nil
	}
	dir := filepath.Dir(main.Path)
	seen := map[string]bool{filepath.Clean(main.Path): true}
	var out []string
	for _, item := range libs.Content {
		if item.Kind != yaml.ScalarNode || item.Value == "" {
			continue
		}
		pattern := item.Value
		if !filepath.IsAbs(pattern) {
			pattern = filepath.Join(dir, pattern)
		}
		matches, err := filepath.Glob(pattern)
		if err != nil {
			l.errorf(main.pos(item), "", "", "invalid library pattern %q: %v", item.Value, err)
			continue
		}
		if len(matches) == 0 {
			l.errorf(main.pos(item), "", "paths are relative to "+dir, "library %q matches no file", item.Value)
			continue
		}
		for _, m := range matches {
			if st, err := os.Stat(m); err == nil && st.IsDir() {
				continue
			}
			if c := filepath.Clean(m); !seen[c] {
				seen[c] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// deref follows aliases.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxDepth; i++ {
		n = n.Alias
	}
	return n
}

// mapValue returns the value of key in mapping n, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if deref(n.Content[i]).Value == key {
			return deref(n.Content[i+1])
		}
	}
	return nil
}

// entries calls fn for each key/value of mapping n, in order.
func entries(n *yaml.Node, fn func(k, v *yaml.Node)) {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		fn(deref(n.Content[i]), deref(n.Content[i+1]))
	}
}

func (f *File) str(n *yaml.Node) Str {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return Str{}
	}
	return Str{Value: n.Value, Pos: f.pos(n), node: n, file: f}
}

func (f *File) boolean(n *yaml.Node) Bool {
	var b bool
	if n = deref(n); n == nil || n.Decode(&b) != nil {
		return Bool{}
	}
	return Bool{Value: b, Pos: f.pos(n)}
}

func (f *File) integer(n *yaml.Node) Int {
	var i int64
	if n = deref(n); n == nil || n.Decode(&i) != nil {
		return Int{}
	}
	return Int{Value: i, Pos: f.pos(n)}
}

func (f *File) strList(n *yaml.Node) StrList {
	n = deref(n)
	if n == nil {
		return StrList{}
	}
	l := StrList{Pos: f.pos(n)}
	if n.Kind == yaml.ScalarNode {
		l.Scalar = true
		l.Items = []Str{f.str(n)}
		return l
	}
	for _, c := range n.Content {
		l.Items = append(l.Items, f.str(c))
	}
	return l
}

func (f *File) keyValues(n *yaml.Node) []KeyValue {
	var kvs []KeyValue
	entries(n, func(k, v *yaml.Node) {
		kvs = append(kvs, KeyValue{Key: f.str(k), Value: f.str(v), Tag: v.ShortTag()})
	})
	return kvs
}

// decodeFile adds one schema-valid file's contents to ast (decode.go).
func (l *loader) decodeFile(ast *SpecAST, f *File) { f.decode(nil, f.root, ast) }
