package sqlfn

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pipegen/pipegen/runtime/types"
)

// Printf returns format_string(format, args...) (alias printf) as
// Spark, which hands its arguments to java.util.Formatter in their
// internal form: a DATE is its day number, a TIMESTAMP its microseconds
// (both print as integers), a DECIMAL prints as its text and is not a
// number to %d or %f. args are the arguments' Go values, nil for NULL
// (printed "null"). Conversions: %s %S %b %B %c %d %o %x %X %e %E %f %g %G
// %h %% %n, with argument indexes (%2$s, %<s), the flags - # + space 0 , (
// and width and precision. ok is false where Java throws (an unknown
// conversion, a missing argument, a value of the wrong kind).
func Printf(format string, args ...any) (string, bool) {
	var b strings.Builder
	next, last := 0, -1
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		spec, n, ok := parseFormatSpec(format[i+1:])
		if !ok {
			return "", false
		}
		i += n
		switch spec.conv {
		case '%':
			b.WriteString(padField("%", spec))
			continue
		case 'n':
			b.WriteByte('\n')
			continue
		}
		idx := next
		switch {
		case spec.relative:
			idx = last
		case spec.index > 0:
			idx = spec.index - 1
		default:
			next++
		}
		if idx < 0 || idx >= len(args) {
			return "", false
		}
		last = idx
		s, ok := formatArg(args[idx], spec)
		if !ok {
			return "", false
		}
		b.WriteString(s)
	}
	return b.String(), true
}

type formatSpec struct {
	index                              int
	relative                           bool
	minus, alt, plus, space, zero, grp bool
	paren                              bool
	width, prec                        int
	conv                               byte
}

// parseFormatSpec parses what follows a %.
func parseFormatSpec(s string) (formatSpec, int, bool) {
	sp := formatSpec{width: -1, prec: -1}
	i := 0
	num := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if j == i {
			return -1
		}
		v, _ := strconv.Atoi(s[j:i])
		return v
	}
	// An argument index: digits followed by '$'.
	if j := strings.IndexByte(s, '$'); j > 0 {
		if v, err := strconv.Atoi(s[:j]); err == nil {
			sp.index, i = v, j+1
		}
	}
flags:
	for i < len(s) {
		switch s[i] {
		case '-':
			sp.minus = true
		case '#':
			sp.alt = true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '0':
			sp.zero = true
		case ',':
			sp.grp = true
		case '(':
			sp.paren = true
		case '<':
			sp.relative = true
		default:
			break flags
		}
		i++
	}
	sp.width = num()
	if i < len(s) && s[i] == '.' {
		i++
		if sp.prec = num(); sp.prec < 0 {
			return sp, 0, false
		}
	}
	if i >= len(s) {
		return sp, 0, false
	}
	sp.conv = s[i]
	return sp, i + 1, true
}

func padField(s string, sp formatSpec) string {
	n := utf8.RuneCountInString(s)
	if sp.width <= n {
		return s
	}
	fill := strings.Repeat(" ", sp.width-n)
	if sp.minus {
		return s + fill
	}
	return fill + s
}

// formatArg renders one argument for a conversion.
func formatArg(v any, sp formatSpec) (string, bool) {
	upper := sp.conv >= 'A' && sp.conv <= 'Z'
	out := func(s string) (string, bool) {
		if sp.prec >= 0 && (sp.conv == 's' || sp.conv == 'S' || sp.conv == 'b' || sp.conv == 'B') {
			s = s[:byteOffset(s, sp.prec)]
		}
		if upper {
			s = Upper(s)
		}
		return padField(s, sp), true
	}
	switch sp.conv {
	case 's', 'S':
		return out(javaString(v))
	case 'b', 'B':
		switch x := v.(type) {
		case nil:
			return out("false")
		case bool:
			return out(strconv.FormatBool(x))
		}
		return out("true")
	case 'h', 'H':
		if v == nil {
			return out("null")
		}
		return "", false
	case 'c', 'C':
		switch x := v.(type) {
		case nil:
			return out("null")
		case int8, int16, int32:
			n, _ := types.Int64Of(x)
			return out(string(rune(n)))
		}
		return "", false
	}
	if v == nil {
		return padField("null", sp), true
	}
	switch sp.conv {
	case 'd', 'o', 'x', 'X':
		n, ok := integerArg(v)
		if !ok {
			return "", false
		}
		return formatInteger(n, v, sp), true
	case 'e', 'E', 'f', 'g', 'G':
		var f float64
		switch x := v.(type) {
		case float64:
			f = x
		case float32:
			f = float64(x)
		default:
			return "", false
		}
		return formatFloat(f, sp), true
	}
	return "", false
}

