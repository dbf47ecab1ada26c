package sqlfn

import (
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// Error is a run-time failure of a SQL expression under ANSI semantics. Its
// Class is Spark's error class (https://spark.apache.org/docs/latest/sql-error-conditions.html),
// so that a failing row reports what Spark would.
type Error struct {
	// Class is Spark's error class, e.g. "DIVIDE_BY_ZERO", "CAST_INVALID_INPUT".
	Class string
	// Message is lower-case, without a trailing period, and names the values.
	Message string
	// Hint says what to do; may be empty.
	Hint string
}

// Error returns "[CLASS] message (hint)".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteByte('[')
	b.WriteString(e.Class)
	b.WriteString("] ")
	b.WriteString(e.Message)
	if e.Hint != "" {
		b.WriteString(" (")
		b.WriteString(e.Hint)
		b.WriteByte(')')
	}
	return b.String()
}

// arithOps maps the helper names the generated code reports to the SQL
// operator and to the try_ function that tolerates the failure.
var arithOps = map[string]struct{ sym, try string }{
	"Add":        {"+", "try_add"},
	"Sub":        {"-", "try_subtract"},
	"Mul":        {"*", "try_multiply"},
	"Div":        {"/", "try_divide"},
	"IntDiv":     {"div", "try_divide"},
	"Mod":        {"%", "try_mod"},
	"DecimalAdd": {"+", "try_add"},
	"DecimalSub": {"-", "try_subtract"},
	"DecimalMul": {"*", "try_multiply"},
	"DecimalDiv": {"/", "try_divide"},
	"DecimalMod": {"%", "try_mod"},
}

// ArithmeticError is the row error of a failed binary operation: op is the
// helper that failed ("Add", "Sub", "Mul", "Div", "IntDiv", "Mod", or a
// "Decimal" one), typ the result type's SQL name ("BIGINT",
// "DECIMAL(10,2)"), l and r the operands. A division or remainder by zero is
// DIVIDE_BY_ZERO; any other failure is ARITHMETIC_OVERFLOW, or
// NUMERIC_VALUE_OUT_OF_RANGE for DECIMAL results (Spark's classes for these
// failures in ANSI mode).
//
// Operands are rendered with FormatValue; a types.Decimal operand carries no
// scale, so it shows as its unscaled integer — pass a string (e.g.
// FormatDecimal(d, scale)) to show it exactly.
func ArithmeticError(op, typ string, l, r any) error {
	o, known := arithOps[op]
	if !known {
		o.sym = op
	}
	expr := FormatValue(l) + " " + o.sym + " " + FormatValue(r)
	isDiv := o.sym == "/" || o.sym == "div" || o.sym == "%"
	switch {
	case isDiv && isZero(r) && strings.HasPrefix(typ, "INTERVAL"):
		return &Error{Class: "INTERVAL_DIVIDED_BY_ZERO", Message: "division by zero: " + expr,
			Hint: "use try_divide to tolerate a zero divisor and return NULL instead"}
	case isDiv && isZero(r):
		return &Error{Class: "DIVIDE_BY_ZERO", Message: "division by zero: " + expr,
			Hint: "use " + o.try + " to tolerate a zero divisor and return NULL instead"}
	case strings.HasPrefix(op, "Decimal"):
		return &Error{Class: "NUMERIC_VALUE_OUT_OF_RANGE", Message: "the result of " + expr + " cannot be represented as " + typ,
			Hint: "use " + o.try + " to return NULL instead, or cast the operands to a type with more digits"}
	}
	if strings.HasPrefix(typ, "INTERVAL") {
		return &Error{Class: "INTERVAL_ARITHMETIC_OVERFLOW", Message: strings.ToLower(typ) + " overflow: " + expr,
			Hint: "use " + o.try + " to tolerate overflow and return NULL instead"}
	}
	hint := "use a wider type, or " + o.try + " to return NULL instead"
	if o.try == "" {
		hint = "use a wider type"
	}
	return &Error{Class: "ARITHMETIC_OVERFLOW", Message: strings.ToLower(typ) + " overflow: " + expr, Hint: hint}
}

