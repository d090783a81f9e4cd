package agentcore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/pi-go/agentcore/internal/jsonscan"
)

// jsInt is an integer field read from JSON a JavaScript program wrote: any
// JSON number is accepted, as JavaScript holds every number as a double. A
// fraction is truncated toward zero and a value beyond int64 saturates, so
// a token count of 1.5 or a timestamp of 12345678901234567890 decodes
// rather than failing the whole message. null leaves the zero value.
type jsInt int64

// UnmarshalJSON reads any JSON number.
func (n *jsInt) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if string(data) == "null" {
		return nil
	}
	if i, err := strconv.ParseInt(string(data), 10, 64); err == nil {
		*n = jsInt(i)
		return nil
	}
	f, err := strconv.ParseFloat(string(data), 64)
	if err != nil && !isRangeErr(err) {
		return fmt.Errorf("agentcore: %s is not a number", data)
	}
	*n = jsInt(saturate(f))
	return nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// saturate converts f to int64, truncating toward zero and clamping to
// the int64 range.
func saturate(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// jsIntPtr is jsInt for an optional field: nil when absent or null.
func jsIntPtr(p *jsInt) *int64 {
	if p == nil {
		return nil
	}
	v := int64(*p)
	return &v
}

// UnmarshalJSON reads a usage, its token counts as [jsInt]: any JSON
// number, a fraction truncated and a value beyond int64 saturated.
func (u *Usage) UnmarshalJSON(data []byte) error {
	var out Usage
	if scan(data, func(s *jsonscan.Scanner) bool { out.scan(s); return true }) {
		*u = out
		return nil
	}
	return u.unmarshalJSON(data)
}

// unmarshalJSON is UnmarshalJSON with encoding/json alone.
func (u *Usage) unmarshalJSON(data []byte) error {
	var w struct {
		Input        jsInt  `json:"input"`
		Output       jsInt  `json:"output"`
		CacheRead    jsInt  `json:"cacheRead"`
		CacheWrite   jsInt  `json:"cacheWrite"`
		CacheWrite1h *jsInt `json:"cacheWrite1h"`
		Reasoning    *jsInt `json:"reasoning"`
		TotalTokens  jsInt  `json:"totalTokens"`
		Cost         Cost   `json:"cost"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*u = Usage{Input: int64(w.Input), Output: int64(w.Output), CacheRead: int64(w.CacheRead),
		CacheWrite: int64(w.CacheWrite), CacheWrite1h: jsIntPtr(w.CacheWrite1h), Reasoning: jsIntPtr(w.Reasoning),
		TotalTokens: int64(w.TotalTokens), Cost: w.Cost}
	return nil
}
