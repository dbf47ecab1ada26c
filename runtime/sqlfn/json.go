package sqlfn

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds the JSON functions of Spark's jsonExpressions.scala:
// get_json_object, to_json and schema_of_json. (from_json decodes with a
// decoder generated for its schema, over runtime/source's JSON reader.)

// jsonStep is one step of a JSON path: a field name, an array index, or a
// wildcard over an array's elements or an object's values.
type jsonStep struct {
	key string
	// dotted marks a .name step (a ['name'] step is not), which the
	// Databricks : operator matches case-insensitively.
	dotted   bool
	index    int
	isIndex  bool
	wildcard bool
}

// jsonPaths caches parsed paths: get_json_object's path is nearly always a
// constant.
var jsonPaths cache[string, []jsonStep]

// parseJSONPath parses Spark's JSON path subset: $ followed by .name,
// ['name'], [n], [*] and .*; nil when the path is invalid (the result is
// then NULL, as in Spark).
func parseJSONPath(p string) []jsonStep {
	if !strings.HasPrefix(p, "$") {
		return nil
	}
	steps := []jsonStep{}
	i := 1
	for i < len(p) {
		switch {
		case p[i] == '.':
			j := i + 1
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			name := p[i+1 : j]
			switch name {
			case "":
				return nil
			case "*":
				steps = append(steps, jsonStep{wildcard: true})
			default:
				steps = append(steps, jsonStep{key: name, dotted: true})
			}
			i = j
		case p[i] == '[':
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return nil
			}
			in := p[i+1 : i+end]
			switch {
			case in == "*":
				steps = append(steps, jsonStep{wildcard: true})
			case len(in) >= 2 && in[0] == '\'' && in[len(in)-1] == '\'':
				steps = append(steps, jsonStep{key: in[1 : len(in)-1]})
			default:
				n, err := strconv.Atoi(in)
				if err != nil || n < 0 {
					return nil
				}
				steps = append(steps, jsonStep{index: n, isIndex: true})
			}
			i += end + 1
		default:
			return nil
		}
	}
	return steps
}

// GetJSONObject returns get_json_object(json, path): the value at path in
// the JSON text, a string unquoted and anything else as compact JSON; ok
// is false (NULL) for invalid JSON, an invalid path, a missing value or
// JSON null. A wildcard ([*] or .*) yields the JSON array of the values it
// reaches, or the one value it reaches as JSON (a string quoted).
func GetJSONObject(text, path string) (string, bool) { return getJSON(text, path, false) }

// JSONPath returns x:path, the Databricks operator over JSON strings: as
// GetJSONObject, but a dotted field name matches case-insensitively when
// no field has its exact case (and no two fields match; then it is NULL).
func JSONPath(text, path string) (string, bool) { return getJSON(text, path, true) }

func getJSON(text, path string, foldCase bool) (string, bool) {
	steps := jsonPaths.get(path, parseJSONPath)
	if steps == nil {
		return "", false
	}
	data := []byte(text)
	if !json.Valid(data) {
		return "", false
	}
	vals, wild := jsonSelect([]json.RawMessage{bytes.TrimSpace(data)}, steps, foldCase)
	switch {
	case len(vals) == 0:
		return "", false
	case !wild:
		return jsonResult(vals[0])
	case len(vals) == 1:
		// A wildcard reaching one value yields it as JSON: a string keeps
		// its quotes (Spark's GetJsonObject writes it quoted, then drops
		// the brackets of the one-element array).
		var b bytes.Buffer
		if json.Compact(&b, vals[0]) != nil || b.String() == "null" {
			return "", false
		}
		return b.String(), true
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(',')
		}
		json.Compact(&b, v)
	}
	b.WriteByte(']')
	return b.String(), true
}

