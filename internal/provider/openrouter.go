package provider

import (
	"encoding/json"
	"strings"

	"github.com/pi-go/agentcore"
)

// IsOpenRouter reports whether model, sent to baseURL, is served through
// OpenRouter, as pi-ai tells: by its provider or its base URL.
func IsOpenRouter(model agentcore.Model, baseURL string) bool {
	return model.Provider == "openrouter" || strings.Contains(baseURL, "openrouter.ai")
}

// OpenRouterCost is what OpenRouter adds to a response's usage object:
// the cost it billed. Embed it in a usage's wire struct; its members are
// kept as sent, so that no value of theirs fails the usage.
type OpenRouterCost struct {
	Cost        json.RawMessage `json:"cost"`
	IsBYOK      json.RawMessage `json:"is_byok"`
	CostDetails json.RawMessage `json:"cost_details"`
}

// Apply replaces u's total cost, computed from the model's rates, with
// the cost OpenRouter billed when c reports it completely, as pi-ai does:
// the cost alone when is_byok is false, the cost plus the upstream
// inference cost (or its prompt and completion parts) when it is true.
// TotalFromProvider then says so; an incomplete report leaves u as it is.
func (c OpenRouterCost) Apply(u *agentcore.Usage) {
	cost, ok := validCost(c.Cost)
	if !ok {
		return
	}
	switch string(c.IsBYOK) {
	case "false":
	case "true":
		var details struct {
			Upstream    json.RawMessage `json:"upstream_inference_cost"`
			Prompt      json.RawMessage `json:"upstream_inference_prompt_cost"`
			Completions json.RawMessage `json:"upstream_inference_completions_cost"`
		}
		if json.Unmarshal(c.CostDetails, &details) != nil {
			return
		}
		upstream, ok := validCost(details.Upstream)
		if string(details.Upstream) == "null" {
			prompt, okPrompt := validCost(details.Prompt)
			completions, okCompletions := validCost(details.Completions)
			upstream, ok = prompt+completions, okPrompt && okCompletions
		}
		if !ok {
			return
		}
		cost += upstream
	default:
		return
	}
	u.Cost.Total = cost
	u.Cost.TotalFromProvider = new(true)
}

// validCost returns v as a cost: a JSON number that is not negative.
func validCost(v json.RawMessage) (float64, bool) {
	var n float64
	if len(v) == 0 || string(v) == "null" || json.Unmarshal(v, &n) != nil || n < 0 {
		return 0, false
	}
	return n, true
}
