package spec

import (
	"reflect"
	"strings"

	"github.com/pipegen/pipegen/runtime/source"
	"gopkg.in/yaml.v3"
)

// The syntax tree's types (ast.go) name their YAML keys in `yaml` struct
// tags, and decode fills them from a schema-valid document by those tags,
// so a new spec key is one schema entry and one tagged field. A field's
// type says how its node is read:
//
//	Str, Bool, Int, StrList   a scalar (or a list of scalars) with its position
//	[]Str                     a sequence of scalars
//	[]KeyValue                a mapping of scalars (options, properties)
//	*T                        a mapping decoded as T; T's Pos is the key's position
//	[]*T                      a sequence of mappings; each T's Pos is the item's
//	[]*T with ",named"        a mapping of name → mapping; each T's Name is the key
//
// A type that needs more than its tags (a key that is a scalar or a
// mapping, a value whose YAML tag matters) implements afterDecoder.

// afterDecoder is implemented by syntax-tree types that read more of their
// mapping v (whose key is k) after the tagged fields are set.
type afterDecoder interface {
	afterDecode(f *File, k, v *yaml.Node)
}

var (
	typeStr      = reflect.TypeFor[Str]()
	typeBool     = reflect.TypeFor[Bool]()
	typeInt      = reflect.TypeFor[Int]()
	typeStrList  = reflect.TypeFor[StrList]()
	typeStrs     = reflect.TypeFor[[]Str]()
	typeKeyValue = reflect.TypeFor[[]KeyValue]()
	typePos      = reflect.TypeFor[Pos]()
)

// decode sets the tagged fields of the struct dst points to from mapping
// v, whose key is k (nil for the document).
func (f *File) decode(k, v *yaml.Node, dst any) {
	d := reflect.ValueOf(dst).Elem()
	fields := map[string]int{}
	t := d.Type()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name != "" {
			fields[name] = i
		}
	}
	entries(v, func(ek, ev *yaml.Node) {
		if i, ok := fields[ek.Value]; ok {
			f.decodeField(ek, ev, d.Field(i), t.Field(i).Tag.Get("yaml"))
		}
	})
	if a, ok := dst.(afterDecoder); ok {
		a.afterDecode(f, k, v)
	}
}

// decodeField sets field from node v, whose key is k, by the field's type.
func (f *File) decodeField(k, v *yaml.Node, field reflect.Value, tag string) {
	switch ft := field.Type(); {
	case ft == typeStr:
		field.Set(reflect.ValueOf(f.str(v)))
	case ft == typeBool:
		field.Set(reflect.ValueOf(f.boolean(v)))
	case ft == typeInt:
		field.Set(reflect.ValueOf(f.integer(v)))
	case ft == typeStrList:
		field.Set(reflect.ValueOf(f.strList(v)))
	case ft == typeStrs:
		var l []Str
		for _, c := range v.Content {
			l = append(l, f.str(c))
		}
		field.Set(reflect.ValueOf(l))
	case ft == typeKeyValue:
		field.Set(reflect.ValueOf(f.keyValues(v)))
	case ft.Kind() == reflect.Pointer:
		field.Set(f.decodeStruct(nil, k, v, ft.Elem()))
	case ft.Kind() == reflect.Slice && strings.HasSuffix(tag, ",named"):
		entries(v, func(nk, nv *yaml.Node) {
			field.Set(reflect.Append(field, f.decodeStruct(nk, nk, nv, ft.Elem().Elem())))
		})
	case ft.Kind() == reflect.Slice:
		for _, c := range v.Content {
			field.Set(reflect.Append(field, f.decodeStruct(nil, deref(c), deref(c), ft.Elem().Elem())))
		}
	default:
		panic("spec: no decoding for a syntax-tree field of type " + ft.String())
	}
}

// decodeStruct returns a new *T decoded from mapping v. at is the node
// whose position T's Pos field takes; name, when not nil, is the key that
// names a named entry, T's Name.
func (f *File) decodeStruct(name, at, v *yaml.Node, t reflect.Type) reflect.Value {
	p := reflect.New(t)
	if pos, ok := t.FieldByName("Pos"); ok && pos.Type == typePos {
		p.Elem().FieldByIndex(pos.Index).Set(reflect.ValueOf(f.pos(at)))
	}
	if name != nil {
		field, ok := t.FieldByName("Name")
		if !ok || field.Type != typeStr {
			panic("spec: the named syntax-tree type " + t.String() + " has no Name Str field")
		}
		p.Elem().FieldByIndex(field.Index).Set(reflect.ValueOf(f.str(name)))
	}
	f.decode(at, v, p.Interface())
	return p
}

// afterDecode reads a scalar `default:`'s YAML tag, which says how the
// default is typed (parameters of a type left out).
func (p *ParamDecl) afterDecode(f *File, k, v *yaml.Node) {
	if d := mapValue(v, "default"); d != nil {
		p.DefaultTag = d.ShortTag()
	}
}

// afterDecode reads the scalar form `trigger: available_now`.
func (t *TriggerDecl) afterDecode(f *File, k, v *yaml.Node) {
	if v.Kind == yaml.ScalarNode {
		t.Mode = f.str(v)
	}
}

// afterDecode reads `rescued_data_column: false`, which turns rescued data
// off.
func (s *SourceDecl) afterDecode(f *File, k, v *yaml.Node) {
	if r := mapValue(v, "rescued_data_column"); r != nil && r.Tag == "!!bool" {
		s.NoRescuedData = r.Value == "false"
	}
}

// afterDecode reads the format option sections (`csv: {...}`), whose keys
// are the registered format names (runtime/source.Formats).
func (d *FilesDecl) afterDecode(f *File, k, v *yaml.Node) {
	entries(v, func(k, v *yaml.Node) {
		if _, ok := source.LookupFormat(k.Value); ok {
			d.Options = append(d.Options, &FormatOptionsDecl{Format: f.str(k), Values: f.keyValues(v)})
		}
	})
}