func isZero(v any) bool {
	switch x := v.(type) {
	case int8:
		return x == 0
	case int16:
		return x == 0
	case int32:
		return x == 0
	case int64:
		return x == 0
	case int:
		return x == 0
	case float32:
		return x == 0
	case float64:
		return x == 0
	case types.Decimal:
		return x.Sign() == 0
	case string:
		// An operand passed already formatted.
		t := strings.Trim(strings.TrimLeft(x, "+-"), "0.")
		return x != "" && t == ""
	}
	return false
}

// ErrArithmeticOverflow is the row error of an overflowing unary operation
// (negation, abs) whose result type has SQL name typ: ARITHMETIC_OVERFLOW.
func ErrArithmeticOverflow(typ string) error {
	if strings.HasPrefix(typ, "INTERVAL") {
		return ErrIntervalOverflow(typ)
	}
	return &Error{Class: "ARITHMETIC_OVERFLOW", Message: strings.ToLower(typ) + " overflow",
		Hint: "use a wider type"}
}

// ErrCastInvalid is the row error of a CAST whose input cannot be converted:
// CAST_INVALID_INPUT, naming the value (rendered by a Format helper) and the
// SQL names of both types.
func ErrCastInvalid(value, from, to string) error {
	return &Error{Class: "CAST_INVALID_INPUT",
		Message: "the value " + value + " of the type " + strconv.Quote(from) + " cannot be cast to " + strconv.Quote(to) + " because it is malformed",
		Hint:    "use try_cast to tolerate malformed input and return NULL instead"}
}

// ErrCastOverflow is the row error of a CAST whose value does not fit the
// target type: CAST_OVERFLOW.
func ErrCastOverflow(value, from, to string) error {
	return &Error{Class: "CAST_OVERFLOW",
		Message: "the value " + value + " of the type " + strconv.Quote(from) + " cannot be cast to " + strconv.Quote(to) + " due to an overflow",
		Hint:    "use try_cast to tolerate overflow and return NULL instead"}
}

// ErrArrayIndex is the row error of arr[i] out of bounds for an array of n
// elements: INVALID_ARRAY_INDEX.
func ErrArrayIndex(i int32, n int) error {
	return &Error{Class: "INVALID_ARRAY_INDEX",
		Message: "the index " + strconv.Itoa(int(i)) + " is out of bounds: the array has " + strconv.Itoa(n) + " elements",
		Hint:    "use try_element_at to tolerate an invalid index and return NULL instead"}
}

// ErrElementAtIndex is the row error of element_at(arr, i) with an invalid
// 1-based index: INVALID_INDEX_OF_ZERO for 0, else
// INVALID_ARRAY_INDEX_IN_ELEMENT_AT (Spark distinguishes them from arr[i]).
func ErrElementAtIndex(i int32, n int) error {
	if i == 0 {
		return &Error{Class: "INVALID_INDEX_OF_ZERO",
			Message: "the index 0 is invalid: an index shall be either < 0 or > 0 (the first element has index 1)",
			Hint:    "count positions from 1 (or from -1 at the end); try_element_at does not tolerate 0 either"}
	}
	return &Error{Class: "INVALID_ARRAY_INDEX_IN_ELEMENT_AT",
		Message: "the index " + strconv.Itoa(int(i)) + " is out of bounds: the array has " + strconv.Itoa(n) + " elements",
		Hint:    "use try_element_at to tolerate an invalid index and return NULL instead"}
}

