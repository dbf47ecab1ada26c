// Package infer derives a file source's schema from sample files, for
// pipegen infer. CSV and JSON-lines files are read with the runtime's own
// decoders (runtime/source: the same header, delimiter and quoting options,
// the same number, date and timestamp recognition), so the schema inferred
// from a sample reads that sample without rescued data; Parquet files give
// the schema in their footer (runtime/parquetio) and a Delta table folder
// the schema of its latest snapshot (runtime/delta).
//
// Types are chosen as Spark's schema inference chooses them where that is
// lossless, and widened the same way whatever the order of the values:
//
//   - integers BIGINT (as Spark's JSON inference: a sample cannot prove later
//     values fit INT), beyond BIGINT DECIMAL(38,0), beyond 38 digits STRING;
//   - numbers with a point or an exponent DOUBLE, or DECIMAL(p,s) with
//     Options.Decimals (Spark's prefersDecimal), or when the column also holds
//     integers of more than 15 digits, which a DOUBLE would round; one beyond
//     DOUBLE's range (1e400, which Spark reads as Infinity) STRING;
//   - a number with a significant leading zero ("01220") is text: STRING;
//   - "true"/"false" BOOLEAN; yyyy-MM-dd DATE; ISO timestamps TIMESTAMP, or
//     TIMESTAMP_NTZ with Options.TimestampNTZ when none carries an offset;
//     DATE with TIMESTAMP gives TIMESTAMP;
//   - any other mix (a number and a boolean, a date and a number, text)
//     STRING, which keeps every value as written;
//   - JSON objects STRUCT (fields in order of first appearance, a field
//     seen in one record kept), MAP<STRING, T> when more than
//     Options.MapThreshold distinct keys were seen; arrays ARRAY<T>; an
//     object in one record and a scalar in another STRING (its JSON text);
//   - a column with only nulls STRING.
//
// In JSON only string values are read as dates or timestamps, and only
// number tokens as numbers (the string "12" is STRING), as Spark does.
package infer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/source"
	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// Default sample limits.
const (
	DefaultMaxRecords   = 10_000
	DefaultMaxBytes     = 64 << 20
	DefaultMapThreshold = 100
)

// Options control inference. The zero value of a limit means its default.
type Options struct {
	// Format is a name of source.Formats (json, csv, parquet, text) or ""
	// (from the files' extensions).
	Format string
	// CSV are the CSV reader's options (header, delimiter, quote, ...);
	// the zero value means source.DefaultCSVOptions.
	CSV *source.CSVOptions
	// MaxRecords and MaxBytes bound the sample: files are read in path
	// order until either is reached.
	MaxRecords int
	MaxBytes   int64
	// Decimals gives DECIMAL(p,s) instead of DOUBLE for numbers with a
	// fraction (Spark's prefersDecimal).
	Decimals bool
	// TimestampNTZ gives TIMESTAMP_NTZ for timestamps without an offset.
	TimestampNTZ bool
	// MapThreshold: a JSON object with more distinct keys than this across
	// the sample becomes MAP<STRING, T>; 0 means DefaultMapThreshold, a
	// negative value never.
	MapThreshold int
	// PathGlobFilter, when set, keeps only the files of a folder whose
	// name matches it, as the file source's path_glob_filter does.
	PathGlobFilter string
}

// Result is an inferred schema and what it was inferred from.
type Result struct {
	Schema types.Schema
	// Format is the format read: json, csv, parquet, text or delta.
	Format string
	// Files is the number of files read, Records the records sampled from
	// them, Malformed the records left out because they are not valid JSON
	// or CSV.
	Files, Records, Malformed int
	// FirstMalformed locates the first record left out, as file:line.
	FirstMalformed string
	// Limited says the sample limit stopped the reading before the end of
	// the files; TotalFiles counts the files that were found.
	Limited    bool
	TotalFiles int
	// Skipped are the files left out for a name that is not of the
	// format, when the format came from the file names (a README beside
	// the samples); a file source reads every file of its folder.
	Skipped []string
	// DeltaVersion is the table version read, for Format delta.
	DeltaVersion int64
	// Dropped names fields left out because their names differ only in
	// case from an earlier one (Spark's names are case-insensitive).
	Dropped []string
}

