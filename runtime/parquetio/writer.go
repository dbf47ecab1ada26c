package parquetio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/pipegen/pipegen/runtime/types"
)

// Codec is a Parquet compression codec a Writer can use.
type Codec int

// The codecs: Snappy is the default, as in Spark.
const (
	Snappy Codec = iota
	Zstd
	Uncompressed
)

// DefaultRowGroupRows is the default bound on rows per row group.
const DefaultRowGroupRows = 120_000

// DictionaryMaxBytes bounds a string column's dictionary per row group: a
// column whose distinct values outgrow it (ids, UUIDs, free text) falls back
// to PLAIN pages. Low-cardinality columns (codes, countries, statuses) stay
// dictionary-encoded. 64 KiB keeps the dictionary's hash table in cache:
// with parquet-mr's 1 MiB, inserting a million unique order ids took more
// CPU than the rest of the write (measured on the benchmark job's bronze
// table), for files only 15% smaller.
const DictionaryMaxBytes = 64 << 10

// MaxStatsStringLength is the prefix length, in UTF-16 code units as Java
// counts a string's length, to which string min/max statistics are
// truncated, as Delta's delta.dataSkippingStringPrefixLength (default 32):
// the min is the prefix (a lower bound), the max the prefix followed by a
// tie-breaker that makes it an upper bound (truncateMaxString).
const MaxStatsStringLength = 32

// truncateMinString returns the first n UTF-16 code units of s (a lower
// bound of s in UTF-8 byte order), keeping a surrogate pair whole, as
// Delta's StatisticsCollection.truncateMinStringAgg does.
func truncateMinString(s string, n int) string {
	units := 0
	for i, r := range s {
		if units >= n {
			return s[:i]
		}
		units += utf16Len(r)
	}
	return s
}

