package provider

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// TestOpenRouterCost applies usage reports to a usage whose computed total
// is 1; the totals are pi-ai 1.6.0's for the same reports.
func TestOpenRouterCost(t *testing.T) {
	for _, tt := range []struct {
		name   string
		usage  string
		total  float64
		billed bool
	}{
		{"billed", `{"cost": 0.0123, "is_byok": false}`, 0.0123, true},
		{"free", `{"cost": 0, "is_byok": false}`, 0, true},
		{"BYOK with upstream cost", `{"cost": 0.001, "is_byok": true, "cost_details": {"upstream_inference_cost": 0.004}}`, 0.005, true},
		{"BYOK with upstream parts", `{"cost": 0.001, "is_byok": true, "cost_details": {"upstream_inference_cost": null,
			"upstream_inference_prompt_cost": 0.002, "upstream_inference_completions_cost": 0.003}}`, 0.006, true},
		{"BYOK with a part missing", `{"cost": 0.001, "is_byok": true, "cost_details": {"upstream_inference_cost": null, "upstream_inference_prompt_cost": 0.002}}`, 1, false},
		{"BYOK without upstream cost", `{"cost": 0.001, "is_byok": true, "cost_details": {}}`, 1, false},
		{"BYOK without details", `{"cost": 0.001, "is_byok": true}`, 1, false},
		{"BYOK with details null", `{"cost": 0.001, "is_byok": true, "cost_details": null}`, 1, false},
		{"no BYOK flag", `{"cost": 0.01}`, 1, false},
		{"cost as text", `{"cost": "0.5", "is_byok": false}`, 1, false},
		{"cost null", `{"cost": null, "is_byok": false}`, 1, false},
		{"negative cost", `{"cost": -1, "is_byok": false}`, 1, false},
		{"no cost", `{"prompt_tokens": 5}`, 1, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var c OpenRouterCost
			require.NoError(t, json.Unmarshal([]byte(tt.usage), &c))
			u := agentcore.Usage{Cost: agentcore.Cost{Total: 1, TotalFromProvider: new(false)}}
			c.Apply(&u)
			assert.InDelta(t, tt.total, u.Cost.Total, 1e-12)
			assert.Equal(t, tt.billed, *u.Cost.TotalFromProvider)
		})
	}
}

func TestIsOpenRouter(t *testing.T) {
	assert.True(t, IsOpenRouter(agentcore.Model{Provider: "openrouter"}, "https://example.com"))
	assert.True(t, IsOpenRouter(agentcore.Model{Provider: "custom"}, "https://openrouter.ai/api/v1"))
	assert.False(t, IsOpenRouter(agentcore.Model{Provider: "openai"}, "https://api.openai.com/v1"))
}
