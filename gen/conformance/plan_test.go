package conformance

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// view is a temporary view a golden file defines (CREATE TEMPORARY VIEW);
// it becomes a temporary_view dataset of the pipelines of the queries
// that read it. A view defined again is a new *view.
type view struct {
	Name string
	// SQL is the dataset's query: the view's query, wrapped as
	// SELECT * FROM (query) AS name(cols) when the view names its columns.
	SQL string
	// Reads are the views its query reads.
	Reads []*view
	// Skip says why queries reading it are not evaluated, or "".
	Skip string
}

// query is one query of a golden file, with what it needs to run.
type query struct {
	File  string
	Block block
	// Views are the views the query reads, directly or through other
	// views, each after the views it reads.
	Views []*view
	// Skip says why the query is not evaluated (a SET configuration that
	// is not the default, a table created with CREATE TABLE), or "".
	Skip string
	// Ordered is whether the query ends in ORDER BY: Spark's rows are then
	// compared in order, otherwise as sorted lines, as SQLQueryTestSuite
	// sorts the output of unsorted plans.
	Ordered bool
	// Columns, when not 0, renames the query's columns c1..cN: the
	// result of a query with two columns of the same name cannot be a
	// table otherwise (N from the first row of Spark's output; queries
	// with ORDER BY or no rows are not evaluated instead).
	Columns int
	// Intervals, when not nil, holds the types of the result columns
	// that are or hold ANSI intervals (the zero Type for the others): a
	// table cannot hold them (Delta has no interval type), so the query
	// runs with its columns renamed c1..cN (Columns) and those cast to
	// STRING, or an interval nested in an array, map or struct cast to
	// STRING in place (CAST(c AS ARRAY<STRING>)); the read-back renders
	// that text as Spark's HIVE_STYLE (hiveInterval).
	Intervals []types.Type
}

// SQL is the materialized view's query: the golden query, or when its
// columns are renamed, SELECT * FROM (query) AS q(c1, ..., cn).
func (q *query) SQL() string {
	if q.Columns == 0 {
		return q.Block.SQL
	}
	cols := make([]string, q.Columns)
	sel := "*"
	for i := range cols {
		cols[i] = fmt.Sprintf("c%d", i+1)
	}
	if q.Intervals != nil {
		items := make([]string, len(cols))
		for i, c := range cols {
			items[i] = c
			if t := q.Intervals[i]; t.Kind != types.InvalidKind {
				items[i] = fmt.Sprintf("CAST(%s AS %s) AS %s", c, intervalsAsString(t), c)
			}
		}
		sel = strings.Join(items, ", ")
	}
	return fmt.Sprintf("SELECT %s FROM (\n%s\n) AS q(%s)", sel, q.Block.SQL, strings.Join(cols, ", "))
}

// ID is the query's identifier in the known-failures list: "FILE:INDEX".
func (q *query) ID() string { return fmt.Sprintf("%s:%d", q.File, q.Block.Index) }

// sparkDefaults are the defaults of the settings golden files SET, lower
// case: a query under a setting of another value is not evaluated. Every
// spark.sql.legacy.* setting defaults to false; a setting not listed
// counts as not the default whatever its value.
var sparkDefaults = map[string]string{
	"spark.sql.ansi.enabled":                         "true",
	"spark.sql.groupbyaliases":                       "true",
	"spark.sql.groupbyordinal":                       "true",
	"spark.sql.decimaloperations.allowprecisionloss": "true",
	"spark.sql.session.timezone":                     "america/los_angeles",
}

// onlyRejects are the settings under which Spark rejects more queries
// but answers every query it accepts as under the default: a query that
// returns rows under them is evaluated.
var onlyRejects = map[string]string{
	"spark.sql.groupbyaliases": "false", // GROUP BY cannot name a SELECT alias
}

func isDefault(key, value string) bool {
	key, value = strings.ToLower(key), strings.ToLower(value)
	if d, ok := sparkDefaults[key]; ok {
		return d == value
	}
	return strings.HasPrefix(key, "spark.sql.legacy.") && value == "false"
}

