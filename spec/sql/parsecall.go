package sql

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// parseNameOrCall parses an identifier chain, or a function call when the
// chain is followed by '('.
func (p *parser) parseNameOrCall() astExpr {
	first := p.ident("a name")
	parts := []ident{first}
	for p.peek().isOp(".") && (p.peekAt(1).kind == tWord || p.peekAt(1).kind == tQuoted) && p.peekAt(2).isOp("(") {
		p.advance()
		parts = append(parts, p.ident("a name"))
	}
	if !p.peek().isOp("(") {
		return &nameExpr{parts: parts}
	}
	names := make([]string, len(parts))
	for i, id := range parts {
		names[i] = strings.ToLower(id.name)
	}
	name := ident{name: strings.Join(names, "."), pos: first.pos, end: parts[len(parts)-1].end}
	return p.parseCall(name)
}

func (p *parser) parseCall(name ident) astExpr {
	p.expectOp("(")
	c := &callExpr{name: name}
	switch {
	case p.peek().isOp("*") && p.peekAt(1).isOp(")"):
		p.advance()
		c.star = true
	case p.peek().isOp(")"):
	default:
		if p.accept("DISTINCT") {
			c.distinct = true
		} else if p.peek().is("ALL") && !p.peekAt(1).isOp(")") && !p.peekAt(1).isOp(",") {
			p.advance()
		}
		for {
			if p.peekAt(1).isOp("=>") {
				p.fail(p.peek(), "named arguments are not supported")
			}
			c.args = append(c.args, p.parseExpr())
			p.nullTreatment(c)
			p.structFieldName(c)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	c.end = p.expectOp(")").end
	p.nullTreatment(c)
	if p.peek().is("WITHIN") {
		p.withinGroup(c)
	}
	p.unitArgument(c)
	if strings.EqualFold(c.name.name, "convert_timezone") && len(c.args) == 2 {
		// convert_timezone(target, ts) converts from the session time zone.
		c.args = append([]astExpr{&callExpr{name: ident{name: "current_timezone", pos: c.name.pos, end: c.name.end}, end: c.name.end}}, c.args...)
	}
	if p.peek().is("FILTER") && p.peekAt(1).isOp("(") {
		p.advance()
		p.advance()
		p.expect("WHERE")
		c.filter = p.parseExpr()
		c.end = p.expectOp(")").end
	}
	if p.peek().is("OVER") {
		c.over, c.end = p.parseOver()
	}
	return c
}

// withinGroup parses the WITHIN GROUP (ORDER BY x) of an ordered-set
// aggregate: percentile_cont(p) or percentile_disc(p) into c's arguments
// (x, p), as Spark's PercentileCont and PercentileDisc take them, and
// mode() into (x, TRUE), Spark's Mode with a sort direction (ties go to
// the smallest value, the largest with DESC).
func (p *parser) withinGroup(c *callExpr) {
	t := p.advance()
	p.expect("GROUP")
	p.expectOp("(")
	p.expect("ORDER")
	p.expect("BY")
	x := p.parseExpr()
	isMode := strings.EqualFold(c.name.name, "mode")
	if d := p.peek(); d.is("DESC") && !isMode {
		p.fail(d, "WITHIN GROUP (ORDER BY x DESC) is not supported yet: order ascending and take 1 - p")
	}
	desc := p.accept("DESC")
	if !desc {
		p.accept("ASC")
	}
	if p.peek().is("NULLS") {
		// NULLs are skipped whatever their place.
		p.advance()
		if !p.accept("FIRST") {
			p.expect("LAST")
		}
	}
	c.end = p.expectOp(")").end
	name := strings.ToLower(c.name.name)
	if isMode {
		if len(c.args) != 0 || c.distinct {
			p.errorAt(c.name.pos, c.end, "WRONG_NUM_ARGS", "write mode() WITHIN GROUP (ORDER BY x), or mode(x)",
				"mode takes no argument before WITHIN GROUP")
			return
		}
		c.args = []astExpr{x, &litExpr{typ: types.BooleanType, val: true, text: "true", pos: t.pos, end: t.end}}
		c.withinGroup, c.withinDesc = true, desc
		return
	}
	if name != "percentile_cont" && name != "percentile_disc" {
		p.errorAt(t.pos, c.end, "UNSUPPORTED_FEATURE", "write percentile_cont(p), percentile_disc(p) or mode() WITHIN GROUP (ORDER BY x)",
			"WITHIN GROUP applies to percentile_cont, percentile_disc and mode, not %s", name)
		return
	}
	if len(c.args) != 1 || c.distinct {
		p.errorAt(c.name.pos, c.end, "WRONG_NUM_ARGS", "write "+name+"(p) WITHIN GROUP (ORDER BY x) with one constant percentage p",
			"%s takes one percentage before WITHIN GROUP", name)
		return
	}
	c.args = []astExpr{x, c.args[0]}
	c.withinGroup = true
}

// unitFunctions maps the functions whose first argument is a unit keyword
// when they have three arguments (Spark's timestampdiff/timestampadd
// grammar rules: TIMESTAMPDIFF | DATEDIFF | DATE_DIFF | TIMESTAMP_DIFF | TIMEDIFF and
// TIMESTAMPADD | DATEADD | DATE_ADD) to the function they call.
var unitFunctions = map[string]string{
	"timestampdiff": "timestampdiff", "timestamp_diff": "timestampdiff", "datediff": "timestampdiff", "date_diff": "timestampdiff",
	"timediff":     "timestampdiff",
	"timestampadd": "timestampadd", "dateadd": "timestampadd", "date_add": "timestampadd",
}

// diffUnits are the units of timestampdiff; timestampadd also takes DAYOFYEAR.
var diffUnits = []string{"MICROSECOND", "MILLISECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER", "YEAR"}

// unitArgument turns the unit keyword of timestampdiff(unit, a, b) and
// timestampadd(unit, n, ts) (and their datediff/dateadd spellings with
// three arguments) into a string constant, and names the function called.
func (p *parser) unitArgument(c *callExpr) {
	fn, ok := unitFunctions[strings.ToLower(c.name.name)]
	if !ok || len(c.args) != 3 && fn != strings.ToLower(c.name.name) {
		return
	}
	n, isName := c.args[0].(*nameExpr)
	if !isName || len(n.parts) != 1 {
		if len(c.args) == 3 {
			s, e := c.args[0].span()
			p.errorAt(s, e, "INVALID_PARAMETER_VALUE.DATETIME_UNIT", "write the unit as a keyword, e.g. "+fn+"(DAY, ...)",
				"the first argument of %s must be a unit: %s", fn, strings.Join(diffUnits, ", "))
		}
		return
	}
	id := n.parts[0]
	unit := strings.ToUpper(id.name)
	if !slices.Contains(diffUnits, unit) && !(fn == "timestampadd" && unit == "DAYOFYEAR") {
		p.errorAt(id.pos, id.end, "INVALID_PARAMETER_VALUE.DATETIME_UNIT", "use one of "+strings.Join(diffUnits, ", "),
			"%s is not a unit of %s", id.name, fn)
		return
	}
	c.name.name = fn
	c.args[0] = &litExpr{typ: types.StringType, val: unit, text: unit, pos: id.pos, end: id.end}
}

// structFieldName parses the name Spark lets struct's arguments have,
// `struct(a AS x, b + 1 y)` (a namedExpression: AS optional), into
// c.argNames for the argument just parsed.
func (p *parser) structFieldName(c *callExpr) {
	t := p.peek()
	if !strings.EqualFold(c.name.name, "struct") || !(t.is("AS") || canAlias(t)) {
		return
	}
	p.accept("AS")
	id := p.ident("a field name")
	for len(c.argNames) < len(c.args) {
		c.argNames = append(c.argNames, "")
	}
	c.argNames[len(c.args)-1] = id.name
}

// ignoreNullsArgs is the number of arguments before the ignore-nulls flag
// of the functions that take one (Spark's isIgnoreNull).
var ignoreNullsArgs = map[string]int{"first": 1, "first_value": 1, "last": 1, "last_value": 1, "any_value": 1, "nth_value": 2}

// nullTreatment parses Spark's null treatment of a call, `IGNORE NULLS` or
// `RESPECT NULLS`, inside its parentheses after the arguments or after
// them (`first(x IGNORE NULLS)`, `last_value(x) IGNORE NULLS OVER (...)`),
// as the function's ignore-nulls flag argument.
func (p *parser) nullTreatment(c *callExpr) {
	t := p.peek()
	if !(t.is("IGNORE") || t.is("RESPECT")) || !p.peekAt(1).is("NULLS") {
		return
	}
	name := strings.ToLower(c.name.name)
	n, ok := ignoreNullsArgs[name]
	if !ok {
		p.fail(t, fmt.Sprintf("%s NULLS applies to first, last, first_value, last_value, any_value and nth_value, not %s", strings.ToUpper(t.val), name))
	}
	if len(c.args) < n {
		p.fail(t, fmt.Sprintf("write %s NULLS after the arguments of %s", strings.ToUpper(t.val), name))
	}
	if len(c.args) > n {
		p.fail(t, fmt.Sprintf("%s already has its ignore-nulls argument: write either the argument or %s NULLS", name, strings.ToUpper(t.val)))
	}
	p.advance()
	end := p.advance().end
	c.args = append(c.args, &litExpr{typ: types.BooleanType, val: t.is("IGNORE"), text: p.text[t.pos:end], pos: t.pos, end: end})
}

// parseExtract turns EXTRACT(field FROM x), and EXTRACT('field', x), into
// date_part('field', x), which the checker resolves by the field and x's
// type.
func (p *parser) parseExtract() astExpr {
	t := p.advance()
	p.advance()
	var field astExpr
	if f := p.peek(); f.kind == tString {
		p.advance()
		field = &litExpr{typ: types.StringType, val: f.val, text: p.text[f.pos:f.end], str: f.val, pos: f.pos, end: f.end}
	} else {
		id := p.ident("a date or time field")
		field = &litExpr{typ: types.StringType, val: id.name, text: "'" + id.name + "'", str: id.name, pos: id.pos, end: id.end}
	}
	if !p.accept("FROM") {
		p.expectOp(",")
	}
	x := p.parseExpr()
	end := p.expectOp(")").end
	return &callExpr{name: ident{name: "date_part", pos: t.pos, end: t.end}, args: []astExpr{field, x}, end: end}
}

// parseSubstringFrom parses SUBSTRING(x FROM a [FOR b]); it returns nil,
// consuming nothing, for the plain call form.
func (p *parser) parseSubstringFrom() astExpr {
	save := p.i
	t := p.advance()
	p.advance()
	x := p.parseExpr()
	if !p.accept("FROM") {
		p.i = save
		return nil
	}
	args := []astExpr{x, p.parseExpr()}
	if p.accept("FOR") {
		args = append(args, p.parseExpr())
	}
	end := p.expectOp(")").end
	return &callExpr{name: ident{name: "substring", pos: t.pos, end: t.end}, args: args, end: end}
}

// parseTrim parses TRIM([[BOTH|LEADING|TRAILING] [chars] FROM] x) into
// trim, ltrim or rtrim, with Spark's function argument order: (x) or
// (chars, x).
func (p *parser) parseTrim() astExpr {
	t := p.advance()
	p.advance()
	fn := "trim"
	switch {
	case p.accept("BOTH"):
	case p.accept("LEADING"):
		fn = "ltrim"
	case p.accept("TRAILING"):
		fn = "rtrim"
	}
	var args []astExpr
	if p.accept("FROM") {
		args = []astExpr{p.parseExpr()}
	} else {
		first := p.parseExpr()
		switch {
		case p.accept("FROM"):
			args = []astExpr{first, p.parseExpr()}
		case fn == "trim" && p.acceptOp(","):
			args = []astExpr{first, p.parseExpr()}
		default:
			args = []astExpr{first}
		}
	}
	end := p.expectOp(")").end
	return &callExpr{name: ident{name: fn, pos: t.pos, end: t.end}, args: args, end: end}
}
