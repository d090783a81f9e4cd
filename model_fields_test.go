package agentcore

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModelJSONRoundTrip decodes models as pi-ai writes them, in
// agentcore.Model's field order, and checks that they come back byte for
// byte, optional fields stated empty included.
func TestModelJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		json string
	}{
		{"hand-written", `{"id":"m","name":"","api":"openai-completions","provider":"local","baseUrl":"http://127.0.0.1:8080/v1","reasoning":false,"input":[],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":0,"maxTokens":0}`},
		{"every field", `{"id":"claude-fable-5","name":"Claude Fable 5","api":"anthropic-messages","provider":"anthropic","baseUrl":"https://api.anthropic.com","reasoning":true,"input":["text","image"],"cost":{"input":10,"output":50,"cacheRead":1,"cacheWrite":12.5,"tiers":[{"inputTokensAbove":200000,"input":20,"output":75,"cacheRead":2,"cacheWrite":25}]},"contextWindow":1000000,"maxTokens":128000,"headers":{"X-A":"1","x-b":"2"},"compat":{"forceAdaptiveThinking":true,"allowedFallbackModels":[{"provider":"anthropic","model":"x"}]},"thinkingLevelMap":{"off":null,"minimal":"low","xhigh":"xhigh","max":"max","turbo":"t"},"promptCache":{"short":300,"long":3600},"inputLimits":{"maxRequestBytes":33554432,"images":{"resize":{"maxWidth":2000,"maxHeight":2000,"maxBytes":4718592,"jpegQuality":80},"maxPerMessage":20,"maxPerRequest":600}},"samplingParams":{"temperature":0.7},"samplingParamsByThinkingLevel":{"high":{"temperature":1}},"type":"chat"}`},
		{"stated empty", `{"id":"m","name":"","api":"","provider":"","baseUrl":"","reasoning":false,"input":[],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"tiers":[]},"contextWindow":0,"maxTokens":0,"headers":{},"compat":{},"thinkingLevelMap":{},"promptCache":{},"inputLimits":{"images":{"resize":{}}},"samplingParams":{},"samplingParamsByThinkingLevel":{}}`},
		{"stated zeros", `{"id":"m","name":"","api":"","provider":"","baseUrl":"","reasoning":false,"input":[],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":0,"maxTokens":0,"promptCache":{"short":0,"long":0},"inputLimits":{"maxRequestBytes":0,"images":{"resize":{"maxWidth":0,"maxHeight":0,"maxBytes":0,"jpegQuality":0},"maxPerMessage":0,"maxPerRequest":0}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m Model
			require.NoError(t, json.Unmarshal([]byte(tt.json), &m))
			got, err := json.Marshal(m)
			require.NoError(t, err)
			assert.Equal(t, tt.json, string(got))
		})
	}
}

func TestThinkingLevelMapJSON(t *testing.T) {
	low := "low"
	tests := []struct {
		name string
		m    ThinkingLevelMap
		want string
	}{
		{"nil", nil, `null`},
		{"empty", ThinkingLevelMap{}, `{}`},
		{"levels in order", ThinkingLevelMap{ThinkingMax: &low, "b": nil, ThinkingOff: nil, "a": &low}, `{"off":null,"max":"low","a":"low","b":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.m)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}
