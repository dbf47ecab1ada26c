// Package sqlfn holds the scalar helpers that generated code calls to
// evaluate Spark SQL expressions on Go values: arithmetic with ANSI overflow
// checks, comparisons with Spark's ordering, CAST between types, string,
// date-time, numeric and collection functions, LIKE, and the errors that
// fail a row.
//
// Semantics are Spark SQL's with ANSI mode on (Spark 4's default,
// https://spark.apache.org/docs/latest/sql-ref-ansi-compliance.html).
// Values use the Go representation of package types: BIGINT is int64,
// DECIMAL(p,s) a types.Decimal with its scale passed as a separate int,
// DATE a types.Date, TIMESTAMP a types.Timestamp (µs, UTC), and so on.
//
// Conventions:
//   - NULL is handled by the generated code: helpers receive non-NULL values,
//     except parameters typed types.Null.
//   - A helper that can fail returns (value, ok bool); ok=false is the ANSI
//     failure that the generated code turns into a row error (built with the
//     Err* constructors), or into NULL for the try_ variants. Helpers never
//     panic on any input, except MustCompileLike on a malformed constant.
//   - Casts are named Cast<From><To> with From and To among Bool, Int64,
//     Float64, Decimal, String, Binary, Date, Timestamp, TimestampNTZ and
//     Interval. A DECIMAL argument is followed by its scale; a DECIMAL result
//     is preceded by the target precision and scale.
//   - Zone-less date-time parsing and rendering use the session time zone
//     (SetSessionTimeZone; UTC by default), as Spark's
//     spark.sql.session.timeZone.
package sqlfn
