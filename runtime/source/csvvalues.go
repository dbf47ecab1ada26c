package source

import (
	"bytes"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/types"
)

// isNull reports whether a field is NULL for any column type: an unquoted
// empty field, or the null_value text.
func (d *CSVDecoder) isNull(f *csvField) bool {
	if len(f.text) == 0 && !f.quoted {
		return true
	}
	return d.copts.NullValue != "" && string(f.text) == d.copts.NullValue && !f.escaped
}

// field returns the field of schema column col, or nil when it is NULL for
// a non-STRING type (missing, NULL, or empty) or the record is malformed.
func (d *CSVDecoder) field(col int) *csvField {
	if d.bad || col < 0 || col >= len(d.colField) {
		return nil
	}
	fi := d.colField[col]
	if fi < 0 || fi >= len(d.fields) {
		return nil
	}
	f := &d.fields[fi]
	if d.isNull(f) {
		return nil
	}
	if len(f.text) == 0 {
		if !f.quoted || len(d.empty.text) == 0 {
			return nil
		}
		d.empty.off = f.off
		return &d.empty
	}
	return f
}

// mismatch records that column col's field does not fit typ.
func (d *CSVDecoder) mismatch(col int, f *csvField, typ string) {
	fi := d.colField[col]
	if d.opts.OnMalformed == Fail {
		line, lineNo, off := d.physicalLine(f.off)
		d.fail(line, lineNo, off, d.columns[col], fmt.Sprintf("CSV value %q is not a valid %s", truncate(d.unquote(f), 64), typ))
		return
	}
	d.resc.addText(d.names[fi], d.unquote(f))
}

// String reads STRING column col: the field's text with quotes undone, ""
// for a quoted empty field, NULL for a missing column, an unquoted empty
// field or the null_value text.
func (d *CSVDecoder) String(col int) types.Null[string] {
	if d.bad || col < 0 || col >= len(d.colField) {
		return types.Null[string]{}
	}
	fi := d.colField[col]
	if fi < 0 || fi >= len(d.fields) {
		return types.Null[string]{}
	}
	f := &d.fields[fi]
	if d.isNull(f) {
		return types.Null[string]{}
	}
	if f.quoted && len(f.text) == 0 && d.copts.EmptyValue != "" {
		return types.Some(d.copts.EmptyValue)
	}
	t := d.unquote(f)
	if !d.recASCII && !utf8.Valid(t) {
		d.arena.reserve(len(t) + 8)
		m := d.arena.mark()
		d.arena.buf = append(d.arena.buf, bytes.ToValidUTF8(t, []byte("\ufffd"))...)
		return types.Some(d.arena.stringFrom(m))
	}
	return types.Some(bytesString(t))
}

// Bool reads BOOLEAN column col: "true" or "false" in any case (Scala's
// toBoolean, as Spark); other text is a mismatch (NULL, rescued).
func (d *CSVDecoder) Bool(col int) types.Null[bool] {
	f := d.field(col)
	if f == nil {
		return types.Null[bool]{}
	}
	v, ok := parseBoolText(d.unquote(f))
	if !ok {
		d.mismatch(col, f, "BOOLEAN")
	}
	return types.Null[bool]{V: v, Valid: ok}
}

func (d *CSVDecoder) integer(col int, lo, hi int64, typ string) (int64, bool) {
	f := d.field(col)
	if f == nil {
		return 0, false
	}
	t := d.unquote(f)
	v, ok := parseInt(t, lo, hi)
	if !ok {
		line, lineNo, off := d.physicalLine(f.off)
		if !d.integerOverflow(d.columns[col], typ, t, line, lineNo, off) {
			d.mismatch(col, f, typ)
		}
	}
	return v, ok
}

// Int8 reads TINYINT column col (see Int64).
func (d *CSVDecoder) Int8(col int) types.Null[int8] {
	v, ok := d.integer(col, math.MinInt8, math.MaxInt8, "TINYINT")
	return types.Null[int8]{V: int8(v), Valid: ok}
}

// Int16 reads SMALLINT column col (see Int64).
func (d *CSVDecoder) Int16(col int) types.Null[int16] {
	v, ok := d.integer(col, math.MinInt16, math.MaxInt16, "SMALLINT")
	return types.Null[int16]{V: int16(v), Valid: ok}
}

// Int32 reads INT column col (see Int64).
func (d *CSVDecoder) Int32(col int) types.Null[int32] {
	v, ok := d.integer(col, math.MinInt32, math.MaxInt32, "INT")
	return types.Null[int32]{V: int32(v), Valid: ok}
}