// jsonSelect applies steps to vals; wild reports whether a wildcard was
// crossed (the results are then a list).
func jsonSelect(vals []json.RawMessage, steps []jsonStep, foldCase bool) (out []json.RawMessage, wild bool) {
	for _, st := range steps {
		var next []json.RawMessage
		for _, v := range vals {
			switch {
			case st.wildcard:
				var arr []json.RawMessage
				if json.Unmarshal(v, &arr) == nil {
					next = append(next, arr...)
					continue
				}
				next = append(next, objectValues(v)...)
			case st.isIndex:
				var arr []json.RawMessage
				if json.Unmarshal(v, &arr) == nil && st.index < len(arr) {
					next = append(next, arr[st.index])
				}
			default:
				if x, ok := objectField(v, st.key, foldCase && st.dotted); ok {
					next = append(next, x)
				}
			}
		}
		wild = wild || st.wildcard
		vals = next
	}
	return vals, wild
}

// objectField returns the first member called key of the JSON object v;
// with foldCase, else the one member whose name equals key ignoring case.
func objectField(v json.RawMessage, key string, foldCase bool) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(v))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var folded json.RawMessage
	nFolded := 0
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		if k == key {
			return raw, true
		}
		if name, ok := k.(string); ok && foldCase && strings.EqualFold(name, key) {
			folded = raw
			nFolded++
		}
	}
	return folded, nFolded == 1
}

// objectValues returns the values of the JSON object v, in order.
func objectValues(v json.RawMessage) []json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(v))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []json.RawMessage
	for dec.More() {
		if _, err := dec.Token(); err != nil {
			return out
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return out
		}
		out = append(out, raw)
	}
	return out
}

// jsonResult renders one selected value: strings unquoted, null as NULL,
// the rest compact.
func jsonResult(v json.RawMessage) (string, bool) {
	v = bytes.TrimSpace(v)
	switch {
	case len(v) == 0 || string(v) == "null":
		return "", false
	case v[0] == '"':
		var s string
		if json.Unmarshal(v, &s) != nil {
			return "", false
		}
		return s, true
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return "", false
	}
	return b.String(), true
}

// FromJSONRecord wraps the text given to from_json as the JSON-lines
// record {"value": text} that a generated decoder reads (line breaks,
// which JSON allows between tokens, become spaces); "" for blank text,
// which Spark's from_json reads as NULL.
func FromJSONRecord(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	text = strings.NewReplacer("\n", " ", "\r", " ").Replace(text)
	return `{"value":` + text + "}"
}

// FromJSONArrayRecord is FromJSONRecord for an ARRAY<STRUCT<...>> schema:
// a single JSON object is read as an array of that one struct, as Spark's
// JacksonParser does (json-functions.sql.out: from_json('{"a": 1}',
// 'array<struct<a:int>>') is [{"a":1}]).
func FromJSONArrayRecord(text string) string {
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") {
		text = "[" + t + "]"
	}
	return FromJSONRecord(text)
}

// ToJSON returns to_json(v) for a value v of SQL type t (a STRUCT, ARRAY
// or MAP in its Go representation): JSON as Spark's JacksonGenerator
// writes it with the default options: struct fields that are NULL left out
// (spark.sql.jsonGenerator.ignoreNullFields), TIMESTAMP as
// yyyy-MM-dd'T'HH:mm:ss.SSSXXX in the session time zone, DATE as
// yyyy-MM-dd, BINARY in base64, FLOAT and DOUBLE as Java prints them (NaN
// and infinities quoted), DECIMAL in plain notation.
func ToJSON(v any, t types.Type) string {
	var b []byte
	b = appendJSON(b, reflect.ValueOf(v), t)
	return string(b)
}

func appendJSON(b []byte, v reflect.Value, t types.Type) []byte {
	if isNullType(v.Type()) {
		if !v.FieldByName("Valid").Bool() {
			return append(b, "null"...)
		}
		v = v.FieldByName("V")
	}
	switch t.Kind {
	case types.StructKind:
		b = append(b, '{')
		first := true
		for i, f := range t.Fields {
			fv := v.Field(i)
			if isNullType(fv.Type()) && !fv.FieldByName("Valid").Bool() {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = AppendJSONString(b, f.Name)
			b = append(b, ':')
			b = appendJSON(b, fv, f.Type)
		}
		return append(b, '}')
	case types.ArrayKind:
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, v.Index(i), *t.Elem)
		}
		return append(b, ']')
	case types.MapKind:
		b = append(b, '{')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			kv := v.Index(i)
			key := jsonKeyText(kv.FieldByName("Key").Interface(), *t.Key)
			b = AppendJSONString(b, key)
			b = append(b, ':')
			b = appendJSON(b, kv.FieldByName("Value"), *t.Value)
		}
		return append(b, '}')
	}
	return appendJSONScalar(b, v.Interface(), t)
}

