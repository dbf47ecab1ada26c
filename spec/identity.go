package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/pipegen/pipegen/spec/sql"
)

// Definition returns the identity of the flow's compiled definition, as
// the generated program's runtime.Flow.Definition holds it: a hash of the
// flow kind, its query, its target's schema and expectations and, for AUTO
// CDC, its settings. Two builds whose flow has the same definition refresh
// it the same way; `pipegen diff` compares them.
func (f *Flow) Definition() string {
	var exps []string
	for _, e := range f.Target.Expectations {
		exps = append(exps, e.Name+"="+e.Text+"/"+e.Action.String())
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s", f.Kind, f.SQL, f.Target.Schema().String(), strings.Join(exps, ";"), f.AutoCDC.definition())
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// StateDefinition returns the identity of what a stateful streaming flow
// keeps in its checkpoint (runtime.Watermark.State), "" for a stateless
// flow: the stateful operator with its keys, aggregates and their types,
// by column name. Filters and projections around the operator, the
// expectations, comments and the watermark delay are not part of it: a
// query may change them and keep its state, as Structured Streaming
// allows. A different state definition needs a full refresh.
func (f *Flow) StateDefinition() string {
	st := f.Stateful
	if st == nil {
		return ""
	}
	line, _, _ := strings.Cut(sql.FormatPlan(st.Op), "\n")
	if st.Kind == sql.DeduplicationWithinWatermark {
		// The state holds only each key's expiry, not the rows.
		line, _, _ = strings.Cut(line, " -> ")
	}
	// Name columns, not their positions in the operator's input.
	line = columnRef.ReplaceAllString(line, "")
	h := sha256.Sum256([]byte(st.Kind.String() + "\x00" + line))
	return hex.EncodeToString(h[:])[:16]
}

// columnRef matches the input positions FormatPlan writes after column
// names (amount#3).
var columnRef = regexp.MustCompile(`#[0-9]+`)

// Summary describes an AUTO CDC flow's settings in one line, by column
// name: keys, sequence_by, SCD type, the target's columns and which of the
// optional settings are set (the generated function's comment; part of
// the flow's Definition).
func (a *AutoCDC) Summary() string {
	names := func(idx []int) string {
		out := make([]string, len(idx))
		for i, j := range idx {
			out[i] = a.SourceColumns[j].Name
		}
		return strings.Join(out, ", ")
	}
	s := fmt.Sprintf("keys (%s), sequence_by (%s), SCD type %d, columns (%s)", names(a.Keys), names(a.SequenceBy), a.SCDType, names(a.Columns))
	if a.ApplyAsDeletes != nil {
		s += ", deletes"
	}
	if a.ApplyAsTruncates != nil {
		s += ", truncates"
	}
	if a.IgnoreNullUpdates {
		s += ", ignore_null_updates"
	}
	if a.TrackHistory != nil {
		s += ", track_history (" + names(a.TrackHistory) + ")"
	}
	return s
}

// definition is what identifies an AUTO CDC flow's definition beyond its
// target's schema: its settings and the text of its conditions ("" for a
// flow that is not AUTO CDC).
func (a *AutoCDC) definition() string {
	if a == nil {
		return ""
	}
	s := a.Summary() + "; source " + a.Source.Name
	if a.ApplyAsDeletes != nil {
		s += "; deletes " + sql.FormatExpr(a.ApplyAsDeletes)
	}
	if a.ApplyAsTruncates != nil {
		s += "; truncates " + sql.FormatExpr(a.ApplyAsTruncates)
	}
	return s
}
