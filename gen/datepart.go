package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/spec/sql"
)

// datePart compiles date_part('FIELD', x) as the checker left it: a
// strict call of the helper computing the field (sql.DatePartHelper).
func (c *exprCompiler) datePart(b *block, e *sql.Call) val {
	fn, ok := sql.DatePartHelper(e)
	if !ok {
		uncompilable("date_part(%s, %s)", sql.FormatExpr(e.Args[0]), e.Args[1].ResultType())
	}
	x := c.compile(b, e.Args[1])
	return val{v: jen.Qual(pkgSQLFn, fn).Call(x.v), ok: x.ok, t: e.Type}
}
