package delta

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// Type widening (protocol, "Type Widening"): a column's type changes to a
// wider one (types.Widens) by a metaData action, without rewriting the
// data files; readers convert the values of files written before the
// change to the new type. The table needs reader version 3 and writer
// version 7 with the typeWidening feature in both lists, the table
// property delta.enableTypeWidening=true, and each changed field records
// its history under delta.typeChanges in its metadata.
const (
	// FeatureTypeWidening is the reader and writer table feature.
	FeatureTypeWidening = "typeWidening"
	// TypeWideningProperty is the table property that enables widening.
	TypeWideningProperty = "delta.enableTypeWidening"
	// TypeChangesKey is the field metadata key of the change history.
	TypeChangesKey = "delta.typeChanges"
)

// TypeChange is one entry of a field's delta.typeChanges: the type before
// and after, by their schema JSON names ("integer", "decimal(10,2)"), and
// for a change of a map key/value or array element its FieldPath ("key",
// "element.value"). TableVersion is written by the preview of the feature
// (typeWidening-preview) only.
type TypeChange struct {
	TableVersion *int64 `json:"tableVersion,omitempty"`
	FromType     string `json:"fromType"`
	ToType       string `json:"toType"`
	FieldPath    string `json:"fieldPath,omitempty"`
}

// TypeWideningEnabled reports whether a table configuration enables type
// widening.
func TypeWideningEnabled(conf map[string]string) bool {
	return strings.EqualFold(conf[TypeWideningProperty], "true")
}

// TypeChanges returns the delta.typeChanges of every field of a schema
// JSON that has some, by the field's path: its name for a top-level
// column, "parent.name" for a struct field, with "element", "key" and
// "value" steps through arrays and maps ("items.element.qty").
func TypeChanges(schemaString string) (map[string][]TypeChange, error) {
	var t jsonType
	if err := json.Unmarshal([]byte(schemaString), &t); err != nil {
		return nil, fmt.Errorf("schema JSON: %w", err)
	}
	out := map[string][]TypeChange{}
	if err := collectTypeChanges(t.Fields, "", out); err != nil {
		return nil, err
	}
	return out, nil
}

func collectTypeChanges(fs []jsonField, path string, out map[string][]TypeChange) error {
	for _, f := range fs {
		p := f.Name
		if path != "" {
			p = path + "." + f.Name
		}
		if raw, ok := f.Metadata[TypeChangesKey]; ok {
			b, _ := json.Marshal(raw)
			var tc []TypeChange
			if err := json.Unmarshal(b, &tc); err != nil {
				return fmt.Errorf("field %s: %s is not a list of type changes: %v", p, TypeChangesKey, err)
			}
			out[p] = tc
		}
		if err := collectNested(f.Type, p, out); err != nil {
			return err
		}
	}
	return nil
}

// collectNested descends into a field type's structs.
func collectNested(raw json.RawMessage, path string, out map[string][]TypeChange) error {
	var t jsonType
	if json.Unmarshal(raw, &t) != nil {
		return nil // a primitive type name
	}
	switch t.Type {
	case "struct":
		return collectTypeChanges(t.Fields, path, out)
	case "array":
		return collectNested(t.ElementType, path+".element", out)
	case "map":
		if err := collectNested(t.KeyType, path+".key", out); err != nil {
			return err
		}
		return collectNested(t.ValueType, path+".value", out)
	}
	return nil
}

// checkTypeChanges fails when a table's schema records a type change
// pipegen cannot read (protocol: readers must validate that they support
// every change in delta.typeChanges): one that is not a widening
// types.Widens allows.
func checkTypeChanges(table, schemaString string) error {
	if !strings.Contains(schemaString, TypeChangesKey) {
		return nil
	}
	all, err := TypeChanges(schemaString)
	if err != nil {
		return fmt.Errorf("table %s: %w", table, err)
	}
	for path, tcs := range all {
		for _, tc := range tcs {
			from, err1 := parsePrimitive(tc.FromType, path)
			to, err2 := parsePrimitive(tc.ToType, path)
			if err1 != nil || err2 != nil || !readsWidened(from, to) {
				return fmt.Errorf("table %s: field %s records a type change from %s to %s (%s), which pipegen cannot read",
					table, path, tc.FromType, tc.ToType, TypeChangesKey)
			}
		}
	}
	return nil
}

// readsWidened reports whether the Parquet reader converts values of type
// from, in files written before a type change, to type to: the widenings
// of the protocol, and the integer → DECIMAL changes Delta's preview wrote
// with fewer digits (DecimalType.forType: 3 for BYTE, 5 for SMALLINT).
func readsWidened(from, to types.Type) bool {
	if types.Widens(from, to) {
		return true
	}
	digits := map[types.Kind]int{types.ByteKind: 3, types.ShortKind: 5, types.IntKind: 10, types.LongKind: 20}
	return digits[from.Kind] > 0 && to.Kind == types.DecimalKind && to.Precision-to.Scale >= digits[from.Kind]
}

// Widening is a change of a top-level column's type to a wider one.
type Widening struct {
	Column   string
	From, To types.Type
}

// WidenedSchemaString returns the schema JSON of s, the schema after
// widen, for a table whose current schema JSON is old: the type change
// history old records is kept (protocol: writers must preserve
// delta.typeChanges), and each widening is appended to its column's.
func WidenedSchemaString(old string, s types.Schema, widen []Widening) (string, error) {
	changes := map[string][]TypeChange{}
	if old != "" && strings.Contains(old, TypeChangesKey) {
		var err error
		if changes, err = TypeChanges(old); err != nil {
			return "", err
		}
	}
	for _, w := range widen {
		name := w.Column
		if i := s.Index(w.Column); i >= 0 {
			name = s[i].Name
		}
		changes[name] = append(changes[name], TypeChange{FromType: TypeName(w.From), ToType: TypeName(w.To)})
	}
	return SchemaStringWithTypeChanges(s, changes), nil
}