// jsonKeyText renders a map key as the string Spark writes for it. A
// STRUCT key is written as its row's toString, [field1,field2] with NULL
// as null (json-functions.sql.out: to_json(map(named_struct('a', 1, 'b',
// 2), ...)) is {"[1,2]":...}).
func jsonKeyText(k any, t types.Type) string {
	if t.Kind == types.StructKind {
		v := reflect.ValueOf(k)
		b := []byte{'['}
		for i, f := range t.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			fv := v.Field(i)
			if isNullType(fv.Type()) {
				if !fv.FieldByName("Valid").Bool() {
					b = append(b, "null"...)
					continue
				}
				fv = fv.FieldByName("V")
			}
			b = append(b, jsonKeyText(fv.Interface(), f.Type)...)
		}
		return string(append(b, ']'))
	}
	switch x := k.(type) {
	case string:
		return x
	case types.Decimal:
		return x.Format(t.Scale)
	case types.Date:
		return CastDateString(x)
	case types.Timestamp:
		return CastTimestampString(x)
	case float64:
		return string(appendJavaDouble(nil, x, 64))
	case float32:
		return string(appendJavaDouble(nil, float64(x), 32))
	}
	return FormatValue(k)
}

func appendJSONScalar(b []byte, x any, t types.Type) []byte {
	switch x := x.(type) {
	case bool:
		return strconv.AppendBool(b, x)
	case int8:
		return strconv.AppendInt(b, int64(x), 10)
	case int16:
		return strconv.AppendInt(b, int64(x), 10)
	case int32:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case float32:
		return appendJSONFloat(b, float64(x), 32)
	case float64:
		return appendJSONFloat(b, x, 64)
	case types.Decimal:
		return append(b, x.Format(t.Scale)...)
	case string:
		return AppendJSONString(b, x)
	case []byte:
		return AppendJSONString(b, base64.StdEncoding.EncodeToString(x))
	case types.Date:
		return AppendJSONString(b, CastDateString(x))
	case types.Timestamp:
		tm := time.UnixMicro(int64(x)).UTC()
		if t.Kind == types.TimestampKind {
			tm = tm.In(SessionTimeZone())
			return AppendJSONString(b, tm.Format("2006-01-02T15:04:05.000Z07:00"))
		}
		return AppendJSONString(b, tm.Format("2006-01-02T15:04:05.000"))
	case types.Interval:
		return AppendJSONString(b, CastIntervalString(x))
	}
	return AppendJSONString(b, FormatValue(x))
}

func appendJSONFloat(b []byte, f float64, bits int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(append(append(b, '"'), appendJavaDouble(nil, f, bits)...), '"')
	}
	return appendJavaDouble(b, f, bits)
}

// AppendJSONString appends s as a JSON string the way Jackson writes it:
// '"' and '\' escaped, control characters as \n, \t, ... or \u00XX,
// everything else (non-ASCII included) as is; an invalid UTF-8 byte as
// \uFFFD, so the result is always valid JSON. It is to_json's string
// writer and the rescued-data column's (Spark writes both with Jackson).
func AppendJSONString[S ~string | ~[]byte](b []byte, s S) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c < 0x20:
			b = append(b, `\u00`...)
			b = append(b, "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, n := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\uFFFD`...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		i++
	}
	return append(b, '"')
}

