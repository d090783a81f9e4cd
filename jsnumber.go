package agentcore

import (
	"encoding/json"

	"github.com/pi-go/agentcore/internal/jsonscan"
	"github.com/pi-go/agentcore/internal/jsvalue"
)

// jsInt is an integer field read from JSON a JavaScript program wrote:
// any JSON number, a fraction truncated toward zero and a value beyond
// int64 saturated; null leaves the zero value (see [jsvalue.Int]).
type jsInt = jsvalue.Int

// jsIntPtr is jsInt for an optional field: nil when absent or null.
func jsIntPtr(p *jsInt) *int64 { return jsvalue.Int64Ptr(p) }

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