// Infer reads the sample files under paths (files, or folders read as a
// file source reads them: recursively, hidden and temporary files
// skipped) and returns their schema.
func Infer(paths []string, opts Options) (*Result, error) {
	if opts.MaxRecords <= 0 {
		opts.MaxRecords = DefaultMaxRecords
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MapThreshold == 0 {
		opts.MapThreshold = DefaultMapThreshold
	}
	if len(paths) == 1 {
		if st, err := os.Stat(filepath.Join(paths[0], "_delta_log")); err == nil && st.IsDir() {
			snap, err := delta.LoadMetadata(paths[0])
			if err != nil {
				return nil, fmt.Errorf("read the Delta table %s: %w", paths[0], err)
			}
			s := make(types.Schema, len(snap.Schema))
			for i, f := range snap.Schema {
				f.Nullable = true
				s[i] = f
			}
			return &Result{Schema: s, Format: "delta", DeltaVersion: snap.Version}, nil
		}
	}
	var glob *source.GlobFilter
	if opts.PathGlobFilter != "" {
		g, err := source.CompileGlobFilter(opts.PathGlobFilter)
		if err != nil {
			return nil, err
		}
		glob = g
	}
	var files []source.FileInfo
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			abs, _ := filepath.Abs(p)
			files = append(files, source.FileInfo{Path: source.FileURI(abs), Name: filepath.Base(p), Size: st.Size(), LocalPath: p})
			continue
		}
		if _, err := os.Stat(filepath.Join(p, "_delta_log")); err == nil {
			return nil, fmt.Errorf("%s is a Delta table: infer its schema on its own (pipegen infer %s)", p, p)
		}
		l, err := source.ListNames(p)
		if err != nil {
			return nil, err
		}
		l.Filter(glob)
		fs, err := l.Stat(l.Entries)
		if err != nil {
			return nil, err
		}
		files = append(files, fs...)
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].LocalPath < files[j].LocalPath })
	if len(files) == 0 {
		return nil, fmt.Errorf("no files to read in %s", strings.Join(paths, ", "))
	}
	format := opts.Format
	var skipped []string
	if format == "" {
		// A file of a format whose columns are fixed (text: a README.txt
		// or a .log beside the samples) is left out when other files have
		// columns to infer.
		inferable := false
		for _, f := range files {
			if info, ok := source.LookupFormat(source.FormatOfFile(f.Name)); ok && info.Columns == nil {
				inferable = true
			}
		}
		var known []source.FileInfo
		for _, f := range files {
			ff := source.FormatOfFile(f.Name)
			if info, ok := source.LookupFormat(ff); ff == "" || (ok && info.Columns != nil && inferable) {
				skipped = append(skipped, f.LocalPath)
				continue
			}
			if format != "" && ff != format {
				return nil, fmt.Errorf("%s is %s but earlier files are %s: give --format, or infer each folder on its own", f.LocalPath, ff, format)
			}
			format = ff
			known = append(known, f)
		}
		if format == "" {
			return nil, fmt.Errorf("%s: cannot tell the format from the file names: give --format %s", files[0].LocalPath, source.FormatNames())
		}
		files = known
	}
	res := &Result{Format: format, TotalFiles: len(files), Skipped: skipped}
	r := typeRules{decimals: opts.Decimals, ntz: opts.TimestampNTZ, mapThreshold: opts.MapThreshold}
	var err error
	switch format {
	case source.Parquet:
		err = inferParquet(res, files)
	case source.JSON, source.CSV:
		var root *object
		if format == source.JSON {
			root, err = sampleFiles(res, files, opts, sampleJSON)
		} else {
			copts := source.DefaultCSVOptions()
			if opts.CSV != nil {
				copts = *opts.CSV
			}
			root, err = sampleFiles(res, files, opts, func(data []byte, f source.FileInfo, o *object, res *Result, limit int) (int, bool, error) {
				return sampleCSV(data, f, copts, o, res, limit)
			})
		}
		if err == nil {
			t := root.structType(r)
			res.Schema = t.Fields
			res.Dropped = dropped(root, "")
		}
	default:
		info, ok := source.LookupFormat(format)
		if !ok {
			return nil, fmt.Errorf("unknown format %q: use %s", format, source.FormatNames())
		}
		if info.Columns == nil {
			return nil, fmt.Errorf("pipegen infer cannot infer the schema of %s files yet: declare it", format)
		}
		// The format fixes its columns (text: value STRING): nothing to
		// sample.
		res.Schema = slices.Clone(info.Columns)
		res.Files = len(files)
	}
	if err != nil {
		return nil, err
	}
	if len(res.Schema) == 0 {
		return nil, fmt.Errorf("no columns found in %d files", res.Files)
	}
	if _, err := FormatSchema(res.Schema); err != nil {
		return nil, err
	}
	return res, nil
}

