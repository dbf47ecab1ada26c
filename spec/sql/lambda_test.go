package sql

import (
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// TestCheckLambdas checks higher-order functions: the types their lambda
// parameters get, their result types and nullability (Spark 4's, from
// higherOrderFunctions.scala), and name resolution inside lambdas.
func TestCheckLambdas(t *testing.T) {
	checkExprCases(t, []struct{ expr, typ, plan string }{
		// transform: element, then optional 0-based INT index.
		{"transform(arr, x -> x + 1)", "ARRAY<INT>", "transform(arr#17, x -> (x + 1))"},
		{"transform(arr, (x, i) -> i)", "ARRAY<INT NOT NULL>", "transform(arr#17, (x, i) -> i)"},
		{"transform(array(1, 2), x -> x * 2L)", "ARRAY<BIGINT NOT NULL> NOT NULL", "transform(array(1, 2), x -> (CAST(x AS BIGINT) * 2L))"},
		{"transform(arr, x -> coalesce(x, 0))", "ARRAY<INT NOT NULL>", "transform(arr#17, x -> coalesce(x, 0))"},
		// Columns of the row are visible; parameters shadow them.
		{"transform(arr, x -> x + i)", "ARRAY<INT>", "transform(arr#17, x -> (x + i#2))"},
		{"transform(arr, i -> i)", "ARRAY<INT>", "transform(arr#17, i -> i)"},
		{"transform(arr, X -> x)", "ARRAY<INT>", "transform(arr#17, X -> X)"},
		// Nested lambdas see the enclosing lambda's parameters.
		{"transform(array(arr), a -> transform(a, x -> x + size(a)))", "ARRAY<ARRAY<INT>> NOT NULL",
			"transform(array(arr#17), a -> transform(a, x -> (x + size(a))))"},
		// filter keeps the array's type; exists and forall are BOOLEAN.
		{"filter(arr, x -> x > 1)", "ARRAY<INT>", "filter(arr#17, x -> (x > 1))"},
		{"filter(arr, (x, i) -> i % 2 = 0)", "ARRAY<INT>", "filter(arr#17, (x, i) -> ((i % 2) = 0))"},
		{"exists(arr, x -> x > 1)", "BOOLEAN", "exists(arr#17, x -> (x > 1))"},
		{"exists(array(1), x -> x > 1)", "BOOLEAN NOT NULL", "exists(array(1), x -> (x > 1))"},
		{"forall(array(1, NULL), x -> x > 1)", "BOOLEAN", "forall(array(1, NULL:INT), x -> (x > 1))"},
		// aggregate: the accumulator is nullable (Spark binds it so).
		{"aggregate(arr, 0, (acc, x) -> acc + x)", "INT", "aggregate(arr#17, 0, (acc, x) -> (acc + x))"},
		{"aggregate(array(1, 2), 0L, (acc, x) -> acc + x)", "BIGINT", "aggregate(array(1, 2), 0L, (acc, x) -> (acc + CAST(x AS BIGINT)))"},
		{"aggregate(array(1, 2), 0, (acc, x) -> coalesce(acc, 0) + x)", "INT NOT NULL", "aggregate(array(1, 2), 0, (acc, x) -> (coalesce(acc, 0) + x))"},
		{"aggregate(array(1, 2), 0, (acc, x) -> acc + x, acc -> acc * 10L)", "BIGINT", "aggregate(array(1, 2), 0, (acc, x) -> (acc + x), acc -> (CAST(acc AS BIGINT) * 10L))"},
		{"reduce(array(1, 2), 0, (acc, x) -> acc + x, a -> CAST(a AS STRING))", "STRING", "aggregate(array(1, 2), 0, (acc, x) -> (acc + x), a -> CAST(a AS STRING))"},
		{"aggregate(array(d52), CAST(0 AS DECIMAL(5,2)), (a, x) -> CAST(a + x AS DECIMAL(5,2)))", "DECIMAL(5,2)",
			"aggregate(array(d52#6), CAST(0 AS DECIMAL(5,2)), (a, x) -> CAST((a + x) AS DECIMAL(5,2)))"},
		// array_sort: natural order, or a comparator returning INT.
		{"array_sort(arr)", "ARRAY<INT>", "array_sort(arr#17)"},
		{"array_sort(arr, (l, r) -> r - l)", "ARRAY<INT>", "array_sort(arr#17, (l, r) -> (r - l))"},
		// arr.field over an array of structs reads the field of every element.
		{"array(st, st).y", "ARRAY<STRING> NOT NULL", "transform(array(st#19, st#19), x -> x.y)"},
		{"array(st).x", "ARRAY<INT> NOT NULL", "transform(array(st#19), x -> x.x)"},
		{"array(named_struct('k', 1)).k", "ARRAY<INT NOT NULL> NOT NULL", "transform(array(named_struct(\"k\", 1)), x -> x.k)"},
		// A NULL array gives a NULL of the function's type.
		{"transform(NULL, x -> 1)", "ARRAY<INT NOT NULL>", "NULL:ARRAY<INT>"},
		// Errors.
		{"transform(arr, (x, i, j) -> x)", "", ""},
		// An expression where a lambda belongs is a lambda ignoring its
		// parameters (Spark 4: transform(array(1, 2, 3), 42) is [42,42,42]).
		{"transform(arr, 1)", "ARRAY<INT NOT NULL>", "transform(arr#17, () -> 1)"},
		{"aggregate(array(1, 2), 0, 100)", "INT NOT NULL", "aggregate(array(1, 2), 0, () -> 100)"},
		{"aggregate(array(1, 2), map(), map('result', 999))", "", ""},
		{"exists(arr, 1)", "", ""},
		{"upper(x -> x)", "", ""},
		{"filter(arr, x -> x + 1)", "", ""},
		{"aggregate(array(1L), 0, (acc, x) -> acc + x)", "", ""},
		{"transform(i, x -> x)", "", ""},
		{"array_sort(array(m))", "", ""},
		{"transform(arr, x -> sum(x))", "", ""},
	}, typeWithNulls)
}

// typeWithNulls prints t with the nullability of array elements and map
// values, which Type.String leaves out.
func typeWithNulls(t types.Type) string {
	switch t.Kind {
	case types.ArrayKind:
		s := "ARRAY<" + typeWithNulls(*t.Elem)
		if !t.ContainsNull {
			s += " NOT NULL"
		}
		return s + ">"
	case types.MapKind:
		s := "MAP<" + typeWithNulls(*t.Key) + ", " + typeWithNulls(*t.Value)
		if !t.ValueContainsNull {
			s += " NOT NULL"
		}
		return s + ">"
	}
	return t.String()
}

// TestCheckLambdaNames checks the output names of unaliased higher-order
// calls (Spark's pretty SQL: lambdafunction(...), namedlambdavariable())
// and of arr.field.
func TestCheckLambdaNames(t *testing.T) {
	runCheckCases(t, []checkCase{
		{"SELECT items.sku, transform(items, x -> x.qty) FROM raw_orders",
			"sku ARRAY<STRING>, `transform(items, lambdafunction(namedlambdavariable().qty, namedlambdavariable()))` ARRAY<INT>"},
		{"SELECT aggregate(items, 0, (acc, x) -> acc + x.qty) FROM raw_orders",
			"`aggregate(items, 0, lambdafunction((namedlambdavariable() + namedlambdavariable().qty), namedlambdavariable(), namedlambdavariable()), lambdafunction(namedlambdavariable(), namedlambdavariable()))` INT"},
		// Lambdas over grouped columns and aggregates.
		{"SELECT customer_id, aggregate(collect_list(amount), CAST(0 AS DECIMAL(38,2)), (a, x) -> a + x) AS s FROM orders_silver GROUP BY customer_id",
			"customer_id STRING, s DECIMAL(38,2)"},
	}, func(p Plan) string { return formatColumns(p.Output()) })
}

// TestCheckLambdaErrors checks the errors of lambdas and higher-order
// functions, with their positions.
func TestCheckLambdaErrors(t *testing.T) {
	tests := []struct{ query, want string }{
		{"SELECT transform(arr, (x, i, j) -> x) FROM nums", `22-30 INVALID_LAMBDA_FUNCTION_CALL the lambda function of transform takes 1 to 2 parameters (element, index), not 3`},
		{"SELECT upper(x -> x) FROM nums", `13-14 INVALID_LAMBDA_FUNCTION_CALL a lambda function can only be an argument of a higher-order function (pass it to a function such as transform, filter or aggregate)`},
		{"SELECT filter(arr, x -> x + 1) FROM nums", `24-29 DATATYPE_MISMATCH the lambda function of filter must return BOOLEAN, not INT`},
		{"SELECT aggregate(array(1L), 0, (acc, x) -> acc + x) FROM nums", `43-50 DATATYPE_MISMATCH the merge lambda of aggregate returns BIGINT, but the start value is INT: they must have one type (write the start value as CAST(0 AS BIGINT))`},
		{"SELECT transform(i, x -> x) FROM nums", `17-18 DATATYPE_MISMATCH argument 1 of transform must be an ARRAY, not INT`},
		{"SELECT array_sort(array(m)) FROM nums", `18-26 DATATYPE_MISMATCH array_sort cannot order elements of type MAP<STRING, BIGINT> (pass a comparator (l, r) -> INT)`},
		{"SELECT transform(arr, x -> sum(x)) FROM nums", `27-33  aggregate function sum is not allowed in a lambda function`},
		{"SELECT transform(arr, (x, x) -> x) FROM nums", `26-27 INVALID_LAMBDA_FUNCTION_CALL the lambda function has two parameters named "x" (give each parameter its own name)`},
		{"SELECT transform(arr, x -> x.z) FROM nums", `29-30 INVALID_EXTRACT_BASE_FIELD_TYPE cannot read field "z" of a INT value`},
		{"SELECT array_sort(arr, (l, r) -> l > r) FROM nums", `33-38 DATATYPE_MISMATCH the lambda function of array_sort must return INT, not BOOLEAN`},
		{"SELECT items.skux FROM raw_orders", `13-17 FIELD_NOT_FOUND field "skux" does not exist in STRUCT<sku: STRING, qty: INT> (did you mean "sku"?)`},
		{"SELECT i, transform(arr, x -> x + l) FROM nums GROUP BY i", `20-23 MISSING_AGGREGATION column "arr" is neither grouped nor aggregated (add it to GROUP BY, or aggregate it, e.g. any_value(arr))`},
	}
	checkErrorCases(t, tests)
}

// checkErrorCases checks each query over newTestCatalog and compares its
// errors (positions, classes, messages, hints) with want.
func checkErrorCases(t *testing.T, tests []struct{ query, want string }) {
	t.Helper()
	cat := newTestCatalog()
	for _, tt := range tests {
		_, errs := checkText(t, cat, tt.query)
		if got := errString(errs); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.query, got, tt.want)
		}
	}
}

