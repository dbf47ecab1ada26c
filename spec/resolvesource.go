package spec

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // session_time_zone is checked wherever pipegen runs

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

var metadataType = types.StructOf(
	types.Field{Name: "file_path", Type: types.StringType},
	types.Field{Name: "file_name", Type: types.StringType},
	types.Field{Name: "file_size", Type: types.LongType},
	types.Field{Name: "file_modification_time", Type: types.TimestampType},
)

// addSource resolves one source.
func (r *resolver) addSource(d *SourceDecl) {
	s := &Source{Name: d.Name.Value, Pos: d.Name.Pos}
	rl := &rel{name: s.Name, pos: s.Pos, kind: relSource, src: s, srcDecl: d}
	if !r.addRel(rl) {
		return
	}
	switch {
	case d.Files != nil && d.Table.Set():
		r.errorf(d.Table.Pos, "", "a source reads either files or a table", "source %q has both files and table", s.Name)
		rl.failed = true
	case d.Files == nil && !d.Table.Set():
		r.errorf(d.Name.Pos, "", "add files: {path: ..., format: ...} or table: catalog.schema.table", "source %q has neither files nor table", s.Name)
		rl.failed = true
	case d.Table.Set():
		s.Kind = TableSource
		s.Table = r.tableName(d.Table)
		if d.RescuedDataColumn.Set() {
			r.errorf(d.RescuedDataColumn.Pos, "", "remove it: only file sources rescue data", "rescued_data_column is set on table source %q", s.Name)
		}
	default:
		s.Kind = FileSource
		s.Files = r.files(d.Files, d.Name.file)
		s.RescuedDataColumn = "_rescued_data"
		fixed := s.Files.fixedColumns()
		switch {
		case d.NoRescuedData:
			s.RescuedDataColumn = ""
		case d.RescuedDataColumn.Set() && fixed != nil:
			r.errorf(d.RescuedDataColumn.Pos, "", fmt.Sprintf("remove it: a %s file has nothing to rescue, its columns are always %s", s.Files.Format, fixed),
				"rescued_data_column is set on %s source %q", s.Files.Format, s.Name)
			s.RescuedDataColumn = ""
		case d.RescuedDataColumn.Set():
			s.RescuedDataColumn = d.RescuedDataColumn.Value
		case fixed != nil:
			s.RescuedDataColumn = "" // nothing is ever rescued
		}
		if !d.Schema.Set() && fixed != nil {
			// Spark's text source without a schema: value STRING.
			s.Schema = slices.Clone(fixed)
		} else if !d.Schema.Set() {
			sample := "SAMPLE_FILES"
			if s.Files != nil && s.Files.Path.IsLiteral() && s.Files.Path.String() != "" {
				sample = s.Files.Path.String()
				if !filepath.IsAbs(sample) && d.Name.file != nil {
					sample = filepath.Join(filepath.Dir(d.Name.file.Path), sample)
				}
			}
			specPath := "SPEC"
			if d.Name.file != nil {
				specPath = d.Name.file.Path
			}
			r.errorf(d.Name.Pos, "", fmt.Sprintf("write it from sample files with pipegen infer --write %s --source %s %s, or declare the columns, e.g. schema: id STRING NOT NULL, amount DECIMAL(12,2)", specPath, s.Name, sample),
				"file source %q has no schema", s.Name)
			rl.failed = true
		}
	}
	if d.Schema.Set() {
		s.Schema = r.parseSchema(d.Schema, rl)
		if s.Kind == FileSource && !rl.failed {
			r.fixedSchema(s, d.Schema, rl)
		}
		if s.Kind == FileSource && s.Files.SchemaEvolution == AddNewColumns && !rl.failed {
			r.addLoggedColumns(s, d, rl)
		}
	} else if s.Kind == TableSource && !rl.failed {
		r.schemaFromLog(s, d, rl)
	}
	if rl.failed {
		return
	}
	if s.Kind == FileSource {
		// Spark's file data sources read every column as nullable, whatever
		// the declared schema says (a landing file may always lack a
		// value); NOT NULL belongs to the tables the pipeline writes.
		var notNull []string
		for i := range s.Schema {
			if !s.Schema[i].Nullable {
				notNull = append(notNull, s.Schema[i].Name)
			}
			s.Schema[i].Type = s.Schema[i].Type.AsNullable()
			s.Schema[i].Nullable = true
		}
		if s.Files.Format == FormatCSV {
			// Spark's CSV source refuses nested columns
			// (UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE): a CSV field is flat text.
			for i, f := range s.Schema {
				if k := f.Type.Kind; k == types.ArrayKind || k == types.MapKind || k == types.StructKind {
					r.errorf(columnPos(d.Schema, i), "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
						fmt.Sprintf("declare %s STRING and parse it in the query, e.g. from_json(%s, '%s')", types.QuoteIdent(f.Name), types.QuoteIdent(f.Name), f.Type),
						"the CSV source %q cannot read column %s of type %s: CSV holds flat values only, as in Spark", s.Name, f.Name, f.Type)
					rl.failed = true
				}
			}
		}
		r.undecodable(s, d.Schema)
		if len(notNull) > 0 {
			r.warnf(d.Schema.Pos, "", fmt.Sprintf("to enforce it, add an expectation such as {name: has_%s, expr: %s IS NOT NULL, on_violation: drop} to the table that reads the source",
				notNull[0], types.QuoteIdent(notNull[0])),
				"NOT NULL on %s of file source %q has no effect: files are read as nullable, as Spark reads them", strings.Join(notNull, ", "), s.Name)
		}
	}
	for _, f := range s.Schema {
		s.Columns = append(s.Columns, Column{Name: f.Name, Type: f.Type, Nullable: f.Nullable, Comment: f.Comment})
	}
	if s.Kind == FileSource {
		if s.RescuedDataColumn != "" && s.Schema.Index(s.RescuedDataColumn) >= 0 {
			pos := d.Schema.Pos
			if d.RescuedDataColumn.Set() {
				pos = d.RescuedDataColumn.Pos
			}
			r.errorf(pos, "", "choose another rescued_data_column", "rescued data column %q of source %q is also a declared column", s.RescuedDataColumn, s.Name)
			rl.failed = true
		}
		if s.RescuedDataColumn != "" {
			s.Columns = append(s.Columns, Column{Name: s.RescuedDataColumn, Type: types.StringType, Nullable: true})
		}
		s.Columns = append(s.Columns, Column{Name: "_metadata", Type: metadataType, Nullable: false, Hidden: true})
	}
	rl.columns = s.Columns
}