// functionErrors gives, per function, the Spark error class of its failure,
// what went wrong, and the hint.
var functionErrors = map[string]struct{ class, what, hint string }{
	"to_date":          {"CANNOT_PARSE_TIMESTAMP", "the text does not match the date-time format", "use try_to_timestamp to tolerate invalid input and return NULL instead"},
	"to_timestamp":     {"CANNOT_PARSE_TIMESTAMP", "the text does not match the date-time format", "use try_to_timestamp to tolerate invalid input and return NULL instead"},
	"try_to_timestamp": {"CANNOT_PARSE_TIMESTAMP", "the text does not match the date-time format", ""},
	"assert_true":      {"USER_RAISED_EXCEPTION", "the condition is not true", "the row breaks the assertion: fix the data or the condition"},
	"conv":             {"ARITHMETIC_OVERFLOW", "the number does not fit in 64 bits", "use fewer digits"},
	"abs":              {"ARITHMETIC_OVERFLOW", "the result overflows its type", "use a wider type"},
	"round":            {"ARITHMETIC_OVERFLOW", "the result overflows its type", "use a wider type"},
	"floor":            {"ARITHMETIC_OVERFLOW", "the result overflows its type", "use a wider type"},
	"ceil":             {"ARITHMETIC_OVERFLOW", "the result overflows its type", "use a wider type"},
	"ceiling":          {"ARITHMETIC_OVERFLOW", "the result overflows its type", "use a wider type"},
	"url_decode":       {"CANNOT_DECODE_URL", "the text is not valid URL-encoded text (a % must be followed by two hex digits)", "use try_url_decode to return NULL instead"},
	"parse_url":        {"INVALID_URL", "the URL is not a valid URI", "use try_parse_url to return NULL instead"},
	"split":            {"INVALID_PARAMETER_VALUE.PATTERN", "the regular expression is invalid", "use RE2 syntax (no lookaround or backreferences)"},
	"regexp_substr":    {"INVALID_PARAMETER_VALUE.PATTERN", "the regular expression is invalid", "use RE2 syntax (no lookaround or backreferences)"},
	"regexp_instr":     {"INVALID_PARAMETER_VALUE.PATTERN", "the regular expression is invalid", "use RE2 syntax (no lookaround or backreferences)"},
	"to_binary":        {"CONVERSION_INVALID_INPUT", "the text is not valid in the format", "use try_to_binary to tolerate invalid input and return NULL instead"},
	"getbit":           {"INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE", "the bit position is outside the value's bits", "use a position from 0 to the type's width in bits minus one"},
	"encode":           {"MALFORMED_CHARACTER_CODING", "the string cannot be encoded in the charset, or the charset is unknown", "use one of US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, UTF-16, UTF-32"},
	"decode":           {"MALFORMED_CHARACTER_CODING", "the bytes are not valid in the charset, or the charset is unknown", "use one of US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, UTF-16, UTF-32"},
	"validate_utf8":    {"INVALID_UTF8_STRING", "the bytes are not valid UTF-8", "use try_validate_utf8 to return NULL instead, or make_valid_utf8"},
}

// ErrFunction is the row error of a fallible function that failed on args
// (the arguments the generated code passed: a types.Decimal followed by its
// int scale is shown as one decimal, other int arguments — precisions and
// scales — are left out). The class depends on the function: e.g.
// CANNOT_PARSE_TIMESTAMP for to_date and to_timestamp, ARITHMETIC_OVERFLOW
// for abs, round, floor and ceil; INVALID_PARAMETER_VALUE otherwise.
func ErrFunction(name string, args []any) error {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	first := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		if _, meta := a.(int); meta {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		if d, isDec := a.(types.Decimal); isDec && i+1 < len(args) {
			if scale, ok := args[i+1].(int); ok {
				b.WriteString(d.Format(scale))
				i++
				continue
			}
		}
		b.WriteString(FormatValue(a))
	}
	b.WriteByte(')')
	fe, known := functionErrors[name]
	if !known {
		fe.class, fe.what = "INVALID_PARAMETER_VALUE", "invalid argument"
	}
	return &Error{Class: fe.class, Message: b.String() + " failed: " + fe.what, Hint: fe.hint}
}

// exprError is a row error with the SQL text of the failing expression.
type exprError struct {
	cause error
	expr  string
}

func (e *exprError) Error() string { return e.cause.Error() + "\n  expression: " + e.expr }

func (e *exprError) Unwrap() error { return e.cause }

// InExpression returns cause with the SQL text of the expression that
// failed, shown on a line of its own ("expression: (i + 1)") between the
// error and the input row that runtime.Worker.RowError adds. errors.As
// still finds the *Error.
func InExpression(cause error, expr string) error {
	if cause == nil {
		return nil
	}
	return &exprError{cause: cause, expr: expr}
}

// ErrScalarSubqueryTooManyRows is the error of a scalar subquery that
// returns more than one row (Spark's SCALAR_SUBQUERY_TOO_MANY_ROWS).
func ErrScalarSubqueryTooManyRows() error {
	return &Error{Class: "SCALAR_SUBQUERY_TOO_MANY_ROWS", Message: "more than one row returned by a subquery used as an expression",
		Hint: "make the subquery return one row (an aggregate, a filter on a key, or LIMIT 1)"}
}
