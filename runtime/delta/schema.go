package delta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// SchemaString returns s in Delta's schema JSON (protocol, "Schema
// Serialization Format", Spark's DataType.json): a struct type with fields
// {"name","type","nullable","metadata"} in that order, primitive types by
// name ("integer", "long", "decimal(12,2)", "timestamp_ntz", ...), arrays
// {"type":"array","elementType":..,"containsNull":..} and maps
// {"type":"map","keyType":..,"valueType":..,"valueContainsNull":..}. A field
// comment goes into the field metadata as {"comment": ...}, as Spark does.
func SchemaString(s types.Schema) string {
	return SchemaStringWithTypeChanges(s, nil)
}

// SchemaStringWithTypeChanges is SchemaString with the type change
// history of fields (protocol, "Type Change Metadata") in their metadata
// as "delta.typeChanges": changes maps a field's path (see TypeChanges) to
// its changes, oldest first. Paths s does not have are left out.
func SchemaStringWithTypeChanges(s types.Schema, changes map[string][]TypeChange) string {
	var b bytes.Buffer
	writeStruct(&b, s, "", changes)
	return b.String()
}

func writeStruct(b *bytes.Buffer, fields []types.Field, path string, changes map[string][]TypeChange) {
	b.WriteString(`{"type":"struct","fields":[`)
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		p := f.Name
		if path != "" {
			p = path + "." + f.Name
		}
		b.WriteString(`{"name":`)
		writeJSONString(b, f.Name)
		b.WriteString(`,"type":`)
		writeType(b, f.Type, p, changes)
		fmt.Fprintf(b, `,"nullable":%t,"metadata":{`, f.Nullable)
		if f.Comment != "" {
			b.WriteString(`"comment":`)
			writeJSONString(b, f.Comment)
		}
		if tc := changes[p]; len(tc) > 0 {
			if f.Comment != "" {
				b.WriteByte(',')
			}
			j, _ := json.Marshal(tc)
			b.WriteString(`"` + TypeChangesKey + `":`)
			b.Write(j)
		}
		b.WriteString("}}")
	}
	b.WriteString("]}")
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode appends a newline
}

var primitiveNames = map[types.Kind]string{
	types.VoidKind:         "void",
	types.BooleanKind:      "boolean",
	types.ByteKind:         "byte",
	types.ShortKind:        "short",
	types.IntKind:          "integer",
	types.LongKind:         "long",
	types.FloatKind:        "float",
	types.DoubleKind:       "double",
	types.StringKind:       "string",
	types.BinaryKind:       "binary",
	types.DateKind:         "date",
	types.TimestampKind:    "timestamp",
	types.TimestampNTZKind: "timestamp_ntz",
	types.IntervalKind:     "interval day to second",

	types.YearMonthIntervalKind: "interval year to month",
}

// writeType writes t, the type of the field (or element, key, value) at
// path.
func writeType(b *bytes.Buffer, t types.Type, path string, changes map[string][]TypeChange) {
	switch t.Kind {
	case types.DecimalKind:
		fmt.Fprintf(b, `"decimal(%d,%d)"`, t.Precision, t.Scale)
	case types.ArrayKind:
		b.WriteString(`{"type":"array","elementType":`)
		writeType(b, *t.Elem, path+".element", changes)
		fmt.Fprintf(b, `,"containsNull":%t}`, t.ContainsNull)
	case types.MapKind:
		b.WriteString(`{"type":"map","keyType":`)
		writeType(b, *t.Key, path+".key", changes)
		b.WriteString(`,"valueType":`)
		writeType(b, *t.Value, path+".value", changes)
		fmt.Fprintf(b, `,"valueContainsNull":%t}`, t.ValueContainsNull)
	case types.StructKind:
		writeStruct(b, t.Fields, path, changes)
	default:
		b.WriteString(strconv.Quote(primitiveNames[t.Kind]))
	}
}

// TypeName is t's name in Delta's schema JSON ("integer", "long",
// "decimal(12,2)"), for primitive types; nested types give their JSON.
func TypeName(t types.Type) string {
	var b bytes.Buffer
	writeType(&b, t, "", nil)
	var name string
	if json.Unmarshal(b.Bytes(), &name) == nil {
		return name
	}
	return b.String()
}

