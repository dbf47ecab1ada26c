package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"

	"github.com/pipegen/pipegen/spec"
	"github.com/pipegen/pipegen/spec/sql"
)

// FlowDefinition returns the identity of a flow's compiled definition, as
// the generated program's runtime.Flow.Definition holds it: a hash of the
// flow kind, its query, its target's schema and expectations and, for AUTO
// CDC, its settings. Two builds whose flow has the same definition refresh
// it the same way; `pipegen diff` compares them.
func FlowDefinition(f *spec.Flow) string { return definitionHash(f) }

// StateDefinition returns the identity of what a stateful streaming flow
// keeps in its checkpoint (runtime.Watermark.State), "" for a stateless
// flow: the stateful operator with its keys, aggregates and their types,
// by column name. Filters and projections around the operator, the
// expectations, comments and the watermark delay are not part of it: a
// query may change them and keep its state, as Structured Streaming
// allows. A different state definition needs a full refresh.
func StateDefinition(f *spec.Flow) string {
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
