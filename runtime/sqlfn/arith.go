package sqlfn

import (
	"math"

	"github.com/pipegen/pipegen/runtime/types"
)

// Integer is the set of Go types of Spark's integral types (TINYINT,
// SMALLINT, INT, BIGINT), and of the types defined on them.
type Integer interface {
	~int8 | ~int16 | ~int32 | ~int64
}

// Float is the set of Go types of FLOAT and DOUBLE.
type Float interface {
	~float32 | ~float64
}

// Number is every integral or floating type.
type Number interface {
	Integer | Float
}

// isMin reports whether x is the most negative value of its integral type
// (the only non-zero value equal to its own negation); never true for floats.
func isMin[T Number](x T) bool { return x != 0 && x == -x }

// isFloat reports whether T is a floating-point type (1/2 is 0 for integers).
func isFloat[T Number]() bool {
	one := T(1)
	return one/2 != 0
}

// Add returns a+b; ok is false when the sum overflows T (ANSI
// ARITHMETIC_OVERFLOW; Spark's Add with failOnError).
func Add[T Integer](a, b T) (T, bool) {
	c := a + b
	return c, (c > a) == (b > 0)
}

// Sub returns a-b; ok is false when the difference overflows T.
func Sub[T Integer](a, b T) (T, bool) {
	c := a - b
	return c, (c < a) == (b > 0)
}

// Mul returns a*b; ok is false when the product overflows T.
func Mul[T Integer](a, b T) (T, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	if (a == -1 && isMin(b)) || (b == -1 && isMin(a)) {
		return 0, false
	}
	c := a * b
	return c, c/b == a
}

// IntDiv returns a DIV b, the integral quotient truncated toward zero; ok
// is false when b is 0 (DIVIDE_BY_ZERO) or for MIN DIV -1 (overflow), as
// Spark's IntegralDivide in ANSI mode.
func IntDiv[T Integer](a, b T) (T, bool) {
	if b == 0 || (b == -1 && isMin(a)) {
		return 0, false
	}
	return a / b, true
}

// Mod returns a % b with the sign of a (Java's remainder, which Spark
// uses; math.Mod for floating types); ok is false when b is 0 or -0.0,
// which is DIVIDE_BY_ZERO in ANSI mode for every numeric type.
func Mod[T Number](a, b T) (T, bool) {
	if b == 0 {
		return 0, false
	}
	if isFloat[T]() {
		return T(math.Mod(float64(a), float64(b))), true
	}
	// Integral: the remainder fits T; MIN % -1 is 0 and must not trap.
	ia, ib := int64(a), int64(b)
	if ib == -1 {
		return 0, true
	}
	return T(ia % ib), true
}

// Div returns a / b for FLOAT and DOUBLE (Spark's '/' is always
// fractional); ok is false when b is 0 or -0.0 (ANSI DIVIDE_BY_ZERO; an
// infinite or NaN quotient from non-zero operands is not an error).
func Div[T Float](a, b T) (T, bool) {
	if b == 0 {
		return 0, false
	}
	return a / b, true
}

// Neg returns -a; ok is false for the most negative value of T.
func Neg[T Integer](a T) (T, bool) {
	if isMin(a) {
		return a, false
	}
	return -a, true
}

// Abs returns |a| (Spark's abs): ok is false for the most negative integer;
// abs(-0.0) is 0.0 and abs(NaN) is NaN.
func Abs[T Number](a T) (T, bool) {
	if a > 0 {
		return a, true
	}
	if !isFloat[T]() && isMin(a) {
		return a, false
	}
	return 0 - a, true
}

// NarrowInt converts v to a narrower integral type; ok is false when v is
// out of T's range (CAST_OVERFLOW).
func NarrowInt[T int8 | int16 | int32](v int64) (T, bool) {
	t := T(v)
	return t, int64(t) == v
}

// Sqrt returns the square root of x (NaN for negative x, as Spark's sqrt).
func Sqrt(x float64) float64 { return math.Sqrt(x) }

// AbsDecimal returns |d| as DECIMAL(precision, scale); the generated call
// passes the argument's scale and the result type, which Spark makes equal
// (abs keeps the type), so ok is false only when they differ and |d| does
// not fit.
func AbsDecimal(d types.Decimal, dScale, precision, scale int) (types.Decimal, bool) {
	return fitDecimal(d.Abs(), dScale, precision, scale)
}
