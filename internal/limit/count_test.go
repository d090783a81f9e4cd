package limit

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCount(t *testing.T) {
	tests := []struct {
		name string
		in   float64
		want int64
	}{
		{name: "a count", in: 1234, want: 1234},
		{name: "a fraction is truncated", in: 7.9, want: 7},
		{name: "zero", in: 0, want: 0},
		{name: "negative", in: -7, want: 0},
		{name: "hugely negative", in: -99999999999999999999, want: 0},
		{name: "2^63", in: 1 << 63, want: math.MaxInt64},
		{name: "1e300", in: 1e300, want: math.MaxInt64},
		{name: "infinity", in: math.Inf(1), want: math.MaxInt64},
		{name: "minus infinity", in: math.Inf(-1), want: 0},
		{name: "NaN", in: math.NaN(), want: 0},
		{name: "the largest float below 2^63", in: math.Nextafter(1<<63, 0), want: 1<<63 - 1024},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Count(tt.in))
		})
	}
}

func TestSum(t *testing.T) {
	assert.Equal(t, int64(0), Sum())
	assert.Equal(t, int64(6), Sum(1, 2, 3))
	assert.Equal(t, int64(math.MaxInt64), Sum(math.MaxInt64, 1))
	assert.Equal(t, int64(math.MaxInt64), Sum(1, math.MaxInt64, math.MaxInt64))
	assert.Equal(t, int64(math.MaxInt64), Sum(math.MaxInt64-1, 1))
}
