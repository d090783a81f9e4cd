package provider

import (
	"math"
	"strconv"

	"github.com/pi-go/agentcore/internal/limit"
)

// Number is a JSON number as JavaScript's JSON.parse reads it: a number
// beyond float64's range is ±Inf (JavaScript's ±Infinity), and a value
// of another type reads as 0, never failing the document. Every
// provider reads a server's token counts as Numbers and makes counts of
// them with [Number.Count], so that one rule, the clamp of [limit.Count],
// holds whatever the server sends.
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

// Count is n as a token count: [limit.Count] of it.
func (n Number) Count() int64 { return limit.Count(float64(n)) }