// TestCheckScalarFunctions checks the calls of scalarfuncs.go that the
// checker rewrites, and the shift operators, with Spark's types.
func TestCheckScalarFunctions(t *testing.T) {
	checkExprCases(t, []struct{ expr, typ, plan string }{
		{"1 << 1 + 2", "INT NOT NULL", "shiftleft(1, (1 + 2))"},
		{"2 >> 1 << 1", "INT NOT NULL", "shiftleft(shiftright(2, 1), 1)"},
		{"1 & 2 >> 1", "INT NOT NULL", "(1 & shiftright(2, 1))"},
		{"-1L >>> 60", "BIGINT NOT NULL", "shiftrightunsigned(-1L, 60)"},
		{"typeof(named_struct('a', 1, 'b', 'x'))", "STRING NOT NULL", `"struct<a:int,b:string>"`},
		{"typeof(1.2)", "STRING NOT NULL", `"decimal(2,1)"`},
		{"isnotnull(i)", "BOOLEAN NOT NULL", "(i#2 IS NOT NULL)"},
		{"zeroifnull(CAST(1 AS TINYINT))", "INT NOT NULL", "coalesce(CAST(CAST(1 AS TINYINT) AS INT), 0)"},
		{"nanvl(i, 1)", "DOUBLE NOT NULL", "CASE WHEN isnan(CAST(i#2 AS DOUBLE)) THEN CAST(1 AS DOUBLE) ELSE CAST(i#2 AS DOUBLE) END"},
		{"decode(i, 1, 'a', 'b')", "STRING NOT NULL", `CASE WHEN (i#2 <=> 1) THEN "a" ELSE "b" END`},
		{"map_contains_key(map(1, 'a'), 1.0)", "BOOLEAN NOT NULL", "array_contains(CAST(map_keys(map(1, \"a\")) AS ARRAY<DECIMAL(11,1)>), CAST(1.0BD AS DECIMAL(11,1)))"},
		{"map_contains_key(map('1', 'a'), 1)", "", ""},
		{"array_insert(array(1, 2, 3), 3, '4')", "", ""},
		{"array_append(array(1), CAST(2 AS TINYINT))", "ARRAY<INT> NOT NULL", "array_append(array(1), CAST(CAST(2 AS TINYINT) AS INT))"},
		{"bit_count('a')", "", ""},
		{"to_binary('abc', 'invalidFormat')", "", ""},
		{"to_binary('abc', s)", "", ""},
		{"encode('hello', 'WINDOWS-1252')", "", ""},
	}, types.Type.String)
}
