package types

import (
	"time"
)

// Null is a value of type T that may be SQL NULL. The zero value is NULL, as
// with database/sql.Null: Valid reports whether V holds a value.
//
// Generated row structs use Null[T] for every nullable column, struct field,
// array element and map value, and plain T for NOT NULL ones.
type Null[T any] struct {
	V     T
	Valid bool
}

// Some returns a non-NULL Null[T] holding v.
func Some[T any](v T) Null[T] { return Null[T]{V: v, Valid: true} }

// Date is a DATE value: days since 1970-01-01 in the proleptic Gregorian
// calendar, as Parquet's DATE logical type and Spark store it.
type Date int32

// Timestamp is a TIMESTAMP value: microseconds since 1970-01-01T00:00:00Z, an
// instant in UTC, as Parquet's TIMESTAMP(MICROS, isAdjustedToUTC=true) and
// Spark store it. TIMESTAMP_NTZ uses the same representation read as a local
// date-time without a zone.
type Timestamp int64

// Interval is an INTERVAL DAY TO SECOND value in microseconds.
type Interval int64

// YearMonthInterval is an INTERVAL YEAR TO MONTH value: a number of months
// (Spark's YearMonthIntervalType, an int of months).
type YearMonthInterval int32

const microsPerDay = 86_400_000_000

// Time returns t as a time.Time in UTC.
func (t Timestamp) Time() time.Time { return time.UnixMicro(int64(t)).UTC() }

// TimestampOf returns the Timestamp of tm, truncated to microseconds.
func TimestampOf(tm time.Time) Timestamp { return Timestamp(tm.UnixMicro()) }

// String formats t as Spark casts a TIMESTAMP to STRING in UTC:
// "2024-03-01 12:34:56.789" (fraction only when non-zero, trailing zeros cut).
func (t Timestamp) String() string {
	tm := t.Time()
	if tm.Nanosecond() == 0 {
		return tm.Format("2006-01-02 15:04:05")
	}
	return tm.Format("2006-01-02 15:04:05.999999")
}

// Time returns the midnight UTC that starts day d.
func (d Date) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// DateOf returns the Date of the calendar day of tm in tm's location.
func DateOf(tm time.Time) Date {
	y, m, dd := tm.Date()
	return Date(time.Date(y, m, dd, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// String formats d as "2006-01-02".
func (d Date) String() string { return d.Time().Format("2006-01-02") }

// Date returns the UTC calendar day of t.
func (t Timestamp) Date() Date {
	v := int64(t)
	days := v / microsPerDay
	if v%microsPerDay < 0 {
		days--
	}
	return Date(days)
}

// KV is one entry of a MAP value; maps are slices of entries in insertion
// order, as Spark keeps them.
type KV[K, V any] struct {
	Key   K
	Value V
}

// Int64Of returns the int64 an integral value (int8 to int64), a DATE
// (days), a TIMESTAMP or TIMESTAMP_NTZ (microseconds), a day-time interval
// (microseconds) or a year-month interval (months) holds; false for any
// other value.
func Int64Of(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case Date:
		return int64(x), true
	case Timestamp:
		return int64(x), true
	case Interval:
		return int64(x), true
	case YearMonthInterval:
		return int64(x), true
	}
	return 0, false
}