var (
	createView = regexp.MustCompile(`(?is)^CREATE\s+(?:OR\s+REPLACE\s+)?(?:GLOBAL\s+)?(?:TEMP\s+|TEMPORARY\s+)?VIEW\s+(?:IF\s+NOT\s+EXISTS\s+)?` +
		"`?([A-Za-z_][A-Za-z0-9_]*)`?" + `\s*(?:\(([^()]*)\))?\s*(AS\s+)?(.*)$`)
	createTable = regexp.MustCompile(`(?is)^CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMPORARY\s+|EXTERNAL\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?` +
		"`?([A-Za-z_][A-Za-z0-9_.]*)`?")
	createTableAs   = regexp.MustCompile(`(?is)^CREATE\s+(?:OR\s+REPLACE\s+)?TABLE\s+` + "`?([A-Za-z_][A-Za-z0-9_]*)`?" + `\s+(?:USING\s+\w+\s+)?AS\s+(.*)$`)
	createTableCols = regexp.MustCompile(`(?is)^CREATE\s+(?:OR\s+REPLACE\s+)?TABLE\s+` + "`?([A-Za-z_][A-Za-z0-9_]*)`?" + `\s*\((.*)\)\s*(?:USING\s+(?:parquet|delta)\s*)?$`)
	insertInto      = regexp.MustCompile(`(?is)^INSERT\s+(INTO|OVERWRITE)\s+(?:TABLE\s+)?` + "`?([A-Za-z_][A-Za-z0-9_]*)`?" + `\s+(VALUES\b.*|SELECT\b.*|\(.*)$`)
	dropTable       = regexp.MustCompile(`(?is)^DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?` + "`?([A-Za-z_][A-Za-z0-9_]*)`?")
	dropView        = regexp.MustCompile(`(?is)^DROP\s+VIEW\s+(?:IF\s+EXISTS\s+)?` + "`?([A-Za-z_][A-Za-z0-9_]*)`?")
	setConfig       = regexp.MustCompile(`(?is)^SET\s+([A-Za-z0-9_.]+)\s*=\s*(.*?)\s*$`)
	setTimeZone     = regexp.MustCompile(`(?is)^SET\s+TIME\s+ZONE\s+'?([^']*)'?\s*$`)
	seededRandom    = regexp.MustCompile(`(?i)\b(rand|randn|random)\s*\(\s*[^)\s]`)
	queryStart      = regexp.MustCompile(`(?is)^[\s(]*(SELECT|WITH|VALUES|FROM|TABLE)\b`)
)

// sparkTestTables are the tables SQLQueryTestSuite creates before every
// file (TestData: testData, arrayData, mapData, ...): not inline inputs,
// so the queries reading them are not evaluated unless the file defines
// a view of that name.
var sparkTestTables = []string{"testdata", "arraydata", "mapdata", "aggtest", "onek", "tenk1", "largeandsmallints", "lowercasedata", "uppercasedata", "nulltable"}