// leftOut counts a malformed record, keeping where the first one is.
func (res *Result) leftOut(f source.FileInfo, line int) {
	if res.Malformed == 0 {
		res.FirstMalformed = fmt.Sprintf("%s:%d", f.LocalPath, line)
	}
	res.Malformed++
}

// sampler reads the records of one file's data into o, at most limit of
// them, counting malformed ones in res; it returns the number of records
// read and whether the limit left some unread.
type sampler func(data []byte, f source.FileInfo, o *object, res *Result, limit int) (n int, more bool, err error)

// sampleFiles reads files in order until the sample limits are reached. A
// file is read whole when it fits the byte budget left, else up to its last
// line break within it.
func sampleFiles(res *Result, files []source.FileInfo, opts Options, read sampler) (*object, error) {
	root := &object{}
	var bytesRead int64
	for _, f := range files {
		if res.Records >= opts.MaxRecords || bytesRead >= opts.MaxBytes {
			res.Limited = true
			break
		}
		data, cut, err := readSample(f.LocalPath, opts.MaxBytes-bytesRead)
		if err != nil {
			return nil, err
		}
		bytesRead += int64(len(data))
		n, more, err := read(data, f, root, res, opts.MaxRecords-res.Records)
		if err != nil {
			return nil, err
		}
		res.Files++
		res.Records += n
		if cut || more {
			res.Limited = true
		}
	}
	return root, nil
}

// readSample reads at most budget bytes of the file, cut after its last
// line break when the file is longer (cut is then true).
func readSample(path string, budget int64) (data []byte, cut bool, err error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer fh.Close()
	data, err = io.ReadAll(io.LimitReader(fh, budget+1))
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > budget {
		data = data[:budget]
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		}
		return data, true, nil
	}
	return data, false, nil
}

func sampleJSON(data []byte, f source.FileInfo, o *object, res *Result, limit int) (int, bool, error) {
	d := source.NewJSONDecoder(bytes.NewReader(data), f, source.Options{})
	n := 0
	for n < limit && d.NextRecord() {
		rec := &object{}
		for d.NextField() {
			readJSON(d, rec.field(string(d.Key())))
		}
		if _, malformed := d.EndRecord(); malformed {
			res.leftOut(f, d.RecordLine())
			continue
		}
		n++
		(&node{object: o}).merge(&node{object: rec})
	}
	more := n == limit && d.NextRecord()
	if err := d.Err(); err != nil {
		return n, false, err
	}
	return n, more, nil
}

// readJSON reads the value due in d into n.
func readJSON(d *source.JSONDecoder, n *node) {
	switch d.Peek() {
	case 0:
		d.Skip()
	case '{':
		if n.object == nil {
			n.object = &object{}
		}
		if d.BeginObject() {
			for d.NextField() {
				readJSON(d, n.object.field(string(d.Key())))
			}
		}
	case '[':
		if n.array == nil {
			n.array = &node{}
		}
		if d.BeginArray() {
			for d.NextElement() {
				readJSON(d, n.array)
			}
		}
	case '"':
		v := d.String()
		if v.Valid {
			if v.V == "" {
				n.text = true // "" is the empty string in JSON, a value only STRING reads
			} else {
				n.addText([]byte(v.V), true)
			}
		}
	case 't', 'f':
		d.Bool()
		n.boolean = true
	case 'n':
		d.Skip()
		n.null = true
	default:
		if v := d.String(); v.Valid {
			n.addText([]byte(v.V), false)
		}
	}
}

