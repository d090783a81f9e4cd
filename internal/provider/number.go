package provider

import (
	"math"
	"strconv"
)

// Number is a JSON number as JavaScript's JSON.parse reads it: a number
// beyond float64's range is ±Inf (which [limit.Count] clamps), and a
// value of another type reads as 0, never failing the document.
type Number float64

// UnmarshalJSON reads data; it never fails.
func (n *Number) UnmarshalJSON(data []byte) error {
	v, err := strconv.ParseFloat(string(data), 64)
	if err != nil && !math.IsInf(v, 0) {
		v = 0
	}
	*n = Number(v)
	return nil
}
