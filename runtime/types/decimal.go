package types

// Decimal is a DECIMAL(p,s) value: a signed 128-bit unscaled integer in two's
// complement (Hi holds the high 64 bits with the sign, Lo the low 64 bits).
// The value is unscaled × 10^-s; the scale s is a property of the column's
// type and is not stored in the value, as in Spark and Parquet.
type Decimal struct {
	Hi int64
	Lo uint64
}

// DecimalFromInt64 returns the Decimal whose unscaled value is v.
func DecimalFromInt64(v int64) Decimal {
	return Decimal{Hi: v >> 63, Lo: uint64(v)}
}

// IsInt64 reports whether the unscaled value fits in an int64.
func (d Decimal) IsInt64() bool { return d.Hi == int64(d.Lo)>>63 }

// Int64 returns the unscaled value's low 64 bits as an int64; it is exact
// when IsInt64 reports true.
func (d Decimal) Int64() int64 { return int64(d.Lo) }

// Sign returns -1, 0 or +1.
func (d Decimal) Sign() int {
	switch {
	case d.Hi < 0:
		return -1
	case d.Hi == 0 && d.Lo == 0:
		return 0
	}
	return 1
}
