package parquetio

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// pow10Fits reports whether 2^bits >= 10^p, i.e. whether a two's complement
// integer of bits+1 bits holds every p-digit value.
func pow10Fits(p, bits int) bool {
	two := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	ten := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
	return two.Cmp(ten) >= 0
}

func decToBig(d types.Decimal) *big.Int {
	b := new(big.Int).SetInt64(d.Hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(d.Lo))
}

var (
	minDec = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
	maxDec = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	mask64 = new(big.Int).SetUint64(^uint64(0))
)

func bigToDec(b *big.Int) (types.Decimal, bool) {
	if b.Cmp(minDec) < 0 || b.Cmp(maxDec) > 0 {
		return types.Decimal{}, false
	}
	lo := new(big.Int).And(b, mask64).Uint64()
	hi := new(big.Int).Rsh(b, 64).Int64()
	return types.Decimal{Hi: hi, Lo: lo}, true
}

// decFromBytes decodes a big-endian two's complement integer (Parquet's
// DECIMAL on BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY).
func decFromBytes(b []byte) (types.Decimal, error) {
	if len(b) == 0 {
		return types.Decimal{}, nil
	}
	neg := b[0]&0x80 != 0
	if len(b) > 16 {
		ext := byte(0)
		if neg {
			ext = 0xff
		}
		for _, c := range b[:len(b)-16] {
			if c != ext {
				return types.Decimal{}, fmt.Errorf("decimal of %d bytes does not fit 128 bits", len(b))
			}
		}
		b = b[len(b)-16:]
	}
	var buf [16]byte
	if neg {
		for i := range buf {
			buf[i] = 0xff
		}
	}
	copy(buf[16-len(b):], b)
	var d types.Decimal
	for i := 0; i < 8; i++ {
		d.Hi = d.Hi<<8 | int64(buf[i])
		d.Lo = d.Lo<<8 | uint64(buf[8+i])
	}
	return d, nil
}

// decBytes encodes d as an n-byte big-endian two's complement integer.
func decBytes(dst []byte, d types.Decimal, n int) []byte {
	var buf [16]byte
	for i := 0; i < 8; i++ {
		buf[7-i] = byte(uint64(d.Hi) >> (8 * i))
		buf[15-i] = byte(d.Lo >> (8 * i))
	}
	if n <= 16 {
		return append(dst, buf[16-n:]...)
	}
	ext := byte(0)
	if d.Hi < 0 {
		ext = 0xff
	}
	for i := 16; i < n; i++ {
		dst = append(dst, ext)
	}
	return append(dst, buf[:]...)
}

// compareDec compares two unscaled values of the same scale.
func compareDec(a, b types.Decimal) int {
	switch {
	case a.Hi < b.Hi:
		return -1
	case a.Hi > b.Hi:
		return 1
	case a.Lo < b.Lo:
		return -1
	case a.Lo > b.Lo:
		return 1
	}
	return 0
}

// rescaleDec changes the scale of an unscaled value; it fails when digits
// would be lost or the result does not fit precision digits.
func rescaleDec(d types.Decimal, from, to, precision int) (types.Decimal, error) {
	if from == to && d.IsInt64() && precision >= 19 {
		return d, nil
	}
	b := decToBig(d)
	if to > from {
		b.Mul(b, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(to-from)), nil))
	} else if to < from {
		q, r := new(big.Int).QuoRem(b, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(from-to)), nil), new(big.Int))
		if r.Sign() != 0 {
			return types.Decimal{}, fmt.Errorf("decimal %s does not fit scale %d", formatDec(d, from), to)
		}
		b = q
	}
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(precision)), nil)
	if new(big.Int).Abs(b).Cmp(limit) >= 0 {
		return types.Decimal{}, fmt.Errorf("decimal %s does not fit precision %d", formatDec(d, from), precision)
	}
	out, _ := bigToDec(b)
	return out, nil
}

// formatDec renders an unscaled value with its scale: "-12.30" for
// (-1230, 2), as Spark casts a DECIMAL to STRING.
func formatDec(d types.Decimal, scale int) string {
	var s string
	if d.IsInt64() {
		s = fmt.Sprint(d.Int64())
	} else {
		s = decToBig(d).String()
	}
	if scale <= 0 {
		return s
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if neg {
		s = "-" + s
	}
	return s
}

// parseDec parses a decimal literal ("12.3", "-0.5", "1E+2") into an
// unscaled value of the given scale; digits beyond the scale must be zero.
func parseDec(s string, scale, precision int) (types.Decimal, error) {
	r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
	if !ok {
		return types.Decimal{}, fmt.Errorf("invalid decimal %q", s)
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	if !r.IsInt() {
		return types.Decimal{}, fmt.Errorf("decimal %q has more than %d digits after the point", s, scale)
	}
	b := r.Num()
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(precision)), nil)
	if new(big.Int).Abs(b).Cmp(limit) >= 0 {
		return types.Decimal{}, fmt.Errorf("decimal %q does not fit DECIMAL(%d,%d)", s, precision, scale)
	}
	d, _ := bigToDec(b)
	return d, nil
}