// truncateMaxString returns s when it has at most n UTF-16 code units,
// else an upper bound of s in UTF-8 byte order made of a prefix of s and a
// tie-breaker, as Delta's StatisticsCollection.truncateMaxStringAgg does:
// the prefix of n units, extended over any U+10FFFF that follows it, then
// U+007F (DEL) when the next character is below it, else U+10FFFF (the
// largest code point: its UTF-8 bytes are above those of any other). It
// reports false when no such bound of at most 2n units exists.
func truncateMaxString(s string, n int) (string, bool) {
	if utf16Units(s) <= n {
		return s, true
	}
	off := len(truncateMinString(s, n))
	units := utf16Units(s[:off])
	for units <= 2*n {
		if off >= len(s) {
			return s, true
		}
		r, size := utf8.DecodeRuneInString(s[off:])
		switch {
		case r == utf8.MaxRune:
			off += size
			units += 2
		case r < 0x7f:
			return s[:off] + "\x7f", true
		default:
			return s[:off] + string(utf8.MaxRune), true
		}
	}
	return "", false
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

func utf16Units(s string) int {
	n := 0
	for _, r := range s {
		n += utf16Len(r)
	}
	return n
}

// WriterOptions configure a Writer. The zero value is Snappy with
// DefaultRowGroupRows.
type WriterOptions struct {
	Codec Codec
	// RowGroupRows bounds the rows of one row group; 0 means DefaultRowGroupRows.
	RowGroupRows int
}

// FileInfo describes a finished data file for Delta's add action.
type FileInfo struct {
	// Size is the file size in bytes.
	Size int64
	// NumRecords is the number of rows.
	NumRecords int64
	// Stats is Delta's stats JSON string (protocol, "Per-file Statistics"):
	// numRecords, nullCount per non-repeated leaf (nested structs as nested
	// objects; ARRAY and MAP columns are left out), minValues/maxValues only
	// where exact: integers, DATE, TIMESTAMP (ISO 8601 with milliseconds,
	// truncated down as Delta specifies), DECIMAL, and STRING (longer than
	// MaxStatsStringLength: a truncated prefix as min, a prefix and a
	// tie-breaker as max, as Spark writes them). BOOLEAN, FLOAT, DOUBLE and
	// BINARY get null counts only.
	Stats string
}

// Writer writes one Parquet data file in the canonical layout of a schema
// (data page v1, dictionary-encoded strings up to DictionaryMaxBytes, no
// page statistics) and
// computes Delta statistics while it writes. It is not safe for concurrent
// use: run one Writer per goroutine.
type Writer struct {
	w      *parquet.Writer
	cw     *countingWriter
	leaves []Leaf
	stats  []colStats
	rows   int64
	err    error
}

// NewWriter returns a Writer of canonical rows of schema s to out.
func NewWriter(out io.Writer, s types.Schema, opts WriterOptions) *Writer {
	var codec compress.Codec = &parquet.Snappy
	switch opts.Codec {
	case Zstd:
		codec = &zstd.Codec{Level: zstd.SpeedDefault}
	case Uncompressed:
		codec = &parquet.Uncompressed
	}
	rg := opts.RowGroupRows
	if rg <= 0 {
		rg = DefaultRowGroupRows
	}
	leaves := Leaves(s)
	cw := &countingWriter{w: out}
	options := []parquet.WriterOption{
		SchemaFor(s),
		parquet.Compression(codec),
		parquet.DataPageVersion(1),
		parquet.DataPageStatistics(false),
		parquet.MaxRowsPerRowGroup(int64(rg)),
		// Like parquet-mr's parquet.dictionary.page.size, smaller: see
		// DictionaryMaxBytes.
		parquet.DictionaryMaxBytes(DictionaryMaxBytes),
		parquet.CreatedBy("pipegen", "", ""),
	}
	for _, l := range leaves {
		options = append(options, parquet.SkipPageBounds(l.Path...))
	}
	w := &Writer{
		w:      parquet.NewWriter(cw, options...),
		cw:     cw,
		leaves: leaves,
		stats:  make([]colStats, len(leaves)),
	}
	for i, l := range leaves {
		w.stats[i].init(l)
	}
	return w
}

// Write writes rows, each in the canonical layout of the Writer's schema
// (values ordered by column index). The rows may be reused once it returns.
func (w *Writer) Write(rows []parquet.Row) (err error) {
	if w.err != nil {
		return w.err
	}
	defer func() {
		if p := recover(); p != nil {
			w.err = fmt.Errorf("write: rows not in the schema's canonical layout: %v", p)
			err = w.err
		}
	}()
	for _, row := range rows {
		for i := range row {
			v := &row[i]
			c := v.Column()
			if c >= len(w.stats) {
				w.err = fmt.Errorf("write: row value of column %d out of range (%d leaf columns)", c, len(w.stats))
				return w.err
			}
			w.stats[c].add(v)
		}
	}
	if _, err := w.w.WriteRows(rows); err != nil {
		w.err = fmt.Errorf("write: %w", err)
		return w.err
	}
	w.rows += int64(len(rows))
	return nil
}

// Close flushes the file's last row group and footer and returns its size
// and statistics. It does not close the underlying io.Writer.
func (w *Writer) Close() (info FileInfo, err error) {
	if w.err != nil {
		return FileInfo{}, w.err
	}
	defer func() {
		if p := recover(); p != nil {
			w.err = fmt.Errorf("close: %v", p)
			info, err = FileInfo{}, w.err
		}
	}()
	if err := w.w.Close(); err != nil {
		return FileInfo{}, fmt.Errorf("close: %w", err)
	}
	return FileInfo{Size: w.cw.n, NumRecords: w.rows, Stats: w.statsJSON()}, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

type statKind uint8

const (
	statNone     statKind = iota // null count only
	statInt                      // int32/int64 physical, compared as int64
	statDecBytes                 // FIXED_LEN_BYTE_ARRAY decimal
	statString
	statSkip // inside ARRAY or MAP: no statistics
)

type colStats struct {
	kind   statKind
	typ    types.Type
	maxDef int
	nulls  int64
	has    bool
	minI   int64
	maxI   int64
	minD   types.Decimal
	maxD   types.Decimal
	minS   string
	maxS   string
}

func (s *colStats) init(l Leaf) {
	s.typ, s.maxDef = l.Type, l.MaxDef
	switch {
	case l.Repeated:
		s.kind = statSkip
	case l.Type.IsIntegral(), l.Type.Kind == types.DateKind, l.Type.Kind == types.TimestampKind, l.Type.Kind == types.TimestampNTZKind:
		s.kind = statInt
	case l.Type.Kind == types.DecimalKind && l.Physical != parquet.FixedLenByteArray:
		s.kind = statInt
	case l.Type.Kind == types.DecimalKind:
		s.kind = statDecBytes
	case l.Type.Kind == types.StringKind:
		s.kind = statString
	}
}

func (s *colStats) add(v *parquet.Value) {
	if s.kind == statSkip {
		return
	}
	if v.DefinitionLevel() < s.maxDef {
		s.nulls++
		return
	}
	switch s.kind {
	case statInt:
		var x int64
		if v.Kind() == parquet.Int32 {
			x = int64(v.Int32())
		} else {
			x = v.Int64()
		}
		if !s.has || x < s.minI {
			s.minI = x
		}
		if !s.has || x > s.maxI {
			s.maxI = x
		}
	case statDecBytes:
		d, err := decFromBytes(v.ByteArray())
		if err != nil {
			return
		}
		if !s.has || d.Cmp(s.minD) < 0 {
			s.minD = d
		}
		if !s.has || d.Cmp(s.maxD) > 0 {
			s.maxD = d
		}
	case statString:
		b := v.ByteArray()
		if !s.has || string(b) < s.minS {
			s.minS = string(b)
		}
		if !s.has || string(b) > s.maxS {
			s.maxS = string(b)
		}
	}
	s.has = true
}

// bound renders the min (max=false) or max statistic as JSON, or "" when
// there is none.
func (s *colStats) bound(max bool) string {
	if !s.has {
		return ""
	}
	switch s.kind {
	case statInt:
		x := s.minI
		if max {
			x = s.maxI
		}
		switch s.typ.Kind {
		case types.DateKind:
			return strconv.Quote(types.Date(x).String())
		case types.TimestampKind:
			return strconv.Quote(types.Timestamp(x).Time().Truncate(1e6).Format("2006-01-02T15:04:05.000Z07:00"))
		case types.TimestampNTZKind:
			return strconv.Quote(types.Timestamp(x).Time().Truncate(1e6).Format("2006-01-02T15:04:05.000"))
		case types.DecimalKind:
			return types.DecimalFromInt64(x).Format(s.typ.Scale)
		}
		return strconv.FormatInt(x, 10)
	case statDecBytes:
		if max {
			return s.maxD.Format(s.typ.Scale)
		}
		return s.minD.Format(s.typ.Scale)
	case statString:
		x, ok := s.minS, true
		if max {
			x = s.maxS
		}
		if !utf8.ValidString(x) {
			return ""
		}
		if !max {
			x = truncateMinString(x, MaxStatsStringLength)
		} else if x, ok = truncateMaxString(x, MaxStatsStringLength); !ok {
			return "" // no upper bound short enough
		}
		b, _ := json.Marshal(x)
		return string(b)
	}
	return ""
}

// statsJSON renders the Delta stats object with keys in schema order.
func (w *Writer) statsJSON() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"numRecords":%d`, w.rows)
	section := func(name string, value func(*colStats) string) {
		var sb bytes.Buffer
		w.writeNested(&sb, value)
		if sb.Len() > 2 {
			fmt.Fprintf(&b, `,%q:`, name)
			b.Write(sb.Bytes())
		}
	}
	section("minValues", func(s *colStats) string { return s.bound(false) })
	section("maxValues", func(s *colStats) string { return s.bound(true) })
	section("nullCount", func(s *colStats) string {
		if s.kind == statSkip {
			return ""
		}
		return strconv.FormatInt(s.nulls, 10)
	})
	b.WriteByte('}')
	return b.String()
}

// writeNested writes {"a":1,"s":{"x":2}} from the leaves' StatsPaths,
// leaving out leaves whose value is "" and objects that end up empty.
func (w *Writer) writeNested(b *bytes.Buffer, value func(*colStats) string) {
	type entry struct {
		path []string
		val  string
	}
	var entries []entry
	for i, l := range w.leaves {
		if l.StatsPath == nil {
			continue
		}
		if v := value(&w.stats[i]); v != "" {
			entries = append(entries, entry{l.StatsPath, v})
		}
	}
	var write func(depth int, es []entry)
	write = func(depth int, es []entry) {
		b.WriteByte('{')
		for i := 0; i < len(es); {
			j := i + 1
			name := es[i].path[depth]
			if len(es[i].path) > depth+1 {
				for j < len(es) && len(es[j].path) > depth+1 && es[j].path[depth] == name {
					j++
				}
			}
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(name)
			b.Write(k)
			b.WriteByte(':')
			if len(es[i].path) > depth+1 {
				write(depth+1, es[i:j])
			} else {
				b.WriteString(es[i].val)
			}
			i = j
		}
		b.WriteByte('}')
	}
	write(0, entries)
}
