package spec

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/pipegen/pipegen/runtime/source"
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

// decodeFile adds one schema-valid file's contents to ast.
func (l *loader) decodeFile(ast *SpecAST, f *File) {
	entries(f.root, func(k, v *yaml.Node) {
		switch k.Value {
		case "pipeline":
			ast.Pipeline = f.str(v)
		case "description":
			ast.Description = f.str(v)
		case "catalog":
			ast.Catalog = f.str(v)
		case "schema":
			ast.Schema = f.str(v)
		case "session_time_zone":
			ast.SessionTimeZone = f.str(v)
		case "checks":
			for _, c := range v.Content {
				ast.Checks = append(ast.Checks, f.str(c))
			}
		case "libraries":
			for _, c := range v.Content {
				ast.Libraries = append(ast.Libraries, f.str(c))
			}
		case "trigger":
			t := &TriggerDecl{Pos: f.pos(k)}
			if v.Kind == yaml.ScalarNode {
				t.Mode = f.str(v)
			} else {
				t.Interval = f.str(mapValue(v, "interval"))
			}
			ast.Trigger = t
		case "parameters":
			entries(v, func(pk, pv *yaml.Node) {
				p := &ParamDecl{Name: f.str(pk)}
				entries(pv, func(k, v *yaml.Node) {
					switch k.Value {
					case "type":
						p.Type = f.str(v)
					case "default":
						p.Default, p.DefaultTag = f.str(v), v.ShortTag()
					case "description":
						p.Description = f.str(v)
					}
				})
				ast.Parameters = append(ast.Parameters, p)
			})
		case "sources":
			entries(v, func(sk, sv *yaml.Node) { ast.Sources = append(ast.Sources, f.source(sk, sv)) })
		case "datasets":
			entries(v, func(dk, dv *yaml.Node) { ast.Datasets = append(ast.Datasets, f.dataset(dk, dv)) })
		case "flows":
			entries(v, func(fk, fv *yaml.Node) { ast.Flows = append(ast.Flows, f.flow(fk, fv)) })
		}
	})
}

func (f *File) source(k, v *yaml.Node) *SourceDecl {
	s := &SourceDecl{Name: f.str(k)}
	entries(v, func(k, v *yaml.Node) {
		switch k.Value {
		case "table":
			s.Table = f.str(v)
		case "schema":
			s.Schema = f.str(v)
		case "rescued_data_column":
			s.RescuedDataColumn = f.str(v)
			if v.Tag == "!!bool" {
				s.NoRescuedData = v.Value == "false"
			}
		case "files":
			fd := &FilesDecl{Pos: f.pos(k)}
			entries(v, func(k, v *yaml.Node) {
				switch k.Value {
				case "path":
					fd.Path = f.str(v)
				case "format":
					fd.Format = f.str(v)
				case "max_files_per_trigger":
					fd.MaxFilesPerTrigger = f.integer(v)
				case "max_bytes_per_trigger":
					fd.MaxBytesPerTrigger = f.str(v)
				case "include_existing_files":
					fd.IncludeExistingFiles = f.boolean(v)
				case "path_glob_filter":
					fd.PathGlobFilter = f.str(v)
				case "allow_overwrites":
					fd.AllowOverwrites = f.boolean(v)
				case "min_file_age":
					fd.MinFileAge = f.str(v)
				case "ignore_corrupt_files":
					fd.IgnoreCorruptFiles = f.boolean(v)
				case "ignore_missing_files":
					fd.IgnoreMissingFiles = f.boolean(v)
				case "on_malformed":
					fd.OnMalformed = f.str(v)
				case "schema_evolution":
					fd.SchemaEvolution = f.str(v)
				default:
					if _, ok := source.LookupFormat(k.Value); ok { // an options block: csv: {...}
						fd.Options = append(fd.Options, &FormatOptionsDecl{Format: f.str(k), Values: f.keyValues(v)})
					}
				}
			})
			s.Files = fd
		}
	})
	return s
}

func (f *File) dataset(k, v *yaml.Node) *DatasetDecl {
	d := &DatasetDecl{Name: f.str(k)}
	entries(v, func(k, v *yaml.Node) {
		switch k.Value {
		case "kind":
			d.Kind = f.str(v)
		case "comment":
			d.Comment = f.str(v)
		case "properties":
			d.Properties = f.keyValues(v)
		case "partition_by":
			d.PartitionBy = f.strList(v)
		case "schema":
			d.Schema = f.str(v)
		case "query":
			d.Query = f.str(v)
		case "read_change_feed":
			d.ReadChangeFeed = f.boolean(v)
		case "watermark":
			d.Watermark = f.watermark(k, v)
		case "expectations":
			for _, e := range v.Content {
				ed := &ExpectationDecl{Pos: f.pos(e)}
				entries(e, func(k, v *yaml.Node) {
					switch k.Value {
					case "name":
						ed.Name = f.str(v)
					case "expr":
						ed.Expr = f.str(v)
					case "on_violation":
						ed.OnViolation = f.str(v)
					}
				})
				d.Expectations = append(d.Expectations, ed)
			}
		}
	})
	return d
}

// watermark reads a `watermark: {column, delay}` mapping whose key is k.
func (f *File) watermark(k, v *yaml.Node) *WatermarkDecl {
	w := &WatermarkDecl{Pos: f.pos(k)}
	entries(v, func(k, v *yaml.Node) {
		switch k.Value {
		case "column":
			w.Column = f.str(v)
		case "delay":
			w.Delay = f.str(v)
		}
	})
	return w
}

func (f *File) flow(k, v *yaml.Node) *FlowDecl {
	fl := &FlowDecl{Name: f.str(k)}
	entries(v, func(k, v *yaml.Node) {
		switch k.Value {
		case "target":
			fl.Target = f.str(v)
		case "query":
			fl.Query = f.str(v)
		case "once":
			fl.Once = f.boolean(v)
		case "read_change_feed":
			fl.ReadChangeFeed = f.boolean(v)
		case "watermark":
			fl.Watermark = f.watermark(k, v)
		case "comment":
			fl.Comment = f.str(v)
		case "auto_cdc":
			a := &AutoCDCDecl{Pos: f.pos(k)}
			entries(v, func(k, v *yaml.Node) {
				switch k.Value {
				case "source":
					a.Source = f.str(v)
				case "keys":
					a.Keys = f.strList(v)
				case "sequence_by":
					a.SequenceBy = f.strList(v)
				case "ignore_null_updates":
					a.IgnoreNullUpdates = f.boolean(v)
				case "apply_as_deletes":
					a.ApplyAsDeletes = f.str(v)
				case "apply_as_truncates":
					a.ApplyAsTruncates = f.str(v)
				case "columns":
					a.Columns = f.strList(v)
				case "except_columns":
					a.ExceptColumns = f.strList(v)
				case "scd_type":
					a.SCDType = f.integer(v)
				case "track_history_columns":
					a.TrackHistoryColumns = f.strList(v)
				case "track_history_except_columns":
					a.TrackHistoryExceptColumns = f.strList(v)
				}
			})
			fl.AutoCDC = a
		}
	})
	return fl
}
