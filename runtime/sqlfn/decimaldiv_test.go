package sqlfn

import (
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// DIV of decimals truncates toward zero (Spark's IntegralDivide;
// decimalArithmeticOperations.sql.out: 10.00 div 3.0 is 3).
func TestDecimalIntDiv(t *testing.T) {
	d := types.DecimalFromInt64
	tests := []struct {
		a      types.Decimal
		as     int
		b      types.Decimal
		bs     int
		want   int64
		wantOK bool
	}{
		{d(1000), 2, d(30), 1, 3, true},
		{d(-75), 1, d(2), 0, -3, true},
		{d(75), 1, d(-15), 1, -5, true},
		{d(1), 1, d(15), 1, 0, true},
		{d(1), 0, d(0), 3, 0, false},
	}
	for _, tt := range tests {
		got, ok := DecimalIntDiv(tt.a, tt.as, tt.b, tt.bs)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("DecimalIntDiv(%v/%d, %v/%d) = %d, %v; want %d, %v", tt.a, tt.as, tt.b, tt.bs, got, ok, tt.want, tt.wantOK)
		}
	}
}
