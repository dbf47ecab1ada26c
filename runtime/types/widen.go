package types

// Widens reports whether a column of type from may change to type to by
// Delta's type widening (protocol, "Type Widening", the supported type
// changes): BYTE → SMALLINT → INT → BIGINT; FLOAT → DOUBLE; BYTE, SMALLINT
// or INT → DOUBLE; DATE → TIMESTAMP_NTZ; DECIMAL(p,s) → DECIMAL(p+k1,s+k2)
// with k1 ≥ k2 ≥ 0 (no fewer digits on either side of the point); BYTE,
// SMALLINT or INT → DECIMAL(10+k1,k2) and BIGINT → DECIMAL(20+k1,k2) with
// k1 ≥ k2 ≥ 0. Equal types (nullability aside) do not widen. Only
// primitive types widen here: a change inside a STRUCT, ARRAY or MAP is
// not one of these.
func Widens(from, to Type) bool {
	if from.EqualIgnoringNullability(to) {
		return false
	}
	rank := integerRank
	switch {
	case rank[from.Kind] > 0 && rank[to.Kind] > 0:
		return rank[from.Kind] < rank[to.Kind]
	case from.Kind == FloatKind && to.Kind == DoubleKind:
		return true
	case rank[from.Kind] > 0 && rank[from.Kind] <= 3 && to.Kind == DoubleKind:
		return true
	case from.Kind == DateKind && to.Kind == TimestampNTZKind:
		return true
	case from.Kind == DecimalKind && to.Kind == DecimalKind:
		return to.Scale >= from.Scale && to.Precision-to.Scale >= from.Precision-from.Scale
	case rank[from.Kind] > 0 && to.Kind == DecimalKind:
		digits := 10 // INT and narrower
		if from.Kind == LongKind {
			digits = 20
		}
		return to.Precision-to.Scale >= digits
	}
	return false
}

// integerRank orders the integer kinds by width (0 for any other kind).
var integerRank = map[Kind]int{ByteKind: 1, ShortKind: 2, IntKind: 3, LongKind: 4}

// IntegerTypeFor returns the narrowest integer type wider than from that
// holds an integer of the given decimal digits (an optional sign, no
// leading zeros needed): SMALLINT, INT or BIGINT, or DECIMAL(38,0) beyond
// BIGINT. ok is false when no such type exists (more than 38 digits, or a
// from that is not an integer type).
func IntegerTypeFor(from Type, digits string) (t Type, ok bool) {
	rank := integerRank
	if rank[from.Kind] == 0 {
		return Type{}, false
	}
	neg := len(digits) > 0 && digits[0] == '-'
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		digits = digits[1:]
	}
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	if digits == "" || len(digits) > MaxDecimalPrecision {
		return Type{}, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return Type{}, false
		}
	}
	limits := []struct {
		t        Type
		max, min string // magnitudes of the bounds
	}{
		{ShortType, "32767", "32768"},
		{IntType, "2147483647", "2147483648"},
		{LongType, "9223372036854775807", "9223372036854775808"},
	}
	for _, l := range limits {
		bound := l.max
		if neg {
			bound = l.min
		}
		if rank[l.t.Kind] > rank[from.Kind] && (len(digits) < len(bound) || len(digits) == len(bound) && digits <= bound) {
			return l.t, true
		}
	}
	return DecimalOf(MaxDecimalPrecision, 0), true
}