// SchemaOfJSON returns schema_of_json(text): the DDL of the type Spark's
// JSON schema inference gives the value (integers BIGINT, other numbers
// DOUBLE, objects STRUCT with their fields sorted by name, null and empty
// arrays' elements STRING). ok is false for text that is not JSON.
func SchemaOfJSON(text string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", false
	}
	return inferJSON(v).String(), true
}

// inferJSON is Spark's JsonInferSchema for one value, canonicalized
// (NullType becomes STRING).
func inferJSON(v any) types.Type {
	switch x := v.(type) {
	case bool:
		return types.BooleanType
	case json.Number:
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return types.LongType
		}
		if !strings.ContainsAny(string(x), ".eE") {
			// An integer too large for BIGINT: Spark infers DECIMAL(38,0).
			return types.DecimalOf(38, 0)
		}
		return types.DoubleType
	case string:
		return types.StringType
	case []any:
		elem := types.Type{}
		for _, e := range x {
			if e == nil {
				continue
			}
			t := inferJSON(e)
			if elem.Kind == types.InvalidKind {
				elem = t
				continue
			}
			elem = mergeJSONTypes(elem, t)
		}
		if elem.Kind == types.InvalidKind {
			elem = types.StringType
		}
		return types.ArrayOf(elem, true)
	case map[string]any:
		byName := make(map[string]types.Type, len(x))
		for k, v := range x {
			byName[k] = types.StringType
			if v != nil {
				byName[k] = inferJSON(v)
			}
		}
		return sortedStruct(byName)
	}
	return types.StringType
}

// mergeJSONTypes is JsonInferSchema.compatibleType for two inferred types:
// BIGINT and DOUBLE widen to DOUBLE, structs merge their fields, arrays
// their elements, anything else conflicting becomes STRING.
func mergeJSONTypes(a, b types.Type) types.Type {
	switch {
	case a.Equal(b):
		return a
	case a.IsNumeric() && b.IsNumeric():
		if a.Kind == types.DoubleKind || b.Kind == types.DoubleKind {
			return types.DoubleType
		}
		return types.DecimalOf(38, 0)
	case a.Kind == types.ArrayKind && b.Kind == types.ArrayKind:
		return types.ArrayOf(mergeJSONTypes(*a.Elem, *b.Elem), true)
	case a.Kind == types.StructKind && b.Kind == types.StructKind:
		byName := map[string]types.Type{}
		for _, f := range a.Fields {
			byName[f.Name] = f.Type
		}
		for _, f := range b.Fields {
			if t, ok := byName[f.Name]; ok {
				byName[f.Name] = mergeJSONTypes(t, f.Type)
			} else {
				byName[f.Name] = f.Type
			}
		}
		return sortedStruct(byName)
	}
	return types.StringType
}

// sortedStruct is the STRUCT of the given nullable fields, sorted by name
// as Spark's schema inference sorts them.
func sortedStruct(byName map[string]types.Type) types.Type {
	names := make([]string, 0, len(byName))
	for k := range byName {
		names = append(names, k)
	}
	slices.Sort(names)
	fields := make([]types.Field, len(names))
	for i, k := range names {
		fields[i] = types.Field{Name: k, Type: byName[k], Nullable: true}
	}
	return types.StructOf(fields...)
}

// JSONArrayLength returns json_array_length(text): the number of elements
// of the outermost JSON array; false (NULL) when text is not a JSON array
// or is malformed (Spark's LengthOfJsonArray, which reads the first value).
func JSONArrayLength(text string) (int32, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return 0, false
	}
	var n int32
	for dec.More() {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return 0, false
		}
		n++
	}
	if t, err := dec.Token(); err != nil || t != json.Delim(']') {
		return 0, false
	}
	return n, true
}

// JSONObjectKeys is json_object_keys(text): the keys of the outermost JSON
// object, in order (duplicates kept); ok is false (NULL) for malformed
// JSON, an empty string and a JSON value that is not an object. Text after the object
// is not read, as Spark's parser stops there.
func JSONObjectKeys(text string) ([]string, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	keys := []string{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		k, isKey := t.(string)
		if !isKey {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		keys = append(keys, k)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	return keys, true
}
