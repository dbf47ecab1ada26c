package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// datePartFuncs are the sqlfn helpers of the date_part Calls the checker
// leaves (the fields no other function computes), by source kind and
// canonical field.
var datePartFuncs = map[types.Kind]map[string]string{
	types.YearMonthIntervalKind: {"YEAR": "ExtractYMYears", "MONTH": "ExtractYMMonths"},
	types.IntervalKind:          {"DAY": "ExtractDTDays", "HOUR": "ExtractDTHours", "MINUTE": "ExtractDTMinutes", "SECOND": "ExtractDTSeconds"},
	types.TimestampKind:         {"SECOND": "SecondWithFraction"},
	types.TimestampNTZKind:      {"SECOND": "SecondWithFractionNTZ"},
	types.DateKind:              {"YEAROFWEEK": "YearOfWeek", "DAYOFWEEK_ISO": "DayOfWeekISO"},
}

// datePart compiles date_part('FIELD', x) as the checker left it: a
// strict call of the helper computing the field.
func (c *exprCompiler) datePart(b *block, e *sql.Call) val {
	field, _ := e.Args[0].(*sql.Literal).Value.(string)
	src := e.Args[1].ResultType()
	fn := datePartFuncs[src.Kind][field]
	if fn == "" {
		c.unsupported(e.Pos, "date_part(%q, %s)", field, src)
	}
	x := c.compile(b, e.Args[1])
	return val{v: jen.Qual(pkgSQLFn, fn).Call(x.v), ok: x.ok, t: e.Type}
}