func sampleCSV(data []byte, f source.FileInfo, opts source.CSVOptions, o *object, res *Result, limit int) (int, bool, error) {
	// A first pass reads the header (or counts the fields of the first
	// record), a second reads the values by column.
	hopts := opts
	hopts.Header = true
	h := source.NewCSVDecoder(bytes.NewReader(data), f, nil, hopts)
	h.NextRecord()
	names := h.Header()
	if err := h.Err(); err != nil {
		return 0, false, err
	}
	if !opts.Header {
		for i := range names {
			names[i] = fmt.Sprintf("_c%d", i)
		}
	}
	cols := make([]*node, len(names))
	for i, name := range names {
		cols[i] = o.field(name)
	}
	d := source.NewCSVDecoder(bytes.NewReader(data), f, names, opts)
	n := 0
	rec := make([]node, len(names))
	for n < limit && d.NextRecord() {
		for i := range rec {
			rec[i] = node{}
			if v := d.String(i); v.Valid {
				rec[i].addText([]byte(v.V), false)
			} else {
				rec[i].null = true
			}
		}
		if _, malformed := d.EndRecord(); malformed {
			res.leftOut(f, d.RecordLine())
			continue
		}
		n++
		for i := range rec {
			cols[i].merge(&rec[i])
		}
	}
	more := n == limit && d.NextRecord()
	if err := d.Err(); err != nil {
		return n, false, err
	}
	return n, more, nil
}

func inferParquet(res *Result, files []source.FileInfo) error {
	var s types.Schema
	from := map[string]string{}
	for _, f := range files {
		fh, err := os.Open(f.LocalPath)
		if err != nil {
			return err
		}
		fs, err := parquetio.FileSchema(f.LocalPath, fh, f.Size)
		fh.Close()
		if err != nil {
			return err
		}
		res.Files++
		for _, c := range fs {
			i := s.Index(c.Name)
			if i < 0 {
				s = append(s, c)
				from[strings.ToLower(c.Name)] = f.LocalPath
				continue
			}
			if !s[i].Type.Equal(c.Type) {
				return fmt.Errorf("column %s is %s in %s and %s in %s: declare the schema by hand, or infer the files apart",
					c.Name, s[i].Type, from[strings.ToLower(c.Name)], c.Type, f.LocalPath)
			}
		}
	}
	res.Schema = s
	return nil
}

// dropped lists the fields of o (and below) left out of its STRUCT for a
// name that differs only in case from an earlier one.
func dropped(o *object, prefix string) []string {
	var out []string
	seen := map[string]bool{}
	for _, name := range o.names {
		k := strings.ToLower(name)
		if seen[k] {
			out = append(out, prefix+name)
			continue
		}
		seen[k] = true
		if c := o.fields[name]; c.object != nil {
			out = append(out, dropped(c.object, prefix+name+".")...)
		}
	}
	return out
}

// FormatSchema writes s in the spec's DDL syntax, one top-level column per
// line (joined by ",\n"), quoting column names the DDL parser would not
// read back as written (types in types.Type.String's form). The result parses back (spec/sql.ParseSchema) to s; an error
// says it would not.
func FormatSchema(s types.Schema) (string, error) {
	lines := make([]string, len(s))
	for i, f := range s {
		var b strings.Builder
		b.WriteString(quote(f.Name))
		b.WriteByte(' ')
		b.WriteString(f.Type.String())
		if !f.Nullable {
			b.WriteString(" NOT NULL")
		}
		lines[i] = b.String()
	}
	ddl := strings.Join(lines, ",\n")
	back, errs := sql.ParseSchema(ddl)
	if len(errs) > 0 {
		return "", fmt.Errorf("the inferred schema does not parse back: %v", errs[0])
	}
	if !types.StructOf(back...).Equal(types.StructOf(s...)) {
		return "", errors.New("the inferred schema does not parse back to the same types (please report this)")
	}
	return ddl, nil
}

// quote returns name as the DDL parser reads it back: plain when it is a
// plain identifier that is not a keyword there, else in backquotes.
func quote(name string) string {
	q := types.QuoteIdent(name)
	if q != name {
		return q
	}
	if s, errs := sql.ParseSchema(name + " INT"); len(errs) == 0 && len(s) == 1 && s[0].Name == name {
		return name
	}
	return "`" + name + "`"
}
