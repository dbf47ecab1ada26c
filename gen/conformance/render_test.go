package conformance

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// sessionZone is the session time zone of the golden outputs
// (SQLQueryTestSuite sets spark.sql.session.timeZone to it).
var sessionZone = func() *time.Location {
	loc, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		panic(err)
	}
	return loc
}()

// renderRow renders a row of generic values (as delta's ReadAll returns
// them) the way SQLQueryTestSuite prints a result row: the columns as
// Spark's HiveResult.toHiveString renders them, separated by tabs.
func renderRow(row []any, s types.Schema) string {
	cols := make([]string, len(s))
	for i, f := range s {
		var v any
		if i < len(row) {
			v = row[i]
		}
		cols[i] = renderValue(v, f.Type, false)
	}
	return strings.Join(cols, "\t")
}

// renderValue is HiveResult.toHiveString: NULL (null when nested), strings
// bare at the top and in double quotes when nested, decimals at their
// scale, FLOAT and DOUBLE as Java's Float/Double.toString, DATE as
// yyyy-MM-dd, TIMESTAMP in the session zone without an offset and with
// the fraction's trailing zeros cut, BINARY as its bytes read as UTF-8,
// day-time intervals in Hive's "D HH:MM:SS.nnnnnnnnn", arrays [a,b],
// maps {k:v} with the entries sorted as text, structs {"f":v}.
func renderValue(v any, t types.Type, nested bool) string {
	if v == nil {
		if nested {
			return "null"
		}
		return "NULL"
	}
	switch t.Kind {
	case types.ArrayKind:
		list, _ := v.([]any)
		parts := make([]string, len(list))
		for i, x := range list {
			parts[i] = renderValue(x, *t.Elem, true)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case types.MapKind:
		entries, _ := v.([]parquetio.MapEntry)
		parts := make([]string, len(entries))
		for i, e := range entries {
			parts[i] = renderValue(e.Key, *t.Key, true) + ":" + renderValue(e.Value, *t.Value, true)
		}
		slices.Sort(parts)
		return "{" + strings.Join(parts, ",") + "}"
	case types.StructKind:
		st, _ := v.(parquetio.Struct)
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			var x any
			if i < len(st) {
				x = st[i]
			}
			parts[i] = fmt.Sprintf("%q:%s", f.Name, renderValue(x, f.Type, true))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	switch x := v.(type) {
	case string:
		if t.IsInterval() {
			// An interval the query cast to STRING (query.Intervals).
			return hiveInterval(x)
		}
		if nested {
			return `"` + x + `"`
		}
		return x
	case []byte:
		return string([]rune(string(x))) // each byte of a bad sequence becomes U+FFFD, as Java decodes
	case float32:
		return parquetio.JavaFloatString(float64(x), 32)
	case float64:
		return parquetio.JavaFloatString(x, 64)
	case types.Decimal:
		return x.Format(t.Scale)
	case types.Timestamp:
		tm := x.Time()
		if t.Kind == types.TimestampKind {
			tm = tm.In(sessionZone)
		} else {
			tm = tm.UTC()
		}
		return plusYear(tm, strings.TrimSuffix(strings.TrimRight(tm.Format("2006-01-02 15:04:05.000000"), "0"), "."))
	case types.Date:
		return plusYear(x.Time(), x.Time().Format("2006-01-02"))
	case types.Interval:
		return hiveDayTime(int64(x))
	}
	return fmt.Sprint(v)
}

// plusYear prefixes a year after 9999 with "+", as Spark's formatters do
// (+99999-03-18).
func plusYear(tm time.Time, s string) string {
	if tm.Year() > 9999 {
		return "+" + s
	}
	return s
}

// hiveDayTime renders a day-time interval of micros microseconds as
// Spark's HIVE_STYLE: [-]D HH:MM:SS.nnnnnnnnn.
func hiveDayTime(micros int64) string {
	sign := ""
	u := uint64(micros)
	if micros < 0 {
		sign, u = "-", uint64(-micros)
	}
	const perSecond, perDay = 1_000_000, 86_400_000_000
	days, rest := u/perDay, u%perDay
	secs, frac := rest/perSecond, rest%perSecond
	return fmt.Sprintf("%s%d %02d:%02d:%02d.%09d", sign, days, secs/3600, secs/60%60, secs%60, frac*1000)
}
