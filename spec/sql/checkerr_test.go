package sql

import "testing"

// TestCheckErrors checks every kind of error Check reports, with its
// position, Spark error class, message and hint.
func TestCheckErrors(t *testing.T) {
	tests := []struct{ query, want string }{
		// Names.
		{"SELECT amout FROM orders_silver", `7-12 UNRESOLVED_COLUMN column "amout" does not exist (did you mean "amount"?)`},
		{"SELECT o.amout FROM orders_silver o", `7-14 UNRESOLVED_COLUMN column "o.amout" does not exist (did you mean "o.amount"?)`},
		{"SELECT zzz FROM t1", `7-10 UNRESOLVED_COLUMN column "zzz" does not exist (available columns: id, a, x)`},
		{"SELECT x.a FROM t1", `9-10 INVALID_EXTRACT_BASE_FIELD_TYPE cannot read field "a" of a BIGINT value`},
		{"SELECT * FROM ordres", `14-20 TABLE_OR_VIEW_NOT_FOUND table or view "ordres" does not exist`},
		{"WITH orders AS (SELECT 1) SELECT * FROM ordres", `40-46 TABLE_OR_VIEW_NOT_FOUND table or view "ordres" does not exist (did you mean "orders"?)`},
		{"SELECT id FROM t1 JOIN t2 ON t1.id = t2.id", `7-9 AMBIGUOUS_REFERENCE reference "id" is ambiguous: it could be t1.id or t2.id (qualify it with the table name or alias)`},
		{"SELECT t1.id FROM t1 JOIN t1 ON TRUE", `7-12 AMBIGUOUS_REFERENCE reference "t1.id" is ambiguous: it could be t1.id or t1.id (qualify it with the table name or alias)`},
		{"SELECT st.z FROM nums", `10-11 FIELD_NOT_FOUND field "z" does not exist in STRUCT<x: INT NOT NULL, y: STRING>`},
		{"SELECT st.X, st.yy FROM nums", `16-18 FIELD_NOT_FOUND field "yy" does not exist in STRUCT<x: INT NOT NULL, y: STRING> (did you mean "y"?)`},
		{"SELECT i.x FROM nums", `9-10 INVALID_EXTRACT_BASE_FIELD_TYPE cannot read field "x" of a INT value`},
		{"SELECT u.* FROM t1", `7-10 CANNOT_RESOLVE_STAR_EXPAND u.* does not name a table of the query (tables: t1)`},
		{"SELECT t.* FROM t1 AS tt", `7-10 CANNOT_RESOLVE_STAR_EXPAND t.* does not name a table of the query (tables: tt)`},
		{"SELECT *", `7-8 INVALID_USAGE_OF_STAR_OR_REGEX * needs a FROM clause with columns (name the values, or add FROM)`},
		{"SELECT * EXCEPT (zz) FROM t1", `17-19 UNRESOLVED_COLUMN column "zz" does not exist (available columns: id, a, x)`},
		{"SELECT struct(a.*) FROM t1", `14-17 CANNOT_RESOLVE_STAR_EXPAND a.* is neither a table nor a STRUCT (it is STRING) (name a table of the query or a STRUCT column)`},
		{"SELECT count(t1.*) FROM t1", `13-17 INVALID_USAGE_OF_STAR_OR_REGEX '*' is not allowed here (use * only in the SELECT list or in count(*))`},
		{"SELECT ${nope}", `7-14 UNBOUND_SQL_PARAMETER parameter "nope" is not defined (declare it under parameters:)`},
		{"SELECT 'a${nope}'", `9-16 UNBOUND_SQL_PARAMETER parameter "nope" is not defined (declare it under parameters:)`},
		{"SELECT * FROM t1 JOIN t2 USING (zz)", `32-34 UNRESOLVED_USING_COLUMN_FOR_JOIN USING column "zz" does not exist on the left side of the join`},
		{"SELECT * FROM t1 JOIN raw_orders USING (id)", `40-42 UNRESOLVED_USING_COLUMN_FOR_JOIN USING column "id" does not exist on the right side of the join`},
		{"SELECT a FROM (SELECT 1 AS a, 2 AS b) s(x)", `40-41 ASSIGNMENT_ARITY_MISMATCH "s" has 2 columns but 1 names are given`},
		{"SELECT json_array_length(i) FROM nums", `25-26 DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE argument 1 of json_array_length must be STRING, not INT (cast it: CAST(x AS STRING))`},
		// date_add's days are INT, SMALLINT or TINYINT (date.sql.out).
		{"SELECT date_add(dt, 1L) FROM nums", `20-22 DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE argument 2 of date_add must be INT, SMALLINT or TINYINT, not BIGINT (cast it: CAST(x AS INT))`},
		{"SELECT date_sub(dt, 1.0) FROM nums", `20-23 DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE argument 2 of date_sub must be INT, SMALLINT or TINYINT, not DECIMAL(2,1) (cast it: CAST(x AS INT))`},
		{"SELECT to_char(i, '999') FROM nums", `15-16 UNSUPPORTED_FEATURE to_char of a INT value is not supported yet (only dates and timestamps) (use format_number or format_string for numbers, hex or base64 for BINARY)`},
		// pipegen has no TIME type: a TIME literal only in make_timestamp(date, time).
		{"SELECT TIME '01:02:03' FROM nums", `7-22 UNSUPPORTED_DATATYPE the TIME type is not supported (a TIME literal is accepted only in make_timestamp(date, TIME '...'); store the time of day as a STRING or as seconds)`},
		{"SELECT make_timestamp(ts, TIME '01:02:03') FROM nums", `22-24 DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE argument 1 of make_timestamp must be DATE, not TIMESTAMP`},
		// Datetime patterns Spark refuses; E, F, q and Q only format.
		{"SELECT to_timestamp(str, 'yyyy F') FROM nums", `25-33 INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION invalid datetime pattern: pattern letter 'F' cannot be used to parse (in "yyyy F"); it only formats (write a Spark datetime pattern such as yyyy-MM-dd HH:mm:ss (week-based fields are not supported since Spark 3))`},
		{"SELECT date_format(ts, 'YYYY') FROM nums", `23-29 INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN invalid datetime pattern: unsupported datetime pattern letter 'Y' in "YYYY" (write a Spark datetime pattern such as yyyy-MM-dd HH:mm:ss (week-based fields are not supported since Spark 3))`},
		{"SELECT to_date(str, 'dd/MMMMM/yyyy') FROM nums", `20-35 INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION invalid datetime pattern: too many or too few pattern letters "MMMMM" in "dd/MMMMM/yyyy" (write a Spark datetime pattern such as yyyy-MM-dd HH:mm:ss (week-based fields are not supported since Spark 3))`},
		// Window functions are computed after aggregation.
		{"SELECT count(x) FILTER (WHERE nth_value(x, 1) OVER (ORDER BY x) > 0) FROM t1", `30-63 INVALID_AGGREGATE_FILTER.CONTAINS_WINDOW_FUNCTION window function nth_value is not allowed in the FILTER condition (compute it in a subquery and aggregate its column)`},
		{"SELECT sum(rank() OVER (ORDER BY x)) FROM t1", `11-35 UNSUPPORTED_EXPR_FOR_WINDOW window function rank is not allowed in the arguments of an aggregate function (compute it in a subquery and aggregate its column)`},
		// Output names.
		{"SELECT a, x AS A FROM t1", `10-16 COLUMN_ALREADY_EXISTS column "A" appears twice in the query's output (give one of them another name with AS)`},
		{"SELECT t1.x, t2.x FROM t1, t2", `13-17 COLUMN_ALREADY_EXISTS column "x" appears twice in the query's output (give one of them another name with AS)`},
		// Types.
		{"SELECT * FROM t1 WHERE x", `23-24 DATATYPE_MISMATCH the WHERE condition must be BOOLEAN, not BIGINT`},
		{"SELECT i + bool FROM nums", `9-10 DATATYPE_MISMATCH the + operator cannot be applied to INT and BOOLEAN`},
		{"SELECT dt + dt FROM nums", `10-11 DATATYPE_MISMATCH the + operator cannot be applied to DATE and DATE (add or subtract an INTERVAL or a number of days)`},
		{"SELECT EXTRACT(fortnight FROM ts) FROM nums", `15-24 INVALID_EXTRACT_FIELD cannot extract "fortnight" (use YEAR, YEAROFWEEK, QUARTER, MONTH, WEEK, DAY, DAYOFWEEK, DAYOFWEEK_ISO, DOY, HOUR, MINUTE or SECOND)`},
		{"SELECT i = bool FROM nums", `9-10 DATATYPE_MISMATCH cannot compare INT with BOOLEAN (cast one side to the other's type)`},
		{"SELECT m = m FROM nums", `9-10 DATATYPE_MISMATCH values of type MAP<STRING, BIGINT> cannot be compared`},
		{"SELECT upper(arr) FROM nums", `13-16 DATATYPE_MISMATCH argument 1 of upper must be STRING, not ARRAY<INT>`},
		{"SELECT sum(str), sum(dt) FROM nums", `21-23 DATATYPE_MISMATCH argument 1 of sum must be numeric or interval, not DATE`},
		{"SELECT CAST(dt AS INT) FROM nums", `12-14 DATATYPE_MISMATCH cannot cast DATE to INT`},
		{"SELECT NOT i FROM nums", `11-12 DATATYPE_MISMATCH the operand of NOT must be BOOLEAN, not INT`},
		{"SELECT i AND bool FROM nums", `7-8 DATATYPE_MISMATCH the left operand of AND must be BOOLEAN, not INT`},
		{"SELECT coalesce(i, bool) FROM nums", `7-24 DATATYPE_MISMATCH the arguments of coalesce have no common type: INT, BOOLEAN (cast the arguments to one type)`},
		{"SELECT CASE WHEN bool THEN 1 ELSE dt END FROM nums", `7-40 DATATYPE_MISMATCH the values of CASE have no common type: INT, DATE (cast the values to one type)`},
		{"SELECT i IN (1, dt) FROM nums", `9-19 DATATYPE_MISMATCH the values of IN must have a common type with the value: INT, INT, DATE`},
		{"SELECT round(d, i) FROM nums", `16-17 DATATYPE_MISMATCH argument 2 of round must be a constant INT`},
		{"SELECT ceil(d, NULL) FROM nums", `15-19 NON_FOLDABLE_ARGUMENT the scale of ceil must be a constant INT that is not NULL (write the scale as an INT literal, e.g. ceil(x, 2))`},
		{"SELECT floor(d, 1L) FROM nums", `16-18 NON_FOLDABLE_ARGUMENT the scale of floor must be a constant INT that is not NULL (write the scale as an INT literal, e.g. floor(x, 2))`},
		{"SELECT named_struct(str, 1) FROM nums", `20-23 DATATYPE_MISMATCH argument 1 of named_struct must be a constant STRING`},
		{"SELECT arr['x'] FROM nums", ``},
		{"SELECT arr[dt] FROM nums", `11-13 DATATYPE_MISMATCH an array index must be an integer, not DATE`},
		{"SELECT m[1] FROM nums", `9-10 DATATYPE_MISMATCH a key of MAP<STRING, BIGINT> must be STRING, not INT`},
		{"SELECT i[0] FROM nums", `7-11 DATATYPE_MISMATCH cannot subscript a INT value`},
		{"SELECT str LIKE 'a' ESCAPE 'ab' FROM nums", `27-31 INVALID_ESCAPE_CHAR the ESCAPE string must be one character, not "ab"`},
		{"SELECT arr LIKE 'a' FROM nums", `7-10 DATATYPE_MISMATCH LIKE needs STRING operands, not ARRAY<INT>`},
		{"SELECT bool || arr FROM nums", `12-14 DATATYPE_MISMATCH the || operator cannot join BOOLEAN and ARRAY<INT>`},
		{"SELECT str & 1 FROM nums", `11-12 DATATYPE_MISMATCH the & operator needs integral operands, not STRING and INT`},
		// Functions.
		{"SELECT upperr(a) FROM t1", `7-13 UNRESOLVED_ROUTINE function "upperr" does not exist (did you mean "upper"?)`},
		{"SELECT frobnicate(a) FROM t1", `7-17 UNRESOLVED_ROUTINE function "frobnicate" does not exist`},
		{"SELECT upper(a, a) FROM t1", `7-18 WRONG_NUM_ARGS upper takes 1 argument, not 2`},
		{"SELECT substring(a) FROM t1", `7-19 WRONG_NUM_ARGS substring takes 2 to 3 arguments, not 1`},
		{"SELECT greatest(a) FROM t1", `7-18 WRONG_NUM_ARGS greatest takes at least 2 arguments, not 1`},
		{"SELECT map('a') FROM t1", `7-15 WRONG_NUM_ARGS map takes arguments in groups of 2, not 1`},
		{"SELECT count() FROM t1", `7-14 WRONG_NUM_ARGS count takes at least 1 argument (write count(*) to count rows)`},
		{"SELECT upper(DISTINCT a) FROM t1", `7-24  DISTINCT is only allowed in aggregate functions, not in upper`},
		{"SELECT sum(*) FROM t1", `7-13 INVALID_USAGE_OF_STAR_OR_REGEX '*' is only allowed in count(*)`},
		// Aggregation.
		{"SELECT customer_id, amount FROM orders_silver GROUP BY customer_id", `20-26 MISSING_AGGREGATION column "amount" is neither grouped nor aggregated (add it to GROUP BY, or aggregate it, e.g. any_value(amount))`},
		{"SELECT * FROM t1 GROUP BY id", `7-8 MISSING_AGGREGATION column "a" is neither grouped nor aggregated (add it to GROUP BY, or aggregate it, e.g. any_value(a))`},
		{"SELECT a, count(*) FROM t1", `7-8 MISSING_GROUP_BY column "a" is read outside an aggregate function in a query without GROUP BY (add GROUP BY a, or aggregate it, e.g. any_value(a))`},
		{"SELECT id FROM t1 GROUP BY id HAVING a > 'x'", `37-38 MISSING_AGGREGATION column "a" is neither grouped nor aggregated (add it to GROUP BY, or aggregate it, e.g. any_value(a))`},
		{"SELECT id FROM t1 GROUP BY id ORDER BY a", `39-40 MISSING_AGGREGATION column "a" is neither grouped nor aggregated (add it to GROUP BY, or aggregate it, e.g. any_value(a))`},
		{"SELECT sum(sum(x)) FROM t1", `11-17 NESTED_AGGREGATE_FUNCTION aggregate function sum cannot be used inside another aggregate function (compute the inner aggregate in a subquery)`},
		{"SELECT a FROM t1 WHERE sum(x) > 0", `23-29 INVALID_WHERE_CONDITION aggregate function sum is not allowed in WHERE (filter groups with HAVING)`},
		{"SELECT timestampdiff(FORTNIGHT, ts, ts) FROM nums", `21-30 INVALID_PARAMETER_VALUE.DATETIME_UNIT FORTNIGHT is not a unit of timestampdiff (use one of MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR)`},
		{"SELECT timestampadd('DAY', 1, ts) FROM nums", `20-25 INVALID_PARAMETER_VALUE.DATETIME_UNIT the first argument of timestampadd must be a unit: MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR (write the unit as a keyword, e.g. timestampadd(DAY, ...))`},
		{"SELECT percentile_cont(d, 0.5) FROM nums", `7-30 INVALID_WITHIN_GROUP_EXPRESSION percentile_cont needs WITHIN GROUP (ORDER BY ...) (write percentile_cont(p) WITHIN GROUP (ORDER BY x))`},
		{"SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY d DESC) FROM nums", `53-57 PARSE_SYNTAX_ERROR syntax error at or near 'DESC' (WITHIN GROUP (ORDER BY x DESC) is not supported yet: order ascending and take 1 - p)`},
		{"SELECT sum(0.5) WITHIN GROUP (ORDER BY d) FROM nums", `16-41 UNSUPPORTED_FEATURE WITHIN GROUP applies to percentile_cont, percentile_disc and mode, not sum (write percentile_cont(p), percentile_disc(p) or mode() WITHIN GROUP (ORDER BY x))`},
		{"SELECT percentile_approx(d, array(0.5, 1.5)) FROM nums", `28-43 DATATYPE_MISMATCH argument 2 of percentile_approx must be a constant number or an ARRAY of constant numbers between 0.0 and 1.0`},
		{"SELECT hex(d) FROM nums", `11-12 DATATYPE_MISMATCH argument 1 of hex must be BIGINT, STRING or BINARY, not DOUBLE`},
		// Constructs not supported yet: one error each, naming it, with what to write.
		{"SELECT * FROM t1 PIVOT (sum(x) FOR a IN ('p', 'q'))", `17-51 UNSUPPORTED_FEATURE PIVOT is not supported yet (aggregate one column per value instead: GROUP BY the other columns with sum(CASE WHEN k = 'v' THEN x END) AS v, ...)`},
		{"SELECT * FROM t1 UNPIVOT (v FOR k IN (x, id))", `17-45 UNSUPPORTED_FEATURE UNPIVOT is not supported yet (UNION ALL one SELECT per column, or LATERAL VIEW explode(map('a', a, 'b', b)) t AS k, v)`},
		{"SELECT id FROM t1 TABLESAMPLE (10 PERCENT) WHERE id > 1", `18-42 UNSUPPORTED_FEATURE TABLESAMPLE is not supported yet (filter a sample with WHERE rand() < 0.1)`},
		// Correlated subqueries are refused with the JOIN to write.
		{"SELECT id FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.id = t1.id)", `63-68 UNRESOLVED_COLUMN column "t1.id" does not exist (did you mean "t2.id"?; EXISTS cannot read the outer query's columns (correlated subqueries are not supported yet): rewrite it as a JOIN — EXISTS as LEFT SEMI JOIN, NOT EXISTS as LEFT ANTI JOIN, a scalar aggregate as LEFT JOIN on a GROUP BY of the key)`},
		{"SELECT id, (SELECT max(x), 1 FROM t2) AS m FROM t1", `11-37 INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN a scalar subquery must return one column, not 2 (select one column)`},
		{"SELECT id FROM t1 WHERE (id, a) IN (SELECT id, b FROM t2)", `32-57 UNSUPPORTED_FEATURE (a, b, ...) IN (subquery) with several columns is not supported yet (rewrite it as EXISTS or a LEFT SEMI JOIN on a.x = b.x AND a.y = b.y (NOT IN: a LEFT ANTI JOIN, minding NULLs))`},
		{"SELECT id FROM t1 WHERE id IN (SELECT id, b FROM t2)", `27-52 DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH the subquery of IN must return one column, not 2 (select one column)`},
		{"SELECT id FROM t1 WHERE a IN (SELECT order_id FROM STREAM(raw_orders))", `26-70 UNSUPPORTED_FEATURE IN (subquery) cannot read a stream (read the table without STREAM(...) in the subquery, or JOIN the stream with it)`},
		{"SELECT id FROM t1, LATERAL (SELECT t1.id + 1 AS n)", `19-26 PARSE_SYNTAX_ERROR syntax error at or near 'LATERAL' (LATERAL subqueries are not supported: JOIN a subquery without LATERAL, or use LATERAL explode(...) for a generator)`},
		{"SELECT id FROM t1 CROSS JOIN LATERAL explode(array(1)) e", `29-36 PARSE_SYNTAX_ERROR syntax error at or near 'LATERAL' (write the generator as FROM t, LATERAL explode(t.xs) e, or LATERAL VIEW explode(t.xs) e AS x)`},
		{"SELECT * FROM t1, LATERAL explode(array(1)) e, t2", `47-49 PARSE_SYNTAX_ERROR syntax error at or near 't2' (put the tables before the LATERAL generators: FROM a, b, LATERAL explode(a.xs) e)`},
		{"SELECT id, e FROM t1, LATERAL explode(array(1, 2)) AS e", `11-12 UNRESOLVED_COLUMN column "e" does not exist (available columns: id, a, x, col)`},
		{"SELECT a, grouping(a) FROM t1 GROUP BY a", `10-21 UNSUPPORTED_GROUPING_EXPRESSION grouping() can only be used with GROUPING SETS, ROLLUP or CUBE (group with GROUP BY ROLLUP (...), CUBE (...) or GROUPING SETS (...); with a plain GROUP BY every row is a full group)`},
		{"SELECT a, grouping(x) FROM t1 GROUP BY ROLLUP(a)", `10-21 GROUPING_COLUMN_MISMATCH column of grouping (x) can't be found in grouping columns (a) (pass one of the GROUP BY columns)`},
		{"SELECT a, grouping_id(x, a) FROM t1 GROUP BY CUBE(a, x)", `10-27 GROUPING_ID_COLUMN_MISMATCH columns of grouping_id (x, a) do not match grouping columns (a, x) (write grouping_id() for all GROUP BY columns, or list exactly them in order)`},
		{"SELECT regexp_replace(a, 'x', 'y', 0) FROM t1", `35-36 DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE the position of regexp_replace must be in (0, 2147483647], not 0 (positions start at 1)`},
		{"SELECT regexp_replace(a, 'x', 'y', id) FROM t1", `35-37 DATATYPE_MISMATCH.NON_FOLDABLE_INPUT the position of regexp_replace must be a constant (write the position as a number)`},
		{"SELECT regexp_count(a, '(?=[a-z])x') FROM t1", "23-35 UNSUPPORTED_FEATURE.REGEXP_SYNTAX the pattern \"(?=[a-z])x\" of regexp_count uses regular-expression syntax pipegen does not support: error parsing regexp: invalid or unsupported Perl syntax: `(?=` (pipegen supports RE2 syntax (that of Go's regexp package): no lookahead (?=...), lookbehind (?<=...), backreferences \\1, possessive or atomic groups; rewrite the pattern, e.g. as several conditions)"},
		{"SELECT a FROM t1 WHERE a RLIKE '(a'", "31-35 INVALID_PARAMETER_VALUE.PATTERN the pattern \"(a\" of rlike is not a valid regular expression: error parsing regexp: missing closing ): `(a` (fix the regular expression)"},
		{"SELECT a FROM t1 GROUP BY CUBE(a, (a, x), ())", `42-43 PARSE_SYNTAX_ERROR syntax error at or near '(' (an empty set () is not allowed in CUBE (the grand total is already one of its sets; write GROUPING SETS (...) to list sets yourself))`},
		{"SELECT a FROM t1 GROUP BY ROLLUP(a) WITH CUBE", `41-45 PARSE_SYNTAX_ERROR syntax error at or near 'CUBE' (WITH CUBE needs plain GROUP BY expressions, not GROUPING SETS, ROLLUP or CUBE)`},
		{"SELECT a FROM t1 GROUP BY sum(x)", `26-32 GROUP_BY_AGGREGATE aggregate function sum is not allowed in GROUP BY`},
		{"SELECT sum(x) AS s FROM t1 GROUP BY s", `36-37 GROUP_BY_AGGREGATE GROUP BY cannot use an aggregate function`},
		{"SELECT a, sum(x) FROM t1 GROUP BY 3", `34-35 GROUP_BY_POS_OUT_OF_RANGE GROUP BY position 3 is not in the select list (the SELECT list has 2 items)`},
		{"SELECT * FROM t1 GROUP BY id, a, x, 1", `36-37 STAR_GROUP_BY_POS a star (*) is not allowed in a SELECT list when GROUP BY uses a position (list the columns instead of *, or group by names)`},
		{"SELECT a, sum(x) FROM t1 GROUP BY 2", `34-35 GROUP_BY_POS_AGGREGATE GROUP BY position 2 refers to an aggregate function`},
		{"SELECT a FROM t1 JOIN t2 ON count(*) > 0", `28-36  aggregate function count is not allowed in a JOIN condition`},
		{"SELECT a FROM t1 ORDER BY 2", `26-27 ORDER_BY_POS_OUT_OF_RANGE ORDER BY position 2 is not in the select list (use 1 to 1)`},
		{"SELECT DISTINCT a FROM t1 ORDER BY x", `35-36 UNRESOLVED_COLUMN column "x" does not exist (available columns: a)`},
		{"SELECT m FROM nums ORDER BY m", `28-29 DATATYPE_MISMATCH values of type MAP<STRING, BIGINT> cannot be ordered`},
		// Set operations and VALUES.
		{"SELECT 1, 2 UNION ALL SELECT 3", `22-22 NUM_COLUMNS_MISMATCH UNION ALL can only combine inputs with the same number of columns: the first has 2, input 2 has 1`},
		{"SELECT 1 AS a UNION SELECT true", `20-20 INCOMPATIBLE_COLUMN_TYPE UNION cannot combine column 1 ("a") of type INT with type BOOLEAN in input 2 (cast the column to one type)`},
		{"VALUES (1, 2), (3)", `0-18 INVALID_INLINE_TABLE row 2 of VALUES has 1 values, the first row 2 (give every row the same number of values)`},
		{"VALUES (1), (true)", `0-18 INVALID_INLINE_TABLE column 1 of VALUES has no common type: INT, BOOLEAN`},
		{"VALUES (a)", `8-9 UNRESOLVED_COLUMN column "a" does not exist (the query reads no columns here)`},
		{"SELECT a FROM t1 LIMIT -1", `23-25 INVALID_LIMIT_LIKE_EXPRESSION LIMIT must be a non-negative integer constant (write a number such as LIMIT 100)`},
		{"SELECT a FROM t1 LIMIT id", `23-25 UNRESOLVED_COLUMN column "id" does not exist (the query reads no columns here)`},
		// Not supported yet.
		// INTERSECT / EXCEPT read their inputs whole (Spark refuses them over streams).
		{"SELECT order_id FROM STREAM(raw_orders) EXCEPT SELECT a FROM t1", `40-46 UNSUPPORTED_FEATURE EXCEPT is not supported over a stream (streaming tables): this query reads STREAM(...) (define the query as a materialized view (it reads the tables whole), or keep the rows of one stream with a LEFT ANTI JOIN (EXCEPT) or LEFT SEMI JOIN (INTERSECT) against a table)`},
		{"SELECT m FROM nums INTERSECT ALL SELECT m FROM nums", `19-28 UNSUPPORTED_FEATURE.SET_OPERATION_ON_MAP_TYPE INTERSECT ALL cannot compare column "m" of type MAP<STRING, BIGINT>: maps cannot be compared (drop the column or convert it, e.g. map_entries(m))`},
		{"SELECT 1, 2 MINUS SELECT 3", `18-18 NUM_COLUMNS_MISMATCH EXCEPT can only combine inputs with the same number of columns: the first has 2, input 2 has 1`},
		{"SELECT a FROM t1 LIMIT 1 OFFSET 1", `32-33 UNSUPPORTED_FEATURE OFFSET is not supported yet`},
		// Several errors are reported at once.
		{"SELECT amout, upperr(a), a + true FROM t1 WHERE x", `7-12 UNRESOLVED_COLUMN column "amout" does not exist (available columns: id, a, x); ` +
			`14-20 UNRESOLVED_ROUTINE function "upperr" does not exist (did you mean "upper"?); ` +
			`27-28 DATATYPE_MISMATCH the + operator cannot be applied to STRING and BOOLEAN; ` +
			`48-49 DATATYPE_MISMATCH the WHERE condition must be BOOLEAN, not BIGINT`},
		{"WITH a AS (SELECT zz FROM t1) SELECT * FROM a JOIN nope ON TRUE", `18-20 UNRESOLVED_COLUMN column "zz" does not exist (available columns: id, a, x); ` +
			`51-55 TABLE_OR_VIEW_NOT_FOUND table or view "nope" does not exist`},
		{"SELECT * FROM broken", `14-20  temporary view "broken" does not check, so queries reading it cannot be checked (fix the view's query first)`},
	}
	cat := newTestCatalog()
	cat.rels["broken"] = &Relation{Name: "broken", Kind: TemporaryViewRelation}
	for _, tt := range tests {
		p, errs := checkText(t, cat, tt.query)
		if got := errString(errs); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.query, got, tt.want)
		}
		if p != nil && errs != nil {
			t.Errorf("%s: a plan with errors", tt.query)
		}
	}
}