// plan walks a golden file's statements in order, keeping the views,
// tables and settings in effect, and returns its queries.
func plan(g goldenFile) []*query {
	views := map[string]*view{}
	tables := map[string]bool{}
	for _, n := range sparkTestTables {
		tables[n] = true
	}
	configs := map[string]string{} // settings that are not the default
	inserts := map[string]*insertTable{}
	fileSkip := ""
	for _, c := range g.Input.Configs {
		k, v, _ := strings.Cut(c, "=")
		if !isDefault(strings.TrimSpace(k), strings.TrimSpace(v)) {
			fileSkip = "file setting " + strings.TrimSpace(c)
		}
	}
	// skipOf returns the views sqlText reads and why it is not evaluated;
	// self is the name of the view sqlText defines ("" for a query), an
	// alias in its body (VALUES ... AS testData(a, b)), not a table read.
	skipOf := func(sqlText, self string) (reads []*view, skip string) {
		for _, id := range identifiers(sqlText) {
			if self != "" && strings.EqualFold(id, self) {
				continue
			}
			if v := views[id]; v != nil && !slices.Contains(reads, v) {
				reads = append(reads, v)
				if v.Skip != "" && skip == "" {
					skip = v.Skip
				}
			}
			if tables[id] && views[id] == nil && skip == "" {
				skip = "reads table " + id + " (CREATE TABLE, or one of SQLQueryTestSuite's test tables)"
			}
		}
		return reads, skip
	}
	var out []*query
	for _, b := range g.Results {
		s := strings.TrimSpace(b.SQL)
		switch {
		case setTimeZone.MatchString(s):
			setConfigValue(configs, "spark.sql.session.timeZone", setTimeZone.FindStringSubmatch(s)[1])
		case setConfig.MatchString(s):
			m := setConfig.FindStringSubmatch(s)
			setConfigValue(configs, m[1], m[2])
		case regexp.MustCompile(`(?i)^RESET\s*$`).MatchString(s):
			clear(configs)
		case createView.MatchString(s):
			m := createView.FindStringSubmatch(s)
			name, cols, as, body := m[1], m[2], m[3], m[4]
			v := &view{Name: name, SQL: body}
			if as == "" {
				v.Skip = "reads view " + name + " (not defined by a query)"
			} else if cols != "" {
				v.SQL = fmt.Sprintf("SELECT * FROM (\n%s\n) AS %s(%s)", body, name, cols)
			}
			reads, skip := skipOf(body, name)
			// Its own name in its body is an alias (VALUES ... AS t1(c)),
			// not the view it replaces: a view cannot read itself.
			v.Reads = slices.DeleteFunc(reads, func(r *view) bool { return strings.EqualFold(r.Name, name) })
			if v.Skip == "" {
				v.Skip = skip
			}
			if b.Error != "" && v.Skip == "" {
				v.Skip = "reads view " + name + " (Spark failed to create it)"
			}
			views[strings.ToLower(name)] = v
		case createTableAs.MatchString(s) && b.Error == "":
			// CREATE TABLE t AS query: the table holds the query's rows.
			m := createTableAs.FindStringSubmatch(s)
			v := &view{Name: m[1], SQL: m[2]}
			v.Reads, v.Skip = skipOf(m[2], "")
			views[strings.ToLower(m[1])] = v
			delete(tables, strings.ToLower(m[1]))
		case createTableCols.MatchString(s) && b.Error == "":
			// CREATE TABLE t (cols) and the INSERTs after it: a view of
			// the inserted rows, cast to the columns' types as Spark's
			// store assignment does.
			m := createTableCols.FindStringSubmatch(s)
			tb := newInsertTable(m[1], m[2])
			if tb == nil {
				tables[strings.ToLower(m[1])] = true
				break
			}
			inserts[strings.ToLower(m[1])] = tb
			views[strings.ToLower(m[1])] = tb.view(nil)
			delete(tables, strings.ToLower(m[1]))
		case insertInto.MatchString(s):
			m := insertInto.FindStringSubmatch(s)
			name := strings.ToLower(m[2])
			tb := inserts[name]
			if tb == nil || b.Error != "" {
				break
			}
			if strings.EqualFold(m[1], "OVERWRITE") {
				tb.sources = nil
			}
			tb.sources = append(tb.sources, m[3])
			reads, skip := skipOf(m[3], "")
			v := tb.view(reads)
			if skip != "" {
				v.Skip = skip
			}
			if strings.HasPrefix(m[3], "(") {
				v.Skip = "reads table " + tb.name + " (INSERT with a column list)"
			}
			views[name] = v
		case dropTable.MatchString(s):
			name := strings.ToLower(dropTable.FindStringSubmatch(s)[1])
			delete(views, name)
			delete(inserts, name)
		case dropView.MatchString(s):
			delete(views, strings.ToLower(dropView.FindStringSubmatch(s)[1]))
		case createTable.MatchString(s):
			name := strings.ToLower(createTable.FindStringSubmatch(s)[1])
			tables[name[strings.LastIndex(name, ".")+1:]] = true
		case queryStart.MatchString(s):
			q := &query{File: g.Name, Block: b, Ordered: orderedQuery(s)}
			reads, skip := skipOf(s, "")
			q.Views = closure(reads)
			switch {
			case fileSkip != "":
				q.Skip = fileSkip
			case len(configs) > 0 && !(b.Error == "" && allOnlyReject(configs)):
				var set []string
				for k, v := range configs {
					set = append(set, k+"="+v)
				}
				slices.Sort(set)
				q.Skip = "setting " + strings.Join(set, ", ")
			case seededRandom.MatchString(s) && b.Error == "":
				q.Skip = "its rows are values of Spark's random number generator (rand with a seed)"
			default:
				q.Skip = skip
			}
			out = append(out, q)
		}
	}
	return out
}

func allOnlyReject(configs map[string]string) bool {
	for k, v := range configs {
		if onlyRejects[k] != strings.ToLower(v) {
			return false
		}
	}
	return true
}

func setConfigValue(configs map[string]string, key, value string) {
	if isDefault(key, value) {
		delete(configs, strings.ToLower(key))
		return
	}
	configs[strings.ToLower(key)] = value
}

