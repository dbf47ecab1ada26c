package sql

import "testing"

// TestCheckCollections checks the types and nullability of the array and
// map functions (Spark's collectionOperations.scala).
func TestCheckCollections(t *testing.T) {
	checkExprCases(t, []struct{ expr, typ, plan string }{
		{"array_distinct(arr)", "ARRAY<INT>", "array_distinct(arr#17)"},
		{"array_join(array('a', str), ',')", "STRING NOT NULL", "array_join(array(\"a\", str#10), \",\")"},
		{"array_join(arr, ',', str)", "STRING", "array_join(CAST(arr#17 AS ARRAY<STRING>), \",\", str#10)"},
		{"array_max(arr)", "INT", "array_max(arr#17)"},
		{"array_min(array(1))", "INT", "array_min(array(1))"},
		{"sort_array(arr, false)", "ARRAY<INT>", "sort_array(arr#17, false)"},
		{"flatten(array(array(1), array(2)))", "ARRAY<INT NOT NULL> NOT NULL", "flatten(array(array(1), array(2)))"},
		{"flatten(array(arr))", "ARRAY<INT>", "flatten(array(arr#17))"},
		{"flatten(array(array(1), NULL))", "ARRAY<INT NOT NULL>", "flatten(array(array(1), NULL:ARRAY<INT>))"},
		{"slice(arr, 2, i)", "ARRAY<INT>", "slice(arr#17, 2, i#2)"},
		{"sequence(1, 5)", "ARRAY<INT NOT NULL> NOT NULL", "sequence(1, 5)"},
		{"sequence(1, l, 2)", "ARRAY<BIGINT NOT NULL> NOT NULL", "sequence(CAST(1 AS BIGINT), l#3, CAST(2 AS BIGINT))"},
		{"sequence(dt, dt + 3)", "ARRAY<DATE NOT NULL>", "sequence(dt#12, date_add(dt#12, 3))"},
		{"sequence(ts, ts, INTERVAL 1 HOUR)", "ARRAY<TIMESTAMP NOT NULL>", "sequence(ts#13, ts#13, INTERVAL '0 01:00:00' DAY TO SECOND)"},
		{"arrays_zip(arr, array('x'))", "ARRAY<STRUCT<arr: INT, `1`: STRING> NOT NULL>", "arrays_zip(arr#17, array(\"x\"))"},
		{"map_keys(m)", "ARRAY<STRING NOT NULL>", "map_keys(m#18)"},
		{"map_values(m)", "ARRAY<BIGINT>", "map_values(m#18)"},
		{"map_from_arrays(array('a'), array(1))", "MAP<STRING, INT NOT NULL> NOT NULL", "map_from_arrays(array(\"a\"), array(1))"},
		// JSON strings.
		{"get_json_object(str, '$.a')", "STRING", "get_json_object(str#10, \"$.a\")"},
		{"from_json(str, 'a INT, b ARRAY<STRING>')", "STRUCT<a: INT, b: ARRAY<STRING>>", "from_json(str#10, \"a INT, b ARRAY<STRING>\")"},
		{"from_json(str, 'ARRAY<STRUCT<k: BIGINT NOT NULL>>')", "ARRAY<STRUCT<k: BIGINT>>", "from_json(str#10, \"ARRAY<STRUCT<k: BIGINT NOT NULL>>\")"},
		{"from_json(str, 'MAP<STRING, INT>')", "MAP<STRING, INT>", "from_json(str#10, \"MAP<STRING, INT>\")"},
		{"to_json(st)", "STRING", "to_json(st#19)"},
		{"to_json(array(1))", "STRING NOT NULL", "to_json(array(1))"},
		{"schema_of_json('[1]')", "STRING NOT NULL", "schema_of_json(\"[1]\")"},
		{"str:a.B[0]['c d'][*]", "STRING", "json_path(str#10, \"$.a.B[0]['c d'][*]\")"},
		{"str:a::INT", "INT", "CAST(json_path(str#10, \"$.a\") AS INT)"},
		// Errors.
		{"from_json(str, 'a INTEGR')", "", ""},
		{"from_json(str, str)", "", ""},
		{"to_json(i)", "", ""},
		{"i:a", "", ""},
		{"array_distinct(array(m))", "", ""},
		{"array_join(array(arr), ',')", "", ""},
		{"flatten(arr)", "", ""},
		{"map_keys(arr)", "", ""},
		{"sequence(str, str)", "", ""},
		{"sequence(1, 5, 1.5)", "", ""},
		{"sequence(dt, dt, 1)", "", ""},
		{"map_from_arrays(array(arr), arr)", "", ""},
	}, typeWithNulls)
}
