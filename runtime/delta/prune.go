package delta

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

// PruneTerm is one conjunct of a query's filter that file skipping can
// use: Column (a top-level column, by its logical name) compared with
// constants. Op is one of "=", "<", "<=", ">", ">=" (Values holds one
// constant), "in" (Values holds the list) or "is null" (no Values).
// Class is how the reader typed the column: "int" (any integer type),
// "date", "timestamp", "timestamp_ntz" or "string". Constants are int64
// for the integer types, days since the epoch for DATE, microseconds since
// the epoch for the timestamps, and string for STRING. A term whose class
// or constants do not fit the table's column is ignored (never skips a
// file).
type PruneTerm struct {
	Column string
	Op     string
	Class  string
	Values []any
}

// Pruner decides which files of a table a filter made of PruneTerms (a
// conjunction) cannot match, from their partition values and min/max/
// nullCount statistics (protocol, "Per-file Statistics"). Skipping is
// conservative: a file is skipped only when its values or statistics
// prove that no row satisfies some term; a file without statistics, a
// column without them, or a value that does not parse keeps the file.
type Pruner struct {
	terms []pruneCol
}

// pruneCol is a term bound to its column: type, physical name (the key of
// partition values and statistics) and whether it partitions the table.
type pruneCol struct {
	PruneTerm
	t         types.Type
	key       string
	partition bool
}

// NewPruner returns the Pruner of terms over the table of snapshot s (its
// schema, partition columns and column mapping); terms naming unknown or
// nested columns, or of types pruning does not handle, are dropped. It
// returns nil when no term is left.
func NewPruner(s *Snapshot, terms []PruneTerm) *Pruner {
	if s == nil || len(terms) == 0 {
		return nil
	}
	var mapping *cmNode
	if l := s.Layout(); l.mapping != nil {
		mapping = l.mapping
	}
	p := &Pruner{}
	for _, t := range terms {
		i := s.Schema.Index(t.Column)
		if i < 0 {
			continue
		}
		f := s.Schema[i]
		if PruneClass(f.Type) == "" || PruneClass(f.Type) != t.Class || (t.Op != "is null" && len(t.Values) == 0) {
			continue
		}
		c := pruneCol{PruneTerm: t, t: f.Type, key: f.Name}
		if mapping != nil {
			n := mapping.fields[strings.ToLower(f.Name)]
			if n == nil {
				continue
			}
			c.key = n.physical
		}
		for _, pc := range s.Metadata.PartitionColumns {
			if strings.EqualFold(pc, f.Name) {
				c.partition = true
				if mapping == nil {
					c.key = pc // as the reader looks partition values up
				}
			}
		}
		if !valuesFit(c.t, t.Values) {
			continue
		}
		p.terms = append(p.terms, c)
	}
	if len(p.terms) == 0 {
		return nil
	}
	return p
}

// PruneClass is the PruneTerm class of a column of type t: "int",
// "date", "timestamp", "timestamp_ntz", "string", or "" when pruning
// ignores the type.
func PruneClass(t types.Type) string {
	switch t.Kind {
	case types.ByteKind, types.ShortKind, types.IntKind, types.LongKind:
		return "int"
	case types.DateKind:
		return "date"
	case types.TimestampKind:
		return "timestamp"
	case types.TimestampNTZKind:
		return "timestamp_ntz"
	case types.StringKind:
		return "string"
	}
	return ""
}