// jsonType is the union of Delta's JSON type forms.
type jsonType struct {
	Type              string          `json:"type"`
	Fields            []jsonField     `json:"fields"`
	ElementType       json.RawMessage `json:"elementType"`
	ContainsNull      *bool           `json:"containsNull"`
	KeyType           json.RawMessage `json:"keyType"`
	ValueType         json.RawMessage `json:"valueType"`
	ValueContainsNull *bool           `json:"valueContainsNull"`
}

type jsonField struct {
	Name     string          `json:"name"`
	Type     json.RawMessage `json:"type"`
	Nullable *bool           `json:"nullable"`
	Metadata map[string]any  `json:"metadata"`
}

// ParseSchema parses Delta's schema JSON (see SchemaString). Field metadata
// other than "comment" is not kept; column mapping metadata
// (delta.columnMapping.*) is read by Snapshot.Layout.
func ParseSchema(s string) (types.Schema, error) {
	var t jsonType
	if err := json.Unmarshal([]byte(s), &t); err != nil {
		return nil, fmt.Errorf("schema JSON: %w", err)
	}
	if t.Type != "struct" {
		return nil, fmt.Errorf("schema JSON: top level is %q, want a struct", t.Type)
	}
	fields, err := parseFields(t.Fields, "")
	if err != nil {
		return nil, fmt.Errorf("schema JSON: %w", err)
	}
	return types.Schema(fields), nil
}

func parseFields(fs []jsonField, path string) ([]types.Field, error) {
	out := make([]types.Field, 0, len(fs))
	for _, f := range fs {
		p := f.Name
		if path != "" {
			p = path + "." + f.Name
		}
		t, err := parseType(f.Type, p)
		if err != nil {
			return nil, err
		}
		field := types.Field{Name: f.Name, Type: t, Nullable: f.Nullable == nil || *f.Nullable}
		if c, ok := f.Metadata["comment"].(string); ok {
			field.Comment = c
		}
		out = append(out, field)
	}
	return out, nil
}

func parseType(raw json.RawMessage, path string) (types.Type, error) {
	var name string
	if err := json.Unmarshal(raw, &name); err == nil {
		return parsePrimitive(name, path)
	}
	var t jsonType
	if err := json.Unmarshal(raw, &t); err != nil {
		return types.Type{}, fmt.Errorf("field %s: invalid type %s", path, raw)
	}
	switch t.Type {
	case "struct":
		fields, err := parseFields(t.Fields, path)
		if err != nil {
			return types.Type{}, err
		}
		return types.StructOf(fields...), nil
	case "array":
		elem, err := parseType(t.ElementType, path+".element")
		if err != nil {
			return types.Type{}, err
		}
		return types.ArrayOf(elem, t.ContainsNull == nil || *t.ContainsNull), nil
	case "map":
		k, err := parseType(t.KeyType, path+".key")
		if err != nil {
			return types.Type{}, err
		}
		v, err := parseType(t.ValueType, path+".value")
		if err != nil {
			return types.Type{}, err
		}
		return types.MapOf(k, v, t.ValueContainsNull == nil || *t.ValueContainsNull), nil
	}
	return types.Type{}, fmt.Errorf("field %s: unsupported type %q", path, t.Type)
}

func parsePrimitive(name, path string) (types.Type, error) {
	for k, n := range primitiveNames {
		if n == name {
			return types.Type{Kind: k}, nil
		}
	}
	switch name {
	case "decimal":
		return types.DecimalOf(10, 0), nil
	case "timestamp_ltz":
		return types.TimestampType, nil
	}
	if strings.HasPrefix(name, "decimal(") && strings.HasSuffix(name, ")") {
		ps := strings.Split(name[len("decimal("):len(name)-1], ",")
		if len(ps) == 2 {
			p, err1 := strconv.Atoi(strings.TrimSpace(ps[0]))
			s, err2 := strconv.Atoi(strings.TrimSpace(ps[1]))
			if err1 == nil && err2 == nil && p >= 1 && p <= types.MaxDecimalPrecision && s >= 0 && s <= p {
				return types.DecimalOf(p, s), nil
			}
		}
	}
	return types.Type{}, fmt.Errorf("field %s: unsupported type %q", path, name)
}
