package sql

import (
	"strconv"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file parses Spark DDL: data types (CAST targets, ParseType) and
// column lists (ParseSchema), as Spark's DataType.fromDDL and
// StructType.fromDDL accept them.

// typeNames maps the primitive type names and their aliases to types.
var typeNames = map[string]types.Type{
	"BOOLEAN":       types.BooleanType,
	"TINYINT":       types.ByteType,
	"BYTE":          types.ByteType,
	"SMALLINT":      types.ShortType,
	"SHORT":         types.ShortType,
	"INT":           types.IntType,
	"INTEGER":       types.IntType,
	"BIGINT":        types.LongType,
	"LONG":          types.LongType,
	"FLOAT":         types.FloatType,
	"REAL":          types.FloatType,
	"DOUBLE":        types.DoubleType,
	"DATE":          types.DateType,
	"TIMESTAMP":     types.TimestampType,
	"TIMESTAMP_LTZ": types.TimestampType,
	"TIMESTAMP_NTZ": types.TimestampNTZType,
	"STRING":        types.StringType,
	"BINARY":        types.BinaryType,
	"VOID":          types.VoidType,
}

// typeWords lists every word that starts a type, for suggestions.
var typeWords = []string{
	"BOOLEAN", "TINYINT", "BYTE", "SMALLINT", "SHORT", "INT", "INTEGER", "BIGINT", "LONG",
	"FLOAT", "REAL", "DOUBLE", "DATE", "TIMESTAMP", "TIMESTAMP_LTZ", "TIMESTAMP_NTZ",
	"STRING", "BINARY", "VOID", "DECIMAL", "DEC", "NUMERIC", "CHAR", "CHARACTER", "VARCHAR",
	"INTERVAL", "ARRAY", "MAP", "STRUCT",
}

// parseTypeEnd parses a data type and returns it with its end offset.
func (p *parser) parseTypeEnd() (types.Type, int) {
	t := p.parseType()
	return t, p.toks[max(p.i-1, 0)].end
}

// parseType parses one data type.
func (p *parser) parseType() types.Type {
	p.nest()
	defer p.unnest()
	t := p.peek()
	if t.kind != tWord {
		p.fail(t, "expected a data type")
	}
	name := upper(t)
	p.advance()
	if typ, ok := typeNames[name]; ok {
		if name == "DOUBLE" {
			p.accept("PRECISION")
		}
		return typ
	}
	switch name {
	case "DECIMAL", "DEC", "NUMERIC":
		prec, scale := 10, 0
		if p.acceptOp("(") {
			prec = p.typeInt()
			if p.acceptOp(",") {
				scale = p.typeInt()
			}
			end := p.expectOp(")").end
			if prec < 1 || prec > types.MaxDecimalPrecision {
				p.errorAt(t.pos, end, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION", "use a precision from 1 to 38",
					"decimal precision %d is out of range", prec)
				prec = types.MaxDecimalPrecision
			}
			if scale > prec {
				p.errorAt(t.pos, end, "", "the scale counts the digits after the point, among the precision's digits",
					"decimal scale %d is greater than its precision %d", scale, prec)
				scale = prec
			}
		}
		return types.DecimalOf(prec, scale)
	case "CHAR", "CHARACTER", "VARCHAR":
		if name == "CHARACTER" {
			p.accept("VARYING")
		}
		p.expectOp("(")
		p.typeInt()
		p.expectOp(")")
		return types.StringType
	case "INTERVAL":
		return p.parseIntervalType(t)
	case "ARRAY":
		p.expectOp("<")
		elem := p.parseType()
		p.expectOp(">")
		return types.ArrayOf(elem, true)
	case "MAP":
		p.expectOp("<")
		k := p.parseType()
		p.expectOp(",")
		v := p.parseType()
		p.expectOp(">")
		return types.MapOf(k, v, true)
	case "STRUCT":
		var fields []types.Field
		if p.acceptOp("<>") {
			return types.StructOf()
		}
		p.expectOp("<")
		if !p.acceptOp(">") {
			seen := map[string]bool{}
			for {
				f, pos, end := p.parseField(true)
				if key := strings.ToLower(f.Name); seen[key] {
					p.errorAt(pos, end, "DUPLICATE_FIELD_NAME", "", "field %q is declared twice", f.Name)
				} else {
					seen[key] = true
				}
				fields = append(fields, f)
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(">")
		}
		return types.StructOf(fields...)
	}
	hint := ""
	if s := suggest(name, typeWords); s != "" {
		hint = `did you mean "` + s + `"?`
	}
	p.errorAt(t.pos, t.end, "UNSUPPORTED_DATATYPE", hint, "unknown data type %q", t.val)
	return types.Type{}
}

func (p *parser) typeInt() int {
	t := p.peek()
	if t.kind != tNumber {
		p.fail(t, "expected an integer")
	}
	p.advance()
	n, err := strconv.Atoi(t.val)
	if err != nil || n > 1000 {
		p.fail(t, "expected a small integer")
	}
	return n
}

// parseIntervalType parses INTERVAL YEAR [TO MONTH], INTERVAL MONTH (all
// INTERVAL YEAR TO MONTH in pipegen), INTERVAL DAY [TO SECOND] and the
// other day-time qualifiers (all INTERVAL DAY TO SECOND).
func (p *parser) parseIntervalType(kw token) types.Type {
	from := p.peek()
	unit, ym, ok := intervalUnit(from.val)
	if from.kind != tWord || !ok {
		// A bare INTERVAL is Spark's legacy CalendarIntervalType.
		p.errorAt(kw.pos, kw.end, "UNSUPPORTED_DATATYPE", "write INTERVAL YEAR TO MONTH or INTERVAL DAY TO SECOND",
			"INTERVAL without its fields is Spark's legacy calendar interval, which pipegen does not support")
		return types.IntervalType
	}
	if unit == "WEEK" || unit == "MILLISECOND" || unit == "MICROSECOND" {
		p.fail(from, "expected YEAR, MONTH, DAY, HOUR, MINUTE or SECOND")
	}
	p.advance()
	if p.accept("TO") {
		to := p.peek()
		toUnit, ym2, ok := intervalUnit(to.val)
		if to.kind != tWord || !ok || ym != ym2 || intervalUnitRank(toUnit) < intervalUnitRank(unit) {
			p.fail(to, "expected INTERVAL YEAR TO MONTH, or DAY, HOUR or MINUTE TO a smaller one of HOUR, MINUTE, SECOND")
		}
		p.advance()
	}
	if ym {
		return types.YearMonthIntervalType
	}
	return types.IntervalType
}

// intervalUnitRank orders the units of an interval qualifier, larger first.
func intervalUnitRank(unit string) int {
	return strings.Index("YEAR MONTH DAY HOUR MINUTE SECOND", unit)
}

// parseField parses `name [:] type [NOT NULL] [COMMENT 'text']` (a struct
// field when colon is allowed, else a column).
func (p *parser) parseField(colon bool) (types.Field, int, int) {
	name := p.ident("a field name")
	if colon {
		p.acceptOp(":")
	}
	f := types.Field{Name: name.name, Type: p.parseType(), Nullable: true}
	end := p.toks[p.i-1].end
	if p.peek().is("NOT") {
		p.advance()
		end = p.expect("NULL").end
		f.Nullable = false
	}
	if p.accept("COMMENT") {
		t := p.peek()
		if t.kind != tString || t.parts != nil {
			p.fail(t, "expected a string")
		}
		f.Comment = t.val
		end = p.advance().end
	}
	return f, name.pos, end
}

// ParseType parses one Spark data type such as "DECIMAL(12,2)" or "ARRAY<INT>".
// Type aliases are accepted: INTEGER, LONG, SHORT, BYTE, REAL, DEC and
// NUMERIC, VARCHAR(n) and CHAR(n) (as STRING), TIMESTAMP_LTZ (as
// TIMESTAMP). Array elements and map values are nullable; struct fields
// are nullable unless declared NOT NULL.
func ParseType(text string) (types.Type, []*Error) {
	p := newParser(text)
	var t types.Type
	p.parseTop(func() { t = p.parseType() })
	if len(p.errs) > 0 {
		return types.Type{}, p.errs
	}
	return t, nil
}

// ParseSchema parses a Spark DDL column list such as
// "id STRING NOT NULL, amount DECIMAL(12,2), items ARRAY<STRUCT<sku: STRING, qty: INT>>"
// (the form of DataFrameReader.schema and CREATE TABLE). Columns are
// nullable unless NOT NULL is given; COMMENT 'text' is kept. Column names
// must be unique (case-insensitively); the colon is optional in STRUCT
// fields only.
func ParseSchema(ddl string) (types.Schema, []*Error) {
	s, _, errs := ParseSchemaAt(ddl)
	return s, errs
}

// ParseSchemaAt is ParseSchema that also returns the byte offset in ddl of
// each column's name, for messages about a column.
func ParseSchemaAt(ddl string) (types.Schema, []int, []*Error) {
	p := newParser(ddl)
	var s types.Schema
	var offsets []int
	seen := map[string]bool{}
	p.parseTop(func() {
		if p.peek().kind == tEOF {
			p.fail(p.peek(), "expected a column definition such as \"id STRING\"")
		}
		for {
			p.guard(func(t token) bool { return t.isOp(",") }, func() {
				f, pos, end := p.parseField(false)
				if key := strings.ToLower(f.Name); seen[key] {
					p.errorAt(pos, end, "COLUMN_ALREADY_EXISTS", "rename one of them", "column %q is declared twice", f.Name)
				} else {
					seen[key] = true
				}
				s = append(s, f)
				offsets = append(offsets, pos)
			})
			if !p.acceptOp(",") {
				break
			}
		}
	})
	if len(p.errs) > 0 {
		return nil, nil, p.errs
	}
	return s, offsets, nil
}
