package parquetio

import (
	"fmt"
	"math/big"

	"github.com/pipegen/pipegen/runtime/types"
)

// flbaBytes[p] is the FIXED_LEN_BYTE_ARRAY length Spark uses for
// DECIMAL(p, _): the fewest bytes n with 2^(8n-1) >= 10^p, so that every
// p-digit value fits in two's complement (Spark's
// Decimal.minBytesForPrecision).
var flbaBytes = func() (t [types.MaxDecimalPrecision + 1]int) {
	for p := range t {
		ten := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
		n := 1
		for new(big.Int).Lsh(big.NewInt(1), uint(8*n-1)).Cmp(ten) < 0 {
			n++
		}
		t[p] = n
	}
	return t
}()

// decimalBytes returns the canonical FIXED_LEN_BYTE_ARRAY length of
// DECIMAL(precision, _).
func decimalBytes(precision int) int {
	if precision < 0 || precision > types.MaxDecimalPrecision {
		return 16
	}
	return flbaBytes[precision]
}

// decFromBytes decodes Parquet's big-endian two's complement DECIMAL bytes.
func decFromBytes(b []byte) (types.Decimal, error) {
	d, ok := types.DecimalFromBytes(b)
	if !ok {
		return d, fmt.Errorf("decimal of %d bytes does not fit 128 bits", len(b))
	}
	return d, nil
}

// rescaleDec changes the scale of an unscaled value exactly: it fails when
// digits would be lost or the result has more than precision digits.
func rescaleDec(d types.Decimal, from, to, precision int) (types.Decimal, error) {
	var out types.Decimal
	if to >= from {
		var ok bool
		if out, ok = d.Rescale(from, to); !ok {
			return out, fmt.Errorf("decimal %s does not fit precision %d", d.Format(from), precision)
		}
	} else {
		out = d.Trunc(from, to)
		if back, _ := out.Rescale(to, from); back != d {
			return out, fmt.Errorf("decimal %s does not fit scale %d", d.Format(from), to)
		}
	}
	if !out.FitsPrecision(precision) {
		return out, fmt.Errorf("decimal %s does not fit precision %d", d.Format(from), precision)
	}
	return out, nil
}
