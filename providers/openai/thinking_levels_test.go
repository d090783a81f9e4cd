package openai

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// TestReasoningReadsTheLevelMap checks the reasoning fields sent for
// models with pi-ai's level maps, in the openai and openrouter formats.
func TestReasoningReadsTheLevelMap(t *testing.T) {
	str := func(s string) *string { return &s }
	model := func(compat string, m agentcore.ThinkingLevelMap) agentcore.Model {
		return agentcore.Model{ID: "m", Provider: "p", API: "openai-completions", Reasoning: true, Compat: json.RawMessage(compat), ThinkingLevelMap: m}
	}
	const effortCompat, routerCompat = `{"supportsReasoningEffort":true}`, `{"thinkingFormat":"openrouter"}`
	mapped := agentcore.ThinkingLevelMap{agentcore.ThinkingOff: str("minimal"), agentcore.ThinkingHigh: str("max"), agentcore.ThinkingXHigh: str("xhigh")}
	noOff := agentcore.ThinkingLevelMap{agentcore.ThinkingOff: nil}
	tests := []struct {
		name  string
		model agentcore.Model
		level agentcore.ThinkingLevel
		want  string
	}{
		{"openai, no map", model(effortCompat, nil), agentcore.ThinkingMax, `"reasoning_effort":"high"`},
		{"openai, mapped", model(effortCompat, mapped), agentcore.ThinkingHigh, `"reasoning_effort":"max"`},
		{"openai, xhigh mapped", model(effortCompat, mapped), agentcore.ThinkingMax, `"reasoning_effort":"xhigh"`},
		{"openai, off mapped", model(effortCompat, mapped), "", `"reasoning_effort":"minimal"`},
		{"openai, off without a map", model(effortCompat, nil), "", ``},
		{"openrouter, mapped", model(routerCompat, mapped), agentcore.ThinkingHigh, `"reasoning":{"effort":"max"}`},
		{"openrouter, off mapped", model(routerCompat, mapped), "", `"reasoning":{"effort":"minimal"}`},
		{"openrouter, off", model(routerCompat, nil), "", `"reasoning":{"effort":"none"}`},
		{"openrouter, off unsupported", model(routerCompat, noOff), "", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := resolveSettings(Options{}, tt.model, DefaultBaseURL)
			require.NoError(t, err)
			body, err := json.Marshal(buildRequest(tt.model, nil, agentcore.StreamOptions{Reasoning: tt.level}, s))
			require.NoError(t, err)
			if tt.want == "" {
				assert.NotContains(t, string(body), `"reasoning`)
				return
			}
			assert.Contains(t, string(body), tt.want)
		})
	}
}
