package spec

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	_ "time/tzdata" // session_time_zone is checked wherever pipegen runs

	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/sqlfn"
	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// This file resolves a syntax tree into the graph of sources, datasets and
// flows and applies SDP's graph rules (docs: /work/shared/cases/sdp-graph.md;
// the diagnostic codes are SDP's error classes). check.go then type-checks
// the graph in topological order.

// relKind is what a name in the relation namespace is.
type relKind uint8

const (
	relSource relKind = iota
	relST
	relMV
	relTV
)

// rel is a source or dataset during resolution.
type rel struct {
	name  string
	pos   Pos
	kind  relKind
	index int // definition order

	src     *Source
	srcDecl *SourceDecl
	ds      *Dataset
	dsDecl  *DatasetDecl

	// TV only: the view's query and what it reads.
	query *sql.Query
	text  Str
	refs  []ref

	flows []*flowNode // flows writing it (tables)

	failed     bool // a direct error in its definition or a flow into it
	downstream bool // an input failed, so it was not checked
	noSchema   bool // a table source without a schema
	// noSchemaWhy says where its table was looked for (" at PATH").
	noSchemaWhy string
	streaming   int8 // TV: 0 unknown, 1 streaming, -1 batch, 2 being computed
	checked     bool
	columns     []Column
	declared    types.Schema
}

// ref is one relation a query reads, resolved.
type ref struct {
	sql.TableRef
	rel  *rel
	text Str // the SQL text, for positions
	// shift is subtracted from offsets (AUTO CDC sources are checked as
	// `SELECT * FROM ...` built around the written text).
	shift int
	// changeFeed marks a streamed table read as its change data feed.
	changeFeed bool
}

func (f ref) pos() Pos { return f.text.PosAt(f.Offset - f.shift) }

// flowNode is a flow during resolution.
type flowNode struct {
	name    string
	pos     Pos
	decl    *FlowDecl // nil for a default flow
	target  *rel
	text    Str
	query   *sql.Query
	refs    []ref
	once    bool
	cdc     *AutoCDCDecl
	failed  bool
	flow    *Flow
	isDflt  bool
	comment string
}

// resolver turns a SpecAST into a Pipeline.
type resolver struct {
	diagSink
	ast         *SpecAST
	p           *Pipeline
	params      map[string]*Parameter
	paramNames  []string
	paramErrPos map[Pos]bool
	rels        map[string]*rel // by lower-case name
	relOrder    []*rel
	opts        Options
	flows       []*flowNode
	flowNames   map[string]*flowNode
	// changeFeed is set while the query of a flow or view that reads
	// change feeds is checked (see changefeed.go).
	changeFeed bool
	// watermark is the `watermark:` key of the flow being checked (see
	// stateful.go); viewNodes are the plan nodes of temporary views.
	watermark *streamWatermark
	viewNodes map[sql.Plan]bool
}

// Resolve resolves and type-checks a pipeline's syntax tree. The pipeline
// is nil when there are errors.
func Resolve(ast *SpecAST) (*Pipeline, Diagnostics) { return resolveWith(ast, Options{}) }

func resolveWith(ast *SpecAST, opts Options) (*Pipeline, Diagnostics) {
	r := &resolver{
		opts:        opts,
		ast:         ast,
		p:           &Pipeline{},
		params:      map[string]*Parameter{},
		paramErrPos: map[Pos]bool{},
		rels:        map[string]*rel{},
		flowNames:   map[string]*flowNode{},
	}
	r.resolve()
	r.diags.Sort()
	if r.diags.HasErrors() {
		return nil, r.diags
	}
	return r.p, r.diags
}

