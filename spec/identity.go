package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
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
	h := sha256.Sum256([]byte(st.Kind.String() + "\x00" + stateLine(st)))
	return hex.EncodeToString(h[:])[:16]
}

// stateLine is the operator's line of the plan, by column name.
func stateLine(st *sql.Stateful) string {
	line, _, _ := strings.Cut(sql.FormatPlan(st.Op), "\n")
	if st.Kind == sql.DeduplicationWithinWatermark {
		// The state holds only each key's expiry, not the rows.
		line, _, _ = strings.Cut(line, " -> ")
	}
	// Name columns, not their positions in the operator's input.
	return columnRef.ReplaceAllString(line, "")
}

// StateShape returns the identity of a stateful flow's state without its
// types (runtime.Watermark.Shape), "" for a stateless flow: the operator,
// its keys and aggregates and its output column names. Two builds with
// the same shape whose StateTypes differ only by widenings of the values
// the state holds keep the state (the runtime upcasts it).
func (f *Flow) StateShape() string {
	st := f.Stateful
	if st == nil {
		return ""
	}
	op, _, _ := strings.Cut(stateLine(st), " -> ")
	parts := []string{st.Kind.String(), op}
	for _, c := range st.Op.Output() {
		parts = append(parts, c.Name)
	}
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:])[:16]
}

// StateTypes returns the types of what a stateful flow's state holds, in
// the operator's order (runtime.Watermark.Types): "key T" for a grouping
// key, a deduplication key or the event time of a deduplication within
// the watermark, "value T" for an aggregate's argument; nil for a
// stateless flow.
func (f *Flow) StateTypes() []string {
	st := f.Stateful
	if st == nil {
		return nil
	}
	var out []string
	add := func(role string, t types.Type) { out = append(out, role+" "+t.String()) }
	switch op := st.Op.(type) {
	case *sql.Aggregate:
		for i := range op.Groups {
			add("key", op.Columns[i].Type)
		}
		for _, a := range op.Aggs {
			for _, e := range a.Args {
				add("value", e.ResultType())
			}
		}
	case *sql.Distinct:
		for _, c := range op.Input.Output() {
			add("key", c.Type)
		}
	case *sql.Window:
		for _, e := range op.PartitionBy {
			add("key", e.ResultType())
		}
		for _, k := range op.OrderBy {
			add("key", k.Expr.ResultType())
		}
	}
	return out
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
