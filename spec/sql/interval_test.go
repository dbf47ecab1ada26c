package sql

import (
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// Year-month intervals and interval parts, as Spark types them
// (interval.sql.out, extract.sql.out).
func TestCheckIntervalExpr(t *testing.T) {
	tests := []struct{ expr, typ, plan string }{
		{"INTERVAL '1-2' YEAR TO MONTH", "INTERVAL YEAR TO MONTH NOT NULL", "INTERVAL '1-2' YEAR TO MONTH"},
		{"INTERVAL -'1-1' YEAR TO MONTH", "INTERVAL YEAR TO MONTH NOT NULL", "INTERVAL '-1-1' YEAR TO MONTH"},
		{"INTERVAL '-178956970-8' YEAR TO MONTH", "INTERVAL YEAR TO MONTH NOT NULL", "INTERVAL '-178956970-8' YEAR TO MONTH"},
		{"INTERVAL 2 YEARS 4 MONTHS", "INTERVAL YEAR TO MONTH NOT NULL", "INTERVAL '2-4' YEAR TO MONTH"},
		{"INTERVAL '30' YEAR '25' MONTH", "INTERVAL YEAR TO MONTH NOT NULL", "INTERVAL '32-1' YEAR TO MONTH"},
		{"INTERVAL '3 year 1 month'", "INTERVAL YEAR TO MONTH NOT NULL", "INTERVAL '3-1' YEAR TO MONTH"},
		{"dt + INTERVAL '2-2' YEAR TO MONTH", "DATE", "(dt#12 + INTERVAL '2-2' YEAR TO MONTH)"},
		{"INTERVAL '2-2' YEAR TO MONTH + ts", "TIMESTAMP", "(ts#13 + INTERVAL '2-2' YEAR TO MONTH)"},
		{"ntz - INTERVAL 1 MONTH", "TIMESTAMP_NTZ", "(ntz#14 - INTERVAL '0-1' YEAR TO MONTH)"},
		{"INTERVAL 1 YEAR - INTERVAL 3 MONTHS", "INTERVAL YEAR TO MONTH NOT NULL", "(INTERVAL '1-0' YEAR TO MONTH - INTERVAL '0-3' YEAR TO MONTH)"},
		{"INTERVAL 1 YEAR + NULL", "INTERVAL YEAR TO MONTH", "(INTERVAL '1-0' YEAR TO MONTH + NULL:INTERVAL YEAR TO MONTH)"},
		{"INTERVAL 1 YEAR < INTERVAL 13 MONTHS", "BOOLEAN NOT NULL", "(INTERVAL '1-0' YEAR TO MONTH < INTERVAL '1-1' YEAR TO MONTH)"},
		{"INTERVAL 1 YEAR * 1.5", "INTERVAL YEAR TO MONTH NOT NULL", "(INTERVAL '1-0' YEAR TO MONTH * 1.5BD)"},
		{"2 * INTERVAL 1 YEAR", "INTERVAL YEAR TO MONTH NOT NULL", "(INTERVAL '1-0' YEAR TO MONTH * 2)"},
		{"2 / INTERVAL 1 YEAR", "", ""},
		{"INTERVAL 1 YEAR + INTERVAL 1 DAY", "", ""},
		{"INTERVAL 1 YEAR > INTERVAL 1 DAY", "", ""},
		{"INTERVAL 1 MONTH - 1", "", ""},
		{"INTERVAL 1 DAY - 1 = INTERVAL 0 DAY", "", ""},
		{"-INTERVAL 1 YEAR", "INTERVAL YEAR TO MONTH NOT NULL", "(- INTERVAL '1-0' YEAR TO MONTH)"},
		{"extract(YEAR FROM INTERVAL '2-1' YEAR TO MONTH)", "INT NOT NULL", "date_part(\"YEAR\", INTERVAL '2-1' YEAR TO MONTH)"},
		{"extract(mons FROM INTERVAL '2-1' YEAR TO MONTH)", "TINYINT NOT NULL", "date_part(\"MONTH\", INTERVAL '2-1' YEAR TO MONTH)"},
		{"extract(DAY FROM INTERVAL '2-1' YEAR TO MONTH)", "", ""},
		{"date_part('SECOND', iv)", "DECIMAL(8,6)", "date_part(\"SECOND\", iv#16)"},
		{"date_part('MONTH', iv)", "", ""},
		{"date_part(NULL, iv)", "DOUBLE", "NULL:DOUBLE"},
		{"date_part(str, iv)", "", ""},
		{"extract(second FROM ts)", "DECIMAL(8,6)", "date_part(\"SECOND\", ts#13)"},
		{"extract(dow_iso FROM dt)", "INT", "date_part(\"DAYOFWEEK_ISO\", dt#12)"},
		{"abs(INTERVAL -1 MONTH)", "INTERVAL YEAR TO MONTH NOT NULL", "abs(INTERVAL '-0-1' YEAR TO MONTH)"},
		{"signum(iv)", "DOUBLE", "sign(iv#16)"},
		{"INTERVAL '1-1' YEAR TO MONTH DIV INTERVAL 1 YEAR", "BIGINT NOT NULL", "(INTERVAL '1-1' YEAR TO MONTH DIV INTERVAL '1-0' YEAR TO MONTH)"},
		{"make_ym_interval(1)", "INTERVAL YEAR TO MONTH NOT NULL", "make_ym_interval(1, 0)"},
		{"make_dt_interval(1, 2)", "INTERVAL DAY TO SECOND NOT NULL", "make_dt_interval(1, 2, 0, 0.000000BD)"},
		{"make_interval(1, 2)", "", ""},
		{"CAST('1-2' AS INTERVAL YEAR TO MONTH)", "INTERVAL YEAR TO MONTH NOT NULL", "CAST(\"1-2\" AS INTERVAL YEAR TO MONTH)"},
	}
	checkExprCases(t, tests, types.Type.String)
}

// Literals Spark refuses when it parses them (interval.sql.out).
func TestParseIntervalErrors(t *testing.T) {
	for _, src := range []string{
		"INTERVAL '178956970-8' YEAR TO MONTH",
		"INTERVAL '1-12' YEAR TO MONTH",
		"INTERVAL 1 YEAR 2 DAYS",
		"INTERVAL '1 month 1 day'",
		"INTERVAL 1 YEAR TO MONTH",
		"INTERVAL '1' YEAR TO SECOND",
		"INTERVAL '10-9' YEAR TO MONTH '2-1' YEAR TO MONTH",
		"INTERVAL '1 day 2' DAY",
	} {
		if _, errs := ParseExpr(src); errs == nil {
			t.Errorf("%s: parsed, want an INVALID_INTERVAL_FORMAT error", src)
		} else if errs[0].Code != "INVALID_INTERVAL_FORMAT" {
			t.Errorf("%s: %s, want an INVALID_INTERVAL_FORMAT error", src, errString(errs))
		}
	}
}
