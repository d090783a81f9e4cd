package agentcore

import (
	"encoding/json"
	"reflect"

	"github.com/pi-go/agentcore/internal/jsonscan"
)

// UnmarshalJSON reads a usage. Its counts are JavaScript numbers on pi's
// wire: a count with a fraction (1.5) is truncated toward zero and one
// beyond the int64 range (12345678901234567890, 1e21) is saturated to
// math.MaxInt64 (math.MinInt64 below it), rather than refused. A member
// left out keeps its value in u.
func (u *Usage) UnmarshalJSON(data []byte) error {
	out := *u
	if scan(data, func(s *jsonscan.Scanner) bool { out.scan(s); return true }) {
		*u = out
		return nil
	}
	return u.unmarshalJSON(data)
}

// unmarshalJSON is UnmarshalJSON with encoding/json alone.
func (u *Usage) unmarshalJSON(data []byte) error {
	w := usageWire{Input: jsInt(u.Input), Output: jsInt(u.Output), CacheRead: jsInt(u.CacheRead),
		CacheWrite: jsInt(u.CacheWrite), CacheWrite1h: (*jsInt)(u.CacheWrite1h), Reasoning: (*jsInt)(u.Reasoning),
		TotalTokens: jsInt(u.TotalTokens), Cost: u.Cost}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*u = Usage{Input: int64(w.Input), Output: int64(w.Output), CacheRead: int64(w.CacheRead),
		CacheWrite: int64(w.CacheWrite), CacheWrite1h: (*int64)(w.CacheWrite1h), Reasoning: (*int64)(w.Reasoning),
		TotalTokens: int64(w.TotalTokens), Cost: w.Cost}
	return nil
}

// usageWire is a Usage whose counts are read as JavaScript numbers.
type usageWire struct {
	Input        jsInt  `json:"input"`
	Output       jsInt  `json:"output"`
	CacheRead    jsInt  `json:"cacheRead"`
	CacheWrite   jsInt  `json:"cacheWrite"`
	CacheWrite1h *jsInt `json:"cacheWrite1h"`
	Reasoning    *jsInt `json:"reasoning"`
	TotalTokens  jsInt  `json:"totalTokens"`
	Cost         Cost   `json:"cost"`
}

var usageKeys = []string{"input", "output", "cacheRead", "cacheWrite", "cacheWrite1h", "reasoning", "totalTokens", "cost"}

// scan reads a usage object into u; a member left out keeps its value.
func (u *Usage) scan(s *jsonscan.Scanner) {
	if !s.Object() {
		return
	}
	var seen fields
	for first := true; ; first = false {
		key, ok := s.Key(first)
		if !ok {
			return
		}
		switch string(key) {
		case "input":
			if once(s, &seen, 1<<0) {
				u.Input = s.Int()
			}
		case "output":
			if once(s, &seen, 1<<1) {
				u.Output = s.Int()
			}
		case "cacheRead":
			if once(s, &seen, 1<<2) {
				u.CacheRead = s.Int()
			}
		case "cacheWrite":
			if once(s, &seen, 1<<3) {
				u.CacheWrite = s.Int()
			}
		case "cacheWrite1h":
			if once(s, &seen, 1<<4) {
				u.CacheWrite1h = new(s.Int())
			}
		case "reasoning":
			if once(s, &seen, 1<<5) {
				u.Reasoning = new(s.Int())
			}
		case "totalTokens":
			if once(s, &seen, 1<<6) {
				u.TotalTokens = s.Int()
			}
		case "cost":
			if once(s, &seen, 1<<7) {
				u.Cost.scan(s)
			}
		default:
			unknown(s, key, usageKeys)
		}
		if s.Failed() {
			return
		}
	}
}

var costKeys = []string{"input", "output", "cacheRead", "cacheWrite", "total", "totalFromProvider"}

// scan reads a cost object into c; a member left out keeps its value.
func (c *Cost) scan(s *jsonscan.Scanner) {
	if !s.Object() {
		return
	}
	var seen fields
	for first := true; ; first = false {
		key, ok := s.Key(first)
		if !ok {
			return
		}
		switch string(key) {
		case "input":
			if once(s, &seen, 1<<0) {
				c.Input = s.Float()
			}
		case "output":
			if once(s, &seen, 1<<1) {
				c.Output = s.Float()
			}
		case "cacheRead":
			if once(s, &seen, 1<<2) {
				c.CacheRead = s.Float()
			}
		case "cacheWrite":
			if once(s, &seen, 1<<3) {
				c.CacheWrite = s.Float()
			}
		case "total":
			if once(s, &seen, 1<<4) {
				c.Total = s.Float()
			}
		case "totalFromProvider":
			if once(s, &seen, 1<<5) {
				c.TotalFromProvider = new(s.Bool())
			}
		default:
			unknown(s, key, costKeys)
		}
		if s.Failed() {
			return
		}
	}
}

// jsInt is an int64 field read as a JavaScript number: see
// [Usage.UnmarshalJSON] for how a fraction or a value out of range is
// taken. Any other JSON value but null is refused as encoding/json
// refuses it for an int64.
type jsInt int64

func (n *jsInt) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	v, ok := jsonscan.Int64(data)
	if !ok {
		what := "number"
		switch data[0] {
		case '"':
			what = "string"
		case '{':
			what = "object"
		case '[':
			what = "array"
		case 't', 'f':
			what = "bool"
		}
		return &json.UnmarshalTypeError{Value: what, Type: reflect.TypeFor[int64]()}
	}
	*n = jsInt(v)
	return nil
}