// fixedSchema checks the declared schema of a file source whose format
// fixes its columns (source.Format.Columns, e.g. text's value STRING): as
// many columns, of the same types; the names may differ, as Spark's text
// source reads `.schema("line STRING")` ("Text data source supports only
// a single column" of type STRING otherwise).
func (r *resolver) fixedSchema(s *Source, schema Str, rl *rel) {
	fixed := s.Files.fixedColumns()
	if fixed == nil {
		return
	}
	same := len(s.Schema) == len(fixed)
	for i := 0; same && i < len(fixed); i++ {
		same = s.Schema[i].Type.EqualIgnoringNullability(fixed[i].Type)
	}
	if !same {
		r.errorf(schema.Pos, "", fmt.Sprintf("declare %s (the names may differ, the types may not), or leave schema: out for it", fixed),
			"source %q declares %s, but the columns of a %s file are %s, as in Spark", s.Name, s.Schema, s.Files.Format, fixed)
		rl.failed = true
	}
}

// fixedColumns returns the columns fs's format fixes
// (source.Format.Columns), or nil.
func (fs *Files) fixedColumns() types.Schema {
	if fs == nil {
		return nil
	}
	if info := fs.Format.Info(); info != nil {
		return info.Columns
	}
	return nil
}

// tableName splits a 1-, 2- or 3-part table name (parts may use
// parameters) and fills the missing parts from the pipeline's defaults.
func (r *resolver) tableName(s Str) TableName {
	if v := s.Value; len(v) > len("delta.``") && strings.EqualFold(v[:len("delta.`")], "delta.`") && strings.HasSuffix(v, "`") {
		path := strings.ReplaceAll(v[len("delta.`"):len(v)-1], "``", "`")
		return TableName{Path: r.template(shifted(s, len("delta.`"), path))}
	}
	parts := splitDotted(s.Value)
	if len(parts) > 3 {
		r.errorf(s.Pos, "", "write catalog.schema.table", "table name %q has more than three parts", s.Value)
		return TableName{}
	}
	var ts []Template
	off := 0
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			r.errorf(s.PosAt(off), "", "write catalog.schema.table", "table name %q has an empty part", s.Value)
		}
		t := r.template(shifted(s, off, p))
		ts = append(ts, t)
		off += len(p) + 1
	}
	n := TableName{Catalog: r.p.Catalog, Schema: r.p.Schema}
	switch len(ts) {
	case 1:
		n.Table = ts[0]
	case 2:
		n.Schema, n.Table = ts[0], ts[1]
	case 3:
		n.Catalog, n.Schema, n.Table = ts[0], ts[1], ts[2]
	}
	return n
}

// shifted returns a Str for the part of s at byte offset off with value v,
// whose PosAt still maps into s's source.
func shifted(s Str, off int, v string) Str {
	return Str{Value: v, Pos: s.PosAt(off), file: s.file, parent: &s, shift: off}
}

