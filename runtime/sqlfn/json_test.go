package sqlfn

import (
	"math"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// TestGetJSONObject checks paths, the rendering of what they select and
// the NULL cases (Spark's GetJsonObject).
func TestGetJSONObject(t *testing.T) {
	doc := `{"a": {"b": [1, {"c": "x"}, "s"]}, "k y": true, "n": null, "f": 1.50}`
	tests := []struct{ path, want string }{
		{"$", `{"a":{"b":[1,{"c":"x"},"s"]},"k y":true,"n":null,"f":1.50}`},
		{"$.a.b[1].c", "x"},
		{"$.a.b[2]", "s"},
		{"$.a.b[0]", "1"},
		{"$.f", "1.50"},
		{"$['k y']", "true"},
		{"$.a.b[*]", `[1,{"c":"x"},"s"]`},
		{"$.a.b[*].c", `"x"`},
		{"$.a.*", `[1,{"c":"x"},"s"]`},
		{"$.n", "NULL"},
		{"$.zz", "NULL"},
		{"$.a.b[9]", "NULL"},
		{"a.b", "NULL"},
		{"$.", "NULL"},
		{"$[x]", "NULL"},
	}
	for _, tt := range tests {
		got, ok := GetJSONObject(doc, tt.path)
		if !ok {
			got = "NULL"
		}
		if got != tt.want {
			t.Errorf("get_json_object(doc, %q) = %s, want %s", tt.path, got, tt.want)
		}
	}
	if _, ok := GetJSONObject(`{"a": 1`, "$.a"); ok {
		t.Errorf("get_json_object of invalid JSON is not NULL")
	}
}

// TestToJSON checks to_json's rendering of every kind of value.
func TestToJSON(t *testing.T) {
	type inner struct {
		X types.Null[string]
	}
	type row struct {
		S   string
		N   types.Null[int32]
		D   types.Null[float64]
		Dec types.Decimal
		Ts  types.Timestamp
		Dt  types.Date
		Arr []types.Null[int64]
		M   []types.KV[string, types.Null[bool]]
		In  types.Null[inner]
		B   []byte
	}
	typ := types.StructOf(
		types.Field{Name: "s", Type: types.StringType},
		types.Field{Name: "n", Type: types.IntType, Nullable: true},
		types.Field{Name: "d", Type: types.DoubleType, Nullable: true},
		types.Field{Name: "dec", Type: types.DecimalOf(5, 2)},
		types.Field{Name: "ts", Type: types.TimestampType},
		types.Field{Name: "dt", Type: types.DateType},
		types.Field{Name: "arr", Type: types.ArrayOf(types.LongType, true)},
		types.Field{Name: "m", Type: types.MapOf(types.StringType, types.BooleanType, true)},
		types.Field{Name: "in", Type: types.StructOf(types.Field{Name: "x", Type: types.StringType, Nullable: true}), Nullable: true},
		types.Field{Name: "b", Type: types.BinaryType},
	)
	v := row{
		S: "q\"\\\n\x01é", D: types.Some(math.Inf(1)), Dec: types.DecimalFromInt64(12345),
		Ts: types.Timestamp(1626847200123456), Dt: types.Date(18829),
		Arr: []types.Null[int64]{types.Some(int64(1)), {}}, M: []types.KV[string, types.Null[bool]]{{Key: "k", Value: types.Some(true)}, {Key: "z"}},
		In: types.Some(inner{}), B: []byte("hi"),
	}
	want := `{"s":"q\"\\\n\u0001é","d":"Infinity","dec":123.45,"ts":"2021-07-21T06:00:00.123Z","dt":"2021-07-21","arr":[1,null],"m":{"k":true,"z":null},"in":{},"b":"aGk="}`
	if got := ToJSON(v, typ); got != want {
		t.Errorf("to_json =\n%s\nwant\n%s", got, want)
	}
}

// TestSchemaOfJSON checks Spark's JSON schema inference.
func TestSchemaOfJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b": 1, "a": [1, 2.5], "c": {"z": null, "y": "s"}, "d": []}`, "STRUCT<a: ARRAY<DOUBLE>, b: BIGINT, c: STRUCT<y: STRING, z: STRING>, d: ARRAY<STRING>>"},
		{`[{"a": 1}, {"b": true}]`, "ARRAY<STRUCT<a: BIGINT, b: BOOLEAN>>"},
		{`123456789012345678901234`, "DECIMAL(38,0)"},
		{`[1, "x"]`, "ARRAY<STRING>"},
	}
	for _, tt := range tests {
		if got, ok := SchemaOfJSON(tt.in); !ok || got != tt.want {
			t.Errorf("schema_of_json(%s) = %s, %v, want %s", tt.in, got, ok, tt.want)
		}
	}
	if _, ok := SchemaOfJSON("{"); ok {
		t.Errorf("schema_of_json of invalid JSON succeeded")
	}
}

// TestAppendJSONString checks the escapes Jackson's JsonGenerator writes
// (its standard escapes for \b \t \n \f \r, \u00XX in upper-case hex for the
// other control characters, '"' and '\' escaped, non-ASCII as is), and
// \uFFFD for an invalid UTF-8 byte, for strings and byte slices alike.
func TestAppendJSONString(t *testing.T) {
	in := "a\"\\\b\t\n\f\r\x01\x1fé\xffz"
	want := `"a\"\\\b\t\n\f\r\u0001\u001Fé\uFFFDz"`
	if got := string(AppendJSONString(nil, in)); got != want {
		t.Errorf("AppendJSONString(%q) = %s, want %s", in, got, want)
	}
	if got := string(AppendJSONString([]byte("x"), []byte(in))); got != "x"+want {
		t.Errorf("AppendJSONString([]byte(%q)) = %s, want x%s", in, got, want)
	}
}