func (r *resolver) resolve() {
	ast := r.ast
	main := ast.Files[0]
	r.p.Name = ast.Pipeline.Value
	r.p.Description = ast.Description.Value
	r.p.File = main.Path
	for _, f := range ast.Files {
		r.p.Files = append(r.p.Files, f.Path)
	}
	r.resolveParams()
	r.resolveSettings()
	for _, s := range ast.Sources {
		r.addSource(s)
	}
	for _, d := range ast.Datasets {
		r.addDataset(d)
	}
	for _, rl := range r.relOrder {
		if rl.ds != nil && rl.dsDecl.Query.Set() && rl.kind != relTV {
			r.addFlow(&flowNode{name: rl.name, pos: rl.dsDecl.Query.Pos, target: rl, text: rl.dsDecl.Query, isDflt: true})
		}
	}
	for _, fd := range ast.Flows {
		r.addNamedFlow(fd)
	}
	r.datasetRules()
	r.datasetWatermarkRules()
	r.parseQueries()
	r.cycles()
	r.streamingRules()
	r.changeFeedRules()
	r.checkGraph()
	r.emptyPipeline()
	if !r.diags.HasErrors() {
		r.buildModel()
	}
}

// resolveSettings reads the pipeline-level settings.
func (r *resolver) resolveSettings() {
	ast := r.ast
	r.p.Catalog, r.p.Schema = Lit("main"), Lit("default")
	if ast.Catalog.Set() {
		r.p.Catalog = r.template(ast.Catalog)
	}
	if ast.Schema.Set() {
		r.p.Schema = r.template(ast.Schema)
	}
	if t := ast.Trigger; t != nil {
		switch {
		case t.Interval.Set():
			d, err := time.ParseDuration(t.Interval.Value)
			if err != nil || d <= 0 {
				r.errorf(t.Interval.Pos, "", "write a Go duration such as 30s, 5m or 1h", "trigger interval %q is not a positive duration", t.Interval.Value)
			}
			r.p.Trigger = Trigger{Mode: TriggerInterval, Interval: d}
		case t.Mode.Value == "once":
			r.p.Trigger = Trigger{Mode: TriggerOnce}
		}
	}
	r.p.SessionTimeZone = "UTC"
	if tz := ast.SessionTimeZone; tz.Set() {
		if _, err := time.LoadLocation(tz.Value); err != nil || tz.Value == "Local" {
			r.errorf(tz.Pos, "", "use an IANA name such as UTC or Europe/Paris", "unknown time zone %q", tz.Value)
		}
		r.p.SessionTimeZone = tz.Value
	}
	for _, c := range ast.Checks {
		r.checkSQLParams(c)
	}
}

// addRel enters a source or dataset into the relation namespace.
func (r *resolver) addRel(rl *rel) bool {
	key := strings.ToLower(rl.name)
	if prev, ok := r.rels[key]; ok {
		r.errorf(rl.pos, "PIPELINE_DUPLICATE_IDENTIFIERS.DATASET", "rename one of them: sources and datasets share one namespace",
			"%s %q is already defined as a %s at %s", rl.kindName(), rl.name, prev.kindName(), prev.pos)
		return false
	}
	rl.index = len(r.relOrder)
	r.rels[key] = rl
	r.relOrder = append(r.relOrder, rl)
	return true
}

func (rl *rel) kindName() string {
	switch rl.kind {
	case relSource:
		return "source"
	case relST:
		return "streaming table"
	case relMV:
		return "materialized view"
	}
	return "temporary view"
}

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
		switch {
		case d.NoRescuedData:
			s.RescuedDataColumn = ""
		case d.RescuedDataColumn.Set():
			s.RescuedDataColumn = d.RescuedDataColumn.Value
		}
		if !d.Schema.Set() {
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
			for _, f := range s.Schema {
				if k := f.Type.Kind; k == types.ArrayKind || k == types.MapKind || k == types.StructKind {
					r.errorf(d.Schema.Pos, "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
						fmt.Sprintf("declare %s STRING and parse it in the query, e.g. from_json(%s, '%s')", types.QuoteIdent(f.Name), types.QuoteIdent(f.Name), f.Type),
						"the CSV source %q cannot read column %s of type %s: CSV holds flat values only, as in Spark", s.Name, f.Name, f.Type)
					rl.failed = true
				}
			}
		}
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
		JSON:                 JSONOptions{DateFormat: "yyyy-MM-dd", AllowSingleQuotes: true, AllowNonNumericNumbers: true},
		CSV: CSVOptions{Header: true, Delimiter: ",", Quote: `"`, Escape: `"`, NaNValue: "NaN",
			DateFormat: "yyyy-MM-dd", MultiLine: true, Encoding: "UTF-8"},
		Parquet: ParquetOptions{Int96AsTimestamp: true},
	}
	switch d.Format.Value {
	case "csv":
		fs.Format = FormatCSV
	case "parquet":
		fs.Format = FormatParquet
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
	}
	if e := d.SchemaEvolution; e.Set() && fs.SchemaEvolution != RescueNewColumns && fs.Format == FormatCSV && !fs.CSV.Header {
		r.errorf(e.Pos, "", "remove it, or set csv: {header: true}: without a header a CSV file's fields are read by position, and a record with more fields is malformed", "schema_evolution: %s needs a CSV header to find new columns", e.Value)
	}
	if fs.Format == FormatCSV && fs.CSV.Quote != "" && fs.CSV.Quote == fs.CSV.Delimiter {
		r.errorf(d.Pos, "", "choose different characters", "csv quote and delimiter are both %q", fs.CSV.Quote)
	}
	return fs
}