// Int64 reads BIGINT column col: [+-]digits within the type's range (Java's
// Long.parseLong, as Spark); anything else ("1.0", " 1", out of range) is a
// mismatch (NULL, rescued). Empty is NULL.
func (d *CSVDecoder) Int64(col int) types.Null[int64] {
	v, ok := d.integer(col, math.MinInt64, math.MaxInt64, "BIGINT")
	return types.Null[int64]{V: v, Valid: ok}
}

// Float32 reads FLOAT column col (see Float64).
func (d *CSVDecoder) Float32(col int) types.Null[float32] {
	v, ok := d.float(col, 32, "FLOAT")
	return types.Null[float32]{V: float32(v), Valid: ok}
}

// Float64 reads DOUBLE column col: Java's Double.parseDouble syntax plus
// Spark's "NaN", "Inf" and "-Inf"; other text is a mismatch. Empty is NULL.
func (d *CSVDecoder) Float64(col int) types.Null[float64] {
	v, ok := d.float(col, 64, "DOUBLE")
	return types.Null[float64]{V: v, Valid: ok}
}

func (d *CSVDecoder) float(col, bitSize int, typ string) (float64, bool) {
	f := d.field(col)
	if f == nil {
		return 0, false
	}
	t := d.unquote(f)
	if nan := d.copts.NaNValue; nan != "" && string(t) == nan {
		return math.NaN(), true
	}
	v, ok := parseFloatText(t, bitSize)
	if !ok {
		d.mismatch(col, f, typ)
	}
	return v, ok
}

// Decimal reads DECIMAL(precision, scale) column col: BigDecimal syntax,
// commas ignored, rounded HALF_UP to scale; more than precision digits is a
// mismatch (see JSONDecoder.Decimal). Empty is NULL.
func (d *CSVDecoder) Decimal(col, precision, scale int) types.Null[types.Decimal] {
	f := d.field(col)
	if f == nil {
		return types.Null[types.Decimal]{}
	}
	t := d.unquote(f)
	v, ok := parseDecimal(t, precision, scale, true)
	if !ok {
		line, lineNo, off := d.physicalLine(f.off)
		if !d.decimalOverflow(d.columns[col], precision, scale, t, true, line, lineNo, off) {
			d.mismatch(col, f, fmt.Sprintf("DECIMAL(%d,%d)", precision, scale))
		}
	}
	return types.Null[types.Decimal]{V: v, Valid: ok}
}

// Date reads DATE column col (forms in the package doc). Empty is NULL.
func (d *CSVDecoder) Date(col int) types.Null[types.Date] {
	f := d.field(col)
	if f == nil {
		return types.Null[types.Date]{}
	}
	v, ok := d.tp.parseDate(d.unquote(f))
	if !ok {
		d.mismatch(col, f, "DATE")
	}
	return types.Null[types.Date]{V: v, Valid: ok}
}

// Timestamp reads TIMESTAMP column col (forms in the package doc; without a
// zone, in Options.TimeZone). Empty is NULL.
func (d *CSVDecoder) Timestamp(col int) types.Null[types.Timestamp] {
	return d.timestamp(col, false)
}

// TimestampNTZ reads TIMESTAMP_NTZ column col: as Timestamp, but a zone is a
// mismatch and the wall-clock time is kept.
func (d *CSVDecoder) TimestampNTZ(col int) types.Null[types.Timestamp] {
	return d.timestamp(col, true)
}

func (d *CSVDecoder) timestamp(col int, ntz bool) types.Null[types.Timestamp] {
	f := d.field(col)
	if f == nil {
		return types.Null[types.Timestamp]{}
	}
	v, ok := d.tp.parseTimestamp(d.unquote(f), ntz)
	if !ok {
		typ := "TIMESTAMP"
		if ntz {
			typ = "TIMESTAMP_NTZ"
		}
		d.mismatch(col, f, typ)
	}
	return types.Null[types.Timestamp]{V: types.Timestamp(v), Valid: ok}
}

// Binary reads BINARY column col: the field's bytes, as Spark's CSV reader
// takes a string's bytes (no base64). Empty is NULL. The slice's capacity
// ends at its length.
func (d *CSVDecoder) Binary(col int) types.Null[[]byte] {
	f := d.field(col)
	if f == nil {
		return types.Null[[]byte]{}
	}
	t := d.unquote(f)
	return types.Some(t[:len(t):len(t)])
}