func valuesFit(t types.Type, vs []any) bool {
	for _, v := range vs {
		switch v.(type) {
		case int64:
			if c := PruneClass(t); c == "string" || c == "" {
				return false
			}
		case string:
			if PruneClass(t) != "string" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// fileStats is the part of a file's statistics pruning reads.
type fileStats struct {
	NumRecords *int64                     `json:"numRecords"`
	MinValues  map[string]json.RawMessage `json:"minValues"`
	MaxValues  map[string]json.RawMessage `json:"maxValues"`
	NullCount  map[string]json.RawMessage `json:"nullCount"`
}

// Skip reports whether no row of the file with partition values pv and
// statistics JSON stats can satisfy every term.
func (p *Pruner) Skip(pv PartitionValues, stats string) bool {
	if p == nil {
		return false
	}
	var st *fileStats
	for _, c := range p.terms {
		if c.partition {
			if c.skipPartition(pv[c.key]) {
				return true
			}
			continue
		}
		if st == nil {
			st = &fileStats{}
			if stats == "" || json.Unmarshal([]byte(stats), st) != nil {
				st = &fileStats{}
			}
		}
		if c.skipStats(st) {
			return true
		}
	}
	return false
}

// skipPartition: every row of the file has the partition value s ("" is
// NULL).
func (c pruneCol) skipPartition(s string) bool {
	v, err := parquetio.ParsePartitionValue(s, c.t)
	if err != nil {
		return false
	}
	if c.Op == "is null" {
		return v != nil
	}
	if v == nil {
		return true // NULL satisfies no comparison
	}
	x, ok := comparable(v)
	if !ok {
		return false
	}
	for _, lit := range c.Values {
		if c.holds(x, x, false, lit) {
			return false
		}
	}
	return true
}

// skipStats: the file's values of the column lie within [min, max] (max
// possibly truncated), NULLs aside.
func (c pruneCol) skipStats(st *fileStats) bool {
	nulls, hasNulls := jsonInt(st.NullCount[c.key])
	if c.Op == "is null" {
		return hasNulls && nulls == 0
	}
	if hasNulls && st.NumRecords != nil && nulls == *st.NumRecords {
		return true // only NULLs: no comparison holds
	}
	lo, okLo := c.statValue(st.MinValues[c.key], false)
	hi, okHi := c.statValue(st.MaxValues[c.key], true)
	if !okLo || !okHi {
		return false
	}
	for _, lit := range c.Values {
		if c.holds(lo, hi, true, lit) {
			return false
		}
	}
	return true
}

// holds reports whether some value in [lo, hi] may satisfy `col op lit`
// (lo == hi for a partition value). For strings from statistics, hiPrefix
// says hi may be a truncated prefix: any string starting with hi may lie
// in the file too.
func (c pruneCol) holds(lo, hi any, hiPrefix bool, lit any) bool {
	switch l := lit.(type) {
	case int64:
		a, b := lo.(int64), hi.(int64)
		switch c.Op {
		case "=", "in":
			return a <= l && l <= b
		case "<":
			return a < l
		case "<=":
			return a <= l
		case ">":
			return b > l
		case ">=":
			return b >= l
		}
	case string:
		a, b := lo.(string), hi.(string)
		// When hi may be a truncated prefix, any string that starts with
		// it may be in the file as well (the writer's tie-breaker aside).
		upTo := func(s string) bool { return s <= b || (hiPrefix && strings.HasPrefix(s, b)) }
		switch c.Op {
		case "=", "in":
			return a <= l && upTo(l)
		case "<":
			return a < l
		case "<=":
			return a <= l
		case ">":
			return b > l || (hiPrefix && strings.HasPrefix(l, b))
		case ">=":
			return upTo(l) || b >= l
		}
	}
	return true
}

// comparable is a partition value as the int64 or string holds compares.
func comparable(v any) (any, bool) {
	if s, ok := v.(string); ok {
		return s, true
	}
	if n, ok := types.Int64Of(v); ok { // intervals never are: Delta stores none
		return n, true
	}
	return nil, false
}

// statValue decodes a min (max: upper) statistic of the column. Timestamp
// statistics have millisecond precision: the maximum is taken up to the
// end of its millisecond.
func (c pruneCol) statValue(raw json.RawMessage, upper bool) (any, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false
	}
	switch c.t.Kind {
	case types.StringKind:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		return s, true
	case types.DateKind:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		tm, err := time.Parse("2006-01-02", s)
		if err != nil {
			return nil, false
		}
		return int64(types.DateOf(tm)), true
	case types.TimestampKind, types.TimestampNTZKind:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		layouts := []string{time.RFC3339Nano}
		if c.t.Kind == types.TimestampNTZKind {
			layouts = []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"}
			// A file written while the column was a DATE (type widening
			// DATE → TIMESTAMP_NTZ) holds date statistics: its values
			// read as midnight, exactly.
			if tm, err := time.Parse("2006-01-02", s); err == nil {
				return int64(types.TimestampOf(tm)), true
			}
		}
		for _, l := range layouts {
			if tm, err := time.Parse(l, s); err == nil {
				us := int64(types.TimestampOf(tm))
				// Statistics hold milliseconds: the true value is within
				// a millisecond either side, whichever way it was cut.
				if upper {
					us += 999
				} else {
					us -= 999
				}
				return us, true
			}
		}
		return nil, false
	default:
		n, ok := jsonInt(raw)
		return n, ok
	}
}

// jsonInt decodes a JSON integer.
func jsonInt(raw json.RawMessage) (int64, bool) {
	if len(raw) == 0 {
		return 0, false
	}
	var n int64
	if json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	return n, true
}
