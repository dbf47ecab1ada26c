package gen

import "fmt"

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
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s: %s is not supported by the code generator yet", e.Where, e.What)
}

// unsupported aborts compilation of the current query; Generate recovers it
// into an *UnsupportedError.
func (c *exprCompiler) unsupported(pos int, format string, args ...any) {
	panic(&UnsupportedError{Pos: pos, What: fmt.Sprintf(format, args...)})
}
