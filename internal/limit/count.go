package limit

import "math"

// Count is a token count a server reported, as a usage count: clamped to
// 0…math.MaxInt64 and truncated. A negative count (or NaN) is 0 and one
// of 2⁶³ or more is math.MaxInt64, where int64(f) would wrap, or give what
// the CPU gives; so a hostile or broken server cannot make a cost or a
// metric negative.
func Count(f float64) int64 {
	switch {
	case !(f > 0): // negative, zero or NaN
		return 0
	case f >= math.MaxInt64: // float64(math.MaxInt64) is 2⁶³
		return math.MaxInt64
	}
	return int64(f)
}

// Sum is the sum of counts (each in 0…math.MaxInt64, as [Count] makes
// them), saturating at math.MaxInt64.
func Sum(counts ...int64) int64 {
	var total int64
	for _, c := range counts {
		if c > math.MaxInt64-total {
			return math.MaxInt64
		}
		total += c
	}
	return total
}
