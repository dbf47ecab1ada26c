package gen

import (
	"fmt"

	"github.com/pipegen/pipegen/runtime/types"
)

// UnsupportedError reports a construct that type-checks but that the code
// generator cannot compile yet. Pos is the byte offset in the SQL text of
// the flow or dataset named by Where.
type UnsupportedError struct {
	Where string // "dataset orders_silver" or "flow eu_orders"
	// Flow is the name of the flow whose query holds the construct ("" if
	// none); Pos is the offset in its SQL text (spec.Flow.SQLPos), 0 when
	// unknown.
	Flow string
	Pos  int
	What string
	// Internal, when set, is a failure of the generator itself (a bug, not
	// a missing construct): the value it panicked with. Generate returns
	// it as an error instead of crashing the caller.
	Internal string
}

func (e *UnsupportedError) Error() string {
	if e.Internal != "" {
		return fmt.Sprintf("%s: the code generator failed on this query (%s); this is a pipegen bug, please report it", e.Where, e.Internal)
	}
	return fmt.Sprintf("%s: %s is not supported by the code generator yet", e.Where, e.What)
}

// asUnsupported turns a value recovered from a panic of the generator into
// an *UnsupportedError (Internal when it is not one already).
func asUnsupported(r any) *UnsupportedError {
	if ue, ok := r.(*UnsupportedError); ok {
		return ue
	}
	return &UnsupportedError{Internal: fmt.Sprint(r)}
}

// uncompilable aborts compilation on a construct that sql.Uncompilable
// reports, so that spec rejected it before gen ran: for checked input it is
// unreachable. Generate recovers it into an internal *UnsupportedError (a
// pipegen bug: the checker and the generator disagree).
func uncompilable(format string, args ...any) {
	panic(fmt.Sprintf("gen: "+format+", which sql.Uncompilable rejects", args...))
}

// undecodable aborts compilation on a column of a file source whose type
// (or the type t inside it) spec.Undecodable rejects, so that spec
// rejected the source before gen ran: for checked input it is unreachable.
func undecodable(format, column string, t types.Type) {
	panic(fmt.Sprintf("gen: %s column %s of type %s, which spec.Undecodable rejects", format, column, t))
}