// formatOption sets one format option (the schema has checked its type).
func (r *resolver) formatOption(fs *Files, kv KeyValue) {
	b := kv.Value.Value == "true"
	v := kv.Value.Value
	strs := map[string]*string{
		"date_format": &fs.JSON.DateFormat, "timestamp_format": &fs.JSON.TimestampFormat,
	}
	bools := map[string]*bool{
		"allow_comments": &fs.JSON.AllowComments, "allow_single_quotes": &fs.JSON.AllowSingleQuotes,
		"allow_unquoted_field_names": &fs.JSON.AllowUnquotedFieldNames, "allow_numeric_leading_zeros": &fs.JSON.AllowNumericLeadingZeros,
		"allow_non_numeric_numbers": &fs.JSON.AllowNonNumericNumbers, "primitives_as_string": &fs.JSON.PrimitivesAsString,
	}
	switch fs.Format {
	case FormatCSV:
		strs = map[string]*string{
			"delimiter": &fs.CSV.Delimiter, "quote": &fs.CSV.Quote, "escape": &fs.CSV.Escape, "comment": &fs.CSV.Comment,
			"null_value": &fs.CSV.NullValue, "empty_value": &fs.CSV.EmptyValue, "nan_value": &fs.CSV.NaNValue,
			"date_format": &fs.CSV.DateFormat, "timestamp_format": &fs.CSV.TimestampFormat, "encoding": &fs.CSV.Encoding,
		}
		bools = map[string]*bool{
			"header": &fs.CSV.Header, "ignore_leading_white_space": &fs.CSV.IgnoreLeadingWhiteSpace,
			"ignore_trailing_white_space": &fs.CSV.IgnoreTrailingWhiteSpace, "multi_line": &fs.CSV.MultiLine,
		}
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
		strs = nil
		bools = map[string]*bool{"int96_as_timestamp": &fs.Parquet.Int96AsTimestamp}
		if kv.Key.Value == "int96_as_timestamp" && !b {
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
	if p, ok := strs[kv.Key.Value]; ok {
		*p = v
	} else if p, ok := bools[kv.Key.Value]; ok {
		*p = b
	}
}

// addDataset resolves one dataset's own settings.
func (r *resolver) addDataset(d *DatasetDecl) {
	ds := &Dataset{Name: d.Name.Value, Pos: d.Name.Pos}
	rl := &rel{name: ds.Name, pos: ds.Pos, ds: ds, dsDecl: d}
	switch d.Kind.Value {
	case "streaming_table":
		ds.Kind, rl.kind = StreamingTable, relST
	case "materialized_view":
		ds.Kind, rl.kind = MaterializedView, relMV
	default:
		ds.Kind, rl.kind = TemporaryView, relTV
	}
	if !r.addRel(rl) {
		return
	}
	if ds.Kind != TemporaryView {
		ds.Table = TableName{Catalog: r.p.Catalog, Schema: r.p.Schema, Table: Lit(ds.Name)}
	}
	ds.Comment = r.template(d.Comment)
	for _, kv := range d.Properties {
		ds.Properties = append(ds.Properties, Property{Key: kv.Key.Value, Value: r.template(kv.Value)})
		// SDP reads pipelines.reset.allowed as a boolean (any case); a
		// value the runtime would read as true must not pass for a
		// protection.
		if kv.Key.Value == "pipelines.reset.allowed" && !strings.Contains(kv.Value.Value, "${") &&
			!strings.EqualFold(kv.Value.Value, "true") && !strings.EqualFold(kv.Value.Value, "false") {
			r.errorf(kv.Value.Pos, "", "write true or false", "table property pipelines.reset.allowed of %q is %q, not a boolean", ds.Name, kv.Value.Value)
		}
	}
	if ds.Kind == TemporaryView {
		if len(d.Properties) > 0 {
			r.errorf(d.Properties[0].Key.Pos, "", "remove them: a temporary view is not stored", "temporary view %q cannot have properties", ds.Name)
		}
		if d.PartitionBy.Set() {
			r.errorf(d.PartitionBy.Pos, "", "remove it: a temporary view is not stored", "temporary view %q cannot be partitioned", ds.Name)
		}
		if len(d.Expectations) > 0 {
			r.errorf(d.Expectations[0].Pos, "", "put the expectations on a table that reads the view", "expectations on temporary view %q are not supported", ds.Name)
		}
		if !d.Query.Set() {
			r.errorf(d.Name.Pos, "", "add query: SELECT ...", "temporary view %q has no query", ds.Name)
			rl.failed = true
		}
	}
	if d.Schema.Set() {
		rl.declared = r.parseSchema(d.Schema, rl)
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

// parseSchema parses a declared DDL schema; rl fails when it has errors.
func (r *resolver) parseSchema(s Str, rl *rel) types.Schema {
	sch, errs := sql.ParseSchema(s.Value)
	r.sqlErrors(s, 0, errs)
	if len(errs) > 0 {
		rl.failed = true
	}
	return sch
}

// addFlow enters a flow into the flow namespace and its target's flows.
func (r *resolver) addFlow(fn *flowNode) {
	key := strings.ToLower(fn.name)
	if prev, ok := r.flowNames[key]; ok {
		what := "flow"
		if prev.isDflt {
			what = "default flow of dataset"
		}
		r.errorf(fn.pos, "PIPELINE_DUPLICATE_IDENTIFIERS.FLOW", "rename the flow", "flow %q is already defined as the %s %q at %s", fn.name, what, prev.name, prev.pos)
		fn.failed = true
		return
	}
	r.flowNames[key] = fn
	r.flows = append(r.flows, fn)
	if fn.target != nil {
		fn.target.flows = append(fn.target.flows, fn)
	}
}

// addNamedFlow resolves one entry of flows:.
func (r *resolver) addNamedFlow(d *FlowDecl) {
	fn := &flowNode{name: d.Name.Value, pos: d.Name.Pos, decl: d, text: d.Query, once: d.Once.Value, cdc: d.AutoCDC, comment: d.Comment.Value}
	if strings.Contains(fn.name, ".") {
		r.errorf(fn.pos, "MULTIPART_FLOW_NAME_NOT_SUPPORTED", "use a name without dots", "flow name %q has more than one part", fn.name)
		return
	}
	if rl, ok := r.rels[strings.ToLower(fn.name)]; ok && !(rl.ds != nil && rl.dsDecl.Query.Set() && rl.kind != relTV) {
		r.errorf(fn.pos, "PIPELINE_DUPLICATE_IDENTIFIERS.FLOW", "rename the flow: datasets and flows share one namespace",
			"flow %q has the name of %s %q at %s", fn.name, rl.kindName(), rl.name, rl.pos)
		return
	}
	switch {
	case d.Query.Set() && d.AutoCDC != nil:
		r.errorf(d.AutoCDC.Pos, "", "remove query: or auto_cdc:", "flow %q has both a query and auto_cdc", fn.name)
		fn.failed = true
	case !d.Query.Set() && d.AutoCDC == nil:
		r.errorf(fn.pos, "", "add query: SELECT ... FROM STREAM(...) or auto_cdc: {...}", "flow %q has neither a query nor auto_cdc", fn.name)
		fn.failed = true
	case d.AutoCDC != nil && d.Once.Value:
		r.errorf(d.Once.Pos, "", "remove once: true", "auto_cdc flow %q cannot be a once flow", fn.name)
		fn.failed = true
	}
	tg, ok := r.rels[strings.ToLower(d.Target.Value)]
	switch {
	case !ok:
		var names []string
		for _, rl := range r.relOrder {
			if rl.ds != nil {
				names = append(names, rl.name)
			}
		}
		hint := didYouMean(d.Target.Value, names)
		if hint == "" {
			hint = "declare it under datasets: with kind: streaming_table"
		}
		r.errorf(d.Target.Pos, "TABLE_OR_VIEW_NOT_FOUND", hint, "flow %q targets %q, which is not a dataset of this pipeline", fn.name, d.Target.Value)
		fn.failed = true
		r.flowNames[strings.ToLower(fn.name)] = fn
		return
	case tg.kind == relSource:
		r.errorf(d.Target.Pos, "FLOW_TARGET_NOT_TABLE", "write into a streaming table of this pipeline", "flow %q targets source %q; sources are read, not written", fn.name, tg.name)
		fn.failed = true
	case tg.kind == relTV:
		r.errorf(d.Target.Pos, "FLOW_TARGET_NOT_TABLE", "make the target a streaming_table", "flow %q targets temporary view %q; flows write tables, views are defined by their query", fn.name, tg.name)
		fn.failed = true
	default:
		fn.target = tg
	}
	r.addFlow(fn)
}

// datasetRules applies the rules on a dataset's flows.
func (r *resolver) datasetRules() {
	for _, rl := range r.relOrder {
		if rl.ds == nil || rl.kind == relTV {
			continue
		}
		switch {
		case len(rl.flows) == 0:
			if rl.dsDecl.Query.Set() {
				continue // its default flow was a duplicate, reported there
			}
			r.errorf(rl.pos, "PIPELINE_DATASET_WITHOUT_FLOW", "add query: SELECT ..., or a flow with target: "+rl.name,
				"%s %q has no query and no flow writes it", rl.kindName(), rl.name)
			rl.failed = true
		case rl.kind == relMV && len(rl.flows) > 1:
			for _, fn := range rl.flows[1:] {
				r.errorf(fn.decl.Target.Pos, "MATERIALIZED_VIEW_WITH_MULTIPLE_QUERIES", "write a streaming table, or combine the queries with UNION ALL",
					"materialized view %q already has a query; flow %q cannot also write it", rl.name, fn.name)
				fn.failed = true
			}
			rl.failed = true
			continue
		}
		var cdc, other *flowNode
		for _, fn := range rl.flows {
			if fn.cdc != nil {
				cdc = fn
			} else {
				other = fn
			}
		}
		if cdc != nil && rl.kind == relMV {
			r.errorf(cdc.decl.Target.Pos, "", "make the target a streaming_table", "auto_cdc flow %q targets materialized view %q", cdc.name, rl.name)
			cdc.failed, rl.failed = true, true
		} else if cdc != nil && other != nil {
			r.errorf(cdc.decl.Target.Pos, "", "give the AUTO CDC target no query and no other flows", "auto_cdc flow %q and %s %q both write %q",
				cdc.name, map[bool]string{true: "the default flow", false: "flow"}[other.isDflt], other.name, rl.name)
			cdc.failed, rl.failed = true, true
		}
	}
}

// parseQueries parses every query and resolves the names it reads.
func (r *resolver) parseQueries() {
	for _, rl := range r.relOrder {
		if rl.kind == relTV && rl.dsDecl.Query.Set() {
			rl.text = rl.dsDecl.Query
			var ok bool
			rl.query, rl.refs, ok = r.parseQuery(rl.text)
			if !ok {
				rl.failed = true
			}
		}
	}
	for _, fn := range r.flows {
		switch {
		case fn.cdc != nil:
			fn.refs = r.cdcSourceRef(fn)
		case fn.text.Set():
			var ok bool
			fn.query, fn.refs, ok = r.parseQuery(fn.text)
			if !ok {
				fn.failed = true
			}
		}
		if fn.failed && fn.target != nil {
			fn.target.failed = true
		}
	}
}

// parseQuery parses a query and resolves its references; ok is false when
// it has errors.
func (r *resolver) parseQuery(text Str) (*sql.Query, []ref, bool) {
	r.checkSQLParams(text)
	q, errs := sql.ParseQuery(text.Value)
	r.sqlErrors(text, 0, errs)
	if q == nil && len(errs) == 0 {
		r.errorf(text.Pos, "INTERNAL", "please report this", "the SQL parser returned neither a query nor an error")
	}
	if q == nil || len(errs) > 0 {
		return q, nil, false
	}
	refs, ok := r.resolveRefs(text, 0, q.References())
	return q, refs, ok
}

// resolveRefs binds table references to sources and datasets.
func (r *resolver) resolveRefs(text Str, shift int, trs []sql.TableRef) ([]ref, bool) {
	ok := true
	var refs []ref
	for _, tr := range trs {
		f := ref{TableRef: tr, text: text, shift: shift}
		f.rel = r.lookup(tr.Parts)
		name := strings.Join(tr.Parts, ".")
		switch {
		case f.rel == nil:
			var names []string
			for _, rl := range r.relOrder {
				names = append(names, rl.name)
			}
			hint := didYouMean(tr.Parts[len(tr.Parts)-1], names)
			if hint == "" {
				hint = "declare it under sources: or datasets:"
			}
			r.errorf(f.pos(), "TABLE_OR_VIEW_NOT_FOUND", hint, "table or view %q does not exist", name)
			ok = false
			continue
		case f.rel.noSchema:
			r.errorf(f.pos(), "", "add schema: to source "+f.rel.name+", or build where its table exists (pipegen --warehouse DIR)",
				"source %q is read but has no declared schema, and its table %s was not found%s", f.rel.name, f.rel.src.Table, f.rel.noSchemaWhy)
			ok = false
		}
		refs = append(refs, f)
	}
	return refs, ok
}

// lookup resolves a table name as written (1 to 3 parts): a source or
// dataset by its name, a dataset by its qualified name, or a table source
// by the table name it reads.
func (r *resolver) lookup(parts []string) *rel {
	if len(parts) == 0 {
		return nil
	}
	if len(parts) == 1 {
		return r.rels[strings.ToLower(parts[0])]
	}
	written := strings.Join(parts, ".")
	for _, rl := range r.relOrder {
		switch {
		case rl.src != nil && rl.src.Kind == TableSource:
			if n := rl.src.Table; len(n.Path.Parts) > 0 {
				if len(parts) == 2 && strings.EqualFold(parts[0], "delta") && parts[1] == n.Path.String() {
					return rl
				}
			} else if strings.EqualFold(written, n.String()) || len(parts) == 2 && strings.EqualFold(written, n.Schema.String()+"."+n.Table.String()) {
				return rl
			}
		case rl.ds != nil && rl.kind != relTV && strings.EqualFold(parts[len(parts)-1], rl.name):
			if strings.EqualFold(parts[len(parts)-2], r.p.Schema.String()) && (len(parts) == 2 || strings.EqualFold(parts[0], r.p.Catalog.String())) {
				return rl
			}
		}
	}
	return nil
}

var streamRE = regexp.MustCompile(`^(?i:(\s*stream\s*\(\s*)([^()\s]+)\s*\)\s*|(\s*stream\s+)([^()\s]+)\s*|(\s*)([^()\s]+)\s*)$`)

// cdcSourceRef resolves an auto_cdc source: `STREAM(name)`, `STREAM name`
// or `name`, always read as a stream.
func (r *resolver) cdcSourceRef(fn *flowNode) []ref {
	src := fn.cdc.Source
	r.checkSQLParams(src)
	m := streamRE.FindStringSubmatch(src.Value)
	if m == nil {
		r.errorf(src.Pos, "", "write STREAM(name) of a source or streaming table", "auto_cdc source %q is not a table name", src.Value)
		fn.failed = true
		return nil
	}
	var lead, name string
	for i := 1; i+1 < len(m); i += 2 {
		if m[i+1] != "" {
			lead, name = m[i], m[i+1]
		}
	}
	tr := sql.TableRef{Parts: strings.Split(name, "."), Streaming: true, Offset: len(lead), End: len(lead) + len(name)}
	refs, ok := r.resolveRefs(src, 0, []sql.TableRef{tr})
	if !ok {
		fn.failed = true
	}
	return refs
}