// splitDotted splits a name on dots outside `${...}`.
func splitDotted(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "${"):
			depth++
			i++
		case s[i] == '}' && depth > 0:
			depth--
		case s[i] == '.' && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

var sizeRE = regexp.MustCompile(`^([0-9]+) ?([kKmMgGtT]?)[bB]?$`)

// files resolves a source's files: section.
func (r *resolver) files(d *FilesDecl, f *File) *Files {
	fs := &Files{
		Path:                 r.template(d.Path),
		Dir:                  filepath.Dir(f.Path),
		MaxFilesPerTrigger:   source.DefaultMaxFilesPerTrigger,
		IncludeExistingFiles: true,
		Format:               FileFormat(d.Format.Value),
	}
	fs.setFormatDefaults()
	if fs.Format.Info() == nil {
		r.errorf(d.Format.Pos, "", "write one of "+source.FormatNames(), "unknown file format %q", d.Format.Value)
	}
	if d.MaxFilesPerTrigger.Set() {
		fs.MaxFilesPerTrigger = int(d.MaxFilesPerTrigger.Value)
	}
	if d.IncludeExistingFiles.Set() {
		fs.IncludeExistingFiles = d.IncludeExistingFiles.Value
	}
	if d.OnMalformed.Value == "fail" {
		fs.OnMalformed = FailOnMalformed
	}
	switch e := d.SchemaEvolution; e.Value {
	case "fail_on_new_columns":
		fs.SchemaEvolution = FailOnNewColumns
	case "none":
		fs.SchemaEvolution = IgnoreNewColumns
	case "add_new_columns":
		fs.SchemaEvolution = AddNewColumns
	}
	if e := d.SchemaEvolution; e.Set() && fs.fixedColumns() != nil {
		r.errorf(e.Pos, "", fmt.Sprintf("remove it: the columns of a %s file are always %s, so there is no new column to find", fs.Format, fs.fixedColumns()),
			"schema_evolution is set on a %s source", fs.Format)
	}
	fs.AllowOverwrites = d.AllowOverwrites.Set() && d.AllowOverwrites.Value
	if g := d.PathGlobFilter; g.Set() {
		if _, err := source.CompileGlobFilter(g.Value); err != nil {
			r.errorf(g.Pos, "", "write a glob of the file names to read, e.g. \"*.csv\" or \"*.{csv,tsv}\"", "%v", err)
		} else {
			fs.PathGlobFilter = g.Value
		}
	}
	fs.IgnoreCorruptFiles = d.IgnoreCorruptFiles.Set() && d.IgnoreCorruptFiles.Value
	fs.IgnoreMissingFiles = d.IgnoreMissingFiles.Set() && d.IgnoreMissingFiles.Value
	if a := d.MinFileAge; a.Set() {
		age, err := time.ParseDuration(a.Value)
		if err != nil || age < 0 {
			r.errorf(a.Pos, "", "write a Go duration such as 30s or 5m", "min_file_age %q is not a duration", a.Value)
		}
		fs.MinFileAge = age
	}
	if s := d.MaxBytesPerTrigger; s.Set() {
		m := sizeRE.FindStringSubmatch(s.Value)
		n, ok := int64(0), m != nil
		if ok {
			n, ok = parseInt(m[1])
			shift := map[string]uint{"": 0, "k": 10, "m": 20, "g": 30, "t": 40}[strings.ToLower(m[2])]
			if ok && n > 0 && n <= (1<<62)>>shift {
				n <<= shift
			} else {
				ok = false
			}
		}
		if !ok {
			r.errorf(s.Pos, "", "write a size such as 512mb or 1g", "max_bytes_per_trigger %q is not a positive size", s.Value)
		}
		fs.MaxBytesPerTrigger = n
	}
	for _, o := range d.Options {
		if o.Format.Value != d.Format.Value {
			r.errorf(o.Format.Pos, "", "remove it or change format", "%s options given for a %s source", o.Format.Value, d.Format.Value)
			continue
		}
		for _, kv := range o.Values {
			r.formatOption(fs, kv)
		}
		r.checkOptions(fs, o)
	}
	if e := d.SchemaEvolution; e.Set() && fs.SchemaEvolution != RescueNewColumns && fs.Format == FormatCSV && !fs.CSV.Header {
		r.errorf(e.Pos, "", "remove it, or set csv: {header: true}: without a header a CSV file's fields are read by position, and a record with more fields is malformed", "schema_evolution: %s needs a CSV header to find new columns", e.Value)
	}
	if fs.Format == FormatCSV && fs.CSV.Quote != "" && fs.CSV.Quote == fs.CSV.Delimiter {
		r.errorf(d.Pos, "", "choose different characters", "csv quote and delimiter are both %q", fs.CSV.Quote)
	}
	return fs
}

