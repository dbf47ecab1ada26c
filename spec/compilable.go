package spec

import (
	"fmt"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// uncompilable reports the constructs of a checked query or expression
// that the code generator cannot compile (sql.Uncompilable), each at its
// position in text and named with where holds it ("flow orders"), as
// validate and build show them. They do not fail the dataset: its columns
// are known, so the queries that read it are checked too and every such
// construct of the pipeline is reported at once.
func (r *resolver) uncompilable(text Str, where string, errs []*sql.Error) {
	for _, e := range errs {
		e.Message = where + ": " + e.Message
	}
	r.sqlErrors(text, 0, errs)
}

// This file also decides what of a spec outside its SQL the generator
// compiles: the column types the decoders of file sources read, and the
// sequence_by columns of AUTO CDC flows. Package gen asks the same
// functions (DecodedKind, Undecodable, SequenceByCompiles) and treats a
// construct they reject as an internal error.

// DecodedKind reports whether the decoders of JSON and CSV sources read a
// flat value of kind k with a typed read of their own (sql.DecodedKind).
func DecodedKind(k types.Kind) bool { return sql.DecodedKind(k) }

// Undecodable returns the type inside t (t itself, or an element, value or
// field type) that the generated decoder of a file source of format f
// cannot read, with why it cannot ("map keys other than STRING", or ""),
// and ok false; ok is true when it reads t. JSON reads what
// sql.JSONUndecodable accepts (from_json uses the same decoder); CSV reads
// only the flat kinds (its nested types are refused as Spark refuses them,
// UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE); Parquet and the generic formats
// (FileFormat.Generic) read every type through the row codec.
func Undecodable(f FileFormat, t types.Type) (bad types.Type, why string, ok bool) {
	switch {
	case sql.DecodedKind(t.Kind) || f == FormatParquet || f.Generic():
		return types.Type{}, "", true
	case f == FormatJSON:
		return sql.JSONUndecodable(t)
	}
	return t, "", false
}

// undecodable reports each declared column of file source s that its
// generated decoder cannot read (Undecodable), at the column's name in
// the schema text. CSV's nested columns are left to addSource, which
// refuses them as Spark does. The source does not fail: its columns are
// known, so what reads it is checked too.
func (r *resolver) undecodable(s *Source, schema Str) {
	if s.Kind != FileSource || s.Files == nil {
		return
	}
	f := s.Files.Format
	for i, c := range s.Schema {
		if f == FormatCSV && c.Type.IsNested() {
			continue
		}
		bad, why, ok := Undecodable(f, c.Type)
		if ok {
			continue
		}
		msg := fmt.Sprintf("%s column %s of type %s", strings.ToUpper(string(f)), c.Name, bad)
		hint := fmt.Sprintf("declare %s STRING and convert it in the query, e.g. CAST(%s AS %s)", types.QuoteIdent(c.Name), types.QuoteIdent(c.Name), bad)
		switch {
		case bad.Kind == types.VoidKind:
			hint = fmt.Sprintf("declare %s STRING: a VOID column holds only NULL", types.QuoteIdent(c.Name))
		case why != "":
			msg += ": " + why
			hint = "declare the map's keys STRING (JSON object keys are strings) and convert them in the query with transform_keys"
		case f == FormatCSV:
			msg += " (CSV holds flat values only, as in Spark)"
		}
		r.errorf(columnPos(schema, i), "UNSUPPORTED_FEATURE", hint, "source %s: %s is not supported yet", s.Name, msg)
	}
}

// SequenceByCompiles reports whether an AUTO CDC flow can sequence its
// changes by a column of type t: a flat value the runtime compares
// (runtime.SequenceValue), not an ARRAY, MAP or STRUCT.
func SequenceByCompiles(t types.Type) bool { return !t.IsNested() }

// unsequenceable reports each sequence_by column of AUTO CDC flow fn whose
// type SequenceByCompiles rejects, at its entry in sequence_by. The flow
// does not fail: its target's columns are known.
func (r *resolver) unsequenceable(fn *flowNode, cols []Column) {
	for _, s := range fn.cdc.SequenceBy.Items {
		i := indexOfColumn(cols, s.Value)
		if i < 0 || SequenceByCompiles(cols[i].Type) {
			continue
		}
		r.errorf(s.Pos, "UNSUPPORTED_FEATURE", "sequence by flat columns, such as a number or a timestamp; list several in order instead of a STRUCT: sequence_by: [a, b]",
			"flow %s: sequence_by column %s of type %s is not supported yet", fn.name, cols[i].Name, cols[i].Type)
	}
}