// javaString is String.valueOf of an argument in Spark's internal form.
func javaString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return CastFloat64String(x)
	case float32:
		return CastFloat32String(x)
	case types.Date:
		return strconv.Itoa(int(x))
	case types.Timestamp:
		return strconv.FormatInt(int64(x), 10)
	case []byte:
		return "[B@" + strconv.FormatInt(int64(len(x)), 16)
	}
	if n, ok := integerArg(v); ok {
		return strconv.FormatInt(n, 10)
	}
	return FormatValue(v)
}

func integerArg(v any) (int64, bool) {
	switch x := v.(type) {
	case int8, int16, int32, int64:
		return types.Int64Of(x)
	case types.Date:
		return int64(x), true
	case types.Timestamp:
		return int64(x), true
	}
	return 0, false
}

// formatInteger renders %d %o %x %X; negative values in %o and %x are the
// two's complement of the argument's width, as Java.
func formatInteger(n int64, v any, sp formatSpec) string {
	var digits string
	neg := false
	switch sp.conv {
	case 'd':
		neg = n < 0
		u := uint64(n)
		if neg {
			u = uint64(-n)
		}
		digits = strconv.FormatUint(u, 10)
		if sp.grp {
			digits = groupThousands(digits)
		}
	default:
		u := uint64(n)
		switch v.(type) {
		case int8:
			u = uint64(uint8(n))
		case int16:
			u = uint64(uint16(n))
		case int32, types.Date:
			u = uint64(uint32(n))
		}
		base := 16
		if sp.conv == 'o' {
			base = 8
		}
		digits = strconv.FormatUint(u, base)
		if sp.conv == 'X' {
			digits = strings.ToUpper(digits)
		}
		if sp.alt {
			digits = map[byte]string{'o': "0", 'x': "0x", 'X': "0X"}[sp.conv] + digits
		}
	}
	return signAndPad(digits, neg, sp)
}

// signAndPad applies the sign flags, zero padding and width.
func signAndPad(digits string, neg bool, sp formatSpec) string {
	prefix, suffix := "", ""
	switch {
	case neg && sp.paren:
		prefix, suffix = "(", ")"
	case neg:
		prefix = "-"
	case sp.plus:
		prefix = "+"
	case sp.space:
		prefix = " "
	}
	if sp.zero && !sp.minus {
		for len(prefix)+len(digits)+len(suffix) < sp.width {
			digits = "0" + digits
		}
	}
	return padField(prefix+digits+suffix, sp)
}

func groupThousands(d string) string {
	intPart, frac := d, ""
	if i := strings.IndexByte(d, '.'); i >= 0 {
		intPart, frac = d[:i], d[i:]
	}
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String() + frac
}

// formatFloat renders %e %f %g with Java's HALF_UP rounding of the
// shortest decimal text of the value.
func formatFloat(f float64, sp formatSpec) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		s := "NaN"
		if math.IsInf(f, 0) {
			s = "Infinity"
			if f < 0 {
				s = "-Infinity"
			}
		}
		return padField(s, sp)
	}
	prec := sp.prec
	if prec < 0 {
		prec = 6
	}
	neg := math.Signbit(f)
	a := math.Abs(f)
	var digits string
	switch sp.conv {
	case 'f':
		digits = strconv.FormatFloat(roundFloat(a, prec), 'f', prec, 64)
	case 'e', 'E':
		digits = javaExp(a, prec)
	case 'g', 'G':
		if prec == 0 {
			prec = 1
		}
		r := roundSignificant(a, prec)
		if r != 0 && (r < 1e-4 || r >= math.Pow(10, float64(prec))) {
			digits = javaExp(a, prec-1)
		} else {
			exp := 0
			if r != 0 {
				exp = int(math.Floor(math.Log10(r)))
			}
			digits = strconv.FormatFloat(roundFloat(a, prec-1-exp), 'f', max(prec-1-exp, 0), 64)
		}
	}
	if sp.conv == 'E' || sp.conv == 'G' {
		digits = strings.ToUpper(digits)
	}
	if sp.grp && sp.conv != 'e' && sp.conv != 'E' {
		digits = groupThousands(digits)
	}
	return signAndPad(digits, neg, sp)
}

func roundSignificant(a float64, prec int) float64 {
	if a == 0 {
		return 0
	}
	exp := int(math.Floor(math.Log10(a)))
	return roundFloat(a, prec-1-exp)
}

// javaExp renders d.ddde+xx with HALF_UP rounding of the shortest text.
func javaExp(a float64, prec int) string {
	if a == 0 {
		return strconv.FormatFloat(0, 'e', prec, 64)
	}
	exp := int(math.Floor(math.Log10(a)))
	m := roundFloat(a/math.Pow(10, float64(exp)), prec)
	if m >= 10 {
		m /= 10
		exp++
	}
	s := strconv.FormatFloat(m, 'f', prec, 64)
	sign := "+"
	if exp < 0 {
		sign, exp = "-", -exp
	}
	e := strconv.Itoa(exp)
	if len(e) < 2 {
		e = "0" + e
	}
	return s + "e" + sign + e
}
