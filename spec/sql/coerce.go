package sql

import (
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// This file is Spark's type coercion in ANSI mode (AnsiTypeCoercion,
// AnsiStringPromotionTypeCoercion, DecimalPrecision, Cast.canAnsiCast):
// common types of two or more types, implicit casts, the result types of
// DECIMAL arithmetic, and which explicit casts are allowed.

// Widens reports whether from → to is Spark's implicit widening between
// the non-decimal numeric types (TINYINT → SMALLINT → INT → BIGINT →
// FLOAT → DOUBLE), which the generated code does with a plain Go
// conversion.
func Widens(from, to types.Type) bool {
	rf, rt := numericRank(from.Kind), numericRank(to.Kind)
	return rf > 0 && rt > 0 && rf < rt
}

// numericRank orders the non-decimal numeric kinds by precedence.
func numericRank(k types.Kind) int {
	switch k {
	case types.ByteKind:
		return 1
	case types.ShortKind:
		return 2
	case types.IntKind:
		return 3
	case types.LongKind:
		return 4
	case types.FloatKind:
		return 5
	case types.DoubleKind:
		return 6
	}
	return 0
}

// decimalForType is DecimalType.forType: the DECIMAL an integral type fits
// in exactly (TINYINT 3, SMALLINT 5, INT 10, BIGINT 20 digits), and
// DECIMAL(14,7) / DECIMAL(30,15) for FLOAT / DOUBLE.
func decimalForType(t types.Type) types.Type {
	switch t.Kind {
	case types.ByteKind:
		return types.DecimalOf(3, 0)
	case types.ShortKind:
		return types.DecimalOf(5, 0)
	case types.IntKind:
		return types.DecimalOf(10, 0)
	case types.LongKind:
		return types.DecimalOf(20, 0)
	case types.FloatKind:
		return types.DecimalOf(14, 7)
	case types.DoubleKind:
		return types.DecimalOf(30, 15)
	}
	return t
}

// decimalIsWiderThan is DecimalType.isWiderThan: d holds every value of t.
func decimalIsWiderThan(d, t types.Type) bool {
	if t.IsIntegral() {
		t = decimalForType(t)
	}
	if t.Kind != types.DecimalKind {
		return false
	}
	return d.Precision-d.Scale >= t.Precision-t.Scale && d.Scale >= t.Scale
}

// boundedDecimal is DecimalType.bounded: precision and scale capped at 38.
func boundedDecimal(p, s int) types.Type {
	return types.DecimalOf(min(p, types.MaxDecimalPrecision), min(s, types.MaxDecimalPrecision))
}

// widerDecimal is DecimalPrecision.widerDecimalType: a DECIMAL that holds
// every value of both. Beyond 38 digits it keeps the integral digits and
// gives up scale (DecimalType.boundedPreferIntegralDigits, Spark 4.0's
// default since SPARK-45905).
func widerDecimal(a, b types.Type) types.Type {
	scale := max(a.Scale, b.Scale)
	p := max(a.Precision-a.Scale, b.Precision-b.Scale) + scale
	if p <= types.MaxDecimalPrecision {
		return types.DecimalOf(p, scale)
	}
	return types.DecimalOf(types.MaxDecimalPrecision, max(0, scale-(p-types.MaxDecimalPrecision)))
}

// adjustPrecisionScale is DecimalType.adjustPrecisionScale with
// allowPrecisionLoss=true: a result that needs more than 38 digits keeps
// its integral digits and gives up scale, down to 6.
func adjustPrecisionScale(p, s int) types.Type {
	if p <= types.MaxDecimalPrecision {
		return types.DecimalOf(p, s)
	}
	intDigits := p - s
	minScale := min(s, 6)
	return types.DecimalOf(types.MaxDecimalPrecision, max(types.MaxDecimalPrecision-intDigits, minScale))
}

// decimalArithType is the result type of DECIMAL(p1,s1) op DECIMAL(p2,s2)
// (DecimalPrecision's table).
func decimalArithType(op BinaryOp, a, b types.Type) types.Type {
	p1, s1, p2, s2 := a.Precision, a.Scale, b.Precision, b.Scale
	switch op {
	case Add, Sub:
		s := max(s1, s2)
		return adjustPrecisionScale(max(p1-s1, p2-s2)+s+1, s)
	case Mul:
		return adjustPrecisionScale(p1+p2+1, s1+s2)
	case Div:
		s := max(6, s1+p2+1)
		return adjustPrecisionScale(p1-s1+s2+s, s)
	case Mod:
		s := max(s1, s2)
		return adjustPrecisionScale(min(p1-s1, p2-s2)+s, s)
	}
	return widerDecimal(a, b)
}

func isDatetime(k types.Kind) bool {
	return k == types.DateKind || k == types.TimestampKind || k == types.TimestampNTZKind
}

func isTimestamp(k types.Kind) bool {
	return k == types.TimestampKind || k == types.TimestampNTZKind
}

// isAtomic reports whether t is neither nested nor VOID nor invalid.
func isAtomic(t types.Type) bool {
	return t.Kind > types.VoidKind && !t.IsNested()
}

// tightestCommon is AnsiTypeCoercion.findTightestCommonType: a type both
// convert to without losing anything.
func tightestCommon(a, b types.Type) (types.Type, bool) {
	switch {
	case a.Equal(b):
		return a, true
	case a.Kind == types.VoidKind:
		return b, true
	case b.Kind == types.VoidKind:
		return a, true
	case a.IsIntegral() && b.Kind == types.DecimalKind:
		return b, decimalIsWiderThan(b, a)
	case b.IsIntegral() && a.Kind == types.DecimalKind:
		return a, decimalIsWiderThan(a, b)
	case a.IsNumeric() && b.IsNumeric() && a.Kind != types.DecimalKind && b.Kind != types.DecimalKind:
		w := a
		if numericRank(b.Kind) > numericRank(a.Kind) {
			w = b
		}
		if w.Kind == types.FloatKind {
			// An integral type with FLOAT: DOUBLE, not to lose precision.
			return types.DoubleType, true
		}
		return w, true
	case isDatetime(a.Kind) && isDatetime(b.Kind):
		switch {
		case a.Kind == types.TimestampKind || b.Kind == types.TimestampKind:
			return types.TimestampType, true
		case a.Kind == types.TimestampNTZKind || b.Kind == types.TimestampNTZKind:
			return types.TimestampNTZType, true
		}
		return types.DateType, true
	}
	return commonComplex(a, b, tightestCommon)
}

// widerType is AnsiTypeCoercion.findWiderTypeForTwo: the tightest common
// type, else a wider DECIMAL, else DOUBLE for a DECIMAL with a floating
// type, else a type a STRING is promoted to, recursively for nested types.
func widerType(a, b types.Type) (types.Type, bool) {
	if t, ok := tightestCommon(a, b); ok {
		return t, true
	}
	if t, ok := widerDecimalType(a, b); ok {
		return t, true
	}
	if t, ok := stringPromotion(a, b); ok {
		return t, true
	}
	return commonComplex(a, b, widerType)
}

// widerDecimalType is findWiderTypeForDecimal.
func widerDecimalType(a, b types.Type) (types.Type, bool) {
	switch {
	case a.Kind == types.DecimalKind && b.Kind == types.DecimalKind:
		return widerDecimal(a, b), true
	case a.Kind == types.DecimalKind && b.IsIntegral():
		return widerDecimal(a, decimalForType(b)), true
	case b.Kind == types.DecimalKind && a.IsIntegral():
		return widerDecimal(decimalForType(a), b), true
	case a.Kind == types.DecimalKind && b.IsFloating(), b.Kind == types.DecimalKind && a.IsFloating():
		return types.DoubleType, true
	}
	return types.Type{}, false
}

// stringPromotion is findWiderTypeForString: a STRING with an integral
// type gives BIGINT, with a fractional one (DECIMAL included) DOUBLE, with
// NULL STRING, with another atomic type (not an interval) that type.
func stringPromotion(a, b types.Type) (types.Type, bool) {
	if a.Kind != types.StringKind {
		if b.Kind != types.StringKind {
			return types.Type{}, false
		}
		a, b = b, a
	}
	switch {
	case b.IsIntegral():
		return types.LongType, true
	case b.IsFloating() || b.Kind == types.DecimalKind:
		return types.DoubleType, true
	case b.Kind == types.VoidKind:
		return a, true
	case b.IsInterval() || b.Kind == types.StringKind:
		return types.Type{}, false
	case isAtomic(b):
		return b, true
	}
	return types.Type{}, false
}

// commonComplex is findTypeForComplex: arrays, maps and structs of
// pairwise common element, key, value and field types.
func commonComplex(a, b types.Type, f func(a, b types.Type) (types.Type, bool)) (types.Type, bool) {
	if a.Kind != b.Kind {
		return types.Type{}, false
	}
	switch a.Kind {
	case types.ArrayKind:
		e, ok := f(*a.Elem, *b.Elem)
		return types.ArrayOf(e, a.ContainsNull || b.ContainsNull), ok
	case types.MapKind:
		k, ok1 := f(*a.Key, *b.Key)
		v, ok2 := f(*a.Value, *b.Value)
		return types.MapOf(k, v, a.ValueContainsNull || b.ValueContainsNull), ok1 && ok2
	case types.StructKind:
		if len(a.Fields) != len(b.Fields) {
			return types.Type{}, false
		}
		fields := make([]types.Field, len(a.Fields))
		for i, fa := range a.Fields {
			fb := b.Fields[i]
			if !strings.EqualFold(fa.Name, fb.Name) {
				return types.Type{}, false
			}
			t, ok := f(fa.Type, fb.Type)
			if !ok {
				return types.Type{}, false
			}
			fields[i] = types.Field{Name: fa.Name, Type: t, Nullable: fa.Nullable || fb.Nullable}
		}
		return types.StructOf(fields...), true
	}
	return types.Type{}, false
}

// widerAll folds widerType over ts (findWiderCommonType); the common type
// of no types is VOID.
func widerAll(ts []types.Type) (types.Type, bool) {
	w := types.VoidType
	for _, t := range ts {
		var ok bool
		if w, ok = widerType(w, t); !ok {
			return types.Type{}, false
		}
	}
	return w, true
}

// canCast reports whether CAST(x AS to) is allowed for x of type from in
// ANSI mode (Cast.canAnsiCast).
func canCast(from, to types.Type) bool {
	if from.EqualIgnoringNullability(to) || from.Kind == types.VoidKind {
		return true
	}
	fk, tk := from.Kind, to.Kind
	switch {
	case tk == types.StringKind:
		return true
	case fk == types.StringKind:
		return isAtomic(to)
	case from.IsNumeric() && to.IsNumeric():
		return true
	case from.IsNumeric() && tk == types.BooleanKind, fk == types.BooleanKind && to.IsNumeric():
		return true
	case isDatetime(fk) && isDatetime(tk):
		return true
	case from.IsNumeric() && tk == types.TimestampKind, fk == types.TimestampKind && to.IsNumeric():
		return true
	case fk == types.ArrayKind && tk == types.ArrayKind:
		return canCast(*from.Elem, *to.Elem)
	case fk == types.MapKind && tk == types.MapKind:
		return canCast(*from.Key, *to.Key) && canCast(*from.Value, *to.Value)
	case fk == types.StructKind && tk == types.StructKind:
		if len(from.Fields) != len(to.Fields) {
			return false
		}
		for i := range from.Fields {
			if !canCast(from.Fields[i].Type, to.Fields[i].Type) {
				return false
			}
		}
		return true
	}
	return false
}

// implicitArg returns the type an argument of type t is implicitly cast to
// under rule r (AnsiTypeCoercion.implicitCast), and false when t is not
// accepted. Rules that depend on other arguments are handled by the checker.
func implicitArg(t types.Type, r ArgRule) (types.Type, bool) {
	k := t.Kind
	void := k == types.VoidKind
	switch r {
	case ArgNumericOrInterval:
		if t.IsInterval() {
			return t, true
		}
		return implicitArg(t, ArgNumeric)
	case ArgNumeric:
		switch {
		case t.IsNumeric():
			return t, true
		case k == types.StringKind, void:
			return types.DoubleType, true
		}
	case ArgInt:
		if t.IsNumeric() || k == types.StringKind || void {
			return types.IntType, true
		}
	case ArgDouble:
		if t.IsNumeric() || k == types.StringKind || void {
			return types.DoubleType, true
		}
	case ArgString:
		if isAtomic(t) || void {
			return types.StringType, true
		}
	case ArgStringOrBinary:
		switch {
		case k == types.StringKind || k == types.BinaryKind:
			return t, true
		case isAtomic(t) || void:
			return types.StringType, true
		}
	case ArgStringOrStringArray:
		switch {
		case k == types.ArrayKind && t.Elem.Kind == types.StringKind:
			return t, true
		case k == types.ArrayKind && (isAtomic(*t.Elem) || t.Elem.Kind == types.VoidKind):
			return types.ArrayOf(types.StringType, t.ContainsNull), true
		case isAtomic(t) || void:
			return types.StringType, true
		}
	case ArgBoolean:
		if k == types.BooleanKind || k == types.StringKind || void {
			return types.BooleanType, true
		}
	case ArgDate:
		if isDatetime(k) || k == types.StringKind || void {
			return types.DateType, true
		}
	case ArgTimestamp:
		switch {
		case isTimestamp(k):
			return t, true
		case k == types.DateKind || k == types.StringKind || void:
			return types.TimestampType, true
		}
	case ArgDatetime:
		if isDatetime(k) || k == types.StringKind {
			return t, true
		}
		if void {
			return types.StringType, true
		}
	case ArgOrderable:
		if orderable(t) {
			return t, true
		}
	case ArgArray:
		if k == types.ArrayKind {
			return t, true
		}
	case ArgArrayOrMap:
		if k == types.ArrayKind || k == types.MapKind {
			return t, true
		}
	case ArgIntConst:
		if t.IsIntegral() {
			return types.IntType, true
		}
	case ArgStringConst:
		if k == types.StringKind {
			return t, true
		}
	case ArgBooleanConst:
		if k == types.BooleanKind {
			return t, true
		}
	case ArgLong:
		if t.IsNumeric() || k == types.StringKind || void {
			return types.LongType, true
		}
	case ArgNumericCommon:
		switch {
		case t.IsNumeric():
			return t, true
		case k == types.StringKind, void:
			return types.DoubleType, true
		}
	case ArgDoubleConst:
		if t.IsNumeric() {
			return types.DoubleType, true
		}
	case ArgPercentages:
		switch {
		case t.IsNumeric():
			return types.DoubleType, true
		case k == types.ArrayKind && t.Elem.IsNumeric():
			return types.ArrayOf(types.DoubleType, false), true
		}
	case ArgTimestampNTZ:
		if isDatetime(k) || k == types.StringKind || void {
			return types.TimestampNTZType, true
		}
	case ArgLongStringOrBinary:
		switch {
		case t.IsIntegral() || void:
			return types.LongType, true
		case k == types.StringKind || k == types.BinaryKind:
			return t, true
		}
	default:
		if t, ok, handled := moreImplicitArg(t, r); handled {
			return t, ok
		}
		return t, true
	}
	return types.Type{}, false
}

// orderable reports whether values of t can be compared for order (every
// type but MAP, and nested types holding a MAP).
func orderable(t types.Type) bool {
	switch t.Kind {
	case types.MapKind, types.InvalidKind:
		return false
	case types.ArrayKind:
		return orderable(*t.Elem)
	case types.StructKind:
		for _, f := range t.Fields {
			if !orderable(f.Type) {
				return false
			}
		}
	}
	return true
}

// decimalForLiteral is DecimalType.fromLiteral: the smallest DECIMAL(p,0)
// holding an integer literal's value.
func decimalForLiteral(l *Literal) types.Type {
	var v int64
	switch x := l.Value.(type) {
	case int8:
		v = int64(x)
	case int16:
		v = int64(x)
	case int32:
		v = int64(x)
	case int64:
		v = x
	default:
		return decimalForType(l.Type)
	}
	digits := 1
	for u := v; u >= 10 || u <= -10; u /= 10 {
		digits++
	}
	return types.DecimalOf(digits, 0)
}