// formatOption checks and sets one format option (the JSON Schema has
// checked its name and type).
func (r *resolver) formatOption(fs *Files, kv KeyValue) {
	v := kv.Value.Value
	switch fs.Format {
	case FormatCSV:
		switch kv.Key.Value {
		case "encoding":
			if _, err := source.CSVEncoding(v); err != nil {
				r.errorf(kv.Value.Pos, "", "write an IANA character set name such as UTF-8, ISO-8859-1, windows-1252 or UTF-16LE, or convert the files to UTF-8",
					"csv encoding %q is not supported", v)
			}
		case "delimiter", "quote", "escape", "comment":
			if len(v) > 1 {
				r.errorf(kv.Value.Pos, "", "use an ASCII character", "csv %s %q must be one ASCII character", kv.Key.Value, v)
			}
		}
	case FormatParquet:
		if kv.Key.Value == "int96_as_timestamp" && v != "true" {
			r.errorf(kv.Value.Pos, "", "remove the option: a column declared TIMESTAMP reads INT96 values as timestamps, as Spark's default does",
				"int96_as_timestamp: false is not supported")
		}
	}
	if kv.Key.Value == "date_format" || kv.Key.Value == "timestamp_format" {
		if err := sqlfn.CompileDatetimeParsePattern(v); err != nil {
			r.errorf(kv.Value.Pos, "", "write a Spark datetime pattern such as dd.MM.yyyy or MM/dd/yyyy HH:mm:ss",
				"%s %s: %v", fs.Format, kv.Key.Value, err)
		}
	}
	if info := fs.Format.Info(); info == nil {
		return
	} else if _, ok := info.Option(kv.Key.Value); !ok {
		r.errorf(kv.Key.Pos, "", "remove it: docs/spec.md lists each format's options", "%s has no option %q", fs.Format, kv.Key.Value)
		return
	}
	fs.setOption(fs.Format, kv.Key.Value, v)
}

// checkOptions hands the options block o as written to its format's
// CheckOptions (source.Format), which checks them the way the format's
// reader takes them; a refused option is reported at its value.
func (r *resolver) checkOptions(fs *Files, o *FormatOptionsDecl) {
	info := fs.Format.Info()
	if info == nil || info.CheckOptions == nil {
		return
	}
	written := map[string]string{}
	pos := map[string]Pos{}
	for _, kv := range o.Values {
		written[kv.Key.Value] = kv.Value.Value
		pos[kv.Key.Value] = kv.Value.Pos
	}
	if name, err := info.CheckOptions(written); err != nil {
		p, ok := pos[name]
		if !ok {
			p = o.Format.Pos
		}
		r.errorf(p, "", "docs/spec.md lists each format's options and their values", "%v", err)
	}
}

// addLoggedColumns appends the columns the pipeline's schema log holds for
// an add_new_columns source to its declared schema (Options.SchemaLog), the
// ones the declaration lacks (names compared ignoring case), and gives a
// declared column the wider type the log records for it.
func (r *resolver) addLoggedColumns(s *Source, d *SourceDecl, rl *rel) {
	if r.opts.SchemaLog == nil {
		return
	}
	ddl, found, err := r.opts.SchemaLog(r.p.Name, s.Name)
	if err != nil {
		r.errorf(d.Schema.Pos, "", "fix or remove the schema log file", "source %q: %v", s.Name, err)
		rl.failed = true
		return
	}
	if !found || ddl == "" {
		return
	}
	logged, errs := sql.ParseSchema(ddl)
	if len(errs) > 0 {
		r.errorf(d.Schema.Pos, "", "fix or remove the schema log file", "source %q: its schema log holds %q, not a schema: %v", s.Name, ddl, errs[0])
		rl.failed = true
		return
	}
	for _, c := range logged {
		i := s.Schema.Index(c.Name)
		switch {
		case i < 0:
			c.Nullable = true
			s.Schema = append(s.Schema, c)
		case types.Widens(s.Schema[i].Type, c.Type):
			// A widening the program recorded (Delta's type widening);
			// a declaration already as wide, or changed since, stays.
			s.Schema[i].Type = c.Type
		}
	}
}

// columnPos is the position of the name of column i of schema text s, or
// of s for a column it does not declare (one added from a schema log).
func columnPos(s Str, i int) Pos {
	if _, offsets, _ := sql.ParseSchemaAt(s.Value); i < len(offsets) {
		return s.PosAt(offsets[i])
	}
	return s.Pos
}

// parseSchema parses a declared DDL schema; rl fails when it has errors.
func (r *resolver) parseSchema(s Str, rl *rel) types.Schema {
	sch, errs := sql.ParseSchema(s.Value)
	r.sqlErrors(s, 0, errs)
	if len(errs) > 0 {
		rl.failed = true
	}
	return sch
}
