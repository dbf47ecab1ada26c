package sqlfn

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// Spark's ordering: NaN = NaN and is the largest value; -0.0 = 0.0
// (https://spark.apache.org/docs/latest/sql-ref-datatypes.html#floating-point-special-values).
func TestCompareFloat(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		a, b float64
		want int
	}{
		{1, 2, -1}, {2, 1, 1}, {1, 1, 0}, {nan, nan, 0}, {nan, inf, 1}, {inf, nan, -1},
		{math.Copysign(0, -1), 0, 0}, {-inf, -1e30, -1}, {nan, 0, 1},
	}
	for _, tt := range tests {
		if got := Compare(tt.a, tt.b); got != tt.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Compare(float32(tt.a), float32(tt.b)); got != tt.want {
			t.Errorf("Compare(float32 %v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

type testStruct struct {
	A int32
	B types.Null[string]
	C float64
}

func TestCompareOthers(t *testing.T) {
	if Compare(false, true) != -1 || Compare(true, false) != 1 || Compare(true, true) != 0 {
		t.Error("bool ordering")
	}
	if Compare([]byte{1, 2}, []byte{1, 3}) != -1 || Compare([]byte{0xff}, []byte{0x01, 0x00}) != 1 {
		t.Error("binary ordering (unsigned bytes)")
	}
	if Compare("é", "z") != 1 || Compare("a", "ab") != -1 {
		t.Error("string ordering (UTF-8 bytes)")
	}
	d := types.DecimalFromInt64
	if Compare(d(-5), d(3)) != -1 || Compare(d(7), d(7)) != 0 {
		t.Error("decimal ordering")
	}
	if Compare(types.Date(-1), types.Date(0)) != -1 || Compare(types.Timestamp(5), types.Timestamp(-5)) != 1 {
		t.Error("date/timestamp ordering")
	}
	if Compare(int8(-1), int8(1)) != -1 || Compare(types.Interval(3), types.Interval(3)) != 0 {
		t.Error("integral ordering")
	}
	// Arrays: element-wise, then length; NULL elements first.
	if Compare([]int32{1, 2}, []int32{1, 2, 0}) != -1 || Compare([]int32{2}, []int32{1, 9}) != 1 {
		t.Error("array ordering")
	}
	if Compare([]float64{math.NaN()}, []float64{math.NaN()}) != 0 {
		t.Error("array equality with NaN")
	}
	na := []types.Null[int64]{{}, types.Some[int64](1)}
	nb := []types.Null[int64]{types.Some[int64](0), types.Some[int64](1)}
	if Compare(na, nb) != -1 || Compare(nb, na) != 1 || Compare(na, na) != 0 {
		t.Error("NULL elements sort first")
	}
	s1 := testStruct{A: 1, B: types.Some("x"), C: 0}
	s2 := testStruct{A: 1, B: types.Some("y"), C: -1}
	s3 := testStruct{A: 1, B: types.Null[string]{}, C: 5}
	if Compare(s1, s2) != -1 || Compare(s3, s1) != -1 || Compare(s2, s2) != 0 {
		t.Error("struct ordering")
	}
	if Compare([][]byte{{1}}, [][]byte{{1}, {}}) != -1 {
		t.Error("array of binary")
	}
	if Compare([]types.Decimal{d(2)}, []types.Decimal{d(10)}) != -1 {
		t.Error("array of decimal")
	}
	m1 := []types.KV[string, int32]{{Key: "a", Value: 1}}
	m2 := []types.KV[string, int32]{{Key: "a", Value: 2}}
	if Compare(m1, m2) != -1 {
		t.Error("map entries ordering")
	}
}

func TestCollections(t *testing.T) {
	arr := []string{"a", "b", "c"}
	for _, tt := range []struct {
		i    int32
		want string
		ok   bool
	}{{0, "a", true}, {2, "c", true}, {3, "", false}, {-1, "", false}} {
		if got, ok := ArrayAt(arr, tt.i); got != tt.want || ok != tt.ok {
			t.Errorf("ArrayAt(%d) = %q, %v", tt.i, got, ok)
		}
	}
	// element_at: 1-based, negative from the end, 0 invalid
	// (https://spark.apache.org/docs/latest/api/sql/index.html#element_at).
	for _, tt := range []struct {
		i    int32
		want string
		ok   bool
	}{{1, "a", true}, {3, "c", true}, {-1, "c", true}, {-3, "a", true}, {0, "", false}, {4, "", false},
		{-4, "", false}, {math.MinInt32, "", false}, {math.MaxInt32, "", false}} {
		if got, ok := ElementAt(arr, tt.i); got != tt.want || ok != tt.ok {
			t.Errorf("ElementAt(%d) = %q, %v", tt.i, got, ok)
		}
	}
	m := []types.KV[string, types.Null[int32]]{{Key: "a", Value: types.Some[int32](1)}, {Key: "b"}}
	if v, ok := MapGet(m, "a"); !ok || v.V != 1 {
		t.Errorf("MapGet(a) = %v, %v", v, ok)
	}
	if v, ok := MapGet(m, "b"); !ok || v.Valid {
		t.Errorf("MapGet(b) = %v, %v", v, ok)
	}
	if _, ok := MapGet(m, "z"); ok {
		t.Error("MapGet(z) found")
	}
	fm := []types.KV[float64, string]{{Key: math.NaN(), Value: "nan"}}
	if v, ok := MapGet(fm, math.NaN()); !ok || v != "nan" {
		t.Error("MapGet(NaN)")
	}
	// array_contains: NULL when not found and the array has a NULL.
	if f, k := ArrayContains([]int32{1, 2}, int32(2)); !f || !k {
		t.Error("contains 2")
	}
	if f, k := ArrayContains([]int32{1, 2}, int32(3)); f || !k {
		t.Error("contains 3")
	}
	withNull := []types.Null[int32]{types.Some[int32](1), {}}
	if f, k := ArrayContains(withNull, int32(1)); !f || !k {
		t.Error("contains 1 with NULL")
	}
	if f, k := ArrayContains(withNull, int32(3)); f || k {
		t.Error("contains 3 with NULL must be NULL")
	}
	if f, k := ArrayContains([]float64{math.NaN()}, math.NaN()); !f || !k {
		t.Error("contains NaN")
	}
	if f, k := ArrayContains([][]byte{[]byte("x")}, []byte("x")); !f || !k {
		t.Error("contains binary")
	}
}

func TestErrors(t *testing.T) {
	var se *Error
	err := ArithmeticError("Div", "DOUBLE", 1.0, 0.0)
	if !errors.As(err, &se) || se.Class != "DIVIDE_BY_ZERO" || !strings.Contains(err.Error(), "try_divide") {
		t.Errorf("Div by zero: %v", err)
	}
	err = ArithmeticError("Mod", "BIGINT", int64(1), int64(0))
	if !strings.HasPrefix(err.Error(), "[DIVIDE_BY_ZERO] division by zero: 1 % 0") {
		t.Errorf("Mod by zero: %v", err)
	}
	err = ArithmeticError("Add", "BIGINT", int64(math.MaxInt64), int64(1))
	if err.Error() != "[ARITHMETIC_OVERFLOW] bigint overflow: 9223372036854775807 + 1 (use a wider type, or try_add to return NULL instead)" {
		t.Errorf("Add overflow: %v", err)
	}
	err = ArithmeticError("DecimalMul", "DECIMAL(38,2)", "1.00", "2.00")
	if !errors.As(err, &se) || se.Class != "NUMERIC_VALUE_OUT_OF_RANGE" {
		t.Errorf("decimal overflow: %v", err)
	}
	err = ArithmeticError("DecimalDiv", "DECIMAL(10,2)", types.DecimalFromInt64(1), types.Decimal{})
	if !errors.As(err, &se) || se.Class != "DIVIDE_BY_ZERO" {
		t.Errorf("decimal div by zero: %v", err)
	}
	err = ErrCastInvalid(FormatString("a'b"), "STRING", "INT")
	if err.Error() != `[CAST_INVALID_INPUT] the value 'a\'b' of the type "STRING" cannot be cast to "INT" because it is malformed (use try_cast to tolerate malformed input and return NULL instead)` {
		t.Errorf("cast invalid: %v", err)
	}
	if err := ErrCastOverflow("300", "BIGINT", "TINYINT"); !strings.HasPrefix(err.Error(), "[CAST_OVERFLOW] the value 300") {
		t.Errorf("cast overflow: %v", err)
	}
	if err := ErrArrayIndex(5, 3); !strings.Contains(err.Error(), "[INVALID_ARRAY_INDEX] the index 5 is out of bounds: the array has 3 elements") {
		t.Errorf("array index: %v", err)
	}
	if err := ErrElementAtIndex(0, 3); !strings.HasPrefix(err.Error(), "[INVALID_INDEX_OF_ZERO]") {
		t.Errorf("element_at 0: %v", err)
	}
	if err := ErrArithmeticOverflow("TINYINT"); !strings.HasPrefix(err.Error(), "[ARITHMETIC_OVERFLOW] tinyint overflow") {
		t.Errorf("neg overflow: %v", err)
	}
	err = ErrFunction("round", []any{types.DecimalFromInt64(12345), 2, int32(-1), 5, 0})
	if !strings.HasPrefix(err.Error(), "[ARITHMETIC_OVERFLOW] round(123.45, -1) failed") {
		t.Errorf("function: %v", err)
	}
	err = ErrFunction("to_date", []any{"2024-13-01", "yyyy-MM-dd"})
	if !strings.HasPrefix(err.Error(), "[CANNOT_PARSE_TIMESTAMP] to_date('2024-13-01', 'yyyy-MM-dd') failed") {
		t.Errorf("function: %v", err)
	}
}

func BenchmarkCompareFloat64(b *testing.B) {
	x, y := 1.5, 2.5
	n := 0
	for b.Loop() {
		n += Compare(x, y)
	}
	_ = n
}

func BenchmarkCompareDecimal(b *testing.B) {
	x, y := types.DecimalFromInt64(15), types.DecimalFromInt64(-25)
	n := 0
	for b.Loop() {
		n += Compare(x, y)
	}
	_ = n
}

func BenchmarkAddInt64(b *testing.B) {
	x := int64(1)
	for b.Loop() {
		x, _ = Add(x, 3)
	}
}