// closure returns the views and the views they read, transitively, each
// after the views it reads.
func closure(reads []*view) []*view {
	var out []*view
	var visit func(v *view)
	visit = func(v *view) {
		if slices.Contains(out, v) {
			return
		}
		for _, r := range v.Reads {
			visit(r)
		}
		out = append(out, v)
	}
	for _, v := range reads {
		visit(v)
	}
	return out
}

// tokens scans SQL text outside string literals and comments and calls fn
// with each word (identifiers, keywords, back-quoted names; lower case)
// and each parenthesis, with the parenthesis depth before it.
func tokens(s string, fn func(tok string, depth int)) {
	depth := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			i++
		case c == '`':
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				return
			}
			fn(strings.ToLower(s[i+1:i+1+j]), depth)
			i += j + 2
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return
			}
			i += j + 4
		case c == '(':
			fn("(", depth)
			depth++
			i++
		case c == ')':
			depth--
			fn(")", depth)
			i++
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			fn(strings.ToLower(s[i:j]), depth)
			i = j
		default:
			i++
		}
	}
}

// identifiers returns the words of SQL text, lower case.
func identifiers(s string) []string {
	var out []string
	tokens(s, func(tok string, _ int) {
		if tok != "(" && tok != ")" {
			out = append(out, tok)
		}
	})
	return out
}

// orderedQuery reports whether the query's outermost level has ORDER BY
// (a window's or a subquery's ORDER BY is inside parentheses).
func orderedQuery(s string) bool {
	prev, ordered := "", false
	tokens(s, func(tok string, depth int) {
		if depth == 0 && prev == "order" && tok == "by" {
			ordered = true
		}
		if depth == 0 {
			prev = tok
		}
	})
	return ordered
}

// insertTable is a table created with columns (CREATE TABLE t (a INT, b
// STRING)) and filled by INSERT ... VALUES / SELECT.
type insertTable struct {
	name    string
	cols    []string // names
	types   []string // Spark types, as written
	sources []string // VALUES ... or SELECT ..., in order
}

// newInsertTable parses the column list of CREATE TABLE; nil when a
// column is not "name TYPE".
func newInsertTable(name, list string) *insertTable {
	tb := &insertTable{name: name}
	for _, col := range splitTopLevel(list) {
		f := strings.Fields(col)
		if len(f) < 2 {
			return nil
		}
		typ := strings.Join(f[1:], " ")
		if i := regexp.MustCompile(`(?i)\s(NOT\s+NULL|COMMENT|DEFAULT)\b`).FindStringIndex(typ); i != nil {
			typ = typ[:i[0]]
		}
		tb.cols = append(tb.cols, strings.Trim(f[0], "`"))
		tb.types = append(tb.types, typ)
	}
	if len(tb.cols) == 0 {
		return nil
	}
	return tb
}

// view returns the table's rows so far as a view: the union of its
// sources with their columns cast to the table's types (an empty SELECT
// when nothing was inserted).
func (tb *insertTable) view(reads []*view) *view {
	cast := make([]string, len(tb.cols))
	for i, c := range tb.cols {
		cast[i] = fmt.Sprintf("CAST(%s AS %s) AS %s", c, tb.types[i], c)
	}
	cols := strings.Join(tb.cols, ", ")
	var parts []string
	for _, src := range tb.sources {
		from := fmt.Sprintf("(\n%s\n) AS %s_rows(%s)", src, tb.name, cols)
		if strings.HasPrefix(strings.ToUpper(src), "VALUES") {
			from = fmt.Sprintf("%s AS %s_rows(%s)", src, tb.name, cols)
		}
		parts = append(parts, fmt.Sprintf("SELECT %s FROM %s", strings.Join(cast, ", "), from))
	}
	if len(parts) == 0 {
		nulls := make([]string, len(tb.cols))
		for i, c := range tb.cols {
			nulls[i] = fmt.Sprintf("CAST(NULL AS %s) AS %s", tb.types[i], c)
		}
		parts = []string{fmt.Sprintf("SELECT %s WHERE false", strings.Join(nulls, ", "))}
	}
	return &view{Name: tb.name, SQL: strings.Join(parts, "\nUNION ALL\n"), Reads: reads}
}

// splitTopLevel splits a column list at the commas outside (), <> and
// quotes.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '<':
			depth++
		case ')', '>':
			depth--
		case '\'', '"', '`':
			for i++; i < len(s) && s[i] != c; i++ {
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}
