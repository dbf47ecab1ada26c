package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec/sql"
)

// castName is the name a kind has in the sqlfn.Cast<From><To> helpers.
func castName(t types.Type) string {
	switch t.Kind {
	case types.BooleanKind:
		return "Bool"
	case types.ByteKind, types.ShortKind, types.IntKind, types.LongKind:
		return "Int64"
	case types.FloatKind, types.DoubleKind:
		return "Float64"
	case types.DecimalKind:
		return "Decimal"
	case types.StringKind:
		return "String"
	case types.BinaryKind:
		return "Binary"
	case types.DateKind:
		return "Date"
	case types.TimestampKind:
		return "Timestamp"
	case types.TimestampNTZKind:
		return "TimestampNTZ"
	case types.IntervalKind:
		return "Interval"
	case types.YearMonthIntervalKind:
		return "YMInterval"
	}
	return ""
}

// cast compiles CAST and TRY_CAST with Spark's ANSI rules: a value that
// cannot be converted fails the row (CAST) or is NULL (TRY_CAST).
//
// Integral and floating types go through int64 and float64 (widening is a
// Go conversion, narrowing is range-checked), every other pair through a
// sqlfn.Cast<From><To> helper; helpers that can fail return (value, ok).
func (c *exprCompiler) cast(b *block, e *sql.Cast) val {
	x := b.bind(c.compile(b, e.X))
	from, to := x.t, e.Type
	if from.Equal(to) || from.Kind == types.VoidKind {
		if from.Kind == types.VoidKind {
			return val{v: c.zero(to), ok: jen.False(), t: to}
		}
		return val{v: x.v, ok: x.ok, t: to}
	}
	if from.IsNested() || to.IsNested() {
		return c.nestedCast(b, e, x)
	}
	// Widening among integral and floating types never fails.
	if sql.Widens(from, to) {
		return val{v: c.reg.baseType(to).Call(x.v.Clone()), ok: x.ok, t: to}
	}
	if from.Kind == types.FloatKind && to.Kind == types.StringKind {
		return val{v: jen.Qual(pkgSQLFn, "CastFloat32String").Call(x.v.Clone()), ok: x.ok, t: to}
	}
	src := x.v.Clone()
	switch from.Kind {
	case types.ByteKind, types.ShortKind, types.IntKind:
		src = jen.Int64().Call(src)
	case types.FloatKind:
		src = jen.Float64().Call(src)
	}
	args := []jen.Code{src}
	if from.Kind == types.DecimalKind {
		args = append(args, jen.Lit(from.Scale))
	}
	if to.Kind == types.DecimalKind {
		args = append(args, jen.Lit(to.Precision), jen.Lit(to.Scale))
	}
	fn := "Cast" + castName(from) + castName(to)
	var res val
	if castCanFail(from, to) {
		v, good := b.fn.tmp("v"), b.fn.tmp("good")
		b.add(jen.List(jen.Id(v), jen.Id(good)).Op(":=").Qual(pkgSQLFn, fn).Call(args...))
		if e.Try {
			res = val{v: jen.Id(v), ok: andOK(cloneOK(x.ok), jen.Id(good)), t: to}
		} else {
			errFn := "ErrCastOverflow"
			if from.Kind == types.StringKind {
				errFn = "ErrCastInvalid"
			}
			b.add(jen.If(okCond(x.ok, jen.Op("!").Id(good))).Block(c.fail(b,
				jen.Qual(pkgSQLFn, errFn).Call(formatValue(from, src), jen.Lit(from.String()), jen.Lit(to.String())))))
			res = val{v: jen.Id(v), ok: cloneOK(x.ok), t: to}
		}
	} else {
		res = val{v: jen.Qual(pkgSQLFn, fn).Call(args...), ok: cloneOK(x.ok), t: to}
	}
	// Narrow the int64 / float64 result to the target's Go type.
	switch to.Kind {
	case types.ByteKind, types.ShortKind, types.IntKind:
		r := b.bind(res)
		n, good := b.fn.tmp("v"), b.fn.tmp("good")
		b.add(jen.List(jen.Id(n), jen.Id(good)).Op(":=").Qual(pkgSQLFn, "NarrowInt").Types(c.reg.baseType(to)).Call(r.v))
		if e.Try {
			return val{v: jen.Id(n), ok: andOK(cloneOK(r.ok), jen.Id(good)), t: to}
		}
		errFn := "ErrCastOverflow"
		if from.Kind == types.StringKind {
			errFn = "ErrCastInvalid"
		}
		b.add(jen.If(okCond(r.ok, jen.Op("!").Id(good))).Block(c.fail(b,
			jen.Qual(pkgSQLFn, errFn).Call(formatValue(from, src), jen.Lit(from.String()), jen.Lit(to.String())))))
		return val{v: jen.Id(n), ok: cloneOK(r.ok), t: to}
	case types.FloatKind:
		return val{v: jen.Float32().Call(res.v), ok: res.ok, t: to}
	}
	return res
}

// castCanFail reports whether CAST(from AS to) can fail on some value.
func castCanFail(from, to types.Type) bool {
	switch to.Kind {
	case types.StringKind, types.BinaryKind:
		return false
	case types.BooleanKind:
		return from.Kind == types.StringKind
	case types.DoubleKind, types.FloatKind:
		return from.Kind == types.StringKind
	case types.DateKind:
		return from.Kind == types.StringKind
	case types.TimestampKind, types.TimestampNTZKind:
		return from.Kind == types.StringKind || from.IsNumeric()
	}
	return true
}

// formatValue returns the Go expression rendering the value x of type t
// for an error message (sqlfn.Format<Kind>; decimals with their scale).
func formatValue(t types.Type, x *jen.Statement) *jen.Statement {
	if t.Kind == types.DecimalKind {
		return jen.Qual(pkgSQLFn, "FormatDecimal").Call(x.Clone(), jen.Lit(t.Scale))
	}
	return jen.Qual(pkgSQLFn, "Format"+castName(t)).Call(x.Clone())
}
