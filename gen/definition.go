package gen

import "github.com/pipegen/pipegen/spec"

// FlowDefinition returns the identity of a flow's compiled definition, as
// the generated program's runtime.Flow.Definition holds it: a hash of the
// flow kind, its query, its target's schema and expectations and, for AUTO
// CDC, its settings. Two builds whose flow has the same definition refresh
// it the same way; `pipegen diff` compares them.
func FlowDefinition(f *spec.Flow) string { return definitionHash(f) }
