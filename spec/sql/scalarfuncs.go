package sql

import (
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file holds the scalar functions added for Spark's string, bitwise,
// JSON, array, map and conditional golden files: their rows of the
// function table, the argument rules they need, and the calls the checker
// rewrites into other nodes (Spark's RuntimeReplaceable expressions:
// decode's CASE form, nanvl, nullifzero, zeroifnull, isnotnull,
// map_contains_key, typeof). Semantics are Spark's
// (stringExpressions.scala, bitwiseExpressions.scala,
// collectionOperations.scala, nullExpressions.scala).

// More argument rules (numbered apart from functions.go's so that both
// lists can grow).
const (
	// ArgIntegralOrBoolean accepts TINYINT, SMALLINT, INT, BIGINT and
	// BOOLEAN unchanged, nothing else (bit_count: ExpectsInputTypes, no
	// implicit cast); NULL is an INT.
	ArgIntegralOrBoolean ArgRule = 100 + iota
	// ArgIntegral accepts TINYINT, SMALLINT, INT and BIGINT unchanged;
	// NULL is a BIGINT (getbit's value).
	ArgIntegral
	// ArgIntOrLong casts TINYINT, SMALLINT and NULL to INT and accepts INT
	// and BIGINT (the shifted value of shiftleft and friends).
	ArgIntOrLong
	// ArgBinary accepts BINARY; NULL is a BINARY (decode's bytes).
	ArgBinary
)

var moreArgRuleNames = map[ArgRule]string{
	ArgIntegralOrBoolean: "integral or BOOLEAN", ArgIntegral: "integral", ArgIntOrLong: "INT or BIGINT",
	ArgBinary: "BINARY",
}

// moreImplicitArg is implicitArg for the rules of this file; handled is
// false for other rules.
func moreImplicitArg(t types.Type, r ArgRule) (out types.Type, ok, handled bool) {
	k := t.Kind
	void := k == types.VoidKind
	switch r {
	case ArgIntegralOrBoolean:
		switch {
		case t.IsIntegral() || k == types.BooleanKind:
			return t, true, true
		case void:
			return types.IntType, true, true
		}
	case ArgIntegral:
		switch {
		case t.IsIntegral():
			return t, true, true
		case void:
			return types.LongType, true, true
		}
	case ArgIntOrLong:
		switch {
		case k == types.LongKind || k == types.IntKind:
			return t, true, true
		case k == types.ByteKind || k == types.ShortKind || void:
			return types.IntType, true, true
		}
	case ArgBinary:
		switch {
		case k == types.BinaryKind:
			return t, true, true
		case void:
			return types.BinaryType, true, true
		}
	default:
		return types.Type{}, false, false
	}
	return types.Type{}, false, true
}

// moreFunctions are appended to functionTable.
var moreFunctions = []*Function{
	// Bits.
	{Name: "bit_count", Impl: withKind(strict("BitCount"), types.BooleanKind, "BitCountBool"), Args: args(ArgIntegralOrBoolean), MinArgs: 1, Result: ResFixed, Type: types.IntType,
		Doc: "number of bits set in the 64-bit two's complement of an integer (sign-extended), or 1 for TRUE and 0 for FALSE"},
	{Name: "getbit", Aliases: []string{"bit_get"}, Impl: fallible("GetBit"), Args: args(ArgIntegral, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.ByteType,
		Doc: "the bit (0 or 1) at a 0-based position counted from the right; a position outside the type's bits is an error"},
	{Name: "shiftleft", Impl: strict("ShiftLeft"), Args: args(ArgIntOrLong, ArgInt), MinArgs: 2, Result: ResArg0,
		Doc: "a << n: the INT or BIGINT shifted left by n bits (n modulo 32 or 64, as Java)"},
	{Name: "shiftright", Impl: strict("ShiftRight"), Args: args(ArgIntOrLong, ArgInt), MinArgs: 2, Result: ResArg0,
		Doc: "a >> n: the INT or BIGINT shifted right by n bits, keeping its sign"},
	{Name: "shiftrightunsigned", Impl: withKind(strict("ShiftRightUnsigned"), types.LongKind, "ShiftRightUnsignedLong"), Args: args(ArgIntOrLong, ArgInt), MinArgs: 2, Result: ResArg0,
		Doc: "a >>> n: the INT or BIGINT shifted right by n bits, filling with zeros"},

	// Strings and bytes.
	{Name: "luhn_check", Impl: strict("LuhnCheck"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.BooleanType,
		Doc: "whether the string is a number (digits only) that passes the Luhn checksum; FALSE for '' and for any other character"},
	{Name: "to_binary", Impl: fallible("ToBinary"), Args: args(ArgString, ArgString), MinArgs: 1, Result: ResFixed, Type: types.BinaryType,
		Doc: "the string read as bytes in a constant format: 'hex' (the default; an odd count of digits reads as with a leading 0), 'utf-8' / 'utf8', or 'base64'; text the format does not accept is an error"},
	{Name: "try_to_binary", Impl: nullOnFail("ToBinary"), Args: args(ArgString, ArgString), MinArgs: 1, Result: ResFixed, Type: types.BinaryType, Nulls: NullAlways,
		Doc: "to_binary, NULL when the text does not parse"},
	{Name: "encode", Impl: fallible("Encode"), Args: args(ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.BinaryType,
		Doc: "the string's bytes in a charset: US-ASCII, ISO-8859-1, UTF-8, UTF-16 (big-endian after a byte-order mark, as Java), UTF-16BE, UTF-16LE or UTF-32; a character the charset lacks is an error"},
	{Name: "decode", Impl: fallible("Decode"), Args: args(ArgBinary, ArgString), MinArgs: 2, Result: ResFixed, Type: types.StringType,
		Doc: "decode(bytes, charset): the bytes read in one of encode's charsets (malformed bytes are an error); decode(x, search1, result1, ..., [default]): the result of the first search value x equals (NULLs equal), else the default or NULL"},
	{Name: "btrim", Impl: strict("Trim"), Args: args(ArgString, ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "btrim(str[, chars]): str without leading and trailing spaces, or characters of chars (BINARY arguments are read as strings)"},
	{Name: "is_valid_utf8", Impl: strict("IsValidUTF8"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.BooleanType,
		Doc: "whether the bytes are valid UTF-8"},
	{Name: "make_valid_utf8", Impl: strict("MakeValidUTF8"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the bytes as a string, each invalid UTF-8 sequence replaced by U+FFFD"},
	{Name: "validate_utf8", Impl: fallible("ValidateUTF8"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the bytes as a string; invalid UTF-8 is an error (INVALID_UTF8_STRING)"},
	{Name: "try_validate_utf8", Impl: nullOnFail("ValidateUTF8"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType, Nulls: NullAlways,
		Doc: "the bytes as a string; NULL for invalid UTF-8"},
	{Name: "quote", Impl: strict("Quote"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.StringType,
		Doc: "the string in single quotes, with \\ and ' escaped by a backslash"},
	{Name: "regexp_substr", Args: args(ArgString, ArgString), MinArgs: 2, Result: ResFixed, Type: types.StringType, Nulls: NullAlways,
		Doc: "the first match of the regular expression (Java syntax); NULL when there is none or it is empty"},
	{Name: "regexp_instr", Impl: fallible("RegexpInstr"), Args: args(ArgString, ArgString, ArgInt), MinArgs: 2, Result: ResFixed, Type: types.IntType,
		Doc: "the 1-based position of the first match of the regular expression (or of its group idx), 0 when there is none"},
	{Name: "elt", Args: args(ArgInt, ArgString), Variadic: true, MinArgs: 2, Result: ResFixed, Type: types.StringType, Nulls: NullAlways,
		Doc: "elt(n, s1, s2, ...): the n-th string (1-based), evaluated only when chosen; n outside 1..count is an error (INVALID_ARRAY_INDEX)"},

	// JSON.
	{Name: "json_object_keys", Impl: nullOnFail("JSONObjectKeys"), Args: args(ArgString), MinArgs: 1, Result: ResFixed, Type: types.ArrayOf(types.StringType, false), Nulls: NullAlways,
		Doc: "the keys of the outermost JSON object, in order; NULL for malformed JSON or another JSON value"},

	// Arrays and maps.
	{Name: "get", Args: args(ArgArray, ArgInt), MinArgs: 2, Result: ResElement, Nulls: NullAlways,
		Doc: "the array's element at a 0-based index; NULL when the index is out of range"},
	{Name: "array_append", Args: args(ArgArray, ArgAny), MinArgs: 2, Result: ResCollection, Nulls: NullIfArg0,
		Doc: "the array with the value (NULL too) added at its end; the value must have the elements' type, or one both widen to"},
	{Name: "array_prepend", Args: args(ArgArray, ArgAny), MinArgs: 2, Result: ResCollection, Nulls: NullIfArg0,
		Doc: "the array with the value (NULL too) added at its start"},
	{Name: "array_insert", Args: args(ArgArray, ArgInt, ArgAny), MinArgs: 3, Result: ResCollection, Nulls: NullIfAnyArg,
		Doc: "the array with the value inserted at a 1-based position (negative: counted from the end, -1 after the last element); past either end the gap is filled with NULLs; position 0 is an error"},
	{Name: "array_compact", Args: args(ArgArray), MinArgs: 1, Result: ResCollection, Nulls: NullIfArg0,
		Doc: "the array without its NULL elements"},
	{Name: "zip_with", Args: args(ArgArray, ArgArray, ArgLambda), MinArgs: 3, Result: ResLambda, Nulls: NullIfAnyArg,
		Doc: "the array of the lambda's results for the elements at each position of two arrays: zip_with(a, b, (x, y) -> ...), as long as the longer one (the shorter one's elements NULL past its end)"},
	{Name: "transform_values", Args: args(ArgArrayOrMap, ArgLambda), MinArgs: 2, Result: ResLambda, Nulls: NullIfArg0,
		Doc: "the map with each value replaced by the lambda's result: transform_values(m, (k, v) -> ...)"},
	{Name: "transform_keys", Args: args(ArgArrayOrMap, ArgLambda), MinArgs: 2, Result: ResLambda, Nulls: NullIfArg0,
		Doc: "the map with each key replaced by the lambda's result: transform_keys(m, (k, v) -> ...); a NULL or repeated new key is an error"},
	{Name: "map_filter", Args: args(ArgArrayOrMap, ArgLambda), MinArgs: 2, Result: ResLambda, Nulls: NullIfArg0,
		Doc: "the entries for which the lambda is TRUE: map_filter(m, (k, v) -> ...)"},
	{Name: "map_zip_with", Args: args(ArgArrayOrMap, ArgArrayOrMap, ArgLambda), MinArgs: 3, Result: ResLambda, Nulls: NullIfAnyArg,
		Doc: "the map of every key of two maps (with one key type) to the lambda's result: map_zip_with(m1, m2, (k, v1, v2) -> ...), a value NULL where its map lacks the key; the first map's keys first"},
	{Name: "map_contains_key", Args: args(ArgAny, ArgAny), MinArgs: 2, Result: ResFixed, Type: types.BooleanType,
		Doc: "whether the map has the key (its type and the key's widen to a common type; a STRING does not widen to a number)"},

	// Conditionals and types.
	{Name: "isnan", Impl: strict("IsNaN"), Args: args(ArgDouble), MinArgs: 1, Result: ResFixed, Type: types.BooleanType, Nulls: NullNever,
		Doc: "whether the value is NaN (FALSE for NULL)"},
	{Name: "isnull", Args: args(ArgAny), MinArgs: 1, Result: ResFixed, Type: types.BooleanType, Nulls: NullNever,
		Doc: "x IS NULL"},
	{Name: "isnotnull", Args: args(ArgAny), MinArgs: 1, Result: ResFixed, Type: types.BooleanType, Nulls: NullNever,
		Doc: "x IS NOT NULL"},
	{Name: "nanvl", Args: args(ArgDouble, ArgDouble), MinArgs: 2, Result: ResFixed, Type: types.DoubleType,
		Doc: "the first argument unless it is NaN, else the second (evaluated only then); FLOAT when both are FLOAT, else DOUBLE"},
	{Name: "nullifzero", Args: args(ArgAny), MinArgs: 1, Result: ResArg0, Nulls: NullAlways,
		Doc: "nullif(x, 0): NULL when x equals 0, else x"},
	{Name: "zeroifnull", Args: args(ArgAny), MinArgs: 1, Result: ResArg0,
		Doc: "coalesce(x, 0): 0 when x is NULL, else x"},
	{Name: "assert_true", Args: args(ArgBoolean), MinArgs: 1, Result: ResFixed, Type: types.VoidType, Nulls: NullAlways,
		Doc: "NULL when the condition is TRUE; otherwise (FALSE or NULL) the row fails with USER_RAISED_EXCEPTION"},
	{Name: "typeof", Args: args(ArgAny), MinArgs: 1, Result: ResFixed, Type: types.StringType, Nulls: NullNever,
		Doc: "the name of the argument's type as Spark writes it: int, decimal(2,1), array<int>, struct<a:int,b:string>, ..."},
}

// rewriteCallAST replaces the calls that are other SQL written shorter,
// before their arguments are checked; handled is false for the others.
func (c *checker) rewriteCallAST(e *callExpr, ctx *exprCtx) (Expr, bool) {
	if e.over != nil || e.distinct || e.filter != nil || e.star {
		return nil, false
	}
	if r, handled := c.rewriteSpelling(e, ctx); handled {
		return r, true
	}
	n := len(e.args)
	zero := func() astExpr {
		return &litExpr{typ: types.IntType, val: int32(0), text: "0", pos: e.name.pos, end: e.name.pos}
	}
	switch e.name.name {
	case "decode":
		if n < 3 {
			return nil, false
		}
		// decode(x, s1, r1, ..., [default]) is CASE WHEN x <=> s1 THEN r1 ... END.
		ce := &caseExpr{pos: e.name.pos, end: e.end}
		for i := 1; i+1 < n; i += 2 {
			ce.whens = append(ce.whens, whenArm{cond: &binaryExpr{op: "<=>", l: e.args[0], r: e.args[i], opPos: e.name.pos}, then: e.args[i+1]})
		}
		if n%2 == 0 {
			ce.els = e.args[n-1]
		}
		return c.expr(ce, ctx), true
	case "isnull", "isnotnull":
		if n != 1 {
			return nil, false
		}
		return c.expr(&isExpr{x: e.args[0], not: e.name.name == "isnotnull", what: "NULL", end: e.end}, ctx), true
	case "nullifzero", "zeroifnull":
		if n != 1 {
			return nil, false
		}
		name := "nullif"
		if e.name.name == "zeroifnull" {
			name = "coalesce"
		}
		return c.expr(&callExpr{name: ident{name: name, pos: e.name.pos, end: e.name.end}, args: []astExpr{e.args[0], zero()}, end: e.end}, ctx), true
	}
	return nil, false
}

// rewriteCall checks and rewrites the calls of this file whose node is not
// a plain Call, after their arguments are checked; handled is false for
// the others.
func (c *checker) rewriteCall(fn *Function, args []Expr, asts []astExpr, e *callExpr) (Expr, bool) {
	pos, end := e.name.pos, e.end
	switch fn.Name {
	case "make_timestamp", "try_make_timestamp":
		if len(args) >= 1 && len(args) <= 3 {
			return c.makeTimestampOfDate(fn, args, asts, pos), true
		}
	case "typeof":
		if len(args) != 1 {
			return nil, false
		}
		t := args[0].ResultType()
		name, ok := typeName(t)
		if !ok {
			c.errorAt(asts[0], "UNSUPPORTED_FEATURE", "", "typeof of %s is not supported", t)
			return bad, true
		}
		return &Literal{Value: name, Type: types.StringType}, true
	case "nanvl":
		if len(args) != 2 {
			return nil, false
		}
		for i, a := range args {
			if t := a.ResultType(); !t.IsNumeric() && t.Kind != types.VoidKind && t.Kind != types.StringKind {
				c.errorAt(asts[i], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "", "argument %d of nanvl must be DOUBLE or FLOAT, not %s", i+1, t)
				return bad, true
			}
		}
		t := types.DoubleType
		if args[0].ResultType().Kind == types.FloatKind && args[1].ResultType().Kind == types.FloatKind {
			t = types.FloatType
		}
		a, b := c.castTo(args[0], t, asts[0]), c.castTo(args[1], t, asts[1])
		isNaN := &Call{Func: "isnan", Args: []Expr{c.castTo(a, types.DoubleType, asts[0])}, Type: types.BooleanType, Pos: pos}
		whens := []When{{Cond: isNaN, Then: b}}
		return &Case{Whens: whens, Else: a, Type: t, Nullable: caseNullable(whens, a)}, true
	case "map_contains_key":
		if len(args) != 2 {
			return nil, false
		}
		mt, kt := args[0].ResultType(), args[1].ResultType()
		if mt.Kind != types.MapKind {
			c.errorAt(asts[0], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "", "argument 1 of map_contains_key must be a MAP, not %s", mt)
			return bad, true
		}
		common, ok := widerType(*mt.Key, kt)
		if ok && (mt.Key.Kind == types.StringKind) != (kt.Kind == types.StringKind) && kt.Kind != types.VoidKind {
			ok = false // findWiderTypeWithoutStringPromotion
		}
		if !ok {
			c.errorf(pos, end, "DATATYPE_MISMATCH.MAP_FUNCTION_DIFF_TYPES", "cast the key to the map's key type",
				"the key of map_contains_key must have the map's key type %s, not %s", *mt.Key, kt)
			return bad, true
		}
		keys := &Call{Func: "map_keys", Args: []Expr{args[0]}, Type: types.ArrayOf(*mt.Key, false), Nullable: args[0].IsNullable(), Pos: pos}
		arr := c.castTo(keys, types.ArrayOf(common, false), asts[0])
		key := c.castTo(args[1], common, asts[1])
		return &Call{Func: "array_contains", Args: []Expr{arr, key}, Type: types.BooleanType, Nullable: arr.IsNullable() || key.IsNullable(), Pos: pos}, true
	case "assert_true":
		if len(args) != 1 {
			return nil, false
		}
		// Spark's AssertTrue is IF(cond, NULL, raise_error(...)): a NULL
		// condition fails too, so the helper sees coalesce(cond, FALSE).
		if _, ok := implicitArg(args[0].ResultType(), ArgBoolean); !ok {
			c.errorAt(asts[0], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "", "argument 1 of assert_true must be BOOLEAN, not %s", args[0].ResultType())
			return bad, true
		}
		cond := c.castTo(args[0], types.BooleanType, asts[0])
		always := &Call{Func: "coalesce", Args: []Expr{cond, &Literal{Value: false, Type: types.BooleanType}}, Type: types.BooleanType, Pos: pos}
		return &Call{Func: "assert_true", Args: []Expr{always}, Type: types.VoidType, Nullable: true, Pos: pos}, true
	case "ceil", "floor":
		if len(args) != 2 {
			return nil, false
		}
		return c.roundCeilFloor(fn, args, asts, e), true
	case "to_binary", "try_to_binary":
		if len(args) == 2 && !c.binaryFormat(fn.Name, args[1], asts[1]) {
			return bad, true
		}
	case "encode", "decode":
		if len(args) == 2 && !c.charsetArg(args[1], asts[1]) {
			return bad, true
		}
	}
	return nil, false
}

// binaryFormats are to_binary's formats.
var binaryFormats = map[string]bool{"hex": true, "utf-8": true, "utf8": true, "base64": true}

// binaryFormat checks to_binary's format: it must be constant (Spark's
// NON_FOLDABLE_INPUT), and a literal one must be a format it knows.
func (c *checker) binaryFormat(name string, x Expr, at astExpr) bool {
	if !foldable(x) {
		c.errorAt(at, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "write the format as a literal: 'hex', 'utf-8' or 'base64'",
			"the format of %s must be a constant", name)
		return false
	}
	if cast, ok := x.(*Cast); ok {
		x = cast.X
	}
	l, ok := x.(*Literal)
	if !ok || l.Value == nil {
		return true
	}
	s := strings.ToLower(formatLiteral(l))
	if !binaryFormats[s] {
		c.errorAt(at, "DATATYPE_MISMATCH.INVALID_ARG_VALUE", "write 'hex', 'utf-8', 'utf8' or 'base64'",
			"the format of %s must be 'hex', 'utf-8', 'utf8' or 'base64', not '%s'", name, s)
		return false
	}
	return true
}

// charsets are encode's and decode's (Spark 4's CharsetProvider.VALID_CHARSETS).
var charsets = map[string]bool{"us-ascii": true, "iso-8859-1": true, "utf-8": true, "utf-16be": true, "utf-16le": true, "utf-16": true, "utf-32": true}

// charsetArg rejects a literal charset encode and decode do not know.
func (c *checker) charsetArg(x Expr, at astExpr) bool {
	s, ok := stringLiteral(x)
	if !ok || charsets[strings.ToLower(s)] {
		return true
	}
	c.errorAt(at, "INVALID_PARAMETER_VALUE.CHARSET", "use US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, UTF-16 or UTF-32",
		"unknown charset '%s'", s)
	return false
}

// formatLiteral is a literal's value as text, as CAST(x AS STRING) gives
// for the integers and strings a format may be written as.
func formatLiteral(l *Literal) string {
	if s, ok := l.Value.(string); ok {
		return s
	}
	if v, ok := intValue(l); ok {
		return itoa(v)
	}
	return ""
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// foldable reports whether e reads no column and calls nothing
// nondeterministic: Spark's Expression.foldable, a value known before the
// query runs.
func foldable(e Expr) bool {
	return e != nil && Find(e, func(x Expr) bool {
		switch x := x.(type) {
		case *Literal, *Unary, *Binary, *Cast, *Case, *In, *Like, *IsNull, *FieldRef, *Subscript:
			return false
		case *Call:
			f := LookupFunction(x.Func)
			return f == nil || f.Nondeterministic || f.Kind != ScalarFunc
		}
		return true // a column, parameter, lambda, subquery, aggregate or window call
	}) == nil
}

// typeName is Spark's DataType.catalogString: int, decimal(2,1),
// array<int>, map<int,string>, struct<a:int,b:string>. An INTERVAL's
// fields are not known here, so it has none.
func typeName(t types.Type) (string, bool) {
	switch t.Kind {
	case types.VoidKind:
		return "void", true
	case types.DecimalKind:
		return "decimal(" + itoa(int64(t.Precision)) + "," + itoa(int64(t.Scale)) + ")", true
	case types.ArrayKind:
		e, ok := typeName(*t.Elem)
		return "array<" + e + ">", ok
	case types.MapKind:
		k, ok1 := typeName(*t.Key)
		v, ok2 := typeName(*t.Value)
		return "map<" + k + "," + v + ">", ok1 && ok2
	case types.StructKind:
		var b strings.Builder
		b.WriteString("struct<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			ft, ok := typeName(f.Type)
			if !ok {
				return "", false
			}
			b.WriteString(types.QuoteIdent(f.Name) + ":" + ft)
		}
		b.WriteByte('>')
		return b.String(), true
	case types.IntervalKind, types.InvalidKind:
		return "", false
	}
	return strings.ToLower(t.Kind.String()), true
}

// moreCollectionType types the collection functions of this file; handled
// is false for the others.
func (c *checker) moreCollectionType(fn *Function, args []Expr, asts []astExpr) (t types.Type, ok, handled bool) {
	switch fn.Name {
	case "array_append", "array_prepend", "array_insert":
		t0 := args[0].ResultType()
		item := len(args) - 1
		it := args[item].ResultType()
		elem, ok := tightestCommon(*t0.Elem, it)
		if !ok {
			c.errorAt(asts[item], "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES", "cast the value to the array's element type",
				"argument %d of %s must have the array's element type %s, not %s", item+1, fn.Name, *t0.Elem, it)
			return types.Type{}, false, true
		}
		if elem.Kind == types.VoidKind {
			elem = types.IntType
		}
		if !t0.Elem.Equal(elem) {
			args[0] = c.castTo(args[0], types.ArrayOf(elem, t0.ContainsNull), asts[0])
		}
		args[item] = c.castTo(args[item], elem, asts[item])
		containsNull := t0.ContainsNull || args[item].IsNullable() || fn.Name == "array_insert"
		return types.ArrayOf(elem, containsNull), true, true
	case "array_compact":
		return types.ArrayOf(*args[0].ResultType().Elem, false), true, true
	}
	return types.Type{}, false, false
}

// roundCeilFloor checks ceil(x, d) and floor(x, d), Spark's RoundCeil and
// RoundFloor: d must be a constant INT that is not NULL
// (NON_FOLDABLE_ARGUMENT otherwise), x is cast to DECIMAL (an integral or
// floating-point type to the DECIMAL that holds it, STRING to
// DECIMAL(38,18)), and the result is a DECIMAL of RoundBase's type, NULL
// when it overflows.
func (c *checker) roundCeilFloor(fn *Function, args []Expr, asts []astExpr, e *callExpr) Expr {
	l, ok := args[1].(*Literal)
	if !ok || l.Value == nil || l.Type.Kind != types.IntKind {
		c.errorAt(asts[1], "NON_FOLDABLE_ARGUMENT", "write the scale as an INT literal, e.g. "+fn.Name+"(x, 2)",
			"the scale of %s must be a constant INT that is not NULL", fn.Name)
		return bad
	}
	t := args[0].ResultType()
	var dt types.Type
	switch {
	case t.Kind == types.DecimalKind:
		dt = t
	case t.IsNumeric():
		dt = decimalForType(t)
	case t.Kind == types.StringKind:
		dt = types.DecimalOf(38, 18)
	case t.Kind == types.VoidKind:
		dt = types.DecimalOf(38, 18)
	default:
		c.errorAt(asts[0], "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "cast it: CAST(x AS DECIMAL(p, s))",
			"argument 1 of %s must be numeric, not %s", fn.Name, t)
		return bad
	}
	x := c.castTo(args[0], dt, asts[0])
	d := l.Value.(int32)
	return &Call{Func: fn.Name, Args: []Expr{x, &Literal{Value: d, Type: types.IntType}}, Type: roundType(dt, int(d)), Nullable: true, Pos: e.name.pos}
}
